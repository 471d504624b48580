//! An upload's checks, apart from the ladder (`koth serve` on loopback): each runs in a
//! child process with the contest's deadline, so a compile bomb is stopped, CPU and all,
//! while other authors' checks and the pages go on; a file that failed is refused at once
//! when sent again; a version that forfeits its validation match never enters the ladder;
//! past the disk quota, uploads are refused. Every wait here is bounded.

mod serve_support;

use serve_support::{author, contest, seed_bot, Server};
use std::time::{Duration, Instant};

/// The processes checking an upload for the contest in `dir` (from `/proc`).
fn checks_running(dir: &std::path::Path) -> usize {
    let dir = dir.to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
                .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
                .filter(|c| c.contains("check-upload") && c.contains(&dir))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_compile_bomb_is_stopped_at_the_deadline_and_refused_at_once_when_sent_again() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1", "--check-seconds", "3"]);
    let (alice, bob) = (author(&dir, "alice"), author(&dir, "bob"));
    let server = std::sync::Arc::new(Server::start(&dir, &tmp.path().join("stderr")));
    let bomb = koth_tests::compile_bomb();
    let s2 = std::sync::Arc::clone(&server);
    let a2 = alice.clone();
    let started = Instant::now();
    let bombing = std::thread::spawn(move || {
        let answer = s2.upload("bomb", Some(a2.as_str()), "bomb.wasm", &bomb);
        (answer, started.elapsed())
    });
    // While the bomb compiles in its child, another author's check and the pages go on.
    let seen = Instant::now();
    while checks_running(&dir) == 0 && seen.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        checks_running(&dir),
        1,
        "the bomb's check runs in a child process"
    );
    let t = Instant::now();
    let (code, body) = server.upload("tax", Some(bob.as_str()), "t.wasm", &seed_bot("taxman"));
    assert_eq!(code, 201, "{body}");
    let (code, _) = server.get("/");
    assert_eq!(code, 200);
    let beside = t.elapsed();
    let ((code, body), took) = bombing.join().unwrap();
    assert_eq!(code, 422, "{body}");
    assert!(
        body.contains("took longer than this contest's 3 s"),
        "{body}"
    );
    assert!(
        beside < took,
        "the other upload ({beside:?}) waited for the bomb ({took:?})"
    );
    // Refused at its deadline (generous for a loaded machine), and its compile is gone.
    assert!(took < Duration::from_secs(20), "{took:?}");
    let gone = Instant::now();
    while checks_running(&dir) > 0 && gone.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        checks_running(&dir),
        0,
        "the check past its deadline still runs"
    );
    // Sent again, under another name: refused from memory, without compiling.
    let t = Instant::now();
    let (code, body) = server.upload(
        "bomb2",
        Some(alice.as_str()),
        "b.wasm",
        &koth_tests::compile_bomb(),
    );
    assert_eq!(code, 422, "{body}");
    assert!(body.contains("is not checked again"), "{body}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(server.json("/api/bots").as_array().unwrap().len(), 1);
    // The host can make the contest forget it (after raising a limit, say).
    let out = serve_support::koth(&["contest", "clear-refusals", dir.to_str().unwrap()]);
    assert!(out.contains("1 refused file(s) forgotten"), "{out}");
}

#[test]
fn a_version_that_forfeits_its_validation_match_is_refused_with_the_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let opponent = koth_tests::wasm("calculator");
    let dir = contest(
        tmp.path(),
        &[
            "--rounds",
            "1",
            "--validation-opponent",
            opponent.to_str().unwrap(),
        ],
    );
    assert!(dir.join("validation/calculator.wasm").is_file());
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    // It loads and passes `koth check`, then runs out of memory in its first turn.
    let (code, body) = server.upload("snake", Some(alice.as_str()), "s.py", b"print('x')\n");
    assert_eq!(code, 400, "{body}");
    assert!(body.contains("not .py scripts"), "{body}");
    let (code, body) = server.upload(
        "oom",
        Some(alice.as_str()),
        "o.wasm",
        &seed_bot("probe_oom"),
    );
    assert_eq!(code, 422, "{body}");
    assert!(
        body.contains("forfeited its validation match against `calculator`"),
        "{body}"
    );
    for (name, bot) in [("tax", "taxman"), ("law", "lawyer")] {
        let (code, body) = server.upload(name, Some(alice.as_str()), "x.wasm", &seed_bot(bot));
        assert_eq!(code, 201, "{body}");
    }
    server.settle(1);
    let bots: Vec<String> = server
        .json("/api/bots")
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bot"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(bots, ["law", "tax"]);
}

#[test]
fn a_broken_validation_opponent_is_refused_by_init_and_leaves_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let bad = tmp.path().join("bad.wasm");
    std::fs::write(&bad, b"\0asm\x01\0\0\0garbage").unwrap();
    let dir = tmp.path().join("c");
    let out = std::process::Command::new(koth_tests::koth_bin())
        .args(["contest", "init"])
        .arg(&dir)
        .args(["--game", "coup", "--validation-opponent"])
        .arg(&bad)
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--validation-opponent") && err.contains("bad.wasm"),
        "{err}"
    );
    assert!(!dir.exists(), "a half-made contest was left");
}

#[test]
fn past_the_disk_quota_uploads_are_refused_with_507() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1", "--max-disk-mib", "1"]);
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    // The first version and its compiled code take the contest past 1 MiB.
    let (code, body) = server.upload(
        "calc",
        Some(alice.as_str()),
        "c.wasm",
        &seed_bot("calculator"),
    );
    assert_eq!(code, 201, "{body}");
    let (code, body) = server.upload("tax", Some(alice.as_str()), "t.wasm", &seed_bot("taxman"));
    assert_eq!(code, 507, "{body}");
    assert!(body.contains("disk quota (1 MiB)"), "{body}");
}

#[test]
fn a_check_past_its_memory_cap_is_stopped() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(
        tmp.path(),
        &["--check-seconds", "120", "--check-memory-mib", "128"],
    );
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    let t = Instant::now();
    let (code, body) = server.upload(
        "bomb",
        Some(alice.as_str()),
        "b.wasm",
        &koth_tests::compile_bomb(),
    );
    assert_eq!(code, 422, "{body}");
    assert!(body.contains("more than this contest's 128 MiB"), "{body}");
    // Stopped for its memory, long before its time was up.
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert_eq!(checks_running(&dir), 0);
}

#[test]
fn past_the_disk_quota_an_older_run_is_condensed_and_its_replays_answer_410() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "100"]);
    let alice = author(&dir, "alice");
    let mut server = Server::start(&dir, &tmp.path().join("stderr1"));
    for (name, bot) in [("tax", "taxman"), ("law", "lawyer")] {
        let (code, body) = server.upload(name, Some(alice.as_str()), "x.wasm", &seed_bot(bot));
        assert_eq!(code, 201, "{body}");
    }
    server.settle(1);
    assert!(server.terminate(Duration::from_secs(30)).is_some());
    // A quota just above what the contest holds now: the next run (three bots, three times
    // the matches) takes it past, and the first run's logs must go.
    let quota_mib = koth::contest::disk::usage(&dir) / (1 << 20) + 2;
    let config = dir.join("contest.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    json["max_disk_mib"] = quota_mib.into();
    // Every run kept whole but for the quota (by default a run is condensed as soon as a
    // newer one finishes: `serve.rs` tests that).
    json["whole_runs"] = 10.into();
    std::fs::write(&config, json.to_string()).unwrap();
    let server = Server::start(&dir, &tmp.path().join("stderr2"));
    let (code, body) = server.upload(
        "calc",
        Some(alice.as_str()),
        "c.wasm",
        &seed_bot("calculator"),
    );
    assert_eq!(code, 201, "{body}");
    server.settle(2);
    assert!(
        koth::contest::disk::usage(&dir) > quota_mib << 20,
        "the test's premise: the second run took the contest past its quota"
    );
    let runs = server.json("/api/runs");
    let (newest, oldest) = (
        runs[0]["id"].as_i64().unwrap(),
        runs[1]["id"].as_i64().unwrap(),
    );
    assert!(runs[1]["pruned"].is_i64(), "{runs}");
    assert!(
        runs[0]["pruned"].is_null(),
        "the leaderboard's run is kept: {runs}"
    );
    assert!(!dir.join(format!("runs/{oldest}/matches.zip.zst")).exists());
    assert!(!dir.join(format!("runs/{oldest}/results.json")).exists());
    assert!(dir.join(format!("runs/{oldest}/standings.json")).is_file());
    let (code, body) = server.get(&format!("/runs/{oldest}/matches/0"));
    assert_eq!(code, 410, "{body}");
    assert!(body.contains("disk quota"), "{body}");
    let (code, body) = server.get(&format!("/runs/{oldest}"));
    assert_eq!(code, 200);
    assert!(body.contains("match logs were removed"), "{body}");
    let (code, _) = server.get(&format!("/runs/{newest}/matches/0"));
    assert_eq!(code, 200);
    let log = std::fs::read_to_string(tmp.path().join("stderr2")).unwrap();
    assert!(log.contains("older run(s)"), "{log}");
}
