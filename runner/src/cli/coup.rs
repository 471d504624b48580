//! `koth coup`: a Coup round robin between wasm bots.

use super::EngineArgs;
use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use koth::games::coup::tournament::{self, BotEntry, CoupOptions, Manifest, ScratchScope};
use koth::games::Player;
use koth::sandbox::{Bot, Limits, VfsLimits};
use koth::tournament::archive::Archive;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Clone, Copy, ValueEnum)]
enum Scope {
    Game,
    Tournament,
}

#[derive(Args)]
pub(crate) struct CoupArgs {
    /// Bot modules (.wasm); each bot's name is its file stem. At least two.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Rounds; in each, every ordered pair of bots plays once.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Tournament seed (decks and the bots' random streams derive from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    /// Scratch lifetime: a fresh directory per game, or one per bot for the whole tournament.
    #[arg(long, value_enum, default_value = "game")]
    scratch: Scope,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) fn run(args: CoupArgs) -> anyhow::Result<ExitCode> {
    if args.bots.len() < 2 {
        bail!("a tournament needs at least two bots");
    }
    if args.memory == 0 || args.memory > 4096 {
        bail!("--memory {} is out of range (1..=4096 MiB)", args.memory);
    }
    if args.fuel == 0 {
        bail!("--fuel must be positive");
    }
    let jobs = args.jobs.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    if jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let memory_bytes = args.memory << 20;
    let sandbox = args.engine.sandbox(jobs, memory_bytes)?;
    // Every bot is loaded and checked before the first game: a broken bot stops nothing later.
    let mut bots: Vec<Bot> = Vec::new();
    let mut errors = Vec::new();
    for path in &args.bots {
        match sandbox.load_file(path, None) {
            Ok(b) => {
                if let Some(other) = bots.iter().find(|o| o.name() == b.name()) {
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
    let opts = CoupOptions {
        rounds: args.rounds,
        seed: args.seed,
        limits: Limits {
            fuel: args.fuel,
            memory_bytes,
            ..Limits::default()
        },
        vfs: VfsLimits::default(),
        scratch: match args.scratch {
            Scope::Game => ScratchScope::Game,
            Scope::Tournament => ScratchScope::Tournament,
        },
    };
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("koth-out/coup-seed{}", args.seed)));
    let archive = Archive::create(&out)?;
    let players: Vec<&dyn Player> = bots.iter().map(|b| b as &dyn Player).collect();
    let total = tournament::schedule(players.len(), opts.rounds).len();
    eprintln!(
        "Coup: {} bots, {} rounds, {} games, seed {}, {} worker(s)",
        bots.len(),
        opts.rounds,
        total,
        opts.seed,
        jobs
    );
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(total as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let started = Instant::now();
    let result = tournament::run(&players, &opts, jobs, &|done, _| {
        bar.set_position(done as u64)
    });
    let elapsed = started.elapsed();
    bar.finish_and_clear();
    let manifest = Manifest {
        game: "coup".into(),
        koth_version: env!("CARGO_PKG_VERSION").into(),
        bots: bots
            .iter()
            .zip(&args.bots)
            .map(|(b, p)| BotEntry {
                name: b.name().to_string(),
                file: p
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                sha256: b.sha256_hex(),
            })
            .collect(),
        options: opts,
        engine: sandbox.settings().clone(),
    };
    tournament::write_archive(&result, &manifest, &archive)
        .with_context(|| format!("writing the archive in {}", out.display()))?;
    print!("{}", result.leaderboard.render());
    let invocations = result.invocations();
    println!(
        "\n{} games, {} invocations in {:.2} s ({:.0} invocations/s)",
        result.records.len(),
        invocations,
        elapsed.as_secs_f64(),
        invocations as f64 / elapsed.as_secs_f64().max(1e-9)
    );
    println!(
        "Logs, histories, results.json and the manifest are in {}",
        out.display()
    );
    let void = result.void_games();
    if void > 0 {
        eprintln!("koth: WARNING: {void} game(s) were void because the host failed (see results.json); they count for nobody");
        return Ok(ExitCode::from(3));
    }
    Ok(ExitCode::SUCCESS)
}
