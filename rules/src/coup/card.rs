//! The five character cards and counts of them.

use std::fmt;

/// One of the five character cards; the deck holds three of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Card {
    /// Exchange; blocks Steal. Reveal `~`, give up `_`.
    Ambassador,
    /// Assassinate. Reveal `^`, give up `'`.
    Assassin,
    /// Steal; blocks Steal. Reveal `*`, give up `<`.
    Captain,
    /// Blocks Assassinate. Reveal `!`, give up `=`.
    Contessa,
    /// Tax; blocks Foreign Aid. Reveal `$`, give up `0`.
    Duke,
}

impl Card {
    /// All five cards, in protocol order (`~^*!$`), which is also the arbiter's deck order
    /// (`['_', "'", '<', '=', '0']`).
    pub const ALL: [Card; 5] = [
        Card::Ambassador,
        Card::Assassin,
        Card::Captain,
        Card::Contessa,
        Card::Duke,
    ];

    /// Position in [`Card::ALL`]; handy for per-card arrays.
    pub const fn index(self) -> usize {
        match self {
            Card::Ambassador => 0,
            Card::Assassin => 1,
            Card::Captain => 2,
            Card::Contessa => 3,
            Card::Duke => 4,
        }
    }

    /// The symbol used to reveal the card after a challenge, and to name it in argv and in
    /// Exchange output: one of `~^*!$`.
    pub const fn reveal_char(self) -> char {
        match self {
            Card::Ambassador => '~',
            Card::Assassin => '^',
            Card::Captain => '*',
            Card::Contessa => '!',
            Card::Duke => '$',
        }
    }

    /// The symbol used to give the card up (lose it): one of `_'<=0`.
    pub const fn surrender_char(self) -> char {
        match self {
            Card::Ambassador => '_',
            Card::Assassin => '\'',
            Card::Captain => '<',
            Card::Contessa => '=',
            Card::Duke => '0',
        }
    }

    /// The card a reveal symbol (`~^*!$`) stands for.
    pub fn from_reveal_char(c: char) -> Option<Card> {
        Card::ALL.into_iter().find(|card| card.reveal_char() == c)
    }

    /// The card a surrender symbol (`_'<=0`) stands for.
    pub fn from_surrender_char(c: char) -> Option<Card> {
        Card::ALL
            .into_iter()
            .find(|card| card.surrender_char() == c)
    }

    /// The card's English name.
    pub const fn name(self) -> &'static str {
        match self {
            Card::Ambassador => "Ambassador",
            Card::Assassin => "Assassin",
            Card::Captain => "Captain",
            Card::Contessa => "Contessa",
            Card::Duke => "Duke",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Parses a string of reveal symbols (`~^*!$`), as `argv[4]` gives a bot's cards.
pub fn parse_cards(text: &str) -> Option<Vec<Card>> {
    text.chars().map(Card::from_reveal_char).collect()
}

/// Writes cards as reveal symbols, the form Exchange output uses.
pub fn cards_to_string(cards: &[Card]) -> String {
    cards.iter().map(|c| c.reveal_char()).collect()
}

/// How many of each card: the deck, what is still unseen, a hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardCounts([u8; 5]);

impl CardCounts {
    /// No cards.
    pub const fn empty() -> CardCounts {
        CardCounts([0; 5])
    }

    /// The full 15-card deck: three of each.
    pub const fn full_deck() -> CardCounts {
        CardCounts([3; 5])
    }

    /// Counts the given cards.
    pub fn of(cards: &[Card]) -> CardCounts {
        let mut counts = CardCounts::empty();
        for &card in cards {
            counts.add(card);
        }
        counts
    }

    /// How many of `card`.
    pub const fn get(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    /// One more `card`.
    pub fn add(&mut self, card: Card) {
        self.0[card.index()] = self.0[card.index()].saturating_add(1);
    }

    /// One fewer `card`; stays at zero rather than wrapping, since a count derived from a
    /// surprising history should degrade, not panic.
    pub fn remove(&mut self, card: Card) {
        self.0[card.index()] = self.0[card.index()].saturating_sub(1);
    }

    /// Total number of cards.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| u32::from(n)).sum()
    }

    /// `(card, count)` for all five cards, in protocol order.
    pub fn iter(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        Card::ALL
            .into_iter()
            .map(move |card| (card, self.get(card)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_round_trip() {
        for card in Card::ALL {
            assert_eq!(Card::from_reveal_char(card.reveal_char()), Some(card));
            assert_eq!(Card::from_surrender_char(card.surrender_char()), Some(card));
            assert_eq!(Card::ALL[card.index()], card);
        }
        let all: String = Card::ALL.iter().map(|c| c.reveal_char()).collect();
        assert_eq!(all, "~^*!$");
        let all: String = Card::ALL.iter().map(|c| c.surrender_char()).collect();
        assert_eq!(all, "_'<=0");
        assert_eq!(Card::from_reveal_char('x'), None);
        assert_eq!(Card::from_surrender_char('~'), None);
    }

    #[test]
    fn parse_and_print_cards() {
        assert_eq!(
            parse_cards("~!"),
            Some(vec![Card::Ambassador, Card::Contessa])
        );
        assert_eq!(parse_cards("~_"), None);
        assert_eq!(cards_to_string(&[Card::Duke, Card::Captain]), "$*");
    }

    #[test]
    fn counts() {
        let mut c = CardCounts::full_deck();
        assert_eq!(c.total(), 15);
        c.remove(Card::Duke);
        c.remove(Card::Duke);
        c.remove(Card::Duke);
        c.remove(Card::Duke);
        assert_eq!(c.get(Card::Duke), 0);
        assert_eq!(c.total(), 12);
        assert_eq!(CardCounts::of(&[Card::Duke, Card::Duke]).get(Card::Duke), 2);
    }
}
