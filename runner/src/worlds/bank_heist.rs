//! The `bank-heist-bot` world: the spec's 31 arguments as a typed record, the typed bet or
//! answer printed as the protocol's line.

use super::fault;
use crate::sandbox::{Bot, Invocation, Report};
use koth_guest::bank_heist as sdk;

/// The world's Rust types, generated from `wit/bank-heist.wit` (the WIT file is their
/// documentation).
#[allow(missing_docs)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "bank-heist-bot",
    });
}

use bindings::exports::koth::bots::bank_heist as w;

/// One Bank Heist decision of a `bank-heist-bot` component.
pub fn invoke(bot: &Bot, inv: &Invocation) -> Report {
    let args: Vec<String> = inv
        .args
        .iter()
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let args = match sdk::Args::parse(&args) {
        Ok(a) => a,
        Err(e) => {
            return fault(format!(
                "the bank-heist-bot adapter cannot read the arguments: {e}"
            ))
        }
    };
    let (mut report, answer) =
        bot.call_world::<(w::State,), (w::Decision,)>(inv, (to_world(&args),));
    if let Some((decision,)) = answer {
        // Printed whatever the round: a bet in round 2 or an answer in round 1 is then
        // ruled on by the driver as any bot's wrong line would be.
        let line = match decision {
            w::Decision::Bet(bet) => format!("{bet}\n"),
            w::Decision::Answer(a) => format!("{}\n", from_answer(a)),
        };
        report.stdout = line.into_bytes();
    }
    report
}

fn to_world(a: &sdk::Args) -> w::State {
    w::State {
        game: a.game,
        round: match a.round {
            sdk::Round::First => 1,
            sdk::Round::Second => 2,
        },
        players: a.players,
        decided: a.decided,
        heisters: a.heisters,
        total_bet: a.total_bet,
        confirmed: a.confirmed,
        bank: match a.bank {
            sdk::Bank::Municipal => w::Bank::Municipal,
            sdk::Bank::City => w::Bank::City,
            sdk::Bank::State => w::Bank::State,
            sdk::Bank::National => w::Bank::National,
            sdk::Bank::FederalReserve => w::Bank::FederalReserve,
        },
        credits: a.credits,
        my_bet: a.my_bet,
        paycheck: a.paycheck,
        employed: a.employed,
        rank: a.rank,
        mean: a.mean,
        mad: a.mad,
        max_credits: a.max_credits,
        balances: a.balances.to_vec(),
        probabilities: a.probabilities.to_vec(),
        odds: a.odds.to_vec(),
    }
}

fn from_answer(a: w::Answer) -> sdk::Answer {
    match a {
        w::Answer::BackOut => sdk::Answer::BackOut,
        w::Answer::AllIn => sdk::Answer::AllIn,
        w::Answer::ChangeJobs => sdk::Answer::ChangeJobs,
        w::Answer::AcquireIntel => sdk::Answer::AcquireIntel,
        w::Answer::BuyGuard => sdk::Answer::BuyGuard,
        w::Answer::Deposit => sdk::Answer::Deposit,
        w::Answer::Withdraw => sdk::Answer::Withdraw,
        w::Answer::DoubleCross => sdk::Answer::DoubleCross,
        w::Answer::Finger => sdk::Answer::Finger,
        w::Answer::Keep => sdk::Answer::Keep,
    }
}
