//! LonelyJohn (MegaTom's answer): "Bribes guards until it has the probability to win, then
//! goes all in. Alone."
//!
//! Port of the seed's Python bot. Round 1: half its credits (integer division) if it has
//! more than 100 or a job, else 0. Round 2, in order: `all in` if its probability at this
//! bank exceeds 0.6; `buy guard` while its paycheck exceeds 50; `withdraw` if its
//! probability times (confirmed + 1) / (decided + 1) is below 0.30; else keep the bet.
//!
//! Departures from the original:
//! - none in behaviour, including a bug the port keeps: the original's `change jobs`
//!   branch tests `hired == "1"`, an integer against a string, which is never true in
//!   Python, so it never changes jobs (the contest's author pointed this out); the port
//!   leaves that branch out;
//! - a malformed argv exits 1 (the host counts a bet of 0, or keeps the bet), as the
//!   Python would by raising.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    if args.round == Round::First {
        // Python 2's `/` on integers: floor division.
        let bet = if args.credits > 100 || args.employed {
            args.credits / 2
        } else {
            0
        };
        return Decision::Bet(bet);
    }
    let p = args.probability_at(args.bank);
    let answer = if p > 0.6 {
        Answer::AllIn
    } else if args.paycheck > 50 {
        Answer::BuyGuard
    } else if p * (f64::from(args.confirmed) + 1.0) / (f64::from(args.decided) + 1.0) < 0.30 {
        // (The original's `change jobs` branch came here; it could never be taken.)
        Answer::Withdraw
    } else {
        Answer::Keep
    };
    answer.into()
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth_guest::bank_heist::Bank;

    #[test]
    fn bets_half() {
        let bet = |credits, employed| {
            decide(&Args {
                credits,
                employed,
                ..Args::at(1, Round::First)
            })
        };
        assert_eq!(bet(241, true), Decision::Bet(120));
        assert_eq!(bet(50, true), Decision::Bet(25));
        assert_eq!(bet(101, false), Decision::Bet(50));
        assert_eq!(bet(100, false), Decision::Bet(0));
    }

    #[test]
    fn guards_until_probable_then_all_in() {
        let mut args = Args {
            bank: Bank::City,
            employed: true,
            ..Args::at(100, Round::Second)
        };
        assert_eq!(decide(&args), Answer::BuyGuard.into());
        args.probabilities[Bank::City.index()] = 0.61;
        assert_eq!(decide(&args), Answer::AllIn.into());
        // A spent paycheck: withdraw when the heist looks bad, keep otherwise; never
        // change jobs.
        args.probabilities[Bank::City.index()] = 0.5;
        args.paycheck = 50;
        args.decided = 9;
        args.confirmed = 4;
        assert_eq!(decide(&args), Answer::Withdraw.into());
        args.confirmed = 9;
        assert_eq!(decide(&args), Answer::Keep.into());
        args.credits = 5000;
        assert_eq!(decide(&args), Answer::Keep.into());
    }
}
