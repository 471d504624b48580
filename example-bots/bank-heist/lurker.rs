//! Lurker: "Never bets. If you don't beat this, rethink your strategy."
//!
//! Port of the seed's Python `print 0`: it bets 0 in every game, so it is never asked in
//! round 2 and ends a G-game tournament with exactly 240 × (G + 1) credits.
//!
//! Departures from the original:
//! - in round 2 (which it never reaches) it prints `!guncheck`, not `0`: both keep the bet,
//!   and the SDK's answers are the protocol's strings;
//! - it reads its argv through the SDK, so a malformed argv exits 1 instead of printing 0;
//!   the host counts a failed round 1 as a bet of 0, the same outcome.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => Decision::Bet(0),
        Round::Second => Answer::Keep.into(),
    }
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_bets() {
        for credits in [0, 240, 1_000_000] {
            let args = Args {
                credits,
                ..Args::at(7, Round::First)
            };
            assert_eq!(decide(&args), Decision::Bet(0));
        }
        assert_eq!(
            decide(&Args::at(7, Round::Second)),
            Decision::Answer(Answer::Keep)
        );
    }
}
