//! OC'sRandomTpyos: "Changes jobs often early in the tournament. Spends all its money on
//! better probabilities and odds. Then spends the last few games all in."
//!
//! Port of the seed's Python bot. Before game 800: bets 1 and, in round 2, changes jobs
//! when employed, else picks `acquire intel` or `buy guard` at random. From game 800: bets
//! a quarter of its credits (integer division) if it ranks in the top 3, else 1; in round 2
//! goes all in outside the top 3 and keeps the bet inside it.
//!
//! Departures from the original:
//! - randomness comes from `koth_guest::Rng` (seeded by the host through WASI) instead of
//!   Python's `random.choice`; the choice is the same, uniform between the two;
//! - a malformed argv exits 1 (the host counts a bet of 0, or keeps the bet), as the
//!   Python would by raising.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};
use koth_guest::Rng;

/// One invocation's decision.
pub fn decide(args: &Args, rng: &mut Rng) -> Decision {
    let early = args.game < 800;
    match args.round {
        Round::First if early || args.rank > 3 => Decision::Bet(1),
        // Python 2's `/` on integers: floor division.
        Round::First => Decision::Bet(args.credits / 4),
        Round::Second if early && args.employed => Answer::ChangeJobs.into(),
        Round::Second if early => {
            let options = [Answer::AcquireIntel, Answer::BuyGuard];
            options[rng.index(options.len())].into()
        }
        Round::Second if args.rank > 3 => Answer::AllIn.into(),
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

    fn at(game: u32, round: Round, rank: u32, employed: bool) -> Args {
        Args {
            rank,
            employed,
            credits: 1001,
            ..Args::at(game, round)
        }
    }

    #[test]
    fn bets() {
        let mut rng = Rng::from_seed(3);
        let mut bet = |game, rank| decide(&at(game, Round::First, rank, true), &mut rng);
        assert_eq!(bet(0, 1), Decision::Bet(1));
        assert_eq!(bet(799, 1), Decision::Bet(1));
        assert_eq!(bet(800, 3), Decision::Bet(250));
        assert_eq!(bet(800, 4), Decision::Bet(1));
    }

    #[test]
    fn answers() {
        let mut rng = Rng::from_seed(3);
        let round2 = |game, rank, employed| at(game, Round::Second, rank, employed);
        assert_eq!(
            decide(&round2(10, 1, true), &mut rng),
            Answer::ChangeJobs.into()
        );
        let picks: Vec<Decision> = (0..200)
            .map(|seed| decide(&round2(10, 1, false), &mut Rng::from_seed(seed)))
            .collect();
        let guards = picks
            .iter()
            .filter(|&&d| d == Answer::BuyGuard.into())
            .count();
        let intel = picks
            .iter()
            .filter(|&&d| d == Answer::AcquireIntel.into())
            .count();
        assert_eq!(guards + intel, 200);
        assert!(guards > 60 && intel > 60, "{guards} {intel}");
        assert_eq!(
            decide(&round2(900, 4, true), &mut rng),
            Answer::AllIn.into()
        );
        assert_eq!(
            decide(&round2(900, 3, false), &mut rng),
            Answer::Keep.into()
        );
    }
}
