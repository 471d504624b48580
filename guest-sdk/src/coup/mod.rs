//! Coup: argv and the history file as a typed [`State`], moves as [`Move`], and [`run`].
//!
//! A bot is invoked once per decision with
//! `argv = [name, history_file, opponent_coins, my_coins, my_cards, legal_action...]`
//! and must append exactly one legal action to the history file (and, when finishing an
//! Exchange, print the cards it keeps). See the crate docs for an example.

mod arbiter;
mod card;
mod error;
mod history;
mod moves;
mod play;
mod state;

#[cfg(test)]
mod tests;

pub use arbiter::legal_actions;
pub use card::{cards_to_string, parse_cards, Card, CardCounts};
pub use error::Error;
pub use history::{Claim, ClaimKind, ClaimOutcome, Event, History, Player, Seat, Turn};
pub use moves::{Action, LegalMoves, Move};
pub use play::{append_move, exchange_output, run, run_with, Decision};
pub use state::{LossReason, Phase, State};
