//! What every game's command shares: the options `--seed --jobs --out --fuel --memory` (and
//! the engine's `--no-cache` ...), loading every bot before the first game, the progress bar,
//! the manifest's bot list and the closing report.

use super::EngineArgs;
use anyhow::{bail, Context};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use koth::sandbox::{Bot, Limits, Sandbox};
use koth::tournament::archive::Archive;
use koth::tournament::leaderboard::Leaderboard;
use koth::tournament::results::head_to_head;
use koth::tournament::{BotEntry, Manifest, MatchSummary};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Options every tournament command takes.
#[derive(Args, Clone)]
pub(crate) struct TournamentArgs {
    /// Seed of the run: decks, dice and the bots' random streams derive from it.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
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
    #[command(flatten)]
    engine: EngineArgs,
}

/// What the options come to, checked.
pub(crate) struct Setup {
    /// Worker threads.
    pub(crate) jobs: usize,
    /// Per-invocation limits.
    pub(crate) limits: Limits,
    /// The sandbox, pool sized for the workers.
    pub(crate) sandbox: Sandbox,
}

impl TournamentArgs {
    /// Check the options and build the sandbox for a run of `bots` bots.
    pub(crate) fn setup(&self, bots: usize) -> anyhow::Result<Setup> {
        if self.memory == 0 || self.memory > 4096 {
            bail!("--memory {} is out of range (1..=4096 MiB)", self.memory);
        }
        if self.fuel == 0 {
            bail!("--fuel must be positive");
        }
        let jobs = self.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        });
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
        })
    }

    /// The archive folder: `--out`, or `koth-out/<default>`.
    pub(crate) fn out(&self, default: &str) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| Path::new("koth-out").join(default))
    }
}

/// Load and check every bot before the first game of `game` (`coup`, `bank-heist`, `euchre`):
/// a broken bot, a component that cannot play this game, or two bots with one name stops the
/// run before anything is played, with every fault named.
pub(crate) fn load_bots(
    sandbox: &Sandbox,
    paths: &[PathBuf],
    game: &str,
) -> anyhow::Result<Vec<Bot>> {
    let mut bots: Vec<Bot> = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match sandbox.load_file(path, None) {
            Ok(b) => {
                if let Err(why) = koth::worlds::check_game(&b, game) {
                    errors.push(format!("bot `{}` ({}) {why}", b.name(), path.display()));
                } else if let Some(other) = bots.iter().find(|o| o.name() == b.name()) {
                    errors.push(format!(
                        "two bots are named `{}` ({}); rename one file",
                        other.name(),
                        path.display()
                    ));
                } else {
                    bots.push(b);
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

/// The manifest of a run of `game` with these bots (loaded from `paths`) and options.
pub(crate) fn manifest<O>(
    game: &str,
    bots: &[Bot],
    paths: &[PathBuf],
    options: O,
    sandbox: &Sandbox,
) -> Manifest<O> {
    Manifest {
        game: game.into(),
        koth_version: env!("CARGO_PKG_VERSION").into(),
        bots: manifest_bots(bots, paths),
        options,
        engine: sandbox.settings().clone(),
    }
}

/// Run `play` with a progress bar over `total` `unit`s; returns what it returned and how
/// long it took.
pub(crate) fn with_progress<R>(
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

/// The bots as the manifest records them.
fn manifest_bots(bots: &[Bot], paths: &[PathBuf]) -> Vec<BotEntry> {
    bots.iter()
        .zip(paths)
        .map(|(b, p)| BotEntry {
            name: b.name().to_string(),
            file: p
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            sha256: b.sha256_hex(),
        })
        .collect()
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

/// Create the archive folder (refusing one that holds anything but an earlier archive).
pub(crate) fn archive(out: &Path) -> anyhow::Result<Archive> {
    Archive::create(out).with_context(|| format!("preparing the archive {}", out.display()))
}

/// Print the leaderboard and the run's figures; list void matches loudly. Exit code 3 when
/// any match is void (a host fault: it counts for nobody and must be re-played).
pub(crate) fn report(
    leaderboard: &Leaderboard,
    names: &[String],
    summaries: &[MatchSummary],
    unit: &str,
    invocations: u64,
    elapsed: Duration,
    out: &Path,
) -> ExitCode {
    print!("{}", leaderboard.render());
    if let Some(table) = head_to_head(names, summaries) {
        print!("\n{table}");
    }
    println!(
        "\n{} {unit}, {} invocations in {:.2} s ({:.0} invocations/s)",
        summaries.len(),
        invocations,
        elapsed.as_secs_f64(),
        invocations as f64 / elapsed.as_secs_f64().max(1e-9)
    );
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
    eprintln!(
        "koth: HOST FAULT: {} of {} {unit} void; they count for nobody. This is a koth bug: please report it with the manifest. Void:",
        void.len(),
        summaries.len()
    );
    for (i, m) in void {
        eprintln!(
            "koth:   #{i} {}: {}",
            m.label,
            m.void.as_deref().unwrap_or_default()
        );
    }
    ExitCode::from(3)
}
