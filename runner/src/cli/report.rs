//! `koth report ARCHIVE [--out FILE]`: the archive's HTML report, and the same page at the end
//! of a run with `koth <game> --report`.

use clap::Args;
use koth::command::report::write;
use koth::report::ReportOptions;
use std::path::PathBuf;
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
