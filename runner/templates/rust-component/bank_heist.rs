//! {{name}}: a Bank Heist bot for koth, as a WASI preview-2 component of the
//! `bank-heist-bot` world (`wit/bank-heist.wit`, the bot's documentation).
//!
//! koth parses the game's 31 arguments for it, calls `decide` once per decision with them as
//! a typed `State`, and prints the returned bet or answer in the protocol's words. Put your
//! strategy in `decide`.
//!
//! The strategy to start from is careful: bet a tenth of our credits when the bank pays on
//! average, back out when many before us did, deposit where we already save.

wit_bindgen::generate!({
    world: "bank-heist-bot",
    path: "wit",
});

use exports::koth::bots::bank_heist::{Answer, Bank, Decision, Guest, State};

struct Bot;

fn index(bank: Bank) -> usize {
    match bank {
        Bank::Municipal => 0,
        Bank::City => 1,
        Bank::State => 2,
        Bank::National => 3,
        Bank::FederalReserve => 4,
    }
}

/// The bank chosen for heisters + credits bet / 100,000: thresholds 0, 20, 40, 60, 80.
fn bank_for(heisters: u64, total_bet: u64) -> usize {
    let at = heisters + total_bet / 100_000;
    [80, 60, 40, 20, 0]
        .iter()
        .position(|t| at >= *t)
        .map_or(0, |i| 4 - i)
}

impl Guest for Bot {
    fn decide(s: State) -> Decision {
        if s.round == 1 {
            // The bank we would join if we bet (the heisters so far and ourselves).
            let b = bank_for(u64::from(s.heisters) + 1, s.total_bet);
            let p = s.probabilities.get(b).copied().unwrap_or(0.0);
            let odds = s.odds.get(b).copied().unwrap_or(0.0);
            // A credit bet wins `odds` with probability p and is lost otherwise.
            let bet = if p * odds > 1.0 - p { s.credits / 10 } else { 0 };
            return Decision::Bet(bet);
        }
        // Others' back-outs lower everyone's chance: follow when more than a tenth backed out.
        if s.confirmed * 10 < s.decided * 9 {
            return Decision::Answer(Answer::BackOut);
        }
        if s.balances.get(index(s.bank)).copied().unwrap_or(0) > 0 {
            Decision::Answer(Answer::Deposit)
        } else {
            Decision::Answer(Answer::Keep)
        }
    }
}

export!(Bot);
