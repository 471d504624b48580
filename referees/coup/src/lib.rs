//! Coup as a koth referee (`docs/games/coup.md`): the game of the `koth-rules` crate played
//! through a [`koth_referee::Host`], one invocation per decision, through the original
//! contest's file protocol.
//!
//! The same referee runs two ways: as a WebAssembly component (`referees/coup/component`,
//! played by `koth play coup_referee.wasm`), and natively, as `koth coup` plays it. It plays
//! the games of the built-in Coup driver that came before it move for move, given the same
//! deck, and koth re-plays that driver's archives through it (`tests/tests/legacy_archives.rs`).
//!
//! What it does is what the driver does: before each decision it writes the canonical
//! history into the mover's directory, asks with the arbiter's argv, reads the file back,
//! holds the bot to the file rule (the old content plus exactly one legal action) and reads
//! an Exchange's choice from stdout. Any failure forfeits the game. Each verdict's answer is
//! the text the bot appended; the match's detail keeps the final history, so an archive
//! holds every field a verifier needs: argv, appended text, history.
//!
//! A verdict carries no events and the referee shows no board: the human log holds every
//! event, and the board after each decision follows from the match's seed and the answers,
//! which koth's report deals again (`runner/src/report/board.rs`). That keeps a decision's
//! record as small as the built-in driver's (the events and a board on every decision had
//! made `invocations.jsonl.zst` 1.7 times the size).

#![warn(missing_docs)]

use koth_referee::{
    json_string, Abort, DecisionReport, DecisionRequest, Description, Directory, Failure, Format,
    Host, LogLines, MatchResult, MatchSetup, Referee, Scoring, SeatResult, Seating, Verdict,
};
use koth_rules::coup::{Event, Foul, Game, Step, WinReason};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The game's name in manifests and on the command line.
pub const NAME: &str = "coup";

/// Rounds of the round robin unless `--rounds` says otherwise.
pub const ROUNDS: u32 = 10;

/// Bytes of file content a bot's directory may hold (koth's default cap).
pub const SCRATCH_BYTES: u64 = 1 << 20;

/// Files and folders a bot's directory may hold (koth's default cap).
pub const SCRATCH_NODES: u32 = 64;

/// Bytes of a forfeiting bot's stderr the human log quotes.
const STDERR_QUOTE: usize = 400;

/// Coup's referee.
#[derive(Debug, Clone, Copy, Default)]
pub struct CoupReferee;

impl Referee for CoupReferee {
    fn protocol(&self) -> String {
        include_str!("protocol.txt").into()
    }

    /// Coup may keep each bot's folder for the whole run, as the original contest did: the
    /// referee takes each game's history file out of both folders when the game ends.
    fn per_bot_scratch(&self) -> bool {
        true
    }

    fn describe(&self) -> Description {
        Description {
            name: NAME.into(),
            summary: "Coup: two players, the original contest's history-file protocol; any \
                      failure forfeits the game"
                .into(),
            seating: Seating::Fixed(2),
            seat_names: Vec::new(),
            teams: Vec::new(),
            partners: Vec::new(),
            formats: vec![Format::OrderedPairs],
            rounds: ROUNDS,
            paired: true,
            directory: Some(Directory {
                bytes: SCRATCH_BYTES,
                nodes: SCRATCH_NODES,
            }),
            options: Vec::new(),
            scoring: Scoring {
                score_name: None,
                matches: "games".into(),
                spread: false,
                points: false,
            },
        }
    }

    fn play(&self, setup: &MatchSetup, host: &mut dyn Host) -> Result<MatchResult, Abort> {
        let [first, second] = setup.seats.as_slice() else {
            return Err(Abort::new(format!(
                "Coup seats two, not {}",
                setup.seats.len()
            )));
        };
        let names = [first.bot.as_str(), second.bot.as_str()];
        let file = history_file(names, setup.round);
        // The match's seed shuffles the deck: paired twins share it, so they share the deal.
        let mut game = Game::new(ChaCha8Rng::seed_from_u64(setup.seed));
        // The human log's lines go to the host in one string before each decision (and at
        // the end), not one call each: a component referee's host calls are its cost.
        let mut log = LogLines::default();
        log.push(&format!("--- {} vs. {} ({file})", names[0], names[1]));
        let mut decided = Step::Continue;
        let end = loop {
            if game.is_over() {
                break End::Decided;
            }
            let prompt = game.prompt();
            let seat = prompt.seat;
            let before = game.history().to_string();
            host.write_file(seat as u32, &file, before.as_bytes())?;
            let phase = if prompt.exchange { "exchange" } else { "move" };
            // The prompt is spent here: its strings move into the arguments (each copy is an
            // allocation, and a component referee pays for its allocator).
            let mut args = Vec::with_capacity(4 + prompt.legal.len());
            args.extend([
                file.clone(),
                prompt.opponent_coins.to_string(),
                prompt.own_coins.to_string(),
                prompt.cards,
            ]);
            args.extend(prompt.legal);
            log.line(|l| write_argv(l, names[seat], &args));
            log.flush(host)?;
            let report = host.decide(DecisionRequest {
                seat: seat as u32,
                phase: phase.into(),
                args,
                stdin: Vec::new(),
            })?;
            let after = host.read_file(seat as u32, &file)?;
            let appended = after
                .as_deref()
                .and_then(|a| a.strip_prefix(before.as_bytes()))
                .map(|a| String::from_utf8_lossy(a).into_owned());
            let judged = judge(&mut game, &before, after.as_deref(), &report);
            let forfeit = match judged {
                Ok((events, step)) => {
                    decided = step;
                    let text = appended.as_deref().unwrap_or_default();
                    log.line(|l| {
                        l.push_str(names[seat]);
                        l.push_str(" played ");
                        push_quoted(l, text);
                    });
                    for event in events {
                        log.push(&event.describe(names));
                    }
                    None
                }
                Err(f) => Some(f),
            };
            host.judge(Verdict {
                answer: appended.unwrap_or_default(),
                failure: forfeit.as_ref().map(|f| Failure {
                    kind: f.kind().into(),
                    detail: f.to_string(),
                }),
                events: Vec::new(),
            })?;
            if let Some(f) = forfeit {
                log.push(&format!("{} forfeits: {f}", names[seat]));
                let tail = tail(&report.stderr_tail, STDERR_QUOTE);
                if !tail.trim().is_empty() {
                    log.push(&format!(
                        "{}'s stderr ends with: {}",
                        names[seat],
                        tail.trim_end()
                    ));
                }
                break End::Forfeit { seat, why: f };
            }
        };
        let (winner, how, forfeit) = match (&end, decided) {
            (End::Forfeit { seat, why }, _) => (Some(1 - seat), "forfeit", Some(why)),
            (End::Decided, Step::Won { winner, reason }) => (
                Some(winner),
                match reason {
                    WinReason::Eliminated => "eliminated",
                    WinReason::BothCardsInOneTurn => "both_cards_in_one_turn",
                },
                None,
            ),
            (End::Decided, _) => (None, "draw", None),
        };
        match winner {
            Some(w) => log.push(&format!("{} wins!", names[w])),
            None => log.push("draw: 100 actions each without a winner; nobody scores"),
        }
        log.flush(host)?;
        // The detail keeps the history; the bots' directories should not.
        for seat in 0..2 {
            host.remove_file(seat, &file)?;
        }
        Ok(result(&file, &game, winner, how, forfeit))
    }
}

/// The history file's name: `<first>_<second>_<round>.txt`, as `koth coup` names it.
pub fn history_file(names: [&str; 2], round: u32) -> String {
    format!("{}_{}_{round}.txt", names[0], names[1])
}

/// A decision's line in the human log: the bot's name and its arguments, quoted.
pub fn argv_line(name: &str, args: &[String]) -> String {
    let mut line = String::new();
    write_argv(&mut line, name, args);
    line
}

/// [`argv_line`], written at the end of `out`.
fn write_argv(out: &mut String, name: &str, args: &[String]) {
    out.push_str(name);
    out.push(' ');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_quoted(out, a);
    }
}

/// `text` as `{text:?}` writes it, quotes included. ASCII, what Coup's arguments are, is
/// escaped here byte by byte: `Debug`'s escaping of each character (its Unicode tables) took
/// a twentieth of a component referee's time.
fn push_quoted(out: &mut String, text: &str) {
    if !text
        .bytes()
        .all(|b| matches!(b, b' '..=b'~' | b'\n' | b'\r' | b'\t'))
    {
        let _ = write!(out, "{text:?}");
        return;
    }
    out.push('"');
    for b in text.bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => out.push(char::from(b)),
        }
    }
    out.push('"');
}

/// How the loop ended: the rules decided (a win or a draw), or a seat forfeited.
enum End {
    Decided,
    Forfeit { seat: usize, why: Forfeit },
}

/// Why a player forfeited: the kinds and words of `koth coup`'s own driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Forfeit {
    /// The invocation did not end `ok`.
    Crash(koth_referee::Outcome),
    /// The history file was changed other than by appending one action.
    FileRule(String),
    /// The appended text is not exactly one of the legal actions.
    IllegalMove(String),
    /// The Exchange choice printed on stdout is not a legal choice.
    IllegalExchange(String),
}

impl Forfeit {
    /// A short stable name of the kind, for the leaderboard's counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::Crash(o) => o.kind(),
            Forfeit::FileRule(_) => "file",
            Forfeit::IllegalMove(_) => "illegal move",
            Forfeit::IllegalExchange(_) => "illegal exchange",
        }
    }
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Forfeit::Crash(o) => write!(f, "the invocation ended with {o}"),
            Forfeit::FileRule(w) => write!(f, "broke the file rule: {w}"),
            Forfeit::IllegalMove(w) => write!(f, "made an illegal move: {w}"),
            Forfeit::IllegalExchange(w) => write!(f, "made an illegal exchange: {w}"),
        }
    }
}

/// Judge one decision: the invocation, then the file rule, then the rules. On success the
/// move is applied, and its events come back with how the game stands.
fn judge(
    game: &mut Game,
    before: &str,
    after: Option<&[u8]>,
    report: &DecisionReport,
) -> Result<(Vec<Event>, Step), Forfeit> {
    if !report.outcome.is_ok() {
        return Err(Forfeit::Crash(report.outcome.clone()));
    }
    let appended = file_rule(before, after)?;
    let stdout = String::from_utf8_lossy(&report.stdout);
    match game.apply(appended, &stdout) {
        Ok(applied) => Ok((applied.events, applied.step)),
        Err(Foul::IllegalMove { appended, legal }) => Err(Forfeit::IllegalMove(format!(
            "appended {appended:?}; legal: {legal:?}"
        ))),
        Err(Foul::IllegalExchange { output, offered }) => Err(Forfeit::IllegalExchange(format!(
            "printed {output:?}; offered {offered:?}"
        ))),
    }
}

/// The file rule: the bot's copy must be the old history plus one or two appended
/// characters, which come back.
pub fn file_rule<'a>(before: &str, after: Option<&'a [u8]>) -> Result<&'a str, Forfeit> {
    let after = after.ok_or_else(|| {
        Forfeit::FileRule(
            "the history file was deleted, renamed or replaced by something that is not a file"
                .into(),
        )
    })?;
    let Some(appended) = after.strip_prefix(before.as_bytes()) else {
        let what = if after.len() < before.len() {
            "truncated or rewritten"
        } else {
            "rewritten"
        };
        return Err(Forfeit::FileRule(format!(
            "the history file was {what} ({} bytes before, {} after)",
            before.len(),
            after.len()
        )));
    };
    match std::str::from_utf8(appended) {
        Ok(s) if (1..=2).contains(&s.chars().count()) => Ok(s),
        Ok("") => Err(Forfeit::FileRule("nothing was appended".into())),
        Ok(s) => Err(Forfeit::FileRule(format!(
            "{} characters were appended ({s:?}); one action is 1 or 2",
            s.chars().count()
        ))),
        Err(_) => Err(Forfeit::FileRule(format!(
            "the appended bytes are not text ({appended:?})"
        ))),
    }
}

/// The last `max` bytes of `text` (or a little less, to end on a character's boundary).
fn tail(text: &str, max: usize) -> &str {
    let mut start = text.len().saturating_sub(max);
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// The match's result: the winner scores 1 (nobody in a draw); the detail says how the game
/// ended and keeps its history.
fn result(
    file: &str,
    game: &Game,
    winner: Option<usize>,
    how: &str,
    forfeit: Option<&Forfeit>,
) -> MatchResult {
    let seats = (0..2)
        .map(|s| SeatResult {
            score: u64::from(winner == Some(s)),
            points_for: 0,
            points_against: 0,
        })
        .collect();
    let mut detail = format!("{{\"file\":{}", json_string(file));
    match winner {
        Some(w) => {
            let _ = write!(
                detail,
                ",\"result\":\"won\",\"winner\":{w},\"how\":\"{how}\""
            );
        }
        None => detail.push_str(",\"result\":\"draw\""),
    }
    if let Some(f) = forfeit {
        let _ = write!(
            detail,
            ",\"forfeit\":{{\"kind\":{},\"detail\":{}}}",
            json_string(f.kind()),
            json_string(&f.to_string())
        );
    }
    let _ = write!(
        detail,
        ",\"invocations\":{},\"history\":{}}}",
        game.invocations(),
        json_string(game.history())
    );
    MatchResult {
        seats,
        winners: winner.map(|w| vec![w as u32]).unwrap_or_default(),
        detail,
    }
}

#[cfg(test)]
mod tests;
