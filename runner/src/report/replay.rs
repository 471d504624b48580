//! The replay viewer's data, and the one part of the report that knows each game: how a
//! game's invocation records (`invocations.jsonl`) and human logs (`logs/` in `matches.zip.zst`)
//! become steps.
//!
//! A step is one decision: the bot, what it saw, its answer, its fuel and the state after.
//! The state after, as text, comes from what the archive recorded, never from re-running
//! the rules (the board the viewer draws is the referee's `state`, or for Coup and Bank
//! Heist [`super::board`]'s):
//! Coup: the history file after the move (what the bots appended, in order, is the history)
//! and the human log's lines for the move; Bank Heist: the human log's lines for the bot in
//! that round, and the game's results after its last decision; a game played by a referee
//! (`koth play`, and Euchre, whose referee is built in): the events of the referee's verdict
//! on each decision, with the lines of its human log that fall between them.

use super::{board, MatchLogs, ReportError};
use crate::games::{bank_heist, coup};
use crate::referee::record::{InvocationRecord, State};
use crate::referee::schedule;
use crate::referee::shape::{GameShape, RefereeOptions};
use crate::sandbox::Outcome;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A labelled block of text a bot saw.
#[derive(Debug, Clone, Serialize)]
pub struct Block {
    /// What it is (`argv`, `stdin`, `history file`...).
    pub label: String,
    /// The text, as the bot got it.
    pub text: String,
}

/// Why a decision failed (a forfeit in Coup, a default applied in Euchre and Bank Heist).
#[derive(Debug, Clone, Serialize)]
pub struct Failure {
    /// The kind, as the leaderboard counts it.
    pub kind: String,
    /// What happened.
    pub detail: String,
}

/// One decision.
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    /// The bot.
    pub bot: String,
    /// Its seat or round, as the game names it.
    pub seat: String,
    /// What it saw.
    pub view: Vec<Block>,
    /// Its answer, as applied.
    pub answer: String,
    /// What it printed, when that is not the answer itself.
    pub stdout: String,
    /// How the invocation ended.
    pub outcome: String,
    /// The failure, if the decision failed.
    pub failure: Option<Failure>,
    /// Fuel used.
    pub fuel: u64,
    /// The state after the move.
    pub after: Vec<String>,
    /// The state after the move as data, for the game's viewer (a referee's `show`; for
    /// Coup, the rules' state checked against the next decision's arguments).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<State>,
    /// The decision's number in its match (`koth replay --decision`), counted over the
    /// match's lines in `invocations.jsonl`.
    pub decision: usize,
}

/// Which game a record belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameKey {
    /// The match (in `results.json`) the game belongs to.
    pub match_index: usize,
    /// The game within the match (0 when a match is one game).
    pub game: u64,
    /// A name for the game.
    pub label: String,
}

/// One game's replay, as the page embeds it.
#[derive(Debug, Clone, Serialize)]
pub struct Replay {
    /// Anchor id in the page.
    pub id: String,
    /// The game's name.
    pub label: String,
    /// The match it belongs to.
    pub match_index: usize,
    /// Lines shown above the steps (who plays whom, the deal...).
    pub intro: Vec<String>,
    /// Lines shown after the last step (the result).
    pub outro: Vec<String>,
    /// Every decision, in order.
    pub steps: Vec<Step>,
}

/// A game's reading of its archive.
pub(crate) trait Adapter {
    /// Parse one line of `invocations.jsonl`.
    fn parse(&mut self, line: &str) -> Result<(GameKey, Step), String>;
    /// Called once a game's steps are all read (Coup marks its forfeit here).
    fn finish_game(&mut self, _key: &GameKey, _steps: &mut [Step]) {}
    /// Called after `finish_game` for a game the page embeds only: give each step the state
    /// the game's viewer draws, where the archive holds none (Coup, Bank Heist).
    fn boards(&mut self, _key: &GameKey, _steps: &mut [Step]) {}
    /// Add what the human logs tell (intro, state after, result) to an embedded replay.
    fn enrich(&mut self, logs: &mut MatchLogs, replay: &mut Replay) -> Result<(), ReportError>;
}

/// The adapter for an archive, from its manifest; `results` is `results.json`. Every game a
/// referee played (its manifest's options hold the game's shape) reads as every referee's
/// archive does, whatever its name: Euchre, and Coup played by its referee. The archives of
/// the built-in Coup and Bank Heist games have their own.
pub(crate) fn adapter(
    manifest: &serde_json::Value,
    results: &serde_json::Value,
) -> Option<Box<dyn Adapter>> {
    if let Some(shape) = manifest.pointer("/options/game") {
        let shape: GameShape = serde_json::from_value(shape.clone()).ok()?;
        // Coup's referee shows no board (the records stay as small as the built-in's): its
        // games are dealt again here, as the built-in's are.
        match manifest.get("game").and_then(|g| g.as_str()) {
            Some(koth_referee_coup::NAME) => {
                if let Some(deals) = RefereeDeals::new(manifest, results) {
                    return Some(Box::new(Coup::new(manifest, results, Some(deals))));
                }
            }
            // Bank Heist's referee shows no board either: each decision's arguments tell it.
            Some(bank_heist::NAME) => return Some(Box::new(BankHeist::new(manifest, true))),
            _ => {}
        }
        return Some(Box::new(Plugin::new(shape, results)));
    }
    match manifest.get("game")?.as_str()? {
        "coup" => Some(Box::new(Coup::new(manifest, results, None))),
        "bank-heist" => Some(Box::new(BankHeist::new(manifest, false))),
        _ => None,
    }
}

/// What an adapter keeps of each decision for the boards, per game. A game is known to be
/// whole only once the next game's first line is read, so the last two games are kept.
struct GameBuffer<K, T> {
    games: Vec<(K, Vec<T>)>,
}

impl<K: PartialEq, T> Default for GameBuffer<K, T> {
    fn default() -> Self {
        GameBuffer { games: Vec::new() }
    }
}

impl<K: PartialEq, T> GameBuffer<K, T> {
    fn push(&mut self, key: K, item: T) {
        match self.games.last_mut() {
            Some((k, items)) if *k == key => items.push(item),
            _ => {
                if self.games.len() == 2 {
                    self.games.remove(0);
                }
                self.games.push((key, vec![item]));
            }
        }
    }

    /// The items of the game `key`, taken out.
    fn take(&mut self, key: &K) -> Vec<T> {
        match self.games.iter().position(|(k, _)| k == key) {
            Some(i) => self.games.remove(i).1,
            None => Vec::new(),
        }
    }
}

fn outcome_text(o: &Outcome) -> String {
    o.to_string()
}

/// `Debug` quoting, as the logs show arguments: newlines and quotes visible.
fn quoted(s: &str) -> String {
    format!("{s:?}")
}

// ---------------------------------------------------------------------------------------
// Coup

#[derive(Deserialize)]
struct CoupLine {
    game: usize,
    file: String,
    #[serde(flatten)]
    inv: coup::driver::InvocationRecord,
}

#[derive(Deserialize)]
struct CoupGame {
    index: usize,
    #[serde(default)]
    forfeit: Option<coup::driver::Forfeit>,
}

/// What the report needs of a run of Coup's referee to deal its games again: each match's
/// seed and seats, from the run's schedule (a match's seed depends only on what defines it,
/// so the manifest gives it back), and its history file's name, from `results.json`.
struct RefereeDeals {
    /// The bots' names, in the manifest's order.
    names: Vec<String>,
    /// By match index: the seed and the bots (indices into `names`) in seats 0 and 1.
    matches: Vec<(u64, [usize; 2])>,
    /// By match index: the history file's name.
    files: BTreeMap<usize, String>,
}

impl RefereeDeals {
    fn new(manifest: &serde_json::Value, results: &serde_json::Value) -> Option<RefereeDeals> {
        let options: RefereeOptions =
            serde_json::from_value(manifest.get("options")?.clone()).ok()?;
        let names: Vec<String> = manifest
            .get("bots")?
            .as_array()?
            .iter()
            .map(|b| Some(b.get("name")?.as_str()?.to_string()))
            .collect::<Option<_>>()?;
        let matches = schedule::schedule(&options, &names)
            .ok()?
            .into_iter()
            .map(|f| match f.seats[..] {
                [a, b] => Some((f.seed, [a, b])),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let files = results
            .pointer("/detail/matches")
            .and_then(|m| m.as_array())
            .map(|ms| {
                ms.iter()
                    .filter_map(|m| {
                        let i = m.get("index")?.as_u64()? as usize;
                        Some((i, m.pointer("/result/file")?.as_str()?.to_string()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Some(RefereeDeals {
            names,
            matches,
            files,
        })
    }
}

/// Coup's replays, from either layout: the built-in driver's or its referee's.
struct Coup {
    /// Each game's forfeit, from `results.json`'s detail (the driver's layout; the
    /// referee's records carry their failure).
    forfeits: BTreeMap<usize, coup::driver::Forfeit>,
    /// The history so far in the game being read.
    history: String,
    game: Option<usize>,
    /// The tournament's seed and whether its deals are paired (the manifest's options), to
    /// deal each game again for its board; `None` when the manifest does not say.
    deal: Option<(u64, bool)>,
    /// A run of the referee: how its matches were dealt.
    referee: Option<RefereeDeals>,
    /// The moves of the last games read, by game, for their boards.
    moves: GameBuffer<usize, board::CoupMove>,
}

impl Coup {
    fn new(
        manifest: &serde_json::Value,
        results: &serde_json::Value,
        referee: Option<RefereeDeals>,
    ) -> Coup {
        let games: Vec<CoupGame> = results
            .pointer("/detail/games")
            .and_then(|g| serde_json::from_value(g.clone()).ok())
            .unwrap_or_default();
        Coup {
            forfeits: games
                .into_iter()
                .filter_map(|g| Some((g.index, g.forfeit?)))
                .collect(),
            history: String::new(),
            game: None,
            deal: manifest.get("options").and_then(|o| {
                let seed = o.get("seed")?.as_u64()?;
                let paired = o.get("paired").and_then(|p| p.as_bool()).unwrap_or(false);
                Some((seed, paired))
            }),
            referee,
            moves: GameBuffer::default(),
        }
    }

    /// The board after each move of the game `key`, dealt again from its seed; `None` if it
    /// cannot be, or if a move's arguments differ from what the rules give.
    fn states(
        &self,
        key: &GameKey,
        steps: &[Step],
        moves: &[board::CoupMove],
    ) -> Option<Vec<serde_json::Value>> {
        if let Some(r) = &self.referee {
            let &(seed, [first, second]) = r.matches.get(key.match_index)?;
            return board::coup_states(seed, [&r.names[first], &r.names[second]], moves);
        }
        // The driver's file is `<first>_<second>_<round>.txt`, dealt from the run's seed.
        let (seed, paired) = self.deal?;
        let first = steps.iter().find(|s| s.seat == "seat 0")?.bot.as_str();
        let stem = key.label.strip_suffix(".txt")?;
        let (pair, round) = stem.rsplit_once('_')?;
        let second = pair.strip_prefix(first)?.strip_prefix('_')?;
        let round: u32 = round.parse().ok()?;
        let deck = coup::tournament::deck_seed(seed, paired, round, first, second);
        board::coup_states(deck, [first, second], moves)
    }

    /// A line of the referee's records: the match, and the decision as the driver's line
    /// has it (its arguments, what it appended, its failure).
    fn referee_line(&self, line: &str) -> Result<(GameKey, InvocationRecord), String> {
        let l: PluginLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let inv: InvocationRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let label = self
            .referee
            .as_ref()
            .and_then(|r| r.files.get(&l.index))
            .cloned()
            .unwrap_or_else(|| format!("match {}", l.index));
        let key = GameKey {
            match_index: l.index,
            game: 0,
            label,
        };
        Ok((key, inv))
    }
}

impl Adapter for Coup {
    fn parse(&mut self, line: &str) -> Result<(GameKey, Step), String> {
        // Both layouts become the driver's: the arguments, what was appended, the outcome.
        let (key, inv, failure) = if self.referee.is_some() {
            let (key, r) = self.referee_line(line)?;
            let inv = coup::driver::InvocationRecord {
                n: r.n,
                seat: r.seat as usize,
                bot: r.bot,
                argv: r.args,
                // Whatever the bot appended: the referee's answer, empty when the file was
                // not only appended to (its failure says how).
                appended: (r.outcome == Outcome::Ok && !r.answer.is_empty()).then_some(r.answer),
                outcome: r.outcome,
                stdout: r.stdout,
                fuel_used: r.fuel_used,
                stderr_tail: r.stderr_tail,
            };
            let failure = r.failure.map(|f| Failure {
                kind: f.kind,
                detail: f.detail,
            });
            (key, inv, failure)
        } else {
            let l: CoupLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
            let key = GameKey {
                match_index: l.game,
                game: 0,
                label: l.file,
            };
            (key, l.inv, None)
        };
        if self.game != Some(key.match_index) {
            self.game = Some(key.match_index);
            self.history.clear();
        }
        self.moves.push(
            key.match_index,
            board::CoupMove {
                argv: inv.argv.iter().map(str::to_string).collect(),
                // A move the referee refused is a forfeit, as a crash is: the rules never
                // took it.
                ok: inv.outcome == Outcome::Ok && failure.is_none(),
                void: matches!(inv.outcome, Outcome::HostFault(_)),
                appended: inv.appended.clone(),
                stdout: inv.stdout.clone(),
            },
        );
        let before = self.history.clone();
        if let Some(a) = &inv.appended {
            self.history.push_str(a);
        }
        let step = Step {
            decision: 0,
            seat: format!("seat {}", inv.seat),
            view: vec![
                Block {
                    label: "argv".into(),
                    text: inv.argv.iter().map(quoted).collect::<Vec<_>>().join(" "),
                },
                Block {
                    label: "history file before".into(),
                    text: before,
                },
            ],
            answer: inv.appended.as_deref().map(quoted).unwrap_or_default(),
            stdout: inv.stdout.clone(),
            outcome: outcome_text(&inv.outcome),
            failure,
            fuel: inv.fuel_used,
            after: vec![format!("history file: {}", quoted(&self.history))],
            state: None,
            bot: inv.bot,
        };
        Ok((key, step))
    }

    fn boards(&mut self, key: &GameKey, steps: &mut [Step]) {
        let moves = self.moves.take(&key.match_index);
        if let Some(states) = self.states(key, steps, &moves) {
            for (step, state) in steps.iter_mut().zip(states) {
                step.state = State::from_value(state).ok();
            }
        }
    }

    fn finish_game(&mut self, key: &GameKey, steps: &mut [Step]) {
        // A forfeit ends the game: it is the last decision's.
        if let (Some(f), Some(last)) = (self.forfeits.get(&key.match_index), steps.last_mut()) {
            last.failure = Some(Failure {
                kind: f.kind().to_string(),
                detail: f.to_string(),
            });
        }
    }

    fn enrich(&mut self, logs: &mut MatchLogs, replay: &mut Replay) -> Result<(), ReportError> {
        let name = if self.referee.is_some() {
            format!("logs/match-{}.log", replay.match_index)
        } else {
            format!("logs/{}.log", replay.label.trim_end_matches(".txt"))
        };
        let log = match logs.text(&name)? {
            Ok(log) => log,
            Err(missing) => {
                // The replay stands without the human log; say so in the page.
                replay.intro.push(missing);
                return Ok(());
            }
        };
        // The driver and the referee log each invocation as `bot "arg" "arg"...` before what
        // followed it.
        let mut current: Option<usize> = None;
        let mut next = 0;
        for line in log.lines() {
            let header = replay.steps.get(next).map(|s| {
                format!(
                    "{} {}",
                    s.bot,
                    s.view.first().map(|b| b.text.as_str()).unwrap_or("")
                )
            });
            if header.as_deref() == Some(line) {
                current = Some(next);
                next += 1;
                continue;
            }
            match current {
                None => replay.intro.push(line.to_string()),
                Some(i) => replay.steps[i].after.push(line.to_string()),
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------
// Games played by a referee (a plugin, or a built-in game played by its referee, as Euchre):
// every decision's record is the same for every game; the state after a move is its events.

/// A line's match. The record itself is read from the same line on its own: its `state`
/// is kept as raw text, which serde cannot read through a flattened struct.
#[derive(Deserialize)]
struct PluginLine {
    #[serde(rename = "match")]
    index: usize,
}

/// Any referee's game: each step is a decision as the referee judged it (its answer, its
/// failure, its events as the state after).
struct Plugin {
    /// The game's seats and teams, for the seats' names.
    shape: GameShape,
    /// Each match's label, from `results.json`.
    labels: Vec<String>,
}

impl Plugin {
    fn new(shape: GameShape, results: &serde_json::Value) -> Plugin {
        let labels = results
            .get("matches")
            .and_then(|m| m.as_array())
            .map(|ms| {
                ms.iter()
                    .enumerate()
                    .map(|(i, m)| {
                        m.get("label")
                            .and_then(|l| l.as_str())
                            .map_or_else(|| format!("match {i}"), str::to_string)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Plugin { shape, labels }
    }
}

impl Adapter for Plugin {
    fn parse(&mut self, line: &str) -> Result<(GameKey, Step), String> {
        let l: PluginLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let inv: InvocationRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let mut view = Vec::new();
        if !inv.args.is_empty() {
            view.push(Block {
                label: "argv".into(),
                text: inv.args.iter().map(quoted).collect::<Vec<_>>().join(" "),
            });
        }
        if !inv.stdin.is_empty() || view.is_empty() {
            view.push(Block {
                label: "stdin".into(),
                text: inv.stdin,
            });
        }
        let step = Step {
            decision: 0,
            seat: format!("{}, {}", self.shape.seat_name(inv.seat as usize), inv.phase),
            view,
            answer: inv.answer,
            stdout: inv.stdout,
            outcome: outcome_text(&inv.outcome),
            failure: inv.failure.map(|f| Failure {
                kind: f.kind,
                detail: f.detail,
            }),
            fuel: inv.fuel_used,
            after: inv.events.to_vec(),
            state: inv.state,
            bot: inv.bot,
        };
        let key = GameKey {
            match_index: l.index,
            game: 0,
            label: self
                .labels
                .get(l.index)
                .cloned()
                .unwrap_or_else(|| format!("match {}", l.index)),
        };
        Ok((key, step))
    }

    fn enrich(&mut self, logs: &mut MatchLogs, replay: &mut Replay) -> Result<(), ReportError> {
        match logs.text(&format!("logs/match-{}.log", replay.match_index))? {
            Ok(log) => {
                let mut lines: Vec<&str> = log.lines().collect();
                // The last line is the referee's account of the end, as its log tells it.
                if let Some(last) = lines.pop() {
                    replay.outro.push(last.to_string());
                }
                place_log_lines(&lines, &mut replay.steps, &mut replay.intro);
            }
            Err(missing) => replay.intro.push(missing),
        }
        mark_quiet_steps(&mut replay.steps);
        Ok(())
    }
}

/// Say so where a decision changed nothing: the viewer never shows an empty state. A decision
/// the referee took as no answer and no failure (Euchre's trick report, whose output is
/// ignored) moved nothing by design. Done after the log is placed, which goes by the events.
fn mark_quiet_steps(steps: &mut [Step]) {
    for step in steps.iter_mut().filter(|s| s.after.is_empty()) {
        step.after
            .push(if step.answer.is_empty() && step.failure.is_none() {
                "(its answer is ignored: nothing changes)".to_string()
            } else {
                "(no event)".to_string()
            });
    }
}

/// Spread a referee's human log over the steps: a line that is one of a step's events marks
/// where that step stands in the log; the lines before the first such mark are the intro, and
/// every other line (a new deal, a score) is added to the state after the step it follows.
/// The log and the events are the referee's own words, so nothing is lost when they do not
/// line up: the lines then stay with the step before.
fn place_log_lines(lines: &[&str], steps: &mut [Step], intro: &mut Vec<String>) {
    // Each step's own events, before any log line joins them.
    let events: Vec<Vec<String>> = steps.iter().map(|s| s.after.clone()).collect();
    let is_event = |s: usize, line: &str| events[s].iter().any(|e| e.trim() == line.trim());
    let mut current: Option<usize> = None;
    let mut next = 0;
    for line in lines {
        if current.is_some_and(|c| is_event(c, line)) {
            continue;
        }
        // The next step that has events (a step without any leaves no mark in the log).
        let ahead = (next..steps.len()).find(|&s| !events[s].is_empty());
        if let Some(s) = ahead.filter(|&s| is_event(s, line)) {
            current = Some(s);
            next = s + 1;
            continue;
        }
        match current {
            None => intro.push(line.to_string()),
            Some(c) => steps[c].after.push(line.to_string()),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Bank Heist

#[derive(Default)]
struct BankHeist {
    /// Each tournament's human log, split per game, read once when first needed.
    logs: BTreeMap<u32, BTreeMap<u64, Vec<String>>>,
    /// The 31 arguments of each decision of the last games read, for their boards.
    args: GameBuffer<(usize, u64), String>,
    /// Bots in the run (every bot plays every game).
    bots: u64,
    /// A run of Bank Heist's referee (its records and its logs' names), not of the built-in
    /// driver.
    referee: bool,
}

impl BankHeist {
    fn new(manifest: &serde_json::Value, referee: bool) -> BankHeist {
        BankHeist {
            bots: manifest
                .get("bots")
                .and_then(|b| b.as_array())
                .map_or(0, |b| b.len() as u64),
            referee,
            ..BankHeist::default()
        }
    }

    /// A line of the built-in driver: its tournament, game, round, arguments (one string),
    /// decision and failure.
    fn driver_line(line: &str) -> Result<HeistLine, String> {
        let inv: bank_heist::driver::InvocationRecord =
            serde_json::from_str(line).map_err(|e| e.to_string())?;
        Ok(HeistLine {
            tournament: inv.tournament as usize,
            game: u64::from(inv.game),
            round: inv.round,
            failure: inv.failure.as_ref().map(|f| Failure {
                kind: f.kind().to_string(),
                detail: f.why(),
            }),
            args: inv.args,
            answer: inv.decision,
            stdout: inv.stdout,
            outcome: outcome_text(&inv.outcome),
            fuel: inv.fuel_used,
            bot: inv.bot,
        })
    }

    /// A line of the referee: its match (the tournament), its 31 arguments (the game and the
    /// round are the first two), its answer and failure.
    fn referee_line(line: &str) -> Result<HeistLine, String> {
        let l: PluginLine = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let inv: InvocationRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
        let number = |i: usize| inv.args.get(i).and_then(|a| a.parse::<u64>().ok());
        let (Some(game), Some(round)) = (number(0), number(1)) else {
            return Err(format!(
                "decision {} of match {} has no game and round in its arguments",
                inv.n, l.index
            ));
        };
        Ok(HeistLine {
            tournament: l.index,
            game,
            round: u8::try_from(round).unwrap_or(0),
            args: inv.args.join(" "),
            answer: inv.answer,
            failure: inv.failure.map(|f| Failure {
                kind: f.kind,
                detail: f.detail,
            }),
            stdout: inv.stdout,
            outcome: outcome_text(&inv.outcome),
            fuel: inv.fuel_used,
            bot: inv.bot,
        })
    }
}

/// One decision of Bank Heist, from either layout.
struct HeistLine {
    tournament: usize,
    game: u64,
    round: u8,
    args: String,
    answer: String,
    failure: Option<Failure>,
    stdout: String,
    outcome: String,
    fuel: u64,
    bot: String,
}

impl Adapter for BankHeist {
    fn parse(&mut self, line: &str) -> Result<(GameKey, Step), String> {
        let inv = if self.referee {
            Self::referee_line(line)?
        } else {
            Self::driver_line(line)?
        };
        let key = GameKey {
            match_index: inv.tournament,
            game: inv.game,
            label: format!("tournament {}, game {}", inv.tournament, inv.game),
        };
        self.args.push((inv.tournament, inv.game), inv.args.clone());
        let step = Step {
            decision: 0,
            seat: format!("round {}", inv.round),
            view: vec![Block {
                label: "the 31 arguments".into(),
                text: inv.args,
            }],
            answer: inv.answer,
            stdout: inv.stdout,
            outcome: inv.outcome,
            failure: inv.failure,
            fuel: inv.fuel,
            after: Vec::new(),
            state: None,
            bot: inv.bot,
        };
        Ok((key, step))
    }

    fn boards(&mut self, key: &GameKey, steps: &mut [Step]) {
        let args = self.args.take(&(key.match_index, key.game));
        if args.len() != steps.len() {
            return;
        }
        let moves: Vec<board::HeistMove> = steps
            .iter()
            .zip(&args)
            .map(|(s, args)| board::HeistMove {
                bot: &s.bot,
                args,
                decision: &s.answer,
            })
            .collect();
        let states = board::heist_states(&moves, self.bots);
        for (step, state) in steps.iter_mut().zip(states) {
            step.state = State::from_value(state).ok();
        }
    }

    fn enrich(&mut self, files: &mut MatchLogs, replay: &mut Replay) -> Result<(), ReportError> {
        let t = replay.match_index as u32;
        let logs = match self.logs.entry(t) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => e.insert(
                files
                    .text(&if self.referee {
                        format!("logs/match-{t}.log")
                    } else {
                        format!("logs/tournament-{t}.log")
                    })?
                    .map(|log| split_heist_log(&log))
                    .unwrap_or_default(),
            ),
        };
        let game = replay
            .label
            .rsplit(' ')
            .next()
            .and_then(|g| g.parse::<u64>().ok());
        let Some(lines) = game.and_then(|g| logs.get(&g)) else {
            replay.intro.push("(no human log for this game)".into());
            return Ok(());
        };
        // A game's section: its title, `Round 1:` bets, `Round 2` answers, then the results.
        let mut round = 0u8;
        let mut rounds: [Vec<&str>; 3] = Default::default();
        let mut results = Vec::new();
        for line in lines {
            if line.starts_with("#####GAME") {
                replay.intro.push(line.clone());
            } else if line.starts_with("Round 1") {
                round = 1;
            } else if line.starts_with("Round 2") {
                round = 2;
            } else if line.starts_with("Results") || round == 3 {
                round = 3;
                results.push(line.clone());
            } else if !line.is_empty() {
                rounds[usize::from(round.min(2))].push(line);
            }
        }
        for step in &mut replay.steps {
            let r = if step.seat.ends_with('2') { 2 } else { 1 };
            let prefix = format!("{} ", step.bot);
            step.after.extend(
                rounds[r]
                    .iter()
                    .filter(|l| l.starts_with(&prefix))
                    .map(|l| l.to_string()),
            );
        }
        replay.outro = results.into_iter().filter(|l| !l.is_empty()).collect();
        Ok(())
    }
}

/// Split a Bank Heist tournament log into its games' sections, by `#####GAME N:` headers.
fn split_heist_log(log: &str) -> BTreeMap<u64, Vec<String>> {
    let mut out: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let mut current = None;
    for line in log.lines() {
        if let Some(rest) = line.strip_prefix("#####GAME ") {
            current = rest
                .split(':')
                .next()
                .and_then(|n| n.trim().parse::<u64>().ok());
        }
        if let Some(g) = current {
            out.entry(g).or_default().push(line.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(events: &[&str]) -> Step {
        Step {
            decision: 0,
            bot: "b".into(),
            seat: "seat 0, bid".into(),
            view: Vec::new(),
            answer: String::new(),
            stdout: String::new(),
            outcome: "ok".into(),
            failure: None,
            fuel: 0,
            after: events.iter().map(|e| e.to_string()).collect(),
            state: None,
        }
    }

    #[test]
    fn a_referee_log_spreads_over_the_steps_it_tells() {
        let mut steps = vec![
            step(&["a bids 2 fours"]),
            step(&["b calls", "b loses a die"]),
            step(&[]),
            step(&["a bids 1 two"]),
        ];
        let log = [
            "Liar's Dice: a, b",
            "Hand 1: a [2 4], b [4 4]",
            "  a bids 2 fours",
            "  b calls",
            "  b loses a die",
            "Hand 2: a [1 3], b [5]",
            "  a bids 1 two",
            "a note after the last step",
        ];
        let mut intro = Vec::new();
        place_log_lines(&log, &mut steps, &mut intro);
        assert_eq!(intro, ["Liar's Dice: a, b", "Hand 1: a [2 4], b [4 4]"]);
        assert_eq!(steps[0].after, ["a bids 2 fours"]);
        // The new deal is part of the state after the call that ended the hand.
        assert_eq!(
            steps[1].after,
            ["b calls", "b loses a die", "Hand 2: a [1 3], b [5]"]
        );
        // A step without events takes no line: the next step's event is found after it.
        assert!(steps[2].after.is_empty());
        assert_eq!(
            steps[3].after,
            ["a bids 1 two", "a note after the last step"]
        );
    }

    #[test]
    fn a_heist_log_splits_by_game() {
        let log = "#####GAME 0: 3 players######\n\nRound 1:\na bet 0.\n\n#####GAME 1: 4 players######\nRound 1:\nb bet 2.\n";
        let games = split_heist_log(log);
        assert_eq!(games.len(), 2);
        assert_eq!(games[&0][3], "a bet 0.");
        assert_eq!(games[&1][2], "b bet 2.");
    }
}
