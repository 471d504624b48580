//! Marius: values its cards and plays high.
//!
//! Port of the seed's R bot from its description: "very basic strategies like leading with
//! an ace, a trump or another high card; following with a higher card if possible, or else
//! playing the card of lowest value; ordering up when the hand has a high value, and naming
//! the suit in which the hand would have had the highest value; going alone when the hand
//! has a very high value. The value of trumps starts at 7 for the right bower and decreases
//! along the trump suit."
//!
//! Values: trumps 7 (right bower), 6 (left), 5 (ace), 4, 3, 2, 1 (nine); other cards: ace 3,
//! king 2, queen 1, the rest 0. It orders up or names at a hand value of [`ORDER_AT`], goes
//! alone at [`ALONE_AT`] (as maker or as partner, the description does not tell them apart),
//! and discards its lowest-valued card.
//!
//! Departures, each for a reason:
//! - The values of non-trumps and both thresholds are not in the seed; they are chosen so
//!   that about one hand in four is ordered up and a lone hand needs both bowers.
//! - It remembers the turned card (one byte of memory) so that it never names that suit,
//!   which the rules refuse: the description says it names the suit of highest value, and
//!   an invalid name would silently become a pass.
//! - "Following higher" plays its highest legal card when that card beats the trick so far
//!   (the description does not say which higher card); it does not look at its partner's
//!   card, as the seed says its defence was not written yet.

use koth_guest::euchre::{run_with_memory, Answer, Card, Input, Memory, Phase, Rank, Suit};

/// Hand value at which it orders up or names trump.
pub const ORDER_AT: u32 = 16;

/// Hand value at which it goes alone.
pub const ALONE_AT: u32 = 24;

/// A card's value with `trump` as trump.
pub fn value(card: Card, trump: Suit) -> u32 {
    match card.trump_rank(trump) {
        0 => match card.rank {
            Rank::Ace => 3,
            Rank::King => 2,
            Rank::Queen => 1,
            _ => 0,
        },
        rank => u32::from(rank),
    }
}

/// The hand's value with `trump` as trump.
pub fn hand_value(hand: &[Card], trump: Suit) -> u32 {
    hand.iter().map(|&c| value(c, trump)).sum()
}

/// One decision.
pub fn decide(input: &Input, memory: &mut Memory) -> Answer {
    let hand = &input.hand;
    match &input.phase {
        Phase::Ordering { turned, .. } => {
            // A full memory only costs the naming restriction; never fatal.
            let _ = memory.set(&[turned.index() as u8]);
            if hand_value(hand, turned.suit) >= ORDER_AT {
                Answer::OrderUp
            } else {
                Answer::Pass
            }
        }
        Phase::Naming { .. } => {
            let turned = memory
                .data()
                .first()
                .and_then(|&i| Card::from_index(usize::from(i)));
            let best = Suit::ALL
                .into_iter()
                .filter(|&s| turned.is_none_or(|t| t.suit != s))
                .max_by_key(|&s| (hand_value(hand, s), std::cmp::Reverse(s)));
            match best {
                Some(s) if hand_value(hand, s) >= ORDER_AT => Answer::Name(s),
                _ => Answer::Pass,
            }
        }
        Phase::Discard { pickup } => {
            let trump = pickup.suit;
            let mut six = hand.clone();
            six.push(*pickup);
            // The first of the lowest-valued cards.
            let worst = six
                .iter()
                .copied()
                .min_by_key(|&c| value(c, trump))
                .unwrap_or(*pickup);
            Answer::Discard(worst)
        }
        Phase::Alone { trump, .. } => Answer::Alone(hand_value(hand, *trump) >= ALONE_AT),
        Phase::Turn { trump, played } => Answer::Play(play(input, *trump, played)),
        Phase::Trick { .. } => Answer::Nothing,
    }
}

fn play(input: &Input, trump: Suit, played: &[Option<Card>]) -> Card {
    let legal = input.legal_plays();
    let Some(&first) = legal.first() else {
        return Card::new(Rank::Nine, trump);
    };
    let highest = |cards: &[Card]| {
        cards
            .iter()
            .copied()
            .max_by_key(|&c| value(c, trump))
            .unwrap_or(first)
    };
    match input.led() {
        None => {
            // Lead an ace, else a trump (the highest), else the highest card.
            if let Some(&ace) = legal
                .iter()
                .find(|c| c.rank == Rank::Ace && !c.is_trump(trump))
            {
                return ace;
            }
            let trumps: Vec<Card> = legal
                .iter()
                .copied()
                .filter(|c| c.is_trump(trump))
                .collect();
            if !trumps.is_empty() {
                return highest(&trumps);
            }
            highest(&legal)
        }
        Some(led) => {
            let led = led.suit_under(trump);
            let best = played
                .iter()
                .flatten()
                .map(|c| c.power(trump, led))
                .max()
                .unwrap_or(0);
            let top = legal
                .iter()
                .copied()
                .max_by_key(|c| c.power(trump, led))
                .unwrap_or(first);
            if top.power(trump, led) > best {
                top
            } else {
                legal
                    .iter()
                    .copied()
                    .min_by_key(|&c| value(c, trump))
                    .unwrap_or(first)
            }
        }
    }
}

#[allow(dead_code)]
fn main() {
    run_with_memory(decide);
}
