//! Statistician: "knows its winning strategy, just like Gambler, but always trusts maximum
//! probabilities instead of sampling randomly."
//!
//! Gambler's strategy, included from `gambler.rs`, with every gamble replaced by the
//! heaviest option: where Gambler draws a move with probability proportional to its
//! weight, Statistician takes the most likely one. So it is deterministic: it challenges a
//! claim exactly when a lie is likelier than the truth, and takes the income with the best
//! expected coins.

#[path = "gambler.rs"]
#[allow(dead_code)]
mod gambler;

use gambler::Chooser;
use koth_guest::coup::run;

fn main() {
    run(|state| gambler::decide(state, &mut Chooser::Argmax));
}

#[cfg(test)]
mod tests {
    use super::gambler::{decide, Chooser};
    use koth_guest::coup::{Card, Decision, Move, State};

    fn decide_at(history: &str, cards: &[Card], coins: u32, opp: u32) -> Decision {
        decide(
            &State::at_position(history, cards, coins, opp).unwrap(),
            &mut Chooser::Argmax,
        )
    }

    #[test]
    fn takes_the_likeliest_option() {
        use Card::*;
        // Nothing to steal, no Duke: Tax is the best expected income even as a bluff
        // against an opponent that has not challenged yet...
        assert_eq!(
            decide_at("I\nI\n", &[Contessa, Contessa], 2, 0),
            Move::Tax.into()
        );
        // ...but with a real Ambassador and nothing else, an honest Exchange beats it.
        assert_eq!(
            decide_at("I\nI\n", &[Contessa, Ambassador], 2, 0),
            Move::Exchange.into()
        );
        // An early Tax is probably true: let it through, every time.
        assert_eq!(
            decide_at("T", &[Captain, Contessa], 1, 1),
            Move::Pass.into()
        );
        // Two Dukes held, one lost: the Tax is a lie.
        assert_eq!(
            decide_at("I\nC0\nT", &[Duke, Duke], 1, 1),
            Move::Challenge.into()
        );
    }

    #[test]
    fn same_rules_as_gambler() {
        use Card::*;
        assert_eq!(
            decide_at("I\nI\n", &[Duke, Contessa], 7, 2),
            Move::Coup.into()
        );
        assert_eq!(
            decide_at("I\nI\n", &[Duke, Contessa], 2, 3),
            Move::Steal.into()
        );
    }
}
