//! `koth serve DIR [--listen ADDR]`: serve a contest (pages, API, uploads) and play its runs.

use clap::Args;
use koth::contest::Contest;
use koth::serve::limits::ServeLimits;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
pub(crate) struct ServeArgs {
    /// The contest folder (`koth contest init`).
    dir: PathBuf,
    /// Address to listen on (loopback by default; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// Connections open at once; at the cap a new one closes the one idle the longest
    /// (lowered to what the open-file limit leaves).
    #[arg(long, default_value_t = ServeLimits::default().max_connections)]
    max_connections: usize,
    /// Seconds a request head may take from its first byte.
    #[arg(long, value_name = "SECS", default_value_t = Secs(ServeLimits::default().head_timeout))]
    head_timeout: Secs,
    /// Seconds a connection may stay open with no request in progress and none begun.
    #[arg(long, value_name = "SECS", default_value_t = Secs(ServeLimits::default().idle_timeout))]
    idle_timeout: Secs,
    /// Seconds a request body may send nothing before it is cut.
    #[arg(long, value_name = "SECS", default_value_t = Secs(ServeLimits::default().body_idle_timeout))]
    body_idle_timeout: Secs,
    /// The least average rate of a request body, in bytes a second (after a grace).
    #[arg(long, value_name = "BYTES", default_value_t = ServeLimits::default().min_body_rate)]
    min_body_rate: u64,
    /// Seconds a body is given before its minimum rate applies.
    #[arg(long, value_name = "SECS", default_value_t = Secs(ServeLimits::default().body_grace))]
    body_grace: Secs,
    /// Uploads in progress at once, all authors together (more get 429).
    #[arg(long, default_value_t = ServeLimits::default().max_uploads)]
    max_uploads: usize,
    /// Uploads in progress at once by one author (more get 429).
    #[arg(long, default_value_t = ServeLimits::default().max_uploads_per_author)]
    max_uploads_per_author: usize,
    /// Upload checks at once (each compiles one upload and plays its validation match in a
    /// child process); other uploads wait their turn.
    #[arg(long, default_value_t = ServeLimits::default().max_checks)]
    max_checks: usize,
    /// After SIGTERM or Ctrl-C: seconds the requests in progress get to finish before the
    /// server exits (a run in progress carries on from its journal at the next start).
    #[arg(long, value_name = "SECS", default_value_t = Secs(ServeLimits::default().drain_timeout))]
    drain_timeout: Secs,
}

/// A duration in seconds, fractions allowed (`0.5`); its default shown as the limits' own.
#[derive(Clone, Copy)]
struct Secs(Duration);

impl std::str::FromStr for Secs {
    type Err = String;

    fn from_str(text: &str) -> Result<Secs, String> {
        let s: f64 = text
            .parse()
            .map_err(|_| format!("{text:?} is not a number of seconds"))?;
        if !(s > 0.0 && s <= 3600.0) {
            return Err(format!(
                "{text} is out of range (more than 0, at most 3600)"
            ));
        }
        Ok(Secs(Duration::from_secs_f64(s)))
    }
}

impl std::fmt::Display for Secs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0.as_secs_f64())
    }
}

pub(crate) fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let contest = Contest::open(&args.dir)?;
    // Uploads a killed server was checking: nothing refers to them.
    let left = contest.clear_incoming()?;
    if left > 0 {
        eprintln!("koth serve: removed {left} unfinished upload(s) a stopped server left behind");
    }
    let limits = ServeLimits {
        max_connections: args.max_connections,
        head_timeout: args.head_timeout.0,
        idle_timeout: args.idle_timeout.0,
        body_idle_timeout: args.body_idle_timeout.0,
        min_body_rate: args.min_body_rate,
        body_grace: args.body_grace.0,
        max_uploads: args.max_uploads,
        max_uploads_per_author: args.max_uploads_per_author,
        max_checks: args.max_checks,
        drain_timeout: args.drain_timeout.0,
    };
    let dir = args.dir.display().to_string();
    koth::serve::serve(contest, args.listen, limits, |addr, cap| {
        println!("Serving {dir} on http://{addr}/");
        let _ = std::io::stdout().flush();
        eprintln!("koth serve: at most {cap} connections");
    })?;
    eprintln!("koth serve: stopped");
    Ok(ExitCode::SUCCESS)
}
