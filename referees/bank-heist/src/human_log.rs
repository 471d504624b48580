//! The seed contest's human log, from the rules' events: `#####GAME n: p players######`,
//! the bets of round 1, the answers of round 2, each heist's result and the standings. Rabble
//! are never named. A decision the rules could not read adds one line in parentheses.

use koth_rules::bank_heist::Event;
use std::fmt::Write as _;

/// The human log of one tournament, written as the events come and handed out in pieces
/// ([`HumanLog::take`]): each piece is one or more lines, so a referee passes the host one
/// string per game instead of one per line.
#[derive(Debug)]
pub struct HumanLog<'a> {
    names: &'a [&'a str],
    out: String,
}

impl<'a> HumanLog<'a> {
    /// A log naming bot `i` as `names[i]`.
    pub fn new(names: &'a [&'a str]) -> Self {
        HumanLog {
            names,
            out: String::new(),
        }
    }

    fn name(&self, bot: usize) -> &'a str {
        self.names.get(bot).copied().unwrap_or("?")
    }

    /// The lines written since the last call, without the line break that ends the last
    /// (a log's lines are joined by line breaks); `None` when there are none.
    pub fn take(&mut self) -> Option<String> {
        if self.out.is_empty() {
            return None;
        }
        let mut text = std::mem::take(&mut self.out);
        text.pop();
        Some(text)
    }

    /// Everything written so far, each line ended by a line break: the whole log, when
    /// nothing was taken.
    pub fn into_text(self) -> String {
        self.out
    }

    /// A decision of `bot` the rules could not read (`why`), and what it counted as.
    pub fn failure(&mut self, bot: usize, why: &str, decision: &str) {
        let name = self.name(bot);
        let _ = writeln!(self.out, "({name}: {why}; counted as {decision})");
    }

    /// A line of the host's own (a tournament made void).
    pub fn line(&mut self, text: &str) {
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// The lines of `events`.
    pub fn events(&mut self, events: &[Event]) {
        for e in events {
            match e {
                Event::GameStart { game, players } => {
                    let _ = writeln!(
                        self.out,
                        "#####GAME {game}: {players} players######\n\nRound 1:"
                    );
                }
                Event::Bet { bot, amount } => {
                    let _ = writeln!(self.out, "{} bet {amount}.", self.name(*bot));
                }
                Event::RoundTwo { .. } => self.out.push_str("\nRound 2\n"),
                Event::Decided { bot, answer } => {
                    let _ = writeln!(
                        self.out,
                        "{} decided to {}.",
                        self.name(*bot),
                        answer.as_str()
                    );
                }
                Event::Results => self.out.push_str("\nResults\n"),
                Event::Heist { bot, gain: None } => {
                    let _ = writeln!(self.out, "{} failed. :(", self.name(*bot));
                }
                Event::Heist { bot, gain: Some(g) } => {
                    let _ = writeln!(
                        self.out,
                        "{} was successful, and may gain ¥{g}",
                        self.name(*bot)
                    );
                }
                Event::Standings { credits } => self.standings(credits),
            }
        }
    }

    /// `Results:`, then every bot ranked by credits (ties by name), then a blank line.
    fn standings(&mut self, credits: &[u64]) {
        let mut order: Vec<usize> = (0..credits.len()).collect();
        order.sort_by(|&a, &b| {
            credits[b]
                .cmp(&credits[a])
                .then_with(|| self.name(a).cmp(self.name(b)))
        });
        self.out.push_str("\nResults:");
        for (rank, &b) in order.iter().enumerate() {
            let _ = write!(self.out, "\n{rank}. {}: {}", self.name(b), credits[b]);
        }
        self.out.push_str("\n\n");
    }
}
