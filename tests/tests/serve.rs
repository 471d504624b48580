//! `koth serve`: the contest server, started as the real binary on a loopback port and
//! spoken to over HTTP by a small client (`serve_support`, shared with the hostile-client
//! tests of `serve_hostile.rs`; every request bounded in time, every wait bounded in count).
//! Each contest lives in a self-deleting folder.

#[path = "browser/devtools.rs"]
mod devtools;
mod serve_support;

use serve_support::{
    author, contest, contest_with_python, entries, export_is_the_run_from_scratch, koth, multipart,
    referee_contest, seed_bot, Server, BOUNDARY,
};
use std::path::Path;
use std::time::{Duration, Instant};

#[test]
fn bad_input_gets_a_4xx_with_its_reason_and_stores_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(
        tmp.path(),
        &["--rounds", "1", "--max-upload-bytes", "600000"],
    );
    let alice = author(&dir, "alice");
    let bob = author(&dir, "bob");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    let good = seed_bot("random");
    let (code, body) = server.upload("mine", Some(alice.as_str()), "mine.wasm", &good);
    assert_eq!(code, 201, "{body}");
    // Larger than the contest takes, but within the request cap: refused by the check.
    let huge = vec![0u8; 620_000];
    let truncated = &good[..good.len() / 2];
    type Case<'a> = (&'a str, Option<&'a str>, &'a str, &'a [u8], u16, &'a str);
    let cases: Vec<Case> = vec![
        (
            "garbage",
            Some(alice.as_str()),
            "g.wasm",
            b"this is not wasm at all",
            422,
            "garbage",
        ),
        (
            "trunc",
            Some(alice.as_str()),
            "t.wasm",
            truncated,
            422,
            "truncated",
        ),
        ("huge", Some(alice.as_str()), "h.wasm", &huge, 413, "huge"),
        ("a/b", Some(alice.as_str()), "x.wasm", &good, 400, "slash"),
        ("..", Some(alice.as_str()), "x.wasm", &good, 400, "dotdot"),
        ("a\0b", Some(alice.as_str()), "x.wasm", &good, 400, "nul"),
        (
            "<b>x</b>",
            Some(alice.as_str()),
            "x.wasm",
            &good,
            400,
            "html",
        ),
        (
            "other",
            Some("0123abcd"),
            "x.wasm",
            &good,
            401,
            "wrong token",
        ),
        ("other", None, "x.wasm", &good, 401, "no token"),
        (
            "mine",
            Some(bob.as_str()),
            "x.wasm",
            &good,
            403,
            "another author's name",
        ),
        (
            "text",
            Some(alice.as_str()),
            "x.txt",
            b"hello",
            400,
            "not a bot file",
        ),
    ];
    for (name, token, file, bytes, want, what) in cases {
        let (code, body) = server.upload(name, token, file, bytes);
        assert_eq!(code, want, "{what}: {body}");
        let reason: serde_json::Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{what}: {e}: {body}"));
        let reason = reason["error"].as_str().unwrap_or_default();
        assert!(reason.len() > 10, "{what}: no reason: {body}");
    }
    // Broken multipart: a body cut short, and one with no boundary at all.
    let whole = multipart("cut", Some(alice.as_str()), "c.wasm", &good);
    let (code, body) = server.post("/api/upload", &whole[..whole.len() / 2]);
    assert!((400..500).contains(&code), "cut multipart: {code} {body}");
    let (code, body) = server.raw(
        b"POST /api/upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert!((400..500).contains(&code), "not multipart: {code} {body}");
    // Bodies past the request caps: an upload of 2 MB, a page request of 1 GiB.
    // (Only the headers are sent: the server answers from Content-Length alone.)
    let (code, body) = server.raw(
        format!("POST /api/upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: multipart/form-data; boundary={BOUNDARY}\r\nContent-Length: 2000000\r\n\r\n").as_bytes(),
    );
    assert_eq!(code, 413, "giant upload: {body}");
    let (code, _) = server.raw(
        format!("GET /api/leaderboard HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n", 1u64 << 30).as_bytes(),
    );
    assert_eq!(code, 413, "a 1 GiB body on a page");
    // Nothing but the one good upload was stored.
    let bots = server.json("/api/bots");
    assert_eq!(bots.as_array().unwrap().len(), 1, "{bots}");
    assert_eq!(entries(&dir.join("versions")), 1);
    assert_eq!(entries(&dir.join("incoming")), 0);
    // Files outside a run's archive are never served.
    for path in [
        "/runs/1/files/..%2Fcontest.db",
        "/runs/1/files/../../contest.json",
        "/runs/0/files/contest.json",
        "/bots/..%2F..%2Fcontest.json",
    ] {
        let (code, body) = server.get(path);
        assert_eq!(code, 404, "{path}: {body}");
    }
    // Names are escaped on every page.
    let (code, page) = server.get("/bots/mine");
    assert_eq!(code, 200);
    assert!(page.contains("alice"));
}

#[test]
fn uploads_run_reach_the_leaderboard_and_export_as_a_verifiable_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "2", "--seed", "5"]);
    let alice = author(&dir, "alice");
    let bob = author(&dir, "bob");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    for (name, token, bot) in [
        ("tax", &alice, "taxman"),
        ("law", &bob, "lawyer"),
        ("rnd", &bob, "random"),
    ] {
        let (code, body) = server.upload(
            name,
            Some(token.as_str()),
            &format!("{bot}.wasm"),
            &seed_bot(bot),
        );
        assert_eq!(code, 201, "{name}: {body}");
    }
    let s = server.settle(1);
    let board = server.json("/api/leaderboard");
    let bots: Vec<&str> = board["bots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["bot"].as_str().unwrap())
        .collect();
    assert_eq!(bots.len(), 3, "{board}");
    let last = s["latest_done"].as_i64().unwrap();
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    for b in ["tax", "law", "rnd"] {
        assert!(page.contains(&format!("/bots/{b}")), "{page}");
    }
    // The game's page: Coup's protocol is in koth's guide.
    let (code, game) = server.get("/game");
    assert_eq!(code, 200);
    assert!(
        game.contains("<code>docs/games/coup.md</code>")
            && game.contains("koth check BOT.wasm --game coup"),
        "{game}"
    );
    let (code, page) = server.get("/bots/tax");
    assert_eq!(code, 200);
    assert!(page.contains("/bots/law") && page.contains(&format!("/runs/{last}/matches/")));
    let (code, replay) = server.get(&format!("/runs/{last}/matches/0"));
    assert_eq!(code, 200);
    assert!(replay.contains("id=\"replay\""), "the report's viewer");
    assert!(
        !replay.contains("no human log"),
        "the replay's human log is read from the run's matches.zip.zst"
    );
    // Each decision names the `koth replay` command the host runs in the contest's folder,
    // which finds the bots among the uploaded versions, and it reproduces the decision.
    let run_dir = format!("runs/{last}");
    assert!(
        replay.contains(&format!("\"replay_archive\":\"{run_dir}\"")),
        "the replay commands name the run's folder"
    );
    let out = std::process::Command::new(koth_tests::koth_bin())
        .current_dir(&dir)
        .args([
            "replay",
            &run_dir,
            "--match",
            "0",
            "--decision",
            "1",
            "--no-cache",
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && said.contains("the same as the record"),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The run's page lists its archive's files, the container of per-match files among them,
    // and serves it.
    let (code, page) = server.get(&format!("/runs/{last}"));
    assert_eq!(code, 200);
    let zip = format!("/runs/{last}/files/matches.zip.zst");
    assert!(page.contains(&zip), "{page}");
    let (code, body) = server.get(&zip);
    assert_eq!(code, 200);
    let on_disk = std::fs::read(dir.join(format!("runs/{last}/matches.zip.zst"))).unwrap();
    assert!(on_disk.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]), "zstd");
    assert_eq!(body, String::from_utf8_lossy(&on_disk), "the file as it is");
    // A new version of one bot: the next run plays only its matches (2 rounds, 2 ordered
    // pairs with each of 2 opponents) and takes the others from the store.
    let (code, body) = server.upload(
        "tax",
        Some(alice.as_str()),
        "t.wasm",
        &seed_bot("statistician"),
    );
    assert_eq!(code, 201, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["number"], 2);
    server.settle(2);
    let runs = server.json("/api/runs");
    let newest = &runs[0];
    assert_eq!(newest["state"], "done", "{runs}");
    assert_eq!(newest["total"], 12);
    assert_eq!(newest["played"], 8, "{newest}");
    assert_eq!(newest["reused"], 4, "{newest}");
    // Export the newest run; it is what `koth coup` writes from scratch, and verifies.
    export_is_the_run_from_scratch(
        tmp.path(),
        &dir,
        &["coup"],
        &["law", "rnd", "tax"],
        &["--rounds", "2", "--seed", "5", "--jobs", "2"],
    );
    superseded_run_is_condensed_and_rebuilt(&server, &dir, tmp.path(), last);
}

/// Run `first` of the contest in `dir`, superseded by a newer run: its folder holds its
/// standings, manifest and tables only, its match index is gone, its replays answer 410,
/// and `koth contest export --run` rebuilds its whole archive from the store, which verifies;
/// a kept receipt that does not match is refused by name.
fn superseded_run_is_condensed_and_rebuilt(
    server: &Server,
    dir: &std::path::Path,
    tmp: &std::path::Path,
    first: i64,
) {
    let runs = server.json("/api/runs");
    let old = runs
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == first)
        .unwrap();
    assert!(old["pruned"].is_i64(), "{runs}");
    assert!(runs[0]["pruned"].is_null(), "the leaderboard's run: {runs}");
    let run_dir = dir.join(format!("runs/{first}"));
    let mut kept: Vec<String> = std::fs::read_dir(&run_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    kept.sort();
    assert_eq!(
        kept,
        [
            "head-to-head.txt",
            "leaderboard.txt",
            "manifest.json",
            "standings.json"
        ]
    );
    let standings: serde_json::Value =
        serde_json::from_slice(&std::fs::read(run_dir.join("standings.json")).unwrap()).unwrap();
    assert_eq!(standings["matches"], serde_json::json!([]));
    assert_eq!(standings["bots"].as_array().unwrap().len(), 3);
    let receipt = standings["receipt"].as_str().unwrap().to_string();
    assert_eq!(receipt.len(), 64);
    let conn = koth::contest::Contest::open(dir).unwrap().db().unwrap();
    assert!(koth::contest::db::matches_of(&conn, first, "law")
        .unwrap()
        .is_empty());
    let newest = runs[0]["id"].as_i64().unwrap();
    assert!(!koth::contest::db::matches_of(&conn, newest, "law")
        .unwrap()
        .is_empty());
    let (code, body) = server.get(&format!("/runs/{first}/matches/0"));
    assert_eq!(code, 410, "{body}");
    assert!(body.contains(&format!("--run {first}")), "{body}");
    let (code, page) = server.get(&format!("/runs/{first}"));
    assert_eq!(code, 200);
    assert!(
        page.contains("Standings") && page.contains("law ("),
        "{page}"
    );
    // Rebuilt from the store: every match taken from it, the receipt the one kept.
    let out = tmp.join("export-first");
    let said = koth(&[
        "contest",
        "export",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--run",
        &first.to_string(),
    ]);
    assert!(said.contains("receipt is the one the run kept"), "{said}");
    assert!(!said.contains("played again"), "{said}");
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["receipt"], receipt.as_str());
    assert_eq!(results["matches"].as_array().unwrap().len(), 12);
    let bots = out.join("bots");
    koth(&[
        "verify",
        out.to_str().unwrap(),
        "--bots",
        bots.to_str().unwrap(),
        "--all",
    ]);
    // A kept receipt that the rebuilt archive does not give is an error naming both.
    let mut forged = standings.clone();
    forged["receipt"] = "0".repeat(64).into();
    std::fs::write(run_dir.join("standings.json"), forged.to_string()).unwrap();
    let again = tmp.join("export-forged");
    let o = std::process::Command::new(koth_tests::koth_bin())
        .args(["contest", "export", dir.to_str().unwrap(), "--out"])
        .arg(&again)
        .args(["--run", &first.to_string()])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains(&receipt) && err.contains(&"0".repeat(64)),
        "{err}"
    );
}

#[test]
fn twenty_uploads_at_once_are_each_stored_once_and_run_once() {
    let tmp = tempfile::tempdir().unwrap();
    // Five bots an author (the default quota is 3).
    let dir = contest(tmp.path(), &["--rounds", "1", "--max-bots-per-author", "5"]);
    let tokens: Vec<String> = (0..4).map(|a| author(&dir, &format!("a{a}"))).collect();
    // Room for all twenty at once (by default, 8 in all and 2 an author: more get 429).
    let server = Server::start_with(
        &dir,
        &tmp.path().join("stderr"),
        &["--max-uploads", "20", "--max-uploads-per-author", "5"],
    );
    let seeds = ["random", "taxman", "lawyer", "bandit"];
    let codes: Vec<(u16, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|i| {
                let (server, token) = (&server, &tokens[i % 4]);
                // Each a program of its own (one author may not enter one file twice): the
                // seed bot with a custom section naming its copy.
                let mut bytes = seed_bot(seeds[i % 4]);
                bytes.extend_from_slice(&[0, 16, 14]);
                bytes.extend_from_slice(b"koth-test-copy");
                bytes.push(i as u8);
                s.spawn(move || {
                    server.upload(&format!("bot{i}"), Some(token.as_str()), "b.wasm", &bytes)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (code, body) in &codes {
        assert_eq!(*code, 201, "{body}");
    }
    let status = server.settle(1);
    let bots = server.json("/api/bots");
    assert_eq!(bots.as_array().unwrap().len(), 20);
    assert!(bots.as_array().unwrap().iter().all(|v| v["number"] == 1));
    assert_eq!(entries(&dir.join("versions")), 20);
    let runs = server.json("/api/runs");
    let runs = runs.as_array().unwrap();
    assert!(runs.iter().all(|r| r["state"] == "done"), "{runs:?}");
    assert_eq!(status["latest_done"], runs[0]["id"]);
    assert_eq!(runs[0]["versions"].as_array().unwrap().len(), 20);
    // Every match of the last run was played exactly once over all the runs.
    let played: i64 = runs.iter().map(|r| r["played"].as_i64().unwrap()).sum();
    assert_eq!(played, 20 * 19, "{runs:?}");
    assert_eq!(runs[0]["total"], 20 * 19);
}

#[test]
fn a_server_killed_during_a_run_finishes_it_from_its_journal_on_restart() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "1000", "--seed", "3"]);
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr1"));
    for (name, bot) in [("c", "calculator"), ("s", "statistician"), ("t", "taxman")] {
        let (code, body) = server.upload(name, Some(alice.as_str()), "x.wasm", &seed_bot(bot));
        assert_eq!(code, 201, "{body}");
    }
    // Kill it mid-run (the run of the first two bots, or of all three): some matches
    // journaled, not all. Only in a run's first half, so that it cannot finish between the
    // status read and the kill, on however fast a machine.
    let started = Instant::now();
    let killed = loop {
        let s = server.json("/api/status");
        let done = s["progress"]["done"].as_u64().unwrap_or(0);
        let total = s["progress"]["total"].as_u64().unwrap_or(0);
        if let (true, Some(run)) = (done > 0 && done * 2 < total, s["progress"]["run"].as_i64()) {
            break run;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "no progress: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    server.kill();
    let journal = dir.join(format!("runs/{killed}/journal.jsonl"));
    assert!(journal.is_file(), "the killed run left its journal");
    let server = Server::start(&dir, &tmp.path().join("stderr2"));
    server.settle(1);
    let runs = server.json("/api/runs");
    let runs = runs.as_array().unwrap();
    assert!(runs.iter().all(|r| r["state"] == "done"), "{runs:?}");
    // Each set of versions ran once: the killed run was carried on, never started again.
    let mut sets: Vec<String> = runs.iter().map(|r| r["versions"].to_string()).collect();
    sets.sort();
    sets.dedup();
    assert_eq!(sets.len(), runs.len(), "{runs:?}");
    assert!(runs.len() <= 2, "{runs:?}");
    assert_eq!(runs[0]["versions"].as_array().unwrap().len(), 3);
    assert!(!journal.exists());
    let log = std::fs::read_to_string(tmp.path().join("stderr2")).unwrap();
    assert!(
        log.contains(&format!("run {killed}: ")) && log.contains("from its journal"),
        "{log}"
    );
    // Nothing lost: the killed run's archive is the run from scratch of its bots.
    let run = server.json(&format!("/api/runs/{killed}"));
    let mut coup = vec!["coup".to_string()];
    for v in run["versions"].as_array().unwrap() {
        let folder = dir.join("versions").join(v.to_string());
        let file = std::fs::read_dir(&folder)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        coup.push(file.to_string_lossy().into_owned());
    }
    let scratch = tmp.path().join("scratch");
    for a in ["--rounds", "1000", "--seed", "3", "--jobs", "2", "--out"] {
        coup.push(a.into());
    }
    coup.push(scratch.to_string_lossy().into_owned());
    koth(&coup.iter().map(String::as_str).collect::<Vec<_>>());
    // A fourth bot supersedes every earlier run, the killed one included: condensed, its
    // export is rebuilt from the store, and is still the run from scratch.
    let bob = author(&dir, "bob");
    let (code, body) = server.upload("l", Some(bob.as_str()), "l.wasm", &seed_bot("lawyer"));
    assert_eq!(code, 201, "{body}");
    server.settle(2);
    let condensed = server.json(&format!("/api/runs/{killed}"));
    assert!(condensed["pruned"].is_i64(), "{condensed}");
    let out = tmp.path().join("export");
    koth(&[
        "contest",
        "export",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--run",
        &killed.to_string(),
    ]);
    let mut exported = koth_tests::read_tree(&out);
    exported.retain(|k, _| !k.starts_with("bots"));
    assert_eq!(exported, koth_tests::read_tree(&scratch));
}

#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn a_python_script_upload_is_checked_then_plays() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest_with_python(tmp.path(), &["--rounds", "1"]);
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    // A script that does not compile is refused with the interpreter's reason; nothing stored.
    let (code, body) = server.upload("broken", Some(alice.as_str()), "b.py", b"def (:\n");
    assert_eq!(code, 422, "{body}");
    assert!(body.contains("SyntaxError"), "{body}");
    assert_eq!(
        entries(&dir.join("versions")),
        0,
        "a refused script stored nothing"
    );
    assert_eq!(entries(&dir.join("incoming")), 0);
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("example-bots/python/coup/coup_py.py");
    let (code, body) = server.upload(
        "snake",
        Some(alice.as_str()),
        "coup_py.py",
        &std::fs::read(script).unwrap(),
    );
    assert_eq!(code, 201, "{body}");
    let (code, body) = server.upload("tax", Some(alice.as_str()), "t.wasm", &seed_bot("taxman"));
    assert_eq!(code, 201, "{body}");
    // The server made the interpreter's snapshot when it started, not the first upload.
    let log = std::fs::read_to_string(tmp.path().join("stderr")).unwrap();
    assert!(
        log.contains("the Python interpreter's snapshot is ready"),
        "{log}"
    );
    server.settle(1);
    let board = server.json("/api/leaderboard");
    let rows = board["bots"].as_array().unwrap();
    let snake = rows
        .iter()
        .find(|r| r["bot"] == "snake")
        .expect("on the board");
    assert_eq!(snake["games"], 2, "{board}");
    assert!(
        snake["forfeits"].as_object().unwrap().is_empty(),
        "the script played legally: {board}"
    );
}

#[test]
fn hostile_bots_cost_only_themselves() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(
        tmp.path(),
        &[
            "--rounds",
            "1",
            "--fuel",
            "50000000",
            "--max-bots-per-author",
            "4",
        ],
    );
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    for (name, bytes) in [
        ("looper", koth_tests::hostile_module("loop")),
        ("hog", koth_tests::hostile_module("grow_then_trap")),
        ("tax", seed_bot("taxman")),
        ("law", seed_bot("lawyer")),
    ] {
        let (code, body) = server.upload(name, Some(alice.as_str()), "x.wasm", &bytes);
        assert_eq!(code, 201, "{name}: {body}");
    }
    server.settle(1);
    let board = server.json("/api/leaderboard");
    let rows = board["bots"].as_array().unwrap();
    let row = |n: &str| rows.iter().find(|r| r["bot"] == n).unwrap().clone();
    for bad in ["looper", "hog"] {
        let forfeits: u64 = row(bad)["forfeits"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert!(forfeits > 0, "{bad}: {board}");
    }
    for good in ["tax", "law"] {
        assert!(
            row(good)["forfeits"].as_object().unwrap().is_empty(),
            "{good}: {board}"
        );
        assert_eq!(row(good)["games"], 6);
    }
    // The good bots won every game against the hostile ones.
    let tax = server.json("/api/bots/tax");
    for bad in ["looper", "hog"] {
        assert_eq!(tax["against"][bad]["wins"], 2, "{tax}");
    }
}

#[test]
#[cfg_attr(
    koth_skip_chromium,
    ignore = "SKIPPED: contest_in_chromium: Chromium unavailable (see target/koth-skip-browser)"
)]
fn contest_in_chromium() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = contest(tmp.path(), &["--rounds", "2"]);
    let alice = author(&dir, "alice");
    let bob = author(&dir, "bob");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    let base = format!("http://{}", server.addr);
    // A rival through the API, so that the form's upload starts a run.
    let (code, body) = server.upload("rival", Some(bob.as_str()), "r.wasm", &seed_bot("lawyer"));
    assert_eq!(code, 201, "{body}");
    // Upload through the form, as an author would.
    let mut dev = devtools::Devtools::open(&format!("{base}/upload"));
    let file = tmp.path().join("taxman.wasm");
    std::fs::write(&file, seed_bot("taxman")).unwrap();
    let doc = dev.call("DOM.getDocument", serde_json::json!({}));
    let input = dev.call(
        "DOM.querySelector",
        serde_json::json!({"nodeId": doc["root"]["nodeId"], "selector": "#file"}),
    );
    dev.call(
        "DOM.setFileInputFiles",
        serde_json::json!({"nodeId": input["nodeId"], "files": [file.to_str().unwrap()]}),
    );
    dev.eval(&format!(
        "document.getElementById('name').value = 'taxi'; document.getElementById('token').value = '{alice}'; 1"
    ));
    dev.forget_loads();
    dev.eval("document.getElementById('submit').click(); 1");
    dev.wait_load("the form's answer");
    let accepted = dev.eval(
        "(document.getElementById('accepted') || {}).textContent || document.body.textContent",
    );
    assert!(
        accepted
            .as_str()
            .is_some_and(|t| t.contains("Version 1 of taxi")),
        "{accepted}"
    );
    // Wait for the run, then find the bot on the leaderboard.
    server.settle(1);
    dev.navigate(&format!("{base}/"));
    let board = dev.eval("document.getElementById('leaderboard').textContent");
    assert!(
        board
            .as_str()
            .is_some_and(|t| t.contains("taxi") && t.contains("rival")),
        "{board}"
    );
    // Its page, then one of its replays, stepped in the report's viewer.
    dev.navigate(&format!("{base}/bots/taxi"));
    let replay = dev.eval("document.querySelector('a.replay').href");
    let replay = replay.as_str().expect("a replay link").to_string();
    dev.navigate(&replay);
    let steps = dev.eval("D.replays.length === 1 ? D.replays[0].steps.length : -1");
    assert!(steps.as_u64().is_some_and(|n| n >= 2), "{steps}");
    dev.eval("document.getElementById('next').click(); 1");
    let index = dev.eval("document.getElementById('step-index').textContent");
    assert!(
        index.as_str().is_some_and(|t| t.starts_with("move 2 of")),
        "{index}"
    );
    // The match page draws the same board as the report: both players' coins and cards,
    // as many as the state the page embeds.
    let drawn = dev.eval(
        "[document.getElementById('view').hidden, document.querySelectorAll('#view .player[data-seat]').length, \
          document.querySelectorAll('#view .card').length, \
          D.replays[0].steps[1].state.players.map((p) => p.hidden.length + p.revealed.length).reduce((a, b) => a + b)]",
    );
    assert_eq!(drawn[0], false, "the board is drawn: {drawn}");
    assert_eq!(drawn[1], 2, "{drawn}");
    assert_eq!(drawn[2], drawn[3], "{drawn}");
    let console = dev.console();
    assert!(console.is_empty(), "{console:#?}");
    drop(dev);
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("contest-server.png");
    let _ = std::fs::remove_file(&shot);
    let log = devtools::chromium(&[
        format!("--screenshot={}", shot.display()),
        "--window-size=1280,900".into(),
        "--hide-scrollbars".into(),
        format!("{base}/"),
    ]);
    let png = std::fs::read(&shot).unwrap_or_else(|e| panic!("no screenshot: {e}\n{log}"));
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 5_000,
        "{}",
        png.len()
    );
}

/// A contest of a game as a plugin: `koth contest init --referee` with Euchre's referee and
/// its options. Uploads play its game, the pages show it, and the exported run is what `koth
/// play` writes from scratch and verifies with the referee found among the bots.
#[test]
fn a_referee_contest_plays_its_game_and_exports_a_verifiable_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let referee = koth_tests::wasm("euchre_referee");
    let dir = tmp.path().join("contest");
    let d = dir.to_str().unwrap();
    let init = |extra: &[&str]| {
        let mut args = vec![
            "contest",
            "init",
            d,
            "--referee",
            referee.to_str().unwrap(),
            "--no-python",
            "--jobs",
            "2",
            "--seed",
            "3",
            "--rounds",
            "1",
        ];
        args.extend_from_slice(extra);
        std::process::Command::new(koth_tests::koth_bin())
            .args(&args)
            .output()
            .unwrap()
    };
    // A bad option of the referee's is refused before the folder is made.
    let refused = init(&["--opt", "target=0"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("target"), "{err}");
    assert!(!dir.exists(), "a refused init leaves no folder");
    let made = init(&["--opt", "target=5"]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    assert_eq!(
        std::fs::read(dir.join("referee/euchre_referee.wasm")).unwrap(),
        std::fs::read(&referee).unwrap(),
        "the referee is copied into the contest"
    );
    let config: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("contest.json")).unwrap()).unwrap();
    assert_eq!(config["game"], "referee", "{config}");

    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    for name in ["random_8020", "marius", "card_counter"] {
        let (code, body) = server.upload(
            name,
            Some(alice.as_str()),
            &format!("{name}.wasm"),
            &seed_bot(name),
        );
        assert_eq!(code, 201, "{name}: {body}");
    }
    let s = server.settle(1);
    let last = s["latest_done"].as_i64().unwrap();
    let board = server.json("/api/leaderboard");
    assert_eq!(board["bots"].as_array().unwrap().len(), 3, "{board}");
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(
        page.contains("euchre"),
        "the contest's page names its game: {page}"
    );
    assert!(
        !page.contains("id=\"reuse\""),
        "tables keep most matches of a new version's run: {page}"
    );
    let (code, replay) = server.get(&format!("/runs/{last}/matches/0"));
    assert_eq!(code, 200);
    assert!(replay.contains("id=\"replay\""), "the report's viewer");

    // The export is `koth play` from scratch, and verifies with the referee among the bots.
    let out = export_is_the_run_from_scratch(
        tmp.path(),
        &dir,
        &["play", referee.to_str().unwrap()],
        &["card_counter", "marius", "random_8020"],
        &[
            "--opt", "target=5", "--rounds", "1", "--seed", "3", "--jobs", "2",
        ],
    );
    assert!(out.join("bots/euchre_referee.wasm").is_file());
}

/// A referee that ships its pages (the hostile test referee's honest game): `/game` gives
/// its protocol; the match page's policy allows its viewer by its hash, and Chromium draws
/// the state in the sandboxed frame, square for square; the other pages keep the policy
/// without it.
#[test]
#[cfg_attr(
    koth_skip_chromium,
    ignore = "SKIPPED: the referee's viewer on the server: Chromium unavailable (see target/koth-skip-browser)"
)]
fn a_referees_own_viewer_draws_on_the_match_page() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = referee_contest(tmp.path(), "hostile_referee", &["--rounds", "1"]);
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    // Liar's Dice bots: they answer the honest game with a bid and a call.
    server.upload_each(&alice, &["historian", "bluffer"]);
    let s = server.settle(1);
    let last = s["latest_done"].as_i64().unwrap();
    // The game's page gives the referee's protocol, escaped.
    let (code, game) = server.get("/game");
    assert_eq!(code, 200);
    assert!(
        game.contains("<pre id=\"protocol\"># The honest game\n\nEach seat is asked once")
            && game.contains("koth check BOT.wasm REFEREE.wasm"),
        "{game}"
    );
    let viewer = std::fs::read_to_string(dir.join(format!("runs/{last}/viewer.js")))
        .expect("the run's archive holds the referee's viewer");
    let page = format!("/runs/{last}/matches/0");
    let policy = |path: &str| {
        let (code, head) = server.head(path);
        assert_eq!(code, 200, "{path}");
        head.lines()
            .find_map(|l| {
                l.to_ascii_lowercase()
                    .starts_with("content-security-policy:")
                    .then(|| l.to_string())
            })
            .expect("a policy")
    };
    let hash = {
        use base64::Engine;
        use sha2::Digest;
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(&viewer))
        )
    };
    assert!(policy(&page).contains(&hash), "{}", policy(&page));
    assert!(!policy("/").contains(&hash), "only the match pages run it");
    let mut dev = devtools::Devtools::open(&format!("http://{}{page}", server.addr));
    // The last decision: both seats have spoken; the page embeds the state it drew.
    let said = dev.eval(
        "(() => { const r = D.replays[0]; showStep(r.steps.length - 1); \
         return r.steps[r.steps.length - 1].state.said; })()",
    );
    let want: Vec<usize> = said
        .as_array()
        .expect("the state's lengths")
        .iter()
        .map(|n| (n.as_u64().unwrap() as usize).min(30))
        .collect();
    assert_eq!(want.len(), 2, "{said}");
    assert_eq!(
        devtools::plugin_squares(&mut dev, 2, "hostile-referee-served"),
        want
    );
}

/// A referee contest whose every match holds every bot (Euchre's all-play-all: one
/// match a round, each bot one side, its partner a copy of it)
/// says on its leaderboard that a new version re-plays them all.
#[test]
fn an_all_play_all_contest_says_a_new_version_replays_every_match() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = referee_contest(
        tmp.path(),
        "euchre_referee",
        &[
            "--format",
            "all-play-all",
            "--opt",
            "target=3",
            "--rounds",
            "1",
        ],
    );
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    server.upload_each(&alice, &["random_8020", "marius"]);
    server.settle(1);
    let board = server.json("/api/leaderboard");
    assert_eq!(board["bots"].as_array().unwrap().len(), 2, "{board}");
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(
        page.contains("id=\"reuse\"") && page.contains("all-play-all"),
        "{page}"
    );
}

/// A contest of a built-in game played by its referee (`--game bank-heist`): every bot is in
/// every tournament, so the page says a new version re-plays them all; the export is `koth
/// bank-heist` from scratch, byte for byte, and verifies. Coup's own fields refuse a
/// referee's options.
#[test]
fn a_bank_heist_contest_plays_its_built_in_referee_and_exports_koth_bank_heists_archive() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("contest");
    let d = dir.to_str().unwrap();
    let init = |game: &str, extra: &[&str]| {
        let mut args = vec![
            "contest",
            "init",
            d,
            "--game",
            game,
            "--no-python",
            "--jobs",
            "2",
            "--seed",
            "3",
        ];
        args.extend_from_slice(extra);
        std::process::Command::new(koth_tests::koth_bin())
            .args(&args)
            .output()
            .unwrap()
    };
    let refused = init("coup", &["--opt", "games=20"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        !refused.status.success() && err.contains("Coup takes"),
        "{err}"
    );
    let refused = init("bank-heist", &["--opt", "games=-1"]);
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success() && err.contains("games"), "{err}");
    assert!(!dir.exists(), "a refused init leaves no folder");
    let made = init("bank-heist", &["--rounds", "2", "--opt", "games=20"]);
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let config: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("contest.json")).unwrap()).unwrap();
    assert_eq!(config["game"], "built-in", "{config}");
    assert_eq!(config["referee_options"]["game"]["name"], "bank-heist");

    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    server.upload_each(&alice, &["lurker", "snitcher_king", "heist_master"]);
    server.settle(1);
    let board = server.json("/api/leaderboard");
    assert_eq!(board["bots"].as_array().unwrap().len(), 3, "{board}");
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(page.contains("bank-heist"), "{page}");
    assert!(
        page.contains("id=\"reuse\"") && page.contains("every one of its tournaments"),
        "{page}"
    );
    let (code, game) = server.get("/game");
    assert_eq!(code, 200);
    assert!(game.contains("docs/games/bank-heist.md"), "{game}");

    export_is_the_run_from_scratch(
        tmp.path(),
        &dir,
        &["bank-heist"],
        &["heist_master", "lurker", "snitcher_king"],
        &[
            "--tournaments",
            "2",
            "--games",
            "20",
            "--seed",
            "3",
            "--jobs",
            "2",
        ],
    );
}

/// A contest of a Python referee's game (Liar's Dice, a points game for three): its uploads
/// play, the leaderboard ranks by the game's points and says so, and the export verifies.
#[test]
#[cfg_attr(
    koth_skip_componentize_py,
    ignore = "SKIPPED: liars_dice_referee: componentize-py unavailable (see SKIPPED_LANGUAGE_REFEREES)"
)]
fn a_python_referee_s_contest_ranks_by_its_points() {
    assert!(
        koth_tests::LANGUAGE_REFEREES.contains(&"liars_dice_referee"),
        "build.rs built no Liar's Dice referee: {:?}",
        koth_tests::SKIPPED_LANGUAGE_REFEREES
    );
    let tmp = tempfile::tempdir().unwrap();
    let dir = referee_contest(
        tmp.path(),
        "liars_dice_referee",
        &["--opt", "dice=2", "--rounds", "1"],
    );
    let alice = author(&dir, "alice");
    let server = Server::start(&dir, &tmp.path().join("stderr"));
    // Three seats a match: three bots. The third is the bluffer with a custom section
    // appended (a program enters once; this one is another file that plays alike).
    let mut copy = seed_bot("bluffer");
    copy.extend_from_slice(&[0, 6, 4, b'c', b'o', b'p', b'y', 1]);
    for (name, bytes) in [
        ("bluffer", seed_bot("bluffer")),
        ("historian", seed_bot("historian")),
        ("bluffer2", copy),
    ] {
        let (code, body) =
            server.upload(name, Some(alice.as_str()), &format!("{name}.wasm"), &bytes);
        assert_eq!(code, 201, "{name}: {body}");
    }
    server.settle(1);
    let board = server.json("/api/leaderboard");
    assert_eq!(board["rating_heading"], "mean points", "{board}");
    let rows = board["bots"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "{board}");
    for w in rows.windows(2) {
        assert!(w[0]["rating"]["rating"].as_f64() >= w[1]["rating"]["rating"].as_f64());
    }
    let (code, page) = server.get("/");
    assert_eq!(code, 200);
    assert!(
        page.contains(
            "Game: liars-dice, played by its referee <code>liars_dice_referee.wasm</code>"
        ),
        "{page}"
    );
    assert!(page.contains("<th class=n>Mean points</th>"), "{page}");
    // The pages count in the referee's word for its matches, from the run's results.json.
    let results: serde_json::Value = serde_json::from_slice(
        &std::fs::read(dir.join(format!("runs/{}/results.json", board["run"]["id"]))).unwrap(),
    )
    .unwrap();
    assert_eq!(board["unit"], results["unit"]);
    let unit = results["unit"].as_str().unwrap();
    let header = format!(
        "<th class=n>{}{}</th>",
        unit[..1].to_uppercase(),
        &unit[1..]
    );
    assert!(page.contains(&header), "{header} in {page}");
    let (code, bot) = server.get("/bots/historian");
    assert_eq!(code, 200);
    assert!(bot.contains(&format!(" {unit}; mean points ")), "{bot}");
    let out = tmp.path().join("export");
    koth(&[
        "contest",
        "export",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let bots_dir = out.join("bots");
    koth(&[
        "verify",
        out.to_str().unwrap(),
        "--bots",
        bots_dir.to_str().unwrap(),
        "--all",
    ]);
}
