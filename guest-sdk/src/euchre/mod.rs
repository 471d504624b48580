//! Euchre: the stdin input as a typed [`Input`], card and trump helpers, a 1 KiB
//! [`Memory`], and [`run`] / [`run_with_memory`].
//!
//! Each decision is one invocation; the input on stdin is the hand, the team's points, the
//! team's tricks this hand, the phase, then the phase's lines; the answer is printed on
//! stdout. See the crate docs for an example.

mod input;
mod memory;
mod play;

#[cfg(test)]
mod tests;

pub use input::{Input, Phase};
/// The cards, bowers and effective suits, the rules of a trick and the answers' tokens, from
/// `koth-rules`: the same code koth judges with.
pub use koth_rules::euchre::{
    cards_to_string, legal_plays, trick_winner, Answer, Card, CardSet, Rank, Suit,
};
pub use memory::{Memory, MEMORY_CAPACITY, MEMORY_FILE, MEMORY_LIMIT};
pub use play::{print_answer, run, run_with, run_with_memory};

use std::fmt;

/// What can go wrong in the plumbing.
#[derive(Debug)]
pub enum Error {
    /// The input is not in the protocol's format.
    Input(String),
    /// Memory bytes beyond [`MEMORY_CAPACITY`] (the number given).
    TooLarge(usize),
    /// The directory's quota is full (`ENOSPC`): the memory was not saved.
    NoSpace,
    /// Reading stdin, printing, or another file error.
    Io(std::io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Input(what) => write!(f, "bad input: {what}"),
            Error::TooLarge(n) => write!(
                f,
                "{n} bytes of memory, at most {MEMORY_CAPACITY} fit in the {MEMORY_LIMIT}-byte file"
            ),
            Error::NoSpace => f.write_str("no space left for the memory file"),
            Error::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        if e.kind() == std::io::ErrorKind::StorageFull {
            Error::NoSpace
        } else {
            Error::Io(e)
        }
    }
}
