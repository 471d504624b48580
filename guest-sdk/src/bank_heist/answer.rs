//! A bot's decision, and printing it.

use super::args::{Args, Round};
use super::error::Error;
use super::Answer;
use std::io::Write;

/// A bot's answer to one invocation: a bet in round 1, an [`Answer`] in round 2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Round 1: bet this many credits (more than the bot has counts as all of them; 0
    /// stays out of the heist).
    Bet(u64),
    /// Round 2: this answer.
    Answer(Answer),
}

impl From<Answer> for Decision {
    fn from(answer: Answer) -> Decision {
        Decision::Answer(answer)
    }
}

impl From<u64> for Decision {
    fn from(bet: u64) -> Decision {
        Decision::Bet(bet)
    }
}

impl Decision {
    /// The line to print, after checking it answers `round`.
    pub fn text_for(self, round: Round) -> Result<String, Error> {
        match (round, self) {
            (Round::First, Decision::Bet(bet)) => Ok(format!("{bet}\n")),
            (Round::Second, Decision::Answer(answer)) => Ok(format!("{answer}\n")),
            (round, decision) => Err(Error::WrongRound { round, decision }),
        }
    }
}

/// Runs a bot for one invocation with the given argv (without `argv[0]`): parses it, asks
/// `bot`, and prints its decision to `stdout`. Returns the decision.
pub fn run_with<S, W, F>(args: &[S], stdout: &mut W, bot: F) -> Result<Decision, Error>
where
    S: AsRef<str>,
    W: Write,
    F: FnOnce(&Args) -> Decision,
{
    let args = Args::parse(args)?;
    print_decision(&args, bot(&args), stdout)
}

fn print_decision<W: Write>(
    args: &Args,
    decision: Decision,
    stdout: &mut W,
) -> Result<Decision, Error> {
    let text = decision.text_for(args.round)?;
    stdout.write_all(text.as_bytes())?;
    stdout.flush()?;
    Ok(decision)
}

/// A bot's whole `main`: reads argv, asks `bot` and prints its decision. On any error it
/// prints the error to stderr and exits with status 1 (the host then counts a bet of 0, or
/// keeps the bet).
pub fn run<F: FnOnce(&Args) -> Decision>(bot: F) {
    let result = Args::from_env()
        .and_then(|args| print_decision(&args, bot(&args), &mut std::io::stdout().lock()));
    if let Err(e) = result {
        eprintln!("koth-guest: {e}");
        std::process::exit(1);
    }
}
