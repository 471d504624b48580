//! `koth setup`: install what some bots need and the `koth` binary does not carry, from the
//! binary alone (no clone of the repository, no `pip`).
//!
//! - [`python`]: the pinned CPython interpreter for WASI that runs plain `.py` bots.
//!
//! It knows no game and no wasmtime: it fetches, checks and writes files.

pub mod python;
