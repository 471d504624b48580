//! PassivePanga: "Always bets 69."
//!
//! Port of the seed's Python bot: in round 1 it bets 69 if it has more than 69 credits,
//! else 0; in round 2 it keeps its bet (`!guncheck`).
//!
//! Departures from the original: none in behaviour. The Python reads only arguments 2 and 9
//! and would ignore a malformed rest; the port parses all 31 and exits 1 on a malformed
//! argv (the host then counts a bet of 0, or keeps the bet).

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First if args.credits > 69 => Decision::Bet(69),
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
    fn bets_69_only_with_more_than_69() {
        let bet = |credits| {
            decide(&Args {
                credits,
                ..Args::at(3, Round::First)
            })
        };
        assert_eq!(bet(70), Decision::Bet(69));
        assert_eq!(bet(1_000_000), Decision::Bet(69));
        assert_eq!(bet(69), Decision::Bet(0));
        assert_eq!(bet(0), Decision::Bet(0));
        assert_eq!(
            decide(&Args::at(3, Round::Second)),
            Decision::Answer(Answer::Keep)
        );
    }
}
