//! The leaderboard every game reports: score, games, win rate, forfeits by kind, fuel.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One bot's line.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    /// Bot name.
    pub bot: String,
    /// Points (in Coup: wins).
    pub score: u64,
    /// Games played (void games excluded).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Forfeits by kind (`trap`, `fuel`, `file`, `illegal move`...).
    pub forfeits: BTreeMap<String, u64>,
    /// Fuel used over the whole tournament.
    pub fuel: u64,
    /// Invocations over the whole tournament.
    pub invocations: u64,
}

impl Row {
    /// Wins over games, 0 when no game was played.
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }
}

/// Rows sorted by score (highest first), then by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The rows, best first.
    pub rows: Vec<Row>,
}

impl Leaderboard {
    /// Sort rows into leaderboard order.
    pub fn new(mut rows: Vec<Row>) -> Self {
        rows.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.bot.cmp(&b.bot)));
        Leaderboard { rows }
    }

    /// A plain-text table for the terminal and the archive.
    pub fn render(&self) -> String {
        let width = self
            .rows
            .iter()
            .map(|r| r.bot.len())
            .max()
            .unwrap_or(3)
            .max(3);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:>4}  {:<width$}  {:>6}  {:>6}  {:>7}  {:>12}  {:>10}  forfeits",
            "rank", "bot", "wins", "games", "win %", "fuel", "fuel/move"
        );
        for (i, r) in self.rows.iter().enumerate() {
            let forfeits = if r.forfeits.is_empty() {
                "-".to_string()
            } else {
                r.forfeits
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let per_move = r.fuel.checked_div(r.invocations).unwrap_or(0);
            let _ = writeln!(
                out,
                "{:>4}  {:<width$}  {:>6}  {:>6}  {:>6.1}%  {:>12}  {:>10}  {}",
                i + 1,
                r.bot,
                r.wins,
                r.games,
                100.0 * r.win_rate(),
                r.fuel,
                per_move,
                forfeits
            );
        }
        out
    }
}
