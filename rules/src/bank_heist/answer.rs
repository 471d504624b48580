//! Round-2 answers and round-1 bets as the host reads them.

use std::fmt;

/// A heister's answer in round 2. The host trims the printed text and matches it exactly;
/// anything unrecognised keeps the bet, which is what [`Answer::Keep`] prints.
///
/// The effects below are the contest text's; under the original controller's arithmetic
/// ([`Variant::Original`](super::Variant::Original)) several differ (a finger takes a sixth,
/// interest is 1.4%, a single back out fails every other heist, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
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
    /// Keep the bet and heist as usual (prints the recommended `!guncheck`); also what any
    /// other text, or a failed invocation, comes to.
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

    /// Every answer with a protocol string of its own (all but [`Answer::Keep`]).
    pub const NAMED: [Answer; 9] = [
        Answer::BackOut,
        Answer::AllIn,
        Answer::ChangeJobs,
        Answer::AcquireIntel,
        Answer::BuyGuard,
        Answer::Deposit,
        Answer::Withdraw,
        Answer::DoubleCross,
        Answer::Finger,
    ];

    /// The exact protocol text (`!guncheck` for [`Answer::Keep`]).
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

    /// What the host makes of printed text: trimmed of surrounding whitespace, matched
    /// exactly (lowercase); anything else keeps the bet.
    pub fn parse(text: &str) -> Answer {
        let text = text.trim();
        Answer::NAMED
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

/// The round-1 bet a bot's output means: an integer (surrounding whitespace trimmed); above
/// its credits counts as all its credits; anything else is 0.
pub fn parse_bet(output: &str, credits: u64) -> u64 {
    let text = output.trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return 0;
    }
    // All digits: only overflow can fail, and a number that large is above any credits.
    text.parse::<u64>().map_or(credits, |n| n.min(credits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_exactly_after_trimming() {
        for a in Answer::ALL {
            assert_eq!(Answer::parse(a.as_str()), a);
            assert_eq!(Answer::parse(&format!("  {a}\n")), a);
        }
        for a in Answer::NAMED {
            assert_eq!(Answer::parse(&a.as_str().to_uppercase()), Answer::Keep);
        }
        for other in [
            "",
            "!guncheck",
            "backout",
            "all  in",
            "finger!",
            "\u{0}",
            "withdraw x",
        ] {
            assert_eq!(Answer::parse(other), Answer::Keep, "{other:?}");
        }
    }

    #[test]
    fn bets_parse_as_integers_capped_at_the_credits() {
        assert_eq!(parse_bet("69\n", 240), 69);
        assert_eq!(parse_bet(" 0 ", 240), 0);
        assert_eq!(parse_bet("1000", 240), 240);
        assert_eq!(parse_bet("99999999999999999999999", 240), 240);
        for bad in ["", "-5", "1.5", "12 13", "abc", "+3", "0x10"] {
            assert_eq!(parse_bet(bad, 240), 0, "{bad:?}");
        }
    }
}
