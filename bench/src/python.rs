//! `koth bench python`: one decision of a plain Python bot through koth (CPython for WASI in
//! the sandbox), started from the interpreter's snapshot and started cold, against the same
//! script under the native `python3 -S`, in the same run.

use crate::{coup_args, decisions, median, FILE, HISTORY};
use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::sandbox::python::PythonStart;
use koth::sandbox::{Invocation, Limits};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

#[derive(Args)]
pub(crate) struct PythonBench {
    /// A Coup bot as a Python script (it reads the history file and appends one move).
    #[arg(
        value_name = "BOT.py",
        default_value = "example-bots/python/coup/coup_py.py"
    )]
    script: PathBuf,
    /// Invocations through koth (after 3 unmeasured ones).
    #[arg(long, default_value_t = 30)]
    iterations: usize,
    /// Native `python3 -S` spawns.
    #[arg(long, default_value_t = 30)]
    spawns: usize,
    /// The native interpreter.
    #[arg(long, default_value = "python3")]
    native_python: String,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) fn run(a: PythonBench) -> anyhow::Result<ExitCode> {
    if !a.script.is_file() {
        bail!("{}: no such script", a.script.display());
    }
    let mut argv = vec![FILE.to_string()];
    argv.extend(coup_args());
    let inv = Invocation {
        args: argv.iter().map(|s| s.as_bytes().to_vec()).collect(),
        stdin: Vec::new(),
        seed: [7; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    println!("script: {}", a.script.display());
    let sandbox = a.engine.sandbox(1, Limits::default().memory_bytes)?;
    let t = Instant::now();
    let bot = sandbox.load_python(&a.script, None, PythonStart::Snapshot)?;
    println!(
        "load (interpreter read, hash-checked, compiled and snapshotted, or taken from the code cache): {:.1} ms",
        t.elapsed().as_secs_f64() * 1e3
    );
    let cold = sandbox.load_python(&a.script, None, PythonStart::Cold)?;
    let mut figures = Vec::new();
    for (bot, label) in [
        (&bot, "from the snapshot"),
        (&cold, "cold start, no snapshot"),
    ] {
        let (times, fuel) = decisions(bot, &inv, a.iterations, 3)?;
        let (med, p90) = median(times);
        println!(
            "koth (CPython 3.12 for WASI, {label}): median {:.2} ms, p90 {:.2} ms ({} invocations, {fuel} fuel each)",
            med / 1e3,
            p90 / 1e3,
            a.iterations
        );
        figures.push(med);
    }
    let tmp = std::env::temp_dir().join(format!("koth-bench-python-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).context("temporary folder for the native runs")?;
    let script = std::fs::canonicalize(&a.script)?;
    let hist = tmp.join(FILE);
    let mut spawn_times = Vec::with_capacity(a.spawns);
    for _ in 0..a.spawns {
        std::fs::write(&hist, HISTORY)?;
        let t = Instant::now();
        let out = Command::new(&a.native_python)
            .arg("-S")
            .arg(&script)
            .arg(FILE)
            .args(coup_args())
            .current_dir(&tmp)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .with_context(|| format!("running {}", a.native_python))?;
        let elapsed = t.elapsed();
        let after = std::fs::read(&hist)?;
        if !out.status.success() || after.len() <= HISTORY.len() {
            bail!(
                "the native run did not append a move: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        spawn_times.push(elapsed);
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let (nmed, np90) = median(spawn_times);
    println!(
        "native `{} -S` process per invocation: median {:.1} ms, p90 {:.1} ms ({} spawns)",
        a.native_python,
        nmed / 1e3,
        np90 / 1e3,
        a.spawns
    );
    println!(
        "ratio: koth / native = {:.3} from the snapshot, {:.2} cold",
        figures[0] / nmed,
        figures[1] / nmed
    );
    Ok(ExitCode::SUCCESS)
}
