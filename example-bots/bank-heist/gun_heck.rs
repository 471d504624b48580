//! gunHeCK: "Makes a Kelly bet if and only if the number of heisters seen so far indicates
//! that the bet will satisfy the Kelly criterion (but does not back out if wrong)."
//!
//! Port of the seed's Python bot: round 1 is KaylorrCriterion's, line for line (this file
//! includes `kaylorr_criterion.rs` for it); in round 2 it always keeps its bet.
//!
//! Departures from the original:
//! - round 2 prints `!guncheck` where the original printed `!gunHeCK`: both are "anything
//!   else", which keeps the bet, and the SDK prints the protocol's recommended string;
//! - round 1 carries KaylorrCriterion's (see its doc): the original's bank-lookup quirk is
//!   kept, and where the Python would raise the port bets 0, what the host makes of a crash.

#[path = "kaylorr_criterion.rs"]
#[allow(dead_code)]
mod kaylorr_criterion;

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// One invocation's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => Decision::Bet(kaylorr_criterion::kelly_bet(args)),
        Round::Second => Answer::Keep.into(),
    }
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod gun_heck_tests {
    use super::*;
    use koth_guest::bank_heist::Bank;

    #[test]
    fn bets_like_kaylorr_and_never_backs_out() {
        let mut args = Args {
            players: 20,
            decided: 20,
            heisters: 1,
            total_bet: 69,
            credits: 1000,
            ..Args::at(50, Round::First)
        };
        assert_eq!(decide(&args), kaylorr_criterion::decide(&args));
        assert!(matches!(decide(&args), Decision::Bet(b) if b > 0));
        args.round = Round::Second;
        args.heisters = 100;
        args.decided = 50;
        args.confirmed = 0;
        args.bank = Bank::FederalReserve;
        assert_eq!(
            kaylorr_criterion::decide(&args),
            Decision::Answer(Answer::BackOut)
        );
        assert_eq!(decide(&args), Decision::Answer(Answer::Keep));
    }
}
