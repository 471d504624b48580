//! A careful Bank Heist bot for koth's `bank-heist-bot` world: it bets a tenth of its
//! credits when the bank's expected return is positive and a token credit otherwise, and in
//! round 2 deposits its winnings at a bank whose account it already holds, else keeps the bet.

wit_bindgen::generate!({
    world: "bank-heist-bot",
    path: "../../../wit",
});

use exports::koth::bots::bank_heist::{Answer, Bank, Decision, Guest, State};

struct Careful;

fn index(bank: Bank) -> usize {
    match bank {
        Bank::Municipal => 0,
        Bank::City => 1,
        Bank::State => 2,
        Bank::National => 3,
        Bank::FederalReserve => 4,
    }
}

impl Guest for Careful {
    fn decide(s: State) -> Decision {
        let i = index(s.bank);
        let p = s.probabilities.get(i).copied().unwrap_or(0.0);
        let odds = s.odds.get(i).copied().unwrap_or(0.0);
        if s.round == 1 {
            // Expected value of a credit bet: win `odds` with probability p, lose it otherwise.
            let edge = p * odds - (1.0 - p);
            let bet = if edge > 0.0 {
                s.credits / 10
            } else {
                s.credits.min(1)
            };
            return Decision::Bet(bet);
        }
        if s.balances.get(i).copied().unwrap_or(0) > 0 {
            Decision::Answer(Answer::Deposit)
        } else {
            Decision::Answer(Answer::Keep)
        }
    }
}

export!(Careful);
