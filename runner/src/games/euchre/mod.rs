//! Euchre (four players in two teams, one stdin input per decision): `shared/spec/euchre.md`.
//!
//! - [`rules`]: the pure game as a state machine the driver steps: whose decision is due,
//!   the exact stdin text for it, the parser for the answer, the spec's default, and the
//!   events for the human log; it lives in the `koth-rules` crate (shared with the guest SDK
//!   and referees).
//! - [`driver`]: plays one game through the sandbox: stdin inputs, stdout answers, defaults
//!   for failures, a 1 KiB memory directory per seat for the whole game.
//! - [`format`]: the pairings (copies as partners, or random partners for four bots) for the
//!   shared tournament layer, and the archive.

pub mod driver;
pub mod format;

pub use koth_rules::euchre as rules;

/// The game's name in manifests and on the command line.
pub const NAME: &str = "euchre";

/// Euchre as the tournament commands play it.
pub fn game() -> format::Euchre {
    format::Euchre
}
