//! Ladders beyond the round robin, through the `koth` command:
//!
//! - `koth coup --opponents M`: every bot plays exactly M opponents a round, both seats, and
//!   the archive verifies; an odd M is refused naming the option;
//! - a new bot in a sampled ladder over `--reuse` plays only its own games (rounds × M × 2)
//!   and the archive is byte-identical to the same ladder played from scratch;
//! - `koth play REF --format ordered-pairs --opponents M` samples a referee's game alike;
//! - `koth bench ladder` builds distinct copies, plays the ladder, adds an entry and reports
//!   how many games the new entry played and took from the store;
//! - `koth bench scale` checks that every worker count gives the same archive;
//! - `koth bench` runs the `koth-bench` beside it, passing its arguments and its exit status
//!   through, and without one says how to build it.

use koth_tests::{koth_bin, wasm};
use std::path::{Path, PathBuf};
use std::process::Command;

const BOTS: [&str; 9] = [
    "calculator",
    "taxman",
    "statistician",
    "solver",
    "gambler",
    "turncoat",
    "lawyer",
    "bandit",
    "challenger",
];

/// Run koth with its compiled-code cache under `dir` (the benches' child commands inherit it).
fn koth(dir: &Path, args: &[&std::ffi::OsStr]) -> (bool, String, String) {
    let out = Command::new(koth_bin())
        .env("KOTH_CACHE_DIR", dir.join("cache"))
        .args(args)
        .output()
        .expect("run koth");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn coup(dir: &Path, bots: &[PathBuf], out: &str, extra: &[&str]) -> (bool, String, String) {
    let mut args: Vec<std::ffi::OsString> = vec!["coup".into(), "--out".into()];
    args.push(dir.join(out).into());
    args.extend(extra.iter().map(Into::into));
    args.extend(bots.iter().map(Into::into));
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    koth(dir, &refs)
}

/// `koth verify ARCHIVE --bots <the built bots> --all`, which must pass; its stdout.
fn verify_all(dir: &Path, archive: &Path) -> String {
    let (ok, out, err) = koth(
        dir,
        &[
            "verify".as_ref(),
            archive.as_os_str(),
            "--bots".as_ref(),
            koth_tests::bots_dir().as_os_str(),
            "--all".as_ref(),
        ],
    );
    assert!(ok, "{out}{err}");
    out
}

fn results(dir: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(dir.join("results.json")).expect("results.json"))
        .expect("results.json parses")
}

#[test]
fn a_sampled_ladder_gives_every_bot_m_opponents_a_round_and_verifies() {
    let tmp = tempfile::tempdir().expect("tmp");
    let bots: Vec<PathBuf> = BOTS.iter().map(|b| wasm(b)).collect();
    let (ok, _, err) = coup(
        tmp.path(),
        &bots,
        "a",
        &["--opponents", "4", "--rounds", "3"],
    );
    assert!(ok, "{err}");
    assert!(
        err.contains("3 rounds of 4 opponents each, 108 games"),
        "{err}"
    );
    let r = results(&tmp.path().join("a"));
    for b in r["bots"].as_array().expect("bots") {
        // 4 opponents, both seats, 3 rounds.
        assert_eq!(b["games"], 24, "{b}");
    }
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(tmp.path().join("a/manifest.json")).expect("manifest"),
    )
    .expect("manifest parses");
    assert_eq!(manifest["options"]["opponents"], 4, "{manifest}");
    let out = verify_all(tmp.path(), &tmp.path().join("a"));
    assert!(out.contains("108 of 108 matches"), "{out}");
    let (ok, _, err) = coup(tmp.path(), &bots, "b", &["--opponents", "3"]);
    assert!(!ok);
    assert!(err.contains("--opponents must be an even number"), "{err}");
}

#[test]
fn a_new_bot_in_a_sampled_ladder_plays_only_its_own_games() {
    let tmp = tempfile::tempdir().expect("tmp");
    let bots: Vec<PathBuf> = BOTS.iter().map(|b| wasm(b)).collect();
    let store = tmp.path().join("store");
    let store = store.to_str().expect("utf-8 path");
    let opts = ["--opponents", "4", "--rounds", "2", "--reuse", store];
    let (ok, _, err) = coup(tmp.path(), &bots[..8], "before", &opts);
    assert!(ok, "{err}");
    let (ok, out, err) = coup(tmp.path(), &bots, "after", &opts);
    assert!(ok, "{err}");
    // The newcomer: 4 opponents, both seats, 2 rounds. Every other game of the 9-bot ladder
    // (9 × 4 × 2 = 72 a run) was in the store.
    assert!(
        out.contains("Reuse: played 16 games and took 56 from"),
        "{out}"
    );
    let (ok, _, err) = coup(
        tmp.path(),
        &bots,
        "scratch",
        &["--opponents", "4", "--rounds", "2"],
    );
    assert!(ok, "{err}");
    for f in ["results.json", "invocations.jsonl.zst", "matches.zip.zst"] {
        assert!(
            std::fs::read(tmp.path().join("after").join(f)).expect("after")
                == std::fs::read(tmp.path().join("scratch").join(f)).expect("scratch"),
            "{f} differs between the reused and the fresh run"
        );
    }
}

#[test]
fn a_referee_s_ordered_pairs_are_sampled_alike() {
    let tmp = tempfile::tempdir().expect("tmp");
    let out = tmp.path().join("play");
    let mut args: Vec<std::ffi::OsString> = vec!["play".into(), wasm("hostile_referee").into()];
    args.extend(
        [
            "taxman",
            "lawyer",
            "random",
            "calculator",
            "solver",
            "bandit",
        ]
        .map(|b| wasm(b).into_os_string()),
    );
    args.extend(
        [
            "--format",
            "ordered-pairs",
            "--opponents",
            "2",
            "--rounds",
            "2",
            "--out",
        ]
        .map(Into::into),
    );
    args.push(out.clone().into());
    let refs: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    let (ok, stdout, err) = koth(tmp.path(), &refs);
    assert!(ok, "{err}");
    // 6 bots, 2 opponents each, both seats, 2 rounds.
    assert!(stdout.contains("24 games"), "{stdout}");
    for b in results(&out)["bots"].as_array().expect("bots") {
        assert_eq!(b["games"], 8, "{b}");
    }
    let said = verify_all(tmp.path(), &out);
    assert!(said.contains("24 of 24 matches"), "{said}");
    // Tables are not sampled.
    let mut tables = refs.clone();
    tables[9] = "tables".as_ref();
    let (ok, _, err) = koth(tmp.path(), &tables);
    assert!(!ok);
    assert!(err.contains("--opponents samples ordered pairs"), "{err}");
}

#[test]
fn bench_ladder_and_scale_report_what_the_new_entry_played() {
    koth_tests::koth_bench_bin();
    let tmp = tempfile::tempdir().expect("tmp");
    let keep = tmp.path().join("ladder");
    let (ok, out, err) = koth(
        tmp.path(),
        &[
            "bench".as_ref(),
            "ladder".as_ref(),
            wasm("taxman").as_os_str(),
            wasm("calculator").as_os_str(),
            "--bots".as_ref(),
            "4".as_ref(),
            "--rounds".as_ref(),
            "1".as_ref(),
            "--jobs".as_ref(),
            "2".as_ref(),
            "--keep".as_ref(),
            keep.as_os_str(),
        ],
    );
    assert!(ok, "{out}{err}");
    // Four entries: 12 games; the fifth adds 2 × 4 of its own and takes the 12.
    assert!(
        out.contains("games 12 (played 12, taken from the store 0)"),
        "{out}"
    );
    assert!(
        out.contains("games 20 (played 8, taken from the store 12)"),
        "{out}"
    );
    assert!(out.contains("phases: load "), "{out}");
    // The copies are distinct files of the same code.
    let a = std::fs::read(keep.join("bots/taxman_0000.wasm")).expect("copy 0");
    let c = std::fs::read(keep.join("bots/taxman_0002.wasm")).expect("copy 2");
    assert_ne!(a, c);
    let (ok, out, err) = koth(
        tmp.path(),
        &[
            "bench".as_ref(),
            "scale".as_ref(),
            wasm("taxman").as_os_str(),
            wasm("calculator").as_os_str(),
            wasm("solver").as_os_str(),
            "--rounds".as_ref(),
            "2".as_ref(),
            "--max-jobs".as_ref(),
            "2".as_ref(),
        ],
    );
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("every run's archive is byte-identical"),
        "{out}"
    );
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("2 |")),
        "{out}"
    );
    // The same ladder as a contest's runs: the two new entries each play only their games,
    // and the contest's disk is measured after each run.
    let (ok, out, err) = koth(
        tmp.path(),
        &[
            "bench".as_ref(),
            "ladder".as_ref(),
            wasm("taxman").as_os_str(),
            wasm("calculator").as_os_str(),
            "--bots".as_ref(),
            "4".as_ref(),
            "--rounds".as_ref(),
            "1".as_ref(),
            "--jobs".as_ref(),
            "2".as_ref(),
            "--contest".as_ref(),
        ],
    );
    assert!(ok, "{out}{err}");
    for line in [
        "(run 1): ",
        "12 matches, 12 played, 0 from the store",
        "new entry 1 (5 entries) (run 2)",
        "20 matches, 8 played, 12 from the store",
        "new entry 2 (6 entries) (run 3)",
        "30 matches, 10 played, 20 from the store",
        "the new bot's page",
    ] {
        assert!(out.contains(line), "{line:?} in {out}");
    }
    assert_eq!(out.matches("contest disk ").count(), 3, "{out}");
    assert!(err.contains("condensed 1 superseded run(s)"), "{err}");
}

/// `koth bench serve`: its contest takes every bot from its one author (the per-author
/// quotas are not what it measures), and its readers all get answers.
#[test]
fn bench_serve_uploads_every_bot_and_reads_the_leaderboard() {
    koth_tests::koth_bench_bin();
    let tmp = tempfile::tempdir().expect("tmp");
    let names = ["taxman", "calculator", "solver", "lawyer"];
    let bots: Vec<std::path::PathBuf> = names.iter().map(|n| wasm(n)).collect();
    let mut args: Vec<&std::ffi::OsStr> =
        vec!["bench".as_ref(), "serve".as_ref(), "--bots".as_ref()];
    args.extend(bots.iter().map(|b| b.as_os_str()));
    args.extend(
        // Its default 300 rounds: the readers load the server while a run plays.
        ["--readers", "2", "--requests", "2"]
            .iter()
            .map(std::ffi::OsStr::new),
    );
    let (ok, out, err) = koth(tmp.path(), &args);
    assert!(ok, "{out}{err}");
    assert!(out.contains("4 ok, 0 failed"), "{out}{err}");
}

/// `koth bench` is `koth-bench` (the benchmarks are a binary of their own): its help and a
/// refusal come through with its exit status; a `koth` with no `koth-bench` beside it (nor
/// on PATH) says how to build one.
#[test]
fn koth_bench_runs_the_binary_beside_it() {
    koth_tests::koth_bench_bin();
    let tmp = tempfile::tempdir().expect("tmp");
    let (ok, out, err) = koth(tmp.path(), &["bench".as_ref(), "--help".as_ref()]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("Usage: koth bench"), "{out}");
    assert!(out.contains("ladder"), "{out}");
    // It measures this koth, and says so.
    let (ok, version, err) = koth(tmp.path(), &["bench".as_ref(), "--version".as_ref()]);
    assert!(ok, "{version}{err}");
    assert_eq!(version.trim(), format!("koth bench {}", koth::VERSION));
    let (ok, out, err) = koth(tmp.path(), &["bench".as_ref(), "no-such-bench".as_ref()]);
    assert!(!ok, "{out}{err}");
    assert!(err.contains("no-such-bench"), "{err}");
    // A koth alone.
    let alone = tmp.path().join("alone");
    std::fs::create_dir(&alone).expect("mkdir");
    std::fs::copy(koth_bin(), alone.join("koth")).expect("copy koth");
    let out = Command::new(alone.join("koth"))
        .args(["bench", "scale"])
        .env("PATH", &alone)
        .output()
        .expect("run koth");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cargo build --release -p koth -p koth-bench"),
        "{err}"
    );
}
