//! An honest Coup bot for koth's `coup-bot` world: it never bluffs, and it challenges only
//! what it can prove false (or when it has nothing to lose).

wit_bindgen::generate!({
    world: "coup-bot",
    path: "../../../wit",
    additional_derives: [PartialEq, Eq],
});

pub use exports::koth::bots::coup::{
    Action, BlockedBy, Card, Decision, Guest, Move, Phase, Seat, State,
};

/// The bot.
pub struct Honest;

/// Cards from the most to the least useful to keep: the Duke's Tax pays most.
const KEEP_ORDER: [Card; 5] = [
    Card::Duke,
    Card::Captain,
    Card::Assassin,
    Card::Contessa,
    Card::Ambassador,
];

fn rank(card: Card) -> usize {
    KEEP_ORDER.iter().position(|c| *c == card).unwrap_or(0)
}

fn has(s: &State, card: Card) -> bool {
    s.my_cards.contains(&card)
}

/// Copies of `card` not in my hand and not lost face up: if none, a claim to it is a lie.
fn unseen(s: &State, card: Card) -> usize {
    let seen = s
        .my_cards
        .iter()
        .chain(&s.my_lost)
        .chain(&s.opponent_lost)
        .filter(|c| **c == card)
        .count();
    3usize.saturating_sub(seen)
}

fn legal(s: &State, mv: &Move) -> bool {
    s.legal.contains(mv)
}

/// The first of `preferences` that is legal, or the first legal move.
fn first_legal(s: &State, preferences: &[Move]) -> Move {
    preferences
        .iter()
        .find(|m| legal(s, m))
        .or_else(|| s.legal.first())
        .copied()
        .unwrap_or(Move::EndTurn)
}

/// Give up the least useful card.
fn give_up(s: &State) -> Move {
    let mut cards = s.my_cards.clone();
    cards.sort_by_key(|c| std::cmp::Reverse(rank(*c)));
    let options: Vec<Move> = cards.into_iter().map(Move::Surrender).collect();
    first_legal(s, &options)
}

fn act(s: &State) -> Move {
    if s.my_coins >= 7 {
        return first_legal(s, &[Move::Coup]);
    }
    let mut prefs = Vec::new();
    if has(s, Card::Duke) {
        prefs.push(Move::Tax);
    }
    if has(s, Card::Assassin) && s.my_coins >= 3 {
        prefs.push(Move::Assassinate);
    }
    if has(s, Card::Captain) && s.opponent_coins >= 2 {
        prefs.push(Move::Steal);
    }
    if has(s, Card::Ambassador) {
        prefs.push(Move::Exchange);
    }
    // Foreign Aid is blocked only by a Duke; with all three visible it is safe.
    if unseen(s, Card::Duke) == 0 {
        prefs.push(Move::ForeignAid);
    }
    prefs.push(Move::Income);
    first_legal(s, &prefs)
}

fn respond(s: &State, action: Action) -> Move {
    let claim = match action {
        Action::Tax => Some(Card::Duke),
        Action::Steal => Some(Card::Captain),
        Action::Assassinate => Some(Card::Assassin),
        Action::Exchange => Some(Card::Ambassador),
        _ => None,
    };
    if claim.is_some_and(|c| unseen(s, c) == 0) {
        return first_legal(s, &[Move::Challenge]);
    }
    match action {
        Action::ForeignAid if has(s, Card::Duke) => first_legal(s, &[Move::Block(Card::Duke)]),
        Action::Steal if has(s, Card::Captain) => first_legal(s, &[Move::Block(Card::Captain)]),
        Action::Steal if has(s, Card::Ambassador) => {
            first_legal(s, &[Move::Block(Card::Ambassador)])
        }
        Action::Assassinate if has(s, Card::Contessa) => {
            first_legal(s, &[Move::Block(Card::Contessa)])
        }
        // Losing the last card loses the game anyway: a challenge costs nothing.
        Action::Assassinate if s.my_cards.len() <= 1 => first_legal(s, &[Move::Challenge]),
        Action::Assassinate => give_up(s),
        _ => first_legal(s, &[Move::Pass]),
    }
}

impl Guest for Honest {
    fn decide(s: State, memory: Vec<u8>) -> (Decision, Vec<u8>) {
        let decisions = memory
            .get(..4)
            .and_then(|b| b.try_into().ok())
            .map(u32::from_le_bytes)
            .unwrap_or(0);
        let memory = decisions.wrapping_add(1).to_le_bytes().to_vec();
        let decision = match s.phase {
            Phase::Act => Decision::Play(act(&s)),
            Phase::Respond(action) => Decision::Play(respond(&s, action)),
            Phase::Blocked(b) if unseen(&s, b.card) == 0 => {
                Decision::Play(first_legal(&s, &[Move::Challenge, Move::EndTurn]))
            }
            Phase::Blocked(_) | Phase::EndTurn => Decision::Play(first_legal(&s, &[Move::EndTurn])),
            Phase::Challenged(card) if has(&s, card) => {
                Decision::Play(first_legal(&s, &[Move::Reveal(card)]))
            }
            Phase::Challenged(_) | Phase::LoseCard => Decision::Play(give_up(&s)),
            Phase::FinishExchange(keep) => {
                // Distinct cards first (a second Duke adds nothing), most useful first.
                let mut offered = s.my_cards.clone();
                offered.sort_by_key(|c| rank(*c));
                let mut kept: Vec<Card> = Vec::new();
                for c in &offered {
                    if kept.len() < keep as usize && !kept.contains(c) {
                        kept.push(*c);
                    }
                }
                for c in &offered {
                    let copies_kept = kept.iter().filter(|k| *k == c).count();
                    let copies = offered.iter().filter(|k| *k == c).count();
                    if kept.len() < keep as usize && copies_kept < copies {
                        kept.push(*c);
                    }
                }
                Decision::Keep(kept)
            }
        };
        (decision, memory)
    }
}

export!(Honest);
