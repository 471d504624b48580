//! `koth-bench`, run as `koth bench`: the figures the project's speed targets are judged by,
//! each next to the classic arbiter's model (a native process per decision) measured in the
//! same run. A binary of its own, so that none of this ships in `koth`; `koth bench ARGS`
//! runs the `koth-bench` built beside it.

mod bank_heist;
mod contest;
mod euchre;
mod hostcalls;
mod play;
mod python;
mod scale;
mod serve;

/// The `koth` binary's allocator (see `runner/Cargo.toml`), so in-process figures match it.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use anyhow::{bail, Context};
use clap::{Args, Parser, Subcommand};
use koth::command::engine::EngineArgs;
use koth::command::phases::Phases;
use koth::command::play::{self as common, Run, Setup, TournamentArgs};
use koth::games::coup;
use koth::games::{Finished, Game, Player};
use koth::sandbox::{Bot, Invocation, Limits, Report, Sandbox, Vfs, VfsLimits};
use koth_bench::floor::{Floor, MINIMAL_WAT};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Measure invocation and tournament speed against native processes.
#[derive(Parser)]
#[command(name = "koth bench", bin_name = "koth bench", version = koth::VERSION)]
struct BenchArgs {
    #[command(subcommand)]
    what: BenchWhat,
}

#[derive(Subcommand)]
enum BenchWhat {
    /// One decision: koth's full invocation vs spawning the native build of the same bot.
    Invoke(InvokeBench),
    /// A whole Coup tournament: koth vs the same bots as native processes, one per move.
    Coup(CoupBench),
    /// One whole Bank Heist tournament: koth vs the same bots as native processes.
    BankHeist(crate::bank_heist::BankHeistBench),
    /// A Euchre tournament: koth vs the same bots as native processes, one per decision.
    Euchre(crate::euchre::EuchreBench),
    /// A referee as a plugin: one Euchre tournament by the built-in referee and by the same
    /// referee as a component (euchre_referee.wasm), wall times and their ratio.
    Play(crate::play::PlayBench),
    /// Host-call overhead: every WASI function's costliest loop vs a pure-wasm loop.
    Hostcalls(hostcalls::HostcallsBench),
    /// A plain Python bot's decision: koth (CPython for WASI) vs native `python3 -S`.
    Python(python::PythonBench),
    /// A running contest server (`koth serve`) under concurrent readers of its leaderboard
    /// and API, on loopback: latency p50 and p99.
    Serve(crate::serve::ServeBench),
    /// A Coup tournament's play time by worker count (1, 2, 4, ... up to the cores), each run
    /// a whole `koth coup` process, with its CPU time, page faults and context switches per
    /// decision; every run's archive must be byte-identical.
    Scale(crate::scale::ScaleBench),
    /// An N-bot Coup ladder (distinct copies of the given modules) played into a match store,
    /// then one more entry added and re-ranked: each phase's time and the disk each run adds.
    Ladder(crate::scale::LadderBench),
}

#[derive(Args)]
struct InvokeBench {
    /// The bot as wasm (a Coup bot: it reads the history file and appends one move): a core
    /// module or a `coup-bot` component.
    #[arg(value_name = "BOT.wasm")]
    wasm: PathBuf,
    /// The same bot compiled natively.
    #[arg(long, value_name = "BIN")]
    native: PathBuf,
    /// Invocations through koth per configuration.
    #[arg(long, default_value_t = 20_000)]
    iterations: usize,
    /// Native process spawns.
    #[arg(long, default_value_t = 500)]
    spawns: usize,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(Args)]
struct CoupBench {
    /// The bots as wasm; the native build of each must be in --native-dir under the same stem.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Folder of the native builds.
    #[arg(long, value_name = "DIR")]
    native_dir: PathBuf,
    /// Rounds.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Worker threads [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Skip the native run (it takes minutes).
    #[arg(long)]
    skip_native: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

fn main() -> ExitCode {
    match run(BenchArgs::parse()) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("koth bench: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// The `koth` the benches run as a user would (whole commands, `koth serve`, the upload
/// checker): the one built beside this binary.
fn koth_exe() -> anyhow::Result<PathBuf> {
    koth::command::koth_executable().context(
        "no `koth` beside koth-bench: build both (cargo build --release -p koth -p koth-bench)",
    )
}

fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        BenchWhat::Invoke(a) => invoke_bench(a),
        BenchWhat::Coup(a) => coup_bench(a),
        BenchWhat::BankHeist(a) => crate::bank_heist::run(a),
        BenchWhat::Euchre(a) => crate::euchre::run(a),
        BenchWhat::Play(a) => crate::play::run(a),
        BenchWhat::Hostcalls(a) => hostcalls::run(a),
        BenchWhat::Python(a) => python::run(a),
        BenchWhat::Serve(a) => crate::serve::run(a),
        BenchWhat::Scale(a) => crate::scale::scale(a),
        BenchWhat::Ladder(a) => crate::scale::ladder(a),
    }
}

/// A small mid-game Coup position: the history file and the arguments after it.
const HISTORY: &[u8] = b"I\nFp\nTp\nI\nSp\n";
const FILE: &str = "bench_history.txt";
fn coup_args() -> Vec<String> {
    ["1", "4", "~!", "I\n", "F", "E", "T", "A", "S"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn median(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    (us(v[v.len() / 2]), us(v[v.len() * 9 / 10]))
}

/// Time `iterations` Coup decisions of `bot` after `warmup` unmeasured ones, each in a fresh
/// directory holding the history, the check that it appended a move included; every one must
/// append a move. Returns the times and the fuel of the last.
fn decisions(
    bot: &koth::sandbox::Bot,
    inv: &Invocation,
    iterations: usize,
    warmup: usize,
) -> anyhow::Result<(Vec<Duration>, u64)> {
    let mut times = Vec::with_capacity(iterations);
    let mut fuel = 0;
    for i in 0..iterations + warmup {
        let t = Instant::now();
        let mut dir = Vfs::new(VfsLimits::default());
        dir.put_host_file(FILE, HISTORY);
        // Through `Player`: a typed-world component goes through its world's adapter.
        let r = koth::games::Player::invoke(bot, inv, Some(&mut dir));
        let ok = r.outcome.is_ok()
            && dir
                .host_file(FILE)
                .is_some_and(|h| h.len() > HISTORY.len() && h.starts_with(HISTORY));
        let elapsed = t.elapsed();
        if !ok {
            bail!(
                "the bot did not append a move: {} (stderr: {})",
                r.outcome,
                String::from_utf8_lossy(&r.stderr)
            );
        }
        fuel = r.fuel_used;
        if i >= warmup {
            times.push(elapsed);
        }
    }
    Ok((times, fuel))
}

fn invoke_bench(a: InvokeBench) -> anyhow::Result<ExitCode> {
    let mut argv = vec![FILE.to_string()];
    argv.extend(coup_args());
    let inv = Invocation {
        args: argv.iter().map(|s| s.as_bytes().to_vec()).collect(),
        stdin: Vec::new(),
        seed: [7; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    let tmp = std::env::temp_dir().join(format!("koth-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp)?;
    let native = std::fs::canonicalize(&a.native)
        .with_context(|| format!("--native {}", a.native.display()))?;
    println!(
        "bot: {} (wasm) / {} (native)",
        a.wasm.display(),
        native.display()
    );
    println!("each koth invocation: fresh instance, WASI set-up, virtual directory with the history file, _start, the append check");
    let mut results = Vec::new();
    for pooling in [true, false] {
        let engine = EngineArgs {
            no_pooling: !pooling,
            ..a.engine.clone()
        };
        // Room for the floor and the minimal module beside the bot, each with a warm slot.
        let sandbox = engine.sandbox_for_bots(1, 3, Limits::default().memory_bytes)?;
        let bot = sandbox.load_file(&a.wasm, None)?;
        let allocator = if pooling { "pooling" } else { "on-demand" };
        if !pooling {
            let (times, fuel) = decisions(&bot, &inv, a.iterations, 200)?;
            let (med, p90) = median(times);
            println!("koth, {allocator} allocator: median {med:.1} µs, p90 {p90:.1} µs ({} invocations, {fuel} fuel each)", a.iterations);
            results.push(med);
            continue;
        }
        // The floor and the minimal module (bare and through koth) take turns in short runs,
        // so that a change in the machine's load falls on them alike.
        let floor = Floor::new(sandbox.engine())?;
        let bare_minimal = Floor::minimal(sandbox.engine())?;
        let minimal_wasm = wat::parse_str(MINIMAL_WAT)?;
        let minimal = sandbox.load_bytes("minimal", &minimal_wasm)?;
        let turns = 20.min(a.iterations.max(1));
        let per_turn = a.iterations.div_ceil(turns);
        let (mut floor_times, mut min_times) = (Vec::new(), Vec::new());
        let mut bare_times = Vec::new();
        let mut min_fuel = 0;
        for turn in 0..turns {
            let warmup = if turn == 0 { 200 } else { 20 };
            for i in 0..per_turn + warmup {
                let t = Instant::now();
                floor
                    .run()
                    .map_err(|e| anyhow::anyhow!("bare wasmtime's empty module: {e:#}"))?;
                if i >= warmup {
                    floor_times.push(t.elapsed());
                }
            }
            for i in 0..per_turn + warmup {
                let t = Instant::now();
                bare_minimal
                    .run()
                    .map_err(|e| anyhow::anyhow!("bare wasmtime's minimal module: {e:#}"))?;
                if i >= warmup {
                    bare_times.push(t.elapsed());
                }
            }
            let (t, f) = decisions(&minimal, &inv, per_turn, warmup)?;
            min_times.extend(t);
            min_fuel = f;
        }
        // The bot in a run of its own: taking turns with the others doubled a Rust bot's
        // median (its warm state is lost at every switch), which is not what a game sees.
        let (bot_times, bot_fuel) = decisions(&bot, &inv, a.iterations, 200)?;
        let n = floor_times.len();
        let (fmed, fp90) = median(floor_times);
        let (mmed, mp90) = median(min_times);
        let (bmed, bp90) = median(bare_times);
        let (med, p90) = median(bot_times);
        println!("bare wasmtime, empty _start (same engine, InstancePre, stub imports): median {fmed:.1} µs, p90 {fp90:.1} µs ({n} invocations)");
        println!("bare wasmtime, the minimal module on stub imports (no host work): median {bmed:.1} µs, p90 {bp90:.1} µs ({n} invocations)");
        println!("koth, minimal module (path_open APPEND of the history, one 1-byte fd_write): median {mmed:.1} µs, p90 {mp90:.1} µs ({n} invocations, {min_fuel} fuel each)");
        println!("koth, {allocator} allocator: median {med:.1} µs, p90 {p90:.1} µs ({n} invocations, {bot_fuel} fuel each)");
        println!(
            "over the floor: minimal module {:.2}x bare wasmtime, this bot {:.2}x",
            mmed / fmed,
            med / fmed
        );
        results.push(med);
    }
    let mut spawn_times = Vec::with_capacity(a.spawns);
    let hist = tmp.join(FILE);
    for _ in 0..a.spawns {
        let t = Instant::now();
        std::fs::write(&hist, HISTORY)?;
        let status = Command::new(&native)
            .arg(FILE)
            .args(coup_args())
            .current_dir(&tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()?;
        let after = std::fs::read(&hist)?;
        let elapsed = t.elapsed();
        if !status.status.success() || after.len() <= HISTORY.len() {
            bail!("the native bot did not append a move");
        }
        spawn_times.push(elapsed);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let (nmed, np90) = median(spawn_times);
    println!(
        "native process per invocation: median {nmed:.1} µs, p90 {np90:.1} µs ({} spawns)",
        a.spawns
    );
    let best = results.iter().cloned().fold(f64::INFINITY, f64::min);
    println!(
        "ratio: koth (best allocator) is {:.1}x faster than a native spawn",
        nmed / best
    );
    Ok(ExitCode::SUCCESS)
}

/// The original arbiter's model: every decision is a native process started in the bot's
/// own real folder, reading and appending the history file there.
struct NativePlayer {
    name: String,
    exe: PathBuf,
    root: PathBuf,
}

impl Player for NativePlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        let fail = |why: String| Report {
            outcome: koth::sandbox::Outcome::HostFault(why),
            fuel_used: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_dropped: 0,
        };
        let (Some(dir), Some(file)) = (dir, inv.args.first()) else {
            return fail("no directory".into());
        };
        let file = String::from_utf8_lossy(file).into_owned();
        // One real folder per bot and thread, like the original's per-bot folders.
        let folder = self
            .root
            .join(format!("{}-{:?}", self.name, std::thread::current().id()));
        if std::fs::create_dir_all(&folder).is_err() {
            return fail("cannot create folder".into());
        }
        let path = folder.join(&file);
        let before = dir.host_file(&file).map(<[u8]>::to_vec).unwrap_or_default();
        if std::fs::write(&path, &before).is_err() {
            return fail("cannot write history".into());
        }
        let out = Command::new(&self.exe)
            .args(
                inv.args
                    .iter()
                    .map(|a| String::from_utf8_lossy(a).into_owned()),
            )
            .current_dir(&folder)
            .stdin(Stdio::null())
            .output();
        let Ok(out) = out else {
            return fail("cannot spawn".into());
        };
        let after = std::fs::read(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        dir.put_host_file(&file, &after);
        Report {
            outcome: if out.status.success() {
                koth::sandbox::Outcome::Ok
            } else {
                koth::sandbox::Outcome::Exit(out.status.code().unwrap_or(1) as u32)
            },
            fuel_used: 0,
            stdout: out.stdout,
            stderr: out.stderr,
            stderr_dropped: 0,
        }
    }
}

fn coup_bench(a: CoupBench) -> anyhow::Result<ExitCode> {
    let jobs = a.jobs.unwrap_or_else(koth::command::cores);
    let mut setup = bench_setup(&a.engine, jobs, a.bots.len())?;
    let bots = load_bots_timed(&setup.sandbox, &a.bots, coup::NAME)?;
    // `koth coup --rounds R`'s options: Coup's referee, built in, as `koth coup` plays it.
    let opts = coup::options(
        a.rounds,
        Default::default(),
        false,
        None,
        1,
        koth::sandbox::Limits::default(),
    );
    let game = coup::game();
    let players: Vec<Arc<dyn Player>> = bots
        .iter()
        .map(|b| Arc::clone(b) as Arc<dyn Player>)
        .collect();
    let t = Instant::now();
    let koth_run = game.play_whole(&players, &opts, jobs, &|_, _| {})?;
    let koth_secs = t.elapsed().as_secs_f64();
    let inv = koth_run.invocations();
    println!(
        "koth:   {} games, {} invocations in {:.2} s wall ({:.0} invocations/s, {:.1} µs each, {} workers)",
        koth_run.records.len(),
        inv,
        koth_secs,
        inv as f64 / koth_secs,
        koth_secs * 1e6 / inv as f64 * jobs as f64,
        jobs
    );
    whole_command(
        Run {
            then_exits: false,
            game: &game,
            referee: None,
            unit: "games",
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
    let root = std::env::temp_dir().join(format!("koth-bench-native-{}", std::process::id()));
    let natives = native_players(&a.bots, &a.native_dir, |name, exe| NativePlayer {
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
    print_comparison(
        &games,
        inv,
        koth_secs,
        native_run.invocations(),
        native_secs,
    );
    Ok(ExitCode::SUCCESS)
}

/// What a benchmark's whole-command runs need: the sandbox for `bots` bots on `jobs`
/// workers, with the default limits.
pub(crate) fn bench_setup(engine: &EngineArgs, jobs: usize, bots: usize) -> anyhow::Result<Setup> {
    let limits = Limits::default();
    Ok(Setup {
        jobs,
        limits,
        sandbox: engine.sandbox_for_bots(jobs, bots, limits.memory_bytes)?,
        phases: Phases::new(),
    })
}

/// Run the whole command of `run`'s game (journal, results and ratings, the archive, cleanup)
/// as `koth <game> --out DIR` (or `koth play`, for a plugin) does, twice into one temporary
/// folder: first empty, then holding the first run's archive, as a re-run with the same
/// `--out` finds it. Prints each run's phases; loading is left out (the bots are loaded
/// already).
pub(crate) fn whole_command<G: Game>(
    run: Run<'_, G>,
    setup: &mut Setup,
    bots: &[Arc<Bot>],
    paths: &[PathBuf],
    opts: &G::Options,
    engine: &EngineArgs,
) -> anyhow::Result<()>
where
    G::Options: Clone,
{
    let tmp = tempfile::Builder::new()
        .prefix("koth-bench-archive-")
        .tempdir()?;
    let out = tmp.path().join("archive");
    let args = TournamentArgs::for_bench(&out, setup.jobs, engine.clone());
    for folder in ["an empty --out", "an --out holding the previous archive"] {
        setup.phases = Phases::new();
        let again = Run {
            then_exits: false,
            game: run.game,
            referee: run.referee.clone(),
            unit: run.unit,
        };
        common::play(again, &args, setup, bots, paths, opts.clone(), &out)?;
        print!("whole command into {folder}, ");
        print!("{}", setup.phases.render());
    }
    Ok(())
}

/// Load every bot as a tournament does (all checked before anything runs) and say how long
/// compiling or reading the cache took, so it is not mistaken for the run's time.
pub(crate) fn load_bots_timed(
    sandbox: &Sandbox,
    paths: &[PathBuf],
    game: &str,
) -> anyhow::Result<Vec<Arc<Bot>>> {
    let t = Instant::now();
    let bots = koth::command::play::load_bots(sandbox, paths, game)?;
    println!(
        "loaded {} bots in {:.2} s (compiled or from the cache)",
        bots.len(),
        t.elapsed().as_secs_f64()
    );
    Ok(bots)
}

/// One native player per wasm bot: the build named like the wasm file's stem in `dir`,
/// made into a player by `make(name, exe)`.
pub(crate) fn native_players<P>(
    bots: &[PathBuf],
    dir: &Path,
    make: impl Fn(String, PathBuf) -> P,
) -> anyhow::Result<Vec<P>> {
    bots.iter()
        .map(|p| {
            let stem = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let exe = native_exe(dir, &stem)?;
            Ok(make(stem, exe))
        })
        .collect()
}

/// The native run's line and the ratio of the two runs' time per invocation.
pub(crate) fn print_comparison(what: &str, inv: u64, koth_secs: f64, ninv: u64, native_secs: f64) {
    println!(
        "native: {what}, {ninv} invocations in {native_secs:.2} s wall ({:.0} invocations/s, process per decision, same driver)",
        ninv as f64 / native_secs
    );
    println!(
        "ratio: koth is {:.1}x faster per invocation, {:.1}x in wall time",
        (native_secs / ninv as f64) / (koth_secs / inv as f64),
        native_secs / koth_secs
    );
}

pub(crate) fn native_exe(dir: &Path, stem: &str) -> anyhow::Result<PathBuf> {
    let p = dir.join(stem);
    if p.is_file() {
        return Ok(std::fs::canonicalize(p)?);
    }
    bail!(
        "no native build of `{stem}` in {} (cargo build --release -p koth-example-bots)",
        dir.display()
    )
}
