//! Coup's referee as a WebAssembly component (`koth play coup_referee.wasm`), with real wasm
//! bots: whole tournaments whose every game is Coup by the rules (each match's history is
//! what its bots appended, in order, and re-plays to the same end in `koth verify`), the same
//! archive at any worker count, `--scratch tournament` keeping each bot's folder for the
//! whole run, and the refusals; `koth coup` is the same run as `koth play coup`, and the
//! archives `koth coup` wrote with its old driver still report and verify (archives the driver
//! itself wrote, before it went, are verified in `legacy_archives.rs`).

use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn koth(args: &[OsString]) -> Output {
    Command::new(koth_tests::koth_bin())
        .args(args)
        .output()
        .expect("start koth")
}

fn ok(args: &[OsString]) -> Output {
    let o = koth(args);
    assert!(
        o.status.success(),
        "koth {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn os(parts: &[&str]) -> Vec<OsString> {
    parts.iter().map(OsString::from).collect()
}

/// `koth play coup_referee.wasm BOTS... EXTRA... --out OUT`.
fn play(bots: &[PathBuf], out: &Path, extra: &[&str]) -> Vec<OsString> {
    let mut v = vec!["play".into(), koth_tests::wasm("coup_referee").into()];
    v.extend(bots.iter().map(|b| b.clone().into_os_string()));
    v.extend(os(extra));
    v.extend(["--out".into(), out.into()]);
    v
}

fn json(tree: &BTreeMap<String, Vec<u8>>, file: &str) -> Value {
    serde_json::from_slice(&tree[file]).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn seed_bots_play_whole_games_of_coup_that_verify() {
    let tmp = tempfile::Builder::new()
        .prefix("koth-coup-referee-")
        .tempdir()
        .unwrap();
    let names = ["calculator", "taxman", "challenger", "random", "coup_c"];
    let bots: Vec<PathBuf> = names.iter().map(|n| koth_tests::wasm(n)).collect();
    let (one, two) = (tmp.path().join("one"), tmp.path().join("two"));
    ok(&play(
        &bots,
        &one,
        &["--rounds", "2", "--seed", "5", "--jobs", "1"],
    ));
    ok(&play(
        &bots,
        &two,
        &["--rounds", "2", "--seed", "5", "--jobs", "2"],
    ));
    let (a, b) = (koth_tests::read_tree(&one), koth_tests::read_tree(&two));
    assert_eq!(a, b, "the archive depends on the number of workers");

    let results = json(&a, "results.json");
    let matches = results["detail"]["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 2 * 5 * 4, "every ordered pair, each round");
    // Each game's history is what its bots appended, decision by decision.
    let mut appended: BTreeMap<u64, String> = BTreeMap::new();
    for line in koth_tests::invocations(&one).lines() {
        let d: Value = serde_json::from_str(line).unwrap();
        assert!(d["args"][0].as_str().unwrap().ends_with(".txt"));
        appended
            .entry(d["match"].as_u64().unwrap())
            .or_default()
            .push_str(d["answer"].as_str().unwrap());
        // No board and no events: the report deals the game again (below), and the human
        // log holds what each move did.
        assert!(d.get("state").is_none() && d.get("events").is_none(), "{d}");
    }
    let mut decided = 0;
    for m in matches {
        let i = m["index"].as_u64().unwrap();
        let r = &m["result"];
        let seats: Vec<&str> = m["seats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().split(' ').next().unwrap())
            .collect();
        assert_eq!(
            r["file"],
            format!("{}_{}_{}.txt", seats[0], seats[1], m["round"]),
            "match {i}"
        );
        assert_eq!(r["history"], appended[&i].as_str(), "match {i}");
        if r["result"] == "won" && r["how"] != "forfeit" {
            decided += 1;
        }
    }
    assert!(decided > 20, "only {decided} games were won by the rules");
    // The seed bots play by the rules: nothing forfeited.
    for row in results["bots"].as_array().unwrap() {
        assert!(
            row["forfeits"].as_object().is_none_or(|f| f.is_empty()),
            "{row}"
        );
    }
    // The report reads it as a referee's archive, with the Coup viewer's boards (an
    // archive named `coup` once went to the built-in game's reader, and failed).
    let mut report = os(&["report"]);
    report.push(two.clone().into());
    ok(&report);
    let page = std::fs::read_to_string(two.join("report.html")).unwrap();
    // A board dealt again for every decision of every game the page embeds.
    let decisions = page.matches("\"decision\":").count();
    assert!(decisions > 0);
    assert_eq!(page.matches("\"revealed\":").count(), 2 * decisions);
    // koth verify re-plays every game to the same records.
    let mut verify = os(&["verify"]);
    verify.push(one.clone().into());
    verify.extend(os(&["--all", "--bots"]));
    verify.push(bots[0].parent().unwrap().into());
    let o = koth(&verify);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn tournament_scratch_keeps_each_bots_folder_for_the_whole_run() {
    let tmp = tempfile::Builder::new()
        .prefix("koth-coup-referee-scratch-")
        .tempdir()
        .unwrap();
    // The cheater module under the name `cheat_counter` counts its invocations in a file
    // of its folder, and otherwise plays its first legal move.
    let counter = tmp.path().join("cheat_counter.wasm");
    std::fs::copy(koth_tests::wasm("coup_cheater"), &counter).unwrap();
    let mut bots: Vec<PathBuf> = ["random", "challenger", "taxman"]
        .iter()
        .map(|n| koth_tests::wasm(n))
        .collect();
    bots.push(counter);
    let run = |out: &Path, jobs: &str| {
        ok(&play(
            &bots,
            out,
            &["--rounds", "2", "--scratch", "tournament", "--jobs", jobs],
        ));
        koth_tests::read_tree(out)
    };
    let one = run(&tmp.path().join("one"), "1");
    let two = run(&tmp.path().join("two"), "2");
    assert_eq!(one, two, "the archive depends on the number of workers");
    let manifest = json(&one, "manifest.json");
    assert_eq!(manifest["options"]["scratch"], "tournament");
    // One counter for the whole run: it counted every invocation of the bot.
    let n: u64 = String::from_utf8(one["matches.zip.zst/scratch/cheat_counter/counter"].clone())
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let results = json(&one, "results.json");
    let row = results["bots"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["bot"] == "cheat_counter")
        .unwrap();
    assert_eq!(n, row["invocations"].as_u64().unwrap());
    assert!(n > 12, "{n} invocations");
    // No game's history file is left in a folder, and nothing is kept per match.
    assert!(!one
        .keys()
        .any(|k| k.starts_with("matches.zip.zst/scratch/") && k.ends_with(".txt")));
    assert!(!one
        .keys()
        .any(|k| k.starts_with("matches.zip.zst/scratch/match-")));
    // A match-long run keeps the counter per game instead: each says 1 or 2 or so.
    let game = tmp.path().join("game");
    ok(&play(&bots, &game, &["--rounds", "2"]));
    let tree = koth_tests::read_tree(&game);
    let counts: Vec<u64> = tree
        .iter()
        .filter(|(k, _)| k.starts_with("matches.zip.zst/scratch/match-") && k.ends_with("/counter"))
        .map(|(_, v)| String::from_utf8_lossy(v).trim().parse().unwrap())
        .collect();
    assert_eq!(counts.len(), 2 * 2 * 3, "one counter per game of the bot");
    assert!(counts.iter().all(|&c| c < n));
}

#[test]
fn the_referees_that_cannot_keep_folders_and_the_bad_runs_are_refused() {
    let tmp = tempfile::Builder::new()
        .prefix("koth-coup-referee-refused-")
        .tempdir()
        .unwrap();
    let bots: Vec<OsString> = ["random", "taxman"]
        .iter()
        .map(|n| koth_tests::wasm(n).into())
        .collect();
    // Euchre's referee keeps a seat's memory for one game only.
    let mut args = vec!["play".into(), koth_tests::wasm("euchre_referee").into()];
    args.extend([
        koth_tests::wasm("random_8020").into(),
        koth_tests::wasm("random_8020").into(),
    ]);
    args.extend(os(&["--scratch", "tournament", "--out"]));
    args.push(tmp.path().join("e").into());
    let o = koth(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--scratch tournament") && err.contains("euchre"),
        "{err}"
    );
    // `koth check` tells a bot author Coup's protocol.
    let o = ok(&["check".into(), koth_tests::wasm("coup_referee").into()]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("history file"), "{text}");
    // A run with tournament-wide folders cannot be cut into shards: every game needs the
    // bots' earlier ones.
    let mut args = vec!["play".into(), koth_tests::wasm("coup_referee").into()];
    args.extend(bots);
    args.extend(os(&["--scratch", "tournament", "--shard", "1/2", "--out"]));
    args.push(tmp.path().join("s").into());
    let o = koth(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(err.contains("scratch"), "{err}");
}

/// `koth play coup` plays the same referee built into koth: the archive is the component's,
/// file for file, but for the manifest's `referee` and the receipt that hashes the manifest.
/// `koth verify` finds the built-in referee again by the game's name.
#[test]
fn the_built_in_referee_gives_the_components_archive() {
    let tmp = tempfile::Builder::new()
        .prefix("koth-coup-referee-native-")
        .tempdir()
        .unwrap();
    let bots: Vec<PathBuf> = ["random", "taxman", "mask", "coup_c"]
        .iter()
        .map(|n| koth_tests::wasm(n))
        .collect();
    let (native, plugin) = (tmp.path().join("native"), tmp.path().join("plugin"));
    let mut args = os(&["play", "coup"]);
    args.extend(bots.iter().map(|b| b.clone().into_os_string()));
    args.extend(os(&["--rounds", "2", "--jobs", "2", "--out"]));
    args.push(native.clone().into());
    ok(&args);
    ok(&play(&bots, &plugin, &["--rounds", "2", "--jobs", "2"]));
    let (one, two) = (
        koth_tests::read_tree(&native),
        koth_tests::read_tree(&plugin),
    );
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>(),
        "the archives hold different files"
    );
    for (file, bytes) in &one {
        if file != "manifest.json" && file != "results.json" {
            assert!(bytes == &two[file], "{file} differs");
        }
    }
    let (mut m1, mut m2) = (json(&one, "manifest.json"), json(&two, "manifest.json"));
    assert!(m1["referee"].is_null() && m2["referee"]["file"] == "coup_referee.wasm");
    m1.as_object_mut().unwrap().remove("referee");
    m2.as_object_mut().unwrap().remove("referee");
    assert_eq!(m1, m2);
    let (mut r1, mut r2) = (json(&one, "results.json"), json(&two, "results.json"));
    r1.as_object_mut().unwrap().remove("receipt");
    r2.as_object_mut().unwrap().remove("receipt");
    assert_eq!(r1, r2);

    let mut verify = os(&["verify"]);
    verify.push(native.into());
    verify.extend(os(&["--all", "--bots"]));
    verify.push(bots[0].parent().unwrap().into());
    ok(&verify);
    // A bare name that is no built-in game is refused, with the ones there are.
    let mut args = os(&["play", "chess"]);
    args.extend(bots.iter().map(|b| b.clone().into_os_string()));
    let o = koth(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("coup, euchre"), "{err}");
}

/// `koth coup` is `koth play coup`, byte for byte; and an archive of the built-in driver,
/// which `koth coup` wrote before `koth-results/4`, still reports and verifies.
#[test]
fn koth_coup_is_koth_play_coup_and_the_drivers_archives_still_verify() {
    use koth::games::coup::tournament::{self, CoupOptions};
    use koth::sandbox::{Sandbox, SandboxOptions};
    let tmp = tempfile::Builder::new()
        .prefix("koth-coup-switch-")
        .tempdir()
        .unwrap();
    let names = ["calculator", "taxman", "random"];
    let bots: Vec<PathBuf> = names.iter().map(|n| koth_tests::wasm(n)).collect();
    let (coup, play) = (tmp.path().join("coup"), tmp.path().join("play"));
    let mut args = os(&["coup"]);
    args.extend(bots.iter().map(|b| b.clone().into_os_string()));
    args.extend(os(&["--rounds", "2", "--paired", "--seed", "4", "--out"]));
    args.push(coup.clone().into());
    ok(&args);
    args[0] = "play".into();
    args.insert(1, "coup".into());
    *args.last_mut().unwrap() = play.clone().into();
    ok(&args);
    let tree = koth_tests::read_tree(&coup);
    assert_eq!(tree, koth_tests::read_tree(&play));
    let results = json(&tree, "results.json");
    assert_eq!(results["schema"], "koth-results/4");
    assert_eq!(
        json(&tree, "manifest.json")["options"]["game"]["name"],
        "coup"
    );

    // The driver's archive, written as koth 0.7.0's `koth coup` wrote it.
    let sb = Sandbox::new(SandboxOptions::default()).unwrap();
    let loaded: Vec<_> = bots
        .iter()
        .map(|b| sb.load_file(b, None).unwrap())
        .collect();
    let opts = CoupOptions {
        rounds: 2,
        seed: 4,
        ..CoupOptions::default()
    };
    let t = tournament::run(&koth_tests::players(&loaded), &opts, 2, &|_, _| {}).unwrap();
    let old = tmp.path().join("old");
    let archive = koth::tournament::archive::Archive::create(&old).unwrap();
    let manifest = koth::tournament::Manifest {
        koth_version: "0.7.0".into(),
        ..koth_tests::manifest("coup", &loaded, opts, &sb)
    };
    tournament::write_archive(&t, &manifest, &archive).unwrap();
    let old_results = json(&koth_tests::read_tree(&old), "results.json");
    assert!(old_results["detail"]["games"].is_array());
    let mut verify = os(&["verify"]);
    verify.push(old.clone().into());
    verify.extend(os(&["--all", "--bots"]));
    verify.push(bots[0].parent().unwrap().into());
    let o = ok(&verify);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("written again identically"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let mut report = os(&["report"]);
    report.push(old.clone().into());
    ok(&report);
    let page = std::fs::read_to_string(old.join("report.html")).unwrap();
    assert!(page.matches("\"revealed\":").count() > 0, "no board");
    // A decision of it taken again, read in its human log's words.
    let mut replay = os(&["replay"]);
    replay.push(old.clone().into());
    replay.extend(os(&["--match", "0", "--decision", "0", "--bots"]));
    replay.push(bots[0].parent().unwrap().into());
    let said = String::from_utf8_lossy(&ok(&replay).stdout).into_owned();
    assert!(said.contains("the same as the record"), "{said}");
    assert!(said.contains("calculator played"), "{said}");
}
