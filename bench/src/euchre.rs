//! `koth bench euchre`: a Euchre tournament through koth, then the same games (same decks and
//! seats) with the bots as native processes, one per decision, as the seed's controller ran
//! them: the input on stdin, the memory file in a real folder.

use anyhow::bail;
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::command::play::Run;
use koth::games::euchre::{self, Partners};
use koth::games::{Finished, Game, Player};
use koth::sandbox::vfs::{OpenOptions, SnapshotEntry};
use koth::sandbox::{Invocation, Limits, Outcome, Report, Vfs};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct EuchreBench {
    /// The bots as wasm; the native build of each must be in --native-dir under the same stem.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Folder of the native builds.
    #[arg(long, value_name = "DIR")]
    native_dir: PathBuf,
    /// Games per pair of bots.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Worker threads [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Skip the native run (it takes minutes).
    #[arg(long)]
    skip_native: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// A bot as a native program started once per decision, its memory kept in a real folder
/// (one per bot and thread) that mirrors the seat's virtual directory around each call.
struct NativeStdinPlayer {
    name: String,
    exe: PathBuf,
    root: PathBuf,
}

impl NativeStdinPlayer {
    fn run(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Result<Report, String> {
        let folder = self
            .root
            .join(format!("{}-{:?}", self.name, std::thread::current().id()));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).map_err(|e| e.to_string())?;
        if let Some(d) = dir.as_deref() {
            for e in d.snapshot() {
                if let SnapshotEntry::File(p, data) = e {
                    std::fs::write(folder.join(p), data).map_err(|e| e.to_string())?;
                }
            }
        }
        let mut child = Command::new(&self.exe)
            .current_dir(&folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot spawn: {e}"))?;
        if let Some(mut stdin) = child.stdin.take() {
            let _ = stdin.write_all(&inv.stdin);
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if let Some(d) = dir {
            for entry in std::fs::read_dir(&folder).map_err(|e| e.to_string())? {
                let entry = entry.map_err(|e| e.to_string())?;
                let data = std::fs::read(entry.path()).map_err(|e| e.to_string())?;
                let name = entry.file_name().to_string_lossy().into_owned();
                let opts = OpenOptions {
                    create: true,
                    truncate: true,
                    ..OpenOptions::default()
                };
                if let Ok(node) = d.open(Vfs::ROOT, name.as_bytes(), opts) {
                    let _ = d.write_at(node, 0, &data);
                }
            }
        }
        Ok(Report {
            outcome: if out.status.success() {
                Outcome::Ok
            } else {
                Outcome::Exit(out.status.code().unwrap_or(1) as u32)
            },
            fuel_used: 0,
            stdout: out.stdout,
            stderr: out.stderr,
            stderr_dropped: 0,
        })
    }
}

impl Player for NativeStdinPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        self.run(inv, dir).unwrap_or_else(|why| Report {
            outcome: Outcome::HostFault(why),
            fuel_used: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_dropped: 0,
        })
    }
}

pub(crate) fn run(a: EuchreBench) -> anyhow::Result<ExitCode> {
    if a.bots.len() < 2 {
        bail!("the benchmark needs at least two bots");
    }
    let jobs = a.jobs.unwrap_or_else(koth::command::cores);
    let mut setup = crate::bench_setup(&a.engine, jobs, a.bots.len())?;
    let bots = crate::load_bots_timed(&setup.sandbox, &a.bots, euchre::NAME)?;
    let opts = euchre::options(
        a.games,
        euchre::rules::DEFAULT_TARGET,
        Partners::Copies,
        false,
        1,
        Limits::default(),
    )?;
    let game = euchre::game();
    let players: Vec<Arc<dyn Player>> = bots
        .iter()
        .map(|b| Arc::clone(b) as Arc<dyn Player>)
        .collect();
    let t = Instant::now();
    let koth_run = game.play_whole(&players, &opts, jobs, &|_, _| {})?;
    let koth_secs = t.elapsed().as_secs_f64();
    let inv = koth_run.invocations();
    println!(
        "koth:   {} games, {} invocations in {:.2} s wall ({:.0} invocations/s, {} workers)",
        koth_run.records.len(),
        inv,
        koth_secs,
        inv as f64 / koth_secs,
        jobs
    );
    print!("{}", koth_run.leaderboard.render());
    let run = Run {
        then_exits: false,
        game: &game,
        referee: None,
        unit: "games",
    };
    crate::whole_command(run, &mut setup, &bots, &a.bots, &opts, &a.engine)?;
    if a.skip_native {
        return Ok(ExitCode::SUCCESS);
    }
    let root = std::env::temp_dir().join(format!("koth-bench-euchre-{}", std::process::id()));
    let natives = crate::native_players(&a.bots, &a.native_dir, |name, exe| NativeStdinPlayer {
        name,
        exe,
        root: root.clone(),
    })?;
    let nplayers: Vec<Arc<dyn Player>> = natives
        .into_iter()
        .map(|n| Arc::new(n) as Arc<dyn Player>)
        .collect();
    let t = Instant::now();
    let native_run = game.play_whole(&nplayers, &opts, jobs, &|_, _| {})?;
    let native_secs = t.elapsed().as_secs_f64();
    let _ = std::fs::remove_dir_all(&root);
    let games = format!("{} games", native_run.records.len());
    crate::print_comparison(
        &games,
        inv,
        koth_secs,
        native_run.invocations(),
        native_secs,
    );
    Ok(ExitCode::SUCCESS)
}
