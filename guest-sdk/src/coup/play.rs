//! Making the move: appending to the history file, the Exchange output, and `run`.

use super::error::Error;
use super::state::{Phase, State};
use super::{cards_to_string, Card, CardCounts, LegalMoves, Move};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

/// A bot's answer to one invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Write this move. When finishing an Exchange, `Play(Move::EndTurn)` keeps the first
    /// cards offered.
    Play(Move),
    /// Finish an Exchange keeping these cards (exactly as many as the bot held, chosen
    /// from the offered ones): they are printed to stdout and the turn is ended.
    Keep(Vec<Card>),
}

impl From<Move> for Decision {
    fn from(mv: Move) -> Decision {
        Decision::Play(mv)
    }
}

/// Appends `text` to the history file in one write, after checking that it is exactly one
/// of the legal actions; anything else is refused, since the arbiter would forfeit it.
pub fn append_move(history_file: &Path, legal: &LegalMoves, text: &str) -> Result<(), Error> {
    if !legal.contains_text(text) {
        let offered: Vec<&str> = legal.texts().collect();
        return Err(Error::IllegalMove(format!(
            "{text:?} is not one of the legal actions {offered:?}"
        )));
    }
    // Append mode, never truncate or create: the host checks the file is the old content
    // plus our one or two characters.
    let mut file = OpenOptions::new().append(true).open(history_file)?;
    file.write_all(text.as_bytes())?;
    file.flush()?;
    Ok(())
}

/// Checks an Exchange choice and returns the text to print: exactly `keep_count` cards,
/// each taken from `offered` (as often as it is offered).
pub fn exchange_output(
    offered: &[Card],
    keep_count: usize,
    keep: &[Card],
) -> Result<String, Error> {
    if keep.len() != keep_count {
        return Err(Error::IllegalExchange(format!(
            "must keep {keep_count} cards, chose {}",
            keep.len()
        )));
    }
    let mut available = CardCounts::of(offered);
    for &card in keep {
        if available.get(card) == 0 {
            return Err(Error::IllegalExchange(format!(
                "{card} is not among the offered cards {}",
                cards_to_string(offered)
            )));
        }
        available.remove(card);
    }
    Ok(cards_to_string(keep))
}

impl State {
    /// The exact text to append for `mv`, or an error if it is not legal now.
    pub fn text_for(&self, mv: Move) -> Result<&str, Error> {
        self.legal().text(mv).ok_or_else(|| {
            let offered: Vec<Move> = self.legal().moves().collect();
            Error::IllegalMove(format!("{mv:?} is not among the legal moves {offered:?}"))
        })
    }

    /// Carries out `decision`: appends the move to the history file and, when finishing an
    /// Exchange, first prints the kept cards to `stdout`.
    pub fn commit<W: Write>(&self, decision: Decision, stdout: &mut W) -> Result<(), Error> {
        match (self.phase(), decision) {
            (Phase::FinishExchange { keep }, decision) => {
                let chosen = match decision {
                    Decision::Keep(cards) => cards,
                    Decision::Play(Move::EndTurn) => {
                        self.cards().iter().copied().take(keep).collect()
                    }
                    Decision::Play(mv) => {
                        return Err(Error::IllegalMove(format!(
                            "{mv:?} while finishing an Exchange (return Decision::Keep)"
                        )))
                    }
                };
                let output = exchange_output(self.cards(), keep, &chosen)?;
                let text = self.text_for(Move::EndTurn)?;
                // The host reads stdout after the run; print first so that a failed print
                // never leaves a turn ended without a choice.
                stdout.write_all(output.as_bytes())?;
                stdout.flush()?;
                append_move(self.history_file(), self.legal(), text)
            }
            (_, Decision::Keep(_)) => Err(Error::IllegalExchange(
                "Decision::Keep outside an Exchange".into(),
            )),
            (_, Decision::Play(mv)) => {
                append_move(self.history_file(), self.legal(), self.text_for(mv)?)
            }
        }
    }
}

/// Runs a bot for one invocation with the given argv (without `argv[0]`): loads the state,
/// asks `bot`, commits its decision, printing Exchange output to `stdout`.
pub fn run_with<S, W, F>(args: &[S], stdout: &mut W, bot: F) -> Result<(), Error>
where
    S: AsRef<str>,
    W: Write,
    F: FnOnce(&State) -> Decision,
{
    let state = State::load(args)?;
    let decision = bot(&state);
    state.commit(decision, stdout)
}

/// A bot's whole `main`: reads argv and the history file, asks `bot` for its decision and
/// writes it. On any error it prints the error to stderr and exits with status 1.
pub fn run<F: FnOnce(&State) -> Decision>(bot: F) {
    let result = State::from_env().and_then(|state| {
        let decision = bot(&state);
        state.commit(decision, &mut std::io::stdout().lock())
    });
    if let Err(e) = result {
        eprintln!("koth-guest: {e}");
        std::process::exit(1);
    }
}
