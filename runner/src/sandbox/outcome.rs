//! How one invocation ended.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a guest trapped, in plain words a bot author can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapKind {
    /// `unreachable` executed (Rust panics end here).
    Unreachable,
    /// A load or store outside linear memory.
    MemoryOutOfBounds,
    /// The wasm call stack was exhausted.
    StackOverflow,
    /// Integer division (or remainder) by zero.
    DivisionByZero,
    /// Signed integer overflow in division.
    IntegerOverflow,
    /// A float that cannot be converted to the integer type.
    BadConversion,
    /// `call_indirect` to a null (uninitialised) table entry.
    IndirectCallToNull,
    /// `call_indirect` to a function of the wrong type.
    BadSignature,
    /// A table access out of bounds, `call_indirect` past the table's end included.
    TableOutOfBounds,
    /// Any other trap wasmtime reports.
    Other,
}

impl fmt::Display for TrapKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TrapKind::Unreachable => "unreachable executed",
            TrapKind::MemoryOutOfBounds => "out-of-bounds memory access",
            TrapKind::StackOverflow => "stack overflow",
            TrapKind::DivisionByZero => "integer division by zero",
            TrapKind::IntegerOverflow => "integer overflow",
            TrapKind::BadConversion => "invalid conversion to integer",
            TrapKind::IndirectCallToNull => "indirect call to a null or missing table entry",
            TrapKind::BadSignature => "indirect call type mismatch",
            TrapKind::TableOutOfBounds => "out-of-bounds table access",
            TrapKind::Other => "other trap",
        })
    }
}

/// Every invocation ends in exactly one outcome; each is deterministic for a given seed.
/// What an outcome costs is the game's decision, not the sandbox's.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Outcome {
    /// `_start` returned or the guest called `proc_exit(0)`.
    Ok,
    /// The guest called `proc_exit(N)` with N ≠ 0.
    Exit(u32),
    /// The guest trapped.
    Trap(TrapKind),
    /// The fuel budget ran out.
    OutOfFuel,
    /// A memory grow was refused at the cap and a trap followed.
    OutOfMemory,
    /// The guest wrote more to stdout than the cap allows.
    OutputLimit,
    /// A table, instance or memory limit was exceeded at instantiation or at run time.
    LimitExceeded,
    /// The host could not complete the invocation (the wall-clock backstop fired, or an
    /// internal error). Never a silent game result: callers report it loudly.
    HostFault(String),
}

impl Outcome {
    /// True for `Ok`.
    pub fn is_ok(&self) -> bool {
        matches!(self, Outcome::Ok)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ok => f.write_str("ok"),
            Outcome::Exit(n) => write!(f, "exit({n})"),
            Outcome::Trap(k) => write!(f, "trap({k})"),
            Outcome::OutOfFuel => f.write_str("out of fuel"),
            Outcome::OutOfMemory => f.write_str("out of memory"),
            Outcome::OutputLimit => f.write_str("output limit"),
            Outcome::LimitExceeded => f.write_str("limit exceeded"),
            Outcome::HostFault(why) => write!(f, "host fault: {why}"),
        }
    }
}
