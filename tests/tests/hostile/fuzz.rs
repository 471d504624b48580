//! The sandbox's fuzzing property (`koth::sandbox::fuzz`) on every input kept in the
//! repository's corpus (`fuzz/corpus/sandbox/`, what the coverage-guided fuzzer found worth
//! keeping, findings included) and on a bounded set of seeded random inputs: every module the
//! loader accepts ends in a bot outcome, never a host fault, in a time its fuel paid for.
//!
//! The bound here is 4× a pure loop's time for the fuel used (plus 20 ms to instantiate) in
//! the fastest of three runs, twice the goal, so that a loaded CI machine does not fail it;
//! `scripts/fuzz` runs the coverage-guided fuzzer at the goal's 2×, and `koth bench hostcalls`
//! gives the figures. Seeded input 48 was this run's first finding: two nested empty loops
//! branching to the outer one ran at 8× (999 of them at 537×); `loop` now costs one fuel
//! (`koth::sandbox::engine::OPERATOR_COSTS`), and its bytes are kept in the corpus as
//! `nested-loops`.

use crate::common::*;
use koth::sandbox::fuzz::{Property, Verdict};
use rand::{Rng, SeedableRng};
use std::path::PathBuf;

/// Random inputs per run: about 15 s on two cores.
const SEEDED: usize = 300;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../fuzz/corpus/sandbox"
    ));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a corpus entry").path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let data = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (format!("corpus {}", p.display()), data)
        })
        .collect()
}

fn seeded() -> Vec<(String, Vec<u8>)> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x6b6f7468);
    (0..SEEDED)
        .map(|i| {
            let len = rng.random_range(64..8192);
            let data: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            (format!("seeded input {i}"), data)
        })
        .collect()
}

#[test]
fn fuzzed_modules_end_in_bot_outcomes_their_fuel_paid_for() {
    let sb = sandbox();
    let prop = Property::measure(&sb, 20_000_000, 4.0).expect("the pure loop");
    let inputs: Vec<_> = corpus().into_iter().chain(seeded()).collect();
    let (mut kept, mut refused, mut none) = (0, 0, 0);
    let mut worst = (0.0f64, String::new());
    let mut outcomes = std::collections::BTreeMap::<String, usize>::new();
    let mut refusals = std::collections::BTreeMap::<String, usize>::new();
    let mut broken = Vec::new();
    for (label, data) in &inputs {
        match prop.check(&sb, data) {
            Verdict::NoModule => none += 1,
            Verdict::Refused(why) => {
                refused += 1;
                // Offsets and indices aside, so that the same refusal counts once.
                let why: String = why
                    .rsplit(": ")
                    .next()
                    .unwrap_or_default()
                    .chars()
                    .filter(|c| !c.is_ascii_digit())
                    .take(80)
                    .collect();
                *refusals.entry(why).or_default() += 1;
            }
            Verdict::Kept {
                outcome,
                ratio,
                fuel_used,
            } => {
                kept += 1;
                let kind = outcome.split('(').next().unwrap_or_default().to_string();
                *outcomes.entry(kind).or_default() += 1;
                if ratio > worst.0 {
                    worst = (ratio, format!("{label}: {outcome} after {fuel_used} fuel"));
                }
            }
            Verdict::Broken(why) => broken.push(format!("{label}: {why}")),
        }
    }
    println!(
        "{} inputs: {kept} ran, {refused} refused at load, {none} made no module; outcomes {outcomes:?}; worst {:.2}x of the bound ({}); refusals {refusals:?}",
        inputs.len(),
        worst.0,
        worst.1
    );
    assert!(
        broken.is_empty(),
        "the property failed:\n{}",
        broken.join("\n")
    );
    // The generator must really make bots: a run where nearly everything was refused or made
    // nothing would prove nothing.
    assert!(
        kept >= inputs.len() / 2,
        "only {kept} of {} inputs ran",
        inputs.len()
    );
    assert_host_unharmed(&sb);
}
