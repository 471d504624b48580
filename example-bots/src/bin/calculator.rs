//! Calculator (by Brilliand, the seed's winner): "plans its winning streak and challenges
//! anything that would keep it from winning."
//!
//! Written from that description (the original code is not available):
//! - it plans a race: how many turns each side needs to take the other's cards, given coins,
//!   cards and what each can do (Tax as a Duke, Assassinate, otherwise Steal, Foreign Aid or
//!   Income), and turns that into a chance of winning;
//! - every decision (its action, a challenge, a block, accepting a block) is the move whose
//!   outcomes, weighted by how likely each is, leave it the best race. The likelihoods come
//!   from card counting and the opponent's record (Solver's belief in its sharper form,
//!   [`solver::Model::typed`], which also judges what kind of player the opponent is, honest
//!   or bluffer, from its whole history): how likely a claim is a lie, how often the
//!   opponent challenges or blocks (Contessa blocks are called far more often, and so are
//!   claims that do not fit what it already claimed);
//! - so it challenges exactly the claims that would otherwise let the opponent win first or
//!   break its plan (but never stakes both cards on calling a likely Assassin), and bluffs
//!   only where the opponent has shown it does not check.
//!
//! Deterministic: the same history, coins and cards always give the same move.

#[path = "solver.rs"]
#[allow(dead_code)]
mod solver;

use koth_guest::coup::{
    run, Action, Card, ClaimKind, ClaimOutcome, Decision, Move, Phase, Player, State,
};
use solver::Model;

/// Coins and cards on both sides.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pos {
    my_coins: i32,
    my_cards: i32,
    opp_coins: i32,
    opp_cards: i32,
}

impl Pos {
    fn coins(self, mine: i32, theirs: i32) -> Pos {
        Pos {
            my_coins: (self.my_coins + mine).max(0),
            opp_coins: (self.opp_coins + theirs).max(0),
            ..self
        }
    }

    fn lose(self, mine: i32, theirs: i32) -> Pos {
        Pos {
            my_cards: self.my_cards - mine,
            opp_cards: self.opp_cards - theirs,
            ..self
        }
    }
}

/// What each side can do on its turns, as the plan assumes.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Plan {
    /// Coins a turn: 3 with a Duke, 2 with Foreign Aid or a Steal, less when blocked.
    my_rate: f64,
    my_assassin: bool,
    /// Coins a turn our Steals take from the opponent.
    my_drain: f64,
    opp_rate: f64,
    opp_assassin: bool,
    opp_drain: f64,
}

/// Turns a player needs to take `kills` cards, gaining `rate` a turn and killing with a Coup
/// at 7 coins or, with an Assassin, at 3.
fn turns_to_win(coins: i32, kills: i32, rate: f64, assassin: bool) -> f64 {
    let (mut coins, mut kills, mut turns) = (f64::from(coins), kills, 0.0);
    while kills > 0 && turns < 40.0 {
        turns += 1.0;
        if coins >= 7.0 {
            coins -= 7.0;
            kills -= 1;
        } else if assassin && coins >= 3.0 {
            coins -= 3.0;
            kills -= 1;
        } else {
            // Even a player robbed every turn can take Income.
            coins += rate.max(0.7);
        }
    }
    turns
}

/// How sharply a lead in the race turns into a won game. The race ignores challenges,
/// blocks and luck, so a lead of a few turns is far from a sure win, the less so the
/// longer the race.
const SHARPNESS: f64 = 1.3;

/// The chance of winning from `pos`, with `my_move` saying whose turn comes next.
fn win(pos: Pos, plan: Plan, my_move: bool) -> f64 {
    if pos.opp_cards <= 0 {
        return 1.0;
    }
    if pos.my_cards <= 0 {
        return 0.0;
    }
    // A player down to one card has fewer cards to act on.
    let weaken = |rate: f64, cards: i32| if cards < 2 { rate * 0.85 } else { rate };
    let my_rate = weaken(plan.my_rate, pos.my_cards) - plan.opp_drain;
    let opp_rate = weaken(plan.opp_rate, pos.opp_cards) - plan.my_drain;
    let mine = turns_to_win(pos.my_coins, pos.opp_cards, my_rate, plan.my_assassin);
    let theirs = turns_to_win(pos.opp_coins, pos.my_cards, opp_rate, plan.opp_assassin);
    let tempo = if my_move { 0.5 } else { -0.5 };
    let race = SHARPNESS * (theirs - mine + tempo) / (theirs + mine).sqrt();
    // A card in hand is also a spare life against surprises the race does not see, and
    // coins beyond what the turn count shows still bring the next kill closer.
    let cards = 0.35 * f64::from(pos.my_cards - pos.opp_cards);
    let coins = 0.02 * f64::from(pos.my_coins - pos.opp_coins);
    1.0 / (1.0 + (-(race + cards + coins)).exp())
}

/// Everything a decision needs: the position, the plan and the belief.
struct Ctx<'a> {
    state: &'a State,
    pos: Pos,
    plan: Plan,
    m: Model,
}

impl<'a> Ctx<'a> {
    fn new(state: &'a State) -> Ctx<'a> {
        let m = Model::typed(state);
        let pos = Pos {
            my_coins: state.my_coins() as i32,
            my_cards: state.my_card_count() as i32,
            opp_coins: state.opponent_coins() as i32,
            opp_cards: state.opponent_card_count() as i32,
        };
        let plan = plan(state, &m);
        Ctx {
            state,
            pos,
            plan,
            m,
        }
    }

    /// The chance of winning after our move (the opponent moves next).
    fn after_mine(&self, pos: Pos) -> f64 {
        win(pos, self.plan, false)
    }

    /// The chance of winning after the opponent's turn (we move next).
    fn after_theirs(&self, pos: Pos) -> f64 {
        win(pos, self.plan, true)
    }

    /// How likely the opponent blocks our `action`, and how likely such a block is a lie.
    fn block_chance(&self, action: Action) -> (f64, f64) {
        let block = self.m.block_rate(action);
        let honest = self.m.any(action.blockers()) * 0.9;
        let lie = if block > 0.0 {
            (1.0 - honest / block).max(0.0)
        } else {
            0.0
        };
        (block, lie)
    }

    /// How likely the opponent challenges a claim of ours.
    fn challenge_chance(&self, action: Action) -> f64 {
        let rate = action
            .claim()
            .map_or(self.m.challenge_rate, |c| self.claim_challenged(c));
        if action == Action::Assassinate && self.pos.opp_cards == 1 {
            // Nothing left to lose: most bots call an Assassin on their last card.
            rate.max(0.5)
        } else {
            rate
        }
    }

    /// How likely the opponent challenges a claim of `card` by us: its usual rate, scaled by
    /// how the claim looks from its side. Repeating a claim looks consistent; a card beyond
    /// what our hand can hold besides what we already claimed since our last Exchange looks
    /// like the lie a counting opponent calls. Our last card invites challenges too.
    fn claim_challenged(&self, card: Card) -> f64 {
        let since = self
            .state
            .turns()
            .iter()
            .rposition(|t| {
                t.actor == Player::Me && t.complete && t.action() == Some(Action::Exchange)
            })
            .map_or(0, |i| i + 1);
        let mut claimed: Vec<Card> = Vec::new();
        for claim in self.state.turns()[since..].iter().flat_map(|t| t.claims()) {
            if claim.by == Player::Me
                && claim.outcome == ClaimOutcome::Unchallenged
                && !claimed.contains(&claim.card)
            {
                claimed.push(claim.card);
            }
        }
        let looks = if claimed.contains(&card) {
            0.7
        } else if claimed.len() >= self.pos.my_cards as usize {
            3.0
        } else {
            1.0
        };
        let last = if self.pos.my_cards <= 1 { 1.5 } else { 1.0 };
        (self.m.challenge_rate * looks * last).min(0.9)
    }

    /// How likely the opponent challenges a Contessa block of ours. Catching one wins the
    /// game on the spot, so bots call it far more often than other claims: a high prior,
    /// corrected by what this opponent did with our earlier Contessa blocks.
    fn contessa_challenges(&self) -> f64 {
        let (mut seen, mut called) = (0.0, 0.0);
        for claim in self.state.my_claims() {
            if claim.kind == ClaimKind::Block(Action::Assassinate) {
                match claim.outcome {
                    ClaimOutcome::Unchallenged => seen += 1.0,
                    ClaimOutcome::Proven | ClaimOutcome::Caught => {
                        seen += 1.0;
                        called += 1.0;
                    }
                    ClaimOutcome::Open => {}
                }
            }
        }
        let prior = self.m.challenge_rate.max(0.5);
        (called + 2.0 * prior) / (seen + 2.0)
    }

    /// The better of accepting a block of our `action` and challenging it, when the block
    /// is a lie with probability `lie`.
    fn blocked(&self, action: Action, lie: f64) -> f64 {
        let p = self.pos;
        let paid = if action == Action::Assassinate { -3 } else { 0 };
        let accepted = self.after_mine(p.coins(paid, 0));
        let caught = match action {
            // Caught blocking with a Contessa it lacks: it loses both cards.
            Action::Assassinate => 1.0,
            Action::ForeignAid => self.after_mine(p.coins(2, 0).lose(0, 1)),
            Action::Steal => {
                let s = p.opp_coins.min(2);
                self.after_mine(p.coins(s, -s).lose(0, 1))
            }
            _ => self.after_mine(p.lose(0, 1)),
        };
        let wrong = self.after_mine(p.coins(paid, 0).lose(1, 0));
        accepted.max(lie * caught + (1.0 - lie) * wrong)
    }

    /// Expected chance of winning if we take `action`.
    fn value_of(&self, action: Action) -> f64 {
        let p = self.pos;
        let honest = action.claim().is_none_or(|c| self.state.has(c));
        let challenged = if action.claim().is_some() {
            self.challenge_chance(action)
        } else {
            0.0
        };
        // What happens if the claim stands (or there is none).
        let stands = |pos: Pos| -> f64 {
            let (b, lie) = self.block_chance(action);
            let blocked = if b > 0.0 {
                self.blocked(action, lie)
            } else {
                0.0
            };
            match action {
                Action::Income => self.after_mine(pos.coins(1, 0)),
                Action::ForeignAid => b * blocked + (1.0 - b) * self.after_mine(pos.coins(2, 0)),
                Action::Tax => self.after_mine(pos.coins(3, 0)),
                Action::Coup => self.after_mine(pos.coins(-7, 0).lose(0, 1)),
                Action::Steal => {
                    let s = pos.opp_coins.min(2);
                    b * blocked + (1.0 - b) * self.after_mine(pos.coins(s, -s))
                }
                Action::Assassinate => {
                    b * blocked + (1.0 - b) * self.after_mine(pos.coins(-3, 0).lose(0, 1))
                }
                Action::Exchange => self.exchange_value(pos),
            }
        };
        if challenged == 0.0 {
            return stands(p);
        }
        let when_challenged = if honest {
            if action == Action::Assassinate {
                // A wrong challenge of a true Assassinate costs both cards.
                1.0
            } else {
                stands(p.lose(0, 1))
            }
        } else {
            self.after_mine(p.lose(1, 0))
        };
        challenged * when_challenged + (1.0 - challenged) * stands(p)
    }

    /// The worth of an Exchange: the chance of drawing into a Duke (our income), given
    /// what is unseen.
    fn exchange_value(&self, pos: Pos) -> f64 {
        let unseen = self.state.unseen();
        let total = f64::from(unseen.total().max(2));
        let n = f64::from(unseen.get(Card::Duke));
        let duke = if self.state.has(Card::Duke) {
            1.0
        } else {
            1.0 - ((total - n) * (total - n - 1.0)) / (total * (total - 1.0))
        };
        let mut better = self.plan;
        better.my_rate = 3.0;
        duke * win(pos, better, false) + (1.0 - duke) * self.after_mine(pos)
    }

    /// Expected chance of winning if we answer the opponent's `action` with `mv`.
    fn answer_value(&self, action: Action, mv: Move) -> f64 {
        let p = self.pos;
        let lie = action.claim().map_or(0.0, |c| self.m.lie(c));
        // The opponent's action going through.
        let through = |pos: Pos| -> f64 {
            match action {
                Action::ForeignAid => self.after_theirs(pos.coins(0, 2)),
                Action::Tax => self.after_theirs(pos.coins(0, 3)),
                Action::Steal => {
                    let s = pos.my_coins.min(2);
                    self.after_theirs(pos.coins(-s, s))
                }
                Action::Assassinate => self.after_theirs(pos.coins(0, -3).lose(1, 0)),
                // An Exchange brings it no coins; what it finds shows in its next claims.
                Action::Exchange => self.after_theirs(pos),
                Action::Income | Action::Coup => self.after_theirs(pos),
            }
        };
        let stopped = |pos: Pos| -> f64 {
            let paid = if action == Action::Assassinate { -3 } else { 0 };
            self.after_theirs(pos.coins(0, paid))
        };
        match mv {
            Move::Challenge => {
                // Caught: it loses a card, and an Assassin's coins come back to it.
                let caught = self.after_theirs(p.lose(0, 1));
                let wrong = if action == Action::Assassinate {
                    0.0
                } else {
                    through(p.lose(1, 0))
                };
                lie * caught + (1.0 - lie) * wrong
            }
            Move::Block(card) => {
                let honest = self.state.has(card);
                let q = if card == Card::Contessa {
                    self.contessa_challenges()
                } else {
                    // Other blocks are challenged like any claim of ours.
                    self.claim_challenged(card)
                };
                let on_challenge = if honest {
                    stopped(p.lose(0, 1))
                } else if action == Action::Assassinate {
                    0.0
                } else {
                    through(p.lose(1, 0))
                };
                q * on_challenge + (1.0 - q) * stopped(p)
            }
            _ => through(p),
        }
    }

    /// Expected chance of winning when the opponent blocked our `action` with `card`, if we
    /// challenge the block (else accept it).
    fn blocked_value(&self, action: Action, card: Card, challenge: bool) -> f64 {
        let p = self.pos;
        let paid = if action == Action::Assassinate { -3 } else { 0 };
        let accepted = self.after_mine(p.coins(paid, 0));
        if !challenge {
            return accepted;
        }
        let lie = self.m.lie(card);
        let caught = match action {
            Action::Assassinate => 1.0,
            Action::ForeignAid => self.after_mine(p.coins(2, 0).lose(0, 1)),
            Action::Steal => {
                let s = p.opp_coins.min(2);
                self.after_mine(p.coins(s, -s).lose(0, 1))
            }
            _ => self.after_mine(p.lose(0, 1)),
        };
        let wrong = self.after_mine(p.coins(paid, 0).lose(1, 0));
        lie * caught + (1.0 - lie) * wrong
    }
}

/// What each side can do: ours from our cards, theirs from its record and the belief.
fn plan(state: &State, m: &Model) -> Plan {
    // Expected coins a turn from each honest income, after the blocks the belief expects.
    let aid = 2.0 * (1.0 - m.block_rate(Action::ForeignAid));
    let steal = if state.has(Card::Captain) && state.opponent_coins() >= 1 {
        2.0 * (1.0 - m.block_rate(Action::Steal))
    } else {
        0.0
    };
    let tax: f64 = if state.has(Card::Duke) { 3.0 } else { 0.0 };
    // A Steal counts twice: what we take, they lose. Without a good income the plan still
    // counts on 2 a turn: Exchanges, bluffs and the opponent's mistakes make up for it.
    let floor = 2.0;
    let (my_rate, my_drain) = if steal * 2.0 > tax.max(aid).max(floor) {
        (steal.max(floor), steal)
    } else {
        (tax.max(aid).max(floor), 0.0)
    };
    let my_assassin = state.has(Card::Assassin) && m.block_rate(Action::Assassinate) < 0.5;
    // The opponent keeps doing what worked: a Tax not caught means Tax income.
    let stood = |action: Action| {
        state.turns().iter().any(|t| {
            t.actor == Player::Opponent
                && t.action() == Some(action)
                && t.claims()
                    .iter()
                    .all(|c| c.by != Player::Opponent || c.outcome != ClaimOutcome::Caught)
        })
    };
    // A Tax on a Duke it may not hold is income we can still take away by calling it: count
    // the Tax at the odds that the Duke is real.
    let opp_rate = if stood(Action::Tax) || m.has(Card::Duke) > 0.5 {
        2.0 + m.has(Card::Duke)
    } else {
        2.0
    };
    // An opponent that steals and is let through keeps stealing, as far as it holds (or
    // dares to claim) a Captain.
    let blocks_steal = state.has(Card::Captain) || state.has(Card::Ambassador);
    let opp_drain = if stood(Action::Steal) && !blocks_steal && opp_rate < 3.0 {
        2.0 * m.has(Card::Captain).max(m.bluff)
    } else {
        0.0
    };
    let opp_assassin =
        !state.has(Card::Contessa) && (stood(Action::Assassinate) || m.has(Card::Assassin) > 0.5);
    Plan {
        my_rate,
        my_assassin,
        my_drain,
        opp_rate,
        opp_assassin,
        opp_drain,
    }
}

/// Cards by how much the plan needs them.
fn keep_value(card: Card, ctx: &Ctx) -> f64 {
    match card {
        Card::Duke => 5.0,
        Card::Assassin => {
            3.5 + if ctx.m.has(Card::Contessa) < 0.4 {
                1.0
            } else {
                0.0
            }
        }
        Card::Captain => 3.0,
        Card::Contessa => 2.0 + 3.5 * ctx.m.has(Card::Assassin),
        Card::Ambassador => 1.5,
    }
}

fn keep_best(cards: &[Card], keep: usize, value: impl Fn(Card) -> f64) -> Vec<Card> {
    let mut sorted = cards.to_vec();
    sorted.sort_by(|a, b| value(*b).total_cmp(&value(*a)));
    let mut kept: Vec<Card> = Vec::new();
    // Two different cards first: more to claim honestly, and a lost one is not the plan.
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
    kept
}

fn worst_card(state: &State, value: impl Fn(Card) -> f64) -> Option<Move> {
    let mut options = state.legal().surrenders();
    options.sort_by(|a, b| value(*a).total_cmp(&value(*b)));
    options.first().map(|&c| Move::Surrender(c))
}

/// The legal move with the best value; ties go to the earlier candidate.
fn best(state: &State, candidates: &[Move], value: impl Fn(Move) -> f64) -> Option<Move> {
    let mut best: Option<(Move, f64)> = None;
    for &mv in candidates.iter().filter(|&&mv| state.can(mv)) {
        let v = value(mv);
        if best.is_none_or(|(_, b)| v > b + 1e-9) {
            best = Some((mv, v));
        }
    }
    best.map(|b| b.0)
}

fn act(ctx: &Ctx) -> Move {
    let state = ctx.state;
    // A sure kill of the last card ends it.
    if state.can(Move::Coup) && ctx.pos.opp_cards == 1 {
        return Move::Coup;
    }
    let candidates = [
        Move::Coup,
        Move::Assassinate,
        Move::Tax,
        Move::Steal,
        Move::Exchange,
        Move::ForeignAid,
        Move::Income,
    ];
    best(state, &candidates, |mv| match mv.action() {
        Some(Action::Exchange) if !state.has(Card::Ambassador) => 0.0,
        Some(action) => ctx.value_of(action),
        None => 0.0,
    })
    .unwrap_or_else(|| state.or_first_legal(Move::Income))
}

fn respond(ctx: &Ctx, action: Action) -> Move {
    let mut candidates = vec![Move::Pass, Move::Challenge];
    candidates.extend(action.blockers().iter().map(|&c| Move::Block(c)));
    if action == Action::Assassinate {
        // Accepting means giving up our least useful card.
        let give = worst_card(ctx.state, |c| keep_value(c, ctx));
        candidates.extend(give);
    }
    // With two cards, calling a true Assassin loses both at once: the plan's odds are not
    // sure enough to stake the game on less than an even chance.
    let reckless =
        action == Action::Assassinate && ctx.pos.my_cards > 1 && ctx.m.lie(Card::Assassin) < 0.5;
    let move_value = |mv: Move| {
        if reckless && mv == Move::Challenge {
            return -1.0;
        }
        let v = ctx.answer_value(action, mv);
        // Honest blocks first on ties; a bluffed block risks a card for nothing on ties.
        match mv {
            Move::Block(c) if ctx.state.has(c) => v + 1e-6,
            _ => v,
        }
    };
    best(ctx.state, &candidates, move_value).unwrap_or(Move::Pass)
}

fn decide(state: &State) -> Decision {
    let ctx = Ctx::new(state);
    let value = |c: Card| keep_value(c, &ctx);
    let wish = match state.phase() {
        Phase::FinishExchange { keep } => {
            return Decision::Keep(keep_best(state.cards(), keep, value));
        }
        Phase::Act => act(&ctx),
        Phase::Respond(action) => respond(&ctx, action),
        Phase::Blocked { action, card } => {
            if ctx.blocked_value(action, card, true) > ctx.blocked_value(action, card, false) {
                Move::Challenge
            } else {
                Move::EndTurn
            }
        }
        Phase::EndTurn => Move::EndTurn,
        Phase::Challenged { card, .. } => Move::Reveal(card),
        Phase::LoseCard(_) => return worst_card(state, value).unwrap_or(Move::EndTurn).into(),
    };
    if state.can(wish) {
        return wish.into();
    }
    worst_card(state, value)
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
    fn race_arithmetic() {
        // Tax twice then Coup; again for the second card: 3 + 4 turns from one coin.
        assert_eq!(turns_to_win(1, 2, 3.0, false), 7.0);
        assert_eq!(turns_to_win(1, 1, 3.0, true), 2.0);
        assert_eq!(turns_to_win(7, 1, 1.0, false), 1.0);
        let plan = Plan {
            my_rate: 3.0,
            my_assassin: false,
            my_drain: 0.0,
            opp_rate: 1.0,
            opp_assassin: false,
            opp_drain: 0.0,
        };
        let pos = Pos {
            my_coins: 1,
            my_cards: 2,
            opp_coins: 1,
            opp_cards: 2,
        };
        assert!(win(pos, plan, true) > 0.8);
        assert!(win(pos.lose(0, 2), plan, true) == 1.0);
    }

    #[test]
    fn plans_with_its_cards() {
        use Card::*;
        assert_eq!(decide_at("", &[Duke, Contessa], 1, 1), Move::Tax.into());
        // Its last card, and it let an Assassinate through before: no Contessa.
        assert_eq!(
            decide_at("A=\nI\nI\nI\n", &[Assassin, Duke], 3, 2),
            Move::Assassinate.into()
        );
        assert_eq!(
            decide_at("Tp\nI\nTp\nI\n", &[Duke, Contessa], 7, 3),
            Move::Coup.into()
        );
        assert_eq!(decide_at("C=\nI\n", &[Duke], 7, 3), Move::Coup.into());
    }

    #[test]
    fn challenges_what_would_beat_it() {
        use Card::*;
        // Both on one card; the opponent's Tax would give it the Coup first. Three Dukes
        // unseen, but a Tax at that moment decides the game.
        let h = "C=\nC<\nI\nI\nI\nI\nI\nI\nI\nI\nT";
        assert_eq!(decide_at(h, &[Contessa], 4, 5), Move::Challenge.into());
        // An opponent that took plain Income while it could have claimed a Tax, and now
        // claims one with our Duke in hand, is probably bluffing.
        assert_eq!(
            decide_at("I\nI\nI\nI\nI\nT", &[Duke, Captain], 3, 3),
            Move::Challenge.into()
        );
        // A Tax that cannot be true is challenged.
        assert_eq!(
            decide_at("I\nC0\nT", &[Duke, Duke], 1, 1),
            Move::Challenge.into()
        );
    }

    #[test]
    fn claims_that_do_not_fit_look_riskier() {
        use Card::*;
        // We claimed a Duke and a Captain, unchallenged: a third card cannot be in a hand
        // of two, while another Tax looks consistent.
        let s = state_at("Tp\nI\nSp\nI\n", &[Contessa, Contessa], 5, 0);
        let ctx = Ctx::new(&s);
        assert!(ctx.claim_challenged(Duke) < ctx.claim_challenged(Assassin));
        assert!(ctx.claim_challenged(Duke) < ctx.m.challenge_rate);
    }

    #[test]
    fn does_not_stake_both_cards_on_a_likely_assassin() {
        use Card::*;
        let d = decide_at("I\nA", &[Duke, Captain], 2, 3);
        assert_ne!(d, Move::Challenge.into());
    }

    #[test]
    fn blocks_and_last_card() {
        use Card::*;
        assert_eq!(
            decide_at("A", &[Contessa, Duke], 1, 3),
            Move::Block(Contessa).into()
        );
        assert_eq!(
            decide_at("I\nS", &[Captain, Duke], 2, 1),
            Move::Block(Captain).into()
        );
        // Last card against an Assassinate: never just give it up.
        let d = decide_at("C=\nI\nA", &[Duke], 2, 3);
        assert_ne!(d, Move::Surrender(Duke).into());
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
            ("F", vec![Duke, Contessa]),
            ("E", vec![Duke, Contessa]),
        ] {
            let s = state_at(h, &cards, 3, 3);
            match decide(&s) {
                Decision::Play(mv) => assert!(s.can(mv), "{h:?} {mv:?}"),
                Decision::Keep(k) => assert_eq!(k.len(), s.my_card_count(), "{h:?}"),
            }
        }
    }
}
