//! {{name}}: a Euchre bot for koth, as a WASI preview-2 component of the `euchre-bot` world
//! (`wit/euchre.wit`, the bot's documentation).
//!
//! koth parses the input for it, calls `decide` once per decision with the game as typed
//! values, and prints the answer. `memory` is what `decide` returned last time this game
//! (empty at first), kept within 1 KiB: return it, changed or not. Put your strategy in
//! `decide`.
//!
//! The strategy to start from is plain: bid with three trumps or more (bowers counted), never
//! go alone, let a partner's winning card stand, else win as cheaply as possible or throw the
//! lowest card.

wit_bindgen::generate!({
    world: "euchre-bot",
    path: "wit",
    additional_derives: [PartialEq, Eq],
});

use exports::koth::bots::euchre::{Card, Decision, Guest, Phase, Rank, State, Suit};

struct Bot;

const SUITS: [Suit; 4] = [Suit::Clubs, Suit::Spades, Suit::Hearts, Suit::Diamonds];

fn same_colour(s: Suit) -> Suit {
    match s {
        Suit::Clubs => Suit::Spades,
        Suit::Spades => Suit::Clubs,
        Suit::Hearts => Suit::Diamonds,
        Suit::Diamonds => Suit::Hearts,
    }
}

/// The suit a card plays as: the left bower (the other jack of trump's colour) is trump.
fn suit_of(c: &Card, trump: Suit) -> Suit {
    if c.rank == Rank::Jack && c.suit == same_colour(trump) {
        trump
    } else {
        c.suit
    }
}

/// Strength in a trick led in `led`: right bower 20, left 19, other trumps 14-18, the led
/// suit 1-6, anything else 0.
fn power(c: &Card, trump: Suit, led: Suit) -> u32 {
    if c.rank == Rank::Jack && c.suit == trump {
        return 20;
    }
    if suit_of(c, trump) == trump {
        return match c.rank {
            Rank::Jack => 19,
            Rank::Ace => 18,
            Rank::King => 17,
            Rank::Queen => 16,
            Rank::Ten => 15,
            Rank::Nine => 14,
        };
    }
    if c.suit == led {
        1 + c.rank as u32
    } else {
        0
    }
}

fn trumps(hand: &[Card], trump: Suit) -> usize {
    hand.iter().filter(|c| suit_of(c, trump) == trump).count()
}

fn play(hand: &[Card], trump: Suit, played: &[Option<Card>]) -> Card {
    let cards: Vec<&Card> = played.iter().flatten().collect();
    let led = cards.first().map(|c| suit_of(c, trump));
    // Follow the led suit if we can.
    let following: Vec<Card> = hand
        .iter()
        .filter(|c| Some(suit_of(c, trump)) == led)
        .copied()
        .collect();
    let legal = if following.is_empty() { hand.to_vec() } else { following };
    let strength = |c: &Card| power(c, trump, led.unwrap_or_else(|| suit_of(c, trump)));
    let lowest = legal.iter().copied().min_by_key(|c| strength(c));
    let Some(led) = led else {
        // Leading: the strongest card.
        return legal.iter().copied().max_by_key(strength).unwrap_or(hand[0]);
    };
    let best = played
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.map(|c| (i, power(&c, trump, led))))
        .max_by_key(|(_, p)| *p);
    // Our partner played two places before us: let its winning card stand.
    if played.len() >= 2 && best.map(|(i, _)| i) == Some(played.len() - 2) {
        return lowest.unwrap_or(hand[0]);
    }
    let top = best.map_or(0, |(_, p)| p);
    legal
        .iter()
        .copied()
        .filter(|c| power(c, trump, led) > top)
        .min_by_key(|c| power(c, trump, led))
        .or(lowest)
        .unwrap_or(hand[0])
}

impl Guest for Bot {
    fn decide(s: State, memory: Vec<u8>) -> (Decision, Vec<u8>) {
        let mut memory = memory;
        let decision = match &s.phase {
            Phase::Ordering(o) => {
                // Remember the turned suit: naming it later is refused, and the naming phase
                // does not repeat it.
                memory = vec![o.turned.suit as u8];
                if trumps(&s.hand, o.turned.suit) >= 3 {
                    Decision::Yes
                } else {
                    Decision::No
                }
            }
            Phase::Naming(_) => {
                let turned = memory.first().copied();
                let best = SUITS
                    .into_iter()
                    .filter(|s| Some(*s as u8) != turned)
                    .max_by_key(|suit| trumps(&s.hand, *suit));
                match best {
                    Some(suit) if trumps(&s.hand, suit) >= 3 => Decision::Name(suit),
                    _ => Decision::No,
                }
            }
            Phase::Discard(pickup) => {
                // Discard the weakest of the six, trump being the picked-up card's suit.
                let trump = pickup.suit;
                let weakest = s
                    .hand
                    .iter()
                    .chain(std::iter::once(pickup))
                    .min_by_key(|c| power(c, trump, suit_of(c, trump)))
                    .copied()
                    .unwrap_or(*pickup);
                Decision::Card(weakest)
            }
            Phase::Alone(_) => Decision::No,
            Phase::Turn(t) => Decision::Card(play(&s.hand, t.trump, &t.played)),
            Phase::Trick(_) => Decision::No,
        };
        (decision, memory)
    }
}

export!(Bot);
