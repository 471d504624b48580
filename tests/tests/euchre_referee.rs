//! The proof that the referee interface is complete (issue 15, item 3): Euchre's referee as
//! a WebAssembly component (`koth play euchre_referee.wasm`) gives the very archive `koth
//! euchre` gives (the same referee built in), file for file, byte for byte, but for the
//! manifest's `referee` entry and the receipt that hashes the manifest. Bank Heist's the
//! same against `koth bank-heist`, which also gives `koth play bank-heist`'s archive byte for
//! byte.

use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// Run koth with `args`; it must succeed.
fn koth(args: &[OsString]) {
    let o = Command::new(koth_tests::koth_bin())
        .args(args)
        .output()
        .expect("start koth");
    assert!(
        o.status.success(),
        "koth {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn json(tree: &BTreeMap<String, Vec<u8>>, file: &str) -> Value {
    serde_json::from_slice(&tree[file]).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// `koth euchre BOTS BUILTIN...` and `koth play euchre_referee.wasm BOTS PLUGIN...` into
/// `dir`: the two archives must agree everywhere but where the referee is named.
fn same_archive(dir: &Path, bots: &[&str], builtin: &[&str], plugin: &[&str]) {
    let one = same_archives(dir, "euchre", "euchre_referee", bots, builtin, plugin);
    assert!(
        one.keys()
            .any(|k| k.starts_with("matches.zip.zst/scratch/")),
        "no memory file"
    );
}

/// `koth GAME BOTS BUILTIN...` and `koth play REFEREE.wasm BOTS PLUGIN...` into `dir`: the
/// two archives must agree everywhere but where the referee is named. The first archive.
fn same_archives(
    dir: &Path,
    game: &str,
    referee: &str,
    bots: &[&str],
    builtin: &[&str],
    plugin: &[&str],
) -> BTreeMap<String, Vec<u8>> {
    let bots: Vec<OsString> = bots.iter().map(|b| koth_tests::wasm(b).into()).collect();
    let (a, b) = (dir.join("builtin"), dir.join("plugin"));
    let args = |head: Vec<OsString>, out: &Path, extra: &[&str]| -> Vec<OsString> {
        let mut v = head;
        v.extend(bots.iter().cloned());
        v.extend(extra.iter().map(OsString::from));
        v.extend(["--jobs".into(), "2".into(), "--out".into(), out.into()]);
        v
    };
    koth(&args(vec![game.into()], &a, builtin));
    koth(&args(
        vec!["play".into(), koth_tests::wasm(referee).into()],
        &b,
        plugin,
    ));
    let (one, two) = (koth_tests::read_tree(&a), koth_tests::read_tree(&b));
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>(),
        "the archives hold different files"
    );
    assert!(one
        .keys()
        .any(|k| k.starts_with("matches.zip.zst/logs/match-")));
    for (file, bytes) in &one {
        if file == "manifest.json" || file == "results.json" {
            continue;
        }
        assert!(bytes == &two[file], "{file} differs");
    }
    // The manifest: the plugin's names its referee (file and SHA-256); nothing else differs.
    let (m1, mut m2) = (json(&one, "manifest.json"), json(&two, "manifest.json"));
    assert_eq!(m1.get("referee"), None);
    assert_eq!(m2["referee"]["file"], format!("{referee}.wasm"));
    m2.as_object_mut().unwrap().remove("referee");
    assert_eq!(m1["game"], game);
    assert_eq!(m1, m2);
    // results.json: the receipt hashes the manifest, so it differs; the rest is the same.
    let (mut r1, mut r2) = (json(&one, "results.json"), json(&two, "results.json"));
    assert_ne!(r1["receipt"], r2["receipt"]);
    r1.as_object_mut().unwrap().remove("receipt");
    r2.as_object_mut().unwrap().remove("receipt");
    assert_eq!(r1, r2);
    // The whole text too: the receipt is its only line that differs.
    let lines = |t: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(t)
            .lines()
            .filter(|l| !l.trim_start().starts_with("\"receipt\""))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(lines(&one["results.json"]), lines(&two["results.json"]));
    one
}

#[test]
fn the_euchre_plugin_gives_koth_euchres_archive_with_copies() {
    let dir = tempfile::tempdir().unwrap();
    same_archive(
        dir.path(),
        &["random_8020", "marius", "card_counter"],
        &["--games", "2", "--target", "5", "--seed", "11"],
        &["--rounds", "2", "--opt", "target=5", "--seed", "11"],
    );
}

#[test]
fn the_euchre_plugin_gives_koth_euchres_archive_with_random_partners_and_paired_deals() {
    let dir = tempfile::tempdir().unwrap();
    let four = ["random_8020", "marius", "old_stager", "card_counter"];
    same_archive(
        &dir.path().join("random"),
        &four,
        &["--partners", "random", "--games", "3", "--seed", "12"],
        &[
            "--format",
            "all-play-all",
            "--partners",
            "random",
            "--rounds",
            "3",
            "--seed",
            "12",
        ],
    );
    same_archive(
        &dir.path().join("paired"),
        &four[1..],
        &["--paired", "--games", "2", "--target", "3", "--seed", "13"],
        &[
            "--paired", "--rounds", "2", "--opt", "target=3", "--seed", "13",
        ],
    );
}

#[test]
fn the_bank_heist_plugin_gives_koth_bank_heists_archive_as_koth_play_does() {
    let dir = tempfile::tempdir().unwrap();
    let bots = ["lurker", "snitcher_king", "rays_five01k", "heist_master"];
    let builtin = [
        "--tournaments",
        "2",
        "--games",
        "15",
        "--rules",
        "original",
        "--seed",
        "4",
    ];
    let as_play = [
        "--rounds",
        "2",
        "--opt",
        "games=15",
        "--opt",
        "rules=original",
        "--seed",
        "4",
    ];
    let one = same_archives(
        dir.path(),
        "bank-heist",
        "bank_heist_referee",
        &bots,
        &builtin,
        &as_play,
    );
    // `koth play bank-heist` (the referee built in, by name) writes the very same bytes.
    let named = dir.path().join("named");
    let mut args: Vec<OsString> = vec!["play".into(), "bank-heist".into()];
    args.extend(bots.iter().map(|b| koth_tests::wasm(b).into()));
    args.extend(as_play.iter().map(OsString::from));
    args.extend([
        "--jobs".into(),
        "2".into(),
        "--out".into(),
        named.clone().into(),
    ]);
    koth(&args);
    assert_eq!(one, koth_tests::read_tree(&named));
    // Each tournament's log is the contest's format, with its games.
    let log = String::from_utf8_lossy(&one["matches.zip.zst/logs/match-1.log"]);
    assert!(log.starts_with("#####GAME 0: "), "{log:.200}");
    assert!(log.contains("#####GAME 14: ") && !log.contains("#####GAME 15: "));
    let results = json(&one, "results.json");
    assert_eq!(
        results["detail"]["matches"][1]["result"]["rules"],
        "original"
    );
    // The archive verifies: every tournament re-played gives the same records.
    let bots_dir = koth_tests::wasm(bots[0]);
    let builtin_dir = dir.path().join("builtin");
    koth(&[
        "verify".into(),
        builtin_dir.clone().into(),
        "--all".into(),
        "--bots".into(),
        bots_dir.parent().unwrap().into(),
    ]);
    // The report reads it as Bank Heist's, with the table after every decision it embeds
    // (told by the decisions' arguments), and its human log beside.
    koth(&["report".into(), builtin_dir.clone().into()]);
    let page = std::fs::read_to_string(builtin_dir.join("report.html")).unwrap();
    let decisions = page.matches("\"decision\":").count();
    assert!(decisions > 0);
    assert_eq!(
        page.matches("\"heisters\":").count(),
        decisions,
        "a table per decision"
    );
    assert!(page.contains("decided to "), "no human log in the replays");
}
