//! Bank Heist (a free-for-all of G games with host-side rabble, argv protocol, no files):
//! `docs/games/bank-heist.md`.
//!
//! - the five [`Bank`]s and which one a heist robs;
//! - round-2 [`Answer`]s and round-1 bets ([`parse_bet`]) as the host reads a bot's output;
//! - the rules' [`Variant`]: the contest's text (the default) or its author's controller;
//! - with the `engine` feature, `Tournament`: one tournament of G games, the rabble, dice and
//!   bookkeeping, stepped one bot decision at a time.

mod answer;
mod bank;
#[cfg(feature = "engine")]
mod tournament;
mod variant;

pub use answer::{parse_bet, Answer};
pub use bank::{Bank, CREDITS_PER_HEISTER};
#[cfg(feature = "engine")]
pub use tournament::{
    decimal, Args, Ask, Event, Ledger, Person, Response, Round, Tournament, Who, FINGER_DRAWS,
    GAMES, PAYDAY_LOAN, RABBLE, START_CREDITS,
};
pub use variant::{Variant, RABBLE_BETS};
