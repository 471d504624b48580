//! Round-2 answers, a bot's decision, and printing it.

use super::args::{Args, Round};
use super::error::Error;
use std::fmt;
use std::io::Write;

/// A heister's answer in round 2. The host trims the printed text and matches it exactly;
/// anything unrecognised keeps the bet, which is what [`Answer::Keep`] prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// `back out`: the wager returns to 0, the remaining heisters' probability shrinks, and
    /// the bot forfeits this game's paycheck.
    BackOut,
    /// `all in`: stake all credits plus a loan of the next paycheck, alone (no dilution by
    /// others backing out, nothing stolen by double crossers); a loss leaves 0.
    AllIn,
    /// `change jobs`: quit the job; 5% chance each game to be hired at 5% more pay.
    ChangeJobs,
    /// `acquire intel`: if the heist succeeds, spend all its winnings on +0.00001 odds per
    /// credit at this bank, permanently.
    AcquireIntel,
    /// `buy guard`: paycheck −1 permanently; probability at this bank +1% of what it lacks
    /// of 1, permanently, whether or not the heist succeeds.
    BuyGuard,
    /// `deposit`: if the heist succeeds, its winnings go into the account at this bank
    /// (0.14% interest per game, not counted in the score).
    Deposit,
    /// `withdraw`: if the heist succeeds, the account at this bank is added to its
    /// winnings (where double crossers can steal it).
    Withdraw,
    /// `double cross`: steal the other heisters' winnings, if few enough double cross.
    DoubleCross,
    /// `finger`: if the heist succeeds, 8 draws among the heisters to identify double
    /// crossers, each paying 25% of its credits.
    Finger,
    /// Keep the bet and heist as usual (prints the recommended `!guncheck`).
    Keep,
}

impl Answer {
    /// Every answer.
    pub const ALL: [Answer; 10] = [
        Answer::BackOut,
        Answer::AllIn,
        Answer::ChangeJobs,
        Answer::AcquireIntel,
        Answer::BuyGuard,
        Answer::Deposit,
        Answer::Withdraw,
        Answer::DoubleCross,
        Answer::Finger,
        Answer::Keep,
    ];

    /// The exact protocol text.
    pub const fn as_str(self) -> &'static str {
        match self {
            Answer::BackOut => "back out",
            Answer::AllIn => "all in",
            Answer::ChangeJobs => "change jobs",
            Answer::AcquireIntel => "acquire intel",
            Answer::BuyGuard => "buy guard",
            Answer::Deposit => "deposit",
            Answer::Withdraw => "withdraw",
            Answer::DoubleCross => "double cross",
            Answer::Finger => "finger",
            Answer::Keep => "!guncheck",
        }
    }

    /// What the host makes of printed text: trimmed, matched exactly, anything else keeps
    /// the bet.
    pub fn parse(text: &str) -> Answer {
        let text = text.trim();
        Answer::ALL
            .into_iter()
            .find(|a| a.as_str() == text)
            .unwrap_or(Answer::Keep)
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

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
