//! Writing an archive's HTML report to a file: `koth report`, and `koth <game> --report`
//! at the end of a run.

use crate::report::{self, ReportOptions};
use anyhow::Context;
use std::path::Path;

/// Write the report of `archive` to `out`; returns its size and how long it took.
pub fn write(
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
pub fn after_run(archive: &Path) {
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
