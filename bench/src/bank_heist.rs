//! `koth bench bank-heist`: one whole Bank Heist tournament through koth, then the same
//! tournament (same seed, rabble and dice) with the bots as native processes, one per
//! decision, as the original controller ran them.

use anyhow::bail;
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::command::play::Run;
use koth::games::bank_heist::{self, rules::Variant};
use koth::games::{Finished, Game, Player};
use koth::sandbox::{Invocation, Limits, Outcome, Report, Vfs};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct BankHeistBench {
    /// The bots as wasm; the native build of each must be in --native-dir under the same stem.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Folder of the native builds.
    #[arg(long, value_name = "DIR")]
    native_dir: PathBuf,
    /// Games in the tournament.
    #[arg(long, default_value_t = 1100)]
    games: u32,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Skip the native run (it takes a minute or more).
    #[arg(long)]
    skip_native: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// A bot as a native program started once per decision with the same arguments, no folder.
struct NativeArgvPlayer {
    name: String,
    exe: PathBuf,
}

impl Player for NativeArgvPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn invoke(&self, inv: &Invocation, _dir: Option<&mut Vfs>) -> Report {
        let out = Command::new(&self.exe)
            .args(
                inv.args
                    .iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned()),
            )
            .stdin(Stdio::null())
            .output();
        let (outcome, stdout, stderr) = match out {
            Ok(o) if o.status.success() => (Outcome::Ok, o.stdout, o.stderr),
            Ok(o) => (
                Outcome::Exit(o.status.code().unwrap_or(1) as u32),
                o.stdout,
                o.stderr,
            ),
            Err(e) => (
                Outcome::HostFault(format!("cannot spawn: {e}")),
                Vec::new(),
                Vec::new(),
            ),
        };
        Report {
            outcome,
            fuel_used: 0,
            stdout,
            stderr,
            stderr_dropped: 0,
        }
    }
}

pub(crate) fn run(a: BankHeistBench) -> anyhow::Result<ExitCode> {
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    // One tournament is one sequence of decisions: one worker is all it can use.
    let mut setup = crate::bench_setup(&a.engine, 1, a.bots.len())?;
    let bots = crate::load_bots_timed(&setup.sandbox, &a.bots, "bank-heist")?;
    // `koth bank-heist --games G --seed S`'s options: Bank Heist's referee, built in.
    let opts = bank_heist::options(1, Some(a.games), Variant::Text, a.seed, Limits::default())?;
    let game = bank_heist::game();
    let players: Vec<Arc<dyn Player>> = bots
        .iter()
        .map(|b| Arc::clone(b) as Arc<dyn Player>)
        .collect();
    let t = Instant::now();
    let koth_run = game.play_whole(&players, &opts, 1, &|_, _| {})?;
    let koth_secs = t.elapsed().as_secs_f64();
    let inv = koth_run.invocations();
    println!(
        "koth:   1 tournament of {} games, {} invocations in {:.2} s wall ({:.0} invocations/s, {:.1} µs each)",
        a.games,
        inv,
        koth_secs,
        inv as f64 / koth_secs,
        koth_secs * 1e6 / inv as f64
    );
    crate::whole_command(
        Run {
            then_exits: false,
            game: &game,
            referee: None,
            unit: "tournaments",
        },
        &mut setup,
        &bots,
        &a.bots,
        &opts,
        &a.engine,
    )?;
    if a.skip_native {
        return Ok(ExitCode::SUCCESS);
    }
    let natives = crate::native_players(&a.bots, &a.native_dir, |name, exe| NativeArgvPlayer {
        name,
        exe,
    })?;
    let nplayers: Vec<Arc<dyn Player>> = natives
        .into_iter()
        .map(|n| Arc::new(n) as Arc<dyn Player>)
        .collect();
    let t = Instant::now();
    let native_run = game.play_whole(&nplayers, &opts, 1, &|_, _| {})?;
    let native_secs = t.elapsed().as_secs_f64();
    let what = format!("1 tournament of {} games", a.games);
    crate::print_comparison(&what, inv, koth_secs, native_run.invocations(), native_secs);
    Ok(ExitCode::SUCCESS)
}
