//! Cards, suits, bowers and the rules of a trick.

use std::fmt;

/// A suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Suit {
    /// `c`.
    Clubs,
    /// `d`.
    Diamonds,
    /// `h`.
    Hearts,
    /// `s`.
    Spades,
}

impl Suit {
    /// The four suits.
    pub const ALL: [Suit; 4] = [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades];

    /// The protocol letter: `c d h s`.
    pub fn letter(self) -> char {
        ['c', 'd', 'h', 's'][self.index()]
    }

    /// The suit a protocol letter names.
    pub fn from_letter(c: char) -> Option<Suit> {
        Suit::ALL.into_iter().find(|s| s.letter() == c)
    }

    /// The other suit of the same colour: its jack is the left bower when `self` is trump.
    pub fn same_colour(self) -> Suit {
        match self {
            Suit::Clubs => Suit::Spades,
            Suit::Spades => Suit::Clubs,
            Suit::Diamonds => Suit::Hearts,
            Suit::Hearts => Suit::Diamonds,
        }
    }

    /// 0 to 3, in [`Suit::ALL`] order.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The English name, plural: `clubs` (the human logs' word; [`Display`](fmt::Display)
    /// prints the protocol letter).
    pub fn name(self) -> &'static str {
        ["clubs", "diamonds", "hearts", "spades"][self.index()]
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rank {
    /// `9`.
    Nine,
    /// `t`.
    Ten,
    /// `j`.
    Jack,
    /// `q`.
    Queen,
    /// `k`.
    King,
    /// `a`.
    Ace,
}

impl Rank {
    /// The six ranks, lowest first.
    pub const ALL: [Rank; 6] = [
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The protocol letter: `9 t j q k a`.
    pub fn letter(self) -> char {
        ['9', 't', 'j', 'q', 'k', 'a'][self.index()]
    }

    /// The rank a protocol letter names.
    pub fn from_letter(c: char) -> Option<Rank> {
        Rank::ALL.into_iter().find(|r| r.letter() == c)
    }

    /// 0 (nine) to 5 (ace).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A card, written rank then suit: `9c`, `td`, `jh`, `as`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Card {
    /// The rank.
    pub rank: Rank,
    /// The printed suit ([`Card::suit_under`] gives the suit it plays as).
    pub suit: Suit,
}

impl Card {
    /// The card of `rank` in `suit`.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// The 24 cards, clubs first, nine to ace within a suit (the order of [`Card::index`]).
    pub fn deck() -> Vec<Card> {
        (0..24).filter_map(Card::from_index).collect()
    }

    /// The card a protocol token names (`"th"`): exactly two lowercase characters.
    pub fn parse(token: &str) -> Option<Card> {
        let mut chars = token.chars();
        let rank = Rank::from_letter(chars.next()?)?;
        let suit = Suit::from_letter(chars.next()?)?;
        chars.next().is_none().then_some(Card::new(rank, suit))
    }

    /// A number 0..24 for compact storage: suit × 6 + rank.
    pub fn index(self) -> usize {
        self.suit.index() * 6 + self.rank.index()
    }

    /// The card of an [`index`](Card::index), if below 24.
    pub fn from_index(i: usize) -> Option<Card> {
        Some(Card::new(*Rank::ALL.get(i % 6)?, *Suit::ALL.get(i / 6)?))
    }

    /// True for the jack of trump.
    pub fn is_right_bower(self, trump: Suit) -> bool {
        self.rank == Rank::Jack && self.suit == trump
    }

    /// True for the jack of trump's colour in the other suit.
    pub fn is_left_bower(self, trump: Suit) -> bool {
        self.rank == Rank::Jack && self.suit == trump.same_colour()
    }

    /// The suit the card plays as (its effective suit): trump for the left bower.
    pub fn suit_under(self, trump: Suit) -> Suit {
        if self.is_left_bower(trump) {
            trump
        } else {
            self.suit
        }
    }

    /// True for a trump, the left bower included.
    pub fn is_trump(self, trump: Suit) -> bool {
        self.suit_under(trump) == trump
    }

    /// Rank among trumps, 7 for the right bower down to 1 for the nine; 0 if not a trump.
    pub fn trump_rank(self, trump: Suit) -> u8 {
        if self.is_right_bower(trump) {
            7
        } else if self.is_left_bower(trump) {
            6
        } else if self.suit == trump {
            // nine 1, ten 2, queen 3, king 4, ace 5 (the jack is the right bower).
            match self.rank {
                Rank::Nine => 1,
                Rank::Ten => 2,
                Rank::Jack | Rank::Queen => 3,
                Rank::King => 4,
                Rank::Ace => 5,
            }
        } else {
            0
        }
    }

    /// Strength in a trick led with suit `led` (the led card's [`suit_under`](Card::suit_under)):
    /// trumps 20 (right bower) to 14 (nine), the led suit 6 (ace) to 1, anything else 0. The
    /// highest power wins the trick.
    pub fn power(self, trump: Suit, led: Suit) -> u8 {
        match self.trump_rank(trump) {
            0 if self.suit == led => 1 + self.rank.index() as u8,
            0 => 0,
            r => 13 + r,
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write as _;
        f.write_char(self.rank.letter())?;
        f.write_char(self.suit.letter())
    }
}

impl Card {
    /// The card's two letters, pushed onto `out` (what `Display` writes, without its
    /// machinery: a decision's input is built from many cards).
    pub fn push_to(self, out: &mut String) {
        out.push(self.rank.letter());
        out.push(self.suit.letter());
    }
}

/// Cards as the protocol writes them: `js,ah,qc`.
pub fn cards_to_string(cards: &[Card]) -> String {
    let mut out = String::with_capacity(cards.len() * 3);
    push_cards(&mut out, cards);
    out
}

/// [`cards_to_string`], pushed onto `out`.
pub fn push_cards(out: &mut String, cards: &[Card]) {
    push_list(out, cards, |out, card| card.push_to(out));
}

/// `items`, each pushed onto `out` by `push`, separated by commas: the protocol's lists.
pub(crate) fn push_list<T>(
    out: &mut String,
    items: impl IntoIterator<Item = T>,
    mut push: impl FnMut(&mut String, T),
) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push(out, item);
    }
}

/// The cards `hand` may play when the trick was led with `led` (`None` when leading): those
/// of the led card's effective suit if any, else all, in hand order.
pub fn legal_plays(hand: &[Card], led: Option<Card>, trump: Suit) -> Vec<Card> {
    let Some(led) = led else {
        return hand.to_vec();
    };
    let suit = led.suit_under(trump);
    let following: Vec<Card> = hand
        .iter()
        .copied()
        .filter(|c| c.suit_under(trump) == suit)
        .collect();
    if following.is_empty() {
        hand.to_vec()
    } else {
        following
    }
}

/// The position (0 = the leader) of the card winning `cards` so far, in play order with
/// `None` for a seat sitting out; `None` if no card was played.
pub fn trick_winner(cards: &[Option<Card>], trump: Suit) -> Option<usize> {
    let led = cards.iter().flatten().next()?.suit_under(trump);
    let mut best: Option<(usize, u8)> = None;
    for (i, card) in cards.iter().enumerate() {
        if let Some(card) = card {
            let power = card.power(trump, led);
            if best.is_none_or(|(_, p)| power > p) {
                best = Some((i, power));
            }
        }
    }
    best.map(|(i, _)| i)
}

/// A set of cards in 24 bits, three bytes when stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u32);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set of `cards`.
    pub fn of(cards: &[Card]) -> CardSet {
        let mut set = CardSet::EMPTY;
        for &c in cards {
            set.insert(c);
        }
        set
    }

    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.index();
    }

    /// Removes a card.
    pub fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.index());
    }

    /// True if the set holds `card`.
    pub fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.index()) != 0
    }

    /// The number of cards.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// True if empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards, in [`Card::index`] order.
    pub fn cards(self) -> Vec<Card> {
        Card::deck()
            .into_iter()
            .filter(|&c| self.contains(c))
            .collect()
    }

    /// Three bytes, little-endian.
    pub fn to_bytes(self) -> [u8; 3] {
        let [a, b, c, _] = self.0.to_le_bytes();
        [a, b, c]
    }

    /// The set stored by [`CardSet::to_bytes`] (bits past the 24th are dropped).
    pub fn from_bytes(bytes: [u8; 3]) -> CardSet {
        CardSet(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], 0]))
    }
}
