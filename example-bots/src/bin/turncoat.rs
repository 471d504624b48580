//! Turncoat: "tells the truth at first, but starts lying when it stops being challenged.
//! Also has some Solver behaviour."
//!
//! Written from that description (the original code is not available):
//! - while the opponent challenges its claims, or before it has made a couple of them, it
//!   plays exactly as Solver (included from `solver.rs`): honest actions and blocks chosen
//!   around its belief about the opponent's hand, challenges where that belief says lie;
//! - once its last few claims all went unchallenged it turns: it Taxes without a Duke,
//!   Assassinates without an Assassin and blocks Steals and Foreign Aid with cards it does
//!   not hold. A challenge, won or lost, turns it honest again until the opponent goes quiet
//!   once more. It never bluffs a Contessa while it has two cards (a caught one loses both).

#[path = "solver.rs"]
#[allow(dead_code)]
mod solver;

use koth_guest::coup::{run, Action, Card, ClaimOutcome, Decision, Move, Phase, State};
use solver::Model;

/// How many unchallenged claims in a row it takes to turn.
const QUIET_CLAIMS: usize = 2;

/// True if the opponent has stopped challenging: our last [`QUIET_CLAIMS`] answered claims
/// all went through without a challenge.
fn lying(state: &State) -> bool {
    let answered: Vec<ClaimOutcome> = state
        .my_claims()
        .iter()
        .map(|c| c.outcome)
        .filter(|&o| o != ClaimOutcome::Open)
        .collect();
    answered.len() >= QUIET_CLAIMS
        && answered
            .iter()
            .rev()
            .take(QUIET_CLAIMS)
            .all(|&o| o == ClaimOutcome::Unchallenged)
}

fn act(state: &State, m: &Model) -> Move {
    if state.can(Move::Coup) {
        return Move::Coup;
    }
    // A last card is called more often: only a real Assassin against it.
    let assassin_ok = state.has(Card::Assassin) || state.opponent_card_count() > 1;
    if state.can(Move::Assassinate) && assassin_ok && m.has(Card::Contessa) < 0.5 {
        return Move::Assassinate;
    }
    Move::Tax
}

fn respond(state: &State, m: &Model, action: Action) -> Move {
    let honest = solver::respond(state, m, action);
    if honest != Move::Pass {
        return honest;
    }
    match action {
        Action::ForeignAid => Move::Block(Card::Duke),
        Action::Steal => Move::Block(Card::Captain),
        _ => honest,
    }
}

fn decide(state: &State) -> Decision {
    if !lying(state) {
        return solver::decide(state);
    }
    let m = Model::of(state);
    let value = |c: Card| solver::keep_value(c, &m);
    let wish = match state.phase() {
        Phase::Act => act(state, &m),
        Phase::Respond(action) => respond(state, &m, action),
        _ => return solver::decide(state),
    };
    if state.can(wish) {
        return wish.into();
    }
    solver::worst_card(state, value)
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
    fn honest_at_first() {
        use Card::*;
        assert_eq!(
            decide_at("", &[Contessa, Contessa], 1, 1),
            Move::ForeignAid.into()
        );
        // One unchallenged Tax is not enough to turn.
        assert_eq!(
            decide_at("Tp\nI\n", &[Contessa, Contessa], 4, 2),
            Move::ForeignAid.into()
        );
        assert_eq!(
            decide_at("I\nS", &[Duke, Contessa], 1, 2),
            Move::Pass.into()
        );
    }

    #[test]
    fn lies_once_unchallenged() {
        use Card::*;
        // Two honest Taxes went through unchallenged; the Dukes are gone now.
        let h = "Tp\nI\nTp\nI\n";
        assert!(lying(&state_at(h, &[Contessa, Contessa], 4, 3)));
        assert_eq!(
            decide_at(h, &[Contessa, Contessa], 4, 3),
            Move::Assassinate.into()
        );
        assert_eq!(decide_at(h, &[Contessa, Contessa], 2, 3), Move::Tax.into());
        assert_eq!(
            decide_at("I\nTp\nI\nTp\nS", &[Contessa, Contessa], 7, 3),
            Move::Block(Captain).into()
        );
        // Challenged again: honest again.
        let h = "Tp\nI\nTp\nI\nTq$<\nI\n";
        assert!(!lying(&state_at(h, &[Duke], 1, 3)));
    }

    #[test]
    fn every_phase_gets_a_legal_answer() {
        use Card::*;
        for prefix in ["", "Tp\nI\nTp\nI\n"] {
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
                ("F", vec![Captain, Contessa]),
                ("S", vec![Duke, Contessa]),
            ] {
                let h = format!("{prefix}{h}");
                let s = state_at(&h, &cards, 3, 3);
                match decide(&s) {
                    Decision::Play(mv) => assert!(s.can(mv), "{h:?} {mv:?}"),
                    Decision::Keep(k) => assert_eq!(k.len(), s.my_card_count(), "{h:?}"),
                }
            }
        }
    }
}
