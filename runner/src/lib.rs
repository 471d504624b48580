//! koth: King-of-the-Hill tournaments with every bot sandboxed in WebAssembly.
//!
//! - [`sandbox`] loads bots and runs one invocation at a time under the sandbox contract
//!   (`docs/sandbox.md`). It knows nothing about any game.
//! - [`command`] holds what the `koth` commands share (options, the play loop, phases).
//! - [`contest`] keeps a live contest (authors, bots, versions, runs) and plays its runs;
//!   [`serve`] serves it over HTTP (`koth serve`).
//! - [`games`] holds each game's driver, which talks to bots through the sandbox's data types,
//!   and re-exports its pure rules from the `koth-rules` crate (shared with the guest SDK and
//!   referees). Rules never see wasmtime.
//! - [`referee`] plays games whose rules come as a plugin: a referee, built in or a
//!   sandboxed WebAssembly component (`wit/referee.wit`).
//! - [`report`] turns an archive into one self-contained HTML page (any game).
//! - [`scaffold`] writes starter bots (`koth new`), from templates embedded in the binary.
//! - [`setup`] installs what some bots need beyond the binary (the CPython interpreter).
//! - [`tournament`] schedules games on worker threads deterministically and writes results;
//!   it knows neither games nor wasmtime.
#![warn(missing_docs)]

/// koth's version: what every manifest records, and what resume, merge and a contest's
/// reuse of a run compare.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod command;
pub mod contest;
pub mod games;
pub mod referee;
pub mod report;
pub mod sandbox;
pub mod scaffold;
pub mod seed;
pub mod serve;
pub mod setup;
pub mod tournament;
pub mod worlds;
