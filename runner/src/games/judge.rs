//! How a game reads one answer to an input typed by hand (`koth invoke --game`): legal or
//! not and why, and the legal answers where the game has a list of them. Each game judges
//! from what the bot got alone (its arguments, stdin and history file), as far as that input
//! tells; what it cannot tell (a Euchre card turned down earlier) is said, not guessed.

use super::{bank_heist, coup, euchre};

/// A game's reading of one answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judgement {
    /// The answer as the game reads it (`appended "T"`, `bet 40`, `plays 9c`).
    pub reading: String,
    /// `None` if the answer stands; else why the game refuses it (a Coup forfeit) or puts its
    /// default in its place (Bank Heist, Euchre).
    pub refused: Option<String>,
    /// The legal answers for this input, where the game has a list of them.
    pub choices: Option<Vec<String>>,
    /// What is wrong or unknowable in the input itself (arguments the rules would not give
    /// for this history, a line missing).
    pub input_notes: Vec<String>,
}

/// What a bot got and did, as a game judges it.
pub struct Answered<'a> {
    /// Its arguments after `argv[0]`.
    pub args: &'a [String],
    /// Its stdin.
    pub stdin: &'a [u8],
    /// Its folder's top-level file named by the first argument, before and after (Coup's
    /// history file).
    pub file_before: Option<&'a [u8]>,
    /// The same file after the decision.
    pub file_after: Option<&'a [u8]>,
    /// What it printed.
    pub stdout: &'a [u8],
}

/// The games `koth invoke --game` can judge.
pub const JUDGED: [&str; 3] = [coup::NAME, bank_heist::NAME, euchre::NAME];

/// Judge `a` by the rules of `game` (one of [`JUDGED`]); `None` for another name.
pub fn judge(game: &str, a: &Answered<'_>) -> Option<Judgement> {
    match game {
        coup::NAME => Some(coup::judge::judge(a)),
        bank_heist::NAME => Some(bank_heist::judge::judge(a)),
        euchre::NAME => Some(euchre::judge::judge(a)),
        _ => None,
    }
}
