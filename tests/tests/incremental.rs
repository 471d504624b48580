//! Incremental tournaments (`--reuse DIR`): a match is kept by what defines it, so a run
//! after a bot changed, was added or was removed plays only the matches that are new, and
//! writes the very archive a run from scratch writes.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The thirteen Coup bots of the seed contest.
const SEED_BOTS: [&str; 13] = [
    "bandit",
    "bloody_murder",
    "calculator",
    "challenger",
    "gambler",
    "lawyer",
    "mask",
    "rando_aggro_lawyer",
    "random",
    "solver",
    "statistician",
    "taxman",
    "turncoat",
];

fn bots_in(dir: &Path) -> Vec<PathBuf> {
    let mut bots: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    bots.sort();
    bots
}

/// Run `koth <game> <bots> <args>`; returns its stdout, failing on a non-zero status.
fn koth(game: &str, bots: &[PathBuf], args: &[&str], out: &Path) -> String {
    let o = Command::new(koth_tests::koth_bin())
        .arg(game)
        .args(bots)
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run koth");
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "koth {game} failed: {stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// The `Reuse:` line's figures: (played, taken).
fn reused(stdout: &str) -> (u64, u64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Reuse: played"))
        .unwrap_or_else(|| panic!("no Reuse line in {stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[2].parse().unwrap(), words[6].parse().unwrap())
}

struct Run {
    dir: tempfile::TempDir,
    n: usize,
}

impl Run {
    fn new() -> Run {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("bots")).unwrap();
        for b in SEED_BOTS {
            std::fs::copy(
                koth_tests::wasm(b),
                dir.path().join(format!("bots/{b}.wasm")),
            )
            .unwrap();
        }
        Run { dir, n: 0 }
    }

    fn bots(&self) -> PathBuf {
        self.dir.path().join("bots")
    }

    /// Play with the store, and again from scratch; the two archives must be the same.
    /// Returns (played, taken).
    fn step(&mut self, game: &str, args: &[&str]) -> (u64, u64) {
        self.n += 1;
        let store = self.dir.path().join("store");
        let with = self.dir.path().join(format!("with-{}", self.n));
        let fresh = self.dir.path().join(format!("fresh-{}", self.n));
        let bots = bots_in(&self.bots());
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["--reuse", store.to_str().unwrap()]);
        let out = koth(game, &bots, &a, &with);
        koth(game, &bots, args, &fresh);
        let (x, y) = (koth_tests::read_tree(&with), koth_tests::read_tree(&fresh));
        assert_eq!(
            x.keys().collect::<Vec<_>>(),
            y.keys().collect::<Vec<_>>(),
            "step {}: the archives hold different files",
            self.n
        );
        for (k, v) in &x {
            assert!(
                y[k] == *v,
                "step {}: {k} differs from a run from scratch",
                self.n
            );
        }
        reused(&out)
    }
}

#[test]
fn a_changed_added_or_removed_coup_bot_plays_only_its_games() {
    let mut run = Run::new();
    let args = ["--rounds", "2", "--seed", "11", "--jobs", "2"];
    // 13 bots, every ordered pair twice: 13 x 12 x 2.
    assert_eq!(run.step("coup", &args), (312, 0));
    // Nothing changed: everything is taken.
    assert_eq!(run.step("coup", &args), (0, 312));
    // One bot changes (another program under its name): its 2 x 12 x 2 games are played.
    std::fs::copy(
        koth_tests::wasm("first_legal"),
        run.bots().join("random.wasm"),
    )
    .unwrap();
    assert_eq!(run.step("coup", &args), (48, 264));
    // A bot is added: only its games are new.
    std::fs::copy(koth_tests::wasm("coup_c"), run.bots().join("coup_c.wasm")).unwrap();
    assert_eq!(run.step("coup", &args), (52, 312));
    // A bot is removed: nothing is new.
    std::fs::remove_file(run.bots().join("lawyer.wasm")).unwrap();
    assert_eq!(run.step("coup", &args), (0, 312));
    // More rounds: only the new rounds' games are played.
    let more = ["--rounds", "3", "--seed", "11", "--jobs", "2"];
    assert_eq!(run.step("coup", &more), (156, 312));
}

#[test]
fn bank_heist_reuses_nothing_when_a_bot_changes_and_says_so() {
    let mut run = Run::new();
    for b in SEED_BOTS {
        std::fs::remove_file(run.bots().join(format!("{b}.wasm"))).unwrap();
    }
    for b in ["lurker", "gun_heck", "heist_master"] {
        std::fs::copy(koth_tests::wasm(b), run.bots().join(format!("{b}.wasm"))).unwrap();
    }
    let args = ["--tournaments", "2", "--games", "20", "--seed", "5"];
    assert_eq!(run.step("bank-heist", &args), (2, 0));
    assert_eq!(run.step("bank-heist", &args), (0, 2));
    std::fs::copy(
        koth_tests::wasm("snitcher_king"),
        run.bots().join("lurker.wasm"),
    )
    .unwrap();
    assert_eq!(run.step("bank-heist", &args), (2, 0));
    let bots = bots_in(&run.bots());
    let fresh_store = run.dir.path().join("another-store");
    let out = koth(
        "bank-heist",
        &bots,
        &[
            "--tournaments",
            "3",
            "--games",
            "20",
            "--seed",
            "6",
            "--reuse",
            fresh_store.to_str().unwrap(),
        ],
        &run.dir.path().join("x"),
    );
    assert!(
        out.contains("every bot plays in all of bank-heist's tournaments"),
        "{out}"
    );
}
