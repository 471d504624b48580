//! Old Stager: "follows a few simple rules that have served it well for a long time."
//!
//! The seed gives no rules, only that they are simple and old; this is a sensible
//! rule-based player built on the usual table advice:
//!
//! - **Bidding.** A hand's strength counts trumps (right bower 6, left 5, ace 4, king and
//!   queen 3, ten and nine 2) and off-suit aces (2). When ordering, the dealer counts the
//!   turned card in place of its worst card, the dealer's partner adds half the turned card's
//!   worth and the dealer's opponents subtract it. It orders up or names at [`BID_AT`]; it
//!   never names the turned card's suit (remembered in memory).
//! - **Alone.** Only the maker, with both bowers, three trumps or more, and nothing but
//!   trumps and aces.
//! - **Discard.** Never a trump or an ace if avoidable; a singleton first (to be void),
//!   else the lowest card.
//! - **Play.** Makers lead trumps while holding two or more (or the right bower); anyone
//!   leads an off-suit ace; else a low off-suit card. When following: if the partner is
//!   winning, play low; else win as cheaply as possible; else throw the lowest card.
//!
//! Memory: two bytes (the turned card, and whether its team made trump), reset each deal.

use koth_guest::euchre::{run_with_memory, Answer, Card, Input, Memory, Phase, Rank, Suit};

/// Strength at which it orders up or names trump.
pub const BID_AT: u32 = 13;

/// A card's worth towards a bid with `trump` as trump.
pub fn worth(card: Card, trump: Suit) -> u32 {
    match card.trump_rank(trump) {
        7 => 6,
        6 => 5,
        5 => 4,
        4 | 3 => 3,
        1 | 2 => 2,
        _ if card.rank == Rank::Ace => 2,
        _ => 0,
    }
}

/// The hand's strength with `trump` as trump.
pub fn strength(hand: &[Card], trump: Suit) -> u32 {
    hand.iter().map(|&c| worth(c, trump)).sum()
}

/// How much keeping a card matters, for discards and throw-offs (lower goes first).
fn keep_value(card: Card, trump: Suit) -> u32 {
    match card.trump_rank(trump) {
        0 => 1 + card.rank as u32,
        r => 20 + u32::from(r),
    }
}

/// The card to discard from `six` with `trump` as trump.
pub fn discard(six: &[Card], trump: Suit) -> Card {
    let plain: Vec<Card> = six
        .iter()
        .copied()
        .filter(|c| !c.is_trump(trump) && c.rank != Rank::Ace)
        .collect();
    let singleton = plain.iter().copied().filter(|c| {
        six.iter()
            .filter(|o| o.suit_under(trump) == c.suit_under(trump))
            .count()
            == 1
    });
    singleton
        .min_by_key(|&c| keep_value(c, trump))
        .or_else(|| six.iter().copied().min_by_key(|&c| keep_value(c, trump)))
        .unwrap_or(six[0])
}

/// The memory: the turned card and whether this bot's team made trump.
struct Notes {
    turned: Option<Card>,
    makers: bool,
}

impl Notes {
    fn load(memory: &Memory) -> Notes {
        let d = memory.data();
        Notes {
            turned: d.first().and_then(|&i| Card::from_index(usize::from(i))),
            makers: d.get(1) == Some(&1),
        }
    }

    fn save(&self, memory: &mut Memory) {
        let turned = self.turned.map_or(255, |c| c.index() as u8);
        // Two bytes always fit; a refused write only costs information.
        let _ = memory.set(&[turned, u8::from(self.makers)]);
    }
}

/// One decision.
pub fn decide(input: &Input, memory: &mut Memory) -> Answer {
    let hand = &input.hand;
    let mut notes = Notes::load(memory);
    let answer = match &input.phase {
        Phase::Ordering { turned, previous } => {
            notes = Notes {
                turned: Some(*turned),
                makers: false,
            };
            let trump = turned.suit;
            let score = match previous.len() {
                // The dealer takes the card up and drops its worst.
                3 => {
                    let mut six = hand.clone();
                    six.push(*turned);
                    let out = discard(&six, trump);
                    strength(&six, trump) - worth(out, trump)
                }
                1 => strength(hand, trump) + worth(*turned, trump) / 2,
                _ => strength(hand, trump).saturating_sub(worth(*turned, trump) / 2),
            };
            if score >= BID_AT {
                Answer::OrderUp
            } else {
                Answer::Pass
            }
        }
        Phase::Naming { .. } => Suit::ALL
            .into_iter()
            .filter(|&s| notes.turned.is_none_or(|t| t.suit != s))
            .map(|s| (strength(hand, s), s))
            .filter(|&(score, _)| score >= BID_AT)
            .max_by_key(|&(score, s)| (score, std::cmp::Reverse(s)))
            .map_or(Answer::Pass, |(_, s)| Answer::Name(s)),
        Phase::Discard { pickup } => {
            let mut six = hand.clone();
            six.push(*pickup);
            Answer::Discard(discard(&six, pickup.suit))
        }
        Phase::Alone { trump, previous } => {
            notes.makers = true;
            Answer::Alone(previous.is_empty() && lone_hand(hand, *trump))
        }
        Phase::Turn { trump, played } => Answer::Play(play(input, *trump, played, notes.makers)),
        Phase::Trick { .. } => Answer::Nothing,
    };
    notes.save(memory);
    answer
}

/// Both bowers, three trumps or more, and only trumps and aces.
fn lone_hand(hand: &[Card], trump: Suit) -> bool {
    let has = |f: fn(Card, Suit) -> bool| hand.iter().any(|&c| f(c, trump));
    has(Card::is_right_bower)
        && has(Card::is_left_bower)
        && hand.iter().filter(|c| c.is_trump(trump)).count() >= 3
        && hand
            .iter()
            .all(|c| c.is_trump(trump) || c.rank == Rank::Ace)
}

fn play(input: &Input, trump: Suit, played: &[Option<Card>], makers: bool) -> Card {
    let legal = input.legal_plays();
    let lowest = |cards: &[Card]| cards.iter().copied().min_by_key(|&c| keep_value(c, trump));
    let Some(low) = lowest(&legal) else {
        return Card::new(Rank::Nine, trump);
    };
    let Some(led) = input.led() else {
        let trumps: Vec<Card> = legal
            .iter()
            .copied()
            .filter(|c| c.is_trump(trump))
            .collect();
        let right = trumps.iter().any(|c| c.is_right_bower(trump));
        if makers && (trumps.len() >= 2 || right) {
            return trumps
                .iter()
                .copied()
                .max_by_key(|c| c.trump_rank(trump))
                .unwrap_or(low);
        }
        if let Some(&ace) = legal
            .iter()
            .find(|c| c.rank == Rank::Ace && !c.is_trump(trump))
        {
            return ace;
        }
        let plain: Vec<Card> = legal
            .iter()
            .copied()
            .filter(|c| !c.is_trump(trump))
            .collect();
        return lowest(&plain).unwrap_or(low);
    };
    let led = led.suit_under(trump);
    if input.partner_winning() {
        return low;
    }
    let best = played
        .iter()
        .flatten()
        .map(|c| c.power(trump, led))
        .max()
        .unwrap_or(0);
    legal
        .iter()
        .copied()
        .filter(|c| c.power(trump, led) > best)
        .min_by_key(|c| c.power(trump, led))
        .unwrap_or(low)
}

#[allow(dead_code)]
fn main() {
    run_with_memory(decide);
}
