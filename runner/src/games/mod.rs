//! The games koth can run, each in its own module, and the one seam where a game's driver
//! meets the sandbox: [`Player`].
//!
//! A game's rules never see wasmtime. Its driver builds [`Invocation`]s and reads [`Report`]s,
//! which are plain data, so drivers and tournaments can be tested with scripted in-process
//! players and no wasm at all.

pub mod bank_heist;
pub mod coup;
pub mod euchre;

use crate::sandbox::{Bot, Invocation, Outcome, Report, Vfs};

/// Something that can take one decision: a sandboxed bot, or a scripted player in tests.
pub trait Player: Sync {
    /// The player's name (its `argv[0]`, and its name on the leaderboard).
    fn name(&self) -> &str;
    /// Take one decision.
    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report;
}

impl Player for Bot {
    fn name(&self) -> &str {
        Bot::name(self)
    }

    /// A typed-world component goes through its world's adapter (`crate::worlds`);
    /// anything else is invoked directly.
    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        crate::worlds::invoke(self, inv, dir)
    }
}

/// A short stable name for an invocation that did not end `ok`, for the leaderboard's
/// forfeit and failure counts (`exit`, `trap`, `fuel`, `memory`, `output`, `limit`).
pub fn crash_kind(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Exit(_) => "exit",
        Outcome::Trap(_) => "trap",
        Outcome::OutOfFuel => "fuel",
        Outcome::OutOfMemory => "memory",
        Outcome::OutputLimit => "output",
        _ => "limit",
    }
}

/// The last `max` bytes of a bot's stderr, as text for logs.
pub fn stderr_tail(stderr: &[u8], max: usize) -> String {
    let start = stderr.len().saturating_sub(max);
    String::from_utf8_lossy(&stderr[start..]).into_owned()
}
