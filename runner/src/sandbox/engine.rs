//! The wasmtime engine: every setting that matters for safety, speed or fuel accounting is
//! chosen here, once, and recorded in [`EngineSettings`].

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::time::Duration;
use wasmtime::{
    Config, Enabled, Engine, InstanceAllocationStrategy, OperatorCost, OptLevel,
    PoolingAllocationConfig,
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
    /// The fuel costs koth sets where wasmtime's default (one per operator, one per byte or
    /// element of a bulk operation) does not pay for the host's work ([`OPERATOR_COSTS`]).
    /// Absent from the manifests of koth 0.3.0 and older, which charged wasmtime's defaults.
    #[serde(default)]
    pub operator_costs: BTreeMap<String, u32>,
}

/// Fuel costs that differ from wasmtime's defaults, as (what, fuel).
///
/// Fuel is koth's only bound on a bot's time (the wall-clock backstop is for host bugs), so
/// every operator must cost fuel in proportion to the host work it causes. wasmtime charges
/// one fuel per operator and, for bulk memory and table operations, one more per byte or
/// element; that leaves the operators whose work is a call into the runtime whatever their
/// operand: a refused `memory.grow` or `table.grow` (a loop of them reached the backstop in
/// koth 0.3.0, using no fuel at all), an empty grow, and the empty bulk operations. Each is
/// charged here what its call costs the host, measured by `koth bench hostcalls` against a
/// pure-wasm loop on a 2-core EPYC (0.9 to 1.1 ns per fuel), and sized for a CPU whose pure
/// loop is three times faster (a Xeon's, 0.32 ns per fuel): docs/sandbox.md, "What
/// instructions cost". Each comment gives the call's time and the ratio koth 0.3.0 had. u8 is
/// wasmtime's limit per operator.
pub const OPERATOR_COSTS: &[(&str, u8)] = &[
    // wasmtime charges a `loop` nothing, but each loop header checks the fuel and the epoch:
    // a branch from the innermost of 999 nested empty loops to the outermost ran through 999
    // headers for one fuel, 537x a pure loop's time (found by the fuzzer). One fuel a loop
    // makes every header executed cost one.
    ("loop", 1),
    // A runtime call: ~90 ns refused, ~65 ns for 0 pages (0.3.0: 12-19x).
    ("memory.grow", 255),
    // What a grow asks for, charged even when refused: 65,536 pages cost more than the fuel
    // left, instead of a runtime call each.
    ("memory.grow per page", 1),
    // ~60 ns refused or empty (0.3.0: 9-13x).
    ("table.grow", 255),
    // A runtime call even for 0 bytes: ~107 ns (0.3.0: 23x). 255 is the most one operator
    // can cost: ~1.3x on a CPU whose pure loop runs at 0.32 ns per fuel.
    ("memory.fill", 255),
    // ~50 ns for 0 elements (0.3.0: 12x).
    ("table.fill", 160),
    ("table.fill per element", 2),
    // ~12 ns (0.3.0: 7.6x).
    ("elem.drop", 40),
    // ~10 ns for 0 elements (0.3.0: 2.4x).
    ("table.init", 32),
    ("table.init per element", 2),
    // ~7 ns for 0 bytes with a length the compiler cannot see (0.3.0: 1.1-1.5x).
    ("memory.copy", 24),
    ("memory.init", 24),
    // ~2 ns for 0 elements; overlapping copies move ~1.7 ns per element (0.3.0: 1.8x).
    ("table.copy", 8),
    ("table.copy per element", 4),
    // Float arithmetic on subnormal numbers takes a microcode assist on Intel CPUs: ~45 ns
    // for an f64.mul, ~50 ns for an f64.sqrt on a 16-core Xeon (0.3.0: 4-8x, a loop of
    // them reached 8.5 s of the 10 s backstop), against under 1 ns for normal numbers. Fuel
    // cannot see the operands, so every such operation pays for the worst case.
    ("float arithmetic", 32),
];

/// wasmtime's cost table with [`OPERATOR_COSTS`] applied.
fn operator_cost_table() -> OperatorCost {
    let mut t = OperatorCost::new();
    for &(what, fuel) in OPERATOR_COSTS {
        // Every name is known: `every_listed_cost_is_known_and_changes_the_default` holds
        // the list to it.
        apply(&mut t, what, fuel);
    }
    t
}

/// Set the cost named `what` (one operator, a per-unit cost, or a group) in `t` to `fuel`;
/// false if the name is unknown.
fn apply(t: &mut OperatorCost, what: &str, fuel: u8) -> bool {
    let v = &mut t.variable;
    let fields: Vec<&mut u8> = match what {
        "loop" => vec![&mut t.Loop],
        "memory.grow" => vec![&mut t.MemoryGrow],
        "memory.grow per page" => vec![&mut v.memory_grow_per_page],
        "table.grow" => vec![&mut t.TableGrow],
        "memory.fill" => vec![&mut t.MemoryFill],
        "memory.copy" => vec![&mut t.MemoryCopy],
        "memory.init" => vec![&mut t.MemoryInit],
        "table.fill" => vec![&mut t.TableFill],
        "table.fill per element" => vec![&mut v.table_fill_per_element],
        "table.copy" => vec![&mut t.TableCopy],
        "table.copy per element" => vec![&mut v.table_copy_per_element],
        "table.init" => vec![&mut t.TableInit],
        "table.init per element" => vec![&mut v.table_init_per_element],
        "elem.drop" => vec![&mut t.ElemDrop],
        // The operations that round a result or read a subnormal operand in the FPU:
        // add, sub, mul, div, sqrt, fused multiply-add, and the conversions between widths.
        "float arithmetic" => vec![
            &mut t.F32Add,
            &mut t.F32Sub,
            &mut t.F32Mul,
            &mut t.F32Div,
            &mut t.F32Sqrt,
            &mut t.F64Add,
            &mut t.F64Sub,
            &mut t.F64Mul,
            &mut t.F64Div,
            &mut t.F64Sqrt,
            &mut t.F32DemoteF64,
            &mut t.F64PromoteF32,
            &mut t.F32x4Add,
            &mut t.F32x4Sub,
            &mut t.F32x4Mul,
            &mut t.F32x4Div,
            &mut t.F32x4Sqrt,
            &mut t.F64x2Add,
            &mut t.F64x2Sub,
            &mut t.F64x2Mul,
            &mut t.F64x2Div,
            &mut t.F64x2Sqrt,
            &mut t.F32x4DemoteF64x2Zero,
            &mut t.F64x2PromoteLowF32x4,
            &mut t.F32x4RelaxedMadd,
            &mut t.F32x4RelaxedNmadd,
            &mut t.F64x2RelaxedMadd,
            &mut t.F64x2RelaxedNmadd,
        ],
        _ => return false,
    };
    for f in fields {
        *f = fuel;
    }
    true
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

/// Build the components' engine: the same settings with the component model on, and a pool
/// of its own sized for components ([`component_pool`]).
pub(crate) fn build_component_engine(opts: &EngineOptions) -> wasmtime::Result<Engine> {
    Ok(build(opts, true)?.0)
}

/// Core instances one component may hold (its modules and the adapters between them); a
/// component with more is refused at load, naming this limit.
const CORE_INSTANCES_PER_COMPONENT: u32 = 64;

/// Linear memories one component may define: the load checks hold each core module to one,
/// and a component built from two languages' runtimes (componentize-qjs's output) has two.
const MEMORIES_PER_COMPONENT: u32 = 2;

/// Tables one component may define.
const TABLES_PER_COMPONENT: u32 = 8;

/// The core modules' pool: one memory and one table per instance, a slot per live instance.
fn core_pool(opts: &EngineOptions) -> PoolingAllocationConfig {
    let mut pool = PoolingAllocationConfig::default();
    pool.total_core_instances(opts.pool_slots)
        .total_memories(opts.pool_slots)
        .total_tables(opts.pool_slots)
        .max_memories_per_module(1)
        .max_tables_per_module(1)
        .max_memory_size(opts.max_memory_bytes as usize);
    pool
}

/// The components' pool. A worker holds at most two component instances at once (a referee
/// and the component bot it is asking), so twice the slots never runs out; each may define
/// [`MEMORIES_PER_COMPONENT`] memories of up to 4 GiB (a referee's `--referee-memory` may
/// reach that). Before this pool, every referee match mapped and unmapped its memories
/// afresh: Coup's referee component ran at 1.54× the built-in referee, and 1.34–1.36× with it.
fn component_pool(opts: &EngineOptions) -> PoolingAllocationConfig {
    let instances = opts.pool_slots.saturating_mul(2);
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(instances)
        .max_core_instances_per_component(CORE_INSTANCES_PER_COMPONENT)
        .max_memories_per_component(MEMORIES_PER_COMPONENT)
        .max_tables_per_component(TABLES_PER_COMPONENT)
        .total_core_instances(instances.saturating_mul(CORE_INSTANCES_PER_COMPONENT))
        .total_memories(instances.saturating_mul(MEMORIES_PER_COMPONENT))
        .total_tables(instances.saturating_mul(TABLES_PER_COMPONENT))
        .max_memories_per_module(1)
        .max_tables_per_module(1)
        .max_memory_size(4 << 30)
        .max_component_instance_size(MAX_CORE_INSTANCE_SIZE * 2);
    pool
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
        .wasm_wide_arithmetic(false)
        .operator_cost(operator_cost_table());
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
        let mut pool = if components {
            component_pool(opts)
        } else {
            core_pool(opts)
        };
        pool.table_elements(opts.max_table_elements as usize)
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
        operator_costs: OPERATOR_COSTS
            .iter()
            .map(|&(what, fuel)| (what.to_string(), u32::from(fuel)))
            .collect(),
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
pub fn epoch_ticks(wall_clock_ms: u64) -> u64 {
    (wall_clock_ms / EPOCH_TICK.as_millis() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_cost_is_known_and_changes_the_default() {
        for &(what, fuel) in OPERATOR_COSTS {
            let mut one = OperatorCost::new();
            assert!(apply(&mut one, what, fuel), "unknown cost name {what}");
            assert_ne!(
                one,
                OperatorCost::new(),
                "{what} is listed at wasmtime's default"
            );
        }
        assert_eq!(operator_cost_table().MemoryGrow, 255);
        assert_eq!(operator_cost_table().F64x2Sqrt, 32);
    }
}
