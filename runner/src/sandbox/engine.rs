//! The wasmtime engine: every setting that matters for safety, speed or fuel accounting is
//! chosen here, once, and recorded in [`EngineSettings`].

use serde::{Deserialize, Serialize};
use std::time::Duration;
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, OptLevel, PoolingAllocationConfig,
};

/// How often the wall-clock backstop's epoch advances.
pub(crate) const EPOCH_TICK: Duration = Duration::from_millis(20);

/// The wasmtime version koth is built against (pinned exactly in the workspace).
pub const WASMTIME_VERSION: &str = "48.0.8";

/// Engine options a host may choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineOptions {
    /// Use wasmtime's pooling instance allocator (faster instantiation; reserves virtual
    /// address space per slot).
    pub pooling: bool,
    /// Pool slots: instances that can be live at once (at least the worker count).
    pub pool_slots: u32,
    /// Largest linear memory an instance may reach, in bytes (sizes the pool).
    pub max_memory_bytes: u64,
    /// Largest table an instance may have, in elements (sizes the pool).
    pub max_table_elements: u32,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            pooling: true,
            pool_slots: 16,
            max_memory_bytes: 64 << 20,
            max_table_elements: 10_000,
        }
    }
}

/// The record of every engine setting that can change compiled code, fuel accounting or
/// determinism; written into each tournament's manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSettings {
    /// wasmtime version.
    pub wasmtime: String,
    /// Optimisation level of cranelift.
    pub opt_level: String,
    /// Fuel metering on (always).
    pub consume_fuel: bool,
    /// Epoch interruption on (the wall-clock backstop).
    pub epoch_interruption: bool,
    /// NaN canonicalisation (float results independent of the host CPU).
    pub nan_canonicalization: bool,
    /// Relaxed SIMD made deterministic.
    pub relaxed_simd_deterministic: bool,
    /// Copy-on-write memory initialisation (data segments are then not charged to fuel).
    pub memory_init_cow: bool,
    /// Maximum wasm stack in bytes.
    pub max_wasm_stack: usize,
    /// Pooling allocator in use.
    pub pooling: bool,
    /// Bytes of linear memory kept resident per pool slot (pooling only).
    pub pool_keep_resident: usize,
    /// Wasm proposals switched off; a module using one is rejected at load.
    pub disabled_features: Vec<String>,
}

/// Linear memory kept resident per pool slot between instances (a typical Rust bot touches
/// a few MiB: stack, heap, data).
const KEEP_RESIDENT: usize = 16 << 20;

/// Largest instance context a pool slot holds (wasmtime's default is 1 MiB).
const MAX_CORE_INSTANCE_SIZE: usize = 4 << 20;

/// Maximum wasm stack: wasmtime's default, stated so that it is recorded.
const MAX_WASM_STACK: usize = 512 * 1024;

/// Build the core modules' engine and the record of its settings.
pub(crate) fn build_engine(opts: &EngineOptions) -> wasmtime::Result<(Engine, EngineSettings)> {
    build(opts, false)
}

/// Build the components' engine: the same settings with the component model on and the
/// on-demand allocator (a component holds several core instances and memories, which the
/// core modules' pool is not sized for).
pub(crate) fn build_component_engine(opts: &EngineOptions) -> wasmtime::Result<Engine> {
    let opts = EngineOptions {
        pooling: false,
        ..*opts
    };
    Ok(build(&opts, true)?.0)
}

fn build(opts: &EngineOptions, components: bool) -> wasmtime::Result<(Engine, EngineSettings)> {
    let mut cfg = Config::new();
    cfg.consume_fuel(true)
        .epoch_interruption(true)
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        .cranelift_opt_level(OptLevel::Speed)
        .max_wasm_stack(MAX_WASM_STACK)
        .memory_init_cow(true)
        .parallel_compilation(true)
        // A trap or proc_exit would otherwise capture a backtrace (~20 µs each); outcomes are
        // named by kind, the bot's stderr carries its own diagnostics.
        .wasm_backtrace_max_frames(None)
        // Threads, GC and exceptions are not compiled into this wasmtime at all; components
        // have their own engine.
        .wasm_component_model(components)
        // Components: the adapters wasmtime generates between two core instances of one
        // component (each with its memory, as componentize-qjs's output has) are validated
        // with the engine's features and use both memories. The guest's own core modules
        // are still held to one memory each by the load checks (`component::prescan`).
        .wasm_multi_memory(components)
        .wasm_memory64(false)
        .wasm_stack_switching(false)
        .wasm_wide_arithmetic(false);
    let disabled = [
        "threads",
        "shared-memory",
        "multi-memory",
        "memory64",
        "gc",
        "exceptions",
        "stack-switching",
        "component-model",
    ];
    if opts.pooling {
        let mut pool = PoolingAllocationConfig::default();
        pool.total_core_instances(opts.pool_slots)
            .total_memories(opts.pool_slots)
            .total_tables(opts.pool_slots)
            .max_memories_per_module(1)
            .max_tables_per_module(1)
            .max_memory_size(opts.max_memory_bytes as usize)
            .table_elements(opts.max_table_elements as usize)
            // Keeping touched pages resident avoids faulting them in again on every instance.
            .linear_memory_keep_resident(KEEP_RESIDENT)
            // Lets the kernel report which pages were touched, so resetting a slot only
            // touches those (kernel 6.7+; off silently elsewhere).
            .pagemap_scan(Enabled::Auto)
            .table_keep_resident(64 << 10)
            // Room for what the load checks allow (10,000 globals, 50,000 functions that may
            // all be referenced), so that a module is never refused by one allocator only.
            .max_core_instance_size(MAX_CORE_INSTANCE_SIZE);
        cfg.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    let engine = Engine::new(&cfg)?;
    let settings = EngineSettings {
        wasmtime: WASMTIME_VERSION.to_string(),
        opt_level: "speed".into(),
        consume_fuel: true,
        epoch_interruption: true,
        nan_canonicalization: true,
        relaxed_simd_deterministic: true,
        memory_init_cow: true,
        max_wasm_stack: MAX_WASM_STACK,
        pooling: opts.pooling,
        pool_keep_resident: if opts.pooling { KEEP_RESIDENT } else { 0 },
        disabled_features: disabled.iter().map(|s| s.to_string()).collect(),
    };
    Ok((engine, settings))
}

/// Advance the engine's epoch in the background until the engine is dropped.
pub(crate) fn start_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    let spawned = std::thread::Builder::new()
        .name("koth-epoch".into())
        .spawn(move || loop {
            std::thread::sleep(EPOCH_TICK);
            match weak.upgrade() {
                Some(engine) => engine.increment_epoch(),
                None => break,
            }
        });
    // Without the ticker only the backstop is lost; fuel still bounds every guest.
    drop(spawned);
}

/// Epoch ticks that make up a wall-clock budget.
pub(crate) fn epoch_ticks(wall_clock_ms: u64) -> u64 {
    (wall_clock_ms / EPOCH_TICK.as_millis() as u64).max(1)
}
