//! `koth invoke`: one invocation, everything printed, for a bot author debugging a bot.

use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::games::judge::{judge, Answered, Judgement, JUDGED};
use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Invocation, Limits, Report, Vfs, VfsLimits};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct InvokeArgs {
    /// The bot module.
    #[arg(value_name = "BOT.wasm")]
    bot: PathBuf,
    /// A host folder whose tree becomes the bot's virtual directory (top-level files as the
    /// game's files, the rest as the bot's scratch, within the quotas; what is refused is
    /// listed); what the bot leaves there is written back afterwards, never through a host
    /// symlink. Without it the bot gets an empty directory.
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
    /// Read the answer by this game's rules (coup, bank-heist, euchre): legal or not and why,
    /// and the legal answers for this input.
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    #[command(flatten)]
    engine: EngineArgs,
    /// Arguments after argv[0] (use `--` before them).
    #[arg(last = true, value_name = "ARGS")]
    args: Vec<String>,
}

/// Read a host folder's whole tree into a virtual directory, within the default quotas.
/// Top-level regular files are placed as the host places a game's files (exempt from the
/// quota, like the history file); folders, deeper files and symlinks become the bot's own
/// nodes, counted against the quotas. What cannot be loaded is listed on stderr with the
/// reason: a symlink that is absolute or leads outside DIR, a special file, a name that is
/// not UTF-8 text, or a node past a quota.
fn load_dir(dir: &Path) -> anyhow::Result<Vfs> {
    let mut vfs = Vfs::new(VfsLimits::default());
    let mut refused = 0usize;
    // Depth first in sorted order, so the same tree always loads the same way.
    let mut pending: Vec<(PathBuf, String)> = vec![(dir.to_path_buf(), String::new())];
    while let Some((host, rel)) = pending.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&host)
            .with_context(|| format!("cannot read {}", host.display()))?
            .collect::<Result<_, _>>()
            .with_context(|| format!("cannot read {}", host.display()))?;
        entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
        for e in entries {
            let path = e.path();
            let mut refuse = |why: String| {
                refused += 1;
                eprintln!("note: {} not loaded: {why}", path.display());
            };
            let Some(name) = e.file_name().to_str().map(str::to_string) else {
                refuse("its name is not UTF-8".into());
                continue;
            };
            let vpath = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let ty = e
                .file_type()
                .with_context(|| format!("cannot read {}", path.display()))?;
            if ty.is_symlink() {
                let target = std::fs::read_link(&path)
                    .with_context(|| format!("cannot read the link {}", path.display()))?;
                let Some(t) = target.to_str() else {
                    refuse("its target is not UTF-8".into());
                    continue;
                };
                if !stays_inside(&rel, t) {
                    refuse(format!(
                        "symlink to {t}, which is absolute or leads outside the folder"
                    ));
                    continue;
                }
                if let Err(e) = vfs.symlink(t.as_bytes(), Vfs::ROOT, vpath.as_bytes()) {
                    refuse(format!("symlink refused: {}", reason(e)));
                }
            } else if ty.is_dir() {
                match vfs.mkdir(Vfs::ROOT, vpath.as_bytes()) {
                    Ok(()) => pending.push((path, vpath)),
                    Err(e) => refuse(format!("folder refused, with all it holds: {}", reason(e))),
                }
            } else if ty.is_file() {
                let data = std::fs::read(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                if rel.is_empty() {
                    if !valid_entry_name(&name) {
                        refuse("its name is not a valid entry name (control characters?)".into());
                        continue;
                    }
                    vfs.put_host_file(&name, &data);
                } else if let Err(e) = put_file(&mut vfs, &vpath, &data) {
                    refuse(format!("file refused: {}", reason(e)));
                }
            } else {
                refuse("not a regular file, folder or symlink".into());
            }
        }
    }
    if refused > 0 {
        eprintln!(
            "note: {refused} entr{} of {} not loaded (see above)",
            if refused == 1 { "y" } else { "ies" },
            dir.display()
        );
    }
    Ok(vfs)
}

/// Why the virtual directory refused a node, in words.
fn reason(e: koth::sandbox::Errno) -> String {
    use koth::sandbox::Errno;
    let limits = VfsLimits::default();
    match e {
        Errno::Nospc => format!(
            "past the quota ({} bytes, {} files, folders and symlinks)",
            limits.max_bytes, limits.max_nodes
        ),
        Errno::Nametoolong => format!(
            "deeper than {} levels, or a name or target too long",
            limits.max_depth
        ),
        Errno::Ilseq => "a name or target that is not printable UTF-8 text".into(),
        other => format!("{other:?}"),
    }
}

/// Whether `name` can be a host file's name (what [`Vfs::put_host_file`] requires).
fn valid_entry_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.len() <= koth::sandbox::vfs::MAX_NAME_LEN
        && !name.bytes().any(|b| b < 0x20 || b == 0x7f || b == b'/')
}

/// A bot's own file at `vpath`, with `data`, counted against the quotas.
fn put_file(vfs: &mut Vfs, vpath: &str, data: &[u8]) -> Result<(), koth::sandbox::Errno> {
    let opts = koth::sandbox::vfs::OpenOptions {
        create: true,
        exclusive: true,
        ..Default::default()
    };
    let node = vfs.open(Vfs::ROOT, vpath.as_bytes(), opts)?;
    if let Err(e) = vfs.write_at(node, 0, data) {
        let _ = vfs.unlink(Vfs::ROOT, vpath.as_bytes());
        return Err(e);
    }
    Ok(())
}

/// Whether a symlink in the folder `rel` (relative to DIR, `""` for DIR itself) with this
/// target stays inside DIR, judged on the text alone: relative, and no `..` climbs above DIR.
fn stays_inside(rel: &str, target: &str) -> bool {
    if target.starts_with('/') || target.is_empty() {
        return false;
    }
    let mut depth = rel.split('/').filter(|c| !c.is_empty()).count();
    for c in target.split('/') {
        match c {
            "" | "." => {}
            ".." if depth == 0 => return false,
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    true
}

/// The first host symlink on the way from `dir` to `dir/rel` (the last component included),
/// if any. Writing through one would land outside DIR.
fn host_symlink_on_path(dir: &Path, rel: &str) -> Option<PathBuf> {
    let mut at = dir.to_path_buf();
    for c in rel.split('/').filter(|c| !c.is_empty()) {
        at.push(c);
        if std::fs::symlink_metadata(&at).is_ok_and(|m| m.file_type().is_symlink()) {
            return Some(at);
        }
    }
    None
}

/// Write what the bot left in its directory back into the host folder. Nothing is written
/// through a host symlink, at any depth: `sub -> ../victim` in DIR must not let a bot's
/// `sub/pwned` land in `victim/`.
fn save_dir(vfs: &Vfs, dir: &Path) -> anyhow::Result<()> {
    for entry in vfs.snapshot() {
        let rel = match &entry {
            SnapshotEntry::Dir(p) | SnapshotEntry::File(p, _) | SnapshotEntry::Symlink(p, _) => p,
        };
        if let Some(link) = host_symlink_on_path(dir, rel) {
            if !matches!(entry, SnapshotEntry::Symlink(..)) {
                eprintln!(
                    "note: {rel} not written back: {} is a symlink on the host",
                    link.display()
                );
            }
            continue;
        }
        match entry {
            SnapshotEntry::Dir(p) => std::fs::create_dir_all(dir.join(&p))?,
            SnapshotEntry::File(p, data) => {
                let target = dir.join(&p);
                if std::fs::read(&target).ok().as_deref() != Some(&data[..]) {
                    std::fs::write(&target, &data)?;
                }
            }
            SnapshotEntry::Symlink(p, t) => {
                eprintln!("note: symlink {p} -> {t} not written back")
            }
        }
    }
    Ok(())
}

/// Print how an invocation went: outcome, fuel, stdout, stderr, and the folder it left
/// (`None`: it had none).
pub(crate) fn print_report(
    report: &Report,
    dir_after: Option<&[SnapshotEntry]>,
) -> std::io::Result<()> {
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
    if let Some(entries) = dir_after {
        writeln!(out, "directory after the invocation:")?;
        print_tree(&mut out, entries)?;
    }
    Ok(())
}

/// A game's reading of the answer, after the invocation's report.
fn print_judgement(game: &str, j: &Judgement) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{game} reads it:")?;
    if !j.reading.is_empty() {
        writeln!(out, "  {}", j.reading)?;
    }
    match &j.refused {
        Some(why) => writeln!(out, "  refused: {why}")?,
        None if j.choices.is_some() => writeln!(out, "  legal")?,
        None => {}
    }
    if let Some(choices) = &j.choices {
        let quoted: Vec<String> = choices.iter().map(|c| format!("{c:?}")).collect();
        writeln!(out, "  the legal answers: {}", quoted.join(" "))?;
    }
    for n in &j.input_notes {
        writeln!(out, "  note: {n}")?;
    }
    Ok(())
}

/// A folder's entries, one per line, indented.
pub(crate) fn print_tree(out: &mut impl Write, entries: &[SnapshotEntry]) -> std::io::Result<()> {
    if entries.is_empty() {
        writeln!(out, "  (empty)")?;
    }
    for e in entries {
        match e {
            SnapshotEntry::Dir(p) => writeln!(out, "  {p}/")?,
            SnapshotEntry::File(p, d) => writeln!(out, "  {p} ({} bytes)", d.len())?,
            SnapshotEntry::Symlink(p, t) => writeln!(out, "  {p} -> {t}")?,
        }
    }
    Ok(())
}

/// Largest `--memory`: a 32-bit linear memory holds at most 4 GiB.
const MAX_MEMORY_MIB: u64 = 4096;

pub(crate) fn run(args: InvokeArgs) -> anyhow::Result<ExitCode> {
    if args.memory == 0 || args.memory > MAX_MEMORY_MIB {
        bail!(
            "--memory {} MiB: must be between 1 and {MAX_MEMORY_MIB} MiB (a wasm32 memory holds at most 4 GiB)",
            args.memory
        );
    }
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
    if let Some(g) = &args.game {
        if !JUDGED.contains(&g.as_str()) {
            bail!(
                "--game {g}: koth reads the answers of {}",
                JUDGED.join(", ")
            );
        }
    }
    // The game's file (Coup's history file, named by the first argument), as it stood.
    let file_name = args.args.first().cloned().unwrap_or_default();
    let file_of = |v: &Option<Vfs>| {
        v.as_ref()
            .and_then(|v| v.host_file(&file_name))
            .map(<[u8]>::to_vec)
    };
    let file_before = file_of(&vfs);
    // Through the bot's world, if it has one: a typed-world component is handed the decision
    // the arguments, stdin and folder describe, as a game would hand it.
    let report = koth::worlds::invoke(&bot, &inv, vfs.as_mut());
    if let (Some(d), Some(v)) = (&args.dir, &vfs) {
        save_dir(v, d)?;
    }
    print_report(&report, vfs.as_ref().map(Vfs::snapshot).as_deref())?;
    let mut refused = false;
    if let Some(game) = &args.game {
        let file_after = file_of(&vfs);
        let answered = Answered {
            args: &args.args,
            stdin: &inv.stdin,
            file_before: file_before.as_deref(),
            file_after: file_after.as_deref(),
            stdout: &report.stdout,
        };
        if let Some(j) = judge(game, &answered) {
            refused = j.refused.is_some();
            print_judgement(game, &j)?;
        }
    }
    Ok(if report.outcome.is_ok() && !refused {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
