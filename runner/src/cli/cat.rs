//! `koth cat ARCHIVE [FILE]`: an archive's files and the entries of its matches container,
//! listed, or one of them printed, decompressed: what `zstd -d` and `unzip -p` would give,
//! with nothing but koth installed.

use anyhow::{bail, Context};
use clap::Args;
use koth::tournament::archive::{self, INVOCATIONS, INVOCATIONS_PLAIN, MATCHES};
use koth::tournament::container::{self, MATCHES_ZIP};
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct CatArgs {
    /// The archive folder of a run.
    #[arg(value_name = "ARCHIVE")]
    archive: PathBuf,
    /// What to print: a file of the archive (`results.json`), `invocations.jsonl` or
    /// `matches.zip` (decompressed), or an entry of the matches container
    /// (`logs/<game>.log`). Without it, everything the archive holds is listed.
    #[arg(value_name = "FILE")]
    file: Option<String>,
}

pub(crate) fn run(args: CatArgs) -> anyhow::Result<ExitCode> {
    if !args.archive.join(archive::MANIFEST).is_file() {
        bail!(
            "{} is not a koth archive (no {})",
            args.archive.display(),
            archive::MANIFEST
        );
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let done = match &args.file {
        None => list(&args.archive, &mut out),
        Some(file) => print(&args.archive, file, &mut out),
    };
    match done.and_then(|()| out.flush().map_err(anyhow::Error::from)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // `koth cat ... | head`: the reader had enough.
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e),
    }
}

/// The archive's files with their sizes, then the container's entries (indented).
fn list(dir: &Path, out: &mut impl Write) -> anyhow::Result<()> {
    let mut files: Vec<(String, u64)> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let size = e.metadata().map_or(0, |m| m.len());
            (e.file_name().to_string_lossy().into_owned(), size)
        })
        .collect();
    files.sort();
    for (name, size) in &files {
        writeln!(out, "{name:<40} {size:>12}")?;
    }
    let mut reader = container::Reader::open(dir)?;
    for (name, size) in reader.entries()? {
        writeln!(out, "  {name:<38} {size:>12}")?;
    }
    Ok(())
}

/// Print `file` of the archive at `dir`.
fn print(dir: &Path, file: &str, out: &mut impl Write) -> anyhow::Result<()> {
    let plain = |name: &str| {
        let mut c = Path::new(name).components();
        matches!((c.next(), c.next()), (Some(Component::Normal(_)), None))
    };
    if file == INVOCATIONS_PLAIN || file == INVOCATIONS {
        let path = archive::invocations_path(dir);
        let mut lines = archive::read_invocations(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        std::io::copy(&mut lines, out).with_context(|| format!("reading {}", path.display()))?;
        return Ok(());
    }
    if file == MATCHES_ZIP || file == MATCHES {
        let path = container::container_path(dir);
        let mut zip = koth::tournament::seekable::open_any(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        std::io::copy(&mut zip, out).with_context(|| format!("reading {}", path.display()))?;
        return Ok(());
    }
    let path = dir.join(file);
    if plain(file) && std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        let mut f =
            std::fs::File::open(&path).with_context(|| format!("reading {}", path.display()))?;
        std::io::copy(&mut f, out).with_context(|| format!("reading {}", path.display()))?;
        return Ok(());
    }
    let mut reader = container::Reader::open(dir)?;
    match reader.read(file)? {
        Some(data) => out.write_all(&data)?,
        None => bail!(
            "{} has no file `{file}` and its {} no entry of that name (`koth cat {}` lists them)",
            dir.display(),
            reader.source(),
            dir.display()
        ),
    }
    Ok(())
}
