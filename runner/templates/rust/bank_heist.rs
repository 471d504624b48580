//! {{name}}: a Bank Heist bot for koth, written with the koth-guest SDK.
//!
//! koth runs it once per decision, with the game's 31 arguments and no files.
//! `koth_guest::bank_heist::run` parses them into a typed `Args`, calls `decide`, and prints
//! the answer in the protocol's exact words, so `decide` is the whole bot: put your strategy
//! there.
//!
//! The strategy to start from is careful: in round 1 it bets a tenth of its credits when the
//! bank it expects pays on average and stays out otherwise; in round 2 it backs out when many
//! heisters before it did (their back-outs lower everyone's chance), and otherwise keeps its
//! bet, depositing the winnings where it already saves.

use koth_guest::bank_heist::{run, Answer, Args, Bank, Decision, Round};

/// One decision.
fn decide(args: &Args) -> Decision {
    match args.round {
        Round::First => {
            // The bank is chosen by the heisters and the credits bet so far, ourselves
            // included: the one we would join if we bet.
            let bank = Bank::for_heist(u64::from(args.heisters) + 1, args.total_bet);
            let p = args.probability_at(bank);
            // A credit bet wins `odds` with probability p and is lost otherwise.
            if p * args.odds_at(bank) > 1.0 - p {
                Decision::Bet(args.credits / 10)
            } else {
                Decision::Bet(0)
            }
        }
        // More than a tenth of those asked before us backed out: the heist got riskier.
        Round::Second if args.confirmed * 10 < args.decided * 9 => Answer::BackOut.into(),
        Round::Second if args.balance_at(args.bank) > 0 => Answer::Deposit.into(),
        Round::Second => Answer::Keep.into(),
    }
}

fn main() {
    run(decide);
}

// `cargo test` runs these natively: a bot is tested without koth, from a situation.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bets_a_tenth_at_a_good_bank_and_nothing_at_a_bad_one() {
        let args = Args {
            credits: 5000,
            ..Args::at(10, Round::First)
        };
        let expected = if args.probability_at(Bank::Municipal) * args.odds_at(Bank::Municipal)
            > 1.0 - args.probability_at(Bank::Municipal)
        {
            500
        } else {
            0
        };
        assert_eq!(decide(&args), Decision::Bet(expected));
    }
}
