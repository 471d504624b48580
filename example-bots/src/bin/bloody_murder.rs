//! BloodyMurder: "as the counterpart to Bandit, goes all-in on a Duke + Assassin strategy."
//!
//! Written from that description (the original code is not available):
//! - it Taxes as a Duke and, from 3 coins, Assassinates, whatever it holds while it has two
//!   cards (on its last card only with the real ones); it Coups when it has 7;
//! - a hand with neither a Duke nor an Assassin is exchanged (claiming an Ambassador) in the
//!   hope of drawing them; in an Exchange, and when it must give a card up, it keeps the
//!   Duke and the Assassin;
//! - it blocks only with the real card, challenges only what card counting says cannot or
//!   can hardly be true, and a Contessa that stands between its Assassin and the kill when
//!   the opponent has claimed enough other cards to make it unlikely.

use koth_guest::coup::{run, Action, Card, ClaimOutcome, Decision, Move, Phase, Player, State};

/// Cards in the order it keeps them: the plan first.
const KEEP_FIRST: [Card; 5] = [
    Card::Duke,
    Card::Assassin,
    Card::Contessa,
    Card::Captain,
    Card::Ambassador,
];

/// Probability that the opponent holds at least one `card`, by counting alone.
fn holds_by_count(state: &State, card: Card) -> f64 {
    let unseen = state.unseen();
    let total = f64::from(unseen.total());
    let copies = f64::from(unseen.get(card));
    let mut none = 1.0;
    for i in 0..state.opponent_card_count() {
        let left = total - i as f64;
        if left <= 0.0 {
            break;
        }
        none *= ((left - copies) / left).max(0.0);
    }
    1.0 - none
}

/// Distinct cards other than `card` the opponent claimed and was not caught about: with
/// two of those in a two-card hand, a claim of `card` as well is likely a lie.
fn other_claims(state: &State, card: Card) -> usize {
    let mut seen: Vec<Card> = Vec::new();
    for claim in state.opponent_claims() {
        if claim.card != card
            && claim.outcome != ClaimOutcome::Caught
            && !seen.contains(&claim.card)
        {
            seen.push(claim.card);
        }
    }
    seen.len()
}

/// True if BloodyMurder already lost a card for claiming `card` without it: the opponent is
/// watching, so it stops claiming that card unless it really holds it.
fn caught_claiming(state: &State, card: Card) -> bool {
    state.turns().iter().any(|t| {
        t.claims()
            .iter()
            .any(|c| c.by == Player::Me && c.card == card && c.outcome == ClaimOutcome::Caught)
    })
}

/// Whether to claim `card`: always with the card; as a bluff only while BloodyMurder has
/// a card to spare (a caught bluff on its last card ends the game) and has not been caught
/// bluffing it before.
fn claimable(state: &State, card: Card) -> bool {
    state.has(card) || (state.my_card_count() > 1 && !caught_claiming(state, card))
}

fn act(state: &State) -> Move {
    if state.can(Move::Coup) {
        return Move::Coup;
    }
    let planless = !state.has(Card::Duke) && !state.has(Card::Assassin);
    if planless && state.my_coins() < 3 && claimable(state, Card::Ambassador) {
        return Move::Exchange;
    }
    if state.can(Move::Assassinate) && claimable(state, Card::Assassin) {
        return Move::Assassinate;
    }
    if claimable(state, Card::Duke) {
        Move::Tax
    } else {
        Move::Income
    }
}

fn respond(state: &State, action: Action) -> Move {
    if let Some(&card) = action.blockers().iter().find(|&&c| state.has(c)) {
        return Move::Block(card);
    }
    let Some(card) = action.claim() else {
        return Move::Pass;
    };
    let holds = holds_by_count(state, card);
    let last_card = state.my_card_count() <= 1;
    match action {
        Action::Assassinate if last_card => Move::Challenge,
        Action::Assassinate if holds <= 0.0 => Move::Challenge,
        Action::Assassinate => Move::Pass,
        _ if holds < if last_card { 0.05 } else { 0.2 } => Move::Challenge,
        _ => Move::Pass,
    }
}

/// A Contessa blocking its Assassinate: challenged when it is unlikely, since a caught
/// bluff costs the opponent both cards.
fn challenge_contessa(state: &State) -> bool {
    let holds = holds_by_count(state, Card::Contessa);
    let crowded = state.opponent_card_count() <= other_claims(state, Card::Contessa);
    holds < 0.3 || crowded
}

fn keep_best(state: &State, keep: usize) -> Decision {
    let mut sorted = state.cards().to_vec();
    sorted.sort_by_key(|c| KEEP_FIRST.iter().position(|k| k == c));
    // Different cards first: a second Duke is worth less than an Assassin or a Contessa.
    let mut kept: Vec<Card> = Vec::new();
    for &card in &sorted {
        if kept.len() < keep && !kept.contains(&card) {
            kept.push(card);
        }
    }
    for &card in &sorted {
        let offered = sorted.iter().filter(|&&c| c == card).count();
        let taken = kept.iter().filter(|&&c| c == card).count();
        if kept.len() < keep && taken < offered {
            kept.push(card);
        }
    }
    Decision::Keep(kept)
}

fn decide(state: &State) -> Decision {
    let wish = match state.phase() {
        Phase::Act => act(state),
        Phase::Respond(action) => respond(state, action),
        Phase::Blocked {
            action: Action::Assassinate,
            ..
        } if challenge_contessa(state) => Move::Challenge,
        Phase::Blocked { card, .. } if holds_by_count(state, card) <= 0.0 => Move::Challenge,
        Phase::Blocked { .. } | Phase::EndTurn => Move::EndTurn,
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => Move::Surrender(KEEP_FIRST[4]),
        Phase::FinishExchange { keep } => return keep_best(state, keep),
    };
    if state.can(wish) {
        return wish.into();
    }
    let mut worst_first = KEEP_FIRST;
    worst_first.reverse();
    state
        .give_up(&worst_first)
        .unwrap_or_else(|| state.or_first_legal(wish))
        .into()
}

fn main() {
    run(decide);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_at(history: &str, cards: &[Card], coins: u32, opp: u32) -> State {
        State::at_position(history, cards, coins, opp).unwrap()
    }

    fn decide_at(history: &str, cards: &[Card], coins: u32, opp: u32) -> Decision {
        decide(&state_at(history, cards, coins, opp))
    }

    #[test]
    fn tax_then_assassinate() {
        use Card::*;
        assert_eq!(decide_at("", &[Duke, Contessa], 1, 1), Move::Tax.into());
        assert_eq!(decide_at("", &[Assassin, Contessa], 1, 1), Move::Tax.into());
        assert_eq!(
            decide_at("Tp\nI\n", &[Captain, Duke], 4, 2),
            Move::Assassinate.into()
        );
        assert_eq!(decide_at("I\nI\n", &[Duke, Duke], 7, 2), Move::Coup.into());
        // On its last card it claims only what it holds.
        assert_eq!(decide_at("C=\nI\n", &[Captain], 4, 2), Move::Income.into());
        assert_eq!(
            decide_at("C=\nI\n", &[Assassin], 4, 2),
            Move::Assassinate.into()
        );
        // Caught bluffing a Duke: Tax only with a real one from then on.
        assert_eq!(
            decide_at("Tq=\nI\n", &[Assassin], 1, 2),
            Move::Income.into()
        );
    }

    #[test]
    fn exchanges_a_hand_without_the_plan() {
        use Card::*;
        assert_eq!(
            decide_at("", &[Captain, Contessa], 1, 1),
            Move::Exchange.into()
        );
        assert_eq!(
            decide_at("Ep", &[Duke, Captain, Contessa, Duke], 1, 1),
            Decision::Keep(vec![Duke, Contessa])
        );
        assert_eq!(
            decide_at("Ep", &[Duke, Assassin, Contessa, Duke], 1, 1),
            Decision::Keep(vec![Duke, Assassin])
        );
        assert_eq!(
            decide_at("C", &[Duke, Assassin], 1, 1),
            Move::Surrender(Assassin).into()
        );
        assert_eq!(
            decide_at("C", &[Contessa, Assassin], 1, 1),
            Move::Surrender(Contessa).into()
        );
    }

    #[test]
    fn challenges() {
        use Card::*;
        assert_eq!(
            decide_at("T", &[Captain, Contessa], 1, 1),
            Move::Pass.into()
        );
        assert_eq!(
            decide_at("I\nC0\nT", &[Duke, Duke], 1, 1),
            Move::Challenge.into()
        );
        assert_eq!(decide_at("C=\nI\nA", &[Duke], 1, 4), Move::Challenge.into());
        assert_eq!(
            decide_at("A", &[Duke, Contessa], 1, 4),
            Move::Block(Contessa).into()
        );
        // Two Contessas in hand: a third is unlikely in a two-card hand.
        assert_eq!(
            decide_at("I\nI\nAs", &[Contessa, Contessa], 3, 2),
            Move::Challenge.into()
        );
    }

    #[test]
    fn every_phase_gets_a_legal_answer() {
        use Card::*;
        for (h, cards) in [
            ("C", vec![Duke, Captain]),
            ("A", vec![Duke, Captain]),
            ("Sq", vec![Duke, Contessa]),
            ("Sc", vec![Duke, Contessa]),
            ("As", vec![Duke, Assassin]),
            ("I\nTq$", vec![Duke, Contessa]),
            ("Ep", vec![Duke, Contessa, Ambassador, Duke]),
            ("Eq~<", vec![Duke, Contessa, Ambassador]),
            ("Fp", vec![Duke, Contessa]),
            ("S", vec![Duke, Contessa]),
        ] {
            let s = state_at(h, &cards, 3, 3);
            match decide(&s) {
                Decision::Play(mv) => assert!(s.can(mv), "{h:?} {mv:?}"),
                Decision::Keep(k) => assert_eq!(k.len(), s.my_card_count(), "{h:?}"),
            }
        }
    }
}
