//! Bandit: "tries to get rid of the opponent's Ambassadors and Captains and to win by
//! stealing."
//!
//! Written from that description (the original code is not available). Ambassadors and
//! Captains are what stop a Steal, so Bandit challenges every claim of them (a Steal, an
//! Exchange, a block of its Steal): a caught bluffer loses a card, and an honest one has to
//! trade the card back into the deck. It steals whenever there is something to take,
//! blocks Steals only with the real card, and Coups when it can. With its last card it
//! only challenges what must be a lie.

use koth_guest::coup::{run, Action, Card, Decision, Move, Phase, State};

/// Cards in the order Bandit gives them up: its Captain last.
const WORST_FIRST: [Card; 5] = [
    Card::Assassin,
    Card::Contessa,
    Card::Duke,
    Card::Ambassador,
    Card::Captain,
];

/// Whether to challenge a claim of `card`: always an Ambassador or a Captain while Bandit
/// can afford to lose a card, anything that cannot be true.
fn challenge(state: &State, card: Card) -> bool {
    let impossible = state.unseen().get(card) == 0;
    let target = matches!(card, Card::Ambassador | Card::Captain);
    impossible || (target && state.my_card_count() > 1)
}

fn act(state: &State) -> Move {
    if state.can(Move::Coup) {
        Move::Coup
    } else if state.can(Move::Steal) {
        Move::Steal
    } else if state.has(Card::Duke) {
        Move::Tax
    } else {
        Move::Income
    }
}

fn respond(state: &State, action: Action) -> Move {
    if let Some(&card) = action.blockers().iter().find(|&&c| state.has(c)) {
        return Move::Block(card);
    }
    match action.claim() {
        Some(card) if challenge(state, card) => Move::Challenge,
        // Losing the last card anyway: calling the bluff cannot make it worse.
        Some(_) if action == Action::Assassinate && state.my_card_count() == 1 => Move::Challenge,
        _ => Move::Pass,
    }
}

fn keep_best(state: &State, keep: usize) -> Decision {
    let mut cards = state.cards().to_vec();
    cards.sort_by_key(|c| std::cmp::Reverse(WORST_FIRST.iter().position(|w| w == c)));
    cards.truncate(keep);
    Decision::Keep(cards)
}

fn decide(state: &State) -> Decision {
    let wish = match state.phase() {
        Phase::Act => act(state),
        Phase::Respond(action) => respond(state, action),
        Phase::Blocked { card, .. } if challenge(state, card) => Move::Challenge,
        Phase::Blocked { .. } | Phase::EndTurn => Move::EndTurn,
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => Move::Surrender(WORST_FIRST[0]),
        Phase::FinishExchange { keep } => return keep_best(state, keep),
    };
    if state.can(wish) {
        return wish.into();
    }
    state
        .give_up(&WORST_FIRST)
        .unwrap_or_else(|| state.or_first_legal(wish))
        .into()
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide_at(history: &str, cards: &[Card], coins: u32, opp: u32) -> Decision {
        decide(&State::at_position(history, cards, coins, opp).unwrap())
    }

    #[test]
    fn steals_and_challenges_blockers() {
        use Card::*;
        assert_eq!(decide_at("", &[Duke, Contessa], 1, 1), Move::Steal.into());
        assert_eq!(
            decide_at("I\nI\n", &[Duke, Contessa], 2, 0),
            Move::Tax.into()
        );
        assert_eq!(
            decide_at("Sc", &[Duke, Contessa], 1, 1),
            Move::Challenge.into()
        );
        assert_eq!(
            decide_at("Sa", &[Duke, Contessa], 1, 1),
            Move::Challenge.into()
        );
        assert_eq!(
            decide_at("I\nS", &[Duke, Contessa], 1, 1),
            Move::Challenge.into()
        );
        assert_eq!(
            decide_at("I\nE", &[Duke, Contessa], 1, 1),
            Move::Challenge.into()
        );
        assert_eq!(
            decide_at("I\nT", &[Duke, Contessa], 1, 1),
            Move::Pass.into()
        );
        assert_eq!(
            decide_at("I\nS", &[Captain, Contessa], 1, 1),
            Move::Block(Captain).into()
        );
    }

    #[test]
    fn careful_with_its_last_card() {
        use Card::*;
        // Bandit (second) lost a card to a Coup; the opponent blocks its Steal.
        let history = "C0\nSc";
        assert_eq!(decide_at(history, &[Contessa], 1, 1), Move::EndTurn.into());
        assert_eq!(decide_at("C0\nI\nA", &[Duke], 1, 3), Move::Challenge.into());
    }
}
