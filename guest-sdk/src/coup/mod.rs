//! Coup: argv and the history file as a typed [`State`], moves as [`Move`], and [`run`].
//!
//! A bot is invoked once per decision with
//! `argv = [name, history_file, opponent_coins, my_coins, my_cards, legal_action...]`
//! and must append exactly one legal action to the history file (and, when finishing an
//! Exchange, print the cards it keeps). See the crate docs for an example.

mod error;
mod history;
mod play;
mod state;

#[cfg(test)]
mod tests;

pub use error::Error;
pub use history::{Claim, ClaimKind, ClaimOutcome, Event, History, Player, Seat, Turn};
/// The protocol's cards, actions, moves and the arbiter's legal actions, from `koth-rules`:
/// the same code koth judges with.
pub use koth_rules::coup::{
    cards_to_string, legal_actions, parse_cards, Action, Card, CardCounts, LegalMoves, Move,
};
pub use play::{append_move, exchange_output, run, run_with, Decision};
pub use state::{LossReason, Phase, State};
