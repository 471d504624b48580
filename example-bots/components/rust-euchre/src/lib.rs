//! A plain Euchre bot for koth's `euchre-bot` world: it orders up or names trump with three
//! or more of a suit (bowers counted), never goes alone, follows suit with its highest card
//! (or trumps in), and remembers how many tricks it has heard reported this game.

wit_bindgen::generate!({
    world: "euchre-bot",
    path: "../../../wit",
    additional_derives: [PartialEq, Eq],
});

use exports::koth::bots::euchre::{Bid, Card, Decision, Guest, Phase, Rank, State, Suit};

struct Plain;

fn same_colour(s: Suit) -> Suit {
    match s {
        Suit::Clubs => Suit::Spades,
        Suit::Spades => Suit::Clubs,
        Suit::Hearts => Suit::Diamonds,
        Suit::Diamonds => Suit::Hearts,
    }
}

/// The suit a card plays as: the left bower (the jack of trump's colour) is trump.
fn effective(c: &Card, trump: Suit) -> Suit {
    if c.rank == Rank::Jack && c.suit == same_colour(trump) {
        trump
    } else {
        c.suit
    }
}

/// Strength within a trick: trump above everything, bowers highest.
fn strength(c: &Card, trump: Suit, led: Option<Suit>) -> u32 {
    let rank = c.rank as u32;
    if c.rank == Rank::Jack && c.suit == trump {
        return 100;
    }
    if effective(c, trump) == trump {
        return if c.rank == Rank::Jack { 99 } else { 50 + rank };
    }
    if Some(c.suit) == led {
        20 + rank
    } else {
        rank
    }
}

fn count_as_trump(hand: &[Card], suit: Suit) -> usize {
    hand.iter().filter(|c| effective(c, suit) == suit).count()
}

fn play(hand: &[Card], trump: Suit, played: &[Option<Card>]) -> Card {
    let led = played.iter().flatten().next().map(|c| effective(c, trump));
    let following: Vec<&Card> = match led {
        Some(l) => hand.iter().filter(|c| effective(c, trump) == l).collect(),
        None => Vec::new(),
    };
    let pool: Vec<&Card> = if following.is_empty() {
        hand.iter().collect()
    } else {
        following
    };
    let best = pool.iter().max_by_key(|c| strength(c, trump, led));
    best.map(|c| **c).unwrap_or(hand[0])
}

impl Guest for Plain {
    fn decide(s: State, memory: Vec<u8>) -> (Decision, Vec<u8>) {
        let mut tricks_heard = memory.first().copied().unwrap_or(0);
        let decision = match &s.phase {
            Phase::Ordering(o) => {
                if count_as_trump(&s.hand, o.turned.suit) >= 3 {
                    Decision::Yes
                } else {
                    Decision::No
                }
            }
            Phase::Naming(previous) => {
                // The input does not repeat the turned suit: naming it gets the phase's
                // default (pass), which is what this bot would do anyway.
                let turned_out: Vec<Suit> = previous
                    .iter()
                    .filter_map(|b| match b {
                        Bid::Name(s) => Some(*s),
                        _ => None,
                    })
                    .collect();
                [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds]
                    .into_iter()
                    .filter(|suit| !turned_out.contains(suit))
                    .find(|suit| count_as_trump(&s.hand, *suit) >= 4)
                    .map(Decision::Name)
                    .unwrap_or(Decision::No)
            }
            Phase::Discard(pickup) => {
                // The weakest card, never a trump if another will do.
                let trump = pickup.suit;
                let worst = s
                    .hand
                    .iter()
                    .min_by_key(|c| strength(c, trump, None))
                    .copied();
                Decision::Card(worst.unwrap_or(*pickup))
            }
            Phase::Alone(_) => Decision::No,
            Phase::Turn(t) if !s.hand.is_empty() => {
                Decision::Card(play(&s.hand, t.trump, &t.played))
            }
            Phase::Turn(_) => Decision::No,
            Phase::Trick(_) => {
                tricks_heard = tricks_heard.wrapping_add(1);
                Decision::No
            }
        };
        (decision, vec![tricks_heard])
    }
}

export!(Plain);
