//! What can go wrong between argv, the history file and the move.

use std::fmt;
use std::io;

/// An error reading the invocation or writing the move. Any of these would forfeit the game,
/// so [`run`](super::run) reports it on stderr and exits non-zero.
#[derive(Debug)]
pub enum Error {
    /// argv does not have the Coup shape (missing or malformed argument).
    Args(String),
    /// The history file is not a Coup history.
    History(String),
    /// Reading the history file, appending to it or writing stdout failed.
    Io(io::Error),
    /// The bot chose a move that is not among the legal actions.
    IllegalMove(String),
    /// The bot's Exchange choice is not a valid selection of the offered cards.
    IllegalExchange(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Args(m) => write!(f, "bad arguments: {m}"),
            Error::History(m) => write!(f, "bad history: {m}"),
            Error::Io(e) => write!(f, "I/O error: {e}"),
            Error::IllegalMove(m) => write!(f, "illegal move: {m}"),
            Error::IllegalExchange(m) => write!(f, "illegal exchange: {m}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}
