//! Everything one invocation knows: argv and the history, from this seat's viewpoint.

use super::error::Error;
use super::history::{Claim, History, Player, Seat, Turn};
use super::{parse_cards, Action, Card, CardCounts, LegalMoves, Move};
use std::path::{Path, PathBuf};

/// Why the bot must give up a card without a choice of move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LossReason {
    /// The opponent launched a Coup.
    Coup,
    /// The bot challenged and the opponent revealed the card.
    FailedChallenge,
}

/// What the bot is being asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The bot's turn begins: choose an action (a capital letter).
    Act,
    /// The opponent announced this action (Foreign Aid, Exchange, Tax, Assassinate or
    /// Steal): block, challenge, pass, or (Assassinate) give up a card.
    Respond(Action),
    /// The opponent blocked the bot's `action` claiming `card`: challenge it, or accept the
    /// block by ending the turn.
    Blocked {
        /// The bot's blocked action.
        action: Action,
        /// The card the opponent claims.
        card: Card,
    },
    /// The opponent challenged the bot's claim to `card`: if the bot holds it the only
    /// legal move is to reveal it, otherwise it gives up a card of its choice.
    Challenged {
        /// The challenged card.
        card: Card,
        /// True if the claim was a block, false if it was the bot's action.
        block: bool,
    },
    /// The bot must give up a card.
    LoseCard(LossReason),
    /// The bot's turn is over: end it with a newline.
    EndTurn,
    /// The bot's Exchange went through: choose `keep` of the offered cards (printed to
    /// stdout) and end the turn.
    FinishExchange {
        /// How many cards to keep: as many as the bot held.
        keep: usize,
    },
}

/// One invocation's view of the game.
#[derive(Debug, Clone)]
pub struct State {
    history_file: PathBuf,
    opponent_coins: u32,
    my_coins: u32,
    cards: Vec<Card>,
    legal: LegalMoves,
    history: History,
    phase: Phase,
}

impl State {
    /// Reads the process's argv and the history file it names.
    pub fn from_env() -> Result<State, Error> {
        let args = std::env::args_os()
            .skip(1)
            .map(|a| {
                a.into_string()
                    .map_err(|a| Error::Args(format!("argument {a:?} is not UTF-8")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        State::load(&args)
    }

    /// Builds the state from argv without `argv[0]` (history file name, opponent's coins,
    /// own coins, own cards, legal actions...), reading the named history file.
    pub fn load<S: AsRef<str>>(args: &[S]) -> Result<State, Error> {
        // Check the shape before touching the file, so a wrong argv is reported as such.
        let [name, _, _, _, _, ..] = args else {
            return Err(shape_error(args.len()));
        };
        let text = std::fs::read_to_string(name.as_ref())?;
        State::parse(args, &text)
    }

    /// The state a bot is invoked with at this position: `history`, its own `cards` and coins,
    /// and the legal actions the arbiter would pass (its `get_legal_actions`). For unit tests
    /// of a bot's decisions; nothing is read or written.
    pub fn at_position(
        history: &str,
        cards: &[Card],
        my_coins: u32,
        opp_coins: u32,
    ) -> Result<State, Error> {
        let mut args = vec![
            "history.txt".to_string(),
            opp_coins.to_string(),
            my_coins.to_string(),
            super::cards_to_string(cards),
        ];
        args.extend(super::legal_actions(history, cards, my_coins, opp_coins));
        State::parse(&args, history)
    }

    /// Builds the state from argv without `argv[0]` and the history file's content.
    /// Nothing is read or written: this is the entry point for unit tests.
    pub fn parse<S: AsRef<str>>(args: &[S], history: &str) -> Result<State, Error> {
        let [file, opp, mine, cards, legal @ ..] = args else {
            return Err(shape_error(args.len()));
        };
        let cards_text = cards.as_ref();
        let cards = parse_cards(cards_text)
            .ok_or_else(|| Error::Args(format!("cards {cards_text:?} are not in ~^*!$")))?;
        let legal = LegalMoves::parse(legal).map_err(Error::Args)?;
        if legal.is_empty() {
            return Err(Error::Args("no legal actions given".into()));
        }
        let history = History::parse(history).map_err(Error::History)?;
        let phase = phase_of(&history, cards.len())?;
        Ok(State {
            history_file: PathBuf::from(file.as_ref()),
            opponent_coins: parse_coins(opp.as_ref())?,
            my_coins: parse_coins(mine.as_ref())?,
            cards,
            legal,
            history,
            phase,
        })
    }

    /// The history file's name as given (relative to the current directory).
    pub fn history_file(&self) -> &Path {
        &self.history_file
    }

    /// What the bot is asked to do now.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The legal moves, with their exact text.
    pub fn legal(&self) -> &LegalMoves {
        &self.legal
    }

    /// Whether `mv` is legal now.
    pub fn can(&self, mv: Move) -> bool {
        self.legal.contains(mv)
    }

    /// `mv` if it is legal now, otherwise the first legal move: the safe way to turn a
    /// preference into a move.
    pub fn or_first_legal(&self, mv: Move) -> Move {
        if self.can(mv) {
            mv
        } else {
            self.legal.first().unwrap_or(mv)
        }
    }

    /// The first of `preferences` that is legal, otherwise the first legal move.
    pub fn first_legal_of(&self, preferences: &[Move]) -> Move {
        preferences
            .iter()
            .copied()
            .find(|&mv| self.can(mv))
            .or_else(|| self.legal.first())
            .unwrap_or(Move::EndTurn)
    }

    /// Giving up a card, if that is what is asked: the first card of `worst_first` that
    /// can be given up now, else any card that can. `None` if no card can be given up.
    pub fn give_up(&self, worst_first: &[Card]) -> Option<Move> {
        let options = self.legal.surrenders();
        worst_first
            .iter()
            .copied()
            .find(|card| options.contains(card))
            .or_else(|| options.first().copied())
            .map(Move::Surrender)
    }

    /// The bot's coins.
    pub fn my_coins(&self) -> u32 {
        self.my_coins
    }

    /// The opponent's coins.
    pub fn opponent_coins(&self) -> u32 {
        self.opponent_coins
    }

    /// The bot's cards as argv gives them. When finishing an Exchange these are the n + 2
    /// cards to choose from (the original arbiter lists the two drawn cards first).
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }

    /// Whether the bot holds (or, finishing an Exchange, is offered) `card`.
    pub fn has(&self, card: Card) -> bool {
        self.cards.contains(&card)
    }

    /// How many cards the bot holds (not counting the two drawn in an Exchange).
    pub fn my_card_count(&self) -> usize {
        match self.phase {
            Phase::FinishExchange { keep } => keep,
            _ => self.cards.len(),
        }
    }

    /// How many cards the opponent still holds.
    pub fn opponent_card_count(&self) -> usize {
        2usize.saturating_sub(self.history.lost(Player::Opponent).len())
    }

    /// The parsed history.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// All turns so far, oldest first; the last may be in progress.
    pub fn turns(&self) -> &[Turn] {
        self.history.turns()
    }

    /// The turn in progress, if any.
    pub fn current_turn(&self) -> Option<&Turn> {
        self.history.current_turn()
    }

    /// The text of the line in progress (empty at the start of the bot's turn).
    pub fn current_line(&self) -> &str {
        self.history.current_line()
    }

    /// The bot's seat: who moved first.
    pub fn seat(&self) -> Seat {
        self.history.seat()
    }

    /// The opponent's claims (actions and blocks), oldest first.
    pub fn opponent_claims(&self) -> Vec<Claim> {
        self.history.claims(Player::Opponent)
    }

    /// The bot's own claims, oldest first.
    pub fn my_claims(&self) -> Vec<Claim> {
        self.history.claims(Player::Me)
    }

    /// Cards the opponent revealed after challenges (each then went back to the deck and
    /// was replaced, except an Ambassador proving an Exchange), oldest first.
    pub fn opponent_revealed(&self) -> Vec<Card> {
        self.history.revealed(Player::Opponent)
    }

    /// Cards the opponent has lost for good, oldest first.
    pub fn opponent_lost(&self) -> Vec<Card> {
        self.history.lost(Player::Opponent)
    }

    /// Cards the bot has lost for good, oldest first.
    pub fn my_lost(&self) -> Vec<Card> {
        self.history.lost(Player::Me)
    }

    /// Cards whose whereabouts the bot cannot see: the deck plus the opponent's hand. That
    /// is three of each, minus the bot's cards (all offered ones in an Exchange) and every
    /// lost card.
    pub fn unseen(&self) -> CardCounts {
        let mut counts = CardCounts::full_deck();
        let lost = self
            .history
            .lost(Player::Me)
            .into_iter()
            .chain(self.history.lost(Player::Opponent));
        for card in self.cards.iter().copied().chain(lost) {
            counts.remove(card);
        }
        counts
    }
}

fn shape_error(count: usize) -> Error {
    Error::Args(format!(
        "expected history file, two coin counts, cards and legal actions; got {count} arguments"
    ))
}

fn parse_coins(text: &str) -> Result<u32, Error> {
    // Clamp rather than reject: a coin count outside 0..=12 is odd but not worth a forfeit.
    text.trim()
        .parse::<i64>()
        .map(|n| u32::try_from(n.max(0)).unwrap_or(u32::MAX))
        .map_err(|_| Error::Args(format!("coin count {text:?} is not a number")))
}

/// The phase follows from the last write, which is always the opponent's.
fn phase_of(history: &History, card_count: usize) -> Result<Phase, Error> {
    let Some(turn) = history.current_turn() else {
        return Ok(Phase::Act);
    };
    let bad = |what: &str| Error::History(format!("line {:?}: {what}", turn.text));
    let action = turn.action().ok_or_else(|| bad("no action"))?;
    let n = turn.events.len();
    let last = turn.last().ok_or_else(|| bad("empty line"))?.mv;
    Ok(match last {
        Move::Coup => Phase::LoseCard(LossReason::Coup),
        Move::Block(card) => Phase::Blocked { action, card },
        Move::Challenge => {
            let claimed = n.checked_sub(2).map(|i| turn.events[i].mv);
            let card = claimed
                .and_then(Move::claim)
                .ok_or_else(|| bad("challenge of a move that claims no card"))?;
            Phase::Challenged {
                card,
                block: matches!(claimed, Some(Move::Block(_))),
            }
        }
        Move::Reveal(_) => Phase::LoseCard(LossReason::FailedChallenge),
        // The arbiter's test: an `E` line of even length ending in a pass or a card given
        // up by the challenger.
        Move::Pass | Move::Surrender(_) if action == Action::Exchange => {
            if !(3..=4).contains(&card_count) {
                return Err(Error::Args(format!(
                    "finishing an Exchange needs 3 or 4 cards, got {card_count}"
                )));
            }
            Phase::FinishExchange {
                keep: card_count - 2,
            }
        }
        Move::Pass | Move::Surrender(_) => Phase::EndTurn,
        Move::EndTurn | Move::Income => return Err(bad("complete line parsed as open")),
        _ => Phase::Respond(action),
    })
}
