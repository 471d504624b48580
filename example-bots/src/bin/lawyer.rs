//! Lawyer: "makes a careful way through the world, never lies, blocks when possible and
//! challenges when not to his immediate disadvantage. He only attacks when couping is
//! required, but takes coins as often as possible to coup quickly. He's smart enough to
//! sacrifice cards he doesn't use first, but not smart enough to use them to get rid of
//! them and get new ones."
//!
//! Written from that description (the original code is not available):
//! - never lies: Tax only with a Duke, Steal only with a Captain, blocks only with the card,
//!   never Exchanges and never Assassinates (its only attack is the Coup);
//! - challenges only when it cannot lose by it: the claimed card is all visible (in its hand
//!   or lost), or its last card is being Assassinated anyway;
//! - gives up the cards it never uses first: Assassin, then Ambassador.

use koth_guest::coup::{run, Action, Card, ClaimOutcome, Decision, Move, Phase, State};

/// Cards in the order Lawyer gives them up: unused ones first, the Duke (Tax) last.
const SACRIFICE: [Card; 5] = [
    Card::Assassin,
    Card::Ambassador,
    Card::Captain,
    Card::Contessa,
    Card::Duke,
];

/// True if the opponent cannot hold `card`: every copy is in sight.
fn surely_lying(state: &State, card: Card) -> bool {
    state.unseen().get(card) == 0
}

/// True if the opponent has claimed a Duke and was never caught lying about one, so a
/// Foreign Aid would likely be blocked.
fn opponent_claims_duke(state: &State) -> bool {
    state
        .opponent_claims()
        .iter()
        .any(|c| c.card == Card::Duke && c.outcome != ClaimOutcome::Caught)
}

/// The fastest honest income.
fn act(state: &State) -> Move {
    if state.can(Move::Coup) {
        return Move::Coup;
    }
    if state.has(Card::Duke) {
        return Move::Tax;
    }
    if state.has(Card::Captain) && state.opponent_coins() >= 2 {
        return Move::Steal;
    }
    if opponent_claims_duke(state) {
        Move::Income
    } else {
        Move::ForeignAid
    }
}

fn respond(state: &State, action: Action) -> Move {
    if let Some(&card) = action.blockers().iter().find(|&&c| state.has(c)) {
        return Move::Block(card);
    }
    if let Some(claim) = action.claim() {
        let last_card_at_stake = action == Action::Assassinate && state.my_card_count() == 1;
        if surely_lying(state, claim) || last_card_at_stake {
            return Move::Challenge;
        }
    }
    Move::Pass
}

fn keep_best(state: &State, keep: usize) -> Decision {
    let mut cards = state.cards().to_vec();
    cards.sort_by_key(|c| std::cmp::Reverse(SACRIFICE.iter().position(|s| s == c)));
    cards.truncate(keep);
    Decision::Keep(cards)
}

fn decide(state: &State) -> Decision {
    let wish = match state.phase() {
        Phase::Act => act(state),
        Phase::Respond(action) => respond(state, action),
        Phase::Blocked { card, .. } if surely_lying(state, card) => Move::Challenge,
        Phase::Blocked { .. } | Phase::EndTurn => Move::EndTurn,
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => Move::Surrender(SACRIFICE[0]),
        Phase::FinishExchange { keep } => return keep_best(state, keep),
    };
    if state.can(wish) {
        return wish.into();
    }
    // Whatever could not be done (a pass against an Assassinate, a reveal without the
    // card, giving up an Assassin it does not hold) leaves a card to give up.
    state
        .give_up(&SACRIFICE)
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
    fn honest_income() {
        use Card::*;
        assert_eq!(decide_at("", &[Duke, Assassin], 1, 1), Move::Tax.into());
        assert_eq!(
            decide_at("I\nI\n", &[Captain, Assassin], 1, 2),
            Move::Steal.into()
        );
        assert_eq!(
            decide_at("I\nI\n", &[Contessa, Assassin], 1, 2),
            Move::ForeignAid.into()
        );
        assert_eq!(
            decide_at("I\nTp\n", &[Contessa, Assassin], 2, 4),
            Move::Income.into()
        );
        assert_eq!(
            decide_at("I\nI\n", &[Duke, Assassin], 7, 2),
            Move::Coup.into()
        );
    }

    #[test]
    fn blocks_truthfully_and_sacrifices_unused_cards() {
        use Card::*;
        assert_eq!(
            decide_at("S", &[Ambassador, Duke], 2, 1),
            Move::Block(Ambassador).into()
        );
        assert_eq!(decide_at("S", &[Contessa, Duke], 2, 1), Move::Pass.into());
        assert_eq!(
            decide_at("A", &[Contessa, Duke], 2, 1),
            Move::Block(Contessa).into()
        );
        assert_eq!(
            decide_at("A", &[Captain, Assassin], 2, 1),
            Move::Surrender(Assassin).into()
        );
        assert_eq!(
            decide_at("C", &[Duke, Ambassador], 2, 1),
            Move::Surrender(Ambassador).into()
        );
        // Last card and no Contessa: challenging the Assassinate costs nothing more.
        assert_eq!(decide_at("C=\nI\nA", &[Duke], 2, 3), Move::Challenge.into());
    }

    #[test]
    fn challenges_only_sure_lies() {
        use Card::*;
        assert_eq!(decide_at("T", &[Duke, Duke], 2, 1), Move::Pass.into());
        // Two Dukes in hand, one lost: a third is impossible.
        assert_eq!(
            decide_at("I\nC0\nT", &[Duke, Duke], 2, 1),
            Move::Challenge.into()
        );
    }
}
