//! Euchre (four players in two teams, one stdin input per decision): `docs/games/euchre.md`.
//!
//! Played by its referee, `koth-referee-euchre` (`referees/euchre`), run natively through
//! the referee layer: one code path for `koth euchre` and `koth play euchre_referee.wasm`,
//! whose archives are byte-identical but for the manifest's `referee`.
//!
//! - [`rules`]: the pure game, in the `koth-rules` crate (shared with the guest SDK and the
//!   referee).
//! - [`game`]: the referee's game as the tournament commands run, resume, shard, merge and
//!   verify it; [`options`]: a run's options from `koth euchre`'s choices.

pub mod judge;

use crate::referee::game::RefereeGame;
use crate::referee::options::{resolve, OptError};
use crate::referee::shape::{FormatName, PartnersName, RefereeOptions};
use crate::referee::{Native, Referee};
use crate::sandbox::Limits;
use koth_referee_euchre::EuchreReferee;
use std::sync::Arc;

pub use koth_referee_euchre::{MAX_TARGET, MEMORY_BYTES, NAME, SEATS, TARGET};
pub use koth_rules::euchre as rules;

/// How teams are formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partners {
    /// Each bot partnered with a copy of itself: every pair of bots meets each round (the
    /// referee's `tables`).
    Copies,
    /// Four bots, partners drawn at random for each game, the seed's mode (the referee's
    /// `all-play-all`).
    Random,
}

/// Euchre's referee, built in.
pub fn referee() -> Arc<dyn Referee> {
    Arc::new(Native::new(EuchreReferee))
}

/// Euchre as the tournament commands play it.
pub fn game() -> RefereeGame {
    RefereeGame::new(referee())
}

/// The options of a run: `games` per pairing (rounds), to `target` points, teams formed by
/// `partners`, `paired` deals or not. They are what `koth play euchre_referee.wasm` records
/// with `--rounds GAMES --opt target=TARGET` and the matching format and partners.
pub fn options(
    games: u32,
    target: u32,
    partners: Partners,
    paired: bool,
    seed: u64,
    limits: Limits,
) -> Result<RefereeOptions, OptError> {
    let referee = referee();
    let d = referee.description();
    let (format, partners) = match partners {
        Partners::Copies => (FormatName::Tables, PartnersName::Copies),
        Partners::Random => (FormatName::AllPlayAll, PartnersName::Random),
    };
    let values = resolve(&d.options, &[format!("{TARGET}={target}")])?;
    Ok(RefereeOptions::new(
        d,
        format,
        games,
        Some(partners),
        paired,
        values,
        seed,
        limits,
    ))
}
