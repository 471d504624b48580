//! The sandbox's fuzzing property, shared by the coverage-guided fuzzer (`fuzz/`, cargo fuzz)
//! and the seeded run in the test suite (`tests/tests/hostile/fuzz.rs`), which also replays
//! every input kept in the repository's corpus.
//!
//! An input is raw bytes that [`wasm_smith`] turns into a valid module shaped like a bot
//! (`_start`, an exported memory, WASI imports to call) with the features koth allows. The
//! property, for every module the loader accepts:
//!
//! - the invocation ends in a bot outcome (ok, exit, trap, out of fuel, out of memory, a
//!   limit), never a host fault or a host panic;
//! - it takes at most [`Property::max_ratio`] times what a pure-wasm loop takes for the fuel
//!   it used, plus [`Property::slack`] for instantiating it.

use super::{Invocation, Limits, Outcome, Sandbox, Vfs, VfsLimits};
use std::time::{Duration, Instant};

/// What one input did.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The bytes made no module (too few, or wasm-smith gave up).
    NoModule,
    /// The loader refused the module (by a load limit or a disabled feature): fine.
    Refused(String),
    /// The invocation kept the property.
    Kept {
        /// Its outcome.
        outcome: String,
        /// The fuel it used.
        fuel_used: u64,
        /// Its wall time over a pure loop's for that fuel (and the slack).
        ratio: f64,
    },
    /// The property failed: a host fault, or a time fuel did not pay for.
    Broken(String),
}

/// The property's bounds.
#[derive(Debug, Clone, Copy)]
pub struct Property {
    /// Fuel per invocation.
    pub fuel: u64,
    /// A pure-wasm loop's nanoseconds per fuel on this machine ([`Property::measure`]).
    pub pure_ns_per_fuel: f64,
    /// The most an invocation may take over the pure loop for the fuel it used.
    pub max_ratio: f64,
    /// Time allowed on top for instantiating the module and its host calls' set-up.
    pub slack: Duration,
}

impl Property {
    /// Measure the pure loop ([`pure_loop`]) on `sb` for `fuel`: the fastest of three runs.
    ///
    /// # Errors
    ///
    /// If the pure loop does not load or does not run out of fuel (a broken sandbox).
    pub fn measure(sb: &Sandbox, fuel: u64, max_ratio: f64) -> Result<Property, String> {
        let wasm = wat::parse_str(pure_loop()).map_err(|e| e.to_string())?;
        let bot = sb.load_bytes("pure", &wasm).map_err(|e| e.to_string())?;
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let t = Instant::now();
            let r = bot.invoke(&invocation(fuel), None);
            if r.outcome != Outcome::OutOfFuel {
                return Err(format!("the pure loop ended `{}`", r.outcome));
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok(Property {
            fuel,
            pure_ns_per_fuel: best * 1e9 / fuel as f64,
            max_ratio,
            slack: Duration::from_millis(20),
        })
    }

    /// An invocation's time over what a pure loop takes for its fuel, plus the slack.
    fn ratio(&self, secs: f64, fuel_used: u64) -> f64 {
        let allowed = self.pure_ns_per_fuel * fuel_used as f64 * 1e-9;
        secs / (allowed + self.slack.as_secs_f64())
    }

    /// Turn `data` into a module, load it on `sb`, invoke it once in a fresh directory and
    /// judge the invocation.
    pub fn check(&self, sb: &Sandbox, data: &[u8]) -> Verdict {
        let Some(wasm) = module(data) else {
            return Verdict::NoModule;
        };
        let bot = match sb.load_bytes("fuzz", &wasm) {
            Ok(b) => b,
            Err(e) => return Verdict::Refused(e.to_string()),
        };
        // A slow run is run twice more and the fastest counts: the machine's noise only ever
        // adds time, and a finding must not be the load of another process.
        let mut best: Option<(f64, super::Report)> = None;
        for _ in 0..3 {
            let mut dir = Vfs::new(VfsLimits::default());
            dir.put_host_file("history.txt", b"I\n");
            let t = Instant::now();
            let r = bot.invoke(&invocation(self.fuel), Some(&mut dir));
            let secs = t.elapsed().as_secs_f64();
            if let Outcome::HostFault(why) = &r.outcome {
                return Verdict::Broken(format!("host fault: {why}"));
            }
            let ratio = self.ratio(secs, r.fuel_used);
            if best.as_ref().is_none_or(|(b, _)| ratio < *b) {
                best = Some((ratio, r));
            }
            if ratio <= self.max_ratio {
                break;
            }
        }
        let Some((ratio, r)) = best else {
            return Verdict::NoModule;
        };
        if ratio > self.max_ratio {
            return Verdict::Broken(format!(
                "{ratio:.1}x a pure loop's time for the {} fuel it used ({}), in the fastest of three runs",
                r.fuel_used, r.outcome
            ));
        }
        Verdict::Kept {
            outcome: r.outcome.to_string(),
            fuel_used: r.fuel_used,
            ratio,
        }
    }
}

/// One fuzzing invocation: a Coup-like argv, the fuel given, a backstop far past any honest
/// run (a host fault is what the property looks for, not a way to stop a slow input).
fn invocation(fuel: u64) -> Invocation {
    Invocation {
        args: vec![b"history.txt".to_vec(), b"1".to_vec(), b"I".to_vec()],
        stdin: b"fuzz\n".to_vec(),
        seed: [7; 32],
        clock_start_ns: 0,
        limits: Limits {
            fuel,
            wall_clock_ms: 60_000,
            ..Limits::default()
        },
    }
}

/// WASI functions a fuzzed module may import, with their signatures (a selection that
/// reaches the directory, the descriptors, the streams, randomness and the clock).
const WASI_IMPORTS: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_filestat_set_size" (func (param i32 i64) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_rename" (func (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_get" (func (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sched_yield" (func (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
)"#;

/// What a bot must export.
const BOT_EXPORTS: &str = r#"(module
  (func (export "_start"))
  (memory (export "memory") 1)
)"#;

/// A bot-shaped module from `data`, or `None` when wasm-smith cannot make one of it.
pub fn module(data: &[u8]) -> Option<Vec<u8>> {
    let mut u = arbitrary::Unstructured::new(data);
    let mut config = wasm_smith::Config {
        available_imports: Some(wat::parse_str(WASI_IMPORTS).ok()?),
        exports: Some(wat::parse_str(BOT_EXPORTS).ok()?),
        // What koth refuses at load: generating it would only test the refusal.
        threads_enabled: false,
        memory64_enabled: false,
        gc_enabled: false,
        exceptions_enabled: false,
        // wasm-smith's tail calls bring typed function references (`return_call_ref`), which
        // this wasmtime build (no GC) refuses.
        tail_call_enabled: false,
        custom_page_sizes_enabled: false,
        wide_arithmetic_enabled: false,
        // The exported memory is the one memory: wasm-smith adds it beside the ones it
        // generates.
        max_memories: 0,
        max_tables: 1,
        max_memory32_bytes: Limits::default().memory_bytes,
        max_table_elements: u64::from(Limits::default().table_elements),
        // Long enough bodies for loops of the expensive instructions.
        max_instructions: 1_000,
        max_funcs: 50,
        ..wasm_smith::Config::default()
    };
    // Bulk operations are what fuel must pay for: keep them in every module. Reference types
    // (table.grow, table.fill) stay off: wasm-smith then also makes `externref`, which this
    // wasmtime build (no GC) refuses, so nearly every module would be refused at load; the
    // table operations have their own loops in `instruction_loops`.
    config.bulk_memory_enabled = true;
    config.reference_types_enabled = false;
    wasm_smith::Module::new(config, &mut u)
        .ok()
        .map(|m| m.to_bytes())
}

/// The baseline: a pure-wasm loop with no host call (an endless `br`, the hostile suite's
/// `loop.wat`), as a WAT module: the fuzzer's calibration, and `koth bench hostcalls`' baseline.
pub fn pure_loop() -> String {
    "(module (memory (export \"memory\") 1)\n\
     (func (export \"_start\") (loop $l (br $l))))"
        .to_string()
}
