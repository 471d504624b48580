//! One Euchre game (pure): one game among four seats, stepped one decision at a time, with the
//! protocol of `docs/games/euchre.md` (stdin text per phase, answers, defaults).
//!
//! Seats are 0..4 in playing order (each seat's left is the next one); partners sit opposite,
//! so seat `s` plays for team `s % 2`. The driver loop is:
//!
//! 1. [`Game::decision`]: whose turn, and which [`Kind`] of decision (`None` once over);
//! 2. [`Game::input`]: the exact stdin text for that seat;
//! 3. run the bot, then [`Game::respond`] with its stdout (parsed, replaced by the spec's
//!    default when bad), or [`Game::respond_default`] when the invocation failed.
//!
//! After every trick each of the four seats gets a [`Kind::Trick`] decision, in the trick's
//! play order, whose input reports the trick; its output is ignored.
//!
//! Decisions the spec leaves to the implementation, made here:
//!
//! - The `discard` input's hand line holds the five dealt cards; the card picked up is on the
//!   next line, and either may be discarded (the default is the first of the five). After the
//!   discard the picked-up card, if kept, is last in the hand.
//! - The trick input is sent before the hand is scored: after the fifth trick its points line
//!   still shows the points before that hand; its tricks line includes the trick just taken.
//! - A game that reaches [`Config::max_deals`] deals without a winner (possible only when
//!   nearly every hand is thrown in, for example bots that always pass) is drawn.
//! - An answer is stdout with surrounding ASCII whitespace removed; it must equal one token of
//!   the protocol (lowercase, as the seed writes them).

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::card::push_list;
use super::{legal_plays, push_cards, trick_winner, Answer, Card, Kind, Suit};
use std::fmt::Write as _;

/// Cards in the deck: 9 to ace in four suits.
pub const DECK_SIZE: usize = 24;

/// Cards dealt to each seat.
pub const HAND_SIZE: usize = 5;

/// Tricks in a hand.
pub const TRICKS: u32 = 5;

/// Points that win a game unless configured otherwise.
pub const DEFAULT_TARGET: u32 = 10;

/// Deals after which a game without a winner is drawn unless configured otherwise.
pub const DEFAULT_MAX_DEALS: u32 = 1000;

/// Longest piece of an unrecognised answer kept in the error (for logs).
const QUOTE_LIMIT: usize = 40;

/// The team of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3.
pub fn team_of(seat: usize) -> usize {
    seat % 2
}

/// A seat's partner (opposite).
pub fn partner_of(seat: usize) -> usize {
    (seat + 2) % 4
}

/// How a game is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// Points that win (the seed: 10).
    pub target: u32,
    /// The seat dealing the first hand.
    pub first_dealer: usize,
    /// Deals (thrown-in ones included) after which a game without a winner is drawn.
    pub max_deals: u32,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            target: DEFAULT_TARGET,
            first_dealer: 0,
            max_deals: DEFAULT_MAX_DEALS,
        }
    }
}

/// A decision due: who, and what kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The seat to invoke.
    pub seat: usize,
    /// What it decides.
    pub kind: Kind,
}

/// Why a bot's output was not a valid answer. The driver applies the spec's default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum BadAnswer {
    /// The output is not UTF-8.
    #[error("the output is not UTF-8 text")]
    NotText,
    /// Nothing but whitespace was printed.
    #[error("no answer (empty output)")]
    Empty,
    /// The text is not an answer to this phase (quoted, at most 40 characters).
    #[error("{text:?} is not an answer to the {kind} phase")]
    Unrecognised {
        /// The phase.
        kind: Kind,
        /// The start of the trimmed output.
        text: String,
    },
    /// The card is not in the hand (for a discard: nor the card picked up).
    #[error("{0} is not in the hand")]
    NotInHand(Card),
    /// The card does not follow suit though the hand can.
    #[error("{card} does not follow {}, which the hand holds", led.name())]
    MustFollow {
        /// The card played.
        card: Card,
        /// The suit led (trump for a led left bower).
        led: Suit,
    },
    /// Naming the suit of the turned card, which was refused in the first round.
    #[error("{} was the turned card's suit and cannot be named", .0.name())]
    TurnedSuit(Suit),
}

/// A driver error: an answer applied where it does not belong. Never caused by a bot (bot
/// answers go through [`Game::respond`], which falls back to the default).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum RuleError {
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The answer is of another kind than the decision due.
    #[error("{answer:?} does not answer a {expected} decision")]
    WrongKind {
        /// The decision due.
        expected: Kind,
        /// The answer given.
        answer: Answer,
    },
    /// The answer is of the right kind but not legal.
    #[error("illegal answer: {0}")]
    Illegal(#[from] BadAnswer),
}

/// How a hand was scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Score {
    /// Makers took 3 or 4 tricks: 1 point.
    Point,
    /// Makers took all 5 together: 2 points.
    March,
    /// A maker alone took all 5: 4 points.
    AloneMarch,
    /// Makers took fewer than 3: the defenders score 2.
    Euchre,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// A team reached the target.
    Won {
        /// The winning team (0: seats 0 and 2; 1: seats 1 and 3).
        team: usize,
    },
    /// [`Config::max_deals`] deals without a winner.
    Drawn,
}

/// Something that happened, for the human and structured logs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A new hand was dealt.
    Dealt {
        /// 1 for the first deal of the game.
        deal: u32,
        /// The dealer.
        dealer: usize,
        /// Each seat's five cards, in the order dealt.
        hands: [Vec<Card>; 4],
        /// The card turned up.
        turned: Card,
    },
    /// An ordering answer.
    Ordered {
        /// Who.
        seat: usize,
        /// True for `o`.
        up: bool,
        /// True if this answer made trump (the first `o`).
        counts: bool,
    },
    /// The dealer picked the turned card up and discarded.
    Discarded {
        /// The dealer.
        seat: usize,
        /// The card picked up.
        picked_up: Card,
        /// The card discarded (possibly the one picked up).
        card: Card,
    },
    /// A naming answer.
    Named {
        /// Who.
        seat: usize,
        /// The suit named, `None` for a pass.
        suit: Option<Suit>,
        /// True if this answer made trump (the first suit named).
        counts: bool,
    },
    /// All passed twice: the hand is thrown in.
    ThrownIn {
        /// The dealer of the thrown-in hand.
        dealer: usize,
    },
    /// An answer to going alone.
    Alone {
        /// Who.
        seat: usize,
        /// True for `y`.
        alone: bool,
        /// True if this answer made its seat go alone (the first `y`).
        counts: bool,
    },
    /// A card played.
    Played {
        /// Who.
        seat: usize,
        /// The card.
        card: Card,
    },
    /// A trick was completed.
    TrickWon {
        /// 1 to 5.
        trick: u32,
        /// The seat that led.
        leader: usize,
        /// The cards in play order from the leader, `None` for a seat sitting out.
        cards: Vec<Option<Card>>,
        /// The seat that won it (and leads next).
        winner: usize,
    },
    /// A hand was scored.
    Scored {
        /// The seat that made trump.
        maker: usize,
        /// The seat that went alone, if any.
        alone: Option<usize>,
        /// Tricks the makers took.
        makers_tricks: u32,
        /// How it scored.
        score: Score,
        /// The team that scored.
        team: usize,
        /// Points it scored.
        points: u32,
        /// Both teams' points afterwards.
        totals: [u32; 2],
    },
    /// A bad answer or a failed invocation was replaced by the spec's default.
    Defaulted {
        /// Who.
        seat: usize,
        /// The decision.
        kind: Kind,
        /// The default applied.
        answer: Answer,
        /// Why (the parse error, or the driver's account of the failure).
        reason: String,
    },
    /// The game was won.
    GameWon {
        /// The winning team.
        team: usize,
        /// Final points.
        totals: [u32; 2],
    },
    /// The game was drawn after [`Config::max_deals`] deals.
    Drawn {
        /// Final points.
        totals: [u32; 2],
    },
}

impl Event {
    /// One English line for the human log, with `names[seat]` for each seat.
    pub fn describe(&self, names: [&str; 4]) -> String {
        let team = |t: usize| format!("{} & {}", names[t], names[t + 2]);
        let cards = |cs: &[Card]| cs.iter().map(Card::to_string).collect::<Vec<_>>().join(",");
        match self {
            Event::Dealt {
                deal,
                dealer,
                hands,
                turned,
            } => {
                let mut line = format!("deal {deal}: {} deals, turns up {turned};", names[*dealer]);
                for (seat, hand) in hands.iter().enumerate() {
                    line.push_str(&format!(" {} {}", names[seat], cards(hand)));
                    line.push(if seat < 3 { ';' } else { '.' });
                }
                line
            }
            Event::Ordered { seat, up, counts } => match (up, counts) {
                (true, true) => format!("{} orders it up", names[*seat]),
                (true, false) => format!("{} orders up too (no effect)", names[*seat]),
                _ => format!("{} passes", names[*seat]),
            },
            Event::Discarded {
                seat,
                picked_up,
                card,
            } => format!("{} picks up {picked_up} and discards {card}", names[*seat]),
            Event::Named { seat, suit, counts } => match (suit, counts) {
                (Some(suit), true) => format!("{} names {}", names[*seat], suit.name()),
                (Some(suit), false) => {
                    format!("{} names {} too (no effect)", names[*seat], suit.name())
                }
                (None, _) => format!("{} passes", names[*seat]),
            },
            Event::ThrownIn { dealer } => {
                format!("all passed twice: {}'s deal is thrown in", names[*dealer])
            }
            Event::Alone {
                seat,
                alone,
                counts,
            } => match (alone, counts) {
                (true, true) => format!(
                    "{} goes alone; {} sits out",
                    names[*seat],
                    names[partner_of(*seat)]
                ),
                (true, false) => format!("{} would go alone too (no effect)", names[*seat]),
                _ => format!("{} does not go alone", names[*seat]),
            },
            Event::Played { seat, card } => format!("{} plays {card}", names[*seat]),
            Event::TrickWon {
                trick,
                leader,
                cards,
                winner,
            } => {
                let played: Vec<String> = cards
                    .iter()
                    .map(|c| c.map_or("p".to_string(), |c| c.to_string()))
                    .collect();
                format!(
                    "trick {trick} ({} led): {}; {} wins it",
                    names[*leader],
                    played.join(","),
                    names[*winner]
                )
            }
            Event::Scored {
                maker,
                alone,
                makers_tricks,
                score,
                team: scorer,
                points,
                totals,
            } => {
                let makers = if alone.is_some() {
                    format!("{} (alone)", names[*maker])
                } else {
                    format!("{} & {}", names[*maker], names[partner_of(*maker)])
                };
                let how = match score {
                    Score::Point => "a point",
                    Score::March => "a march",
                    Score::AloneMarch => "a lone march",
                    Score::Euchre => "euchred",
                };
                let tricks = if *makers_tricks == 1 {
                    "trick"
                } else {
                    "tricks"
                };
                format!(
                    "makers {makers} took {makers_tricks} {tricks}, {how}: {} score {points}; {} {} - {} {}",
                    team(*scorer),
                    team(0),
                    totals[0],
                    totals[1],
                    team(1)
                )
            }
            Event::Defaulted {
                seat,
                kind,
                answer,
                reason,
            } => {
                let token = answer.token();
                format!(
                    "{}'s {kind} answer was replaced by the default {}: {reason}",
                    names[*seat],
                    if token.is_empty() { "-" } else { &token }
                )
            }
            Event::GameWon { team: t, totals } => format!(
                "{} win the game {} to {}",
                team(*t),
                totals[*t],
                totals[1 - t]
            ),
            Event::Drawn { totals } => format!(
                "the game is drawn at {} - {} after the maximum number of deals",
                totals[0], totals[1]
            ),
        }
    }
}

/// What [`Game::respond`] did with a bot's output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The answer applied (the bot's, or the default).
    pub answer: Answer,
    /// Why the bot's output was replaced by the default, if it was.
    pub rejected: Option<BadAnswer>,
    /// What happened, in order (a [`Event::Defaulted`] first when rejected).
    pub events: Vec<Event>,
}

/// Where the game stands inside the current deal.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// First round; the answers so far, from the dealer's left.
    Ordering(Vec<Answer>),
    /// The dealer discards.
    Discard,
    /// Second round; the answers so far, from the dealer's left.
    Naming(Vec<Answer>),
    /// The makers are asked, the maker first; the answers so far.
    Alone(Vec<Answer>),
    /// A trick is being played (see [`Deal::trick`]).
    Play,
    /// The finished trick is reported to each seat in play order; `told` seats so far.
    Report {
        told: usize,
        leader: usize,
        cards: Vec<Option<Card>>,
    },
    /// No more decisions.
    Over,
}

/// The current deal.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Deal {
    /// Cards in hand, in the order dealt (a picked-up card last).
    hands: [Vec<Card>; 4],
    /// The turned card.
    turned: Card,
    /// Cards out of play: the undealt four (the turned card first while it lies there), and
    /// the dealer's discard.
    kitty: Vec<Card>,
    /// Cards played to tricks this deal.
    played: Vec<Card>,
    trump: Option<Suit>,
    maker: Option<usize>,
    alone: Option<usize>,
    /// Tricks per team.
    tricks: [u32; 2],
    /// Tricks finished.
    finished: u32,
    /// The seat that leads (or led) the current trick.
    leader: usize,
    /// The current trick from the leader, `None` for a seat sitting out.
    trick: Vec<Option<Card>>,
}

impl Deal {
    fn sits_out(&self, seat: usize) -> bool {
        self.alone.is_some_and(|a| partner_of(a) == seat)
    }
}

/// One game of Euchre.
#[derive(Debug, Clone)]
pub struct Game {
    config: Config,
    /// Shuffles every deck after the first.
    rng: ChaCha8Rng,
    points: [u32; 2],
    dealer: usize,
    /// Deals so far, the current one included.
    deals: u32,
    deal: Deal,
    stage: Stage,
    outcome: Option<Outcome>,
    events: Vec<Event>,
}

impl Game {
    /// A new game; the first hand is dealt at once (its [`Event::Dealt`] is the first of
    /// [`Game::events`]) from a deck shuffled by `rng`, which also shuffles every later deck.
    ///
    /// # Panics
    ///
    /// If `config.first_dealer` is not a seat (0..4).
    pub fn new(config: Config, mut rng: ChaCha8Rng) -> Game {
        let mut deck = Card::deck();
        deck.shuffle(&mut rng);
        Game::with_deck(config, deck, rng)
    }

    /// A new game whose first hand is dealt from `deck` (its first card on top); `rng`
    /// shuffles the later decks. For tests and analyses.
    ///
    /// # Panics
    ///
    /// If `deck` is not the 24 cards in some order, or `config.first_dealer` is not a seat.
    pub fn with_deck(config: Config, deck: Vec<Card>, rng: ChaCha8Rng) -> Game {
        let mut sorted = deck.clone();
        sorted.sort();
        let mut full = Card::deck();
        full.sort();
        assert_eq!(sorted, full, "a deck is the 24 cards");
        assert!(config.first_dealer < 4, "the dealer is a seat 0..4");
        let mut game = Game {
            config,
            rng,
            points: [0; 2],
            dealer: config.first_dealer,
            deals: 0,
            deal: Deal {
                hands: Default::default(),
                turned: deck[0],
                kitty: Vec::new(),
                played: Vec::new(),
                trump: None,
                maker: None,
                alone: None,
                tricks: [0; 2],
                finished: 0,
                leader: 0,
                trick: Vec::new(),
            },
            stage: Stage::Over,
            outcome: None,
            events: Vec::new(),
        };
        game.deal_from(deck);
        game
    }

    /// Sets both teams' points (for tests of the game's end; call before the first answer).
    pub fn with_points(mut self, points: [u32; 2]) -> Game {
        self.points = points;
        self
    }

    /// The configuration.
    pub fn config(&self) -> Config {
        self.config
    }

    /// Both teams' points.
    pub fn points(&self) -> [u32; 2] {
        self.points
    }

    /// The current dealer.
    pub fn dealer(&self) -> usize {
        self.dealer
    }

    /// Deals so far, the current one included (thrown-in ones count).
    pub fn deals(&self) -> u32 {
        self.deals
    }

    /// A seat's cards, in the order dealt (a picked-up card last).
    pub fn hand(&self, seat: usize) -> &[Card] {
        &self.deal.hands[seat]
    }

    /// The card turned up this deal.
    pub fn turned(&self) -> Card {
        self.deal.turned
    }

    /// Cards out of play this deal: the undealt ones and the dealer's discard.
    pub fn kitty(&self) -> &[Card] {
        &self.deal.kitty
    }

    /// Cards played to tricks this deal (the current trick included).
    pub fn played(&self) -> &[Card] {
        &self.deal.played
    }

    /// The trick on the table: the seat that led it, and its cards from the leader (`None`
    /// for a seat sitting out). A finished trick lies there until every seat has been told
    /// of it.
    pub fn table(&self) -> (usize, &[Option<Card>]) {
        match &self.stage {
            Stage::Report { leader, cards, .. } => (*leader, cards),
            _ => (self.deal.leader, &self.deal.trick),
        }
    }

    /// Trump, once made.
    pub fn trump(&self) -> Option<Suit> {
        self.deal.trump
    }

    /// The seat that made trump.
    pub fn maker(&self) -> Option<usize> {
        self.deal.maker
    }

    /// The seat going alone.
    pub fn alone(&self) -> Option<usize> {
        self.deal.alone
    }

    /// True if `seat` sits out this deal (its partner goes alone).
    pub fn sits_out(&self, seat: usize) -> bool {
        self.deal.sits_out(seat)
    }

    /// Tricks each team has taken this deal.
    pub fn tricks(&self) -> [u32; 2] {
        self.deal.tricks
    }

    /// How the game ended, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// True once the game is won or drawn.
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Every event so far, the first deal included.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The decision due, or `None` once the game is over.
    pub fn decision(&self) -> Option<Decision> {
        let dealer = self.dealer;
        let (seat, kind) = match &self.stage {
            Stage::Ordering(answers) => ((dealer + 1 + answers.len()) % 4, Kind::Order),
            Stage::Discard => (dealer, Kind::Discard),
            Stage::Naming(answers) => ((dealer + 1 + answers.len()) % 4, Kind::Name),
            Stage::Alone(answers) => {
                let maker = self.deal.maker?;
                let seat = if answers.is_empty() {
                    maker
                } else {
                    partner_of(maker)
                };
                (seat, Kind::Alone)
            }
            Stage::Play => ((self.deal.leader + self.deal.trick.len()) % 4, Kind::Play),
            Stage::Report { told, leader, .. } => ((leader + told) % 4, Kind::Trick),
            Stage::Over => return None,
        };
        Some(Decision { seat, kind })
    }

    /// The exact stdin text for the decision due (one item a line, each ending in `\n`):
    /// the hand, the team's points, the team's tricks this deal, the phase, and the phase's
    /// lines as the spec's table lists them. `None` once the game is over.
    pub fn input(&self) -> Option<String> {
        let Decision { seat, kind } = self.decision()?;
        let deal = &self.deal;
        // Written into one string, line by line: a referee builds this for every decision,
        // and a component referee pays for each allocation and formatter call.
        let mut text = String::with_capacity(96);
        let trump = |text: &mut String| {
            if let Some(s) = deal.trump {
                text.push(s.letter());
            }
            text.push('\n');
        };
        let tokens = |text: &mut String, answers: &[Answer]| {
            push_list(text, answers, |text, a| a.push_token(text));
            text.push('\n');
        };
        let trick = |text: &mut String, cards: &[Option<Card>]| {
            push_list(text, cards, |text, c| match c {
                Some(c) => c.push_to(text),
                None => text.push('p'),
            });
            text.push('\n');
        };
        if kind != Kind::Trick {
            push_cards(&mut text, &deal.hands[seat]);
        }
        let team = team_of(seat);
        let _ = writeln!(
            text,
            "\n{}\n{}\n{}",
            self.points[team],
            deal.tricks[team],
            kind.phase()
        );
        match &self.stage {
            Stage::Ordering(answers) => {
                deal.turned.push_to(&mut text);
                text.push('\n');
                tokens(&mut text, answers);
            }
            Stage::Discard => {
                deal.turned.push_to(&mut text);
                text.push('\n');
            }
            Stage::Naming(answers) => tokens(&mut text, answers),
            Stage::Alone(answers) => {
                trump(&mut text);
                tokens(&mut text, answers);
            }
            Stage::Play => {
                trump(&mut text);
                trick(&mut text, &deal.trick);
            }
            Stage::Report { told, cards, .. } => {
                let _ = writeln!(text, "{told}");
                trump(&mut text);
                trick(&mut text, cards);
            }
            Stage::Over => return None,
        }
        Some(text)
    }

    /// Every legal answer to the decision due (empty once over), in the hand's order for
    /// cards. A trick report's only answer is [`Answer::Nothing`].
    pub fn legal(&self) -> Vec<Answer> {
        let Some(decision) = self.decision() else {
            return Vec::new();
        };
        let deal = &self.deal;
        match decision.kind {
            Kind::Order => vec![Answer::OrderUp, Answer::Pass],
            Kind::Name => std::iter::once(Answer::Pass)
                .chain(
                    Suit::ALL
                        .into_iter()
                        .filter(|&s| s != deal.turned.suit)
                        .map(Answer::Name),
                )
                .collect(),
            Kind::Discard => deal.hands[decision.seat]
                .iter()
                .chain(std::iter::once(&deal.turned))
                .map(|&c| Answer::Discard(c))
                .collect(),
            Kind::Alone => vec![Answer::Alone(true), Answer::Alone(false)],
            Kind::Play => self
                .legal_cards(decision.seat)
                .into_iter()
                .map(Answer::Play)
                .collect(),
            Kind::Trick => vec![Answer::Nothing],
        }
    }

    /// The spec's default for the decision due: `p`, `p`, the first card in the hand, `n`,
    /// the first legal card in the hand, nothing. `None` once over.
    pub fn default_answer(&self) -> Option<Answer> {
        let decision = self.decision()?;
        let hand = &self.deal.hands[decision.seat];
        Some(match decision.kind {
            Kind::Order | Kind::Name => Answer::Pass,
            // Five cards in hand at a discard, so there is a first.
            Kind::Discard => Answer::Discard(hand.first().copied().unwrap_or(self.deal.turned)),
            Kind::Alone => Answer::Alone(false),
            Kind::Play => Answer::Play(*self.legal_cards(decision.seat).first()?),
            Kind::Trick => Answer::Nothing,
        })
    }

    /// Parses a bot's stdout as an answer to the decision due and checks it is legal. Any
    /// output answers a trick report. Never panics, whatever the bytes.
    pub fn parse(&self, stdout: &[u8]) -> Result<Answer, BadAnswer> {
        let Some(decision) = self.decision() else {
            return Err(BadAnswer::Empty);
        };
        if decision.kind == Kind::Trick {
            return Ok(Answer::Nothing);
        }
        let text = std::str::from_utf8(stdout).map_err(|_| BadAnswer::NotText)?;
        let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
        if text.is_empty() {
            return Err(BadAnswer::Empty);
        }
        let unrecognised = || BadAnswer::Unrecognised {
            kind: decision.kind,
            text: text.chars().take(QUOTE_LIMIT).collect(),
        };
        let answer = match (decision.kind, text) {
            (Kind::Order, "o") => Answer::OrderUp,
            (Kind::Order | Kind::Name, "p") => Answer::Pass,
            (Kind::Name, _) => {
                let mut chars = text.chars();
                match (chars.next().and_then(Suit::from_letter), chars.next()) {
                    (Some(suit), None) => Answer::Name(suit),
                    _ => return Err(unrecognised()),
                }
            }
            (Kind::Alone, "y") => Answer::Alone(true),
            (Kind::Alone, "n") => Answer::Alone(false),
            (Kind::Discard, _) => Answer::Discard(Card::parse(text).ok_or_else(unrecognised)?),
            (Kind::Play, _) => Answer::Play(Card::parse(text).ok_or_else(unrecognised)?),
            _ => return Err(unrecognised()),
        };
        self.check(decision, answer)?;
        Ok(answer)
    }

    /// Applies a legal answer to the decision due and returns what happened.
    pub fn apply(&mut self, answer: Answer) -> Result<Vec<Event>, RuleError> {
        let decision = self.decision().ok_or(RuleError::Over)?;
        if !answer.fits(decision.kind) {
            return Err(RuleError::WrongKind {
                expected: decision.kind,
                answer,
            });
        }
        self.check(decision, answer)?;
        let start = self.events.len();
        self.step(decision.seat, answer);
        Ok(self.events[start..].to_vec())
    }

    /// Applies a bot's stdout: its answer if valid, else the spec's default, logged with the
    /// reason. `None` once the game is over.
    pub fn respond(&mut self, stdout: &[u8]) -> Option<Response> {
        match self.parse(stdout) {
            Ok(answer) => {
                let events = self.apply(answer).ok()?;
                Some(Response {
                    answer,
                    rejected: None,
                    events,
                })
            }
            Err(bad) => {
                let mut response = self.respond_default(bad.to_string())?;
                response.rejected = Some(bad);
                Some(response)
            }
        }
    }

    /// Applies the spec's default for the decision due, logging `reason` (for an invocation
    /// that failed: trap, out of fuel, …). For a trick report, whose output is ignored, no
    /// [`Event::Defaulted`] is logged. `None` once the game is over.
    pub fn respond_default(&mut self, reason: impl Into<String>) -> Option<Response> {
        let decision = self.decision()?;
        let answer = self.default_answer()?;
        let mut events = Vec::new();
        if decision.kind.expects_answer() {
            let event = Event::Defaulted {
                seat: decision.seat,
                kind: decision.kind,
                answer,
                reason: reason.into(),
            };
            self.events.push(event.clone());
            events.push(event);
        }
        events.extend(self.apply(answer).ok()?);
        Some(Response {
            answer,
            rejected: None,
            events,
        })
    }

    /// The cards `seat` may play now.
    fn legal_cards(&self, seat: usize) -> Vec<Card> {
        let deal = &self.deal;
        match deal.trump {
            Some(trump) => legal_plays(
                &deal.hands[seat],
                deal.trick.first().copied().flatten(),
                trump,
            ),
            None => Vec::new(),
        }
    }

    /// Checks a typed answer's legality for `decision` (its kind already fits).
    fn check(&self, decision: Decision, answer: Answer) -> Result<(), BadAnswer> {
        let deal = &self.deal;
        let hand = &deal.hands[decision.seat];
        match answer {
            Answer::Name(suit) if suit == deal.turned.suit => Err(BadAnswer::TurnedSuit(suit)),
            Answer::Discard(card) if card != deal.turned && !hand.contains(&card) => {
                Err(BadAnswer::NotInHand(card))
            }
            Answer::Play(card) => {
                if !hand.contains(&card) {
                    return Err(BadAnswer::NotInHand(card));
                }
                if self.legal_cards(decision.seat).contains(&card) {
                    Ok(())
                } else {
                    let led = deal.trick.first().copied().flatten();
                    let led = match (led, deal.trump) {
                        (Some(led), Some(trump)) => led.suit_under(trump),
                        (Some(led), None) => led.suit,
                        _ => card.suit,
                    };
                    Err(BadAnswer::MustFollow { card, led })
                }
            }
            _ => Ok(()),
        }
    }

    /// Carries out a checked answer.
    fn step(&mut self, seat: usize, answer: Answer) {
        match std::mem::replace(&mut self.stage, Stage::Over) {
            Stage::Ordering(mut answers) => {
                let up = answer == Answer::OrderUp;
                let counts = up && self.deal.maker.is_none();
                if counts {
                    self.deal.maker = Some(seat);
                    self.deal.trump = Some(self.deal.turned.suit);
                }
                self.events.push(Event::Ordered { seat, up, counts });
                answers.push(answer);
                self.stage = if answers.len() < 4 {
                    Stage::Ordering(answers)
                } else if self.deal.maker.is_some() {
                    Stage::Discard
                } else {
                    Stage::Naming(Vec::new())
                };
            }
            Stage::Discard => {
                if let Answer::Discard(card) = answer {
                    let deal = &mut self.deal;
                    let turned = deal.turned;
                    deal.kitty.retain(|&c| c != turned);
                    deal.hands[seat].push(turned);
                    deal.hands[seat].retain(|&c| c != card);
                    deal.kitty.push(card);
                    self.events.push(Event::Discarded {
                        seat,
                        picked_up: turned,
                        card,
                    });
                }
                self.stage = Stage::Alone(Vec::new());
            }
            Stage::Naming(mut answers) => {
                let suit = match answer {
                    Answer::Name(suit) => Some(suit),
                    _ => None,
                };
                let counts = suit.is_some() && self.deal.maker.is_none();
                if counts {
                    self.deal.maker = Some(seat);
                    self.deal.trump = suit;
                }
                self.events.push(Event::Named { seat, suit, counts });
                answers.push(answer);
                if answers.len() < 4 {
                    self.stage = Stage::Naming(answers);
                } else if self.deal.maker.is_some() {
                    self.stage = Stage::Alone(Vec::new());
                } else {
                    self.events.push(Event::ThrownIn {
                        dealer: self.dealer,
                    });
                    self.next_deal();
                }
            }
            Stage::Alone(mut answers) => {
                let alone = answer == Answer::Alone(true);
                let counts = alone && self.deal.alone.is_none();
                if counts {
                    self.deal.alone = Some(seat);
                }
                self.events.push(Event::Alone {
                    seat,
                    alone,
                    counts,
                });
                answers.push(answer);
                if answers.len() < 2 {
                    self.stage = Stage::Alone(answers);
                } else {
                    let mut leader = (self.dealer + 1) % 4;
                    if self.deal.sits_out(leader) {
                        leader = (leader + 1) % 4;
                    }
                    self.deal.leader = leader;
                    self.deal.trick.clear();
                    self.stage = Stage::Play;
                }
            }
            Stage::Play => {
                if let Answer::Play(card) = answer {
                    self.play(seat, card);
                }
            }
            Stage::Report {
                told,
                leader,
                cards,
            } => {
                if told + 1 < 4 {
                    self.stage = Stage::Report {
                        told: told + 1,
                        leader,
                        cards,
                    };
                } else if self.deal.finished < TRICKS {
                    self.stage = Stage::Play;
                } else {
                    self.score();
                }
            }
            Stage::Over => {}
        }
    }

    /// Plays a checked card; completes the trick when all have played.
    fn play(&mut self, seat: usize, card: Card) {
        let deal = &mut self.deal;
        deal.hands[seat].retain(|&c| c != card);
        deal.played.push(card);
        deal.trick.push(Some(card));
        self.events.push(Event::Played { seat, card });
        // The partner of a lone player is skipped, shown as `p`.
        while deal.trick.len() < 4 && deal.sits_out((deal.leader + deal.trick.len()) % 4) {
            deal.trick.push(None);
        }
        if deal.trick.len() < 4 {
            self.stage = Stage::Play;
            return;
        }
        let trump = deal.trump.unwrap_or(card.suit);
        let position = trick_winner(&deal.trick, trump).unwrap_or(0);
        let leader = deal.leader;
        let winner = (leader + position) % 4;
        deal.tricks[team_of(winner)] += 1;
        deal.finished += 1;
        let cards = std::mem::take(&mut deal.trick);
        deal.leader = winner;
        self.events.push(Event::TrickWon {
            trick: deal.finished,
            leader,
            cards: cards.clone(),
            winner,
        });
        self.stage = Stage::Report {
            told: 0,
            leader,
            cards,
        };
    }

    /// Scores the finished deal; ends the game or deals the next.
    fn score(&mut self) {
        let deal = &self.deal;
        let Some(maker) = deal.maker else {
            self.next_deal();
            return;
        };
        let makers = team_of(maker);
        let taken = deal.tricks[makers];
        let (score, team, points) = match (taken, deal.alone.is_some()) {
            (TRICKS, true) => (Score::AloneMarch, makers, 4),
            (TRICKS, false) => (Score::March, makers, 2),
            (3.., _) => (Score::Point, makers, 1),
            _ => (Score::Euchre, 1 - makers, 2),
        };
        self.points[team] += points;
        self.events.push(Event::Scored {
            maker,
            alone: deal.alone,
            makers_tricks: taken,
            score,
            team,
            points,
            totals: self.points,
        });
        if self.points[team] >= self.config.target {
            self.outcome = Some(Outcome::Won { team });
            self.stage = Stage::Over;
            self.events.push(Event::GameWon {
                team,
                totals: self.points,
            });
        } else {
            self.next_deal();
        }
    }

    /// The next seat deals a freshly shuffled deck, unless the deal limit is reached.
    fn next_deal(&mut self) {
        if self.deals >= self.config.max_deals {
            self.outcome = Some(Outcome::Drawn);
            self.stage = Stage::Over;
            self.events.push(Event::Drawn {
                totals: self.points,
            });
            return;
        }
        self.dealer = (self.dealer + 1) % 4;
        let mut deck = Card::deck();
        deck.shuffle(&mut self.rng);
        self.deal_from(deck);
    }

    /// Deals `deck` (top first) the traditional way: from the dealer's left, packets of 3, 2,
    /// 3, 2, then 2, 3, 2, 3; the next card is turned up.
    fn deal_from(&mut self, deck: Vec<Card>) {
        let mut cards = deck.into_iter();
        let mut hands: [Vec<Card>; 4] = Default::default();
        for round in 0..2 {
            for i in 0..4 {
                let seat = (self.dealer + 1 + i) % 4;
                let packet = if (i + round) % 2 == 0 { 3 } else { 2 };
                hands[seat].extend(cards.by_ref().take(packet));
            }
        }
        let kitty: Vec<Card> = cards.collect();
        let turned = kitty[0];
        self.deals += 1;
        self.events.push(Event::Dealt {
            deal: self.deals,
            dealer: self.dealer,
            hands: hands.clone(),
            turned,
        });
        self.deal = Deal {
            hands,
            turned,
            kitty,
            played: Vec::new(),
            trump: None,
            maker: None,
            alone: None,
            tricks: [0; 2],
            finished: 0,
            leader: (self.dealer + 1) % 4,
            trick: Vec::new(),
        };
        self.stage = Stage::Ordering(Vec::new());
    }
}

#[cfg(test)]
mod tests;
