//! What one match of a referee's game leaves: every decision, the human log, the results,
//! the directories. It goes to the journal as JSON and must come back identical.

use crate::games::str_list::StrList;
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::Outcome;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::sync::OnceLock;

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

/// Every decision of a match, in order: while the match makes them, a list of
/// [`InvocationRecord`]s; once it is over ([`Decisions::freeze`]), or as a store or a journal
/// kept them, each one's JSON text.
///
/// Why the text: a 100-bot ladder holds 99,000 matches (3 million decisions) until its
/// archive is written, and a new entry in it takes them all from the store. Their decisions
/// are needed only to be written out again, into `invocations.jsonl`, the journal and the
/// store. Held parsed, they took most of the 3.2 GB a re-ranking held, and parsing them a
/// good part of its time; held as text, they are written out as they are
/// ([`Decisions::write_lines`]). Whatever looks into them (a test, a replay) parses them on
/// first use.
#[derive(Clone, Default)]
pub struct Decisions {
    /// The decisions being made (empty once `kept` holds them).
    made: Vec<InvocationRecord>,
    /// The decisions as text.
    kept: Option<Kept>,
}

/// Decisions as text: each one's JSON object as serializing it writes it (compact), and the
/// list parsed once something asks for it. The text is written out as it is, whatever the
/// serializer's formatter: records go only to compact JSON (the journal, the store, the
/// archive's lines), where that is the same bytes.
#[derive(Clone)]
struct Kept {
    each: Vec<Box<RawValue>>,
    parsed: OnceLock<Vec<InvocationRecord>>,
}

impl Kept {
    /// The decisions parsed. Kept text is what serializing decisions wrote (the match, a
    /// store's or a journal's record), so it parses back; text that does not (a damaged
    /// file) shows no decisions here, and writing it out ([`Decisions::write_lines`]) is
    /// where it is refused.
    fn list(&self) -> &[InvocationRecord] {
        self.parsed.get_or_init(|| {
            self.each
                .iter()
                .map(|d| serde_json::from_str(d.get()))
                .collect::<Result<_, _>>()
                .unwrap_or_default()
        })
    }
}

impl From<Vec<InvocationRecord>> for Decisions {
    fn from(made: Vec<InvocationRecord>) -> Decisions {
        Decisions { made, kept: None }
    }
}

impl Decisions {
    /// No decisions yet.
    pub fn new() -> Decisions {
        Decisions::default()
    }

    /// The decisions as a list (kept ones parsed on first use).
    fn list(&self) -> &[InvocationRecord] {
        match &self.kept {
            None => &self.made,
            Some(kept) => kept.list(),
        }
    }

    /// The decisions as a list that can grow.
    fn made(&mut self) -> &mut Vec<InvocationRecord> {
        if let Some(kept) = self.kept.take() {
            kept.list();
            self.made = kept.parsed.into_inner().unwrap_or_default();
        }
        &mut self.made
    }

    /// Add a decision at the end.
    pub fn push(&mut self, d: InvocationRecord) {
        self.made().push(d);
    }

    /// The last decision, to change.
    pub fn last_mut(&mut self) -> Option<&mut InvocationRecord> {
        self.made().last_mut()
    }

    /// The match is over: keep each decision as its JSON text from now on (serialized once,
    /// here, where the journal, the store and the archive would each serialize it).
    pub fn freeze(&mut self) {
        if self.kept.is_some() {
            return;
        }
        // A decision always serializes (strings, numbers and a state that is JSON); were one
        // not to, the list stays as it is and the journal reports the error.
        let each: Result<Vec<Box<RawValue>>, _> = self
            .made
            .iter()
            .map(serde_json::value::to_raw_value)
            .collect();
        if let Ok(each) = each {
            self.made = Vec::new();
            self.kept = Some(Kept {
                each,
                parsed: OnceLock::new(),
            });
        }
    }

    /// Write each decision as a line of `invocations.jsonl`: its JSON object with the
    /// match's index first (`{"match":N,"n":...}`) and a line break. Kept decisions are
    /// copied as their text holds them, which gives the same bytes: the serializer wrote
    /// that text from the same fields.
    pub fn write_lines(&self, index: usize, buf: &mut Vec<u8>) -> serde_json::Result<()> {
        use serde::ser::Error;
        use std::io::Write;
        let Some(kept) = &self.kept else {
            for invocation in &self.made {
                serde_json::to_writer(&mut *buf, &LogLine { index, invocation })?;
                buf.push(b'\n');
            }
            return Ok(());
        };
        let refuse = |why: &str| serde_json::Error::custom(format!("match {index}: {why}"));
        for d in &kept.each {
            // A journal's line or a store's record never holds a line break (a compact
            // serializer writes none); one that did would split a line of the archive.
            if d.get().contains('\n') {
                return Err(refuse("a kept decision with a line break"));
            }
            let body = d
                .get()
                .strip_prefix('{')
                .ok_or_else(|| refuse("a kept decision that is not a JSON object"))?
                .trim_start();
            write!(buf, "{{\"match\":{index}").map_err(serde_json::Error::io)?;
            if body != "}" {
                buf.push(b',');
            }
            buf.extend_from_slice(body.as_bytes());
            buf.push(b'\n');
        }
        Ok(())
    }
}

impl std::ops::Deref for Decisions {
    type Target = [InvocationRecord];
    fn deref(&self) -> &[InvocationRecord] {
        self.list()
    }
}

impl PartialEq for Decisions {
    fn eq(&self, other: &Decisions) -> bool {
        self.list() == other.list()
    }
}

impl Eq for Decisions {}

impl std::fmt::Debug for Decisions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.list()).finish()
    }
}

impl Serialize for Decisions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.kept {
            None => self.made.serialize(s),
            // Written as it is: the same bytes as serializing the parsed list.
            Some(kept) => kept.each.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for Decisions {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Decisions, D::Error> {
        // Each decision is scanned once, for where it ends, and copied: not parsed.
        Ok(Decisions {
            made: Vec::new(),
            kept: Some(Kept {
                each: Vec::<Box<RawValue>>::deserialize(d)?,
                parsed: OnceLock::new(),
            }),
        })
    }
}

/// A line of `invocations.jsonl`: a decision, with its match's index first.
#[derive(Serialize)]
pub(crate) struct LogLine<'a> {
    #[serde(rename = "match")]
    pub(crate) index: usize,
    #[serde(flatten)]
    pub(crate) invocation: &'a InvocationRecord,
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
    pub log: Decisions,
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

    fn decision(n: u32, odd: bool) -> InvocationRecord {
        InvocationRecord {
            n,
            seat: n % 2,
            bot: "ann \u{e9}\"q\"".into(),
            phase: "move".into(),
            args: ["f.txt", "I\n\t\u{1}", "\u{2603}"].into_iter().collect(),
            stdin: if odd {
                "line\r\n".into()
            } else {
                String::new()
            },
            outcome: if odd { Outcome::Exit(3) } else { Outcome::Ok },
            stdout: "T\n".into(),
            answer: "T".into(),
            failure: odd.then(|| FailureRecord {
                kind: "bad answer".into(),
                detail: "\"x\\y\"".into(),
            }),
            fuel_used: u64::MAX - u64::from(n),
            stderr_tail: if odd { "panic\n".into() } else { String::new() },
            events: if odd {
                StrList::new()
            } else {
                ["ann takes 2", "\u{7f}"].into_iter().collect()
            },
            state: (!odd).then(|| State::parse(r#"{"coins":[1,2],"s":"\u00e9\n"}"#).unwrap()),
        }
    }

    #[test]
    fn kept_decisions_write_the_lines_the_made_ones_write() {
        let made = Decisions::from((0..5).map(|n| decision(n, n % 2 == 1)).collect::<Vec<_>>());
        let json = serde_json::to_string(&made).unwrap();
        // Read from bytes as the store and the journal read it.
        let kept: Decisions = serde_json::from_slice(json.as_bytes()).unwrap();
        assert!(kept.kept.is_some() && kept.made.is_empty());
        // A match's own decisions, once it is over, are kept the same way.
        let mut frozen = made.clone();
        frozen.freeze();
        assert!(frozen.kept.is_some() && frozen.made.is_empty());
        assert_eq!(serde_json::to_string(&frozen).unwrap(), json);
        // Written back, and as lines of the archive, to the same bytes.
        assert_eq!(serde_json::to_string(&kept).unwrap(), json);
        let lines = |d: &Decisions| {
            let mut buf = Vec::new();
            d.write_lines(7, &mut buf).unwrap();
            String::from_utf8(buf).unwrap()
        };
        let expect = lines(&made);
        assert_eq!(expect.lines().count(), 5);
        assert!(
            expect.starts_with(r#"{"match":7,"n":0,"seat":0,"#),
            "{expect}"
        );
        assert_eq!(lines(&kept), expect);
        assert_eq!(lines(&frozen), expect);
        // Looked into, kept decisions are the made ones; and they can grow.
        assert_eq!(kept, made);
        assert_eq!(frozen, made);
        assert_eq!(kept[4].fuel_used, u64::MAX - 4);
        let mut grown = kept.clone();
        grown.push(decision(5, false));
        assert_eq!(grown.len(), 6);
        assert!(grown.kept.is_none());
        grown.last_mut().unwrap().answer = "C".into();
        assert_eq!(grown[5].answer, "C");
        // None at all, and an empty object (no decision is one, but it stays valid JSON).
        let none: Decisions = serde_json::from_str("[]").unwrap();
        assert_eq!(lines(&none), "");
        assert_eq!(serde_json::to_string(&none).unwrap(), "[]");
        let empty: Decisions = serde_json::from_str("[{ }]").unwrap();
        assert_eq!(lines(&empty), "{\"match\":7}\n");
    }

    #[test]
    fn kept_decisions_that_would_break_the_archive_are_refused() {
        assert!(serde_json::from_str::<Decisions>(r#"{"n":1}"#).is_err());
        assert!(serde_json::from_str::<Decisions>("[{]").is_err());
        let write = |text: &str| {
            let d: Decisions = serde_json::from_str(text).unwrap();
            let mut buf = Vec::new();
            d.write_lines(0, &mut buf).map_err(|e| e.to_string())
        };
        assert!(write("[1]").unwrap_err().contains("not a JSON object"));
        assert!(write("[{\"n\":\n1}]").unwrap_err().contains("line break"));
        // Text of the wrong shape shows no decisions, and is written back as it was read.
        let wrong: Decisions = serde_json::from_str(r#"[{"n":"one"}]"#).unwrap();
        assert!(wrong.is_empty());
        assert!(serde_json::to_string(&wrong).is_ok());
    }

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
