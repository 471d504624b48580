//! Write koth referees in Rust: a game as a plugin.
//!
//! A referee describes its game ([`Referee::describe`]) and plays one match at a time
//! ([`Referee::play`]) through a [`Host`]: it asks seats for decisions, records how it read
//! each one, keeps a human log, and reads and writes the seats' directories. The types
//! mirror `wit/referee.wit` (package `koth:game`) one for one; that file documents them.
//!
//! The same referee runs two ways, with the same results:
//! - built into koth, natively (koth's own Euchre is such a referee);
//! - as a WebAssembly component of the `koth:game/referee` world, which koth runs sandboxed
//!   like a bot: build the crate for `wasm32-wasip2` with this crate's `guest` feature and
//!   call [`export_referee!`] once.
//!
//! [`manager::Manager`] does what a turn-based referee does around its rules: a decision
//! read with the game's parser, the default move and a counted failure where the bot fails,
//! a seat out of the game past a limit, simultaneous moves.
//!
//! Every host call returns `Result<_, Abort>`: an `Err` means koth has ended the match (a
//! host fault, or a referee fault such as asking a seat that does not exist); pass it on
//! with `?`. A component referee never sees one: koth stops it on the spot instead.

#![warn(missing_docs)]

#[cfg(feature = "guest")]
pub mod guest;
pub mod manager;

/// A value of one of the referee's options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// `true` or `false`.
    Flag(bool),
    /// A whole number.
    Integer(i64),
    /// Text.
    Text(String),
}

/// One option the referee takes (`koth play ... --opt NAME=VALUE`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionSpec {
    /// Lowercase letters, digits and `-`, starting with a letter.
    pub name: String,
    /// One line for the host.
    pub description: String,
    /// The default, which also fixes the option's type.
    pub default: Value,
    /// Smallest accepted integer.
    pub min: Option<i64>,
    /// Largest accepted integer.
    pub max: Option<i64>,
    /// The accepted texts (empty: any).
    pub choices: Vec<String>,
}

/// How many seats a match has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seating {
    /// This many seats in every match.
    Fixed(u32),
    /// One seat per bot of the run.
    Everyone,
}

/// How koth fills a team's seats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Partners {
    /// A team is one bot, each seat a separate copy of it.
    Copies,
    /// Every seat its own bot, drawn at random for each match.
    Random,
}

/// How the matches of a run are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Every ordered pair of two distinct bots, once per round.
    OrderedPairs,
    /// Every set of k distinct bots, once per round.
    Tables,
    /// Every bot in every match, one match per round.
    AllPlayAll,
}

/// Each seat's directory quota.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Directory {
    /// Bytes of file content in all.
    pub bytes: u64,
    /// Files and folders in all.
    pub nodes: u32,
}

/// How the leaderboard reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scoring {
    /// The score's name, or `None` when the score is the number of matches won.
    pub score_name: Option<String>,
    /// What one match is called, in the plural.
    pub matches: String,
    /// Show each bot's mean score per match and its spread.
    pub spread: bool,
    /// Show points for and against.
    pub points: bool,
}

/// What the referee is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Description {
    /// The game's name: lowercase words joined by `-`.
    pub name: String,
    /// One line about the game.
    pub summary: String,
    /// Seats per match.
    pub seating: Seating,
    /// Each seat's short name (empty: numbers from 0).
    pub seat_names: Vec<String>,
    /// Teams as lists of seats; empty when every seat plays for itself.
    pub teams: Vec<Vec<u32>>,
    /// The ways teams may be filled, the first the default.
    pub partners: Vec<Partners>,
    /// The formats supported, the first the default.
    pub formats: Vec<Format>,
    /// Rounds by default.
    pub rounds: u32,
    /// Whether paired (duplicate) matches make sense.
    pub paired: bool,
    /// Each seat's directory, or `None`: no files at all.
    pub directory: Option<Directory>,
    /// The options.
    pub options: Vec<OptionSpec>,
    /// How the leaderboard reads.
    pub scoring: Scoring,
}

/// One seat of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The bot's name.
    pub bot: String,
    /// Its team, or its own index without teams.
    pub team: u32,
}

/// One match to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSetup {
    /// Which round of its pairing, from 0.
    pub round: u32,
    /// Whether the run is paired.
    pub paired: bool,
    /// The seats, in order.
    pub seats: Vec<Seat>,
    /// Every declared option, in declared order, defaults filled in.
    pub options: Vec<(String, Value)>,
    /// The match's seed.
    pub seed: u64,
}

impl MatchSetup {
    /// The option named `name`.
    pub fn option(&self, name: &str) -> Option<&Value> {
        self.options.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// The integer option named `name` (`None` if absent or of another type).
    pub fn integer(&self, name: &str) -> Option<i64> {
        match self.option(name) {
            Some(Value::Integer(i)) => Some(*i),
            _ => None,
        }
    }

    /// The flag option named `name`.
    pub fn flag(&self, name: &str) -> Option<bool> {
        match self.option(name) {
            Some(Value::Flag(b)) => Some(*b),
            _ => None,
        }
    }

    /// The text option named `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.option(name) {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        }
    }
}

/// A decision a seat is asked to take.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct DecisionRequest {
    /// Which seat decides.
    pub seat: u32,
    /// What kind of decision this is.
    pub phase: String,
    /// Arguments after argv[0].
    pub args: Vec<String>,
    /// Standard input.
    pub stdin: Vec<u8>,
}

/// How an invocation ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0, or `_start` returned.
    Ok,
    /// A non-zero exit status.
    Exit(u32),
    /// A trap, by kind.
    Trap(String),
    /// Out of fuel.
    OutOfFuel,
    /// Out of memory.
    OutOfMemory,
    /// Stdout past its cap.
    OutputLimit,
    /// Another sandbox limit.
    LimitExceeded,
}

impl Outcome {
    /// Whether the invocation ended `ok`.
    pub fn is_ok(&self) -> bool {
        matches!(self, Outcome::Ok)
    }

    /// The short kind a failed invocation is counted under on the leaderboard (`exit`,
    /// `trap`, `fuel`, `memory`, `output`, `limit`), as the built-in games count them.
    pub fn kind(&self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Exit(_) => "exit",
            Outcome::Trap(_) => "trap",
            Outcome::OutOfFuel => "fuel",
            Outcome::OutOfMemory => "memory",
            Outcome::OutputLimit => "output",
            Outcome::LimitExceeded => "limit",
        }
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Ok => f.write_str("ok"),
            Outcome::Exit(n) => write!(f, "exit({n})"),
            Outcome::Trap(k) => write!(f, "trap({k})"),
            Outcome::OutOfFuel => f.write_str("out of fuel"),
            Outcome::OutOfMemory => f.write_str("out of memory"),
            Outcome::OutputLimit => f.write_str("output limit"),
            Outcome::LimitExceeded => f.write_str("limit exceeded"),
        }
    }
}

/// What a decision gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionReport {
    /// How the invocation ended.
    pub outcome: Outcome,
    /// What the bot printed.
    pub stdout: Vec<u8>,
    /// The end of its stderr.
    pub stderr_tail: String,
    /// Fuel it used.
    pub fuel: u64,
}

/// Why a decision was not taken as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// A short stable kind, counted on the leaderboard.
    pub kind: String,
    /// What exactly was wrong.
    pub detail: String,
}

/// How the referee read the last decision.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Verdict {
    /// The answer taken; empty when there is none.
    pub answer: String,
    /// Set when the decision failed.
    pub failure: Option<Failure>,
    /// What happened because of it, one line each.
    pub events: Vec<String>,
}

/// One seat's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SeatResult {
    /// Its score in this match.
    pub score: u64,
    /// Points its side made.
    pub points_for: u64,
    /// Points made against its side.
    pub points_against: u64,
}

/// How a match ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchResult {
    /// One per seat, in seat order.
    pub seats: Vec<SeatResult>,
    /// The winning seats; empty for a draw.
    pub winners: Vec<u32>,
    /// The game's own account of the match, a JSON object.
    pub detail: String,
}

/// koth has ended the match: pass it on with `?`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Abort(String);

impl Abort {
    /// For hosts: end the match for `why`.
    pub fn new(why: impl Into<String>) -> Abort {
        Abort(why.into())
    }

    /// Why the match ended.
    pub fn reason(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Abort {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the match was ended: {}", self.0)
    }
}

impl std::error::Error for Abort {}

/// What koth gives a referee during a match.
pub trait Host {
    /// Ask a seat for one decision.
    fn decide(&mut self, request: DecisionRequest) -> Result<DecisionReport, Abort>;
    /// Record how the last decision was read.
    fn judge(&mut self, verdict: Verdict) -> Result<(), Abort>;
    /// Record the state of the game after the decision just asked, a JSON object, for the
    /// replay's viewer (at most once per decision). Optional for a referee; a host that
    /// keeps no states (a test's) may ignore it, as this default does.
    fn show(&mut self, state: &str) -> Result<(), Abort> {
        let _ = state;
        Ok(())
    }
    /// Add a line to the human log.
    fn log(&mut self, line: &str) -> Result<(), Abort>;
    /// A file of a seat's directory, if there is one (a symbolic link is not one).
    fn read_file(&mut self, seat: u32, path: &str) -> Result<Option<Vec<u8>>, Abort>;
    /// Create or replace a file in a seat's directory.
    fn write_file(&mut self, seat: u32, path: &str, data: &[u8]) -> Result<(), Abort>;
    /// Remove a file from a seat's directory; false if there was none.
    fn remove_file(&mut self, seat: u32, path: &str) -> Result<bool, Abort>;
    /// Every file in a seat's directory, sorted, with its size.
    fn list_files(&mut self, seat: u32) -> Result<Vec<(String, u64)>, Abort>;
    /// The next `len` bytes of the match's random stream.
    fn random(&mut self, len: u32) -> Result<Vec<u8>, Abort>;
}

/// A game's referee.
pub trait Referee {
    /// What the game is.
    fn describe(&self) -> Description;
    /// Play one match to its end.
    fn play(&self, setup: &MatchSetup, host: &mut dyn Host) -> Result<MatchResult, Abort>;
    /// The game's protocol for bot authors, as plain text (`koth check REF.wasm` prints
    /// it); empty for none. See `pages` in `wit/referee.wit` for its limits.
    fn protocol(&self) -> String {
        String::new()
    }
    /// The game's own replay viewer: JavaScript run in a sandboxed frame and posted each
    /// state; empty for none. See `pages` in `wit/referee.wit` and the guide's page on
    /// your own game.
    fn viewer(&self) -> String {
        String::new()
    }

    /// Whether the game makes sense with each bot's directory kept for the whole run
    /// (`--scratch tournament`): the bot finds what it wrote in its earlier matches. A
    /// referee that says so must remove what it placed in a directory for one match before
    /// it returns. Match-long directories by default.
    fn per_bot_scratch(&self) -> bool {
        false
    }
}

/// Lines of the human log gathered for one [`Host::log`] call. koth's log joins entries with
/// line breaks, so one call with several lines logs what as many calls would, and a
/// component referee pays for each call into the host.
#[derive(Debug, Default)]
pub struct LogLines(String);

impl LogLines {
    /// Add a line.
    pub fn push(&mut self, line: &str) {
        self.line(|l| l.push_str(line));
    }

    /// Add a line written in place by `write` (no string of its own to allocate and copy).
    pub fn line(&mut self, write: impl FnOnce(&mut String)) {
        write(&mut self.0);
        self.0.push('\n');
    }

    /// Pass the lines added since the last flush to the host, in one call; none, no call.
    pub fn flush(&mut self, host: &mut dyn Host) -> Result<(), Abort> {
        if self.0.pop().is_some() {
            host.log(&self.0)?;
            self.0.clear();
        }
        Ok(())
    }
}

/// Quote `s` as a JSON string, for a match's `detail` (which must be a JSON object):
/// referees need no JSON library for the usual flat objects.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_what_json_requires() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(json_string("N & S"), "\"N & S\"");
    }

    #[test]
    fn options_are_found_by_name_and_type() {
        let setup = MatchSetup {
            round: 0,
            paired: false,
            seats: Vec::new(),
            options: vec![
                ("target".into(), Value::Integer(10)),
                ("loud".into(), Value::Flag(true)),
                ("mode".into(), Value::Text("x".into())),
            ],
            seed: 1,
        };
        assert_eq!(setup.integer("target"), Some(10));
        assert_eq!(setup.flag("loud"), Some(true));
        assert_eq!(setup.text("mode"), Some("x"));
        assert_eq!(setup.integer("loud"), None);
        assert_eq!(setup.option("absent"), None);
    }
}
