//! Attacks through WASI calls that are not about files: randomness, sleeping, output
//! floods, sockets, and pointers outside linear memory.

use crate::common::*;
use koth::sandbox::{Errno, Invocation, Limits, Outcome};

#[test]
fn random_get_of_1_gib_is_refused() {
    let sb = sandbox();
    let bot = load(&sb, "random_1gib");
    let guard = heavy();
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let v = values(&r);
    assert_eq!(
        v[..6],
        errnos(&[
            Errno::Inval,
            Errno::Inval,
            Errno::Success,
            Errno::Success,
            Errno::Fault,
            Errno::Fault
        ])[..]
    );
    assert_ne!(v[6], 0, "the 1 MiB request filled its buffer");
    assert_eq!(v[7], 1, "a refused call wrote nothing");
    // The 1 MiB that was granted was paid for: 100 per call plus one per byte.
    assert!(r.fuel_used > MIB + 6 * 100, "{}", r.fuel_used);
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    // Same seed, same bytes; another seed, other bytes.
    assert_eq!(values(&run(&bot, &mut coup_dir()))[6], v[6]);
    let other = bot.invoke(
        &Invocation {
            seed: [9; 32],
            ..invocation()
        },
        Some(&mut coup_dir()),
    );
    assert_ne!(values(&other)[6], v[6]);
    assert_host_unharmed(&sb);
}

/// Sleeping for u64::MAX nanoseconds returns at once and moves only the virtual clock. (No
/// timing assertion: that the test finishes is the point.)
#[test]
fn sleeping_forever_returns_at_once_on_the_virtual_clock() {
    let sb = sandbox();
    let bot = load(&sb, "sleep_forever");
    let start = 5_000_000_000u64;
    let r = bot.invoke(
        &Invocation {
            clock_start_ns: start,
            ..invocation()
        },
        Some(&mut coup_dir()),
    );
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let v: Vec<u64> = values(&r).into_iter().map(|x| x as u64).collect();
    assert_eq!(v.len(), 14);
    let (t0, t1) = (v[0], v[6]);
    // The clock starts at the invocation's start plus the fuel burnt so far.
    assert!((start..start + 1000).contains(&t0), "t0 = {t0}");
    assert_eq!(v[1..6], [0, 1, 0x1111, 0, 0], "one clock event, no error");
    // An hour passed, virtually: t1 - t0 is the hour plus the fuel of the calls in between
    // (each with its iovecs and subscriptions).
    let hour = 3_600_000_000_000u64;
    assert!(
        (hour..hour + 1500).contains(&(t1 - t0)),
        "t1 - t0 = {}",
        t1 - t0
    );
    assert_eq!(v[7..12], [0, 1, 0x2222, 0, 0]);
    // After sleeping u64::MAX ns both clocks saturate at the end of time.
    assert_eq!(v[12], u64::MAX, "monotonic after the endless sleep");
    assert_eq!(v[13], u64::MAX, "realtime after the endless sleep");
    assert!(r.fuel_used < 10_000, "{}", r.fuel_used);
    assert_host_unharmed(&sb);
}

#[test]
fn one_gib_to_stdout_is_an_output_limit_with_64_kib_kept() {
    let sb = sandbox();
    let bot = load(&sb, "stdout_flood");
    let guard = heavy();
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutputLimit);
    assert_eq!(
        r.stdout,
        vec![b'o'; 64 << 10],
        "exactly the 16 writes of 4 KiB before the cap"
    );
    assert!(r.stderr.is_empty());
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

#[test]
fn one_gib_to_stdout_in_one_call_keeps_nothing_of_it() {
    let sb = sandbox();
    let bot = load(&sb, "stdout_one_write");
    let guard = heavy();
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutputLimit);
    assert!(r.stdout.is_empty(), "{} bytes kept", r.stdout.len());
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

/// 1 GiB to stderr, 1 MiB per call: 64 KiB kept, the rest counted. Filling the buffer costs
/// 2^20 fuel (wasmtime charges memory.fill per byte) and each call 100 + 2^20 plus a dozen
/// instructions, so the default billion runs out in call 953 (after 952 calls about 630,000
/// fuel is left); that call's bytes are counted too (the host call acts, then charges).
#[test]
fn one_gib_to_stderr_keeps_64_kib_and_runs_out_of_fuel() {
    let sb = sandbox();
    let bot = load(&sb, "stderr_flood");
    let guard = heavy();
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutOfFuel);
    assert_eq!(r.stderr, vec![b'e'; 64 << 10]);
    assert_eq!(r.stderr_dropped, 953 * MIB - (64 << 10));
    assert!(r.stdout.is_empty());
    assert_eq!(r.fuel_used, Limits::default().fuel);
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

/// With enough fuel the whole GiB goes through: still 64 KiB kept, the outcome ok.
#[test]
fn one_gib_to_stderr_with_enough_fuel_is_ok() {
    let sb = sandbox();
    let bot = load(&sb, "stderr_flood");
    let guard = heavy();
    let r = bot.invoke(
        &invocation_with(Limits {
            fuel: 2_000_000_000,
            ..Limits::default()
        }),
        Some(&mut coup_dir()),
    );
    assert_eq!(r.outcome, Outcome::Ok);
    assert_eq!(r.stdout, b"done");
    assert_eq!(r.stderr, vec![b'e'; 64 << 10]);
    assert_eq!(r.stderr_dropped, (1 << 30) - (64 << 10));
    assert!(
        r.fuel_used > 1 << 30,
        "every byte was charged: {}",
        r.fuel_used
    );
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

#[test]
fn sockets_do_not_exist() {
    let sb = sandbox();
    let bot = load(&sb, "sockets");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    use Errno::*;
    assert_eq!(
        values(&r),
        errnos(&[Notsock, Notsock, Notsock, Notsock, Notsock, Badf, Badf])
    );
    assert_host_unharmed(&sb);
}

#[test]
fn pointers_outside_memory_are_efault() {
    let sb = sandbox();
    let bot = load(&sb, "bad_pointers");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    use Errno::*;
    #[rustfmt::skip]
    let expected = errnos(&[
        Fault, Fault, Fault, Inval, Inval,         // fd_write
        Fault,                                     // fd_read
        Fault, Fault, Fault,                       // clock_time_get, random_get
        Fault, Fault, Fault,                       // args
        Fault, Nametoolong, Fault,                 // path_open
        Fault, Inval, Inval, Fault,                // poll_oneoff
        Fault, Fault, Fault,                       // prestat name, readdir, fdstat
    ]);
    assert_eq!(values(&r), expected);
    assert!(
        r.stderr.is_empty(),
        "no byte of a faulting write reached stderr"
    );
    assert_eq!(d.snapshot(), vec![file("history.txt", HISTORY)]);
    assert_host_unharmed(&sb);
}

/// Fuel accounting, measured from inside: each host call costs 100 fuel plus one per byte it
/// moves, and the monotonic clock is the invocation's start plus the fuel used.
#[test]
fn host_calls_cost_100_fuel_plus_one_per_byte_and_the_clock_follows_fuel() {
    let sb = sandbox();
    let bot = load(&sb, "fuel_meter");
    let start = 3_000_000_000u64;
    let meter = |n: u32, k: u32, j: u32| {
        let stdin = [n, k, j].iter().flat_map(|x| x.to_le_bytes()).collect();
        let r = bot.invoke(
            &Invocation {
                stdin,
                clock_start_ns: start,
                ..invocation()
            },
            None,
        );
        assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
        assert_eq!(r.stderr.len(), n as usize);
        // The clock was read just before the last host call (100, 32 for its one iovec,
        // 8 bytes) and a few instructions: the fuel used is the clock's advance plus that.
        let clock = u64::from_le_bytes(r.stdout[..8].try_into().unwrap());
        let tail = r.fuel_used - (clock - start);
        assert!(
            (100 + 100 + 32 + 8..100 + 100 + 32 + 8 + 20).contains(&tail),
            "fuel after the clock read: {tail}"
        );
        r.fuel_used
    };
    let base = meter(0, 0, 0);
    assert_eq!(
        meter(1000, 0, 0) - base,
        2 * 1000,
        "random_get and fd_write: one per byte"
    );
    assert_eq!(meter(65536, 0, 0) - base, 2 * 65536);
    assert_eq!(
        meter(0, 1000, 0) - meter(0, 0, 1000),
        1000 * 100,
        "100 per host call"
    );
    // Deterministic: the same input, the same fuel.
    assert_eq!(meter(777, 3, 5), meter(777, 3, 5));
    assert_host_unharmed(&sb);
}

/// One read or write call moves at most 1 MiB to or from a file.
#[test]
fn one_call_moves_at_most_1_mib() {
    let sb = sandbox();
    let bot = load(&sb, "big_io");
    let guard = heavy();
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let mib = MIB as i64;
    assert_eq!(values(&r), vec![0, mib, 0, mib, errno(Errno::Nospc), 0, 0]);
    assert_eq!(d.snapshot()[0], file("big", &vec![b'b'; MIB as usize]));
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

/// A bot given no directory (Bank Heist) has nothing to open, list or create.
#[test]
fn without_a_directory_every_path_call_is_ebadf() {
    let sb = sandbox();
    let bot = load(&sb, "no_dir");
    let r = bot.invoke(&invocation(), None);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(values(&r), vec![errno(Errno::Badf); 9]);
    assert_host_unharmed(&sb);
}
