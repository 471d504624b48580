//! Attacks on time: endless loops, endless host calls, deep recursion, traps, exits.

use crate::common::*;
use koth::sandbox::{Limits, Outcome, TrapKind};

#[test]
fn endless_loop_runs_out_of_fuel() {
    let sb = sandbox();
    let bot = load(&sb, "loop");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutOfFuel);
    assert_eq!(r.fuel_used, Limits::default().fuel);
    assert!(r.stdout.is_empty() && r.stderr.is_empty());
    assert_host_unharmed(&sb);
}

#[test]
fn endless_host_calls_run_out_of_fuel() {
    let sb = sandbox();
    let bot = load(&sb, "yield_loop");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::OutOfFuel);
    assert_eq!(r.fuel_used, Limits::default().fuel);
    assert_host_unharmed(&sb);
}

#[test]
fn endless_start_function_runs_out_of_fuel() {
    let sb = sandbox();
    let bot = load(&sb, "start_loop");
    let r = bot.invoke(
        &invocation_with(Limits {
            fuel: 50_000_000,
            ..Limits::default()
        }),
        Some(&mut coup_dir()),
    );
    assert_eq!(r.outcome, Outcome::OutOfFuel);
    assert_eq!(r.fuel_used, 50_000_000);
    assert_host_unharmed(&sb);
}

#[test]
fn start_function_may_call_wasi_and_exit() {
    let sb = sandbox();
    let bot = load(&sb, "start_exit");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Exit(5));
    assert_eq!(r.stdout, b"early\n");
    assert_host_unharmed(&sb);
}

/// With fuel set out of reach, the wall-clock backstop ends the loop, reported as a host
/// fault (never silently as a game result).
#[test]
fn wall_clock_backstop_fires_when_fuel_cannot() {
    let sb = sandbox();
    let bot = load(&sb, "loop");
    let limits = Limits {
        fuel: 1 << 60,
        wall_clock_ms: 200,
        ..Limits::default()
    };
    let r = bot.invoke(&invocation_with(limits), Some(&mut coup_dir()));
    match &r.outcome {
        Outcome::HostFault(why) => assert!(why.contains("200 ms wall-clock backstop"), "{why}"),
        other => panic!("expected the backstop's host fault, got {other:?}"),
    }
    assert_host_unharmed(&sb);
}

#[test]
fn deep_recursion_overflows_the_stack() {
    let sb = sandbox();
    let bot = load(&sb, "recursion");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Trap(TrapKind::StackOverflow));
    assert!(r.fuel_used < Limits::default().fuel);
    // Twice: the host's own stack is not left damaged by the first overflow.
    assert_eq!(
        run(&bot, &mut coup_dir()).outcome,
        Outcome::Trap(TrapKind::StackOverflow)
    );
    assert_host_unharmed(&sb);
}

fn assert_trap(name: &str, kind: TrapKind) {
    let sb = sandbox();
    let bot = load(&sb, name);
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Trap(kind), "{name}");
    assert_eq!(d.snapshot(), vec![file("history.txt", HISTORY)]);
    assert_host_unharmed(&sb);
}

#[test]
fn unreachable_traps() {
    assert_trap("trap_unreachable", TrapKind::Unreachable);
}

#[test]
fn out_of_bounds_load_traps() {
    assert_trap("trap_oob", TrapKind::MemoryOutOfBounds);
}

#[test]
fn store_straddling_the_end_of_memory_traps() {
    assert_trap("trap_oob_edge", TrapKind::MemoryOutOfBounds);
}

#[test]
fn division_by_zero_traps() {
    assert_trap("trap_div0", TrapKind::DivisionByZero);
}

#[test]
fn division_overflow_traps() {
    assert_trap("trap_overflow", TrapKind::IntegerOverflow);
}

#[test]
fn nan_to_integer_traps() {
    assert_trap("trap_conversion", TrapKind::BadConversion);
}

#[test]
fn indirect_call_to_null_entry_traps() {
    assert_trap("trap_indirect_null", TrapKind::IndirectCallToNull);
}

#[test]
fn indirect_call_outside_the_table_traps() {
    assert_trap("trap_indirect_oob", TrapKind::TableOutOfBounds);
}

#[test]
fn indirect_call_with_wrong_signature_traps() {
    assert_trap("trap_indirect_sig", TrapKind::BadSignature);
}

#[test]
fn proc_exit_3_is_exit_3() {
    let sb = sandbox();
    let bot = load(&sb, "exit3");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Exit(3));
    assert_eq!(r.stdout, b"bye\n");
    let r = load(&sb, "exit0").invoke(&invocation(), None);
    assert_eq!(r.outcome, Outcome::Ok);
    assert_host_unharmed(&sb);
}
