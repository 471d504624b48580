//! `koth replay`, through the command as a bot author runs it on an archive:
//!
//! - a sample of decisions of a Coup, a Bank Heist, a Euchre and a plugin referee's run
//!   (first, last and middle decisions of several matches, and every failed one) re-run with
//!   the inputs they had and give exactly what the archive records: outcome, stdout, answer,
//!   fuel (Coup's also with folders kept for the whole tournament);
//! - without `--decision`, the match's first failed decision is the one re-run, with the
//!   game's reading of it (a bot that exits is replaced by the default);
//! - the HTML report's replay viewer numbers each decision as `koth replay` does (a Bank
//!   Heist match holds many games);
//! - a new build (`--bot`) takes the decision instead: its answer differs, the game reads it
//!   (an illegal append forfeits the game), and each field that differs is named;
//! - a wrong match or decision is refused naming the option.

use koth::games::replay::line_failed;
use koth_tests::{koth_bin, wasm};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};

/// A folder of bots (copies of the built ones, and hostile ones from their text) and a code
/// cache, so that every replay of a test compiles each bot once.
struct Bench {
    dir: tempfile::TempDir,
}

impl Bench {
    fn new(bots: &[&str], hostile: &[&str]) -> Bench {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("bots")).expect("bots dir");
        for b in bots {
            std::fs::copy(wasm(b), dir.path().join("bots").join(format!("{b}.wasm")))
                .expect("copy bot");
        }
        for h in hostile {
            std::fs::write(
                dir.path().join("bots").join(format!("{h}.wasm")),
                koth_tests::hostile_module(h),
            )
            .expect("write bot");
        }
        Bench { dir }
    }

    fn bot(&self, name: &str) -> PathBuf {
        self.dir.path().join("bots").join(format!("{name}.wasm"))
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    fn cache(&self) -> PathBuf {
        self.dir.path().join("cache")
    }

    /// Run `koth GAME BOTS... OPTIONS --out OUT`; the bots named from the bench's folder.
    fn run(&self, game: &[&str], bots: &[&str], options: &[&str]) {
        let out = Command::new(koth_bin())
            .args(game)
            .args(bots.iter().map(|b| self.bot(b)))
            .args(options)
            .args(["--seed", "3", "--jobs", "2", "--cache-dir"])
            .arg(self.cache())
            .arg("--out")
            .arg(self.out())
            .output()
            .expect("run koth");
        assert!(
            out.status.success(),
            "{game:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// `koth replay OUT --bots BOTS ARGS...`.
    fn replay(&self, args: &[&str]) -> Output {
        Command::new(koth_bin())
            .arg("replay")
            .arg(self.out())
            .arg("--bots")
            .arg(self.dir.path().join("bots"))
            .arg("--cache-dir")
            .arg(self.cache())
            .args(args)
            .output()
            .expect("run koth replay")
    }

    /// Every invocation line, by match (its `field`).
    fn lines(&self, field: &str) -> BTreeMap<u64, Vec<Value>> {
        let text = koth_tests::invocations(&self.out());
        let mut by_match: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
        for l in text.lines() {
            let v: Value = serde_json::from_str(l).expect("json line");
            let m = v[field].as_u64().expect("match field");
            by_match.entry(m).or_default().push(v);
        }
        by_match
    }
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Replay a sample of the archive's decisions (first and last of the first, middle and last
/// match, a middle one, and the first failed decision of each match) and check each against
/// its record. Returns how many were replayed.
fn replay_sample(bench: &Bench, field: &str) -> usize {
    let by_match = bench.lines(field);
    assert!(!by_match.is_empty(), "the run recorded no decision");
    let matches: Vec<u64> = by_match.keys().copied().collect();
    let mut picks: Vec<(u64, usize)> = Vec::new();
    for &m in [
        matches[0],
        matches[matches.len() / 2],
        matches[matches.len() - 1],
    ]
    .iter()
    {
        let n = by_match[&m].len();
        picks.extend([(m, 0), (m, n / 2), (m, n - 1)]);
    }
    for (&m, lines) in &by_match {
        if let Some(k) = lines.iter().position(line_failed) {
            picks.push((m, k));
        }
    }
    picks.sort_unstable();
    picks.dedup();
    for &(m, k) in &picks {
        let record = &by_match[&m][k];
        let out = bench.replay(&["--match", &m.to_string(), "--decision", &k.to_string()]);
        let said = text(&out);
        assert!(
            out.status.success(),
            "match {m} decision {k} was not reproduced:\n{said}"
        );
        assert!(
            said.contains("the same as the record"),
            "match {m} decision {k}:\n{said}"
        );
        let fuel = format!("fuel used: {}", record["fuel_used"]);
        assert!(
            said.contains(&fuel),
            "match {m} decision {k}: no `{fuel}`:\n{said}"
        );
        // `match 3 (label), ...`, or a referee's label that starts with its number.
        assert!(
            said.starts_with(&format!("match {m} ")) || said.starts_with(&format!("match {m}:")),
            "{said}"
        );
        assert!(
            said.contains(&format!(": {}\n", record["bot"].as_str().unwrap_or("?"))),
            "the heading names another bot than the record's {}:\n{said}",
            record["bot"]
        );
    }
    picks.len()
}

#[test]
fn sampled_decisions_of_a_coup_run_are_reproduced() {
    let bench = Bench::new(&["calculator", "taxman", "random", "bandit"], &["exit3"]);
    bench.run(
        &["coup"],
        &["calculator", "taxman", "random", "bandit", "exit3"],
        &["--rounds", "1"],
    );
    assert!(replay_sample(&bench, "match") >= 9);
    // With folders that live for the whole tournament, a game depends on the earlier ones:
    // they are played again first.
    bench.run(
        &["coup"],
        &["calculator", "taxman", "random", "bandit", "exit3"],
        &["--rounds", "1", "--scratch", "tournament"],
    );
    assert!(replay_sample(&bench, "match") >= 9);
}

#[test]
fn sampled_decisions_of_a_bank_heist_run_are_reproduced() {
    let bench = Bench::new(&["lurker", "gun_heck", "heist_master"], &["exit3"]);
    bench.run(
        &["bank-heist"],
        &["lurker", "gun_heck", "heist_master", "exit3"],
        &["--tournaments", "3", "--games", "60"],
    );
    assert!(replay_sample(&bench, "match") >= 9);
    // The report's viewer gives each decision's `koth replay` command: a Bank Heist match
    // holds many games, so a step's place in its game is not its number in the match.
    let out = Command::new(koth_bin())
        .arg("report")
        .arg(bench.out())
        .output()
        .expect("koth report");
    assert!(out.status.success(), "{}", text(&out));
    let page = std::fs::read_to_string(bench.out().join("report.html")).expect("report");
    let open = r#"<script type="application/json" id="data">"#;
    let start = page.find(open).expect("data") + open.len();
    let end = start + page[start..].find("</script>").expect("end");
    let data: Value = serde_json::from_str(&page[start..end]).expect("json");
    let archive = data["replay_archive"].as_str().expect("replay_archive");
    assert_eq!(archive, bench.out().display().to_string());
    let replays = data["replays"].as_array().expect("replays");
    let mut checked = 0;
    for r in [
        &replays[0],
        &replays[replays.len() / 2],
        &replays[replays.len() - 1],
    ] {
        let steps = r["steps"].as_array().expect("steps");
        for st in [&steps[0], &steps[steps.len() - 1]] {
            let (m, k) = (r["match_index"].to_string(), st["decision"].to_string());
            let out = bench.replay(&["--match", &m, "--decision", &k]);
            let said = text(&out);
            assert!(out.status.success(), "{said}");
            assert!(
                said.contains(&format!("): {}\n", st["bot"].as_str().expect("bot")))
                    && said.contains(&format!("fuel used: {}\n", st["fuel"])),
                "the report's step (match {m}, decision {k}, {} with fuel {}) is not the \
                 decision replayed:\n{said}",
                st["bot"],
                st["fuel"]
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
    assert!(
        replays
            .iter()
            .flat_map(|r| r["steps"].as_array().expect("steps"))
            .any(|st| st["decision"].as_u64().is_some_and(|d| d > 200)),
        "no step past its game's first: every step numbered in its game, not its match?"
    );
}

#[test]
fn sampled_decisions_of_a_euchre_run_are_reproduced() {
    let bench = Bench::new(&["random_8020", "marius", "card_counter"], &["exit3"]);
    bench.run(
        &["euchre"],
        &["random_8020", "marius", "card_counter", "exit3"],
        &["--games", "3"],
    );
    assert!(replay_sample(&bench, "match") >= 9);
}

#[test]
fn sampled_decisions_of_a_plugin_referees_run_are_reproduced() {
    let bench = Bench::new(
        &["hostile_referee", "calculator", "taxman", "random"],
        &["exit3"],
    );
    let referee = bench.bot("hostile_referee");
    let out = Command::new(koth_bin())
        .arg("play")
        .arg(&referee)
        .args(
            ["calculator", "taxman", "random", "exit3"]
                .iter()
                .map(|b| bench.bot(b)),
        )
        .args(["--rounds", "3", "--seed", "3", "--cache-dir"])
        .arg(bench.cache())
        .arg("--out")
        .arg(bench.out())
        .output()
        .expect("koth play");
    assert!(out.status.success(), "{}", text(&out));
    assert!(replay_sample(&bench, "match") >= 9);
}

#[test]
fn the_first_failed_decision_is_the_default_and_a_new_build_is_read_by_the_game() {
    let bench = Bench::new(&["taxman", "random"], &["exit3", "history_append3"]);
    bench.run(&["coup"], &["taxman", "exit3"], &["--rounds", "1"]);
    // Game 0 is taxman against exit3, which exits 3 at its first decision and forfeits.
    let lines = &bench.lines("match")[&0];
    let first_failed = lines.iter().position(line_failed).expect("exit3 failed");
    let out = bench.replay(&["--match", "0"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "decision {first_failed} of {} (its first failed decision): exit3",
            lines.len()
        )),
        "{said}"
    );
    assert!(said.contains("outcome:   exit(3)"), "{said}");
    assert!(said.contains("exit3 forfeits"), "{said}");
    assert!(said.contains("the same as the record"), "{said}");

    // taxman's first decision, taken by a new build that appends three bytes: the game reads
    // it (the file rule forfeits the game) and the differences are named.
    let k = lines
        .iter()
        .position(|l| l["bot"] == "taxman")
        .expect("taxman decided");
    let build = bench.bot("history_append3");
    let out = bench.replay(&[
        "--match",
        "0",
        "--decision",
        &k.to_string(),
        "--bot",
        build.to_str().expect("utf-8 path"),
    ]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("as the new build"), "{said}");
    assert!(said.contains("taxman forfeits"), "{said}");
    assert!(said.contains("answer was \"T\", now"), "{said}");
    assert!(said.contains("fuel_used was"), "{said}");
    assert!(!said.contains("the same as the record"), "{said}");
    // The original bot, asked again, is the same as the record.
    let out = bench.replay(&["--match", "0", "--decision", &k.to_string()]);
    assert!(
        text(&out).contains("the same as the record"),
        "{}",
        text(&out)
    );
}

#[test]
fn a_match_or_decision_past_the_run_is_refused_naming_the_option() {
    let bench = Bench::new(&["taxman", "random"], &[]);
    bench.run(&["coup"], &["taxman", "random"], &["--rounds", "1"]);
    let out = bench.replay(&["--match", "7"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--match 7: the run has 2 matches (0 to 1)"),
        "{}",
        text(&out)
    );
    let out = bench.replay(&["--match", "1", "--decision", "100000"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("--decision 100000: match 1 has"),
        "{}",
        text(&out)
    );
    // A bot file that is not the one that played is refused by its hash.
    std::fs::copy(bench.bot("random"), bench.bot("taxman")).expect("swap");
    let out = bench.replay(&["--match", "0"]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("not the bot that played"),
        "{}",
        text(&out)
    );
}
