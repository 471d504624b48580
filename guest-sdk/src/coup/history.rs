//! The history file, split into turns and attributed write by write.
//!
//! Who wrote what follows from the arbiter's main loop: it invokes the two players strictly
//! in turn, one write per invocation, starting with the first player on an empty file. A
//! write is one character, except `I\n` and a card given up on one's own turn followed by
//! its `\n`. So each line is started by its actor, the writers alternate within it, the
//! line's `\n` is always the actor's, and the next line belongs to the other player. The
//! player who writes next (this bot) is whoever's turn the write count says it is.

use super::{Action, Card, Move};

/// A player, from the viewpoint of the bot reading the history.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// The bot that is running now.
    Me,
    /// Its opponent.
    Opponent,
}

impl Player {
    /// The other player.
    pub const fn other(self) -> Player {
        match self {
            Player::Me => Player::Opponent,
            Player::Opponent => Player::Me,
        }
    }
}

/// Seating: the first player writes the first character of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    /// Moves first; acts on lines 0, 2, 4, ...
    First,
    /// Moves second; acts on lines 1, 3, 5, ...
    Second,
}

/// One write in the history: who made which move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Event {
    /// Who wrote it.
    pub by: Player,
    /// What it was.
    pub mv: Move,
}

/// What a claim was backing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimKind {
    /// The claim made by taking this action.
    Action(Action),
    /// The claim made by blocking this action.
    Block(Action),
}

/// What became of a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClaimOutcome {
    /// Nobody has answered it yet, or a challenge of it is not yet resolved.
    Open,
    /// The other player answered without challenging it.
    Unchallenged,
    /// Challenged, and the claimant showed the card (it then went back to the deck and was
    /// replaced, except an Ambassador that proved an Exchange, which stays in hand).
    Proven,
    /// Challenged, and the claimant gave up a card instead: it did not hold the card.
    Caught,
}

/// A claim to hold a card, made by an action or a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Claim {
    /// Who claimed it.
    pub by: Player,
    /// The claimed card.
    pub card: Card,
    /// Which action or block made the claim.
    pub kind: ClaimKind,
    /// What happened to it.
    pub outcome: ClaimOutcome,
    /// Index of the turn (line) it was made in.
    pub turn: usize,
}

/// One turn: one line of the history, complete or in progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Index of the line in the history.
    pub index: usize,
    /// Whose turn it is (who wrote the capital letter).
    pub actor: Player,
    /// The writes, in order; the first is the action.
    pub events: Vec<Event>,
    /// The line's text, including its final `\n` if complete.
    pub text: String,
    /// Whether the line has ended with `\n`.
    pub complete: bool,
}

impl Turn {
    /// The turn's action.
    pub fn action(&self) -> Option<Action> {
        self.events.first().and_then(|e| e.mv.action())
    }

    /// The card the non-actor blocked with, if it blocked.
    pub fn block(&self) -> Option<Card> {
        self.events.iter().find_map(|e| match e.mv {
            Move::Block(card) if e.by != self.actor => Some(card),
            _ => None,
        })
    }

    /// Who challenged in this turn, if anyone did.
    pub fn challenger(&self) -> Option<Player> {
        self.events
            .iter()
            .find(|e| e.mv == Move::Challenge)
            .map(|e| e.by)
    }

    /// The claims made in this turn (the action's, then the block's).
    pub fn claims(&self) -> Vec<Claim> {
        let mut claims = Vec::new();
        let Some(action) = self.action() else {
            return claims;
        };
        for (i, event) in self.events.iter().enumerate() {
            let (card, kind) = match event.mv {
                Move::Block(card) => (card, ClaimKind::Block(action)),
                _ if i == 0 => match action.claim() {
                    Some(card) => (card, ClaimKind::Action(action)),
                    None => continue,
                },
                _ => continue,
            };
            // The answer to a claim is the very next write; a challenge is settled by the
            // claimant's write after that (reveal or give up a card).
            let outcome = match self.events.get(i + 1).map(|e| e.mv) {
                None => ClaimOutcome::Open,
                Some(Move::Challenge) => match self.events.get(i + 2).map(|e| e.mv) {
                    None => ClaimOutcome::Open,
                    Some(Move::Reveal(_)) => ClaimOutcome::Proven,
                    Some(_) => ClaimOutcome::Caught,
                },
                Some(_) => ClaimOutcome::Unchallenged,
            };
            claims.push(Claim {
                by: event.by,
                card,
                kind,
                outcome,
                turn: self.index,
            });
        }
        claims
    }

    /// Cards shown after challenges in this turn, and who showed them.
    pub fn reveals(&self) -> impl Iterator<Item = (Player, Card)> + '_ {
        self.events.iter().filter_map(|e| match e.mv {
            Move::Reveal(card) => Some((e.by, card)),
            _ => None,
        })
    }

    /// Cards lost in this turn, and who lost them.
    pub fn losses(&self) -> impl Iterator<Item = (Player, Card)> + '_ {
        self.events.iter().filter_map(|e| match e.mv {
            Move::Surrender(card) => Some((e.by, card)),
            _ => None,
        })
    }

    /// The last write of the turn.
    pub fn last(&self) -> Option<Event> {
        self.events.last().copied()
    }
}

/// A turn with absolute seats (0 = first player), before the reader's seat is known.
struct RawTurn {
    actor: usize,
    events: Vec<(usize, Move)>,
    text: String,
    complete: bool,
}

/// The parsed history, from the viewpoint of the player who writes next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    turns: Vec<Turn>,
    seat: Seat,
    writes: [usize; 2],
}

impl History {
    /// Parses the history file's content. The bot reading it is taken to be the player who
    /// writes next, as it always is when the arbiter invokes it.
    pub fn parse(text: &str) -> Result<History, String> {
        let chars: Vec<char> = text.chars().collect();
        // Parse with absolute seats (0 = first player) and convert once the next writer,
        // i.e. "me", is known at the end.
        let mut raw: Vec<RawTurn> = Vec::new();
        let mut writer = 0usize;
        let mut writes = [0usize; 2];
        let mut i = 0;
        while i < chars.len() {
            let actor = writer;
            let line_index = raw.len();
            let mut events = Vec::new();
            let mut line = String::new();
            let mut complete = false;
            while i < chars.len() {
                let c = chars[i];
                let mv = Move::from_char(c).ok_or_else(|| {
                    format!("line {}: unexpected character {c:?}", line_index + 1)
                })?;
                if events.is_empty() && mv.action().is_none() {
                    return Err(format!(
                        "line {}: a turn must start with an action letter, found {c:?}",
                        line_index + 1
                    ));
                }
                if !events.is_empty() && mv.action().is_some() {
                    return Err(format!(
                        "line {}: action letter {c:?} in the middle of a turn",
                        line_index + 1
                    ));
                }
                // Two-character writes: `I\n`, and the actor giving up a card on its own
                // turn, which always comes with the newline that ends the turn.
                let joined = matches!(mv, Move::Income)
                    || (matches!(mv, Move::Surrender(_)) && writer == actor);
                let width = match (joined, chars.get(i + 1)) {
                    (false, _) => 1,
                    (true, Some('\n')) => 2,
                    _ => {
                        return Err(format!(
                            "line {}: {c:?} by the player whose turn it is must be followed \
                             by a newline",
                            line_index + 1
                        ))
                    }
                };
                if mv == Move::EndTurn && writer != actor {
                    return Err(format!(
                        "line {}: newline written out of turn",
                        line_index + 1
                    ));
                }
                line.extend(&chars[i..i + width]);
                events.push((writer, mv));
                writes[writer] += 1;
                writer = 1 - writer;
                i += width;
                if chars[i - 1] == '\n' {
                    complete = true;
                    break;
                }
            }
            raw.push(RawTurn {
                actor,
                events,
                text: line,
                complete,
            });
        }
        let me = writer;
        let player = |seat: usize| {
            if seat == me {
                Player::Me
            } else {
                Player::Opponent
            }
        };
        let turns = raw
            .into_iter()
            .enumerate()
            .map(|(index, raw)| Turn {
                index,
                actor: player(raw.actor),
                events: raw
                    .events
                    .into_iter()
                    .map(|(by, mv)| Event { by: player(by), mv })
                    .collect(),
                text: raw.text,
                complete: raw.complete,
            })
            .collect();
        Ok(History {
            turns,
            seat: if me == 0 { Seat::First } else { Seat::Second },
            writes: [writes[me], writes[1 - me]],
        })
    }

    /// All turns, oldest first; the last may be in progress.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The turn in progress, if the history does not end at a turn boundary.
    pub fn current_turn(&self) -> Option<&Turn> {
        self.turns.last().filter(|t| !t.complete)
    }

    /// The text of the line in progress (empty at the start of a turn).
    pub fn current_line(&self) -> &str {
        self.current_turn().map_or("", |t| t.text.as_str())
    }

    /// The reader's seat.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// How many writes (invocations) `player` has made so far. The game is a draw after
    /// 100 each.
    pub fn writes(&self, player: Player) -> usize {
        match player {
            Player::Me => self.writes[0],
            Player::Opponent => self.writes[1],
        }
    }

    /// All claims by `player`, oldest first.
    pub fn claims(&self, player: Player) -> Vec<Claim> {
        self.turns
            .iter()
            .flat_map(|t| t.claims())
            .filter(|c| c.by == player)
            .collect()
    }

    /// Cards `player` revealed after challenges, oldest first.
    pub fn revealed(&self, player: Player) -> Vec<Card> {
        self.turns
            .iter()
            .flat_map(|t| t.reveals().collect::<Vec<_>>())
            .filter(|(p, _)| *p == player)
            .map(|(_, c)| c)
            .collect()
    }

    /// Cards `player` has lost (face up for good), oldest first.
    pub fn lost(&self, player: Player) -> Vec<Card> {
        self.turns
            .iter()
            .flat_map(|t| t.losses().collect::<Vec<_>>())
            .filter(|(p, _)| *p == player)
            .map(|(_, c)| c)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(by: Player, text: &str) -> Event {
        Event {
            by,
            mv: Move::from_text(text).unwrap(),
        }
    }

    #[test]
    fn empty_history_means_first_seat() {
        let h = History::parse("").unwrap();
        assert_eq!(h.seat(), Seat::First);
        assert!(h.turns().is_empty());
        assert_eq!(h.current_line(), "");
    }

    #[test]
    fn two_character_writes_count_once() {
        // I\n by first; Tq by second/first; '\n by second (its own turn).
        let h = History::parse("I\nTq'\n").unwrap();
        assert_eq!(h.seat(), Seat::First);
        let t = &h.turns()[1];
        assert_eq!(t.actor, Player::Opponent);
        assert_eq!(
            t.events,
            vec![
                ev(Player::Opponent, "T"),
                ev(Player::Me, "q"),
                ev(Player::Opponent, "'\n"),
            ]
        );
        assert_eq!(h.writes(Player::Me), 2);
        assert_eq!(h.writes(Player::Opponent), 2);
        assert_eq!(h.lost(Player::Opponent), vec![Card::Assassin]);
        assert_eq!(h.claims(Player::Opponent)[0].outcome, ClaimOutcome::Caught);
    }

    #[test]
    fn opponent_surrender_is_followed_by_a_separate_newline() {
        let h = History::parse("C=\n").unwrap();
        assert_eq!(h.seat(), Seat::Second);
        let t = &h.turns()[0];
        assert_eq!(t.actor, Player::Opponent);
        assert_eq!(
            t.events,
            vec![
                ev(Player::Opponent, "C"),
                ev(Player::Me, "="),
                ev(Player::Opponent, "\n"),
            ]
        );
        assert_eq!(h.lost(Player::Me), vec![Card::Contessa]);
    }

    #[test]
    fn malformed_histories_are_errors() {
        for bad in ["x", "p", "IF", "I", "FF", "Fp\np", "Fpp\n", "Tq'", "Tq'p"] {
            assert!(History::parse(bad).is_err(), "{bad:?}");
        }
    }
}
