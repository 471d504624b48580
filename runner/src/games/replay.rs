//! Re-running one recorded decision: the match is played again from the start (a run is
//! deterministic, so every decision before the one asked for gets what it got the first
//! time), and that decision's exact inputs are captured as the player is called: its
//! arguments, stdin, folder, random seed, clock and limits. A new build of the bot can be
//! put in at that one decision, so the game reads its answer as it read the original's.
//!
//! Game-blind: it knows only [`Game`] and [`Player`].

use super::{Game, Player};
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::{Invocation, Report, Vfs};
use crate::tournament::{RunError, RunPlan};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

/// One decision as the player got it and as it went.
#[derive(Debug, Clone)]
pub struct Captured {
    /// The player that took it (the new build's name, when one was put in).
    pub player: String,
    /// What it got: arguments, stdin, random seed, clock and limits.
    pub invocation: Invocation,
    /// Its folder as it stood before the decision; `None` when the game gives it none.
    pub dir_before: Option<Vec<SnapshotEntry>>,
    /// Its folder as the decision left it.
    pub dir_after: Option<Vec<SnapshotEntry>>,
    /// How it went.
    pub report: Report,
}

/// What every player of a taped run shares: which call to capture, and what to put in
/// there.
pub(crate) struct Tape {
    /// The call to capture, counted over the whole run (every player, in call order).
    target: usize,
    /// The player that takes the target call instead of the recorded one.
    substitute: Option<Arc<dyn Player>>,
    calls: Mutex<usize>,
    captured: Mutex<Option<Captured>>,
}

impl Tape {
    /// `players`, each counting its calls on one new tape that captures call `target`
    /// (taken by `substitute`, when given).
    pub(crate) fn wrap(
        players: &[Arc<dyn Player>],
        target: usize,
        substitute: Option<Arc<dyn Player>>,
    ) -> (Vec<Arc<dyn Player>>, Arc<Tape>) {
        let tape = Arc::new(Tape {
            target,
            substitute,
            calls: Mutex::new(0),
            captured: Mutex::new(None),
        });
        let taped = players
            .iter()
            .map(|p| {
                Arc::new(Taped {
                    inner: p.clone(),
                    tape: tape.clone(),
                }) as Arc<dyn Player>
            })
            .collect();
        (taped, tape)
    }

    /// The calls made so far, and the captured one, if it was made.
    pub(crate) fn take(&self) -> (usize, Option<Captured>) {
        let calls = *self.calls.lock().unwrap_or_else(|e| e.into_inner());
        let captured = self
            .captured
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        (calls, captured)
    }
}

/// A player whose calls are counted on the shared tape.
struct Taped {
    inner: Arc<dyn Player>,
    tape: Arc<Tape>,
}

impl Player for Taped {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn invoke(&self, inv: &Invocation, mut dir: Option<&mut Vfs>) -> Report {
        let call = {
            let mut calls = self.tape.calls.lock().unwrap_or_else(|e| e.into_inner());
            *calls += 1;
            *calls - 1
        };
        if call != self.tape.target {
            return self.inner.invoke(inv, dir);
        }
        let player = self.tape.substitute.as_ref().unwrap_or(&self.inner);
        let dir_before = dir.as_deref().map(Vfs::snapshot);
        let report = player.invoke(inv, dir.as_deref_mut());
        let dir_after = dir.as_deref().map(Vfs::snapshot);
        *self.tape.captured.lock().unwrap_or_else(|e| e.into_inner()) = Some(Captured {
            player: player.name().to_string(),
            invocation: inv.clone(),
            dir_before,
            dir_after,
            report: report.clone(),
        });
        report
    }
}

/// What a replay gives back.
pub struct Replayed<R> {
    /// The decision asked for.
    pub decision: Captured,
    /// The match as it went this time (with the new build's answer, when one was put in).
    pub record: R,
}

/// Why a decision could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The run could not be planned or played.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The match was played but had fewer decisions than the one asked for.
    #[error("match {index} took {calls} decision(s) when re-played, fewer than asked for")]
    TooFew {
        /// The match.
        index: usize,
        /// The decisions counted.
        calls: usize,
    },
}

/// Re-play match `index` of a run and capture its decision `decision` (counted from 0 in
/// call order, over every player). Where the matches share state (a tournament-wide
/// folder), every match up to `index` is played, on one thread in match order, and
/// `earlier` must be the number of decisions taken in the matches before it. With
/// `substitute`, that player takes the decision instead of the one that took it in the run,
/// and the rest of the match goes on from its answer.
pub fn replay<G: Game>(
    game: &G,
    players: &[Arc<dyn Player>],
    opts: &G::Options,
    index: usize,
    decision: usize,
    earlier: usize,
    substitute: Option<Arc<dyn Player>>,
) -> Result<Replayed<G::Record>, ReplayError> {
    let attempt = |select: Option<BTreeSet<usize>>, offset: usize| {
        let (taped, tape) = Tape::wrap(players, offset + decision, substitute.clone());
        let plan = RunPlan {
            select,
            ..RunPlan::all()
        };
        // One worker: the calls are counted in the order the match makes them.
        let played = game.play(&taped, opts, 1, &|_, _| {}, plan)?;
        let (calls, captured) = tape.take();
        Ok::<_, RunError>((played, captured, calls.saturating_sub(offset)))
    };
    let (played, captured, calls) = match attempt(Some(BTreeSet::from([index])), 0) {
        Err(RunError::SharedState(_)) => {
            // Every match up to this one, in order; later ones are played too (a plan
            // cannot stop early), but the decision is captured by then.
            attempt(None, earlier)?
        }
        other => other?,
    };
    let record = played.into_iter().nth(index).flatten();
    match (captured, record) {
        (Some(decision), Some(record)) => Ok(Replayed { decision, record }),
        _ => Err(ReplayError::TooFew { index, calls }),
    }
}

/// Whether a decision's line in `invocations.jsonl` says it failed: the bot did not end
/// `ok`, or the game replaced its answer with a default (`failure`).
pub fn line_failed(line: &serde_json::Value) -> bool {
    line.pointer("/outcome/kind")
        .and_then(serde_json::Value::as_str)
        != Some("ok")
        || line.get("failure").is_some_and(|f| !f.is_null())
}

/// The game's reading of a decision as its line in `invocations.jsonl` records it: the
/// answer as read (`decision`, `answer`), the failure that replaced it, and the events it
/// caused.
pub fn line_reading(line: &serde_json::Value) -> Vec<String> {
    use serde_json::Value;
    let compact = |v: &Value| match v {
        Value::String(s) => format!("{s:?}"),
        other => other.to_string(),
    };
    let mut out = Vec::new();
    let Some(map) = line.as_object() else {
        return out;
    };
    for key in ["decision", "answer"] {
        if let Some(v) = map.get(key) {
            out.push(format!("{key}: {}", compact(v)));
        }
    }
    match map.get("failure").filter(|f| !f.is_null()) {
        Some(f) => out.push(format!("failure: {}", failure_text(f))),
        None => out.push("accepted as the bot gave it".into()),
    }
    if let Some(events) = map.get("events").and_then(Value::as_array) {
        out.extend(events.iter().map(|e| match e.as_str() {
            Some(s) => s.to_string(),
            None => e.to_string(),
        }));
    }
    out
}

/// A recorded failure or outcome (`{"kind": ..., "detail": ...}`, nested or not) in words:
/// `crash: exit: 3`.
pub fn failure_text(f: &serde_json::Value) -> String {
    use serde_json::Value;
    match f {
        Value::String(s) => s.clone(),
        Value::Object(map) => {
            let kind = map.get("kind").map(failure_text).unwrap_or_default();
            match map.get("detail").filter(|d| !d.is_null()) {
                Some(detail) => format!("{kind}: {}", failure_text(detail)),
                None => kind,
            }
        }
        other => other.to_string(),
    }
}

/// How the game read decision `k` of match `record`: its human log's words where it has
/// them ([`Game::decision_reading`]), else what the line records.
pub fn reading<G: Game>(
    game: &G,
    record: &G::Record,
    line: &serde_json::Value,
    k: usize,
) -> Vec<String> {
    let words = game.decision_reading(record, k);
    if words.is_empty() {
        line_reading(line)
    } else {
        words
    }
}
