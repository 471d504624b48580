//! Coverage-guided fuzzing of the sandbox: every module wasm-smith makes of the input, loaded
//! and invoked once, must end in a bot outcome (never a host fault or a panic) within
//! `KOTH_FUZZ_RATIO` (default 2) times a pure-wasm loop's time for the fuel it used.
//! Run by `scripts/fuzz`; a finding is copied into `corpus/sandbox/`, where the test suite
//! replays it (`tests/tests/hostile/fuzz.rs`).
#![no_main]

use koth::sandbox::fuzz::{Property, Verdict};
use koth::sandbox::{Sandbox, SandboxOptions};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Fuel per invocation: small, so that the fuzzer runs many inputs a second.
const FUEL: u64 = 2_000_000;

fn setup() -> &'static (Sandbox, Property) {
    static SETUP: OnceLock<(Sandbox, Property)> = OnceLock::new();
    SETUP.get_or_init(|| {
        let sb = Sandbox::new(SandboxOptions::default()).expect("a sandbox");
        let ratio = std::env::var("KOTH_FUZZ_RATIO")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(2.0);
        let prop = Property::measure(&sb, FUEL, ratio).expect("the pure loop");
        (sb, prop)
    })
}

fuzz_target!(|data: &[u8]| {
    let (sb, prop) = setup();
    if let Verdict::Broken(why) = prop.check(sb, data) {
        panic!("{why}");
    }
});
