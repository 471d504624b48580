//! Coup (two players, file-append protocol): `docs/games/coup.md`.
//!
//! - [`rules`]: the pure game (state, legal actions, effects), a port of the original arbiter;
//!   it lives in the `koth-rules` crate (shared with the guest SDK and referees).
//! - [`driver`]: plays one game between two [`Player`](crate::games::Player)s through the
//!   file protocol, enforcing the file rules and turning every sandbox outcome into a forfeit.
//! - [`tournament`]: the round robin, its leaderboard and its archive.

pub mod driver;
pub mod judge;
pub mod tournament;

#[cfg(test)]
mod twin_tests;

pub use koth_rules::coup as rules;
