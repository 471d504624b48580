//! Every Coup example bot, as a tournament runs it (wasm32-wasip1 module in the koth sandbox),
//! in every situation of the table: outcome ok, exactly one legal action appended, a valid
//! Exchange on stdout when finishing one and nothing otherwise.
//!
//! The bots are found, not listed: every bin of `koth-example-bots` (build.rs reports what it
//! built) and every `example-bots/c/*.c`, so a new bot is tested as soon as it exists.

use koth::sandbox::{Sandbox, SandboxOptions};
use koth_tests::coup::situations;

/// Random streams to run each situation under: randomised bots choose differently.
const SEEDS: std::ops::Range<u8> = 0..4;

#[test]
fn every_coup_bot_answers_every_situation_legally() {
    let bots = koth_tests::coup_bots();
    assert!(!bots.is_empty(), "no Coup bot was built");
    let sandbox = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    let situations = situations();
    // One thread per bot: compiling and running them is independent.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = bots
            .iter()
            .map(|&name| {
                let (sandbox, situations) = (&sandbox, &situations);
                scope.spawn(move || {
                    let bot = match sandbox.load_file(&koth_tests::wasm(name), None) {
                        Ok(bot) => bot,
                        Err(e) => return vec![format!("bot `{name}` does not load: {e}")],
                    };
                    let mut failures = Vec::new();
                    for s in situations {
                        for seed in SEEDS {
                            if let Err(e) = s.run(&bot, seed) {
                                failures.push(format!("bot `{name}`: {e}"));
                            }
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .zip(&bots)
            .flat_map(|(h, name)| {
                h.join()
                    .unwrap_or_else(|_| vec![format!("bot `{name}`: the test thread panicked")])
            })
            .collect()
    });
    assert!(
        failures.is_empty(),
        "{} failure(s) among bots {bots:?}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The discovery is not vacuous: the bots that exist when this was written are found.
#[test]
fn discovers_the_example_bots() {
    let bots = koth_tests::coup_bots();
    for name in ["first_legal", "random", "coup_c"] {
        assert!(bots.contains(&name), "`{name}` missing from {bots:?}");
    }
}
