//! Liar's Dice, a game played by its referee plugin written in Python
//! (`referees/liars-dice`, built by componentize-py in `tests/build_languages.rs`), with its
//! three example bots in three languages (`example-bots/liars-dice`: Rust, C and a plain
//! Python script).
//!
//! - The referee's rule cases (`test_liars_dice.py`, a fake host) pass under python3.
//! - Tournaments of the three bots through `koth play`: no referee fault, no void match, no
//!   failed decision; every match replayed from its archive by the independent checker below
//!   (dice, bids, calls, losers, openers, scores); the report written and self-contained;
//!   `koth verify --all` re-plays the archive; the archive byte-identical at `--jobs` 1 and 2
//!   and when merged from two shards.
//! - A bot that breaks the protocol loses a die per failure without a reveal, as the rules
//!   say, and is always out first.
//!
//! Without componentize-py (recorded by `scripts/setup`, or `KOTH_SKIP_LANGUAGES`) the tests
//! that need the referee are reported ignored by name.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const REFEREE: &str = "liars_dice_referee";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn referee() -> PathBuf {
    for (name, why) in koth_tests::SKIPPED_LANGUAGE_REFEREES {
        eprintln!("SKIPPED: {name}: {why}");
    }
    assert!(
        koth_tests::LANGUAGE_REFEREES.contains(&REFEREE),
        "build.rs built no referee `{REFEREE}` (built: {:?}; skipped: {:?})",
        koth_tests::LANGUAGE_REFEREES,
        koth_tests::SKIPPED_LANGUAGE_REFEREES
    );
    koth_tests::wasm(REFEREE)
}

/// The three example bots: Rust, C, plain Python.
fn bots() -> Vec<PathBuf> {
    vec![
        koth_tests::wasm("bluffer"),
        koth_tests::wasm("historian"),
        repo().join("example-bots/liars-dice/odds.py"),
    ]
}

/// Run koth with `args`, killed and failed past four minutes.
fn koth(args: &[std::ffi::OsString]) -> Output {
    let mut child = Command::new(koth_tests::koth_bin())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start koth");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("poll koth").is_some() {
            return child.wait_with_output().expect("koth's output");
        }
        if started.elapsed() > Duration::from_secs(240) {
            let _ = child.kill();
            let out = child.wait_with_output().expect("koth's output");
            panic!(
                "koth ran past 240 s: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `koth play` of the referee with `bots` into `out`, and `extra` options; must exit 0.
fn play(bots: &[PathBuf], out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<std::ffi::OsString> = vec!["play".into(), referee().into()];
    args.extend(bots.iter().map(Into::into));
    args.extend(["--out".into(), out.into()]);
    args.extend(extra.iter().map(Into::into));
    let o = koth(&args);
    assert!(
        o.status.success(),
        "koth play failed ({:?}):\n{}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(
        &std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    )
    .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

/// Every invocation line, by match.
fn decisions(out: &Path) -> BTreeMap<u64, Vec<Value>> {
    let text = koth_tests::invocations(out);
    let mut by_match: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        by_match
            .entry(v["match"].as_u64().expect("match"))
            .or_default()
            .push(v);
    }
    by_match
}

/// A decision's stdin, as the rules define it.
#[derive(Debug, Default, PartialEq)]
struct Input {
    seat: usize,
    dice: Vec<u32>,
    wild: bool,
    hand: u32,
    cup: Vec<u32>,
    bids: Vec<(usize, u32, u32)>,
}

fn input(stdin: &str) -> Input {
    let mut i = Input::default();
    let nums =
        |w: &[&str]| -> Vec<u32> { w.iter().map(|x| x.parse().expect("a number")).collect() };
    for line in stdin.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let n = nums(&w[1..]);
        match w[0] {
            "seat" => i.seat = n[0] as usize,
            "dice" => i.dice = n,
            "wild" => i.wild = n[0] == 1,
            "hand" => i.hand = n[0],
            "cup" => i.cup = n,
            "bid" => i.bids.push((n[0] as usize, n[1], n[2])),
            other => panic!("unknown stdin line {other:?} in {stdin:?}"),
        }
    }
    i
}

/// The rules a run was played with.
struct Rules {
    dice: u32,
    wild: bool,
    loser_opens: bool,
    paired: bool,
}

/// Replay one match from its archive, independently of the referee's code: every decision's
/// input must be the state the rules give, every call must be counted right and cost the right
/// seat a die, every hand must open with the right seat, and the scores must follow the order
/// the seats went out. Returns the seats in the order they went out, and the winner.
fn check_match(rules: &Rules, round: u32, names: &[String], log: &[Value]) -> (Vec<usize>, usize) {
    let n = names.len();
    let mut dice = vec![rules.dice; n];
    let mut out: Vec<usize> = Vec::new();
    let mut hand = 0;
    let mut bids: Vec<(usize, u32, u32)> = Vec::new();
    let mut opener = if rules.paired { 0 } else { round as usize % n };
    let next = |dice: &[u32], s: usize| {
        (1..=n)
            .map(|k| (s + k) % n)
            .find(|&t| dice[t] > 0)
            .unwrap_or(s)
    };
    let mut expect_seat = opener;
    for (k, d) in log.iter().enumerate() {
        let what = format!("decision {k}: {d}");
        let i = input(d["stdin"].as_str().expect("stdin"));
        let seat = d["seat"].as_u64().expect("seat") as usize;
        assert_eq!(
            (i.seat, seat),
            (expect_seat, expect_seat),
            "the wrong seat decides: {what}"
        );
        assert_eq!(d["bot"].as_str(), Some(names[seat].as_str()), "{what}");
        assert_eq!(i.dice, dice, "dice in play: {what}");
        assert_eq!(i.wild, rules.wild, "{what}");
        assert_eq!(i.bids, bids, "the hand's bids so far: {what}");
        if bids.is_empty() {
            hand += 1;
            assert_eq!(
                seat, opener,
                "hand {hand} opens with the wrong seat: {what}"
            );
        }
        assert_eq!(i.hand, hand, "{what}");
        assert_eq!(
            i.cup.len() as u32,
            dice[seat],
            "the cup holds the seat's dice: {what}"
        );
        assert!(
            i.cup.windows(2).all(|w| w[0] <= w[1]) && i.cup.iter().all(|d| (1..=6).contains(d)),
            "{what}"
        );
        let answer = d["answer"].as_str().expect("answer");
        let events: Vec<&str> = d["events"]
            .as_array()
            .map(|e| e.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let total: u32 = dice.iter().sum();
        let loser = if !d["failure"].is_null() {
            assert_eq!(answer, "", "a failed decision has no answer: {what}");
            assert!(
                !events.iter().any(|e| e.starts_with("cups:")),
                "a failure reveals nothing: {what}"
            );
            seat
        } else if let Some(bid) = answer.strip_prefix("bid ") {
            let v: Vec<u32> = bid
                .split(' ')
                .map(|x| x.parse().expect("a number"))
                .collect();
            let (q, f) = (v[0], v[1]);
            assert!(
                (if rules.wild { 2 } else { 1 }..=6).contains(&f),
                "face: {what}"
            );
            assert!((1..=total).contains(&q), "quantity: {what}");
            if let Some(&(_, q0, f0)) = bids.last() {
                assert!(q > q0 || (q == q0 && f > f0), "not a raise: {what}");
            }
            bids.push((seat, q, f));
            expect_seat = next(&dice, seat);
            continue;
        } else {
            assert_eq!(answer, "liar", "{what}");
            let &(bidder, q, f) = bids.last().expect("a call needs a bid");
            // `cups: name 12345, name 2345`: every cup in play, revealed.
            let cups: Vec<(String, Vec<u32>)> = events
                .iter()
                .find_map(|e| e.strip_prefix("cups: "))
                .expect("a call reveals the cups")
                .split(", ")
                .map(|c| {
                    let (name, digits) = c.rsplit_once(' ').expect("name and dice");
                    (
                        name.to_string(),
                        digits
                            .chars()
                            .map(|x| x.to_digit(10).expect("a die"))
                            .collect(),
                    )
                })
                .collect();
            let mine = cups
                .iter()
                .find(|(b, _)| *b == names[seat])
                .expect("the caller's cup");
            assert_eq!(
                mine.1, i.cup,
                "the revealed cup is the one the caller saw: {what}"
            );
            assert_eq!(
                cups.len(),
                dice.iter().filter(|&&x| x > 0).count(),
                "{what}"
            );
            let count = cups
                .iter()
                .flat_map(|(_, c)| c)
                .filter(|&&x| x == f || (rules.wild && x == 1))
                .count() as u32;
            if count >= q {
                seat
            } else {
                bidder
            }
        };
        dice[loser] -= 1;
        let said = format!("{} loses a die ({} left)", names[loser], dice[loser]);
        assert!(
            events.iter().any(|e| e.starts_with(&said)),
            "`{said}` missing: {what}"
        );
        if dice[loser] == 0 {
            out.push(loser);
        }
        bids.clear();
        opener = if rules.loser_opens {
            if dice[loser] > 0 {
                loser
            } else {
                next(&dice, loser)
            }
        } else {
            next(&dice, opener)
        };
        expect_seat = opener;
    }
    let alive: Vec<usize> = (0..n).filter(|&s| dice[s] > 0).collect();
    assert_eq!(
        alive.len(),
        1,
        "the match ended with one seat holding dice: {dice:?}"
    );
    (out, alive[0])
}

/// Check every match of the run at `out` against the rules and against `results.json`.
fn check_run(out: &Path, rules: &Rules) -> Value {
    let results = json(&out.join("results.json"));
    assert_eq!(results["game"], "liars-dice");
    assert_eq!(
        results["void_matches"],
        serde_json::json!([]),
        "no void match"
    );
    let logs = decisions(out);
    let human_logs: BTreeMap<String, Vec<u8>> =
        koth_tests::container_entries(&out.join("matches.zip.zst"))
            .into_iter()
            .collect();
    let matches = results["matches"].as_array().expect("matches");
    let details = results["detail"]["matches"].as_array().expect("detail");
    assert_eq!(logs.len(), matches.len(), "every match has decisions");
    for (m, detail) in matches.iter().zip(details) {
        let index = detail["index"].as_u64().expect("index");
        let names: Vec<String> = detail["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .map(|s| {
                s.as_str()
                    .expect("a seat")
                    .rsplit_once(" (")
                    .expect("name (seat)")
                    .0
                    .to_string()
            })
            .collect();
        let round = detail["round"].as_u64().expect("round") as u32;
        let (gone, winner) = check_match(rules, round, &names, &logs[&index]);
        let r = &detail["result"];
        assert_eq!(r["winner"].as_u64(), Some(winner as u64), "match {index}");
        let gone_json: Vec<u64> = gone.iter().map(|&s| s as u64).collect();
        assert_eq!(r["out"], serde_json::json!(gone_json), "match {index}");
        assert_eq!(
            r["decisions"].as_u64(),
            Some(logs[&index].len() as u64),
            "match {index}"
        );
        // Scores: the k-th seat out scores k, the winner 2; in participant order.
        let mut score = vec![0u64; names.len()];
        for (k, &s) in gone.iter().enumerate() {
            score[s] = k as u64;
        }
        score[winner] = names.len() as u64 - 1;
        assert_eq!(m["scores"], serde_json::json!(score), "match {index}");
        let human = human_logs
            .get(&format!("logs/match-{index}.log"))
            .map(|l| String::from_utf8_lossy(l).into_owned())
            .expect("a human log");
        assert!(
            human
                .lines()
                .last()
                .is_some_and(|l| l.starts_with(&format!("{} wins after", names[winner]))),
            "match {index}'s log ends with its winner:\n{human}"
        );
    }
    results
}

#[test]
fn the_referee_passes_its_rule_cases() {
    // From a copy, so that nothing (say a __pycache__) is left beside the sources.
    let dir = tempfile::tempdir().expect("a temporary folder");
    for f in ["liars_dice.py", "test_liars_dice.py"] {
        std::fs::copy(
            repo().join("referees/liars-dice").join(f),
            dir.path().join(f),
        )
        .expect("copy");
    }
    let o = Command::new("python3")
        .args(["-B", "-m", "unittest", "-v", "test_liars_dice"])
        .current_dir(dir.path())
        .output()
        .expect("python3 runs the referee's rule cases (install python3)");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("OK") && stderr.contains("Ran 18 tests"),
        "{stderr}"
    );
}

#[test]
#[cfg_attr(
    koth_skip_componentize_py,
    ignore = "SKIPPED: liars_dice_referee: componentize-py unavailable (see SKIPPED_LANGUAGE_REFEREES)"
)]
fn check_names_the_referee_and_its_game() {
    let o = koth(&["check".into(), referee().into()]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}");
    assert!(
        stdout.contains("OK    referee liars_dice_referee")
            && stdout.contains("game `liars-dice`: 3 seats; formats tables; options dice=5 wild-ones=true starter=loser"),
        "{stdout}"
    );
}

#[test]
#[cfg_attr(
    koth_skip_componentize_py,
    ignore = "SKIPPED: liars_dice_referee: componentize-py unavailable (see SKIPPED_LANGUAGE_REFEREES)"
)]
fn the_three_bots_play_by_the_rules_with_a_report_and_verify() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("run");
    let o = play(
        &bots(),
        &out,
        &[
            "--rounds", "6", "--paired", "--seed", "3", "--jobs", "2", "--report",
        ],
    );
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let results = check_run(
        &out,
        &Rules {
            dice: 5,
            wild: true,
            loser_opens: true,
            paired: true,
        },
    );
    assert_eq!(results["matches"].as_array().map(Vec::len), Some(6));
    for row in results["bots"].as_array().expect("bots") {
        assert_eq!(
            row["forfeits"],
            serde_json::json!({}),
            "no failed decision: {row}"
        );
    }
    let manifest = json(&out.join("manifest.json"));
    assert_eq!(manifest["referee"]["file"], "liars_dice_referee.wasm");
    assert_eq!(
        manifest["options"]["options"],
        serde_json::json!({"dice": 5, "wild-ones": true, "starter": "loser"})
    );
    // The report: written, said, and self-contained (nothing it would fetch: no URL but the
    // SVG namespace, no src, no link), its replays told by the referee's verdicts and log.
    let html = std::fs::read_to_string(out.join("report.html")).expect("report.html");
    assert!(
        said.contains("report.html"),
        "koth says where the report is: {said}"
    );
    let bare = html.replace(koth::report::html::SVG_NAMESPACE, "");
    for bad in [
        "http://", "https://", "src=", "<link", "@import", "url(", "fetch(",
    ] {
        assert!(!bare.contains(bad), "the report holds `{bad}`");
    }
    let open = r#"<script type="application/json" id="data">"#;
    let start = html.find(open).expect("the data tag") + open.len();
    let len = html[start..].find("</script>").expect("the data tag's end");
    let data: Value = serde_json::from_str(&html[start..start + len]).expect("the data is JSON");
    assert_eq!(data["game"], "liars-dice");
    let replay = &data["replays"][0];
    assert!(
        replay["intro"][0]
            .as_str()
            .is_some_and(|l| l.starts_with("Liar's Dice: ")),
        "{replay}"
    );
    assert!(
        replay["outro"][0]
            .as_str()
            .is_some_and(|l| l.contains(" wins after ")),
        "{replay}"
    );
    let steps = replay["steps"].as_array().expect("steps");
    assert_eq!(
        steps.len() as u64,
        results["detail"]["matches"][0]["result"]["decisions"]
            .as_u64()
            .unwrap_or(0)
    );
    assert!(
        steps
            .iter()
            .all(|s| s["after"].as_array().is_some_and(|a| !a.is_empty())),
        "every step has events"
    );
    // Every step has the board the referee showed: three cups, each as many dice as its
    // seat has left, and the game starts with five each.
    for st in steps {
        let state = &st["state"];
        let dice = state["dice"].as_array().expect("a board per decision");
        let cups = state["cups"].as_array().expect("the cups");
        assert_eq!(cups.len(), 3, "{state}");
        for (cup, left) in cups.iter().zip(dice) {
            let n = cup.as_array().unwrap().len() as u64;
            // A cup is the hand's roll: the loser of this hand had one more die in it.
            assert!(
                n == left.as_u64().unwrap() || n == left.as_u64().unwrap() + 1,
                "{state}"
            );
        }
    }
    assert_eq!(steps[0]["state"]["hand"], 1);
    assert_eq!(steps[0]["state"]["dice"], serde_json::json!([5, 5, 5]));
    board_in_chromium(&out.join("report.html"), steps);
    assert!(
        steps.iter().any(|s| s["after"].as_array().is_some_and(|a| a
            .iter()
            .any(|l| l.as_str().is_some_and(|l| l.starts_with("Hand 2: "))))),
        "the next hand's deal follows the call that ended the first"
    );
    // verify: the referee and the bots side by side, every match re-played and compared.
    let kit = dir.path().join("bots");
    std::fs::create_dir(&kit).expect("a folder for the bots");
    for f in bots().into_iter().chain([referee()]) {
        std::fs::copy(&f, kit.join(f.file_name().expect("a file name"))).expect("copy a bot");
    }
    std::fs::remove_file(out.join("report.html")).expect("remove the report");
    let v = koth(&[
        "verify".into(),
        out.clone().into(),
        "--bots".into(),
        kit.into(),
        "--all".into(),
    ]);
    assert!(
        v.status.success(),
        "koth verify --all: {}{}",
        String::from_utf8_lossy(&v.stdout),
        String::from_utf8_lossy(&v.stderr)
    );
}

#[test]
#[cfg_attr(
    koth_skip_componentize_py,
    ignore = "SKIPPED: liars_dice_referee: componentize-py unavailable (see SKIPPED_LANGUAGE_REFEREES)"
)]
fn the_options_change_the_game_and_the_archive_is_the_same_at_any_jobs_and_merged() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let opts = [
        "--rounds",
        "4",
        "--seed",
        "11",
        "--opt",
        "dice=3",
        "--opt",
        "wild-ones=false",
        "--opt",
        "starter=next",
    ];
    let one = dir.path().join("one");
    let two = dir.path().join("two");
    play(&bots(), &one, &[&opts[..], &["--jobs", "1"]].concat());
    play(&bots(), &two, &[&opts[..], &["--jobs", "2"]].concat());
    check_run(
        &one,
        &Rules {
            dice: 3,
            wild: false,
            loser_opens: false,
            paired: false,
        },
    );
    let (a, b) = (koth_tests::read_tree(&one), koth_tests::read_tree(&two));
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "file lists differ"
    );
    for (k, v) in &a {
        assert!(v == &b[k], "{k} differs between --jobs 1 and --jobs 2");
    }
    // Two shards merged give the same archive: the referee's options keep their declared
    // order (dice, wild-ones, starter), which a manifest read through a sorted JSON map lost.
    let merged = dir.path().join("merged");
    let mut merge: Vec<std::ffi::OsString> = vec!["merge".into()];
    for k in 1..=2 {
        let shard = dir.path().join(format!("shard{k}"));
        play(
            &bots(),
            &shard,
            &[&opts[..], &["--shard", &format!("{k}/2")]].concat(),
        );
        merge.push(shard.into());
    }
    merge.extend(["--out".into(), merged.clone().into()]);
    let m = koth(&merge);
    assert!(m.status.success(), "{}", String::from_utf8_lossy(&m.stderr));
    let c = koth_tests::read_tree(&merged);
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        c.keys().collect::<Vec<_>>(),
        "file lists differ"
    );
    for (k, v) in &a {
        assert!(
            v == &c[k],
            "{k} differs between the run and its merged shards"
        );
    }
    // Each seat's directory is in the archive: the history file, and the Rust bot's notes.
    assert!(a
        .keys()
        .any(|k| k.starts_with("matches.zip.zst/scratch/match-0/") && k.ends_with("history.txt")));
    assert!(a
        .keys()
        .any(|k| k.starts_with("matches.zip.zst/scratch/") && k.ends_with("notes.txt")));
}

#[test]
#[cfg_attr(
    koth_skip_componentize_py,
    ignore = "SKIPPED: liars_dice_referee: componentize-py unavailable (see SKIPPED_LANGUAGE_REFEREES)"
)]
fn a_bot_that_breaks_the_protocol_loses_a_die_each_time_and_goes_out_first() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("run");
    let cheater = repo().join("tests/bots/python/liars_dice_cheater.py");
    let bots = vec![
        koth_tests::wasm("bluffer"),
        repo().join("example-bots/liars-dice/odds.py"),
        cheater,
    ];
    play(&bots, &out, &["--rounds", "3", "--seed", "5"]);
    let results = check_run(
        &out,
        &Rules {
            dice: 5,
            wild: true,
            loser_opens: true,
            paired: false,
        },
    );
    let row = results["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .find(|r| r["bot"] == "liars_dice_cheater")
        .expect("the cheater's row")
        .clone();
    // Five dice, one lost per failure: five failed decisions per match, of both kinds.
    let bad = row["forfeits"]["bad answer"].as_u64().unwrap_or(0);
    let exit = row["forfeits"]["exit"].as_u64().unwrap_or(0);
    assert!(bad > 0 && exit > 0, "both kinds counted: {row}");
    assert_eq!(bad + exit, 15, "{row}");
    assert_eq!(row["score"], 0, "{row}");
    let logs = decisions(&out);
    for (m, detail) in results["detail"]["matches"]
        .as_array()
        .expect("detail")
        .iter()
        .enumerate()
    {
        let seat = detail["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .position(|s| {
                s.as_str()
                    .is_some_and(|s| s.starts_with("liars_dice_cheater "))
            })
            .expect("the cheater's seat");
        assert_eq!(
            detail["result"]["out"][0].as_u64(),
            Some(seat as u64),
            "out first in match {m}"
        );
        for d in logs[&(m as u64)]
            .iter()
            .filter(|d| d["bot"] == "liars_dice_cheater")
        {
            let kind = d["failure"]["kind"]
                .as_str()
                .expect("every decision of it fails");
            let detail = d["failure"]["detail"].as_str().unwrap_or_default();
            match kind {
                "bad answer" => {
                    assert!(detail.contains("'I raise you a dollar' is neither"), "{d}")
                }
                "exit" => assert!(detail.contains("exit(3)"), "{d}"),
                other => panic!("unexpected failure kind {other}: {d}"),
            }
        }
    }
}

#[path = "browser/devtools.rs"]
mod devtools;

/// The first call of the page's first replay, drawn by the Liar's Dice viewer in Chromium:
/// every die of every cup, and the hand's bids.
#[cfg(not(koth_skip_chromium))]
fn board_in_chromium(page: &Path, steps: &[Value]) {
    let k = steps
        .iter()
        .position(|s| s["state"]["ended"]["call"] == true)
        .expect("a hand ended with a call");
    let state = &steps[k]["state"];
    let dice: usize = state["cups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_array().unwrap().len())
        .sum();
    let counts = devtools::board_counts(page, k, &[".die", ".caption li"], "liars-dice");
    assert!(
        counts[0].as_str().is_some_and(|t| t.contains("called: ")),
        "{counts:?}"
    );
    assert_eq!(counts[1], dice, "{state}");
    // One line per bid, and one for the call.
    assert_eq!(
        counts[2],
        state["bids"].as_array().unwrap().len() + 1,
        "{state}"
    );
}

#[cfg(koth_skip_chromium)]
fn board_in_chromium(_: &Path, _: &[Value]) {
    println!("SKIPPED: the Liar's Dice board in Chromium: Chromium unavailable (see target/koth-skip-browser)");
}
