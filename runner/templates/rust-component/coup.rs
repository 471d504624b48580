//! {{name}}: a Coup bot for koth, as a WASI preview-2 component of the `coup-bot` world
//! (`wit/coup.wit`, the bot's documentation).
//!
//! koth reads the history file and the arguments for it, calls `decide` once per decision
//! with the game as typed values, and writes the answer as the protocol wants it. `memory`
//! is what `decide` returned last time (empty at first), kept for the game: return it,
//! changed or not. Put your strategy in `decide`.
//!
//! The strategy to start from is honest: claim only cards we hold, challenge only a claim the
//! visible cards prove false, Coup at 7 coins, give up the least useful card first.

wit_bindgen::generate!({
    world: "coup-bot",
    path: "wit",
    additional_derives: [PartialEq, Eq],
});

use exports::koth::bots::coup::{Action, Card, Decision, Guest, Move, Phase, State};

struct Bot;

/// Cards from the least to the most useful to keep: the Duke's Tax is the steadiest income.
const WORST_FIRST: [Card; 5] = [
    Card::Ambassador,
    Card::Contessa,
    Card::Captain,
    Card::Assassin,
    Card::Duke,
];

fn worth(card: Card) -> usize {
    WORST_FIRST.iter().position(|c| *c == card).unwrap_or(0)
}

fn has(s: &State, card: Card) -> bool {
    s.my_cards.contains(&card)
}

/// All three copies of `card` are in sight: the opponent cannot hold one.
fn surely_lying(s: &State, card: Card) -> bool {
    let seen = s
        .my_cards
        .iter()
        .chain(&s.my_lost)
        .chain(&s.opponent_lost)
        .filter(|c| **c == card)
        .count();
    seen >= 3
}

/// The first of `wishes` that is legal, else the first legal move (`legal` is never empty).
fn first_legal(s: &State, wishes: &[Move]) -> Move {
    wishes
        .iter()
        .find(|m| s.legal.contains(m))
        .or(s.legal.first())
        .copied()
        .unwrap_or(Move::EndTurn)
}

/// Give up the least useful card we hold.
fn give_up(s: &State) -> Move {
    let mut cards = s.my_cards.clone();
    cards.sort_by_key(|c| worth(*c));
    let options: Vec<Move> = cards.into_iter().map(Move::Surrender).collect();
    first_legal(s, &options)
}

fn act(s: &State) -> Move {
    let mut wishes = vec![Move::Coup];
    if has(s, Card::Assassin) {
        wishes.push(Move::Assassinate);
    }
    if has(s, Card::Duke) {
        wishes.push(Move::Tax);
    }
    if has(s, Card::Captain) && s.opponent_coins >= 2 {
        wishes.push(Move::Steal);
    }
    wishes.push(Move::Income);
    // Coup is legal from 7 coins on, and the only legal move from 10.
    first_legal(s, &wishes)
}

fn respond(s: &State, action: Action) -> Move {
    let blockers: &[Card] = match action {
        Action::ForeignAid => &[Card::Duke],
        Action::Steal => &[Card::Captain, Card::Ambassador],
        Action::Assassinate => &[Card::Contessa],
        _ => &[],
    };
    if let Some(card) = blockers.iter().find(|c| has(s, **c)) {
        return first_legal(s, &[Move::Block(*card)]);
    }
    let claim = match action {
        Action::Tax => Some(Card::Duke),
        Action::Steal => Some(Card::Captain),
        Action::Assassinate => Some(Card::Assassin),
        Action::Exchange => Some(Card::Ambassador),
        _ => None,
    };
    // An Assassination of our last card loses the game anyway: a challenge costs nothing.
    let last_card = action == Action::Assassinate && s.my_cards.len() <= 1;
    if claim.is_some_and(|c| surely_lying(s, c)) || last_card {
        return first_legal(s, &[Move::Challenge]);
    }
    if action == Action::Assassinate {
        return give_up(s);
    }
    first_legal(s, &[Move::Pass])
}

impl Guest for Bot {
    fn decide(s: State, memory: Vec<u8>) -> (Decision, Vec<u8>) {
        let decision = match s.phase {
            Phase::Act => Decision::Play(act(&s)),
            Phase::Respond(action) => Decision::Play(respond(&s, action)),
            Phase::Blocked(b) if surely_lying(&s, b.card) => {
                Decision::Play(first_legal(&s, &[Move::Challenge]))
            }
            Phase::Blocked(_) | Phase::EndTurn => Decision::Play(first_legal(&s, &[Move::EndTurn])),
            // Challenged on a card we hold: revealing it wins the challenge.
            Phase::Challenged(card) if has(&s, card) => {
                Decision::Play(first_legal(&s, &[Move::Reveal(card)]))
            }
            Phase::Challenged(_) | Phase::LoseCard => Decision::Play(give_up(&s)),
            Phase::FinishExchange(keep) => {
                // Keep the most useful cards offered.
                let mut cards = s.my_cards.clone();
                cards.sort_by_key(|c| std::cmp::Reverse(worth(*c)));
                cards.truncate(keep as usize);
                Decision::Keep(cards)
            }
        };
        (decision, memory)
    }
}

export!(Bot);
