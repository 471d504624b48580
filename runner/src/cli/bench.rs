//! `koth bench ARGS`: runs `koth-bench ARGS`, the benchmarks' own binary, so that their code
//! does not ship in `koth` (as `cargo foo` runs `cargo-foo`). It is looked for beside this
//! `koth`, then on `PATH`; its exit status is this command's.

use anyhow::Context;
use clap::Args;
use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// The benchmark binary's name.
const BENCH: &str = "koth-bench";

#[derive(Args)]
#[command(disable_help_flag = true)]
pub(crate) struct BenchArgs {
    /// What `koth-bench` takes (`koth bench --help` lists its benchmarks).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    args: Vec<OsString>,
}

/// `koth-bench` beside this executable, else the bare name (looked up on `PATH`).
fn bench_exe() -> PathBuf {
    koth::command::beside_this(BENCH).unwrap_or_else(|| PathBuf::from(BENCH))
}

pub(crate) fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let exe = bench_exe();
    let status = match Command::new(&exe).args(&args.args).status() {
        Ok(status) => status,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => anyhow::bail!(
            "`koth bench` runs `{BENCH}`, which is not beside this koth or on PATH: build it \
             with `cargo build --release -p koth -p {BENCH}` (the benchmarks are a binary \
             of their own)"
        ),
        Err(e) => return Err(e).with_context(|| format!("running {}", exe.display())),
    };
    Ok(match status.code() {
        Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(2)),
        // Killed by a signal: say so, as a shell would.
        None => {
            eprintln!("koth: {} ended by a signal ({status})", exe.display());
            ExitCode::from(2)
        }
    })
}
