//! The C example bot (`example-bots/c/coup_c.c`, plain C with wasi-libc, built by build.rs with
//! clang) plays Coup through the koth sandbox: proof that a bot need not be written in Rust.

use koth::sandbox::{Bot, Sandbox, SandboxOptions};
use koth_tests::coup::{situation, situations};

fn load() -> Bot {
    let sandbox = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    sandbox
        .load_file(&koth_tests::wasm("coup_c"), None)
        .unwrap_or_else(|e| panic!("the C bot does not load: {e}"))
}

/// Every situation of the table, under several random streams (the bot does not use them,
/// but a C runtime reading them must not change the outcome): outcome ok, one legal action
/// appended, a valid Exchange on stdout when finishing one and nothing otherwise.
#[test]
fn answers_every_situation_legally() {
    let bot = load();
    let mut failures = Vec::new();
    for s in situations() {
        for seed in 0..3 {
            if let Err(e) = s.run(&bot, seed) {
                failures.push(e);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "coup_c failed {} time(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The strategy its comments promise: honest claims, blocks only with the real card,
/// challenges only of a provable lie or to save its last card, gives up its least useful
/// card, keeps the most useful ones when exchanging.
#[test]
fn plays_its_honest_strategy() {
    let bot = load();
    #[rustfmt::skip]
    let expected: &[(&str, &str, &str)] = &[
        // (situation, appended, stdout)
        ("open-duke", "T", ""),
        ("open-ambassador", "E", ""),
        ("open-assassins", "F", ""), // 1 coin: cannot Assassinate yet
        ("second-player-first-turn", "E", ""),
        ("turn-4-coins-assassin", "A", ""),
        ("turn-7-coins", "C", ""),
        ("turn-10-coins", "C", ""),
        ("turn-one-card-opponent-broke", "F", ""),
        ("respond-F-duke", "d", ""),
        ("respond-F", "p", ""),
        ("respond-T", "p", ""),
        ("respond-T-three-dukes", "q", ""), // two Dukes in hand, the third face up
        ("respond-E", "p", ""),
        ("respond-S-captain", "c", ""),
        ("respond-S-ambassador", "a", ""),
        ("respond-S", "p", ""),
        ("respond-A-contessa", "s", ""),
        ("respond-A", "_", ""), // gives up the Ambassador, keeps the Duke
        ("respond-A-last-card", "q", ""), // losing anyway: the challenge is free
        ("respond-C", "<", ""), // Captain goes, Duke stays
        ("respond-C-two-dukes", "0", ""),
        ("challenged-T-duke", "$", ""),
        ("challenged-T-bluff", "_\n", ""),
        ("challenged-E-ambassador", "~", ""),
        ("challenged-S-captain", "*", ""),
        ("challenged-d-duke", "$", ""),
        ("challenged-d-bluff", "_", ""),
        ("challenged-s-contessa", "!", ""),
        ("failed-challenge-T", "_", ""),
        ("failed-challenge-d", "_\n", ""),
        ("failed-challenge-s", "'\n", ""), // Assassin goes, Duke stays
        ("blocked-d", "\n", ""),
        ("blocked-c", "\n", ""),
        ("blocked-a", "\n", ""),
        ("blocked-s", "\n", ""),
        ("passed-F", "\n", ""),
        ("passed-T", "\n", ""),
        ("coup-done", "\n", ""),
        ("exchange-4", "\n", "$*"),
        ("exchange-4-challenged", "\n", "$^"),
        ("exchange-3", "\n", "$"),
        ("exchange-4-same", "\n", "$~"), // a second Duke adds nothing
    ];
    let mut failures = Vec::new();
    for &(name, appended, stdout) in expected {
        let s = situation(name);
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
    // Every situation of the table has an expectation here, so a new one is not forgotten.
    for s in situations() {
        if !expected.iter().any(|(n, _, _)| *n == s.name) {
            failures.push(format!("no expected answer for situation `{}`", s.name));
        }
    }
    assert!(failures.is_empty(), "coup_c:\n{}", failures.join("\n"));
}

/// The C bot is the small, import-light module a C toolchain gives (the notes measured 33 KB
/// and 12 WASI functions), and it is run as the name it is given in argv[0].
#[test]
fn is_a_small_wasi_module() {
    let bytes = std::fs::read(koth_tests::wasm("coup_c")).unwrap();
    assert!(
        bytes.len() < 100_000,
        "coup_c.wasm is {} bytes",
        bytes.len()
    );
    assert_eq!(load().name(), "coup_c");
}
