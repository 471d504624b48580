//! The stdin input as a typed [`Input`].

use super::Error;
use super::{legal_plays, trick_winner, Answer, Card, Suit};

/// The phase and its lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Phase {
    /// First round: order `turned` up or pass. `previous` are the answers of the players
    /// before (`OrderUp`/`Pass`); their count is the seat's distance from the dealer's left
    /// (3: the dealer).
    Ordering {
        /// The card turned up.
        turned: Card,
        /// Earlier answers this round.
        previous: Vec<Answer>,
    },
    /// Second round: pass or name a suit other than the turned card's (which the input does
    /// not repeat: remember it from the ordering phase if needed).
    Naming {
        /// Earlier answers (`Pass`/`Name`).
        previous: Vec<Answer>,
    },
    /// The dealer picks up `pickup` and discards one of six.
    Discard {
        /// The card picked up.
        pickup: Card,
    },
    /// Go alone? The maker is asked first, then its partner.
    Alone {
        /// Trump.
        trump: Suit,
        /// The maker's answer, when asked second.
        previous: Vec<bool>,
    },
    /// Play a card.
    Turn {
        /// Trump.
        trump: Suit,
        /// The cards played so far in this trick, `None` for a player sitting out.
        played: Vec<Option<Card>>,
    },
    /// A trick ended (the hand line is empty): nothing to answer.
    Trick {
        /// The position of this bot's card in `cards`.
        index: usize,
        /// Trump.
        trump: Suit,
        /// The four cards in play order from the leader, `None` for a player sitting out.
        cards: Vec<Option<Card>>,
    },
}

/// One invocation's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The hand, in the order dealt (a picked-up card last); empty at a trick report.
    pub hand: Vec<Card>,
    /// The team's points.
    pub points: u32,
    /// The team's tricks this hand.
    pub tricks: u32,
    /// The phase.
    pub phase: Phase,
}

fn bad(what: impl Into<String>) -> Error {
    Error::Input(what.into())
}

/// A comma-separated list, empty for an empty line.
fn list(line: &str) -> Vec<&str> {
    if line.is_empty() {
        Vec::new()
    } else {
        line.split(',').map(str::trim).collect()
    }
}

fn card(token: &str) -> Result<Card, Error> {
    Card::parse(token).ok_or_else(|| bad(format!("{token:?} is not a card")))
}

fn suit(line: &str) -> Result<Suit, Error> {
    let mut chars = line.chars();
    match (chars.next().and_then(Suit::from_letter), chars.next()) {
        (Some(s), None) => Ok(s),
        _ => Err(bad(format!("{line:?} is not a suit"))),
    }
}

fn played(line: &str) -> Result<Vec<Option<Card>>, Error> {
    list(line)
        .into_iter()
        .map(|t| {
            if t == "p" {
                Ok(None)
            } else {
                card(t).map(Some)
            }
        })
        .collect()
}

fn number(line: &str) -> Result<u32, Error> {
    line.parse()
        .map_err(|_| bad(format!("{line:?} is not a number")))
}

impl Input {
    /// Parses the stdin text. Lines may end in `\n` or `\r\n`; a missing trailing
    /// empty line (an empty list of previous answers) is accepted.
    pub fn parse(text: &str) -> Result<Input, Error> {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let line = |i: usize| lines.get(i).copied().unwrap_or("");
        if lines.len() < 4 {
            return Err(bad(format!("{} lines, expected at least 4", lines.len())));
        }
        let hand = list(line(0))
            .into_iter()
            .map(card)
            .collect::<Result<Vec<_>, _>>()?;
        let points = number(line(1))?;
        let tricks = number(line(2))?;
        let answers = |l: &str, order: bool| -> Result<Vec<Answer>, Error> {
            list(l)
                .into_iter()
                .map(|t| match t {
                    "p" => Ok(Answer::Pass),
                    "o" if order => Ok(Answer::OrderUp),
                    _ if !order => suit(t).map(Answer::Name),
                    _ => Err(bad(format!("{t:?} is not an ordering answer"))),
                })
                .collect()
        };
        let phase = match line(3) {
            "ordering" => Phase::Ordering {
                turned: card(line(4))?,
                previous: answers(line(5), true)?,
            },
            "naming" => Phase::Naming {
                previous: answers(line(4), false)?,
            },
            "discard" => Phase::Discard {
                pickup: card(line(4))?,
            },
            "alone" => Phase::Alone {
                trump: suit(line(4))?,
                previous: list(line(5))
                    .into_iter()
                    .map(|t| match t {
                        "y" => Ok(true),
                        "n" => Ok(false),
                        _ => Err(bad(format!("{t:?} is not y or n"))),
                    })
                    .collect::<Result<_, _>>()?,
            },
            "turn" => Phase::Turn {
                trump: suit(line(4))?,
                played: played(line(5))?,
            },
            "trick" => {
                let index = number(line(4))? as usize;
                let cards = played(line(6))?;
                if index >= cards.len() {
                    return Err(bad(format!("index {index} outside the trick")));
                }
                Phase::Trick {
                    index,
                    trump: suit(line(5))?,
                    cards,
                }
            }
            other => return Err(bad(format!("unknown phase {other:?}"))),
        };
        Ok(Input {
            hand,
            points,
            tricks,
            phase,
        })
    }

    /// Reads and parses stdin.
    pub fn from_stdin() -> Result<Input, Error> {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text)?;
        Input::parse(&text)
    }

    /// In the bidding rounds, this bot's place from the dealer's left: 0 for the first asked,
    /// 3 for the dealer (the number of earlier answers).
    pub fn seat_from_dealer(&self) -> Option<usize> {
        match &self.phase {
            Phase::Ordering { previous, .. } | Phase::Naming { previous } => Some(previous.len()),
            Phase::Discard { .. } => Some(3),
            _ => None,
        }
    }

    /// Trump, in the phases that give it.
    pub fn trump(&self) -> Option<Suit> {
        match self.phase {
            Phase::Alone { trump, .. } | Phase::Turn { trump, .. } | Phase::Trick { trump, .. } => {
                Some(trump)
            }
            _ => None,
        }
    }

    /// The card that led the current trick (at a turn).
    pub fn led(&self) -> Option<Card> {
        match &self.phase {
            Phase::Turn { played, .. } => played.iter().flatten().next().copied(),
            _ => None,
        }
    }

    /// The cards this bot may play now (empty outside a turn).
    pub fn legal_plays(&self) -> Vec<Card> {
        match &self.phase {
            Phase::Turn { trump, played } => {
                legal_plays(&self.hand, played.first().copied().flatten(), *trump)
            }
            _ => Vec::new(),
        }
    }

    /// At a turn, the position (0 = leader) of the card winning the trick so far.
    pub fn winning_position(&self) -> Option<usize> {
        match &self.phase {
            Phase::Turn { trump, played } => trick_winner(played, *trump),
            _ => None,
        }
    }

    /// At a turn, true if the partner (two places back) is winning the trick so far.
    pub fn partner_winning(&self) -> bool {
        match &self.phase {
            Phase::Turn { played, .. } => {
                played.len() >= 2 && self.winning_position() == Some(played.len() - 2)
            }
            _ => false,
        }
    }

    /// Every legal answer (in hand order for cards; `[Nothing]` at a trick report). Naming
    /// offers every suit, since the input does not repeat the turned card: naming its suit
    /// is refused by the host and becomes a pass.
    pub fn legal(&self) -> Vec<Answer> {
        match &self.phase {
            Phase::Ordering { .. } => vec![Answer::OrderUp, Answer::Pass],
            Phase::Naming { .. } => std::iter::once(Answer::Pass)
                .chain(Suit::ALL.into_iter().map(Answer::Name))
                .collect(),
            Phase::Discard { pickup } => self
                .hand
                .iter()
                .chain(std::iter::once(pickup))
                .map(|&c| Answer::Discard(c))
                .collect(),
            Phase::Alone { .. } => vec![Answer::Alone(true), Answer::Alone(false)],
            Phase::Turn { .. } => self.legal_plays().into_iter().map(Answer::Play).collect(),
            Phase::Trick { .. } => vec![Answer::Nothing],
        }
    }

    /// True if `answer` is legal now.
    pub fn is_legal(&self, answer: Answer) -> bool {
        self.legal().contains(&answer)
    }

    /// The host's default for this phase: pass, pass, the first card in the hand, no, the
    /// first legal card, nothing.
    pub fn default_answer(&self) -> Answer {
        match &self.phase {
            Phase::Ordering { .. } | Phase::Naming { .. } => Answer::Pass,
            Phase::Discard { pickup } => {
                Answer::Discard(self.hand.first().copied().unwrap_or(*pickup))
            }
            Phase::Alone { .. } => Answer::Alone(false),
            Phase::Turn { .. } => self
                .legal_plays()
                .first()
                .map_or(Answer::Nothing, |&c| Answer::Play(c)),
            Phase::Trick { .. } => Answer::Nothing,
        }
    }
}
