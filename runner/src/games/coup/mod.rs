//! Coup (two players, file-append protocol): `docs/games/coup.md`.
//!
//! Played by its referee, `koth-referee-coup` (`referees/coup`), run natively through the
//! referee layer: one code path for `koth coup`, `koth play coup` and `koth play
//! coup_referee.wasm`, and the contest server's Coup contests.
//!
//! - [`rules`]: the pure game (state, legal actions, effects), a port of the original arbiter;
//!   it lives in the `koth-rules` crate (shared with the guest SDK and referees).
//! - [`game`] and [`options`]: the referee's game as the tournament commands run it, and a
//!   run's options from `koth coup`'s choices.
//! - [`driver`] and [`tournament`]: the built-in game that played Coup before its referee
//!   (`koth-results/3` and earlier), its records and archive layout. koth keeps them to read,
//!   re-play and verify those archives; their games are played again through the referee,
//!   which plays the driver's games move for move (`tests/fixtures/koth-0.7.0` holds
//!   archives the driver wrote, and `tests/tests/legacy_archives.rs` verifies them).

pub mod driver;
pub mod judge;
pub mod tournament;

pub use koth_rules::coup as rules;

use crate::referee::game::RefereeGame;
use crate::referee::shape::{FormatName, RefereeOptions};
use crate::referee::{Native, Referee};
use crate::sandbox::Limits;
use crate::tournament::ScratchScope;
use std::sync::Arc;

pub use koth_referee_coup::NAME;

/// Coup's referee (`koth-referee-coup`, `referees/coup`), built in: `koth coup` and `koth
/// play coup` play it natively, through the same referee layer as `koth play
/// coup_referee.wasm`.
pub fn referee() -> Arc<dyn Referee> {
    Arc::new(Native::new(koth_referee_coup::CoupReferee))
}

/// Coup as the tournament commands play it.
pub fn game() -> RefereeGame {
    RefereeGame::new(referee())
}

/// The options of a run: `rounds` of the ordered-pair round robin (or of a sampled ladder of
/// `opponents` per bot), `paired` deals or not, each bot's folder kept for a game or the
/// whole run. They are what `koth play coup` records with the same flags, so both commands
/// write the same archive.
pub fn options(
    rounds: u32,
    scratch: ScratchScope,
    paired: bool,
    opponents: Option<u32>,
    seed: u64,
    limits: Limits,
) -> RefereeOptions {
    let referee = referee();
    RefereeOptions {
        opponents,
        scratch,
        ..RefereeOptions::new(
            referee.description(),
            FormatName::OrderedPairs,
            rounds,
            None,
            paired,
            Default::default(),
            seed,
            limits,
        )
    }
}
