//! Euchre (four seats in two partnerships, stdin protocol, a 1 KiB memory file):
//! `docs/games/euchre.md`.
//!
//! - [`Card`]s, [`Suit`]s and [`Rank`]s with their protocol text; bowers and effective suits
//!   ([`Card::suit_under`]), [`legal_plays`] and [`trick_winner`]; a compact [`CardSet`];
//! - the [`Kind`]s of decision and the [`Answer`]s to them, with their tokens;
//! - with the `engine` feature, `Game`: one game stepped one decision at a time, with the
//!   exact stdin text of each decision, the spec's defaults and the event log.

mod answer;
mod card;
#[cfg(feature = "engine")]
mod game;

pub use answer::{Answer, Kind};
pub use card::{cards_to_string, legal_plays, push_cards, trick_winner, Card, CardSet, Rank, Suit};
#[cfg(feature = "engine")]
pub use game::{
    partner_of, team_of, BadAnswer, Config, Decision, Event, Game, Outcome, Response, RuleError,
    Score, DECK_SIZE, DEFAULT_MAX_DEALS, DEFAULT_TARGET, HAND_SIZE, TRICKS,
};
