//! RandoAggroLawyer: "similar to Lawyer, only does legal (truthful) things. However it
//! assassinates, coups earlier, and some actions are chosen at random (e.g. when to
//! challenge)."
//!
//! Written from that description (the original code is not available):
//! - never lies: every claim, action or block, is backed by a card in its hand;
//! - aggressive where Lawyer is passive: it Assassinates with its Assassin and Coups as soon
//!   as it has 7 coins, and plays Steal as readily as Tax;
//! - the choices Lawyer makes by rule it makes by dice: between honest incomes, and whether
//!   to challenge, with odds that follow how likely a lie the claim is (card counting and
//!   the opponent's claims, as Solver judges them, included from `solver.rs`; a claim that
//!   cannot be true is always challenged), doubled when the claim would bring the opponent
//!   to a Coup.

#[path = "solver.rs"]
#[allow(dead_code)]
mod solver;

use solver::Model;

use koth_guest::coup::{run, Action, Card, ClaimOutcome, Decision, Move, Phase, Player, State};
use koth_guest::Rng;

/// Cards in the order it gives them up: what it does not use first, the Duke last.
const WORST_FIRST: [Card; 5] = [
    Card::Ambassador,
    Card::Contessa,
    Card::Captain,
    Card::Assassin,
    Card::Duke,
];

/// True if the opponent blocked a Foreign Aid of ours as a Duke without being caught.
fn duke_blocks(state: &State) -> bool {
    state.turns().iter().any(|t| {
        t.actor == Player::Me
            && t.action() == Some(Action::ForeignAid)
            && t.claims()
                .iter()
                .any(|c| c.by == Player::Opponent && c.outcome != ClaimOutcome::Caught)
    })
}

/// True if the opponent's Contessa stopped our last Assassinate and was not caught: a
/// lawyer does not pay for the same refusal twice.
fn contessa_wall(state: &State) -> bool {
    let last = state
        .turns()
        .iter()
        .rev()
        .find(|t| t.actor == Player::Me && t.action() == Some(Action::Assassinate));
    last.is_some_and(|t| {
        t.claims().iter().any(|c| {
            c.by == Player::Opponent
                && c.card == Card::Contessa
                && c.outcome != ClaimOutcome::Caught
        })
    })
}

fn act(state: &State, rng: &mut Rng) -> Move {
    if state.can(Move::Coup) {
        return Move::Coup;
    }
    if state.has(Card::Assassin) && state.can(Move::Assassinate) && !contessa_wall(state) {
        return Move::Assassinate;
    }
    // Honest incomes, each with a weight; the dice pick among them.
    let mut options: Vec<(Move, u64)> = Vec::new();
    if state.has(Card::Duke) {
        options.push((Move::Tax, 6));
    }
    if state.has(Card::Captain) && state.opponent_coins() >= 2 {
        options.push((Move::Steal, 4));
    }
    let useless = !state
        .cards()
        .iter()
        .any(|c| matches!(c, Card::Duke | Card::Assassin | Card::Captain));
    if state.has(Card::Ambassador) && useless {
        options.push((Move::Exchange, 3));
    }
    if !duke_blocks(state) {
        options.push((Move::ForeignAid, if options.is_empty() { 3 } else { 1 }));
    }
    options.push((Move::Income, 1));
    let total: u64 = options.iter().map(|o| o.1).sum();
    let mut roll = rng.below(total);
    for (mv, weight) in options {
        if roll < weight {
            return mv;
        }
        roll -= weight;
    }
    Move::Income
}

/// Whether to challenge a claim of `card`: always if it cannot be true, otherwise at random
/// with odds that grow with how likely a lie it is (Solver's belief: card counting and the
/// opponent's claims), scaled by what is at stake.
fn challenge(state: &State, card: Card, rng: &mut Rng, stakes: f64) -> bool {
    if state.unseen().get(card) == 0 {
        return true;
    }
    let lie = Model::of(state).lie(card);
    let odds = ((lie - 0.3) * 1.5 * stakes).clamp(0.0, 0.8);
    rng.unit() < odds
}

fn respond(state: &State, action: Action, rng: &mut Rng) -> Move {
    if let Some(&card) = action.blockers().iter().find(|&&c| state.has(c)) {
        return Move::Block(card);
    }
    let Some(card) = action.claim() else {
        return Move::Pass;
    };
    let last_card = state.my_card_count() <= 1;
    // Aggressive where it matters: a Tax or Steal that brings the opponent to a Coup.
    let gain = match action {
        Action::Tax => 3,
        Action::Steal => state.my_coins().min(2),
        _ => 0,
    };
    let threat = if state.opponent_coins() + gain >= 7 {
        2.0
    } else {
        1.0
    };
    let stakes = match action {
        // Its last card goes anyway: calling the bluff cannot make it worse.
        Action::Assassinate if last_card => return Move::Challenge,
        // A true Assassinate challenged costs both cards.
        Action::Assassinate => 0.3,
        _ if last_card => 0.5 * threat,
        _ => threat,
    };
    if challenge(state, card, rng, stakes) {
        Move::Challenge
    } else {
        Move::Pass
    }
}

fn keep_best(state: &State, keep: usize) -> Decision {
    let mut cards = state.cards().to_vec();
    cards.sort_by_key(|c| std::cmp::Reverse(WORST_FIRST.iter().position(|w| w == c)));
    cards.truncate(keep);
    Decision::Keep(cards)
}

fn decide(state: &State, rng: &mut Rng) -> Decision {
    let wish = match state.phase() {
        Phase::Act => act(state, rng),
        Phase::Respond(action) => respond(state, action, rng),
        Phase::Blocked { action, card } => {
            // Caught lying about a Contessa costs the blocker both cards: worth more dice.
            let stakes = if action == Action::Assassinate {
                1.5
            } else {
                1.0
            };
            if challenge(state, card, rng, stakes) {
                Move::Challenge
            } else {
                Move::EndTurn
            }
        }
        Phase::EndTurn => Move::EndTurn,
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
    let mut rng = Rng::new();
    run(|state| decide(state, &mut rng));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_at(history: &str, cards: &[Card], coins: u32, opp: u32) -> State {
        State::at_position(history, cards, coins, opp).unwrap()
    }

    /// What it does over many seeds.
    fn answers(history: &str, cards: &[Card], coins: u32, opp: u32) -> Vec<Decision> {
        let state = state_at(history, cards, coins, opp);
        (0..200)
            .map(|seed| decide(&state, &mut Rng::from_seed(seed)))
            .collect()
    }

    #[test]
    fn never_lies() {
        use Card::*;
        for (h, cards, coins) in [
            ("", vec![Contessa, Contessa], 1),
            ("I\nI\n", vec![Contessa, Ambassador], 4),
            ("I\nFd\n", vec![Captain, Contessa], 2),
        ] {
            for d in answers(h, &cards, coins, 3) {
                let Decision::Play(mv) = d else { panic!() };
                if let Some(claim) = mv.claim() {
                    assert!(cards.contains(&claim), "{h:?} {mv:?}");
                }
            }
        }
        for d in answers("S", &[Duke, Contessa], 2, 2) {
            assert!(matches!(d, Decision::Play(Move::Pass | Move::Challenge)));
        }
    }

    #[test]
    fn aggressive_and_random() {
        use Card::*;
        let all = |d: &[Decision], mv: Move| d.iter().all(|x| *x == mv.into());
        assert!(all(
            &answers("I\nI\n", &[Assassin, Duke], 3, 2),
            Move::Assassinate
        ));
        assert!(all(&answers("I\nI\n", &[Contessa, Duke], 7, 2), Move::Coup));
        let mixed = answers("I\nI\n", &[Captain, Duke], 2, 3);
        assert!(mixed.contains(&Move::Tax.into()) && mixed.contains(&Move::Steal.into()));
        // Challenges come at random, more often when the card is scarce.
        let count = |d: Vec<Decision>| d.iter().filter(|x| **x == Move::Challenge.into()).count();
        let plenty = count(answers("T", &[Captain, Contessa], 1, 1));
        let scarce = count(answers("I\nC0\nT", &[Duke, Captain], 1, 1));
        assert!(plenty < scarce, "{plenty} {scarce}");
        assert!(scarce > 0 && scarce < 200);
        // Impossible claims are always challenged; last card against an Assassin too.
        assert!(all(
            &answers("I\nC0\nT", &[Duke, Duke], 1, 1),
            Move::Challenge
        ));
        assert!(all(&answers("C=\nI\nA", &[Duke], 1, 4), Move::Challenge));
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
        ] {
            let s = state_at(h, &cards, 3, 3);
            for seed in 0..20 {
                match decide(&s, &mut Rng::from_seed(seed)) {
                    Decision::Play(mv) => assert!(s.can(mv), "{h:?} {mv:?}"),
                    Decision::Keep(k) => assert_eq!(k.len(), s.my_card_count(), "{h:?}"),
                }
            }
        }
    }
}
