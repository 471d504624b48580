//! What one match of a referee's game leaves: every decision, the human log, the results,
//! the directories. It goes to the journal as JSON and must come back identical.

use crate::games::str_list::StrList;
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// Why a decision was not taken as given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRecord {
    /// The kind counted on the leaderboard.
    pub kind: String,
    /// What was wrong.
    pub detail: String,
}

/// One decision, as the structured log keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvocationRecord {
    /// Decision number in the match, from 0.
    pub n: u32,
    /// The seat that decided.
    pub seat: u32,
    /// Its bot.
    pub bot: String,
    /// What kind of decision it was.
    pub phase: String,
    /// Its arguments after argv[0].
    #[serde(skip_serializing_if = "StrList::is_empty", default)]
    pub args: StrList,
    /// What it got on stdin (lossy UTF-8).
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub stdin: String,
    /// How the invocation ended.
    pub outcome: Outcome,
    /// What it printed (lossy UTF-8).
    pub stdout: String,
    /// The answer the referee took.
    pub answer: String,
    /// Why the decision failed, if it did.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub failure: Option<FailureRecord>,
    /// Fuel used.
    pub fuel_used: u64,
    /// The end of its stderr.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub stderr_tail: String,
    /// What happened because of it, for the replay.
    #[serde(skip_serializing_if = "StrList::is_empty", default)]
    pub events: StrList,
    /// The state of the game after it, as the referee showed it (a JSON object), for the
    /// replay's viewer.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub state: Option<State>,
}

/// The state of a game after a decision: a JSON object, kept as its JSON text and written
/// as it is. A record holds the one string, never the parsed tree (16 KiB of JSON can parse
/// into megabytes of values, and a match may show thousands of states), and writing a record
/// (the journal, the store, the archive) does not parse it again.
#[derive(Debug, Clone)]
pub struct State(Box<RawValue>);

impl State {
    /// The state `text` shows, if it is a JSON object. Text on one line is kept as the
    /// referee wrote it; text over several lines is compacted, so that a state never breaks
    /// a line of `invocations.jsonl` (a line break in JSON is only ever whitespace between
    /// tokens: inside a string it is escaped).
    pub fn parse(text: &str) -> Result<State, String> {
        // serde_json checks the syntax of raw text without its usual depth limit: keep every
        // reader of the archive (which may parse it into values) within one.
        if nesting(text) > MAX_STATE_DEPTH {
            return Err(format!(
                "a state nested deeper than {MAX_STATE_DEPTH} levels"
            ));
        }
        let not_json = |e: serde_json::Error| format!("a state that is not JSON: {e}");
        let raw = if text.contains(['\n', '\r']) {
            let value: serde_json::Value = serde_json::from_str(text).map_err(not_json)?;
            RawValue::from_string(value.to_string()).map_err(not_json)?
        } else {
            RawValue::from_string(text.to_string()).map_err(not_json)?
        };
        State::from_raw(raw)
    }

    /// The state of an object.
    pub fn from_value(value: serde_json::Value) -> Result<State, String> {
        let raw = RawValue::from_string(value.to_string()).map_err(|e| e.to_string())?;
        State::from_raw(raw)
    }

    fn from_raw(raw: Box<RawValue>) -> Result<State, String> {
        if !raw.get().trim_start().starts_with('{') {
            return Err("a state that is not a JSON object".into());
        }
        Ok(State(raw))
    }

    /// Its JSON text.
    pub fn as_str(&self) -> &str {
        self.0.get()
    }
}

/// How deep a state's arrays and objects may nest.
pub const MAX_STATE_DEPTH: usize = 64;

/// The deepest nesting of arrays and objects in JSON text (brackets inside strings aside).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for State {}

impl Serialize for State {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de> Deserialize<'de> for State {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<State, D::Error> {
        // Read as raw text: a record read back is not parsed into values either.
        State::from_raw(Box::<RawValue>::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// Everything about one played match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The bot in each seat.
    pub seats: Vec<String>,
    /// Each seat's score (empty for a void match).
    pub scores: Vec<u64>,
    /// Each seat's points for and against, when the game counts points.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub points: Vec<(u64, u64)>,
    /// The winning seats (empty: a draw).
    pub winners: Vec<u32>,
    /// Why the match is void: a host fault, or a referee fault (`referee fault: ...`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub void: Option<String>,
    /// The game's own account of the match (a JSON object; null when void).
    pub detail: serde_json::Value,
    /// Fuel used by each seat.
    pub fuel: Vec<u64>,
    /// Invocations of each seat.
    pub invocations: Vec<u32>,
    /// Failed decisions of each seat, by kind.
    pub failures: Vec<BTreeMap<String, u64>>,
    /// Every decision.
    pub log: Vec<InvocationRecord>,
    /// The human log.
    pub human_log: StrList,
    /// What each seat's directory held at the end (seats with an empty one left out).
    /// Empty with `--scratch tournament`, whose directories outlive the match.
    pub scratch: Vec<(u32, Vec<SnapshotEntry>)>,
    /// With `--scratch tournament`: the run-long directory of each seat whose bot played
    /// its last match here, as the run leaves it (seats with an empty one left out).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub kept: Vec<(u32, Vec<SnapshotEntry>)>,
}

/// The prefix of a void match's reason when the referee was at fault.
pub const REFEREE_FAULT: &str = "referee fault: ";

/// Whether a void match's reason names a referee fault (not a host fault).
pub fn is_referee_fault(reason: &str) -> bool {
    reason.starts_with(REFEREE_FAULT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_an_object_of_bounded_depth_kept_as_written() {
        assert_eq!(
            State::parse(r#"{"b":1,"a":[2]}"#).unwrap().as_str(),
            r#"{"b":1,"a":[2]}"#
        );
        // Over several lines: compacted, so that it never breaks a line of the archive.
        assert_eq!(
            State::parse("{\n \"a\": 1\n}").unwrap().as_str(),
            r#"{"a":1}"#
        );
        assert!(State::parse("[1]")
            .unwrap_err()
            .contains("not a JSON object"));
        assert!(State::parse("{} x").unwrap_err().contains("not JSON"));
        let deep = format!("{{\"x\":{}{}}}", "[".repeat(64), "]".repeat(64));
        assert!(State::parse(&deep).unwrap_err().contains("deeper than 64"));
        let ok = format!("{{\"x\":{}{}}}", "[".repeat(63), "]".repeat(63));
        assert!(State::parse(&ok).is_ok());
        // Brackets inside strings do not count.
        let quoted = format!("{{\"x\":\"{}\\\"{}\"}}", "[".repeat(100), "{".repeat(100));
        assert!(State::parse(&quoted).is_ok(), "{quoted}");
        // Written back as the same text, and read back equal.
        let s = State::parse(r#"{"b":1,"a":[2]}"#).unwrap();
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(json, r#"{"b":1,"a":[2]}"#);
        assert_eq!(serde_json::from_str::<State>(&json).unwrap(), s);
    }
}
