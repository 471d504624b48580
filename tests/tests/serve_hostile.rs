//! `koth serve` against hostile clients, on loopback only (127.0.0.1): idle connections by
//! the thousand, heads and bodies sent a byte at a time, 16 MiB uploads with a wrong token,
//! uploads past the caps. Each test asserts the defence itself (the connection cap holds, a
//! slow head is closed within its timeout, a wrong token is answered before the body is
//! sent, memory does not grow); the first also measures 200 readers' latency while every
//! attack runs at once. The servers run with short timeouts (1-2 s) so the suite runs in
//! seconds; every loop here is bounded in count and in time.

mod serve_support;

use serve_support::{author, contest, multipart, seed_bot, Server, BOUNDARY};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The contest's upload limit (koth's default), and a wrong-token upload's size.
const SIXTEEN_MIB: usize = 16 << 20;

/// The soft limit on this process's open files (`/proc/self/limits`), or 1024.
fn fd_limit() -> usize {
    std::fs::read_to_string("/proc/self/limits")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l["Max open files".len()..].split_whitespace().next())
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(1024)
}

/// A loopback connection with every wait bounded.
fn connect(addr: SocketAddr) -> std::io::Result<TcpStream> {
    let s = TcpStream::connect_timeout(&addr, Duration::from_secs(5))?;
    s.set_read_timeout(Some(Duration::from_secs(10)))?;
    s.set_write_timeout(Some(Duration::from_secs(10)))?;
    Ok(s)
}

/// How long until the server closes `s` (EOF or reset), reading and discarding what it
/// sends; `None` if it is still open after `limit`.
fn closed_within(s: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    while started.elapsed() < limit {
        s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
        match s.read(&mut buf) {
            Ok(0) => return Some(started.elapsed()),
            Ok(_) => {}
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some(started.elapsed()),
        }
    }
    None
}

/// Whether the server has closed `s` already (a read that does not wait).
fn is_closed(s: &TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 1];
    let closed = match s.peek(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    };
    s.set_nonblocking(false).unwrap();
    closed
}

/// Whether the server has answered or closed `s` (a read that does not wait): a client
/// sending a body stops there and reads the answer.
fn answered_or_closed(s: &TcpStream) -> bool {
    s.set_nonblocking(true).unwrap();
    let mut buf = [0u8; 1];
    let done = match s.peek(&mut buf) {
        Ok(_) => true,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    };
    s.set_nonblocking(false).unwrap();
    done
}

/// An answer's head (status line and headers, lower-cased) and what came of its body,
/// read within `limit`.
fn read_answer(s: &mut TcpStream, limit: Duration) -> Option<(u16, String, String)> {
    let started = Instant::now();
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    while started.elapsed() < limit {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                if complete(&out) {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, head.to_ascii_lowercase(), body.to_string()))
}

/// Whether `out` holds a whole answer (by its Content-Length).
fn complete(out: &[u8]) -> bool {
    let text = String::from_utf8_lossy(out);
    let Some((head, body)) = text.split_once("\r\n\r\n") else {
        return false;
    };
    head.lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .and_then(|v| v.trim().parse::<usize>().ok())
        })
        .is_some_and(|n| body.len() >= n)
}

/// The head of an upload of `len` bytes to `path`, with these extra header lines.
fn upload_head(path: &str, len: usize, extra: &str) -> String {
    format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\n{extra}\
         Content-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: {len}\r\n\r\n"
    )
}

/// A multipart upload's text field.
fn field(name: &str, value: &str) -> String {
    format!("--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n")
}

/// The start of a multipart file field.
fn file_start(filename: &str) -> String {
    format!(
        "--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{filename}\"\r\n\
         Content-Type: application/wasm\r\n\r\n"
    )
}

/// One reader's request on a new connection: (status, seconds).
fn timed_get(addr: SocketAddr, path: &str) -> (u16, f64) {
    let started = Instant::now();
    let Ok(mut s) = connect(addr) else {
        return (0, started.elapsed().as_secs_f64());
    };
    let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    if s.write_all(req.as_bytes()).is_err() {
        return (0, started.elapsed().as_secs_f64());
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let status = String::from_utf8_lossy(&out)
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, started.elapsed().as_secs_f64())
}

/// The `q` quantile of sorted `v`.
fn quantile(v: &[f64], q: f64) -> f64 {
    v[((v.len() as f64 * q).ceil() as usize)
        .saturating_sub(1)
        .min(v.len() - 1)]
}

/// Wait (bounded) until `/api/status` counts `n` uploads in progress.
fn await_uploads(server: &Server, n: u64) {
    let started = Instant::now();
    loop {
        let s = server.json("/api/status");
        if s["uploads"].as_u64() == Some(n) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "uploads in progress never reached {n}: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn readers_are_served_while_every_attack_runs_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let tokens: Vec<String> = (0..4).map(|i| author(&dir, &format!("a{i}"))).collect();
    let cap = 512;
    let server = Server::start_with(
        &dir,
        &tmp.path().join("stderr"),
        &[
            "--max-connections",
            &cap.to_string(),
            "--head-timeout",
            "1",
            "--idle-timeout",
            "2",
            "--body-idle-timeout",
            "1",
            "--body-grace",
            "1",
            "--min-body-rate",
            "4096",
            "--max-uploads",
            "4",
            "--max-uploads-per-author",
            "1",
        ],
    );
    for (name, bot) in [("tax", "taxman"), ("law", "lawyer")] {
        let (code, body) = server.upload(name, Some(&tokens[0]), "b.wasm", &seed_bot(bot));
        assert_eq!(code, 201, "{body}");
    }
    server.settle(1);
    let addr = server.addr;
    let base_fds = server.open_fds();
    // Idle connections held at once: 3,000, or what this process's open-file limit leaves.
    let flood = 3000.min(fd_limit().saturating_sub(1200) / 2).max(600);
    let stop = AtomicBool::new(false);
    let hard_stop = Instant::now() + Duration::from_secs(45);
    let running = || !stop.load(Ordering::Relaxed) && Instant::now() < hard_stop;
    let (opened, heads_cut, bodies_cut, refused) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let (mut latencies, peak_fds) = std::thread::scope(|s| {
        // Idle flood: `flood` connections held, the oldest hundred replaced every 100 ms.
        s.spawn(|| {
            let mut held = std::collections::VecDeque::new();
            while running() {
                for _ in 0..100 {
                    if let Ok(c) = TcpStream::connect_timeout(&addr, Duration::from_secs(1)) {
                        held.push_back(c);
                        opened.fetch_add(1, Ordering::Relaxed);
                    }
                    if held.len() > flood {
                        held.pop_front();
                    }
                }
                if held.len() >= flood {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        });
        // Slow heads: 100 connections, a byte of a head each every 200 ms.
        s.spawn(|| {
            let head =
                b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
            let mut conns: Vec<(TcpStream, usize)> = Vec::new();
            while running() {
                while conns.len() < 100 {
                    match connect(addr) {
                        Ok(c) => conns.push((c, 0)),
                        Err(_) => break,
                    }
                }
                conns.retain_mut(|(c, at)| {
                    let ok = c.write_all(&head[*at % head.len()..][..1]).is_ok();
                    *at += 1;
                    if !ok {
                        heads_cut.fetch_add(1, Ordering::Relaxed);
                    }
                    ok
                });
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        // Slow bodies: three authors' uploads, a byte every 100 ms, again once cut.
        for token in &tokens[1..] {
            let (bodies_cut, running) = (&bodies_cut, &running);
            s.spawn(move || {
                while running() {
                    let Ok(mut c) = connect(addr) else { continue };
                    let head = upload_head(
                        "/api/upload",
                        100_000,
                        &format!("Authorization: Bearer {token}\r\n"),
                    );
                    let _ = c.write_all(head.as_bytes());
                    let _ = c.write_all(field("name", "slow").as_bytes());
                    let _ = c.write_all(file_start("s.wasm").as_bytes());
                    while running() && c.write_all(b"\0").is_ok() && !answered_or_closed(&c) {
                        std::thread::sleep(Duration::from_millis(100));
                    }
                    bodies_cut.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
        // Wrong-token 16 MiB uploads, four at a time, each sent whole without waiting.
        for _ in 0..4 {
            let (refused, running) = (&refused, &running);
            s.spawn(move || {
                let chunk = vec![0u8; 1 << 20];
                while running() {
                    let Ok(mut c) = connect(addr) else { continue };
                    let head = upload_head(
                        "/api/upload",
                        SIXTEEN_MIB,
                        "Authorization: Bearer 0000wrong\r\n",
                    );
                    let _ = c.write_all(head.as_bytes());
                    for _ in 0..16 {
                        if c.write_all(&chunk).is_err() {
                            break;
                        }
                    }
                    if let Some((401, _, _)) = read_answer(&mut c, Duration::from_secs(2)) {
                        refused.fetch_add(1, Ordering::Relaxed);
                    }
                }
            });
        }
        // Let the attacks reach the cap, then 200 readers, 5 requests each.
        std::thread::sleep(Duration::from_secs(2));
        let fds_watch = s.spawn(|| {
            let mut peak = 0;
            while running() {
                peak = peak.max(server.open_fds());
                std::thread::sleep(Duration::from_millis(50));
            }
            peak
        });
        let readers: Vec<_> = (0..200)
            .map(|i| {
                s.spawn(move || {
                    (0..5)
                        .map(|j| {
                            let path = if (i + j) % 2 == 0 {
                                "/"
                            } else {
                                "/api/leaderboard"
                            };
                            timed_get(addr, path)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let results: Vec<(u16, f64)> = readers
            .into_iter()
            .flat_map(|r| r.join().unwrap())
            .collect();
        stop.store(true, Ordering::Relaxed);
        (results, fds_watch.join().unwrap())
    });
    let failed: Vec<_> = latencies.iter().filter(|(code, _)| *code != 200).collect();
    assert!(failed.is_empty(), "readers not served: {failed:?}");
    latencies.sort_by(|a, b| a.1.total_cmp(&b.1));
    let secs: Vec<f64> = latencies.iter().map(|l| l.1).collect();
    let (p50, p99, max) = (
        quantile(&secs, 0.5),
        quantile(&secs, 0.99),
        secs[secs.len() - 1],
    );
    println!(
        "under attack: {} reader requests, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         {} idle connections opened ({flood} held at once), {} slow heads and {} slow bodies cut, \
         {} wrong-token 16 MiB uploads refused; server descriptors {base_fds} before, peak {peak_fds} (cap {cap})",
        secs.len(),
        p50 * 1e3,
        p99 * 1e3,
        max * 1e3,
        opened.load(Ordering::Relaxed),
        heads_cut.load(Ordering::Relaxed),
        bodies_cut.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed),
    );
    // The target is 100 ms; the bound is generous for a loaded 2-core CI machine.
    assert!(p99 < 1.0, "p99 {p99:.3} s under attack");
    assert!(opened.load(Ordering::Relaxed) >= flood, "the flood ran");
    assert!(
        refused.load(Ordering::Relaxed) > 0,
        "wrong tokens were refused"
    );
    // The flood reached the cap, and the cap held: the server never had more sockets than
    // the cap, beyond its own files (and a newcomer accepted to be closed at once).
    assert!(
        peak_fds >= base_fds + cap - 16 && peak_fds <= base_fds + cap + 8,
        "{peak_fds} descriptors, {base_fds} before the attack, cap {cap}"
    );
}

#[test]
fn the_connection_cap_holds_by_shedding_the_oldest_idle_connections() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let cap = 100;
    // Long timeouts: what closes connections here is the cap, not a clock.
    let server = Server::start_with(
        &dir,
        &tmp.path().join("stderr"),
        &[
            "--max-connections",
            "100",
            "--idle-timeout",
            "60",
            "--head-timeout",
            "60",
        ],
    );
    let base = server.open_fds();
    let conns: Vec<TcpStream> = (0..300)
        .map(|i| {
            let c = connect(server.addr).unwrap();
            if i % 50 == 49 {
                // Let the server accept them in order (it sheds by age).
                std::thread::sleep(Duration::from_millis(20));
            }
            c
        })
        .collect();
    // Bounded: the server accepts the backlog within a moment.
    let started = Instant::now();
    let mut fds = server.open_fds();
    while started.elapsed() < Duration::from_secs(5) && conns[..200].iter().any(|c| !is_closed(c)) {
        std::thread::sleep(Duration::from_millis(50));
        fds = fds.max(server.open_fds());
    }
    let open: Vec<usize> = (0..conns.len())
        .filter(|&i| !is_closed(&conns[i]))
        .collect();
    println!(
        "cap {cap}: {} of 300 idle connections left open, server descriptors {base} -> {fds}",
        open.len()
    );
    assert!(open.len() <= cap, "{} open", open.len());
    // The oldest are shed: of the first 200, at most a few accepted out of order by a
    // loaded machine (connects in one burst may reach the server's accept in another order).
    let old = open.iter().filter(|&&i| i < 200).count();
    assert!(
        old <= 5 && open.iter().all(|&i| i >= 150),
        "only the newest are left: {open:?}"
    );
    assert!(fds <= base + cap + 4, "{fds} descriptors ({base} before)");
    // A reader still gets in at once (the oldest idle one is shed for it).
    let (code, secs) = timed_get(server.addr, "/api/leaderboard");
    assert_eq!(code, 200);
    assert!(secs < 1.0, "{secs} s");
}

#[test]
fn idle_connections_and_slow_heads_are_closed_within_their_timeouts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let server = Server::start_with(
        &dir,
        &tmp.path().join("stderr"),
        &["--head-timeout", "1", "--idle-timeout", "2"],
    );
    let addr = server.addr;
    let limit = Duration::from_secs(6);
    std::thread::scope(|s| {
        // A connection that sends nothing: the idle timeout (2 s).
        let silent = s.spawn(|| closed_within(&mut connect(addr).unwrap(), limit));
        // Half a head, a byte every 100 ms: the head timeout (1 s from its first byte),
        // although it is never idle 100 ms.
        let slow = s.spawn(|| {
            let mut c = connect(addr).unwrap();
            let started = Instant::now();
            for b in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" {
                if c.write_all(&[*b]).is_err() || started.elapsed() > limit {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            closed_within(&mut c, limit).map(|_| started.elapsed())
        });
        // Keep-alive: a request answered, then nothing: the idle timeout from the answer.
        let kept = s.spawn(|| {
            let mut c = connect(addr).unwrap();
            c.write_all(b"GET /api/status HTTP/1.1\r\nHost: x\r\n\r\n")
                .unwrap();
            let answer = read_answer(&mut c, Duration::from_secs(5));
            assert_eq!(answer.map(|a| a.0), Some(200));
            closed_within(&mut c, limit)
        });
        let silent = silent
            .join()
            .unwrap()
            .expect("a silent connection is closed");
        let slow = slow.join().unwrap().expect("a slow head is closed");
        let kept = kept.join().unwrap().expect("an idle keep-alive is closed");
        println!("closed: silent after {silent:?}, slow head after {slow:?}, idle keep-alive after {kept:?}");
        for (what, t, lo, hi) in [
            ("silent", silent, 1.9, 3.5),
            ("slow head", slow, 0.9, 1.9),
            // Measured from the answer read whole, up to 100 ms after it came.
            ("keep-alive", kept, 1.7, 3.5),
        ] {
            assert!(
                (lo..hi).contains(&t.as_secs_f64()),
                "{what} closed after {t:?}, not within [{lo}, {hi}) s"
            );
        }
    });
}

#[test]
fn a_slow_body_is_cut_and_a_steady_16_mib_upload_is_not() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let tokens: Vec<String> = (0..3).map(|i| author(&dir, &format!("a{i}"))).collect();
    let server = Server::start_with(
        &dir,
        &tmp.path().join("stderr"),
        &[
            "--body-idle-timeout",
            "1",
            "--body-grace",
            "1",
            "--min-body-rate",
            "4096",
        ],
    );
    let addr = server.addr;
    std::thread::scope(|s| {
        // A byte every 100 ms: never idle a second, far below 4 KiB/s.
        let trickle = s.spawn(|| {
            let mut c = connect(addr).unwrap();
            let auth = format!("Authorization: Bearer {}\r\n", tokens[0]);
            c.write_all(upload_head("/api/upload", 100_000, &auth).as_bytes())
                .unwrap();
            c.write_all((field("name", "slow") + &file_start("s.wasm")).as_bytes())
                .unwrap();
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(8) {
                if c.write_all(b"\0").is_err() || answered_or_closed(&c) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            (
                read_answer(&mut c, Duration::from_secs(2)),
                started.elapsed(),
            )
        });
        // A body that stops: the idle timeout.
        let stalled = s.spawn(|| {
            let mut c = connect(addr).unwrap();
            let auth = format!("Authorization: Bearer {}\r\n", tokens[1]);
            c.write_all(upload_head("/api/upload", 100_000, &auth).as_bytes())
                .unwrap();
            c.write_all((field("name", "stall") + &file_start("s.wasm")).as_bytes())
                .unwrap();
            let started = Instant::now();
            (
                read_answer(&mut c, Duration::from_secs(8)),
                started.elapsed(),
            )
        });
        // 16 MiB at about 12 MiB/s: read whole and checked (it is no module: 422).
        let steady = s.spawn(|| {
            let file = vec![0u8; SIXTEEN_MIB - 4096];
            let body = multipart("big", Some(&tokens[2]), "big.wasm", &file);
            let mut c = connect(addr).unwrap();
            c.write_all(upload_head("/api/upload", body.len(), "").as_bytes())
                .unwrap();
            let started = Instant::now();
            for chunk in body.chunks(256 << 10) {
                c.write_all(chunk).unwrap();
                std::thread::sleep(Duration::from_millis(20));
            }
            (
                read_answer(&mut c, Duration::from_secs(60)),
                started.elapsed(),
            )
        });
        let (answer, t) = trickle.join().unwrap();
        let (code, head, body) = answer.expect("the trickle was answered");
        println!("trickle: {code} after {t:?}: {body}");
        assert_eq!(code, 408, "{body}");
        assert!(head.contains("connection: close") && body.contains("too slowly"));
        assert!(t < Duration::from_secs(4), "cut after {t:?}");
        let (answer, t) = stalled.join().unwrap();
        let (code, _, body) = answer.expect("the stalled body was answered");
        println!("stalled: {code} after {t:?}");
        assert_eq!(code, 408, "{body}");
        assert!(
            t >= Duration::from_millis(900) && t < Duration::from_secs(4),
            "{t:?}"
        );
        let (answer, t) = steady.join().unwrap();
        let (code, _, body) = answer.expect("the steady upload was answered");
        println!("steady 16 MiB: {code} after {t:?}");
        assert_eq!(code, 422, "read whole, then refused by the check: {body}");
    });
}

#[test]
fn a_wrong_token_is_answered_before_the_body_and_costs_no_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let alice = author(&dir, "alice");
    let server = Server::start_with(&dir, &tmp.path().join("stderr"), &[]);
    let addr = server.addr;
    let quick = Duration::from_secs(2);
    // Headers only, each announcing 16 MiB: the answer comes without the body.
    let cases = [
        (
            "wrong bearer",
            "Authorization: Bearer 00wrong\r\n",
            String::new(),
        ),
        ("not bearer", "Authorization: Basic YTpi\r\n", String::new()),
        (
            "wrong first field",
            "",
            field("token", "00wrong") + &file_start("x.wasm"),
        ),
        (
            "token not first",
            "",
            field("name", "x") + &field("token", &alice),
        ),
        (
            "100-continue",
            "Expect: 100-continue\r\nAuthorization: Bearer 00wrong\r\n",
            String::new(),
        ),
    ];
    for (what, headers, start) in cases {
        let mut c = connect(addr).unwrap();
        let sent = Instant::now();
        c.write_all(upload_head("/api/upload", SIXTEEN_MIB, headers).as_bytes())
            .unwrap();
        c.write_all(start.as_bytes()).unwrap();
        let (code, head, body) = read_answer(&mut c, quick)
            .unwrap_or_else(|| panic!("{what}: no answer before the body"));
        assert_eq!(code, 401, "{what}: {body}");
        assert!(head.contains("connection: close"), "{what}: {head}");
        let reason: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert!(
            reason["error"].as_str().is_some_and(|r| r.len() > 10),
            "{what}: {body}"
        );
        // ...and the connection is closed, the body never read.
        assert!(closed_within(&mut c, quick).is_some(), "{what}: left open");
        assert!(sent.elapsed() < quick, "{what}: {:?}", sent.elapsed());
    }
    // The case: twelve 16 MiB uploads with a wrong token, sent whole at once.
    let before = server.rss_kib();
    std::thread::scope(|s| {
        for i in 0..12 {
            s.spawn(move || {
                let mut c = connect(addr).unwrap();
                let (headers, start) = if i % 2 == 0 {
                    ("Authorization: Bearer 00wrong\r\n", String::new())
                } else {
                    ("", field("token", "00wrong") + &file_start("x.wasm"))
                };
                let _ = c.write_all(upload_head("/api/upload", SIXTEEN_MIB, headers).as_bytes());
                let _ = c.write_all(start.as_bytes());
                let chunk = vec![0u8; 1 << 20];
                for _ in 0..16 {
                    if c.write_all(&chunk).is_err() {
                        break;
                    }
                }
                let _ = read_answer(&mut c, quick);
            });
        }
    });
    let after = server.rss_kib();
    println!(
        "twelve wrong-token 16 MiB uploads: server RSS {} -> {} MiB",
        before >> 10,
        after >> 10
    );
    assert!(
        after < before + (24 << 10),
        "the server grew {} KiB",
        after.saturating_sub(before)
    );
    // And nothing was stored, nothing left in `incoming`.
    assert_eq!(serve_support::entries(&dir.join("versions")), 0);
    assert_eq!(serve_support::entries(&dir.join("incoming")), 0);
}

#[test]
fn uploads_in_progress_are_capped_per_author_and_in_all() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let (a, b, c) = (author(&dir, "a"), author(&dir, "b"), author(&dir, "c"));
    let server = Server::start_with(
        &dir,
        &tmp.path().join("stderr"),
        &["--max-uploads", "2", "--max-uploads-per-author", "1"],
    );
    let addr = server.addr;
    // An upload held open: its headers and the start of its file.
    let hold = |token: &str| {
        let mut s = connect(addr).unwrap();
        let auth = format!("Authorization: Bearer {token}\r\n");
        s.write_all(upload_head("/api/upload", 100_000, &auth).as_bytes())
            .unwrap();
        s.write_all((field("name", "held") + &file_start("h.wasm")).as_bytes())
            .unwrap();
        s
    };
    // A second upload's headers: refused before its body.
    let refused = |token: &str| {
        let mut s = connect(addr).unwrap();
        let auth = format!("Authorization: Bearer {token}\r\n");
        s.write_all(upload_head("/api/upload", 100_000, &auth).as_bytes())
            .unwrap();
        read_answer(&mut s, Duration::from_secs(2)).expect("an answer before the body")
    };
    let held_a = hold(&a);
    await_uploads(&server, 1);
    let (code, head, body) = refused(&a);
    assert_eq!(code, 429, "one upload per author: {body}");
    assert!(head.contains("retry-after: "), "{head}");
    assert!(body.contains("\"error\""), "{body}");
    let _held_b = hold(&b);
    await_uploads(&server, 2);
    let (code, head, body) = refused(&c);
    assert_eq!(code, 429, "two uploads in all: {body}");
    assert!(head.contains("retry-after: "), "{head}");
    // A's upload abandoned: its slot comes back, and A's next upload is stored.
    drop(held_a);
    await_uploads(&server, 1);
    let (code, body) = server.upload("tax", Some(&a), "t.wasm", &seed_bot("taxman"));
    assert_eq!(code, 201, "{body}");
}

#[test]
fn every_answer_is_hardened_and_api_errors_are_json() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1"]);
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    for (name, bot) in [("tax", "taxman"), ("law", "lawyer")] {
        let (code, body) = server.upload(name, Some(&alice), "b.wasm", &seed_bot(bot));
        assert_eq!(code, 201, "{body}");
    }
    let run = server.settle(1)["latest_done"].as_i64().unwrap();
    let get = |path: &str, extra: &str| {
        let mut c = connect(server.addr).unwrap();
        let req = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n{extra}\r\n");
        c.write_all(req.as_bytes()).unwrap();
        read_answer(&mut c, Duration::from_secs(10)).expect("an answer")
    };
    let max = u64::MAX;
    let cases: Vec<(String, &str, u16)> = vec![
        ("/".into(), "", 200),
        ("/upload".into(), "", 200),
        ("/api/leaderboard".into(), "", 200),
        (format!("/runs/{run}/matches/0"), "", 200),
        (format!("/runs/{run}/matches/1"), "", 200),
        // Outside the run: past its 2 matches, the largest index, a negative one.
        (format!("/runs/{run}/matches/2"), "", 404),
        (format!("/runs/{run}/matches/{max}"), "", 404),
        (format!("/runs/{run}/matches/-1"), "", 404),
        (format!("/runs/{max}/matches/0"), "", 404),
        (format!("/runs/{max}"), "", 404),
        (format!("/api/runs/{max}"), "", 404),
        ("/api/runs/x".into(), "", 404),
        ("/api/nothing".into(), "", 404),
        ("/nothing".into(), "", 404),
        (
            "/api/leaderboard".into(),
            "Content-Length: 1073741824\r\n",
            413,
        ),
    ];
    for (path, extra, want) in &cases {
        let (code, head, body) = get(path, extra);
        assert_eq!(code, *want, "{path}: {body}");
        for h in [
            "x-content-type-options: nosniff",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
            "content-security-policy: default-src 'none'; script-src 'sha256-",
        ] {
            assert!(head.contains(h), "{path}: no {h:?} in {head}");
        }
        assert!(!head.contains("unsafe-inline"), "{path}: {head}");
        if path.starts_with("/api/") && code != 200 {
            assert!(
                head.contains("content-type: application/json"),
                "{path}: {head}"
            );
            let v: serde_json::Value =
                serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"));
            assert!(v["error"].is_string(), "{path}: {body}");
        }
    }
    // The upload API's 413 (from Content-Length alone) is JSON too.
    let mut c = connect(server.addr).unwrap();
    c.write_all(upload_head("/api/upload", 1 << 30, "Connection: close\r\n").as_bytes())
        .unwrap();
    let (code, head, body) = read_answer(&mut c, Duration::from_secs(5)).unwrap();
    assert_eq!(code, 413, "{body}");
    assert!(head.contains("application/json"), "{head}");
    assert!(serde_json::from_str::<serde_json::Value>(&body).unwrap()["error"].is_string());
    // A server error names none of the server's files: the run's archive gone, its replay
    // fails; the answer says so, the log has the path.
    let run_dir = dir.join("runs").join(run.to_string());
    std::fs::rename(&run_dir, dir.join("runs").join("moved")).unwrap();
    let (code, _, body) = get(&format!("/runs/{run}/matches/0"), "");
    assert_eq!(code, 500, "{body}");
    let root = tmp.path().to_string_lossy().into_owned();
    assert!(!body.contains(&root), "a path in {body}");
    assert!(body.contains("details are in its log"), "{body}");
    let log = std::fs::read_to_string(tmp.path().join("stderr")).unwrap();
    assert!(log.contains(&root), "the log has the detail: {log}");
}

#[test]
fn sigterm_finishes_the_requests_in_progress_then_exits() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "2"]);
    let alice = author(&dir, "alice");
    let stderr = tmp.path().join("stderr");
    let mut server = Server::start_with(&dir, &stderr, &["--drain-timeout", "20"]);
    let addr = server.addr;
    // An idle connection, and an upload in progress: head, token and name sent, not the file.
    let mut idle = connect(addr).unwrap();
    let bot = seed_bot("calculator");
    let rest = format!("{}{}", file_start("c.wasm"), "");
    let tail = format!("\r\n--{BOUNDARY}--\r\n");
    let first = format!("{}{}", field("token", &alice), field("name", "calc"));
    let len = first.len() + rest.len() + bot.len() + tail.len();
    let mut upload = connect(addr).unwrap();
    upload
        .write_all(upload_head("/api/upload", len, "").as_bytes())
        .unwrap();
    upload.write_all(first.as_bytes()).unwrap();
    await_uploads(&server, 1);
    let (tx, rx) = std::sync::mpsc::channel();
    let stopping = std::thread::spawn(move || {
        let status = server.terminate(Duration::from_secs(30));
        let _ = tx.send(());
        (server, status)
    });
    // The idle connection is closed at once; nobody new is let in.
    assert!(
        closed_within(&mut idle, Duration::from_secs(5)).is_some(),
        "the idle connection stayed open while draining"
    );
    let refused = (0..50).any(|_| {
        std::thread::sleep(Duration::from_millis(20));
        TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_err()
    });
    assert!(
        refused,
        "the server still accepted connections while draining"
    );
    assert!(
        rx.try_recv().is_err(),
        "the server exited before the upload in progress finished"
    );
    // The upload in progress is received, checked, stored and answered.
    upload.write_all(rest.as_bytes()).unwrap();
    upload.write_all(&bot).unwrap();
    upload.write_all(tail.as_bytes()).unwrap();
    let (code, _, body) = read_answer(&mut upload, Duration::from_secs(30)).expect("an answer");
    assert_eq!(code, 201, "{body}");
    let (server, status) = stopping.join().unwrap();
    let status = status.expect("the server exited after the drain");
    assert!(status.success(), "{status:?}");
    let log = std::fs::read_to_string(&stderr).unwrap();
    assert!(log.contains("SIGTERM") && log.contains("stopped"), "{log}");
    drop(server);
    // What it stored is there at the next start.
    let server = Server::start(&dir, &tmp.path().join("stderr2"));
    let bots = server.json("/api/bots");
    assert_eq!(bots[0]["bot"], "calc", "{bots}");
}
