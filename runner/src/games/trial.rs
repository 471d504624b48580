//! A bot's trial run: a short run of a game between copies of one bot, to see that it
//! answers at all, and legally, before a tournament counts on it (`koth check --game`).
//! Its first decision is captured with everything it got; the first decision that failed,
//! or the first forfeit, is what the trial reports against it.
//!
//! Game-blind: it knows only [`Game`] and [`Player`].

use super::replay::{failure_text, line_failed, reading, Captured, Tape};
use super::{Finished, Game, Player};
use crate::sandbox::{Invocation, Report, Vfs};
use crate::tournament::{RunError, RunPlan};
use std::sync::Arc;

/// How a trial went.
pub struct Trial {
    /// The bot's first decision, with what it got.
    pub first: Captured,
    /// The game's reading of it.
    pub first_reading: Vec<String>,
    /// The decisions the trial took, in all.
    pub decisions: usize,
    /// The matches the trial played.
    pub matches: usize,
    /// The players in it: the bot and its copies.
    pub copies: usize,
    /// What went wrong first, if anything did.
    pub problem: Option<Problem>,
}

/// A decision that failed, or a forfeit.
pub struct Problem {
    /// The match (its label) and the decision, in words.
    pub at: String,
    /// What went wrong, in words: the outcome, the failure, or the forfeit's kind.
    pub what: String,
    /// The game's reading of the decision.
    pub reading: Vec<String>,
    /// The end of the bot's stderr at that decision.
    pub stderr_tail: String,
    /// Whether it is the first decision (whose reading [`Trial::first_reading`] has).
    pub first: bool,
}

/// Why a trial could not be run.
#[derive(Debug, thiserror::Error)]
pub enum TrialError {
    /// The run could not be played.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The game's matches asked the bot for nothing.
    #[error("the game asked the bot for no decision")]
    NoDecision,
}

/// A copy of the bot under another name (a game seats distinct players).
struct Renamed {
    inner: Arc<dyn Player>,
    name: String,
}

impl Player for Renamed {
    fn name(&self) -> &str {
        &self.name
    }

    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        self.inner.invoke(inv, dir)
    }
}

/// Play every match `opts` makes of `copies` copies of `bot` (the first under its own
/// name, the others as `NAME-2`, `NAME-3`...), on one thread.
pub fn trial<G: Game>(
    game: &G,
    opts: &G::Options,
    bot: Arc<dyn Player>,
    copies: usize,
) -> Result<Trial, TrialError> {
    let players: Vec<Arc<dyn Player>> = (0..copies.max(1))
        .map(|i| {
            if i == 0 {
                bot.clone()
            } else {
                Arc::new(Renamed {
                    inner: bot.clone(),
                    name: format!("{}-{}", bot.name(), i + 1),
                }) as Arc<dyn Player>
            }
        })
        .collect();
    let (taped, tape) = Tape::wrap(&players, 0, None);
    let records: Vec<G::Record> = game
        .play(&taped, opts, 1, &|_, _| {}, RunPlan::all())?
        .into_iter()
        .flatten()
        .collect();
    let (decisions, first) = tape.take();
    let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
    let digests = crate::tournament::receipt::digests(&records, &Default::default())
        .map_err(RunError::from)?;
    let matches = records.len();
    let lines: Vec<Vec<serde_json::Value>> = records
        .iter()
        .enumerate()
        .map(|(i, r)| game.invocation_lines(i, r))
        .collect();
    let first_reading = match (records.first(), lines.first().and_then(|l| l.first())) {
        (Some(r), Some(line)) => reading(game, r, line, 0),
        _ => Vec::new(),
    };
    let Some(first) = first else {
        return Err(TrialError::NoDecision);
    };
    // Each match's last decision, as the game read it: where a match ended in a forfeit
    // with every decision `ok`, that is the answer the game refused.
    let last: Vec<(Vec<String>, String)> = records
        .iter()
        .zip(&lines)
        .map(|(r, l)| match l.last() {
            Some(line) => (
                reading(game, r, line, l.len() - 1),
                text_field(line, "stderr_tail"),
            ),
            None => (Vec::new(), String::new()),
        })
        .collect();
    let mut problem = None;
    for (m, r) in records.iter().enumerate() {
        if let Some(k) = lines[m].iter().position(line_failed) {
            let line = &lines[m][k];
            problem = Some(Problem {
                at: format!("match {m}, decision {k}"),
                what: failure_words(line),
                reading: reading(game, r, line, k),
                stderr_tail: text_field(line, "stderr_tail"),
                first: m == 0 && k == 0,
            });
            break;
        }
    }
    if problem.is_none() {
        let run = game.finish(names, opts, records, digests)?;
        // A forfeit with every decision ending ok: the game found an answer illegal.
        if let Some((m, s)) = run
            .summaries()
            .iter()
            .enumerate()
            .find(|(_, s)| !s.forfeits.is_empty() || s.void.is_some())
        {
            let what = match (&s.void, s.forfeits.first()) {
                (Some(why), _) => format!("the match was void: {why}"),
                (None, Some((_, kind, _))) => format!("forfeited: {kind}"),
                (None, None) => String::new(),
            };
            let (reading, stderr_tail) = last.get(m).cloned().unwrap_or_default();
            problem = Some(Problem {
                at: format!("match {m} ({}), its last decision", s.label),
                what,
                first: m == 0 && lines.first().is_some_and(|l| l.len() == 1),
                reading,
                stderr_tail,
            });
        }
    }
    Ok(Trial {
        first,
        first_reading,
        decisions,
        matches,
        copies: players.len(),
        problem,
    })
}

/// What a failed line says went wrong.
fn failure_words(line: &serde_json::Value) -> String {
    match line.get("failure").filter(|f| !f.is_null()) {
        Some(f) => failure_text(f),
        None => failure_text(&line["outcome"]),
    }
}

fn text_field(v: &serde_json::Value, key: &str) -> String {
    match v.get(key) {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}
