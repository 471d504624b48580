//! Seeded random sequences of WASI filesystem calls, run as real wasm modules: opens with
//! every flag, reads and writes at offsets, seeks, truncates, renames, symlinks, readdir with
//! cookies, mkdir, rmdir, unlink, stat. Each call's errno and results are printed by the bot.
//!
//! Checked here: every sequence ends `ok` (no trap, no host fault), the same sequence gives
//! byte-identical output and an identical tree on a second run, and the directory's quota
//! accounting matches what the tree holds. The same modules run against wasmtime-wasi in the
//! differential test, `tests/wasi-diff` (its own workspace; see the README's issue 6 section).
//!
//! `KOTH_WASI_SEQ_SEEDS=N` runs N seeds instead of the default 16.

use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Invocation, Limits, Outcome, Sandbox, SandboxOptions, Vfs, VfsLimits};

// The generator is shared with the differential test (its own workspace, so included by path);
// this test uses only part of it.
#[allow(dead_code)]
#[path = "../wasi-diff/src/sequence.rs"]
mod sequence;

/// The WAT module of one sequence of `n` calls from `seed`.
fn module_text(seed: u64, n: usize) -> String {
    sequence::render(&sequence::generate(seed, n))
}

fn seeds() -> u64 {
    std::env::var("KOTH_WASI_SEQ_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16)
}

#[test]
fn random_wasi_sequences_are_deterministic_and_keep_the_quota_exact() {
    let sb = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    let inv = Invocation {
        args: Vec::new(),
        stdin: Vec::new(),
        seed: [0; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    let mut with_data = 0;
    for seed in 0..seeds() {
        let text = module_text(seed, 120);
        let wasm = wat::parse_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let bot = sb
            .load_bytes("seq", &wasm)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut runs = Vec::new();
        for _ in 0..2 {
            let mut dir = Vfs::new(VfsLimits::default());
            let r = bot.invoke(&inv, Some(&mut dir));
            assert_eq!(r.outcome, Outcome::Ok, "seed {seed}: {r:?}");
            assert!(!r.stdout.is_empty(), "seed {seed}: nothing printed");
            // The quota counts exactly what the tree holds (no host files here).
            let snapshot = dir.snapshot();
            let bytes: u64 = snapshot
                .iter()
                .map(|e| match e {
                    SnapshotEntry::File(_, d) => d.len() as u64,
                    SnapshotEntry::Symlink(_, t) => t.len() as u64,
                    SnapshotEntry::Dir(_) => 0,
                })
                .sum();
            assert_eq!(dir.used_bytes(), bytes, "seed {seed}");
            assert_eq!(dir.used_nodes() as usize, snapshot.len(), "seed {seed}");
            runs.push((r.stdout, r.fuel_used, snapshot));
        }
        assert_eq!(runs[0], runs[1], "seed {seed}: two runs differ");
        let written = |e: &SnapshotEntry| matches!(e, SnapshotEntry::File(_, d) if !d.is_empty());
        if runs[0].2.iter().any(written) {
            with_data += 1;
        }
    }
    // The sequences do reach the interesting states: many leave a file with content.
    assert!(
        with_data * 4 >= seeds(),
        "{with_data} of {} seeds wrote data",
        seeds()
    );
}
