//! Attacks on memory and tables: growing past the caps at run time, declaring too much at
//! load time, and looking for what an earlier instance left behind.

use crate::common::*;
use koth::sandbox::{Limits, LoadError, Outcome, TrapKind};

#[test]
fn memory_grow_past_the_cap_returns_minus_one() {
    let sb = sandbox();
    let bot = load(&sb, "grow_refused");
    let guard = heavy();
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(values(&r), vec![1, -1, -1, 1024, 7]);
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

#[test]
fn memory_grow_refused_then_trap_is_out_of_memory() {
    let sb = sandbox();
    let bot = load(&sb, "grow_then_trap");
    let guard = heavy();
    for _ in 0..4 {
        let r = run(&bot, &mut coup_dir());
        assert_eq!(r.outcome, Outcome::OutOfMemory, "{r:?}");
    }
    // Four times 64 MiB touched: the pool slot is wiped and given back, not kept resident.
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

/// A Rust bot that allocates until the allocator fails: Rust prints its message and aborts
/// with `unreachable`, which the sandbox reports as out of memory.
#[test]
fn rust_allocation_failure_is_out_of_memory() {
    let sb = sandbox();
    let bot = load_rust(&sb, "probe_oom");
    let guard = heavy();
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutOfMemory, "{r:?}");
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(
        stderr.contains("memory allocation of 1048576 bytes failed"),
        "{stderr}"
    );
    // It got 62 or 63 blocks of 1 MiB before the 64 MiB cap (the rest is its stack and data).
    let stdout = String::from_utf8_lossy(&r.stdout);
    let last: u32 = stdout
        .lines()
        .last()
        .and_then(|l| l.strip_suffix(" MiB"))
        .unwrap()
        .parse()
        .unwrap();
    assert!((60..64).contains(&last), "{stdout}");
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

/// Linear memory of a reused slot is wiped: no instance sees what the previous one wrote.
#[test]
fn memory_is_wiped_between_instances() {
    let sb = sandbox();
    let bot = load(&sb, "memory_scavenger");
    let guard = heavy();
    for i in 0..3 {
        let r = run(&bot, &mut coup_dir());
        assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
        assert_eq!(values(&r), vec![1024, 0], "run {i} found leftovers");
    }
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

fn assert_load_error(name: &str, check: impl FnOnce(&LoadError) -> bool, words: &[&str]) {
    let sb = sandbox();
    let err = sb
        .load_bytes(name, &wat(name))
        .expect_err("the module must be rejected");
    assert_eq!(err.bot, name);
    assert!(err.file.is_none());
    assert!(
        check(&err.error),
        "{name}: unexpected error {:?}",
        err.error
    );
    let shown = err.to_string();
    assert!(shown.contains(&format!("`{name}`")), "{shown}");
    for w in words {
        assert!(shown.contains(w), "{name}: {shown:?} does not say {w:?}");
    }
    assert_host_unharmed(&sb);
}

#[test]
fn declared_minimum_memory_above_the_cap_is_refused_at_load() {
    assert_load_error(
        "memory_min_too_big",
        |e| matches!(e, LoadError::Memory(_)),
        &["minimum memory", "above the 64 MiB limit"],
    );
}

/// The message must not contradict itself: 1025 pages is 64 MiB + 64 KiB, which the loader
/// rounds down to "a minimum memory of 64 MiB, above the 64 MiB limit".
#[test]
fn declared_minimum_memory_message_states_a_size_above_the_limit() {
    let sb = sandbox();
    let err = sb
        .load_bytes("memory_min_too_big", &wat("memory_min_too_big"))
        .unwrap_err();
    let shown = err.to_string();
    assert!(
        !shown.contains("of 64 MiB, above the 64 MiB limit"),
        "{shown}"
    );
}

#[test]
fn second_memory_is_refused_at_load() {
    assert_load_error(
        "memory_second",
        |e| matches!(e, LoadError::Memory(_)),
        &["second memory"],
    );
}

#[test]
fn shared_memory_is_refused_at_load() {
    assert_load_error(
        "memory_shared",
        |e| matches!(e, LoadError::Memory(_)),
        &["shared memory"],
    );
}

#[test]
fn memory64_is_refused_at_load() {
    assert_load_error(
        "memory64",
        |e| matches!(e, LoadError::Memory(_)),
        &["64-bit memory"],
    );
}

#[test]
fn imported_memory_is_refused_at_load() {
    assert_load_error(
        "memory_import",
        |e| matches!(e, LoadError::UnknownImport(_)),
        &["a memory `wasi_snapshot_preview1::memory`"],
    );
}

#[test]
fn declared_huge_table_is_refused_at_load() {
    assert_load_error(
        "table_declared_huge",
        |e| matches!(e, LoadError::Table(_)),
        &["table of 10001 elements, above the 10000-element limit"],
    );
}

#[test]
fn table_grow_past_the_cap_returns_minus_one() {
    let sb = sandbox();
    let bot = load(&sb, "table_grow");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(values(&r), vec![1, -1, -1, 10_000]);
    assert_host_unharmed(&sb);
}

/// wasmtime charges table.grow per element requested, even when the grow is refused: a
/// 2^31-element request exhausts the default fuel in one instruction (deterministically, and
/// without allocating anything).
#[test]
fn table_grow_by_2_pow_31_runs_out_of_fuel() {
    let sb = sandbox();
    let bot = load(&sb, "table_grow_huge");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutOfFuel, "{r:?}");
    assert!(r.stdout.is_empty());
    // With fuel to spare the guest sees -1.
    let r = bot.invoke(
        &invocation_with(Limits {
            fuel: 3_000_000_000,
            ..Limits::default()
        }),
        Some(&mut coup_dir()),
    );
    assert_eq!(
        (r.outcome.clone(), values(&r)),
        (Outcome::Ok, vec![-1]),
        "{r:?}"
    );
    assert!(r.fuel_used > 0x7fff_ffff);
    assert_host_unharmed(&sb);
}

#[test]
fn table_grow_refused_then_trap_is_the_trap() {
    let sb = sandbox();
    let bot = load(&sb, "table_grow_then_trap");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(
        r.outcome,
        Outcome::Trap(TrapKind::TableOutOfBounds),
        "{r:?}"
    );
    assert_host_unharmed(&sb);
}
