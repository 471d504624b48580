//! Bank Heist (a free-for-all of G games with host-side rabble, argv protocol, no files):
//! `docs/games/bank-heist.md`.
//!
//! - [`rules`]: the pure game: banks, both rounds, every answer, paychecks, rabble; it lives
//!   in the `koth-rules` crate (shared with the guest SDK and referees).
//! - [`driver`]: plays one tournament through the sandbox: the 31 arguments, stdout answers,
//!   failures as the spec's defaults, the seed's human log and the structured log.
//! - [`format`]: the match format for the shared tournament layer: T tournaments, each a
//!   match of every bot.

pub mod driver;
pub mod format;
pub mod judge;

pub use koth_rules::bank_heist as rules;
