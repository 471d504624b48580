//! The Coup bots written in C++, Zig, AssemblyScript and Go (`example-bots/{cpp,zig,
//! assemblyscript,go}`, built by build.rs with each language's own toolchain into WASI
//! preview 1 modules) play Coup through the koth sandbox: every protocol situation answered
//! legally, tournaments completed without a forfeit, and the archive the same at any `--jobs`.
//!
//! A language whose toolchain could not be installed is left out only when `KOTH_SKIP_LANGUAGES`
//! or `target/koth-skip-languages` (where `scripts/setup` records a failed install) says so; its
//! test is then reported as ignored, by the bot's name, and the mixed tournament prints a
//! `SKIPPED:` line for it.

use koth::games::coup::tournament::{self, CoupOptions};
use koth::sandbox::{Bot, CodeCache, Sandbox, SandboxOptions};
use koth_tests::coup::{situation, situations};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The module build.rs made for a language bot.
fn module(name: &str) -> PathBuf {
    assert!(
        koth_tests::LANGUAGE_BOTS.contains(&name),
        "build.rs built no language bot `{name}` (built: {:?}, skipped: {:?})",
        koth_tests::LANGUAGE_BOTS,
        koth_tests::SKIPPED_LANGUAGE_BOTS
    );
    koth_tests::bots_dir().join(format!("{name}.wasm"))
}

fn load(sb: &Sandbox, path: &Path) -> Bot {
    sb.load_file(path, None)
        .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()))
}

/// A sandbox on the machine's compiled-code cache: the Python interpreter's snapshot (two
/// compiles of a 26 MB module) is made once per machine, not once per run.
fn sandbox() -> Sandbox {
    Sandbox::new(SandboxOptions {
        cache_dir: CodeCache::default_dir(),
        ..SandboxOptions::default()
    })
    .expect("sandbox")
}

/// Every language bot exists: built, or skipped by name. A bot that vanished from the build
/// (a renamed file, a toolchain silently ignored) fails here instead of passing untested.
#[test]
fn every_language_has_its_bot() {
    let mut all: Vec<&str> = koth_tests::LANGUAGE_BOTS.to_vec();
    all.extend(koth_tests::SKIPPED_LANGUAGE_BOTS.iter().map(|(n, _)| *n));
    all.sort_unstable();
    assert_eq!(all, ["coup_as", "coup_cpp", "coup_go", "coup_zig"]);
    for (name, why) in koth_tests::SKIPPED_LANGUAGE_BOTS {
        eprintln!("SKIPPED: {name}: {why}");
    }
}

/// Answers every bot gives, honest players all: they Tax with a Duke, Coup at 7+, block with
/// the real card, reveal the card they were challenged on, and challenge a provable lie or an
/// Assassination of their last card.
#[rustfmt::skip]
const HONEST: &[(&str, &str, &str)] = &[
    // (situation, appended, stdout)
    ("open-duke", "T", ""),
    ("open-ambassador", "E", ""),
    ("turn-4-coins-assassin", "A", ""),
    ("turn-7-coins", "C", ""),
    ("turn-10-coins", "C", ""),
    ("respond-F-duke", "d", ""),
    ("respond-F", "p", ""),
    ("respond-T", "p", ""),
    ("respond-T-three-dukes", "q", ""),
    ("respond-S-captain", "c", ""),
    ("respond-S-ambassador", "a", ""),
    ("respond-A-contessa", "s", ""),
    ("respond-A-last-card", "q", ""),
    ("challenged-T-duke", "$", ""),
    ("challenged-T-bluff", "_\n", ""),
    ("challenged-s-contessa", "!", ""),
    ("blocked-d", "\n", ""),
    ("exchange-3", "\n", "$"),
    ("exchange-4-same", "\n", "$~"), // a second Duke adds nothing
];

/// Every situation legally answered under three random streams, the honest answers and the
/// bot's own (`signature`: where its strategy differs), then a 2-round tournament against two
/// Rust example bots, completed without a forfeit by anyone.
fn plays_coup(name: &str, signature: &[(&str, &str, &str)]) {
    let sb = sandbox();
    let bot = load(&sb, &module(name));
    assert_eq!(bot.name(), name);
    let mut failures = Vec::new();
    for s in situations() {
        for seed in 0..3 {
            if let Err(e) = s.run(&bot, seed) {
                failures.push(e);
            }
        }
    }
    for &(sit, appended, stdout) in HONEST.iter().chain(signature) {
        let s = situation(sit);
        match s.run(&bot, 0) {
            Ok(a) if a.appended == appended && a.stdout == stdout => {}
            Ok(a) => failures.push(format!(
                "{}\n    expected {appended:?} (stdout {stdout:?}), got {:?} (stdout {:?})",
                s.describe(),
                a.appended,
                a.stdout
            )),
            Err(e) => failures.push(e),
        }
    }
    assert!(failures.is_empty(), "{name}:\n{}", failures.join("\n"));

    let random = load(&sb, &koth_tests::wasm("random"));
    let lawyer = load(&sb, &koth_tests::wasm("lawyer"));
    let players = koth_tests::players([&bot, &random, &lawyer]);
    let opts = CoupOptions {
        rounds: 2,
        seed: 9,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, 2, &|_, _| {}).unwrap();
    assert_eq!(t.records.len(), 12);
    assert_eq!(t.void_games(), 0);
    for row in &t.leaderboard.rows {
        assert!(
            row.forfeits.is_empty(),
            "{name} vs random and lawyer: {} forfeited {:?}",
            row.bot,
            row.forfeits
        );
    }
    let row = t.leaderboard.rows.iter().find(|r| r.bot == name).unwrap();
    assert_eq!(row.games, 8, "{name}: {row:?}");
    // A real player, not a stub that only survives: it wins some of its games.
    assert!(row.wins >= 1, "{name} won no game: {row:?}");
    // Fuel per invocation, for the README's table (shown with --nocapture).
    println!(
        "{name}: {} invocations, {} fuel each on average, {} wins in {} games",
        row.invocations,
        row.fuel / row.invocations.max(1),
        row.wins,
        row.games
    );
}

#[test]
#[cfg_attr(
    koth_skip_cpp,
    ignore = "SKIPPED: coup_cpp: C++ toolchain unavailable (see SKIPPED_LANGUAGE_BOTS)"
)]
fn coup_cpp_plays_without_forfeits() {
    #[rustfmt::skip]
    plays_coup("coup_cpp", &[
        // Keeps the Captain (its thief's engine) over the Duke, and gives the Duke up first.
        ("exchange-4", "\n", "*$"),
        ("respond-C", "0", ""),
        ("open-assassins", "F", ""),
    ]);
}

#[test]
#[cfg_attr(
    koth_skip_zig,
    ignore = "SKIPPED: coup_zig: Zig toolchain unavailable (see SKIPPED_LANGUAGE_BOTS)"
)]
fn coup_zig_plays_without_forfeits() {
    #[rustfmt::skip]
    plays_coup("coup_zig", &[
        // Never asks for Foreign Aid: Tax or Income.
        ("open-assassins", "I\n", ""),
        ("turn-one-card-opponent-broke", "I\n", ""),
        ("exchange-4", "\n", "$*"),
        ("respond-C", "<", ""),
    ]);
}

#[test]
#[cfg_attr(
    koth_skip_assemblyscript,
    ignore = "SKIPPED: coup_as: AssemblyScript toolchain unavailable (see SKIPPED_LANGUAGE_BOTS)"
)]
fn coup_as_plays_without_forfeits() {
    #[rustfmt::skip]
    plays_coup("coup_as", &[
        // Backs its Assassins with a Contessa rather than a Captain, and gives up the
        // Assassin last.
        ("exchange-4", "\n", "$!"),
        ("exchange-4-challenged", "\n", "^$"),
        ("failed-challenge-s", "0\n", ""),
        ("open-assassins", "F", ""),
    ]);
}

#[test]
#[cfg_attr(
    koth_skip_go,
    ignore = "SKIPPED: coup_go: Go toolchain unavailable (see SKIPPED_LANGUAGE_BOTS)"
)]
fn coup_go_plays_without_forfeits() {
    #[rustfmt::skip]
    plays_coup("coup_go", &[
        ("open-assassins", "F", ""),
        ("exchange-4", "\n", "$*"),
        ("respond-C", "<", ""),
    ]);
}

/// One tournament's archive, read back and removed.
fn archive(bots: &[(Bot, PathBuf)], sb: &Sandbox, jobs: usize) -> BTreeMap<String, Vec<u8>> {
    let players = koth_tests::players(bots.iter().map(|(b, _)| b));
    // One round: every ordered pair once (a Python decision costs 0.1 s: more rounds would
    // make this the suite's slowest test without testing more).
    let opts = CoupOptions {
        rounds: 1,
        seed: 17,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, jobs, &|_, _| {}).unwrap();
    let n = bots.len();
    assert_eq!(t.records.len(), n * (n - 1));
    assert_eq!(t.void_games(), 0);
    for row in &t.leaderboard.rows {
        assert!(
            row.forfeits.is_empty() && row.games == 2 * (n as u64 - 1),
            "--jobs {jobs}: {row:?}"
        );
    }
    koth_tests::coup_archive(&t, bots, opts, sb)
}

/// Every language bot, the C bot, two Rust bots, the Python script and every Coup component
/// (Rust, Python, JavaScript) in one tournament: no forfeit anywhere, and the archive byte for byte the same with one
/// worker and with two.
#[test]
fn a_mixed_language_tournament_is_complete_and_deterministic() {
    for (name, why) in koth_tests::SKIPPED_LANGUAGE_BOTS {
        println!("SKIPPED: {name}: {why}");
        eprintln!("SKIPPED: {name}: {why}");
    }
    let sb = sandbox();
    let mut paths: Vec<PathBuf> = koth_tests::LANGUAGE_BOTS
        .iter()
        .map(|n| module(n))
        .collect();
    paths.extend(["coup_c", "random", "lawyer"].map(koth_tests::wasm));
    // The other kinds of bot: the Python script, run by CPython for WASI...
    if cfg!(koth_skip_python) {
        println!("SKIPPED: coup_py: no CPython for WASI (see SKIPPED_LANGUAGE_BOTS)");
        eprintln!("SKIPPED: coup_py: no CPython for WASI (see SKIPPED_LANGUAGE_BOTS)");
    } else {
        paths.push(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-bots/python/coup/coup_py.py"),
        );
    }
    let mut bots: Vec<(Bot, PathBuf)> = paths.into_iter().map(|p| (load(&sb, &p), p)).collect();
    // ...and every component that plays Coup (typed coup-bot worlds: Rust, and the Python and
    // JavaScript ones when their toolchains installed).
    for (name, why) in koth_tests::SKIPPED_LANGUAGE_COMPONENT_BOTS {
        println!("SKIPPED: {name}: {why}");
        eprintln!("SKIPPED: {name}: {why}");
    }
    let mut components = 0;
    for name in koth_tests::COMPONENT_BOTS
        .iter()
        .chain(koth_tests::LANGUAGE_COMPONENT_BOTS)
    {
        let path = koth_tests::bots_dir().join(format!("{name}.wasm"));
        let bot = load(&sb, &path);
        if koth::worlds::check_game(&bot, "coup").is_ok() {
            bots.push((bot, path));
            components += 1;
        }
    }
    assert!(
        components >= 1,
        "no Coup component among {:?}",
        koth_tests::COMPONENT_BOTS
    );
    let one = archive(&bots, &sb, 1);
    let two = archive(&bots, &sb, 2);
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>(),
        "file lists differ"
    );
    for (k, v) in &one {
        assert!(v == &two[k], "{k} differs between --jobs 1 and --jobs 2");
    }
    let n = bots.len();
    assert_eq!(
        one.keys()
            .filter(|k| k.starts_with("matches.zip.zst/histories/"))
            .count(),
        n * (n - 1)
    );
}
