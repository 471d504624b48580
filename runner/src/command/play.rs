//! What every game's command shares: the options `--seed --jobs --out --fuel --memory` (and
//! the engine's `--no-cache` ...), loading every bot before the first game, the progress bar,
//! the manifest's bot list and the closing report.

use super::engine::EngineArgs;
use super::phases::Phases;
use crate::games::run::{self, Folder, Resume};
use crate::games::{Finished, Game, Player};
use crate::referee::record::is_referee_fault;
use crate::sandbox::{Bot, Limits, Sandbox};
use crate::tournament::archive::Archive;
use crate::tournament::journal::{Header, JOURNAL};
use crate::tournament::leaderboard::Leaderboard;
use crate::tournament::results::head_to_head;
use crate::tournament::store::Store;
use crate::tournament::{MatchSummary, RefereeEntry, RunPlan, Shard};
use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Options every tournament command takes.
#[derive(Args, Clone)]
pub struct TournamentArgs {
    /// Seed of the run: decks, dice and the bots' random streams derive from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Archive folder (replaced if it holds an earlier koth archive).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Fuel per invocation.
    #[arg(long, default_value_t = Limits::default().fuel)]
    fuel: u64,
    /// Linear memory per instance, in MiB.
    #[arg(long, default_value_t = 64)]
    memory: u64,
    /// Continue the run in the --out folder from its journal, playing only the matches it
    /// lacks (after a crash or kill); give the same bots and options.
    #[arg(long)]
    resume: bool,
    /// Play only a deterministic share of the matches, K of N (such as 2/4), on this machine;
    /// `koth merge` then joins the N shard folders into the archive of the whole run.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Write the HTML report (`report.html` in the archive folder) at the end of the run.
    #[arg(long)]
    pub report: bool,
    /// Keep every finished match in this folder, by what defines it (game, options, seed,
    /// the bots in their seats, the round, koth's version), and take from it every match it
    /// already holds: a run after one bot changed plays only that bot's matches. The archive
    /// is the same as a run from scratch.
    #[arg(long, value_name = "DIR")]
    reuse: Option<PathBuf>,
    /// Print where the command's time went, phase by phase (loading, preparing the folder,
    /// playing, the journal, results and ratings, writing the archive, cleaning up), on stderr.
    #[arg(long)]
    timings: bool,
    /// Print nothing but errors (the benches run the whole command this way).
    #[arg(skip)]
    quiet: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// What the options come to, checked.
pub struct Setup {
    /// Worker threads.
    pub jobs: usize,
    /// Per-invocation limits.
    pub limits: Limits,
    /// The sandbox, pool sized for the workers.
    pub sandbox: Sandbox,
    /// Where the command's time goes, from here on (loading the bots comes first).
    pub phases: Phases,
}

impl TournamentArgs {
    /// Check the options and build the sandbox for a run of `bots` bots.
    pub fn setup(&self, bots: usize) -> anyhow::Result<Setup> {
        let phases = Phases::new();
        if self.memory == 0 || self.memory > 4096 {
            bail!("--memory {} is out of range (1..=4096 MiB)", self.memory);
        }
        if self.fuel == 0 {
            bail!("--fuel must be positive");
        }
        let jobs = self.jobs.unwrap_or_else(super::cores);
        if jobs == 0 {
            bail!("--jobs must be at least 1");
        }
        let memory_bytes = self.memory << 20;
        let sandbox = self.engine.sandbox_for_bots(jobs, bots, memory_bytes)?;
        Ok(Setup {
            jobs,
            limits: Limits {
                fuel: self.fuel,
                memory_bytes,
                ..Limits::default()
            },
            sandbox,
            phases,
        })
    }

    /// The options of a whole run into `out` with `jobs` workers and nothing printed, as a
    /// benchmark runs it (the engine's options as given).
    pub fn for_bench(out: &Path, jobs: usize, engine: EngineArgs) -> TournamentArgs {
        TournamentArgs {
            seed: 1,
            jobs: Some(jobs),
            out: Some(out.to_path_buf()),
            fuel: Limits::default().fuel,
            memory: Limits::default().memory_bytes >> 20,
            resume: false,
            shard: None,
            report: false,
            reuse: None,
            timings: false,
            quiet: true,
            engine,
        }
    }

    /// With `--report`: write the HTML report into the archive folder `out`, and say where.
    pub fn write_report(&self, out: &Path) {
        if self.report {
            super::report::after_run(out);
        }
    }

    /// The archive folder: `--out`, or `koth-out/<default>`.
    pub fn out(&self, default: &str) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| Path::new("koth-out").join(default))
    }
}

/// Load and check every bot before the first game of `game` (`coup`, `bank-heist`, `euchre`):
/// a broken bot, a component that cannot play this game, or two bots with one name stops the
/// run before anything is played, with every fault named.
pub fn load_bots(
    sandbox: &Sandbox,
    paths: &[PathBuf],
    game: &str,
) -> anyhow::Result<Vec<Arc<Bot>>> {
    let mut bots: Vec<Arc<Bot>> = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match sandbox.load_file(path, None) {
            Ok(b) => {
                if let Err(why) = crate::worlds::check_game(&b, game) {
                    errors.push(format!("bot `{}` ({}) {why}", b.name(), path.display()));
                } else if let Some(other) = bots.iter().find(|o| o.name() == b.name()) {
                    errors.push(format!(
                        "two bots are named `{}` ({}); rename one file",
                        other.name(),
                        path.display()
                    ));
                } else {
                    bots.push(Arc::new(b));
                }
            }
            Err(e) => errors.push(e.to_string()),
        }
    }
    if !errors.is_empty() {
        for e in &errors {
            eprintln!("koth: {e}");
        }
        bail!(
            "{} bot(s) rejected before the tournament started; nothing was played",
            errors.len()
        );
    }
    Ok(bots)
}

/// What a run plays: the game, with its referee's manifest entry for a plugin.
pub struct Run<'a, G> {
    /// The game.
    pub game: &'a G,
    /// The referee of a plugin game, as the manifest records it.
    pub referee: Option<RefereeEntry>,
    /// What a match is called in messages (`games`, `tournaments`).
    pub unit: &'a str,
    /// The process ends after this run (a tournament command), so its records need not be
    /// freed; a bench that plays several runs in one process says false.
    pub then_exits: bool,
}

/// Play a game's tournament as the options say (whole, resumed from its journal, or one
/// shard), write the archive (a shard keeps its journal instead) and report.
pub fn play<G: Game>(
    run: Run<'_, G>,
    args: &TournamentArgs,
    setup: &Setup,
    bots: &[Arc<Bot>],
    paths: &[PathBuf],
    opts: G::Options,
    out: &Path,
) -> anyhow::Result<ExitCode> {
    let Run {
        game,
        referee,
        unit,
        then_exits,
    } = run;
    let phases = &setup.phases;
    phases.mark("load");
    let files = paths.iter().map(|p| {
        p.file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default()
    });
    let manifest = run::manifest(game.name(), referee, bots, files, opts, &setup.sandbox);
    let total = game.match_count(bots.len(), &manifest.options);
    let header = Header::new(total, args.shard);
    let journal_path = out.join(JOURNAL);
    if args.resume && !run::journal_started(&journal_path) {
        if out.join("results.json").is_file() && !journal_path.exists() {
            run::same_run(out, &manifest)?;
            println!(
                "{} holds a finished archive of this run: nothing to resume",
                out.display()
            );
            args.write_report(out);
            return Ok(ExitCode::SUCCESS);
        }
        // Killed before its first match was journaled (or never started): start it afresh.
        eprintln!("{}: nothing played yet; starting the run", out.display());
    }
    let resume = if args.resume {
        Resume::Same
    } else {
        Resume::Never
    };
    let Folder {
        archive,
        journal,
        done,
    } = Folder::prepare(out, &manifest, &header, resume)?;
    if let Some(viewer) = game.viewer() {
        archive.write(crate::referee::pages::VIEWER_FILE, viewer.as_bytes())?;
    }
    phases.mark("prepare folder");
    let owned = header.owned();
    if !done.is_empty() {
        eprintln!(
            "Resuming {}: {} of {owned} {unit} already played",
            out.display(),
            done.len()
        );
    }
    let store = args
        .reuse
        .as_deref()
        .map(Store::open)
        .transpose()
        .context("--reuse")?;
    let reuse = store.as_ref().map(|st| run::reuse(game, st, &manifest));
    let plan = RunPlan {
        done,
        select: args
            .shard
            .map(|s| (0..total).filter(|&m| s.owns(m)).collect()),
        journal: Some(&journal),
        reuse: reuse.as_ref(),
    };
    let players: Vec<Arc<dyn Player>> = bots
        .iter()
        .map(|b| Arc::clone(b) as Arc<dyn Player>)
        .collect();
    let (records, elapsed) = with_progress(owned, unit, |progress| {
        game.play(&players, &manifest.options, setup.jobs, progress, plan)
    });
    phases.mark("play");
    phases.journal_appends(journal.busy());
    let records = records?;
    let known = journal.finish()?;
    phases.mark("journal sync");
    if let (Some(reuse), Some(dir)) = (&reuse, &args.reuse) {
        let reused = reuse.reused.load(std::sync::atomic::Ordering::Relaxed);
        let played = reuse.stored.load(std::sync::atomic::Ordering::Relaxed);
        println!(
            "{}{}",
            crate::tournament::store::reuse_line(played, unit, reused, dir),
            match game.reuse_note(&manifest.options) {
                Some(note) if reused == 0 => format!(" ({note})"),
                _ => String::new(),
            }
        );
    }
    if let Some(shard) = args.shard {
        // A shard keeps its manifest and journal only (an earlier archive's files went when
        // the folder was prepared).
        println!(
            "Shard {shard}: {owned} of {total} {unit} played in {:.2} s; their journal is in {}.\n\
             When all {} shards are done: koth merge SHARD_DIR... --out DIR",
            elapsed.as_secs_f64(),
            journal_path.display(),
            shard.count
        );
        if args.report {
            eprintln!(
                "koth: a shard has no archive to report on: run `koth report` on the merged one"
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
    let names = bots.iter().map(|b| b.name().to_string()).collect();
    let run = run::conclude(
        game,
        &manifest,
        names,
        records,
        &known,
        &archive,
        out,
        &mut |phase| phases.mark(phase),
    )
    .with_context(|| format!("writing the archive in {}", out.display()))?;
    let code = if args.quiet {
        void_code(run.summaries())
    } else {
        report(
            run.leaderboard(),
            run.names(),
            run.summaries(),
            unit,
            run.invocations(),
            Some(elapsed).filter(|_| !args.resume),
            out,
        )
    };
    args.write_report(out);
    phases.mark("report");
    if args.timings {
        eprint!("{}", phases.render());
    }
    if then_exits {
        // The command ends here: freeing the run's records one by one (gigabytes in a
        // 100-bot ladder, 1.3 s of the whole) would only delay the exit.
        std::mem::forget(run);
    }
    Ok(code)
}

/// The exit code of a run whose report is not printed: 3 when any match is void.
fn void_code(summaries: &[MatchSummary]) -> ExitCode {
    if summaries.iter().any(|m| m.void.is_some()) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}

/// Run `play` with a progress bar over `total` `unit`s; returns what it returned and how
/// long it took.
pub fn with_progress<R>(
    total: usize,
    unit: &str,
    play: impl FnOnce(&(dyn Fn(usize, usize) + Sync)) -> R,
) -> (R, Duration) {
    let bar = progress_bar(total, unit);
    let started = std::time::Instant::now();
    let result = play(&|done, _| bar.set_position(done as u64));
    let elapsed = started.elapsed();
    bar.finish_and_clear();
    (result, elapsed)
}

/// A progress bar on a terminal (hidden otherwise, so logs stay clean).
fn progress_bar(total: usize, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total as u64);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit}  {{elapsed}} (eta {{eta}})"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn list_void(matches: &[(usize, &MatchSummary)]) {
    for (i, m) in matches {
        eprintln!(
            "koth:   #{i} {}: {}",
            m.label,
            m.void.as_deref().unwrap_or_default()
        );
    }
}

/// Create the archive folder (refusing one that holds anything but an earlier archive).
pub fn archive(out: &Path) -> anyhow::Result<Archive> {
    Archive::create(out).with_context(|| format!("preparing the archive {}", out.display()))
}

/// Print the leaderboard and the run's figures; list void matches loudly. Exit code 3 when
/// any match is void (a host or referee fault: it counts for nobody and must be re-played).
pub fn report(
    leaderboard: &Leaderboard,
    names: &[String],
    summaries: &[MatchSummary],
    unit: &str,
    invocations: u64,
    elapsed: Option<Duration>,
    out: &Path,
) -> ExitCode {
    print!("{}", leaderboard.render());
    if let Some(table) = head_to_head(names, summaries) {
        print!("\n{table}");
    }
    match elapsed {
        Some(elapsed) => println!(
            "\n{} {unit}, {} invocations in {:.2} s ({:.0} invocations/s)",
            summaries.len(),
            invocations,
            elapsed.as_secs_f64(),
            invocations as f64 / elapsed.as_secs_f64().max(1e-9)
        ),
        None => println!("\n{} {unit}, {} invocations", summaries.len(), invocations),
    }
    println!(
        "Logs, results.json and the manifest are in {}",
        out.display()
    );
    let void: Vec<(usize, &MatchSummary)> = summaries
        .iter()
        .enumerate()
        .filter(|(_, m)| m.void.is_some())
        .collect();
    if void.is_empty() {
        return ExitCode::SUCCESS;
    }
    let (referee, host): (Vec<_>, Vec<_>) = void
        .into_iter()
        .partition(|(_, m)| m.void.as_deref().is_some_and(is_referee_fault));
    if !referee.is_empty() {
        eprintln!(
            "koth: REFEREE FAULT: {} of {} {unit} void; they count for nobody. The referee did \
             something koth cannot honour (each reason below); fix the referee and re-run. Void:",
            referee.len(),
            summaries.len()
        );
        list_void(&referee);
    }
    if !host.is_empty() {
        eprintln!(
            "koth: HOST FAULT: {} of {} {unit} void; they count for nobody. This is a koth bug: please report it with the manifest. Void:",
            host.len(),
            summaries.len()
        );
        list_void(&host);
    }
    ExitCode::from(3)
}
