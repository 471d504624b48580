//! `koth bench hostcalls`: for every WASI function, the wall time a bot calling it in a loop
//! with its costliest arguments takes to burn its fuel, over the time a pure-wasm loop takes
//! for the same fuel; then the same for every instruction whose host work does not follow the
//! instruction count (grows, bulk memory and table operations, subnormal floats). Fuel bounds
//! the host's work when every ratio stays small (goal: 2×).

use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::sandbox::{Invocation, Limits, Vfs, VfsLimits};
use koth_bench::hostcall_loops::{self, HostcallLoop};
use koth_bench::instruction_loops;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct HostcallsBench {
    /// Fuel each loop burns.
    #[arg(long, default_value_t = Limits::default().fuel)]
    fuel: u64,
    /// Only the loops whose label contains this text.
    #[arg(long)]
    only: Option<String>,
    /// Runs of each loop; the fastest counts (the machine's noise only ever adds time).
    #[arg(long, default_value_t = 1)]
    runs: u32,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The fastest of `runs` invocations of `wasm`, in seconds, with its outcome.
fn time(
    sandbox: &koth::sandbox::Sandbox,
    name: &str,
    wasm: &[u8],
    fuel: u64,
    runs: u32,
) -> anyhow::Result<(f64, String, u64)> {
    let bot = sandbox.load_bytes(name, wasm)?;
    let inv = Invocation {
        args: [
            "history.txt",
            "1",
            "4",
            "~!",
            "I\n",
            "F",
            "E",
            "T",
            "A",
            "S",
        ]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect(),
        stdin: Vec::new(),
        seed: [1; 32],
        clock_start_ns: 0,
        limits: Limits {
            fuel,
            // The benchmark measures; the backstop must not cut a slow loop short.
            wall_clock_ms: 600_000,
            ..Limits::default()
        },
    };
    let mut best = f64::INFINITY;
    let mut last = (String::new(), 0);
    for _ in 0..runs.max(1) {
        let mut dir = Vfs::new(VfsLimits::default());
        dir.put_host_file("history.txt", b"I\n");
        let t = Instant::now();
        let r = bot.invoke(&inv, Some(&mut dir));
        best = best.min(t.elapsed().as_secs_f64());
        last = (r.outcome.to_string(), r.fuel_used);
    }
    Ok((best, last.0, last.1))
}

pub(crate) fn run(a: HostcallsBench) -> anyhow::Result<ExitCode> {
    let sandbox = a.engine.sandbox(1, Limits::default().memory_bytes)?;
    let pure = wat::parse_str(hostcall_loops::pure_loop()).context("the pure loop")?;
    let (base, outcome, _) = time(&sandbox, "pure", &pure, a.fuel, a.runs.max(3))?;
    if outcome != "out of fuel" {
        bail!("the pure loop ended `{outcome}`");
    }
    let per_fuel = |secs: f64, fuel: u64| secs * 1e9 / fuel.max(1) as f64;
    println!(
        "pure-wasm loop (an endless br): {base:.3} s for {} fuel ({:.2} ns per fuel); ratios are over it",
        a.fuel,
        per_fuel(base, a.fuel)
    );
    let counter = wat::parse_str(hostcall_loops::counter_loop()).context("the counter loop")?;
    let (fast, _, _) = time(&sandbox, "counter", &counter, a.fuel, a.runs.max(3))?;
    println!(
        "tighter pure-wasm loop (a counter): {fast:.3} s ({:.2} ns per fuel, {:.2}x the endless br)",
        per_fuel(fast, a.fuel),
        fast / base
    );
    println!(
        "{:>7}  {:>8}  {:>7}  {:<14} loop",
        "ratio", "seconds", "ns/fuel", "outcome"
    );
    let loops: Vec<HostcallLoop> = hostcall_loops::loops()
        .into_iter()
        .chain(instruction_loops::loops())
        .filter(|l| {
            a.only
                .as_ref()
                .is_none_or(|o| l.label().contains(o.as_str()))
        })
        .collect();
    let mut worst: Option<(f64, String)> = None;
    for l in &loops {
        let wasm = l.module().with_context(|| l.label())?;
        let (secs, outcome, fuel_used) = time(&sandbox, l.function, &wasm, a.fuel, a.runs)?;
        // A loop that ends early (proc_exit) is compared with the pure loop for its fuel.
        let ratio = secs / (base * fuel_used.max(1) as f64 / a.fuel as f64);
        println!(
            "{ratio:>6.2}x  {secs:>8.3}  {:>7.2}  {outcome:<14} {}",
            per_fuel(secs, fuel_used),
            l.label()
        );
        if outcome == "out of fuel" && worst.as_ref().is_none_or(|(w, _)| ratio > *w) {
            worst = Some((ratio, l.label()));
        }
    }
    if let Some((ratio, label)) = worst {
        println!("worst: {ratio:.2}x ({label})");
    }
    Ok(ExitCode::SUCCESS)
}
