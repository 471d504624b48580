//! Bank Heist: argv as typed [`Args`], the five [`Bank`]s, round-2 [`Answer`]s, and [`run`].
//!
//! A bot is invoked once per decision with 31 arguments after its name (see [`Args`] for
//! each one and its number). In round 1 it prints its bet, an integer; in round 2 (only
//! heisters are asked) one of the [`Answer`]s. It has no directory and keeps no state
//! between invocations. See the crate docs for an example.

mod answer;
mod args;
mod error;

#[cfg(test)]
mod tests;

pub use answer::{run, run_with, Decision};
pub use args::{Args, Round, ARG_COUNT, ARG_NAMES};
pub use error::Error;
/// The banks and the round-2 answers, from `koth-rules`: the same code koth judges with.
pub use koth_rules::bank_heist::{Answer, Bank, CREDITS_PER_HEISTER};
