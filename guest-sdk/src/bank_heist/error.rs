//! What can go wrong between argv and the printed decision.

use super::answer::Decision;
use super::args::Round;
use std::fmt;
use std::io;

/// An error reading the invocation or printing the decision. The host treats a failed
/// invocation as a bet of 0 (round 1) or keeping the bet (round 2); [`run`](super::run)
/// reports the error on stderr and exits 1.
#[derive(Debug)]
pub enum Error {
    /// argv does not hold exactly the 31 arguments after the bot's name.
    Count {
        /// How many arguments there were (without `argv[0]`).
        found: usize,
    },
    /// An argument is not valid UTF-8.
    NotUtf8 {
        /// Its number, from 1 (`argv[argument]`).
        argument: usize,
    },
    /// An argument does not parse as what the protocol says it is.
    Invalid {
        /// Its number, from 1 (`argv[argument]`).
        argument: usize,
        /// Its name, as in [`ARG_NAMES`](super::ARG_NAMES).
        name: &'static str,
        /// The text received.
        value: String,
        /// What it should have been.
        expected: &'static str,
    },
    /// The bot answered the wrong round: a bet in round 2 or an answer in round 1.
    WrongRound {
        /// The round it was asked about.
        round: Round,
        /// What it decided.
        decision: Decision,
    },
    /// Writing stdout failed.
    Io(io::Error),
}

impl Error {
    /// The number of the argument at fault, if one is.
    pub fn argument(&self) -> Option<usize> {
        match self {
            Error::NotUtf8 { argument } | Error::Invalid { argument, .. } => Some(*argument),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Count { found } => write!(
                f,
                "expected {} arguments after the bot's name, got {found}",
                super::ARG_COUNT
            ),
            Error::NotUtf8 { argument } => write!(f, "argument {argument} is not UTF-8"),
            Error::Invalid {
                argument,
                name,
                value,
                expected,
            } => write!(
                f,
                "argument {argument} ({name}) is {value:?}, expected {expected}"
            ),
            Error::WrongRound { round, decision } => write!(
                f,
                "decided {decision:?} in round {}: round 1 takes a bet, round 2 an answer",
                round.number()
            ),
            Error::Io(e) => write!(f, "I/O error: {e}"),
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
