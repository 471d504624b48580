//! `koth bench play`: what a referee costs as a plugin. The same tournament twice in one
//! run: played by a referee built into koth (`koth play coup`, `koth euchre`: the registry's
//! entry for the component's game), then by the same referee as a WebAssembly component
//! (`koth play coup_referee.wasm`, `euchre_referee.wasm`). Both must give the same games;
//! the figure is the ratio of their wall times.

use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::command::play::Run;
use koth::games::{registry, Finished, Game, Player};
use koth::referee::component::{ComponentReferee, RefereeLimits};
use koth::referee::game::{RefereeGame, RefereeRun};
use koth::referee::options::resolve;
use koth::referee::shape::RefereeOptions;
use koth::referee::Referee;
use koth::sandbox::{Limits, VfsLimits};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// The goal for the plugin's wall time, as a multiple of the built-in's (issue 15).
const GOAL: f64 = 1.3;

#[derive(Args)]
pub(crate) struct PlayBench {
    /// A built-in game's referee as a component (`coup_referee.wasm`, `euchre_referee.wasm`,
    /// built from `referees/<game>/component`).
    #[arg(value_name = "REFEREE.wasm")]
    referee: PathBuf,
    /// The game's bots (.wasm); at least two.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Rounds: matches per pairing, in the game's first format, with its default options.
    #[arg(long, alias = "games", default_value_t = 20)]
    rounds: u32,
    /// Times each way is played, alternating; the fastest of each counts.
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// Worker threads [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) fn run(a: PlayBench) -> anyhow::Result<ExitCode> {
    if a.bots.len() < 2 {
        bail!("the benchmark needs at least two bots");
    }
    if a.repeat == 0 || a.rounds == 0 {
        bail!("--repeat and --rounds must be at least 1");
    }
    let jobs = a.jobs.unwrap_or_else(koth::command::cores).max(1);
    let mut setup = crate::bench_setup(&a.engine, jobs, a.bots.len())?;
    let sandbox = &setup.sandbox;
    let t = Instant::now();
    let component = ComponentReferee::load(
        sandbox,
        &a.referee,
        RefereeLimits::default(),
        &VfsLimits::default(),
    )?;
    println!(
        "loaded the referee {} in {:.2} s",
        a.referee.display(),
        t.elapsed().as_secs_f64()
    );
    let d = component.description().clone();
    let native = registry::referee(&d.name).with_context(|| {
        format!(
            "{}: koth has no built-in referee of its game, {} (it has {})",
            a.referee.display(),
            d.name,
            registry::names().join(", ")
        )
    })?;
    if native.description() != &d {
        bail!(
            "{} does not describe {} as koth's built-in referee does: not its referee",
            a.referee.display(),
            d.name
        );
    }
    let bots = crate::load_bots_timed(sandbox, &a.bots, &d.name)?;
    let players: Vec<Arc<dyn Player>> = bots
        .iter()
        .map(|b| Arc::clone(b) as Arc<dyn Player>)
        .collect();
    // The game's defaults: its first format and way of filling teams, its options' defaults.
    let opts = RefereeOptions::new(
        &d,
        d.formats[0].into(),
        a.rounds,
        d.partners.first().map(|&p| p.into()),
        false,
        resolve(&d.options, &[])?,
        1,
        Limits::default(),
    );
    let entry = component.manifest_entry(&a.referee);
    let builtin = RefereeGame::new(native);
    let plugin = RefereeGame::new(Arc::new(component) as Arc<dyn Referee>);
    let time = |game: &RefereeGame| -> anyhow::Result<(f64, RefereeRun)> {
        let t = Instant::now();
        let run = game.play_whole(&players, &opts, jobs, &|_, _| {})?;
        Ok((t.elapsed().as_secs_f64(), run))
    };
    let (mut best_builtin, mut best_plugin) = (f64::INFINITY, f64::INFINITY);
    let mut last = None;
    for i in 1..=a.repeat {
        let (b, run_b) = time(&builtin)?;
        let (p, run_p) = time(&plugin)?;
        println!("run {i}: built-in {b:.2} s, plugin {p:.2} s");
        if run_b.records != run_p.records {
            bail!("the plugin's games differ from the built-in's: the referees are not the same");
        }
        if let Some(v) = run_p.summaries.iter().find_map(|m| m.void.as_ref()) {
            bail!("a game was void: {v}");
        }
        best_builtin = best_builtin.min(b);
        best_plugin = best_plugin.min(p);
        last = Some(run_b);
    }
    let run = last.context("no run")?;
    let inv = run.invocations();
    println!(
        "{} {}, {inv} invocations, {jobs} worker(s), the fastest of {} runs each:",
        run.records.len(),
        d.scoring.matches,
        a.repeat
    );
    println!(
        "built-in referee (koth play {}): {best_builtin:.2} s wall ({:.0} invocations/s)",
        d.name,
        inv as f64 / best_builtin
    );
    println!(
        "plugin referee (koth play {}): {best_plugin:.2} s wall ({:.0} invocations/s)",
        entry.file,
        inv as f64 / best_plugin
    );
    let ratio = best_plugin / best_builtin;
    println!(
        "ratio plugin / built-in: {ratio:.2}x (goal: at most {GOAL}x{})",
        if ratio <= GOAL { ", met" } else { ", NOT met" }
    );
    println!("the plugin's whole command (koth play):");
    crate::whole_command(
        Run {
            then_exits: false,
            game: &plugin,
            referee: Some(entry),
            unit: &d.scoring.matches,
        },
        &mut setup,
        &bots,
        &a.bots,
        &opts,
        &a.engine,
    )?;
    Ok(ExitCode::SUCCESS)
}
