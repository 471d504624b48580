//! `koth serve DIR [--listen ADDR]`: serve a contest (pages, API, uploads) and play its runs.

use clap::Args;
use koth::contest::Contest;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The contest folder (`koth contest init`).
    dir: PathBuf,
    /// Address to listen on (loopback by default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
}

pub(crate) fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let contest = Contest::open(&args.dir)?;
    // Uploads a killed server was checking: nothing refers to them.
    let left = contest.clear_incoming()?;
    if left > 0 {
        eprintln!("koth serve: removed {left} unfinished upload(s) a stopped server left behind");
    }
    koth::serve::serve(contest, args.listen, |addr| {
        println!("Serving {} on http://{addr}/", args.dir.display());
        let _ = std::io::stdout().flush();
    })?;
    Ok(ExitCode::SUCCESS)
}
