//! `koth bench serve`: concurrent readers of a running contest server's leaderboard page and
//! API, on loopback only; prints the latency's p50 and p99.

use anyhow::bail;
use clap::Args;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args)]
pub(crate) struct ServeBench {
    /// The server's address (`koth serve --listen`); loopback only.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Concurrent readers.
    #[arg(long, default_value_t = 200)]
    readers: usize,
    /// Requests per reader (alternately `/` and `/api/leaderboard`).
    #[arg(long, default_value_t = 20)]
    requests: usize,
}

/// One GET on a fresh connection; its latency, or why it failed.
fn get(addr: SocketAddr, path: &str) -> Result<Duration, String> {
    let started = Instant::now();
    let mut s =
        TcpStream::connect_timeout(&addr, Duration::from_secs(10)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(Duration::from_secs(30)))
        .map_err(|e| e.to_string())?;
    s.write_all(
        format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n").as_bytes(),
    )
    .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).map_err(|e| e.to_string())?;
    if !out.starts_with(b"HTTP/1.1 200") {
        return Err(String::from_utf8_lossy(&out[..out.len().min(80)]).into_owned());
    }
    Ok(started.elapsed())
}

pub(crate) fn run(b: ServeBench) -> anyhow::Result<ExitCode> {
    if !b.addr.ip().is_loopback() {
        bail!("--addr {}: the load test runs on loopback only", b.addr);
    }
    if b.readers == 0 || b.requests == 0 {
        bail!("--readers and --requests must be positive");
    }
    get(b.addr, "/api/status").map_err(|e| anyhow::anyhow!("no koth serve at {}: {e}", b.addr))?;
    let started = Instant::now();
    let results: Vec<Result<Duration, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..b.readers)
            .map(|r| {
                s.spawn(move || {
                    (0..b.requests)
                        .map(|i| {
                            get(
                                b.addr,
                                if (r + i) % 2 == 0 {
                                    "/"
                                } else {
                                    "/api/leaderboard"
                                },
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let wall = started.elapsed();
    let mut ok: Vec<Duration> = results
        .iter()
        .filter_map(|r| r.as_ref().ok().copied())
        .collect();
    let failed: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    ok.sort();
    let pct = |p: f64| -> f64 {
        ok.get(((ok.len() as f64 * p).ceil() as usize).saturating_sub(1))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    println!(
        "koth serve at {}: {} readers x {} requests (/ and /api/leaderboard, a new connection each)",
        b.addr, b.readers, b.requests
    );
    println!(
        "{} ok, {} failed in {:.2} s ({:.0} requests/s); latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ok.len(),
        failed.len(),
        wall.as_secs_f64(),
        ok.len() as f64 / wall.as_secs_f64().max(1e-9),
        pct(0.50),
        pct(0.99),
        pct(1.0)
    );
    if let Some(e) = failed.first() {
        eprintln!("koth: first failure: {e}");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
