//! Bank Heist (a free-for-all of G games with host-side rabble, argv protocol, no files):
//! `docs/games/bank-heist.md`.
//!
//! Played by its referee, `koth-referee-bank-heist` (`referees/bank-heist`), run natively
//! through the referee layer: one code path for `koth bank-heist`, `koth play bank-heist`
//! and `koth play bank_heist_referee.wasm`. A match is one tournament of every bot.
//!
//! - [`rules`]: the pure game: banks, both rounds, every answer, paychecks, rabble; it lives
//!   in the `koth-rules` crate (shared with the guest SDK and referees).
//! - [`game`] and [`options`]: the referee's game as the tournament commands run it, and a
//!   run's options from `koth bank-heist`'s choices.
//! - [`driver`] and [`format`]: the built-in game that played Bank Heist before its referee
//!   (archives without the game's shape in their manifest), its records and archive layout.
//!   koth keeps them to read, re-play and verify those archives; their tournaments are
//!   played again through the referee, which plays the driver's tournaments decision for
//!   decision (`tests/fixtures/koth-0.7.0` holds one the driver wrote).

pub mod driver;
pub mod format;
pub mod judge;

pub use koth_rules::bank_heist as rules;

use crate::referee::game::RefereeGame;
use crate::referee::options::{resolve, OptError};
use crate::referee::shape::{FormatName, RefereeOptions};
use crate::referee::{Native, Referee};
use crate::sandbox::Limits;
use koth_referee_bank_heist::{BankHeistReferee, GAMES, RULES};
use rules::Variant;
use std::sync::Arc;

pub use koth_referee_bank_heist::NAME;

/// Bank Heist's referee (`koth-referee-bank-heist`, `referees/bank-heist`), built in.
pub fn referee() -> Arc<dyn Referee> {
    Arc::new(Native::new(BankHeistReferee))
}

/// Bank Heist as the tournament commands play it.
pub fn game() -> RefereeGame {
    RefereeGame::new(referee())
}

/// The options of a run: `tournaments` of every bot (the referee's rounds), each of `games`
/// games (`None`: drawn per tournament from 1000..=1100), under `rules`. They are what
/// `koth play bank-heist` records with `--rounds TOURNAMENTS --opt games=G --opt
/// rules=NAME`, so both commands write the same archive.
pub fn options(
    tournaments: u32,
    games: Option<u32>,
    rules: Variant,
    seed: u64,
    limits: Limits,
) -> Result<RefereeOptions, OptError> {
    let referee = referee();
    let d = referee.description();
    let values = resolve(
        &d.options,
        &[
            format!("{GAMES}={}", games.unwrap_or(0)),
            format!("{RULES}={}", rules.name()),
        ],
    )?;
    Ok(RefereeOptions::new(
        d,
        FormatName::AllPlayAll,
        tournaments,
        None,
        false,
        values,
        seed,
        limits,
    ))
}
