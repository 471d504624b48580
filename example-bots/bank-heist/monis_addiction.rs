//! MonisAddiction: "Goes all in, unless already winning."
//!
//! Port of the seed's Python bot (Moni'sAddiction). Round 1: bets 1 with probability 0.1,
//! else 69 (whatever its credits: a bet above them counts as all of them). Round 2: all in
//! unless it ranks first; when first it backs out if it bet exactly 1, else keeps the bet.
//!
//! Departures from the original:
//! - randomness comes from `koth_guest::Rng` (seeded by the host through WASI) instead of
//!   Python's `random.random()`; the draw is the same: below 0.1 on a uniform [0, 1);
//! - it parses all 31 arguments, not only 2, 10 and 13, so a malformed argv exits 1 (the
//!   host counts a bet of 0, or keeps the bet).

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};
use koth_guest::Rng;

/// One invocation's decision.
pub fn decide(args: &Args, rng: &mut Rng) -> Decision {
    match args.round {
        Round::First if rng.unit() < 0.1 => Decision::Bet(1),
        Round::First => Decision::Bet(69),
        Round::Second if args.rank > 1 => Answer::AllIn.into(),
        Round::Second if args.my_bet == 1 => Answer::BackOut.into(),
        Round::Second => Answer::Keep.into(),
    }
}

fn main() {
    let mut rng = Rng::new();
    run(|args| decide(args, &mut rng));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bets_1_a_tenth_of_the_time_else_69() {
        let args = Args::at(5, Round::First);
        let bets: Vec<Decision> = (0..1000)
            .map(|seed| decide(&args, &mut Rng::from_seed(seed)))
            .collect();
        let ones = bets.iter().filter(|&&d| d == Decision::Bet(1)).count();
        let sixty_nines = bets.iter().filter(|&&d| d == Decision::Bet(69)).count();
        assert_eq!(ones + sixty_nines, 1000);
        assert!((60..=140).contains(&ones), "{ones}");
    }

    #[test]
    fn all_in_unless_first() {
        let mut rng = Rng::from_seed(1);
        let at = |rank, my_bet| Args {
            rank,
            my_bet,
            ..Args::at(5, Round::Second)
        };
        assert_eq!(decide(&at(2, 69), &mut rng), Answer::AllIn.into());
        assert_eq!(decide(&at(13, 1), &mut rng), Answer::AllIn.into());
        assert_eq!(decide(&at(1, 1), &mut rng), Answer::BackOut.into());
        assert_eq!(decide(&at(1, 69), &mut rng), Answer::Keep.into());
    }
}
