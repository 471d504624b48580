//! Random: "doesn't know what to do, so it picks something legal at random."
//!
//! Port of the seed's Go example bot: a uniformly random legal action each time, and a
//! uniformly random choice of cards when finishing an Exchange.

use koth_guest::coup::{run, Decision, Move, Phase, State};
use koth_guest::Rng;

fn decide(state: &State, rng: &mut Rng) -> Decision {
    if let Phase::FinishExchange { keep } = state.phase() {
        let mut offered = state.cards().to_vec();
        rng.shuffle(&mut offered);
        offered.truncate(keep);
        return Decision::Keep(offered);
    }
    let moves: Vec<Move> = state.legal().moves().collect();
    let fallback = state.or_first_legal(Move::EndTurn);
    rng.choose(&moves).copied().unwrap_or(fallback).into()
}

fn main() {
    let mut rng = Rng::new();
    run(|state| decide(state, &mut rng));
}
