//! KaylorrCriterion: "Makes a Kelly bet if and only if the Kelly criterion is satisfied."
//!
//! Port of the seed's Python bot. Round 1: once at least 37% of the players have decided
//! and someone has bet, it extrapolates the heisters and credits of the whole round from
//! those so far, looks up its own probability p and odds b at the bank it expects, and
//! bets the Kelly fraction (p(b + 1) − 1) / b of its credits (truncated, at least 0).
//! Round 2: once 37% of the heisters have answered, it scales p by the share of them that
//! confirmed and backs out unless the Kelly fraction, counting the paycheck a back out
//! forfeits, (p(b + 1) − (1 − 240 / (credits + 240))) / b, is positive.
//!
//! Departures from the original:
//! - none in the arithmetic, which is kept exactly, including the original's bank lookup
//!   `min(4, int(bettors + int(credits/100000.)/20))`: Python 2 divides
//!   `int(credits/100000.)` by 20 as integers before adding it, so the bank it looks up is
//!   practically bank min(4, expected bettors), not the table's. Faithful means keeping it;
//! - where the Python would raise (a division by zero, or `int` of an infinite bet when its
//!   odds are 0), the port answers what the host makes of a crash: bet 0, keep the bet;
//! - it reads all 31 arguments through the SDK, so a malformed argv exits 1 (the host
//!   then counts a bet of 0, or keeps the bet), as the Python would by raising.

use koth_guest::bank_heist::{run, Answer, Args, Decision, Round};

/// The original's `get_bank`: its probability and odds at bank
/// `min(4, int(bettors + int(credits / 100000.) / 20))`, Python 2 integer division included.
pub fn get_bank(args: &Args, bettors: f64, credits: f64) -> (f64, f64) {
    let extra = ((credits / 100_000.0).trunc() / 20.0).floor();
    let selector = (bettors + extra).trunc().clamp(0.0, 4.0) as usize;
    (args.probabilities[selector], args.odds[selector])
}

/// Round 1, shared with gunHeCK: the Kelly bet for the extrapolated heist, or 0.
pub fn kelly_bet(args: &Args) -> u64 {
    let (decided, players) = (f64::from(args.decided), f64::from(args.players));
    if decided < 0.37 * players || args.heisters == 0 || args.decided == 0 {
        return 0;
    }
    let heisters = f64::from(args.heisters);
    let bettors = heisters / decided * players;
    let credits = bettors * (args.total_bet as f64 / heisters);
    let (p, b) = get_bank(args, bettors, credits);
    let f = (p * (b + 1.0) - 1.0) / b;
    let bet = (f * args.credits as f64).trunc();
    if bet.is_finite() && bet > 0.0 {
        // `as` saturates; f <= 1, so the bet never exceeds the credits anyway.
        bet as u64
    } else {
        0
    }
}

fn answer(args: &Args) -> Answer {
    let (decided, heisters) = (f64::from(args.decided), f64::from(args.heisters));
    if decided < 0.37 * heisters || args.heisters == 0 {
        return Answer::Keep;
    }
    let (p, b) = get_bank(args, heisters, args.total_bet as f64);
    let real_p = p * f64::from(args.confirmed) / decided;
    let credits = args.credits as f64;
    let f = (real_p * (b + 1.0) - (1.0 - 240.0 / (credits + 240.0))) / b;
    if f > 0.0 || f.is_nan() {
        // NaN: the Python would have raised on the division, and a crash keeps the bet.
        Answer::Keep
    } else {
        Answer::BackOut
    }
}

/// KaylorrCriterion's decision.
pub fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => Decision::Bet(kelly_bet(args)),
        Round::Second => answer(args).into(),
    }
}

#[allow(dead_code)]
fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth_guest::bank_heist::Bank;

    fn round1(players: u32, decided: u32, heisters: u32, total_bet: u64) -> Args {
        Args {
            players,
            decided,
            heisters,
            total_bet,
            credits: 1000,
            ..Args::at(50, Round::First)
        }
    }

    #[test]
    fn waits_for_37_percent_and_a_heister() {
        assert_eq!(kelly_bet(&round1(100, 36, 10, 1000)), 0);
        assert_eq!(kelly_bet(&round1(100, 40, 0, 0)), 0);
    }

    #[test]
    fn bets_kelly_at_the_bank_it_looks_up() {
        // 2 of 40 bet: 5 expected bettors, so bank min(4, 5) = 4 (the selector quirk).
        // Kelly at 0.324 / 1.95 is negative: no bet.
        assert_eq!(kelly_bet(&round1(100, 40, 2, 138)), 0);
        // 1 of 20 bet among 20 players: one expected bettor, bank 1 (0.488, 1.10).
        let f: f64 = (0.488 * 2.1 - 1.0) / 1.1;
        assert_eq!(kelly_bet(&round1(20, 20, 1, 69)), (f * 1000.0) as u64);
        assert!(kelly_bet(&round1(20, 20, 1, 69)) > 0);
        // Two expected bettors: bank 2, where Kelly is negative.
        assert_eq!(kelly_bet(&round1(40, 20, 1, 69)), 0);
        // With guards at bank 4 the Kelly bet is positive.
        let mut args = round1(100, 40, 2, 138);
        args.probabilities[4] = 0.7;
        let f = (0.7 * 2.95 - 1.0) / 1.95;
        assert_eq!(kelly_bet(&args), (f * 1000.0) as u64);
    }

    #[test]
    fn backs_out_when_the_kelly_fraction_is_not_positive() {
        let args = Args {
            heisters: 100,
            total_bet: 10_000,
            decided: 50,
            confirmed: 50,
            bank: Bank::FederalReserve,
            credits: 100_000,
            ..Args::at(50, Round::Second)
        };
        // Bank 4 at base odds, rich: the paycheck a back out costs is nothing, f < 0.
        assert_eq!(answer(&args), Answer::BackOut);
        // Poor, the paycheck weighs: with 240 credits it keeps anything above
        // p(b + 1) = 0.5.
        assert_eq!(
            answer(&Args {
                credits: 240,
                ..args.clone()
            }),
            Answer::Keep
        );
        // Too few answers yet: keep.
        assert_eq!(
            answer(&Args {
                decided: 30,
                ..args.clone()
            }),
            Answer::Keep
        );
        // Near-certain win: keep.
        let mut sure = args.clone();
        sure.probabilities[4] = 0.99;
        assert_eq!(answer(&sure), Answer::Keep);
        // Everyone else backing out makes even that a back out.
        assert_eq!(
            answer(&Args {
                confirmed: 10,
                ..sure
            }),
            Answer::BackOut
        );
    }
}
