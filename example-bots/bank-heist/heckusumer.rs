//! HeCKuSumer: "Always bets a small constant fraction of its holdings."
//!
//! Port of the seed's Python bot: round 1 bets `int(0.1 * credits)`, round 2 keeps the bet.
//!
//! Departures from the original: none in behaviour (the tenth is computed in floating
//! point as the Python does, then truncated). It parses all 31 arguments, not only 2 and
//! 9, so a malformed argv exits 1 (the host counts a bet of 0, or keeps the bet).

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        // As Python's int(0.1 * x): a float product, truncated.
        Round::First => Decision::Bet((0.1 * args.credits as f64) as u64),
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
    fn bets_a_tenth() {
        let bet = |credits| {
            decide(&Args {
                credits,
                ..Args::at(9, Round::First)
            })
        };
        assert_eq!(bet(0), Decision::Bet(0));
        assert_eq!(bet(9), Decision::Bet(0));
        assert_eq!(bet(240), Decision::Bet(24));
        assert_eq!(bet(1859), Decision::Bet(185));
        assert_eq!(
            decide(&Args::at(9, Round::Second)),
            Decision::Answer(Answer::Keep)
        );
    }
}
