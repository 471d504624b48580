//! The kinds of decision and the answers to them, with their protocol tokens.

use super::card::{Card, Suit};
use std::fmt;

/// The kind of decision due, one per row of the spec's protocol table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Kind {
    /// `ordering`: order the turned card up (`o`) or pass (`p`).
    Order,
    /// `discard`: the dealer, having picked the turned card up, discards one of six.
    Discard,
    /// `naming`: pass (`p`) or name a suit other than the turned card's.
    Name,
    /// `alone`: the makers go alone (`y`) or not (`n`).
    Alone,
    /// `turn`: play a legal card.
    Play,
    /// `trick`: the report of a finished trick; the output is ignored.
    Trick,
}

impl Kind {
    /// The phase line of the input: `ordering`, `discard`, `naming`, `alone`, `turn`, `trick`.
    pub fn phase(self) -> &'static str {
        match self {
            Kind::Order => "ordering",
            Kind::Discard => "discard",
            Kind::Name => "naming",
            Kind::Alone => "alone",
            Kind::Play => "turn",
            Kind::Trick => "trick",
        }
    }

    /// False for [`Kind::Trick`], whose output is ignored.
    pub fn expects_answer(self) -> bool {
        self != Kind::Trick
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.phase())
    }
}

/// An answer, or one of the previous answers a later player sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Answer {
    /// `p`: pass when ordering or naming.
    Pass,
    /// `o`: order the turned card up.
    OrderUp,
    /// Name a suit as trump (not the turned card's).
    Name(Suit),
    /// The dealer's discard, one of its five cards or the card picked up.
    Discard(Card),
    /// `y` (true) or `n` (false): go alone.
    Alone(bool),
    /// Play a card.
    Play(Card),
    /// Print nothing (the answer to a trick report, whose output is ignored).
    // Archives written before the rules had a crate of their own call it `Ack`.
    #[cfg_attr(feature = "serde", serde(rename = "Ack"))]
    Nothing,
}

impl Answer {
    /// The text to print, as it also appears in later players' lists of previous answers:
    /// `p`, `o`, `h`, `9c`, `y`, `n`, or nothing.
    pub fn token(self) -> String {
        let mut out = String::new();
        self.push_token(&mut out);
        out
    }

    /// [`Answer::token`], pushed onto `out`.
    pub fn push_token(self, out: &mut String) {
        match self {
            Answer::Pass => out.push('p'),
            Answer::OrderUp => out.push('o'),
            Answer::Name(suit) => out.push(suit.letter()),
            Answer::Discard(card) | Answer::Play(card) => card.push_to(out),
            Answer::Alone(true) => out.push('y'),
            Answer::Alone(false) => out.push('n'),
            Answer::Nothing => {}
        }
    }

    /// The kind of decision this answers.
    pub fn kind(self) -> Kind {
        match self {
            Answer::Pass | Answer::OrderUp => Kind::Order,
            Answer::Name(_) => Kind::Name,
            Answer::Discard(_) => Kind::Discard,
            Answer::Alone(_) => Kind::Alone,
            Answer::Play(_) => Kind::Play,
            Answer::Nothing => Kind::Trick,
        }
    }

    /// True if this answer can answer a decision of `kind` (`p` answers naming too).
    pub fn fits(self, kind: Kind) -> bool {
        self.kind() == kind || (self == Answer::Pass && kind == Kind::Name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::euchre::Rank;

    #[test]
    fn tokens_and_kinds() {
        let nine = Card::new(Rank::Nine, Suit::Clubs);
        let cases = [
            (Answer::Pass, "p", Kind::Order),
            (Answer::OrderUp, "o", Kind::Order),
            (Answer::Name(Suit::Hearts), "h", Kind::Name),
            (Answer::Discard(nine), "9c", Kind::Discard),
            (Answer::Alone(true), "y", Kind::Alone),
            (Answer::Alone(false), "n", Kind::Alone),
            (Answer::Play(nine), "9c", Kind::Play),
            (Answer::Nothing, "", Kind::Trick),
        ];
        for (answer, token, kind) in cases {
            assert_eq!(answer.token(), token);
            assert_eq!(answer.kind(), kind);
            assert!(answer.fits(kind));
        }
        assert!(Answer::Pass.fits(Kind::Name));
        assert!(!Answer::OrderUp.fits(Kind::Name));
        assert!(!Answer::Nothing.fits(Kind::Play));
    }
}
