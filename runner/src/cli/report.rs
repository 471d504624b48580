//! `koth report ARCHIVE [--out FILE]`: the archive's HTML report, and the same page at the end
//! of a run with `koth <game> --report`.

use anyhow::Context;
use clap::Args;
use koth::report::{self, ReportOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ReportArgs {
    /// The archive folder of a run (`--out` of `koth coup`, `koth bank-heist`, `koth euchre`).
    #[arg(value_name = "ARCHIVE")]
    archive: PathBuf,
    /// Where to write the page [default: ARCHIVE/report.html].
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Replays of the first N games to embed (more games make a bigger page).
    #[arg(long, value_name = "N", default_value_t = ReportOptions::default().first_games)]
    first_games: usize,
    /// Replays of further games holding a forfeit or failed decision, at most N.
    #[arg(long, value_name = "N", default_value_t = ReportOptions::default().forfeit_games)]
    forfeit_games: usize,
}

pub(crate) fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let opts = ReportOptions {
        first_games: args.first_games,
        forfeit_games: args.forfeit_games,
        ..ReportOptions::default()
    };
    let out = args.out.unwrap_or_else(|| args.archive.join("report.html"));
    let (bytes, elapsed) = write(&args.archive, &out, &opts)?;
    println!(
        "Report ({:.1} MB, {:.2} s): {}",
        bytes as f64 / 1e6,
        elapsed.as_secs_f64(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Write the report of `archive` to `out`; returns its size and how long it took.
pub(crate) fn write(
    archive: &Path,
    out: &Path,
    opts: &ReportOptions,
) -> anyhow::Result<(usize, std::time::Duration)> {
    let started = std::time::Instant::now();
    let html = report::build(archive, opts)
        .with_context(|| format!("building the report of the archive {}", archive.display()))?;
    std::fs::write(out, &html).with_context(|| format!("writing the report {}", out.display()))?;
    Ok((html.len(), started.elapsed()))
}

/// `koth <game> --report`: the report in the archive, said in the run's closing output. A
/// failure is reported but does not change the run's exit code: the archive is complete.
pub(crate) fn after_run(archive: &Path) {
    let out = archive.join("report.html");
    match write(archive, &out, &ReportOptions::default()) {
        Ok((bytes, _)) => println!(
            "HTML report ({:.1} MB): {}",
            bytes as f64 / 1e6,
            out.display()
        ),
        Err(e) => eprintln!("koth: no HTML report: {e:#}"),
    }
}
