//! SnitcherKing: "Always bets the minimum and always fingers."
//!
//! Port of the seed's Python bot: bets 1, answers `finger`.
//!
//! Departures from the original: none in behaviour. The Python reads only argument 2; the
//! port parses all 31, so a malformed argv exits 1 (the host counts a bet of 0, or keeps
//! the bet).

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => Decision::Bet(1),
        Round::Second => Answer::Finger.into(),
    }
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bets_1_and_fingers() {
        assert_eq!(decide(&Args::at(0, Round::First)), Decision::Bet(1));
        assert_eq!(
            decide(&Args::at(1000, Round::Second)),
            Answer::Finger.into()
        );
    }
}
