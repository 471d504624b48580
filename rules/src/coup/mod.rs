//! Coup (two players, the original arbiter's protocol): `docs/games/coup.md`.
//!
//! - [`Card`]s with their reveal (`~^*!$`) and surrender (`_'<=0`) symbols, and
//!   [`CardCounts`];
//! - [`Action`]s and [`Move`]s with their exact protocol text, and a bot's [`LegalMoves`];
//! - [`legal_actions`]: the arbiter's `get_legal_actions`, which both the runner's game and
//!   bots use;
//! - with the `engine` feature, `Game`: one whole game stepped one invocation at a time.

mod card;
#[cfg(feature = "engine")]
mod game;
mod legal;
mod moves;

pub use card::{cards_to_string, parse_cards, Card, CardCounts};
#[cfg(feature = "engine")]
pub use game::{
    Applied, CoinSource, Event, Foul, Game, LossCause, Payment, Prompt, Step, WinReason, DECK_SIZE,
    INITIAL_COINS, MAX_INVOCATIONS,
};
pub use legal::{last_line, legal_actions, EMPTY_FILE_ACTIONS};
pub use moves::{Action, LegalMoves, Move};
