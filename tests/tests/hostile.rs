//! Hostile bots: one bot per attack on the sandbox, each test asserting the exact outcome,
//! what the host sees afterwards, and that the host is unharmed (a well-behaved bot on the
//! same sandbox still runs to `ok`; memory-heavy attacks do not grow the host).
//!
//! The bots are WAT modules in `tests/hostile/` (one per attack) and Rust probes in
//! `tests/bots/src/bin/`. The contract is `docs/sandbox.md`.

#[path = "hostile/common.rs"]
mod common;

#[path = "hostile/cpu.rs"]
mod cpu;

#[path = "hostile/fuel.rs"]
mod fuel;

#[path = "hostile/memory.rs"]
mod memory;

#[path = "hostile/wasi.rs"]
mod wasi;

#[path = "hostile/paths.rs"]
mod paths;

#[path = "hostile/history.rs"]
mod history;

#[path = "hostile/quota.rs"]
mod quota;

#[path = "hostile/descriptors.rs"]
mod descriptors;

#[path = "hostile/load.rs"]
mod load;

#[path = "hostile/probe.rs"]
mod probe;

#[path = "hostile/conformance.rs"]
mod conformance;

#[path = "hostile/fuzz.rs"]
mod fuzz;
