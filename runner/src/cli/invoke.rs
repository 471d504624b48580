//! `koth invoke`: one invocation, everything printed, for a bot author debugging a bot.

use super::EngineArgs;
use anyhow::Context;
use clap::Args;
use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Invocation, Limits, Vfs, VfsLimits};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct InvokeArgs {
    /// The bot module.
    #[arg(value_name = "BOT.wasm")]
    bot: PathBuf,
    /// A host folder whose top-level files become the bot's virtual directory; what the bot
    /// leaves there is written back afterwards. Without it the bot gets an empty directory.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Give the bot no directory at all (as Bank Heist does).
    #[arg(long, conflicts_with = "dir")]
    no_dir: bool,
    /// File to pass on stdin.
    #[arg(long, value_name = "FILE")]
    stdin: Option<PathBuf>,
    /// Fuel budget.
    #[arg(long, default_value_t = Limits::default().fuel)]
    fuel: u64,
    /// Linear memory limit in MiB.
    #[arg(long, default_value_t = 64)]
    memory: u64,
    /// Seed of the bot's random_get stream.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    engine: EngineArgs,
    /// Arguments after argv[0] (use `--` before them).
    #[arg(last = true, value_name = "ARGS")]
    args: Vec<String>,
}

/// Read a host folder's top-level regular files into a virtual directory.
fn load_dir(dir: &Path) -> anyhow::Result<Vfs> {
    let mut vfs = Vfs::new(VfsLimits::default());
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read --dir {}", dir.display()))?
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot read --dir {}", dir.display()))?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let ty = e.file_type()?;
        match (name.to_str(), ty.is_file()) {
            (Some(n), true) => {
                let data = std::fs::read(e.path())
                    .with_context(|| format!("cannot read {}", e.path().display()))?;
                vfs.put_host_file(n, &data);
            }
            _ => eprintln!(
                "note: {} skipped (only top-level regular files with UTF-8 names are loaded)",
                e.path().display()
            ),
        }
    }
    Ok(vfs)
}

/// Write what the bot left in its directory back into the host folder.
fn save_dir(vfs: &Vfs, dir: &Path) -> anyhow::Result<()> {
    for entry in vfs.snapshot() {
        match entry {
            SnapshotEntry::Dir(p) => std::fs::create_dir_all(dir.join(&p))?,
            SnapshotEntry::File(p, data) => {
                let target = dir.join(&p);
                if std::fs::symlink_metadata(&target)
                    .map(|m| m.file_type().is_symlink())
                    .unwrap_or(false)
                {
                    eprintln!("note: {p} not written back: it is a symlink on the host");
                    continue;
                }
                if std::fs::read(&target).ok().as_deref() != Some(&data[..]) {
                    std::fs::write(&target, &data)?;
                }
            }
            SnapshotEntry::Symlink(p, t) => eprintln!("note: symlink {p} -> {t} not written back"),
        }
    }
    Ok(())
}

pub(crate) fn run(args: InvokeArgs) -> anyhow::Result<ExitCode> {
    let memory_bytes = args.memory << 20;
    let sandbox = args.engine.sandbox(1, memory_bytes)?;
    let bot = sandbox.load_file(&args.bot, None)?;
    let stdin = match &args.stdin {
        Some(p) => {
            std::fs::read(p).with_context(|| format!("cannot read --stdin {}", p.display()))?
        }
        None => Vec::new(),
    };
    let mut vfs = match &args.dir {
        Some(d) => Some(load_dir(d)?),
        None if args.no_dir => None,
        None => Some(Vfs::new(VfsLimits::default())),
    };
    let inv = Invocation {
        args: args.args.iter().map(|a| a.as_bytes().to_vec()).collect(),
        stdin,
        seed: koth::seed::derive(args.seed, "invoke", &[]),
        clock_start_ns: 0,
        limits: Limits {
            fuel: args.fuel,
            memory_bytes,
            ..Limits::default()
        },
    };
    let report = bot.invoke(&inv, vfs.as_mut());
    let mut out = std::io::stdout().lock();
    writeln!(out, "outcome:   {}", report.outcome)?;
    writeln!(out, "fuel used: {}", report.fuel_used)?;
    writeln!(out, "stdout ({} bytes):", report.stdout.len())?;
    out.write_all(&report.stdout)?;
    if !report.stdout.ends_with(b"\n") && !report.stdout.is_empty() {
        writeln!(out)?;
    }
    writeln!(
        out,
        "stderr ({} bytes kept, {} dropped):",
        report.stderr.len(),
        report.stderr_dropped
    )?;
    out.write_all(&report.stderr)?;
    if !report.stderr.ends_with(b"\n") && !report.stderr.is_empty() {
        writeln!(out)?;
    }
    if let (Some(d), Some(v)) = (&args.dir, &vfs) {
        save_dir(v, d)?;
    }
    if let Some(v) = &vfs {
        writeln!(out, "directory after the invocation:")?;
        for e in v.snapshot() {
            match e {
                SnapshotEntry::Dir(p) => writeln!(out, "  {p}/")?,
                SnapshotEntry::File(p, d) => writeln!(out, "  {p} ({} bytes)", d.len())?,
                SnapshotEntry::Symlink(p, t) => writeln!(out, "  {p} -> {t}")?,
            }
        }
    }
    Ok(if report.outcome.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
