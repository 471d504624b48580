//! Random 8020: "a simple random bot that passes 80% of the time."
//!
//! Port of the seed's bot from its description. In the bidding phases (ordering, naming,
//! going alone) it passes with probability 0.8 and otherwise picks uniformly among that
//! phase's answers (the pass included). It discards and plays a card uniformly at random.
//!
//! Departures, each for a reason:
//! - Discards and plays are drawn from the *legal* cards only: the seed's bot printed any
//!   card of its hand, and the controller replaced an illegal one by the first legal card,
//!   which would make it a worse "first legal" bot rather than a random one.
//! - Naming may still pick the turned card's suit (the bot keeps no memory), which the host
//!   refuses and turns into a pass, as the seed's controller did with any invalid answer.

use koth_guest::euchre::{run, Answer, Input, Phase, Suit};
use koth_guest::Rng;

/// One decision.
pub fn decide(input: &Input, rng: &mut Rng) -> Answer {
    let bidding: Vec<Answer> = match &input.phase {
        Phase::Ordering { .. } => vec![Answer::OrderUp, Answer::Pass],
        Phase::Naming { .. } => std::iter::once(Answer::Pass)
            .chain(Suit::ALL.into_iter().map(Answer::Name))
            .collect(),
        Phase::Alone { .. } => vec![Answer::Alone(true), Answer::Alone(false)],
        Phase::Discard { .. } | Phase::Turn { .. } => {
            let legal = input.legal();
            return rng
                .choose(&legal)
                .copied()
                .unwrap_or(input.default_answer());
        }
        Phase::Trick { .. } => return Answer::Nothing,
    };
    let pass = match input.phase {
        Phase::Alone { .. } => Answer::Alone(false),
        _ => Answer::Pass,
    };
    if rng.chance(8, 10) {
        pass
    } else {
        rng.choose(&bidding).copied().unwrap_or(pass)
    }
}

#[allow(dead_code)]
fn main() {
    let mut rng = Rng::new();
    run(|input| decide(input, &mut rng));
}
