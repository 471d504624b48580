//! The same honest bot as a WASI preview-1 core module: it reads the protocol with the guest
//! SDK, builds the world's state as koth's coup-bot adapter does, and asks the very same
//! `decide`. Its only use is the benchmark of a component against a core module.

use coup_component::{Action, BlockedBy, Card, Decision, Guest, Honest, Move, Phase, Seat, State};
use koth_guest::coup as sdk;

fn card(c: sdk::Card) -> Card {
    match c {
        sdk::Card::Ambassador => Card::Ambassador,
        sdk::Card::Assassin => Card::Assassin,
        sdk::Card::Captain => Card::Captain,
        sdk::Card::Contessa => Card::Contessa,
        sdk::Card::Duke => Card::Duke,
    }
}

fn sdk_card(c: Card) -> sdk::Card {
    match c {
        Card::Ambassador => sdk::Card::Ambassador,
        Card::Assassin => sdk::Card::Assassin,
        Card::Captain => sdk::Card::Captain,
        Card::Contessa => sdk::Card::Contessa,
        Card::Duke => sdk::Card::Duke,
    }
}

fn action(a: sdk::Action) -> Action {
    match a {
        sdk::Action::Income => Action::Income,
        sdk::Action::ForeignAid => Action::ForeignAid,
        sdk::Action::Coup => Action::Coup,
        sdk::Action::Exchange => Action::Exchange,
        sdk::Action::Assassinate => Action::Assassinate,
        sdk::Action::Steal => Action::Steal,
        sdk::Action::Tax => Action::Tax,
    }
}

fn mv(m: sdk::Move) -> Move {
    match m {
        sdk::Move::Income => Move::Income,
        sdk::Move::ForeignAid => Move::ForeignAid,
        sdk::Move::Coup => Move::Coup,
        sdk::Move::Exchange => Move::Exchange,
        sdk::Move::Assassinate => Move::Assassinate,
        sdk::Move::Steal => Move::Steal,
        sdk::Move::Tax => Move::Tax,
        sdk::Move::Block(c) => Move::Block(card(c)),
        sdk::Move::Challenge => Move::Challenge,
        sdk::Move::Pass => Move::Pass,
        sdk::Move::Reveal(c) => Move::Reveal(card(c)),
        sdk::Move::Surrender(c) => Move::Surrender(card(c)),
        sdk::Move::EndTurn => Move::EndTurn,
    }
}

fn sdk_move(m: Move) -> sdk::Move {
    match m {
        Move::Income => sdk::Move::Income,
        Move::ForeignAid => sdk::Move::ForeignAid,
        Move::Coup => sdk::Move::Coup,
        Move::Exchange => sdk::Move::Exchange,
        Move::Assassinate => sdk::Move::Assassinate,
        Move::Steal => sdk::Move::Steal,
        Move::Tax => sdk::Move::Tax,
        Move::Block(c) => sdk::Move::Block(sdk_card(c)),
        Move::Challenge => sdk::Move::Challenge,
        Move::Pass => sdk::Move::Pass,
        Move::Reveal(c) => sdk::Move::Reveal(sdk_card(c)),
        Move::Surrender(c) => sdk::Move::Surrender(sdk_card(c)),
        Move::EndTurn => sdk::Move::EndTurn,
    }
}

fn world_state(s: &sdk::State) -> State {
    let cards = |v: &[sdk::Card]| v.iter().copied().map(card).collect::<Vec<_>>();
    State {
        seat: match s.seat() {
            sdk::Seat::First => Seat::First,
            sdk::Seat::Second => Seat::Second,
        },
        phase: match s.phase() {
            sdk::Phase::Act => Phase::Act,
            sdk::Phase::Respond(a) => Phase::Respond(action(a)),
            sdk::Phase::Blocked { action: a, card: c } => Phase::Blocked(BlockedBy {
                action: action(a),
                card: card(c),
            }),
            sdk::Phase::Challenged { card: c, .. } => Phase::Challenged(card(c)),
            sdk::Phase::LoseCard(_) => Phase::LoseCard,
            sdk::Phase::EndTurn => Phase::EndTurn,
            sdk::Phase::FinishExchange { keep } => Phase::FinishExchange(keep as u32),
        },
        my_coins: s.my_coins(),
        opponent_coins: s.opponent_coins(),
        my_cards: cards(s.cards()),
        opponent_claims: s.opponent_claims().iter().map(|c| card(c.card)).collect(),
        opponent_revealed: cards(&s.opponent_revealed()),
        opponent_lost: cards(&s.opponent_lost()),
        my_lost: cards(&s.my_lost()),
        legal: s.legal().moves().map(mv).collect(),
        history: std::fs::read_to_string(s.history_file()).unwrap_or_default(),
    }
}

fn main() {
    sdk::run(|s| {
        let memory = std::fs::read("memory").unwrap_or_default();
        let (decision, memory) = Honest::decide(world_state(s), memory);
        let _ = std::fs::write("memory", memory);
        match decision {
            Decision::Play(m) => sdk::Decision::Play(sdk_move(m)),
            Decision::Keep(cards) => sdk::Decision::Keep(cards.into_iter().map(sdk_card).collect()),
        }
    });
}
