//! Mask: "a master of disguise. Prevents opponents from keeping track of his cards by
//! exchanging every time he acts or blocks. His winning strategy is to take 3 coins as
//! Duke and then as Assassin."
//!
//! Written from that description (the original Go code is not available):
//! - after every claim it makes (a Tax, an Assassinate or a block), its next turn is an
//!   Exchange, so whatever the opponent learnt about its hand is stale;
//! - otherwise it Taxes as a Duke, and once it has 3 coins Assassinates, whether or not it
//!   holds the cards (the Exchanges are meant to make the claims impossible to track);
//! - it blocks whatever it can, with a card it holds if possible;
//! - in an Exchange it keeps its strategy cards: Duke, Assassin, then Contessa.

use koth_guest::coup::{run, Action, Card, ClaimKind, Decision, Move, Phase, State};

/// Cards in the order Mask keeps them.
const KEEP_FIRST: [Card; 5] = [
    Card::Duke,
    Card::Assassin,
    Card::Contessa,
    Card::Captain,
    Card::Ambassador,
];

/// Cards in the order Mask gives them up.
const WORST_FIRST: [Card; 5] = [
    Card::Ambassador,
    Card::Captain,
    Card::Contessa,
    Card::Assassin,
    Card::Duke,
];

/// True if Mask's last claim was not an Exchange: it has shown something since its last
/// change of disguise.
fn disguise_is_stale(state: &State) -> bool {
    state
        .my_claims()
        .last()
        .is_some_and(|c| c.kind != ClaimKind::Action(Action::Exchange))
}

fn act(state: &State) -> Move {
    if state.can(Move::Coup) {
        Move::Coup
    } else if disguise_is_stale(state) {
        Move::Exchange
    } else if state.can(Move::Assassinate) {
        Move::Assassinate
    } else {
        Move::Tax
    }
}

fn respond(state: &State, action: Action) -> Move {
    let blockers = action.blockers();
    let held = blockers.iter().copied().find(|&c| state.has(c));
    match held.or_else(|| blockers.first().copied()) {
        Some(card) => Move::Block(card),
        // Exchange and Tax cannot be blocked; challenge only a claim that cannot be true.
        None => match action.claim() {
            Some(card) if state.unseen().get(card) == 0 => Move::Challenge,
            _ => Move::Pass,
        },
    }
}

fn keep_best(state: &State, keep: usize) -> Decision {
    let mut cards = state.cards().to_vec();
    cards.sort_by_key(|c| KEEP_FIRST.iter().position(|k| k == c));
    cards.truncate(keep);
    Decision::Keep(cards)
}

fn decide(state: &State) -> Decision {
    let wish = match state.phase() {
        Phase::Act => act(state),
        Phase::Respond(action) => respond(state, action),
        Phase::Blocked { card, .. } if state.unseen().get(card) == 0 => Move::Challenge,
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
    fn tax_exchange_assassinate_exchange() {
        use Card::*;
        assert_eq!(decide_at("", &[Captain, Captain], 1, 1), Move::Tax.into());
        // Its own Tax on line 0, the opponent's Income on line 1: disguise first.
        assert_eq!(
            decide_at("Tp\nI\n", &[Captain, Captain], 4, 2),
            Move::Exchange.into()
        );
        assert_eq!(
            decide_at("Tp\nI\nEp\nI\n", &[Duke, Assassin], 4, 3),
            Move::Assassinate.into()
        );
        assert_eq!(
            decide_at("Tp\nI\nEp\nI\nAs\nI\n", &[Duke, Assassin], 1, 4),
            Move::Exchange.into()
        );
        // A block counts as showing a card too.
        assert_eq!(
            decide_at("I\nFd\nI\nI\n", &[Duke, Assassin], 2, 2),
            Move::Exchange.into()
        );
    }

    #[test]
    fn blocks_and_keeps() {
        use Card::*;
        assert_eq!(
            decide_at("F", &[Captain, Captain], 1, 1),
            Move::Block(Duke).into()
        );
        assert_eq!(
            decide_at("S", &[Ambassador, Duke], 1, 1),
            Move::Block(Ambassador).into()
        );
        assert_eq!(
            decide_at("A", &[Captain, Duke], 1, 1),
            Move::Block(Contessa).into()
        );
        assert_eq!(
            decide_at("Ep", &[Captain, Assassin, Ambassador, Duke], 1, 1),
            Decision::Keep(vec![Duke, Assassin])
        );
    }
}
