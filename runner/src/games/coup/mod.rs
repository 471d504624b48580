//! Coup (two players, file-append protocol): `docs/games/coup.md`.
//!
//! - [`rules`]: the pure game (state, legal actions, effects), a port of the original arbiter;
//!   it lives in the `koth-rules` crate (shared with the guest SDK and referees).
//! - [`driver`]: plays one game between two [`Player`](crate::games::Player)s through the
//!   file protocol, enforcing the file rules and turning every sandbox outcome into a forfeit.
//! - [`tournament`]: the round robin, its leaderboard and its archive.
//! - [`referee()`]: the same game as a referee (`koth play coup`), which plays the driver's
//!   games move for move (`twin_tests`) and writes a referee's archive.

pub mod driver;
pub mod judge;
pub mod tournament;

#[cfg(test)]
mod twin_tests;

pub use koth_rules::coup as rules;

use crate::referee::{Native, Referee};
use std::sync::Arc;

/// Coup's referee (`koth-referee-coup`, `referees/coup`), built in: `koth play coup` plays
/// it natively, through the same referee layer as `koth play coup_referee.wasm`.
pub fn referee() -> Arc<dyn Referee> {
    Arc::new(Native::new(koth_referee_coup::CoupReferee))
}
