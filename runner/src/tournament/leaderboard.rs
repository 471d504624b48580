//! The leaderboard every game reports: score, games, wins, forfeits by kind, fuel; and, for
//! games scored over several matches (Bank Heist's tournaments), each bot's per-match mean
//! and spread.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write;

/// Mean and standard deviation of a bot's score over the matches it played.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    /// Mean score per match.
    pub mean: f64,
    /// Sample standard deviation (0 for fewer than two matches).
    pub sd: f64,
}

impl Spread {
    /// The spread of `scores`; `None` when there are none.
    pub fn of(scores: &[f64]) -> Option<Spread> {
        if scores.is_empty() {
            return None;
        }
        let n = scores.len() as f64;
        let mean = scores.iter().sum::<f64>() / n;
        let sd = if scores.len() < 2 {
            0.0
        } else {
            (scores.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
        };
        Some(Spread { mean, sd })
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// One bot's line.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Bot name.
    pub bot: String,
    /// Points (Coup: wins; Bank Heist: credits summed over tournaments; Euchre: points).
    pub score: u64,
    /// Matches played (void matches excluded).
    pub games: u64,
    /// Matches won.
    pub wins: u64,
    /// Matches drawn.
    pub draws: u64,
    /// Forfeits (or, where failures cost no match, failures) by kind.
    pub forfeits: BTreeMap<String, u64>,
    /// Fuel used over the whole run.
    pub fuel: u64,
    /// Invocations over the whole run.
    pub invocations: u64,
    /// Points made over the run, for games that count points (Euchre).
    #[serde(skip_serializing_if = "is_zero", default)]
    pub points_for: u64,
    /// Points the opponents made against it.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub points_against: u64,
    /// The Bradley–Terry rating with its 95% interval (see [`super::ratings`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub rating: Option<super::ratings::Rating>,
    /// The score's mean and spread per match, for games that report it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub spread: Option<Spread>,
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

/// Which columns a game's leaderboard shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Columns {
    /// The score's name; `None` when the score is the win count (Coup), shown once.
    pub score: Option<String>,
    /// What a match is called (`games`, `tournaments`).
    pub matches: String,
    /// Show the per-match mean ± standard deviation.
    pub spread: bool,
    /// Show points for and against.
    pub points: bool,
}

impl Columns {
    /// Score = wins, per game (Coup).
    pub fn wins() -> Columns {
        Columns {
            score: None,
            matches: "games".into(),
            spread: false,
            points: false,
        }
    }

    /// Score = credits summed over tournaments, with their spread (Bank Heist).
    pub fn credits() -> Columns {
        Columns {
            score: Some("credits".into()),
            matches: "tourn.".into(),
            spread: true,
            points: false,
        }
    }

    /// Score = games won, with points for and against (Euchre).
    pub fn points() -> Columns {
        Columns {
            score: None,
            matches: "games".into(),
            spread: false,
            points: true,
        }
    }
}

impl Columns {
    /// What the leaderboard is ranked by: the named score per match, or matches won.
    pub fn basis(&self) -> super::ratings::Basis {
        if self.score.is_some() {
            super::ratings::Basis::Score
        } else {
            super::ratings::Basis::Wins
        }
    }
}

impl Default for Columns {
    fn default() -> Self {
        Columns::wins()
    }
}

/// The rows, best first: by score, then name, until [`super::results::rate`] ranks them by
/// their ratings (which is where every game's leaderboard ends).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The rows, best first.
    pub rows: Vec<Row>,
    /// What the table shows.
    #[serde(skip)]
    pub columns: Columns,
    /// A line printed under the table: why the ratings have no intervals, when they have none
    /// (see [`super::ratings::MIN_MATCHES`]).
    #[serde(skip)]
    pub note: Option<String>,
}

impl Leaderboard {
    /// Sort rows into leaderboard order.
    pub fn new(mut rows: Vec<Row>, columns: Columns) -> Self {
        rows.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.bot.cmp(&b.bot)));
        Leaderboard {
            rows,
            columns,
            note: None,
        }
    }

    /// A plain-text table for the terminal and the archive.
    pub fn render(&self) -> String {
        let c = &self.columns;
        let width = self
            .rows
            .iter()
            .map(|r| r.bot.len())
            .max()
            .unwrap_or(3)
            .max(3);
        // Where the rating is the mean score (see `Basis::Score`), the spread column says only
        // the standard deviation: the mean is the rating's.
        let mean_rated = c.basis() == super::ratings::Basis::Score
            && self.rows.iter().any(|r| r.rating.is_some());
        let spread_head = if mean_rated { "sd" } else { "mean ± sd" };
        let spread_cell = |r: &Row| {
            r.spread
                .map(|s| {
                    if mean_rated {
                        format!("{:.0}", s.sd)
                    } else {
                        format!("{:.0} ± {:.0}", s.mean, s.sd)
                    }
                })
                .unwrap_or_else(|| "-".into())
        };
        let spread_width = self
            .rows
            .iter()
            .map(|r| spread_cell(r).chars().count())
            .max()
            .unwrap_or(0)
            .max(spread_head.len());
        let mut out = String::new();
        let _ = write!(out, "{:>4}  {:<width$}", "rank", "bot");
        if let Some(score) = &c.score {
            let _ = write!(out, "  {score:>12}");
        }
        if c.spread {
            let _ = write!(out, "  {spread_head:>spread_width$}");
        }
        if c.points {
            let _ = write!(out, "  {:>8}  {:>8}", "pts for", "against");
        }
        let rated = self.rows.iter().any(|r| r.rating.is_some());
        // Elo ratings read in whole points; a mean score to one decimal.
        let digits = c.basis().digits();
        let rating_cell = |r: &Row| match r.rating {
            Some(x) => match (x.low, x.high) {
                (Some(low), Some(high)) => {
                    format!("{:.digits$} [{low:.digits$}, {high:.digits$}]", x.rating)
                }
                _ => format!("{:.digits$}", x.rating),
            },
            None => "-".to_string(),
        };
        let rating_width = self
            .rows
            .iter()
            .map(|r| rating_cell(r).chars().count())
            .max()
            .unwrap_or(0)
            .max(c.basis().heading(c.score.as_deref()).len() + " [95% CI]".len())
            .max(18);
        if rated {
            // Only a run with intervals heads the column with them (see `note`).
            let interval = self
                .rows
                .iter()
                .any(|r| r.rating.is_some_and(|x| x.low.is_some()));
            let name = c.basis().heading(c.score.as_deref());
            let head = if interval {
                format!("{name} [95% CI]")
            } else {
                name
            };
            let _ = write!(out, "  {head:>rating_width$}  {:>6}", "P>next");
        }
        let _ = writeln!(
            out,
            "  {:>6}  {:>6}  {:>7}  {:>12}  {:>10}  forfeits",
            "wins", c.matches, "win %", "fuel", "fuel/move"
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
            let _ = write!(out, "{:>4}  {:<width$}", i + 1, r.bot);
            if c.score.is_some() {
                let _ = write!(out, "  {:>12}", r.score);
            }
            if c.spread {
                let cell = spread_cell(r);
                let pad = spread_width.saturating_sub(cell.chars().count());
                let _ = write!(out, "  {}{cell}", " ".repeat(pad));
            }
            if c.points {
                let _ = write!(out, "  {:>8}  {:>8}", r.points_for, r.points_against);
            }
            if rated {
                let cell = rating_cell(r);
                let next = r
                    .rating
                    .and_then(|x| x.above_next)
                    .map_or("-".to_string(), |p| format!("{:.0}%", 100.0 * p));
                let _ = write!(out, "  {cell:>rating_width$}  {next:>6}");
            }
            let _ = writeln!(
                out,
                "  {:>6}  {:>6}  {:>6.1}%  {:>12}  {:>10}  {}",
                r.wins,
                r.games,
                100.0 * r.win_rate(),
                r.fuel,
                per_move,
                forfeits
            );
        }
        if let Some(note) = &self.note {
            let _ = writeln!(out, "{note}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_shows_the_game_s_columns() {
        let row = Row {
            bot: "lurker".into(),
            score: 482_000,
            games: 2,
            wins: 1,
            spread: Spread::of(&[241_000.0, 241_000.0]),
            ..Row::default()
        };
        let credits = Leaderboard::new(vec![row.clone()], Columns::credits()).render();
        assert!(credits.contains("credits") && credits.contains("mean ± sd"));
        assert!(credits.contains("482000") && credits.contains("241000 ± 0"));
        // Rated, the mean is the rating's column and the spread column keeps the deviation.
        let rated = Row {
            rating: Some(crate::tournament::ratings::Rating {
                rating: 241_000.0,
                low: None,
                high: None,
                above_next: None,
            }),
            ..row.clone()
        };
        let credits = Leaderboard::new(vec![rated], Columns::credits()).render();
        let head = credits.lines().next().unwrap();
        assert!(
            head.contains("mean credits") && !head.contains("mean ± sd"),
            "{credits}"
        );
        assert!(
            credits.contains("241000.0") && !credits.contains("± 0"),
            "{credits}"
        );
        let wins = Leaderboard::new(vec![row], Columns::wins()).render();
        assert!(!wins.contains("credits") && !wins.contains("mean"));
        assert!(wins.lines().next().unwrap().starts_with("rank  bot"));
    }

    #[test]
    fn a_rating_without_an_interval_stands_alone_and_the_note_says_why() {
        let rated = |low: Option<f64>| Row {
            bot: "lurker".into(),
            rating: Some(super::super::ratings::Rating {
                rating: 1600.0,
                low,
                high: low.map(|l| l + 100.0),
                above_next: None,
            }),
            ..Row::default()
        };
        let mut lb = Leaderboard::new(vec![rated(None)], Columns::wins());
        lb.note = Some("No 95% intervals or P>next: too few.".into());
        let text = lb.render();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].contains(" rating  P>next") && !lines[0].contains("95% CI"));
        assert!(
            lines[1].contains(" 1600 ") && !lines[1].contains('['),
            "{text}"
        );
        assert_eq!(lines.last(), Some(&"No 95% intervals or P>next: too few."));
        let lb = Leaderboard::new(vec![rated(Some(1550.0))], Columns::wins());
        let text = lb.render();
        assert!(text.contains("rating [95% CI]") && text.contains("1600 [1550, 1650]"));
        assert_eq!(text.lines().count(), 2);
    }
}
