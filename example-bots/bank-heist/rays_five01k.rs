//! RaysFive01K: "Deposits its winnings early in the tournament (to protect them from
//! double crossers), raises its probabilities (changing jobs to pay for the guards), and
//! withdraws everything at the end."
//!
//! Port of the seed's Python bot. Round 1: a tenth of its credits (integer division)
//! before game 900, then 1. Round 2: before game 500 while employed, one of `change jobs`,
//! `finger`, `buy guard` at random; otherwise before game 900 `deposit`; from game 900
//! `withdraw` if it has a balance at the bank being robbed, else `finger` while fewer than
//! half the players have answered (decided / players < 0.5), else `back out`.
//!
//! Departures from the original:
//! - randomness comes from `koth_guest::Rng` (seeded by the host through WASI) instead of
//!   Python's `random.choice`; the choice is the same, uniform among the three;
//! - with 0 players, where the Python would raise on the division, it keeps the bet, what
//!   the host makes of a crash;
//! - a malformed argv exits 1 (the host counts a bet of 0, or keeps the bet), as the
//!   Python would by raising.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};
use koth_guest::Rng;

/// One invocation's decision.
pub fn decide(args: &Args, rng: &mut Rng) -> Decision {
    if args.round == Round::First {
        // Python 2's `/` on integers: floor division.
        return Decision::Bet(if args.game < 900 {
            args.credits / 10
        } else {
            1
        });
    }
    let answer = if args.game < 500 && args.employed {
        let options = [Answer::ChangeJobs, Answer::Finger, Answer::BuyGuard];
        options[rng.index(options.len())]
    } else if args.game < 900 {
        Answer::Deposit
    } else if args.balance_at(args.bank) > 0 {
        Answer::Withdraw
    } else if args.players == 0 {
        Answer::Keep
    } else if f64::from(args.decided) / f64::from(args.players) < 0.5 {
        Answer::Finger
    } else {
        Answer::BackOut
    };
    answer.into()
}

fn main() {
    let mut rng = Rng::new();
    run(|args| decide(args, &mut rng));
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth_guest::bank_heist::Bank;

    #[test]
    fn bets_a_tenth_then_1() {
        let mut rng = Rng::from_seed(0);
        let mut bet = |game| {
            decide(
                &Args {
                    credits: 259,
                    ..Args::at(game, Round::First)
                },
                &mut rng,
            )
        };
        assert_eq!(bet(0), Decision::Bet(25));
        assert_eq!(bet(899), Decision::Bet(25));
        assert_eq!(bet(900), Decision::Bet(1));
    }

    #[test]
    fn answers_by_phase() {
        let round2 = |game, employed| Args {
            employed,
            players: 100,
            ..Args::at(game, Round::Second)
        };
        let early: Vec<Decision> = (0..300)
            .map(|seed| decide(&round2(100, true), &mut Rng::from_seed(seed)))
            .collect();
        for answer in [Answer::ChangeJobs, Answer::Finger, Answer::BuyGuard] {
            let n = early.iter().filter(|&&d| d == answer.into()).count();
            assert!(n > 60, "{answer}: {n}");
        }
        let mut rng = Rng::from_seed(0);
        assert_eq!(
            decide(&round2(100, false), &mut rng),
            Answer::Deposit.into()
        );
        assert_eq!(decide(&round2(600, true), &mut rng), Answer::Deposit.into());
        let mut late = round2(950, true);
        late.bank = Bank::State;
        late.balances[Bank::State.index()] = 10;
        assert_eq!(decide(&late, &mut rng), Answer::Withdraw.into());
        late.bank = Bank::City;
        late.decided = 49;
        assert_eq!(decide(&late, &mut rng), Answer::Finger.into());
        late.decided = 50;
        assert_eq!(decide(&late, &mut rng), Answer::BackOut.into());
    }
}
