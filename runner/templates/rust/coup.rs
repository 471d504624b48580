//! {{name}}: a Coup bot for koth, written with the koth-guest SDK.
//!
//! koth runs it once per decision. `koth_guest::coup::run` reads the arguments and the history
//! file into a typed `State`, calls `decide`, and appends the answer to the history (printing
//! the kept cards after an Exchange), so `decide` is the whole bot: put your strategy there.
//!
//! The strategy to start from is honest: it claims only cards it holds, so it never loses a
//! challenge of its own claims, and it challenges only claims the visible cards prove false.

use koth_guest::coup::{run, Action, Card, Decision, Move, Phase, State};

/// The order in which the bot gives cards up: the least useful first. The Duke's Tax is the
/// steadiest income, so it goes last; the Ambassador only reshuffles, so it goes first.
const WORST_FIRST: [Card; 5] = [
    Card::Ambassador,
    Card::Contessa,
    Card::Captain,
    Card::Assassin,
    Card::Duke,
];

/// True when every copy of `card` is in sight (in our hand or face up): the opponent cannot
/// hold one, so a claim of it is a lie worth challenging.
fn surely_lying(state: &State, card: Card) -> bool {
    state.unseen().get(card) == 0
}

/// Our turn: Coup as soon as we can (at 10 coins it is the only legal move), otherwise the
/// best action our real cards allow.
fn act(state: &State) -> Move {
    if state.can(Move::Coup) {
        return Move::Coup;
    }
    if state.has(Card::Assassin) && state.can(Move::Assassinate) {
        return Move::Assassinate;
    }
    if state.has(Card::Duke) {
        return Move::Tax;
    }
    if state.has(Card::Captain) && state.opponent_coins() >= 2 {
        return Move::Steal;
    }
    Move::Income
}

/// The opponent announced `action`: block it with a card we really hold, challenge a provable
/// lie, otherwise let it through.
fn respond(state: &State, action: Action) -> Move {
    if let Some(&card) = action.blockers().iter().find(|&&c| state.has(c)) {
        return Move::Block(card);
    }
    match action.claim() {
        Some(card) if surely_lying(state, card) => Move::Challenge,
        // An Assassination of our last card loses the game anyway: a challenge costs nothing.
        _ if action == Action::Assassinate && state.my_card_count() == 1 => Move::Challenge,
        _ => Move::Pass,
    }
}

/// One decision: the move we want, then a legal fallback if the rules say otherwise.
fn decide(state: &State) -> Decision {
    let wish = match state.phase() {
        Phase::Act => act(state),
        Phase::Respond(action) => respond(state, action),
        Phase::Blocked { card, .. } if surely_lying(state, card) => Move::Challenge,
        Phase::Blocked { .. } | Phase::EndTurn => Move::EndTurn,
        // Challenged on a card we hold: revealing it wins the challenge.
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => Move::Surrender(WORST_FIRST[0]),
        Phase::FinishExchange { keep } => {
            // Keep the most useful cards offered.
            let mut cards = state.cards().to_vec();
            cards.sort_by_key(|c| std::cmp::Reverse(WORST_FIRST.iter().position(|w| w == c)));
            cards.truncate(keep);
            return Decision::Keep(cards);
        }
    };
    if state.can(wish) {
        return wish.into();
    }
    // What we wanted is not legal (a pass against an Assassination, a reveal without the
    // card, ...): a card must go, the least useful one; failing that, any legal move.
    state
        .give_up(&WORST_FIRST)
        .unwrap_or_else(|| state.or_first_legal(wish))
        .into()
}

fn main() {
    run(decide);
}

// `cargo test` runs these natively: a bot is tested without koth, from a position.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taxes_with_a_real_duke_and_blocks_foreign_aid_with_it() {
        let opening = State::at_position("", &[Card::Duke, Card::Contessa], 1, 1).unwrap();
        assert_eq!(decide(&opening), Move::Tax.into());
        // The opponent takes Foreign Aid (`F`); we hold a Duke.
        let aid = State::at_position("I\nF", &[Card::Duke, Card::Captain], 2, 1).unwrap();
        assert_eq!(decide(&aid), Move::Block(Card::Duke).into());
    }
}
