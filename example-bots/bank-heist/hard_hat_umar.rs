//! HardHatUmar: "Changes jobs whenever it can for most of the tournament. Avoids betting
//! more than the minimum needed."
//!
//! Port of the seed's Python bot: bets 1 while employed before game 900 (else 0), and
//! always answers `change jobs` in round 2.
//!
//! Departures from the original: none in behaviour. It parses all 31 arguments, not only
//! 1, 2 and 12, so a malformed argv exits 1 (the host counts a bet of 0, or keeps the bet).

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First if args.game < 900 && args.employed => Decision::Bet(1),
        Round::First => Decision::Bet(0),
        Round::Second => Answer::ChangeJobs.into(),
    }
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bets_1_to_change_jobs_while_employed() {
        let bet = |game, employed| {
            decide(&Args {
                employed,
                ..Args::at(game, Round::First)
            })
        };
        assert_eq!(bet(0, true), Decision::Bet(1));
        assert_eq!(bet(899, true), Decision::Bet(1));
        assert_eq!(bet(900, true), Decision::Bet(0));
        assert_eq!(bet(10, false), Decision::Bet(0));
        assert_eq!(
            decide(&Args::at(950, Round::Second)),
            Decision::Answer(Answer::ChangeJobs)
        );
    }
}
