//! {{name}}: a Euchre bot for koth, written with the koth-guest SDK.
//!
//! koth runs it once per decision with the input on stdin (hand, points, tricks, the phase
//! and its lines). `koth_guest::euchre::run_with_memory` parses it into a typed `Input`,
//! loads the bot's memory file (at most 1 KiB, kept for the whole game), calls `decide`,
//! prints the answer and saves the memory, so `decide` is the whole bot: put your strategy
//! there.
//!
//! The strategy to start from is plain: bid with three trumps or more (bowers counted), never
//! go alone, and in play win cheaply: let a partner's winning card stand, otherwise take the
//! trick with the lowest card that beats it, or throw the lowest card.

use koth_guest::euchre::{run_with_memory, Answer, Card, Input, Memory, Phase, Suit};

/// Trumps (bowers included) `hand` would hold if `trump` were trump.
fn trumps(hand: &[Card], trump: Suit) -> usize {
    hand.iter().filter(|c| c.is_trump(trump)).count()
}

/// A card's worth for discarding and throwing off: any trump above any other card.
fn worth(card: Card, trump: Suit) -> u8 {
    card.power(trump, card.suit_under(trump))
}

/// One decision. `memory` holds the turned card's suit from the ordering round: the naming
/// round's input does not repeat it, and naming that suit is refused (a pass).
fn decide(input: &Input, memory: &mut Memory) -> Answer {
    let hand = &input.hand;
    match &input.phase {
        Phase::Ordering { turned, .. } => {
            // Remember the turned suit; a full quota only costs that, never the game.
            let _ = memory.set(&[turned.suit.index() as u8]);
            if trumps(hand, turned.suit) >= 3 {
                Answer::OrderUp
            } else {
                Answer::Pass
            }
        }
        Phase::Naming { .. } => {
            let turned = memory.data().first().map(|&i| usize::from(i));
            let best = Suit::ALL
                .into_iter()
                .filter(|s| Some(s.index()) != turned)
                .max_by_key(|&s| trumps(hand, s));
            match best {
                Some(s) if trumps(hand, s) >= 3 => Answer::Name(s),
                _ => Answer::Pass,
            }
        }
        Phase::Discard { pickup } => {
            // Keep the six's best five: discard the weakest card, trump being the pickup's suit.
            let trump = pickup.suit;
            let weakest = hand
                .iter()
                .chain(std::iter::once(pickup))
                .copied()
                .min_by_key(|&c| worth(c, trump))
                .unwrap_or(*pickup);
            Answer::Discard(weakest)
        }
        Phase::Alone { .. } => Answer::Alone(false),
        Phase::Turn { trump, played } => Answer::Play(play(input, *trump, played)),
        Phase::Trick { .. } => Answer::Nothing,
    }
}

/// The card to play: `legal` is never empty at a turn (the host deals five cards a hand).
fn play(input: &Input, trump: Suit, played: &[Option<Card>]) -> Card {
    let legal = input.legal_plays();
    let lowest = |cards: &[Card]| cards.iter().copied().min_by_key(|&c| worth(c, trump));
    let Some(low) = lowest(&legal) else {
        return input.hand[0];
    };
    let Some(led) = input.led() else {
        // Leading: the strongest card, to take the trick while trumps are still out.
        return legal
            .iter()
            .copied()
            .max_by_key(|&c| worth(c, trump))
            .unwrap_or(low);
    };
    if input.partner_winning() {
        return low;
    }
    let led = led.suit_under(trump);
    let best_so_far = played.iter().flatten().map(|c| c.power(trump, led)).max();
    let winners: Vec<Card> = legal
        .iter()
        .copied()
        .filter(|c| Some(c.power(trump, led)) > best_so_far)
        .collect();
    // The cheapest card that wins, else throw the lowest.
    winners
        .iter()
        .copied()
        .min_by_key(|c| c.power(trump, led))
        .unwrap_or(low)
}

fn main() {
    run_with_memory(decide);
}

// `cargo test` runs these natively: a bot is tested without koth, from an input.
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_up_with_three_trumps_and_follows_suit() {
        let mut memory = Memory::in_memory(&[]);
        let input = Input::parse("jh,jd,ah,9c,ts\n0\n0\nordering\nqh\n\n").unwrap();
        assert_eq!(decide(&input, &mut memory), Answer::OrderUp);
        // Spades led, trump hearts: the ten of spades is our only spade.
        let input = Input::parse("jh,ah,9c,ts,kd\n0\n0\nturn\nh\nqs\n").unwrap();
        assert_eq!(
            decide(&input, &mut memory),
            Answer::Play(Card::parse("ts").unwrap())
        );
    }
}
