//! Archives written by koth 0.7.0's built-in Coup and Bank Heist drivers, before those games
//! had referees (`tests/fixtures/koth-0.7.0`, with the bots that played them), re-played by
//! `koth verify` through the referees: every match gives the record the archive lists, and
//! the whole archive is written again identically. The drivers wrote them at commit 0a7f864,
//! the last with the drivers' own code: a Coup round robin of five bots whose games end in
//! forfeits (the file rule, an illegal exchange, a trap with its stderr); a sampled Coup round
//! of every cheat the test bot knows (an illegal move, too long an append, none, the history
//! file deleted, renamed, replaced by a folder or by a symbolic link, truncated; an exit code,
//! too much output, out of fuel), written from a worktree of that commit; a paired Coup run
//! with each bot's folder kept for the whole run; and two Bank Heist tournaments with a trap,
//! an exit code and an output that is no bet.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/koth-0.7.0")
}

/// A copy of the fixture `name` in a folder of its own (the commands read it only, but a
/// copy keeps the source tree clean whatever they do).
fn copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix("koth-legacy-")
        .tempdir()
        .expect("a temporary folder");
    let dest = tmp.path().join(name);
    std::fs::create_dir(&dest).expect("create the copy");
    for entry in std::fs::read_dir(fixtures().join(name)).expect("the fixture") {
        let entry = entry.expect("an entry");
        std::fs::copy(entry.path(), dest.join(entry.file_name())).expect("copy a file");
    }
    (tmp, dest)
}

fn koth(args: &[&std::ffi::OsStr]) -> (bool, String) {
    let o = Command::new(koth_tests::koth_bin())
        .args(args)
        .output()
        .expect("start koth");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

/// `koth verify DIR --all` with the fixtures' bots.
fn verify(dir: &Path) -> (bool, String) {
    let bots = fixtures().join("bots");
    koth(&[
        "verify".as_ref(),
        dir.as_os_str(),
        "--all".as_ref(),
        "--bots".as_ref(),
        bots.as_os_str(),
    ])
}

#[test]
fn the_drivers_archives_verify_through_the_referees() {
    for (name, matches) in [
        ("coup", 20),
        ("coup-cheats", 24),
        ("coup-paired-scratch", 12),
        ("bank-heist", 2),
    ] {
        let (_tmp, dir) = copy(name);
        let (ok, said) = verify(&dir);
        assert!(ok, "{name}: {said}");
        assert!(
            said.contains(&format!(
                "Verified: {matches} of {matches} matches re-played from the bots gave the \
                 records the archive lists, and the whole archive was written again identically"
            )),
            "{name}: {said}"
        );
    }
}

#[test]
fn a_changed_driver_record_fails_to_verify() {
    // One number changed in the Coup fixture's results: the fuel a game's second seat used.
    let (_tmp, dir) = copy("coup");
    let path = dir.join("results.json");
    let text = std::fs::read_to_string(&path).expect("results.json");
    let changed = text.replacen("\"fuel\":[181359,147336]", "\"fuel\":[181359,147337]", 1);
    assert!(text != changed, "the fixture has that game");
    std::fs::write(&path, changed).expect("write results.json");
    let (ok, said) = verify(&dir);
    assert!(!ok, "{said}");
    assert!(
        said.contains("FAILED") || said.contains("receipt"),
        "{said}"
    );
}

#[test]
fn a_drivers_decision_replays_as_recorded() {
    let (_tmp, dir) = copy("coup");
    let bots = fixtures().join("bots");
    let (ok, said) = koth(&[
        "replay".as_ref(),
        dir.as_os_str(),
        "--match".as_ref(),
        "1".as_ref(),
        "--decision".as_ref(),
        "0".as_ref(),
        "--bots".as_ref(),
        bots.as_os_str(),
    ]);
    assert!(ok, "{said}");
    assert!(said.contains("the same as the record"), "{said}");
}
