//! LimeadeSneaktar: "Changes jobs whenever it can during the first part of the tournament.
//! Double crosses the rest of the time."
//!
//! Port of the seed's Python bot: always bets 1; in round 2 changes jobs while employed
//! before game 900, else double crosses. (The seed's description says "every second game",
//! but its code double crosses every game it does not change jobs; the port follows the
//! code.)
//!
//! Departures from the original: none in behaviour. A malformed argv exits 1 (the host
//! counts a bet of 0, or keeps the bet), as the Python would by raising.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => Decision::Bet(1),
        Round::Second if args.employed && args.game < 900 => Answer::ChangeJobs.into(),
        Round::Second => Answer::DoubleCross.into(),
    }
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_crosses_unless_it_can_change_jobs() {
        let answer = |game, employed| {
            decide(&Args {
                employed,
                ..Args::at(game, Round::Second)
            })
        };
        assert_eq!(answer(0, true), Answer::ChangeJobs.into());
        assert_eq!(answer(0, false), Answer::DoubleCross.into());
        assert_eq!(answer(900, true), Answer::DoubleCross.into());
        assert_eq!(decide(&Args::at(0, Round::First)), Decision::Bet(1));
    }
}
