//! The limits one invocation runs under, with the contract's defaults.

use serde::{Deserialize, Serialize};

/// Per-invocation limits. Every field is a default that a game or the command line may change;
/// they are recorded with each tournament so a result can be re-run and checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Wasmtime fuel per invocation (a deterministic instruction budget).
    pub fuel: u64,
    /// Linear memory per instance, in bytes.
    pub memory_bytes: u64,
    /// Elements per table.
    pub table_elements: u32,
    /// Bytes of stdout; writing more ends the invocation with `output limit`.
    pub stdout_bytes: u32,
    /// Bytes of stderr kept; the rest is counted and dropped (never a violation).
    pub stderr_bytes: u32,
    /// Wall-clock backstop in milliseconds (epoch interruption); firing is a host fault.
    pub wall_clock_ms: u64,
    /// Open descriptors a guest may hold at once (stdio and the preopen included).
    pub open_fds: u32,
    /// Bytes one read/write host call moves at most (short reads/writes beyond it).
    pub io_bytes_per_call: u32,
    /// Bytes one `random_get` call may ask for; more fails with `EINVAL`.
    pub random_bytes_per_call: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fuel: 1_000_000_000,
            memory_bytes: 64 << 20,
            table_elements: 10_000,
            stdout_bytes: 64 << 10,
            stderr_bytes: 64 << 10,
            wall_clock_ms: 10_000,
            open_fds: 64,
            io_bytes_per_call: 1 << 20,
            random_bytes_per_call: 1 << 20,
        }
    }
}

/// Limits that apply when a bot is loaded, before any invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoadLimits {
    /// Largest module file accepted, in bytes (compiling is the one step fuel does not bound).
    pub module_bytes: u64,
    /// Longest a compile may take before the bot is rejected, in milliseconds.
    pub compile_ms: u64,
    /// Largest initial memory a module may declare, in bytes (the instance limit).
    pub memory_bytes: u64,
    /// Largest initial table a module may declare, in elements.
    pub table_elements: u32,
    /// Most functions a module may define (the compiler's memory grows with them).
    pub functions: u64,
    /// Deepest nesting of blocks, loops and ifs in one function (the compiler's memory and
    /// time grow with it).
    pub nesting: u64,
    /// Most globals a module may define (each takes room in every instance).
    pub globals: u64,
}

impl Default for LoadLimits {
    fn default() -> Self {
        LoadLimits {
            module_bytes: 64 << 20,
            compile_ms: 120_000,
            memory_bytes: Limits::default().memory_bytes,
            table_elements: Limits::default().table_elements,
            functions: 50_000,
            nesting: 1_000,
            globals: 10_000,
        }
    }
}
