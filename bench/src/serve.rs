//! `koth bench serve`: concurrent readers of a contest server's leaderboard page and API while
//! a run is going, on loopback only; prints the latency's p50 and p99.
//!
//! With `--bots`, the bench makes its own contest in a temporary folder, starts `koth serve`
//! on a free loopback port, uploads the bots through the API (each upload starts a run), and
//! loads the server while those runs play. With `--addr`, it loads a server already running.

use anyhow::{bail, Context};
use clap::Args;
use koth::contest::{auth, db, Contest, ContestConfig};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

#[derive(Args)]
pub(crate) struct ServeBench {
    /// A running server's address (`koth serve --listen`); loopback only.
    #[arg(long, conflicts_with = "bots", required_unless_present = "bots")]
    addr: Option<SocketAddr>,
    /// Serve a contest of these bots instead (a temporary folder, a free loopback port): the
    /// bench uploads them and loads the server while their runs play.
    #[arg(long, num_args = 2.., value_name = "BOT")]
    bots: Vec<PathBuf>,
    /// Rounds of the bench's own contest: enough that its runs outlast the load.
    #[arg(long, default_value_t = 300)]
    rounds: u32,
    /// Concurrent readers.
    #[arg(long, default_value_t = 200)]
    readers: usize,
    /// Requests per reader (alternately `/` and `/api/leaderboard`).
    #[arg(long, default_value_t = 20)]
    requests: usize,
}

/// How long a request may take before the bench calls it failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// One request on a fresh connection: its latency and the whole answer, or why it failed.
fn request(addr: SocketAddr, head: &str, body: &[u8]) -> Result<(Duration, Vec<u8>), String> {
    let started = Instant::now();
    let mut s =
        TcpStream::connect_timeout(&addr, Duration::from_secs(10)).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(REQUEST_TIMEOUT))
        .map_err(|e| e.to_string())?;
    s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body))
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).map_err(|e| e.to_string())?;
    Ok((started.elapsed(), out))
}

/// One GET; its latency, or why it failed (anything but a 200 is a failure).
fn get(addr: SocketAddr, path: &str) -> Result<Duration, String> {
    let (took, out) = get_body(addr, path)?;
    if !out.starts_with(b"HTTP/1.1 200") {
        return Err(String::from_utf8_lossy(&out[..out.len().min(80)]).into_owned());
    }
    Ok(took)
}

fn get_body(addr: SocketAddr, path: &str) -> Result<(Duration, Vec<u8>), String> {
    request(
        addr,
        &format!("GET {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"),
        &[],
    )
}

pub(crate) fn run(b: ServeBench) -> anyhow::Result<ExitCode> {
    if b.readers == 0 || b.requests == 0 {
        bail!("--readers and --requests must be positive");
    }
    match b.addr {
        Some(addr) => {
            if !addr.ip().is_loopback() {
                bail!("--addr {addr}: the load test runs on loopback only");
            }
            get(addr, "/api/status")
                .map_err(|e| anyhow::anyhow!("no koth serve at {addr}: {e}"))?;
            load(addr, &b)
        }
        None => {
            let tmp = tempfile::Builder::new()
                .prefix("koth-bench-serve-")
                .tempdir()
                .context("creating a temporary folder")?;
            let server = OwnServer::start(
                tmp.path(),
                b.rounds,
                b.bots
                    .iter()
                    .any(|p| p.extension().is_some_and(|e| e == "py")),
            )?;
            let result = server.upload_and_load(&b);
            server.stop();
            result
        }
    }
}

/// An HTTP answer's status code (0 if it has none) and its body (empty if it has none).
fn status_and_body(answer: &[u8]) -> (u16, String) {
    let text = String::from_utf8_lossy(answer);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_string())
}

/// The bench's own `koth serve`, killed when the bench ends.
struct OwnServer {
    child: Child,
    addr: SocketAddr,
    token: String,
}

impl OwnServer {
    /// A Coup contest of `rounds` rounds in `dir`, an author, and `koth serve` on a free port;
    /// it takes `.py` scripts (and makes the interpreter's snapshot) only if `python`.
    fn start(dir: &Path, rounds: u32, python: bool) -> anyhow::Result<OwnServer> {
        let folder = dir.join("contest");
        // One author uploads every bot: the per-author quotas (3 bots, 10 versions an hour)
        // are not what this measures.
        let config = ContestConfig {
            python,
            max_bots_per_author: 1000,
            max_versions_per_author_per_hour: 1000,
            ..ContestConfig::coup(rounds, 1)
        };
        let contest = Contest::init(&folder, config)?;
        let token = auth::new_token().map_err(anyhow::Error::msg)?;
        db::add_author(&contest.db()?, "bench", &auth::hash(&token))?;
        let exe = crate::koth_exe()?;
        let mut child = Command::new(exe)
            .arg("serve")
            .arg(&folder)
            .args(["--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("starting koth serve")?;
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            BufReader::new(out)
                .read_line(&mut line)
                .context("reading where koth serve listens")?;
        }
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .and_then(|a| a.trim_end_matches('/').parse().ok());
        match addr {
            Some(addr) => Ok(OwnServer { child, addr, token }),
            None => {
                let _ = child.kill();
                let _ = child.wait();
                bail!("koth serve did not say where it listens: {line:?}")
            }
        }
    }

    /// Upload every bot (the first upload of two bots starts a run, each later one another),
    /// wait until a run is playing, then load the server.
    fn upload_and_load(&self, b: &ServeBench) -> anyhow::Result<ExitCode> {
        for path in &b.bots {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let file = path
                .file_name()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let (status, answer) = self.upload(&name, &file, &bytes)?;
            if status != 201 {
                bail!(
                    "{}: the upload was refused ({status}): {answer}",
                    path.display()
                );
            }
        }
        let deadline = Instant::now() + Duration::from_secs(60);
        let before = loop {
            let status = self.status()?;
            let (done, total) = (
                status["progress"]["done"].as_u64().unwrap_or(0),
                status["progress"]["total"].as_u64().unwrap_or(0),
            );
            if done < total {
                break status;
            }
            if Instant::now() > deadline {
                bail!("no run started within a minute of the uploads: {status}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let code = load(self.addr, b)?;
        let after = self.status()?;
        let progress = |s: &serde_json::Value| {
            format!(
                "run {} at {} of {} matches",
                s["progress"]["run"], s["progress"]["done"], s["progress"]["total"]
            )
        };
        println!(
            "runs while loaded: {} bots, {} rounds; before the load {}, after it {}",
            b.bots.len(),
            b.rounds,
            progress(&before),
            if after["progress"].is_null() {
                "none going".to_string()
            } else {
                progress(&after)
            }
        );
        Ok(code)
    }

    fn upload(&self, name: &str, file: &str, bytes: &[u8]) -> anyhow::Result<(u16, String)> {
        const BOUNDARY: &str = "koth-bench-boundary";
        let mut body = Vec::new();
        // The token first: the server checks it before it reads the rest.
        for (field, value) in [("token", self.token.as_str()), ("name", name)] {
            body.extend_from_slice(
                format!(
                    "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"\r\n\r\n{value}\r\n"
                )
                .as_bytes(),
            );
        }
        body.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{file}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
        let head = format!(
            "POST /api/upload HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\
             Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        let (_, out) = request(self.addr, &head, &body).map_err(anyhow::Error::msg)?;
        Ok(status_and_body(&out))
    }

    fn status(&self) -> anyhow::Result<serde_json::Value> {
        let (_, out) = get_body(self.addr, "/api/status").map_err(anyhow::Error::msg)?;
        let (_, body) = status_and_body(&out);
        serde_json::from_str(&body)
            .with_context(|| format!("/api/status answered {:?}", String::from_utf8_lossy(&out)))
    }

    fn stop(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The load itself: `readers` threads, each making `requests` requests one after another.
fn load(addr: SocketAddr, b: &ServeBench) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    let results: Vec<Result<Duration, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..b.readers)
            .map(|r| {
                s.spawn(move || {
                    (0..b.requests)
                        .map(|i| {
                            get(
                                addr,
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
        "the contest server at {addr}: {} readers x {} requests (/ and /api/leaderboard, a new connection each)",
        b.readers, b.requests
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
