//! Gambler: "has a sophisticated strategy but trusts its gut when a situation isn't covered
//! by its winning strategy. Tries to steal a lot and to coup/assassinate whenever possible."
//!
//! Written from that description (the original code is not available):
//! - the covered situations follow rules: Coup when possible; Assassinate when possible
//!   unless a Contessa is likely (bluffing the Assassin only while the opponent rarely
//!   challenges and has two cards); Steal while the opponent has coins to take and its
//!   Steals are not being blocked; block with cards it holds; challenge claims that are
//!   almost surely lies and leave alone those that are probably true; on its last card,
//!   call an Assassin that is probably a lie;
//! - everything else is a gamble: each option gets a weight from the odds (how likely the
//!   opponent holds the card it claims, from Solver's belief, included from `solver.rs`;
//!   how often it challenges and blocks us), and Gambler draws a move with probability
//!   proportional to its weight cubed.
//!
//! Statistician includes this file and plays the same strategy taking the heaviest option
//! instead of drawing ([`Chooser::Argmax`]).

#[path = "solver.rs"]
#[allow(dead_code)]
mod solver;

use solver::Model;

use koth_guest::coup::{
    run, Action, Card, ClaimKind, ClaimOutcome, Decision, Move, Phase, Player, State,
};
use koth_guest::Rng;

/// How uncovered situations are settled.
pub enum Chooser {
    /// Draw an option with probability proportional to the cube of its weight (Gambler):
    /// its gut leans towards the odds, and a long shot stays a long shot.
    Sample(Rng),
    /// Take the heaviest option, the first on ties (Statistician).
    Argmax,
}

impl Chooser {
    /// Picks among `options` (move, weight); ignores illegal and weightless ones.
    fn pick(&mut self, state: &State, options: &[(Move, f64)]) -> Option<Move> {
        let options: Vec<(Move, f64)> = options
            .iter()
            .copied()
            .filter(|&(mv, w)| state.can(mv) && w > 0.0)
            .collect();
        match self {
            Chooser::Argmax => options
                .iter()
                .fold(None, |best: Option<(Move, f64)>, &(mv, w)| match best {
                    Some((_, b)) if b >= w => best,
                    _ => Some((mv, w)),
                })
                .map(|b| b.0),
            Chooser::Sample(rng) => {
                let total: f64 = options.iter().map(|o| o.1.powi(3)).sum();
                let mut roll = rng.unit() * total;
                for &(mv, w) in &options {
                    if roll < w.powi(3) {
                        return Some(mv);
                    }
                    roll -= w.powi(3);
                }
                options.last().map(|o| o.0)
            }
        }
    }
}

/// The odds Gambler plays by: Solver's belief about the opponent's hand and habits, and
/// its own record of which of its actions the opponent blocked.
struct Odds {
    belief: Model,
    /// How often the opponent challenges our claims.
    challenges: f64,
    /// How often the opponent blocked our Foreign Aid, Steal and Assassinate.
    blocked: [f64; 3],
}

/// Where an action's block record is kept.
fn block_slot(action: Action) -> Option<usize> {
    match action {
        Action::ForeignAid => Some(0),
        Action::Steal => Some(1),
        Action::Assassinate => Some(2),
        _ => None,
    }
}

/// For each of Foreign Aid, Steal and Assassinate: the share of our attempts the opponent
/// blocked, with one imagined unblocked attempt as a prior.
fn block_record(state: &State) -> [f64; 3] {
    let mut tries = [1.0; 3];
    let mut blocks = [0.0; 3];
    for turn in state.turns().iter().filter(|t| t.actor == Player::Me) {
        let (Some(i), Some(answer)) = (turn.action().and_then(block_slot), turn.events.get(1))
        else {
            continue;
        };
        match answer.mv {
            Move::Block(_) => {
                tries[i] += 1.0;
                blocks[i] += 1.0;
            }
            Move::Pass | Move::Surrender(_) => tries[i] += 1.0,
            _ => {}
        }
    }
    [0, 1, 2].map(|i| blocks[i] / tries[i])
}

impl Odds {
    fn of(state: &State) -> Odds {
        let belief = Model::of(state);
        Odds {
            challenges: belief.challenge_rate,
            belief,
            blocked: block_record(state),
        }
    }

    /// How likely the opponent blocks our `action`: its record, or what it holds.
    fn block(&self, action: Action) -> f64 {
        let held = self.any(action.blockers());
        match block_slot(action) {
            Some(i) => self.blocked[i].max(held * 0.8),
            None => 0.0,
        }
    }

    fn has(&self, card: Card) -> f64 {
        self.belief.has(card)
    }

    fn lie(&self, card: Card) -> f64 {
        1.0 - self.has(card)
    }

    /// Probability it holds one of `cards`.
    fn any(&self, cards: &[Card]) -> f64 {
        self.belief.any(cards)
    }

    /// How safe a claim of `card` is for us: certain with the card, else the chance it
    /// goes unchallenged, less with a last card (a caught bluff ends the game).
    fn safe(&self, state: &State, card: Card) -> f64 {
        if state.has(card) {
            1.0
        } else if state.my_card_count() <= 1 {
            (1.0 - self.challenges) * 0.25
        } else {
            (1.0 - self.challenges) * 0.8
        }
    }
}

/// True if the opponent blocked one of our Steals and was not caught.
fn steals_blocked(state: &State) -> bool {
    state.opponent_claims().iter().any(|c| {
        c.kind == ClaimKind::Block(Action::Steal)
            && matches!(c.outcome, ClaimOutcome::Unchallenged | ClaimOutcome::Proven)
    })
}

/// Cards in the order Gambler keeps them: income, theft, the kill, then defence.
const KEEP_FIRST: [Card; 5] = [
    Card::Duke,
    Card::Captain,
    Card::Assassin,
    Card::Contessa,
    Card::Ambassador,
];

fn act(state: &State, odds: &Odds, chooser: &mut Chooser) -> Move {
    if state.can(Move::Coup) {
        return Move::Coup;
    }
    let two_cards = state.opponent_card_count() > 1;
    let bluffable = odds.challenges < 0.3 && two_cards;
    if state.can(Move::Assassinate)
        && (state.has(Card::Assassin) || bluffable)
        && odds.has(Card::Contessa) < 0.6
        && odds.blocked[2] < 0.3
    {
        return Move::Assassinate;
    }
    let block = odds.block(Action::Steal);
    // Steal a lot: as long as Steals are not being blocked or challenged.
    if state.opponent_coins() >= 2
        && !steals_blocked(state)
        && (state.has(Card::Captain) || odds.challenges < 0.35)
    {
        return Move::Steal;
    }
    let steal = f64::from(state.opponent_coins().min(2));
    let weak = !state
        .cards()
        .iter()
        .any(|c| matches!(c, Card::Duke | Card::Captain | Card::Assassin));
    let options = [
        (Move::Tax, 3.0 * odds.safe(state, Card::Duke)),
        (
            Move::Steal,
            2.0 * steal * (1.0 - block) * odds.safe(state, Card::Captain),
        ),
        (
            Move::ForeignAid,
            2.0 * (1.0 - odds.block(Action::ForeignAid)),
        ),
        (Move::Income, 1.0),
        (
            Move::Assassinate,
            3.0 * (1.0 - odds.block(Action::Assassinate)) * odds.safe(state, Card::Assassin),
        ),
        (
            Move::Exchange,
            if weak { 2.0 } else { 0.2 } * odds.safe(state, Card::Ambassador),
        ),
    ];
    chooser
        .pick(state, &options)
        .unwrap_or_else(|| state.or_first_legal(Move::Income))
}

fn respond(state: &State, odds: &Odds, action: Action, chooser: &mut Chooser) -> Move {
    if let Some(&card) = action.blockers().iter().find(|&&c| state.has(c)) {
        return Move::Block(card);
    }
    let Some(card) = action.claim() else {
        // Foreign Aid: pass, or bluff a Duke if it seldom challenges.
        let options = [
            (Move::Pass, 1.0),
            (Move::Block(Card::Duke), odds.safe(state, Card::Duke) * 0.5),
        ];
        return chooser.pick(state, &options).unwrap_or(Move::Pass);
    };
    let lie = odds.lie(card);
    if lie > SURE_LIE {
        return Move::Challenge;
    }
    let last_card = state.my_card_count() <= 1;
    // A claim that is probably true is not worth a gamble.
    let lie = if lie < LIKELY_TRUE { 0.0 } else { lie };
    let options: Vec<(Move, f64)> = match action {
        Action::Assassinate if last_card => {
            if lie > 0.5 {
                return Move::Challenge;
            }
            vec![
                (Move::Challenge, lie),
                (Move::Block(Card::Contessa), 1.0 - odds.challenges),
            ]
        }
        // A wrong challenge of a true Assassinate, or a caught Contessa bluff, loses the
        // game: take the loss of one card unless the odds are good.
        Action::Assassinate => vec![
            (Move::Pass, 1.0 - lie),
            (Move::Challenge, lie * lie),
            (
                Move::Block(Card::Contessa),
                (1.0 - odds.challenges) * 0.3 * lie,
            ),
        ],
        Action::Steal => vec![
            (Move::Pass, 1.0 - lie),
            (Move::Challenge, lie),
            (
                Move::Block(Card::Captain),
                odds.safe(state, Card::Captain) * 0.5,
            ),
        ],
        _ => vec![
            (Move::Pass, 1.0 - lie),
            (Move::Challenge, if last_card { lie * lie } else { lie }),
        ],
    };
    let mut options = options;
    if action == Action::Assassinate {
        // Letting an Assassinate through means giving up a card.
        if let Some(give) = state.give_up(&worst_first()) {
            options.iter_mut().for_each(|o| {
                if o.0 == Move::Pass {
                    o.0 = give;
                }
            });
        }
    }
    chooser
        .pick(state, &options)
        .unwrap_or_else(|| state.or_first_legal(Move::Pass))
}

/// Above this chance of a lie a claim is always challenged; below [`LIKELY_TRUE`] never.
/// In between Gambler gambles.
const SURE_LIE: f64 = 0.75;
const LIKELY_TRUE: f64 = 0.4;

fn worst_first() -> [Card; 5] {
    let mut order = KEEP_FIRST;
    order.reverse();
    order
}

fn keep_best(state: &State, keep: usize) -> Decision {
    let mut sorted = state.cards().to_vec();
    sorted.sort_by_key(|c| KEEP_FIRST.iter().position(|k| k == c));
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

/// Gambler's strategy; `chooser` settles what the rules do not cover.
pub fn decide(state: &State, chooser: &mut Chooser) -> Decision {
    let odds = Odds::of(state);
    let wish = match state.phase() {
        Phase::FinishExchange { keep } => return keep_best(state, keep),
        Phase::Act => act(state, &odds, chooser),
        Phase::Respond(action) => respond(state, &odds, action, chooser),
        Phase::Blocked { action, card } => {
            let lie = match odds.lie(card) {
                lie if lie > SURE_LIE => return Move::Challenge.into(),
                lie if lie < LIKELY_TRUE => 0.0,
                lie => lie,
            };
            // A Contessa caught lying costs the blocker both cards.
            let bonus = if action == Action::Assassinate {
                1.5
            } else {
                1.0
            };
            let options = [(Move::Challenge, lie * bonus), (Move::EndTurn, 1.0 - lie)];
            chooser.pick(state, &options).unwrap_or(Move::EndTurn)
        }
        Phase::EndTurn => Move::EndTurn,
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => Move::Surrender(Card::Ambassador),
    };
    if state.can(wish) {
        return wish.into();
    }
    state
        .give_up(&worst_first())
        .unwrap_or_else(|| state.or_first_legal(wish))
        .into()
}

#[allow(dead_code)]
fn main() {
    let mut chooser = Chooser::Sample(Rng::new());
    run(|state| decide(state, &mut chooser));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_at(history: &str, cards: &[Card], coins: u32, opp: u32) -> State {
        State::at_position(history, cards, coins, opp).unwrap()
    }

    fn sampled(history: &str, cards: &[Card], coins: u32, opp: u32) -> Vec<Decision> {
        let state = state_at(history, cards, coins, opp);
        (0..300)
            .map(|seed| decide(&state, &mut Chooser::Sample(Rng::from_seed(seed))))
            .collect()
    }

    #[test]
    fn covered_situations_follow_rules() {
        use Card::*;
        let all = |d: Vec<Decision>, mv: Move| d.iter().all(|x| *x == mv.into());
        assert!(all(sampled("I\nI\n", &[Duke, Contessa], 7, 2), Move::Coup));
        assert!(all(
            sampled("I\nI\n", &[Assassin, Contessa], 3, 2),
            Move::Assassinate
        ));
        assert!(all(sampled("I\nI\n", &[Duke, Contessa], 2, 3), Move::Steal));
        assert!(all(
            sampled("S", &[Ambassador, Contessa], 2, 3),
            Move::Block(Ambassador)
        ));
        assert!(all(
            sampled("I\nC0\nT", &[Duke, Duke], 1, 1),
            Move::Challenge
        ));
    }

    #[test]
    fn gambles_otherwise() {
        use Card::*;
        // The opponent has no coins to steal: Tax, Foreign Aid, Income... at random.
        let d = sampled("I\nI\n", &[Contessa, Ambassador], 2, 0);
        assert!(d.contains(&Move::Tax.into()));
        assert!(d.contains(&Move::ForeignAid.into()));
        // An early Tax is probably true: covered, never challenged.
        let count = |d: Vec<Decision>| d.iter().filter(|x| **x == Move::Challenge.into()).count();
        assert_eq!(count(sampled("T", &[Captain, Contessa], 1, 1)), 0);
        // With one of the three Dukes in our hand it is a toss-up: sometimes challenged.
        let challenges = count(sampled("T", &[Duke, Contessa], 1, 1));
        assert!(challenges > 10 && challenges < 250, "{challenges}");
    }

    #[test]
    fn every_phase_gets_a_legal_answer() {
        use Card::*;
        for (h, cards) in [
            ("C", vec![Duke, Captain]),
            ("A", vec![Duke, Captain]),
            ("C=\nI\nA", vec![Duke]),
            ("Sq", vec![Duke, Contessa]),
            ("Sc", vec![Duke, Contessa]),
            ("As", vec![Duke, Assassin]),
            ("I\nTq$", vec![Duke, Contessa]),
            ("Ep", vec![Duke, Contessa, Ambassador, Duke]),
            ("Eq~<", vec![Duke, Contessa, Ambassador]),
            ("Fp", vec![Duke, Contessa]),
            ("F", vec![Captain, Contessa]),
            ("S", vec![Duke, Contessa]),
            ("E", vec![Duke, Contessa]),
        ] {
            let s = state_at(h, &cards, 3, 3);
            for seed in 0..30 {
                match decide(&s, &mut Chooser::Sample(Rng::from_seed(seed))) {
                    Decision::Play(mv) => assert!(s.can(mv), "{h:?} {mv:?}"),
                    Decision::Keep(k) => assert_eq!(k.len(), s.my_card_count(), "{h:?}"),
                }
            }
            match decide(&s, &mut Chooser::Argmax) {
                Decision::Play(mv) => assert!(s.can(mv), "{h:?} {mv:?}"),
                Decision::Keep(k) => assert_eq!(k.len(), s.my_card_count(), "{h:?}"),
            }
        }
    }
}
