//! One kind of invocation in a loop, for profilers: what `koth bench invoke` times, without
//! the bench's other runs in the same process.
//!
//!     cargo build --release -p koth-bench --example invoke_loop
//!     valgrind --tool=callgrind --toggle-collect='*invoke_loop*measured*' \
//!         target/release/examples/invoke_loop minimal 1000
//!     perf record -e cpu-clock target/release/examples/invoke_loop BOT.wasm 200000
//!
//! The first argument is `floor` (bare wasmtime, empty `_start`), `bare` (the minimal module
//! on stub imports), `minimal` (the minimal module through koth) or a bot's file; the second
//! the number of measured iterations, after as many unmeasured ones. Each koth iteration is
//! the bench's: a fresh directory holding the history, the invocation, the append check.

use koth::sandbox::{
    Bot, EngineOptions, Invocation, Limits, Sandbox, SandboxOptions, Vfs, VfsLimits,
};
use koth_bench::floor::{Floor, MINIMAL_WAT};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

const HISTORY: &[u8] = b"I\nFp\nTp\nI\nSp\n";
const FILE: &str = "bench_history.txt";
const ARGS: [&str; 10] = [FILE, "1", "4", "~!", "I\n", "F", "E", "T", "A", "S"];

enum Subject {
    Floor(Floor),
    Koth(Bot),
}

/// One iteration; never inlined, so that a profiler can collect this function alone.
#[inline(never)]
fn measured(subject: &Subject, inv: &Invocation) -> u64 {
    match subject {
        Subject::Floor(f) => {
            f.run().expect("bare run");
            0
        }
        Subject::Koth(bot) => {
            let mut dir = Vfs::new(VfsLimits::default());
            dir.put_host_file(FILE, HISTORY);
            let r = bot.invoke(inv, Some(&mut dir));
            let ok = r.outcome.is_ok()
                && dir
                    .host_file(FILE)
                    .is_some_and(|h| h.len() > HISTORY.len() && h.starts_with(HISTORY));
            assert!(ok, "no move appended: {}", r.outcome);
            r.fuel_used
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (Some(what), Some(n)) = (
        args.get(1),
        args.get(2).and_then(|n| n.parse::<usize>().ok()),
    ) else {
        eprintln!("usage: invoke_loop floor|bare|minimal|BOT.wasm ITERATIONS");
        return ExitCode::FAILURE;
    };
    let sandbox = Sandbox::new(SandboxOptions {
        engine: EngineOptions {
            pool_slots: 5,
            ..EngineOptions::default()
        },
        ..SandboxOptions::default()
    })
    .expect("sandbox");
    let subject = match what.as_str() {
        "floor" => Subject::Floor(Floor::new(sandbox.engine()).expect("floor")),
        "bare" => Subject::Floor(Floor::minimal(sandbox.engine()).expect("bare")),
        "minimal" => Subject::Koth(
            sandbox
                .load_bytes("minimal", &wat::parse_str(MINIMAL_WAT).expect("wat"))
                .expect("minimal loads"),
        ),
        file => Subject::Koth(sandbox.load_file(Path::new(file), None).expect("bot loads")),
    };
    let inv = Invocation {
        args: ARGS.iter().map(|a| a.as_bytes().to_vec()).collect(),
        stdin: Vec::new(),
        seed: [7; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    for _ in 0..n {
        measured(&subject, &inv);
    }
    let mut times = Vec::with_capacity(n);
    let mut fuel = 0;
    for _ in 0..n {
        let t = Instant::now();
        fuel = measured(&subject, &inv);
        times.push(t.elapsed());
    }
    times.sort();
    if let Some(med) = times.get(n / 2) {
        println!(
            "{what}: median {:.2} µs, p90 {:.2} µs, {fuel} fuel",
            med.as_secs_f64() * 1e6,
            times[n * 9 / 10].as_secs_f64() * 1e6
        );
    }
    ExitCode::SUCCESS
}
