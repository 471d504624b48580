//! Actions and moves, and their exact protocol text.

use super::card::Card;
use std::fmt;

/// A turn's action: the capital letter that starts every line of the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Action {
    /// `I`: take 1 coin. Unblockable, unchallengeable; written as `I\n`.
    Income,
    /// `F`: take 2 coins. A Duke blocks it.
    ForeignAid,
    /// `C`: pay 7 coins, the opponent loses a card. Forced at 10+ coins.
    Coup,
    /// `E`: claim an Ambassador, draw two cards, keep as many as you had.
    Exchange,
    /// `A`: claim an Assassin, pay 3 coins, the opponent loses a card. A Contessa blocks it.
    Assassinate,
    /// `S`: claim a Captain, take up to 2 of the opponent's coins. Ambassador or Captain blocks it.
    Steal,
    /// `T`: claim a Duke, take 3 coins.
    Tax,
}

impl Action {
    /// All seven actions.
    pub const ALL: [Action; 7] = [
        Action::Income,
        Action::ForeignAid,
        Action::Coup,
        Action::Exchange,
        Action::Assassinate,
        Action::Steal,
        Action::Tax,
    ];

    /// The action's capital letter.
    pub const fn letter(self) -> char {
        match self {
            Action::Income => 'I',
            Action::ForeignAid => 'F',
            Action::Coup => 'C',
            Action::Exchange => 'E',
            Action::Assassinate => 'A',
            Action::Steal => 'S',
            Action::Tax => 'T',
        }
    }

    /// The action a capital letter stands for.
    pub fn from_letter(c: char) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.letter() == c)
    }

    /// The card the actor claims to hold (and can be challenged over), if any.
    pub const fn claim(self) -> Option<Card> {
        match self {
            Action::Exchange => Some(Card::Ambassador),
            Action::Assassinate => Some(Card::Assassin),
            Action::Steal => Some(Card::Captain),
            Action::Tax => Some(Card::Duke),
            Action::Income | Action::ForeignAid | Action::Coup => None,
        }
    }

    /// The cards that can block this action.
    pub const fn blockers(self) -> &'static [Card] {
        match self {
            Action::ForeignAid => &[Card::Duke],
            Action::Steal => &[Card::Ambassador, Card::Captain],
            Action::Assassinate => &[Card::Contessa],
            _ => &[],
        }
    }

    /// Coins the actor pays.
    pub const fn cost(self) -> u32 {
        match self {
            Action::Coup => 7,
            Action::Assassinate => 3,
            _ => 0,
        }
    }

    /// The move that takes this action.
    pub const fn to_move(self) -> Move {
        match self {
            Action::Income => Move::Income,
            Action::ForeignAid => Move::ForeignAid,
            Action::Coup => Move::Coup,
            Action::Exchange => Move::Exchange,
            Action::Assassinate => Move::Assassinate,
            Action::Steal => Move::Steal,
            Action::Tax => Move::Tax,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Action::Income => "Income",
            Action::ForeignAid => "Foreign Aid",
            Action::Coup => "Coup",
            Action::Exchange => "Exchange",
            Action::Assassinate => "Assassinate",
            Action::Steal => "Steal",
            Action::Tax => "Tax",
        })
    }
}

/// Any single write a bot can make: an action, a block, a challenge, a pass, a reveal, giving
/// up a card, or ending the turn.
///
/// Giving up a card is written `'` when it is the opponent's turn and `'\n` when it is the
/// bot's own turn (the protocol's two-character case); both are [`Move::Surrender`], and
/// [`LegalMoves`] knows which text the arbiter offered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// `I\n`
    Income,
    /// `F`
    ForeignAid,
    /// `C`
    Coup,
    /// `E`
    Exchange,
    /// `A`
    Assassinate,
    /// `S`
    Steal,
    /// `T`
    Tax,
    /// Block claiming a card: `d` (Duke, Foreign Aid), `a` (Ambassador, Steal),
    /// `c` (Captain, Steal), `s` (Contessa, Assassinate). `Block(Assassin)` has no text.
    Block(Card),
    /// `q`: challenge the last action or block.
    Challenge,
    /// `p`: let an action through (Foreign Aid, Exchange, Tax, Steal).
    Pass,
    /// `~^*!$`: show the challenged card (it is then replaced, except an Ambassador that
    /// proved an Exchange).
    Reveal(Card),
    /// `_'<=0`, or the same followed by `\n` on one's own turn: lose this card.
    Surrender(Card),
    /// `\n`: end one's own turn (accepting a block, if there is one).
    EndTurn,
}

impl Move {
    /// The move's text as a write on its own, with the single-character form of a
    /// surrender; `None` for a block no card can make. To write a move use the legal
    /// moves' text ([`LegalMoves::text`]), which also covers the `card + '\n'` form.
    pub const fn text(self) -> Option<&'static str> {
        Some(match self {
            Move::Income => "I\n",
            Move::ForeignAid => "F",
            Move::Coup => "C",
            Move::Exchange => "E",
            Move::Assassinate => "A",
            Move::Steal => "S",
            Move::Tax => "T",
            Move::Block(Card::Duke) => "d",
            Move::Block(Card::Ambassador) => "a",
            Move::Block(Card::Captain) => "c",
            Move::Block(Card::Contessa) => "s",
            Move::Block(Card::Assassin) => return None,
            Move::Challenge => "q",
            Move::Pass => "p",
            Move::Reveal(Card::Ambassador) => "~",
            Move::Reveal(Card::Assassin) => "^",
            Move::Reveal(Card::Captain) => "*",
            Move::Reveal(Card::Contessa) => "!",
            Move::Reveal(Card::Duke) => "$",
            Move::Surrender(Card::Ambassador) => "_",
            Move::Surrender(Card::Assassin) => "'",
            Move::Surrender(Card::Captain) => "<",
            Move::Surrender(Card::Contessa) => "=",
            Move::Surrender(Card::Duke) => "0",
            Move::EndTurn => "\n",
        })
    }

    /// The move one history character stands for. `I` alone maps to [`Move::Income`] and a
    /// `\n` to [`Move::EndTurn`]; the history parser joins the two-character writes.
    pub fn from_char(c: char) -> Option<Move> {
        if let Some(action) = Action::from_letter(c) {
            return Some(action.to_move());
        }
        if let Some(card) = Card::from_reveal_char(c) {
            return Some(Move::Reveal(card));
        }
        if let Some(card) = Card::from_surrender_char(c) {
            return Some(Move::Surrender(card));
        }
        Some(match c {
            'd' => Move::Block(Card::Duke),
            'a' => Move::Block(Card::Ambassador),
            'c' => Move::Block(Card::Captain),
            's' => Move::Block(Card::Contessa),
            'q' => Move::Challenge,
            'p' => Move::Pass,
            '\n' => Move::EndTurn,
            _ => return None,
        })
    }

    /// The move a legal-action argument (or any single write) stands for: one character, or
    /// the two-character writes `I\n` and `<card>\n`. `I` without its newline is rejected,
    /// as the arbiter never offers it.
    pub fn from_text(text: &str) -> Option<Move> {
        let mut chars = text.chars();
        let first = chars.next()?;
        match (chars.next(), chars.next()) {
            (None, None) if first != 'I' => Move::from_char(first),
            (Some('\n'), None) if first == 'I' => Some(Move::Income),
            (Some('\n'), None) => Card::from_surrender_char(first).map(Move::Surrender),
            _ => None,
        }
    }

    /// The turn action this move takes, if it is one.
    pub const fn action(self) -> Option<Action> {
        Some(match self {
            Move::Income => Action::Income,
            Move::ForeignAid => Action::ForeignAid,
            Move::Coup => Action::Coup,
            Move::Exchange => Action::Exchange,
            Move::Assassinate => Action::Assassinate,
            Move::Steal => Action::Steal,
            Move::Tax => Action::Tax,
            _ => return None,
        })
    }

    /// The card this move claims to hold (an action's or a block's card), if any.
    pub const fn claim(self) -> Option<Card> {
        match self {
            Move::Block(card) => Some(card),
            _ => match self.action() {
                Some(action) => action.claim(),
                None => None,
            },
        }
    }
}

impl From<Action> for Move {
    fn from(action: Action) -> Move {
        action.to_move()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Block(card) => write!(f, "Block as {card}"),
            Move::Challenge => f.write_str("Challenge"),
            Move::Pass => f.write_str("Pass"),
            Move::Reveal(card) => write!(f, "Reveal {card}"),
            Move::Surrender(card) => write!(f, "Give up {card}"),
            Move::EndTurn => f.write_str("End turn"),
            other => match other.action() {
                Some(action) => write!(f, "{action}"),
                None => write!(f, "{other:?}"),
            },
        }
    }
}

/// The legal moves of this invocation (`argv[5..]`), each with the exact text to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegalMoves {
    entries: Vec<(Move, String)>,
}

impl LegalMoves {
    /// Parses the legal-action arguments. Fails on text that is not a move, so that a
    /// protocol mismatch is reported rather than guessed around.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<LegalMoves, String> {
        let entries = args
            .iter()
            .map(|arg| {
                let text = arg.as_ref();
                Move::from_text(text)
                    .map(|mv| (mv, text.to_string()))
                    .ok_or_else(|| format!("legal action {text:?} is not a Coup move"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(LegalMoves { entries })
    }

    /// The moves, in argv order (a card held twice appears twice).
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.entries.iter().map(|(mv, _)| *mv)
    }

    /// The moves' texts, in argv order.
    pub fn texts(&self) -> impl Iterator<Item = &str> + '_ {
        self.entries.iter().map(|(_, text)| text.as_str())
    }

    /// Whether `mv` is legal now.
    pub fn contains(&self, mv: Move) -> bool {
        self.entries.iter().any(|(m, _)| *m == mv)
    }

    /// Whether `text` is exactly one of the legal texts.
    pub fn contains_text(&self, text: &str) -> bool {
        self.entries.iter().any(|(_, t)| t == text)
    }

    /// The exact text to append for `mv`, if it is legal.
    pub fn text(&self, mv: Move) -> Option<&str> {
        self.entries
            .iter()
            .find(|(m, _)| *m == mv)
            .map(|(_, t)| t.as_str())
    }

    /// The first legal move: the benchmark choice, and the safe fallback.
    pub fn first(&self) -> Option<Move> {
        self.entries.first().map(|(mv, _)| *mv)
    }

    /// The cards this invocation may give up (from the legal [`Move::Surrender`]s).
    pub fn surrenders(&self) -> Vec<Card> {
        self.moves()
            .filter_map(|mv| match mv {
                Move::Surrender(card) => Some(card),
                _ => None,
            })
            .collect()
    }

    /// Number of legal moves.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if no move is legal (never the case in a well-formed invocation).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_protocol_text_round_trips() {
        let singles = "IFCEASTdacsqp~^*!$_'<=0\n";
        for c in singles.chars() {
            let mv = Move::from_char(c).unwrap();
            if c != 'I' {
                assert_eq!(Move::from_text(&c.to_string()), Some(mv));
                assert_eq!(mv.text(), Some(c.to_string().as_str()));
            }
        }
        assert_eq!(Move::from_text("I\n"), Some(Move::Income));
        assert_eq!(Move::from_text("I"), None);
        assert_eq!(Move::Income.text(), Some("I\n"));
        for card in Card::ALL {
            let text = format!("{}\n", card.surrender_char());
            assert_eq!(Move::from_text(&text), Some(Move::Surrender(card)));
        }
        assert_eq!(Move::from_text("p\n"), None);
        assert_eq!(Move::from_text(""), None);
        assert_eq!(Move::from_text("XF"), None);
        assert_eq!(Move::Block(Card::Assassin).text(), None);
    }

    #[test]
    fn claims_and_blockers() {
        assert_eq!(Move::Tax.claim(), Some(Card::Duke));
        assert_eq!(Move::Block(Card::Contessa).claim(), Some(Card::Contessa));
        assert_eq!(Move::Coup.claim(), None);
        assert_eq!(Action::Steal.blockers(), &[Card::Ambassador, Card::Captain]);
        assert_eq!(Action::Tax.blockers(), &[] as &[Card]);
        assert_eq!(Move::from(Action::Steal), Move::Steal);
    }

    #[test]
    fn legal_moves_keep_exact_text() {
        let legal = LegalMoves::parse(&["'\n", "0\n"]).unwrap();
        assert_eq!(legal.text(Move::Surrender(Card::Assassin)), Some("'\n"));
        assert!(legal.contains_text("0\n"));
        assert!(!legal.contains_text("0"));
        assert_eq!(legal.surrenders(), vec![Card::Assassin, Card::Duke]);
        assert_eq!(legal.first(), Some(Move::Surrender(Card::Assassin)));
        assert!(LegalMoves::parse(&["x"]).is_err());
    }
}
