//! The `coup-bot` world: Coup's argv and history file as typed values, the typed answer as
//! the protocol's append (and, after an Exchange, the kept cards on stdout).

use super::fault;
use crate::sandbox::{Bot, Invocation, Outcome, Report, Vfs};
use koth_guest::coup as sdk;

/// The world's Rust types, generated from `wit/coup.wit` (the WIT file is their documentation).
#[allow(missing_docs)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "coup-bot",
    });
}

use bindings::exports::koth::bots::coup as w;

/// The file in the bot's directory that holds the memory `decide` returns.
pub const MEMORY_FILE: &str = "memory";

/// One Coup decision of a `coup-bot` component.
pub fn invoke(bot: &Bot, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
    let Some(dir) = dir else {
        return fault("the Coup driver gave the bot no directory".into());
    };
    let args: Vec<String> = inv
        .args
        .iter()
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let Some(history_name) = args.first() else {
        return fault("Coup's argv has no history file".into());
    };
    let history = dir
        .host_file(history_name)
        .map(|h| String::from_utf8_lossy(h).into_owned())
        .unwrap_or_default();
    let state = match sdk::State::parse(&args, &history) {
        Ok(s) => s,
        Err(e) => {
            return fault(format!(
                "the coup-bot adapter cannot read the position: {e}"
            ))
        }
    };
    let memory = dir
        .host_file(MEMORY_FILE)
        .map(<[u8]>::to_vec)
        .unwrap_or_default();
    let (mut report, answer) = bot.call_world::<(w::State, Vec<u8>), ((w::Decision, Vec<u8>),)>(
        inv,
        (to_world(&state, history), memory),
    );
    let Some(((decision, memory),)) = answer else {
        return report;
    };
    if super::write_file(dir, MEMORY_FILE, &memory, false).is_err() {
        report.outcome = Outcome::LimitExceeded;
        report.stderr.extend_from_slice(
            b"koth: the returned memory does not fit in the directory's quota\n",
        );
        return report;
    }
    let text = match decision {
        w::Decision::Play(mv) => {
            let mv = from_move(mv);
            // An illegal move is still written, so that the driver rules on it as it would
            // on any bot's write.
            state
                .legal()
                .text(mv)
                .map(str::to_string)
                .or_else(|| mv.text().map(str::to_string))
        }
        w::Decision::Keep(cards) => {
            let cards: Vec<sdk::Card> = cards.into_iter().map(from_card).collect();
            report.stdout = sdk::cards_to_string(&cards).into_bytes();
            state.legal().text(sdk::Move::EndTurn).map(str::to_string)
        }
    };
    if let Some(text) = text {
        if super::write_file(dir, history_name, text.as_bytes(), true).is_err() {
            report.outcome = Outcome::LimitExceeded;
        }
    }
    report
}

fn to_world(s: &sdk::State, history: String) -> w::State {
    let cards = |v: &[sdk::Card]| v.iter().copied().map(to_card).collect::<Vec<_>>();
    w::State {
        seat: match s.seat() {
            sdk::Seat::First => w::Seat::First,
            sdk::Seat::Second => w::Seat::Second,
        },
        phase: to_phase(s.phase()),
        my_coins: s.my_coins(),
        opponent_coins: s.opponent_coins(),
        my_cards: cards(s.cards()),
        opponent_claims: s
            .opponent_claims()
            .iter()
            .map(|c| to_card(c.card))
            .collect(),
        opponent_revealed: cards(&s.opponent_revealed()),
        opponent_lost: cards(&s.opponent_lost()),
        my_lost: cards(&s.my_lost()),
        legal: s.legal().moves().filter_map(to_move).collect(),
        history,
    }
}

fn to_phase(p: sdk::Phase) -> w::Phase {
    match p {
        sdk::Phase::Act => w::Phase::Act,
        sdk::Phase::Respond(a) => w::Phase::Respond(to_action(a)),
        sdk::Phase::Blocked { action, card } => w::Phase::Blocked(w::BlockedBy {
            action: to_action(action),
            card: to_card(card),
        }),
        sdk::Phase::Challenged { card, .. } => w::Phase::Challenged(to_card(card)),
        sdk::Phase::LoseCard(_) => w::Phase::LoseCard,
        sdk::Phase::EndTurn => w::Phase::EndTurn,
        sdk::Phase::FinishExchange { keep } => w::Phase::FinishExchange(keep as u32),
    }
}

fn to_card(c: sdk::Card) -> w::Card {
    match c {
        sdk::Card::Ambassador => w::Card::Ambassador,
        sdk::Card::Assassin => w::Card::Assassin,
        sdk::Card::Captain => w::Card::Captain,
        sdk::Card::Contessa => w::Card::Contessa,
        sdk::Card::Duke => w::Card::Duke,
    }
}

fn from_card(c: w::Card) -> sdk::Card {
    match c {
        w::Card::Ambassador => sdk::Card::Ambassador,
        w::Card::Assassin => sdk::Card::Assassin,
        w::Card::Captain => sdk::Card::Captain,
        w::Card::Contessa => sdk::Card::Contessa,
        w::Card::Duke => sdk::Card::Duke,
    }
}

fn to_action(a: sdk::Action) -> w::Action {
    match a {
        sdk::Action::Income => w::Action::Income,
        sdk::Action::ForeignAid => w::Action::ForeignAid,
        sdk::Action::Coup => w::Action::Coup,
        sdk::Action::Exchange => w::Action::Exchange,
        sdk::Action::Assassinate => w::Action::Assassinate,
        sdk::Action::Steal => w::Action::Steal,
        sdk::Action::Tax => w::Action::Tax,
    }
}

/// Every SDK move has a world move (a block no card can make is never legal).
fn to_move(m: sdk::Move) -> Option<w::Move> {
    Some(match m {
        sdk::Move::Income => w::Move::Income,
        sdk::Move::ForeignAid => w::Move::ForeignAid,
        sdk::Move::Coup => w::Move::Coup,
        sdk::Move::Exchange => w::Move::Exchange,
        sdk::Move::Assassinate => w::Move::Assassinate,
        sdk::Move::Steal => w::Move::Steal,
        sdk::Move::Tax => w::Move::Tax,
        sdk::Move::Block(c) => w::Move::Block(to_card(c)),
        sdk::Move::Challenge => w::Move::Challenge,
        sdk::Move::Pass => w::Move::Pass,
        sdk::Move::Reveal(c) => w::Move::Reveal(to_card(c)),
        sdk::Move::Surrender(c) => w::Move::Surrender(to_card(c)),
        sdk::Move::EndTurn => w::Move::EndTurn,
    })
}

fn from_move(m: w::Move) -> sdk::Move {
    match m {
        w::Move::Income => sdk::Move::Income,
        w::Move::ForeignAid => sdk::Move::ForeignAid,
        w::Move::Coup => sdk::Move::Coup,
        w::Move::Exchange => sdk::Move::Exchange,
        w::Move::Assassinate => sdk::Move::Assassinate,
        w::Move::Steal => sdk::Move::Steal,
        w::Move::Tax => sdk::Move::Tax,
        w::Move::Block(c) => sdk::Move::Block(from_card(c)),
        w::Move::Challenge => sdk::Move::Challenge,
        w::Move::Pass => sdk::Move::Pass,
        w::Move::Reveal(c) => sdk::Move::Reveal(from_card(c)),
        w::Move::Surrender(c) => sdk::Move::Surrender(from_card(c)),
        w::Move::EndTurn => sdk::Move::EndTurn,
    }
}
