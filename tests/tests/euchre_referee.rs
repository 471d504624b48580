//! The proof that the referee interface is complete (issue 15, item 3): Euchre's referee as
//! a WebAssembly component (`koth play euchre_referee.wasm`) gives the very archive `koth
//! euchre` gives (the same referee built in), file for file, byte for byte, but for the
//! manifest's `referee` entry and the receipt that hashes the manifest.

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
    let bots: Vec<OsString> = bots.iter().map(|b| koth_tests::wasm(b).into()).collect();
    let (a, b) = (dir.join("builtin"), dir.join("plugin"));
    let args = |head: Vec<OsString>, out: &Path, extra: &[&str]| -> Vec<OsString> {
        let mut v = head;
        v.extend(bots.iter().cloned());
        v.extend(extra.iter().map(OsString::from));
        v.extend(["--jobs".into(), "2".into(), "--out".into(), out.into()]);
        v
    };
    koth(&args(vec!["euchre".into()], &a, builtin));
    let referee = koth_tests::wasm("euchre_referee");
    koth(&args(vec!["play".into(), referee.into()], &b, plugin));
    let (one, two) = (koth_tests::read_tree(&a), koth_tests::read_tree(&b));
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>(),
        "the archives hold different files"
    );
    assert!(
        one.keys()
            .any(|k| k.starts_with("matches.zip.zst/scratch/")),
        "no memory file"
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
    assert_eq!(m2["referee"]["file"], "euchre_referee.wasm");
    m2.as_object_mut().unwrap().remove("referee");
    assert_eq!(m1["game"], "euchre");
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
