//! What the contest server's tests share (`tests/serve.rs`, `tests/serve_hostile.rs`): the
//! real `koth serve` on a loopback port and a small HTTP client of its own (every request
//! bounded in time), contests in self-deleting folders. Each file uses part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `koth serve`, killed when dropped.
pub struct Server {
    child: Child,
    /// Where it listens (always loopback).
    pub addr: SocketAddr,
}

impl Server {
    /// Start `koth serve DIR` on a free loopback port; its stderr goes to `stderr`.
    pub fn start(dir: &Path, stderr: &Path) -> Server {
        Server::start_with(dir, stderr, &[])
    }

    /// As [`Server::start`], with more `koth serve` options (its limits).
    pub fn start_with(dir: &Path, stderr: &Path, options: &[&str]) -> Server {
        Server::start_env(dir, stderr, options, &[])
    }

    /// As [`Server::start_with`], with these environment variables set for the server.
    pub fn start_env(
        dir: &Path,
        stderr: &Path,
        options: &[&str],
        env: &[(&str, &std::ffi::OsStr)],
    ) -> Server {
        let err = std::fs::File::create(stderr).unwrap();
        let mut child = Command::new(koth_tests::koth_bin())
            .envs(env.iter().map(|(k, v)| (*k, *v)))
            .arg("serve")
            .arg(dir)
            .args(["--listen", "127.0.0.1:0"])
            .args(options)
            .stdout(Stdio::piped())
            .stderr(err)
            .spawn()
            .expect("start koth serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("koth serve said where it listens");
        let addr = line
            .trim()
            .rsplit("http://")
            .next()
            .and_then(|a| a.trim_end_matches('/').parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, addr }
    }

    /// Send raw request bytes; returns (status, body).
    pub fn raw(&self, request: &[u8]) -> (u16, String) {
        let (status, _, body) = self.exchange(request);
        (status, body)
    }

    /// GET `path`; returns (status, the response's head: its status line and headers).
    pub fn head(&self, path: &str) -> (u16, String) {
        let (status, head, _) = self.exchange(
            format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
        );
        (status, head)
    }

    /// Send raw request bytes; returns (status, head, body).
    fn exchange(&self, request: &[u8]) -> (u16, String, String) {
        let mut s = TcpStream::connect_timeout(&self.addr, Duration::from_secs(10)).unwrap();
        // Past the server's own upload limit (10 min): only a hung server ends a test here.
        s.set_read_timeout(Some(Duration::from_secs(660))).unwrap();
        s.set_write_timeout(Some(Duration::from_secs(30))).unwrap();
        // The server may answer (413) before reading a huge body: a failed write is fine.
        let _ = s.write_all(request);
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out).into_owned();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
        (status, head.to_string(), body.to_string())
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.raw(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
    }

    pub fn json(&self, path: &str) -> serde_json::Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    }

    /// Upload each of these seed bots under its own name with `token`, each accepted.
    pub fn upload_each(&self, token: &str, bots: &[&str]) {
        for name in bots {
            let (code, body) =
                self.upload(name, Some(token), &format!("{name}.wasm"), &seed_bot(name));
            assert_eq!(code, 201, "{name}: {body}");
        }
    }

    /// Upload through the API: (status, body).
    pub fn upload(
        &self,
        name: &str,
        token: Option<&str>,
        filename: &str,
        bytes: &[u8],
    ) -> (u16, String) {
        let body = multipart(name, token, filename, bytes);
        self.post("/api/upload", &body)
    }

    /// Upload seed bots, each `(name, token, seed bot)`; each must be accepted.
    pub fn upload_seed_bots(&self, bots: &[(&str, &str, &str)]) {
        for (name, token, bot) in bots {
            let (code, body) =
                self.upload(name, Some(token), &format!("{bot}.wasm"), &seed_bot(bot));
            assert_eq!(code, 201, "{name}: {body}");
        }
    }

    pub fn post(&self, path: &str, body: &[u8]) -> (u16, String) {
        let mut req = format!(
            "POST {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
             Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes();
        req.extend_from_slice(body);
        self.raw(&req)
    }

    /// Wait until no run is queued or running and `runs` runs exist; returns the status.
    pub fn settle(&self, runs: usize) -> serde_json::Value {
        let started = Instant::now();
        loop {
            let s = self.json("/api/status");
            if s["pending"] == 0 && s["runs"].as_u64() >= Some(runs as u64) {
                return s;
            }
            assert!(
                started.elapsed() < Duration::from_secs(300),
                "the runs did not finish: {s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn kill(mut self) {
        // SIGKILL: nothing is flushed or closed.
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Server {
    /// Send SIGTERM and wait (at most `limit`) for the server to exit: its exit status, or
    /// `None` if it was still running (then it is killed).
    pub fn terminate(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let sent = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(sent.success());
        let started = Instant::now();
        while started.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub const BOUNDARY: &str = "kothTestBoundary7MA4YWxk";

pub fn multipart(name: &str, token: Option<&str>, filename: &str, bytes: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    let mut text = |field: &str, value: &str| {
        b.extend_from_slice(
            format!(
                "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{field}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    };
    // The token first: the server checks it before it reads anything else.
    if let Some(t) = token {
        text("token", t);
    }
    text("name", name);
    b.extend_from_slice(
        format!(
            "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n\
             Content-Type: application/wasm\r\n\r\n"
        )
        .as_bytes(),
    );
    b.extend_from_slice(bytes);
    b.extend_from_slice(format!("\r\n--{BOUNDARY}--\r\n").as_bytes());
    b
}

/// Run koth with these arguments; returns stdout, failing on a non-zero status.
pub fn koth(args: &[&str]) -> String {
    let o = Command::new(koth_tests::koth_bin())
        .args(args)
        .output()
        .expect("run koth");
    assert!(
        o.status.success(),
        "koth {args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Export the contest in `dir` to `<tmp>/export`, then play `koth HEAD BOT... FLAGS --out
/// <tmp>/scratch` with the exported bots named `bots` (their file stems): the export must be
/// that run from scratch, file for file but its `bots/` folder, and `koth verify --all` must
/// confirm it with its bots. Returns the export's folder.
pub fn export_is_the_run_from_scratch(
    tmp: &Path,
    dir: &Path,
    head: &[&str],
    bots: &[&str],
    flags: &[&str],
) -> PathBuf {
    let out = tmp.join("export");
    koth(&[
        "contest",
        "export",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let bots_dir = out.join("bots");
    let scratch = tmp.join("scratch");
    let mut run: Vec<String> = head.iter().map(|h| h.to_string()).collect();
    for b in bots {
        run.push(
            bots_dir
                .join(format!("{b}.wasm"))
                .to_string_lossy()
                .into_owned(),
        );
    }
    run.extend(flags.iter().map(|f| f.to_string()));
    run.push("--out".into());
    run.push(scratch.to_string_lossy().into_owned());
    koth(&run.iter().map(String::as_str).collect::<Vec<_>>());
    let mut exported = koth_tests::read_tree(&out);
    exported.retain(|k, _| !k.starts_with("bots"));
    assert_eq!(
        exported,
        koth_tests::read_tree(&scratch),
        "the export is `koth {}` from scratch",
        head.join(" ")
    );
    let verified = koth(&[
        "verify",
        out.to_str().unwrap(),
        "--bots",
        bots_dir.to_str().unwrap(),
        "--all",
    ]);
    assert!(!verified.is_empty());
    out
}

/// A contest folder (`<tmp>/contest`) made with these `koth contest init` options; it takes
/// `.wasm` only, so that its server makes no Python snapshot (a minute of CPU).
pub fn contest(tmp: &Path, opts: &[&str]) -> PathBuf {
    let mut with = vec!["--no-python"];
    with.extend_from_slice(opts);
    contest_with_python(tmp, &with)
}

/// A contest folder (`<tmp>/contest`) of the game the test referee `referee` plays (built
/// by build.rs), `.wasm` only, made with these `koth contest init` options.
pub fn referee_contest(tmp: &Path, referee: &str, opts: &[&str]) -> PathBuf {
    let dir = tmp.join("contest");
    let referee = koth_tests::wasm(referee);
    let mut args = vec![
        "contest",
        "init",
        dir.to_str().unwrap(),
        "--referee",
        referee.to_str().unwrap(),
        "--no-python",
        "--jobs",
        "2",
    ];
    args.extend_from_slice(opts);
    koth(&args);
    dir
}

/// As [`contest`], taking `.py` scripts too (unless `opts` says `--no-python`).
pub fn contest_with_python(tmp: &Path, opts: &[&str]) -> PathBuf {
    let dir = tmp.join("contest");
    let d = dir.to_str().unwrap();
    let mut args = vec!["contest", "init", d, "--game", "coup", "--jobs", "2"];
    args.extend_from_slice(opts);
    koth(&args);
    dir
}

pub fn author(dir: &Path, name: &str) -> String {
    koth(&["contest", "add-author", dir.to_str().unwrap(), name])
        .trim()
        .to_string()
}

pub fn seed_bot(name: &str) -> Vec<u8> {
    std::fs::read(koth_tests::wasm(name)).unwrap()
}

pub fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |d| d.count())
}

impl Server {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Descriptors the server has open (sockets included), from `/proc`.
    pub fn open_fds(&self) -> usize {
        std::fs::read_dir(format!("/proc/{}/fd", self.pid())).map_or(0, |d| d.count())
    }

    /// The server's resident memory, in KiB, from `/proc`.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmRSS in /proc/PID/status")
    }
}
