//! Fuel bounds the host's work: every WASI function, called in an endless loop with its
//! costliest arguments inside the quotas, ends `out of fuel` (or `ok` for `proc_exit`), never
//! with the wall-clock backstop's host fault (here 60 s, [`koth_tests::attack_limits`]: a
//! loop that paid for its work takes about a second, one that did not would take hours). The
//! loops are `koth_bench::hostcall_loops`, the same bots `koth bench hostcalls` times.

use crate::common::*;
use koth::sandbox::{Limits, Outcome, Report, Vfs, VfsLimits};
use koth_bench::hostcall_loops::{loops, HostcallLoop};

/// Run one loop with the default fuel (10⁹) and quotas, and the attacks' backstop.
fn run_loop(sb: &koth::sandbox::Sandbox, l: &HostcallLoop) -> Report {
    let wasm = l.module().unwrap_or_else(|e| panic!("{}: {e}", l.label()));
    let bot = sb
        .load_bytes(l.function, &wasm)
        .unwrap_or_else(|e| panic!("{}: {e}", l.label()));
    let mut dir = Vfs::new(VfsLimits::default());
    dir.put_host_file("history.txt", HISTORY);
    bot.invoke(&invocation(), Some(&mut dir))
}

fn assert_bounded(l: &HostcallLoop, r: &Report) {
    match &r.outcome {
        Outcome::OutOfFuel => assert_eq!(r.fuel_used, Limits::default().fuel, "{}", l.label()),
        Outcome::Ok if l.function == "proc_exit" => {}
        other => panic!(
            "{}: ended `{other}` after {} fuel; it must run out of fuel",
            l.label(),
            r.fuel_used
        ),
    }
}

/// Run every loop of `all`, two at a time (the suite's other tests share the machine too),
/// asserting each is bounded, then that the host is unharmed.
fn assert_all_bounded(all: &[HostcallLoop]) {
    let sb = sandbox();
    let (even, odd): (Vec<_>, Vec<_>) = all.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    std::thread::scope(|s| {
        for half in [even, odd] {
            let sb = &sb;
            s.spawn(move || {
                for (_, l) in half {
                    assert_bounded(l, &run_loop(sb, l));
                }
            });
        }
    });
    assert_host_unharmed(&sb);
}

fn the_loop(function: &str, what: &str) -> HostcallLoop {
    loops()
        .into_iter()
        .find(|l| l.function == function && l.what.contains(what))
        .unwrap_or_else(|| panic!("no loop {function}: {what}"))
}

/// The first attack: 40 symlinks to a file, stat'ed through the chain forever.
#[test]
fn symlink_chain_stat_loop_runs_out_of_fuel() {
    let sb = sandbox();
    let l = the_loop("path_filestat_get", "40-symlink chain");
    assert_bounded(&l, &run_loop(&sb, &l));
    assert_host_unharmed(&sb);
}

/// The second attack: 60 files with 201-byte names, listed from cookie 0 into a
/// 16-byte buffer forever.
#[test]
fn directory_listing_loop_runs_out_of_fuel() {
    let sb = sandbox();
    let l = the_loop("fd_readdir", "16-byte buffer, cookie 0");
    assert_bounded(&l, &run_loop(&sb, &l));
    assert_host_unharmed(&sb);
}

/// Every WASI function koth provides, each with its costliest loop (some with several).
#[test]
fn every_wasi_function_loop_runs_out_of_fuel() {
    assert_all_bounded(&loops());
}

/// The 0.3.0 hole: a loop of `memory.grow` that the limits refuse reached the wall-clock
/// backstop (a void match, no forfeit) with no fuel used. Every instruction whose host work
/// does not follow the instruction count (grows refused, accepted and empty; bulk memory and
/// table operations, empty and at their largest; subnormal floats) now ends `out of fuel`.
#[test]
fn every_instruction_loop_runs_out_of_fuel() {
    assert_all_bounded(&koth_bench::instruction_loops::loops());
}
