//! What a referee plays a match through: the seats' bots and directories, the match's random
//! stream, the human log and the record. Everything is checked: a call koth cannot honour
//! ends the match as a referee fault, and a bot's host fault ends it as void.
//!
//! The same host serves a referee built into koth and one running as a component (which
//! also pays fuel for the work each call makes the host do: [`MatchHost::take_work`]).

use super::record::{FailureRecord, InvocationRecord, MatchRecord, State, REFEREE_FAULT};
use super::shape::GameShape;
use crate::games::{stderr_tail, Player};
use crate::sandbox::vfs::{FileType, SnapshotEntry};
use crate::sandbox::{Invocation, Limits, Outcome, Vfs, VfsLimits};
use koth_referee as sdk;
use koth_referee::{Abort, DecisionReport, DecisionRequest, MatchResult, Verdict};
use rand_chacha::ChaCha12Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bytes of a bot's stderr kept per decision.
pub const STDERR_TAIL: usize = 512;
/// Fuel a referee pays per decision it asks for (the host's own work of an invocation,
/// about ten microseconds), on top of the bytes it passes.
pub const DECIDE_FUEL: u64 = 10_000;
/// Fuel a referee pays per file call, on top of the bytes it moves.
pub const FILE_CALL_FUEL: u64 = 64;
/// Most arguments one decision may get.
pub const MAX_ARGS: usize = 4096;
/// Most bytes of arguments, or of stdin, one decision may get.
pub const MAX_INPUT_BYTES: usize = 1 << 20;
/// Most bytes of log lines, events, answers, failure details and states one match may record.
pub const MAX_RECORD_BYTES: u64 = 64 << 20;
/// Most bytes one `random` call returns.
pub const MAX_RANDOM_BYTES: u32 = 1 << 20;
/// Longest phase name.
pub const MAX_PHASE_BYTES: usize = 256;
/// Largest `detail` a match may return.
pub const MAX_DETAIL_BYTES: usize = 1 << 20;
/// Largest state one decision may show (`show`): a board, not a log.
pub const MAX_STATE_BYTES: usize = 16 << 10;

/// How a match ended other than with a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// A bot's invocation could not be completed by the host: the match is void.
    HostFault(String),
    /// The referee did something koth cannot honour: the match is void, the referee named.
    RefereeFault(String),
}

impl Ended {
    /// The void reason recorded for the match.
    pub fn reason(&self) -> String {
        match self {
            Ended::HostFault(why) => why.clone(),
            Ended::RefereeFault(why) => format!("{REFEREE_FAULT}{why}"),
        }
    }
}

/// One match in progress.
pub struct MatchHost {
    shape: Arc<GameShape>,
    players: Vec<Arc<dyn Player>>,
    /// Each participant's seats: with copies, a team's seats must score alike.
    sides: Vec<Vec<usize>>,
    dirs: Vec<Option<Vfs>>,
    /// The files the referee placed in each seat's directory, with their sizes.
    placed: Vec<BTreeMap<String, u64>>,
    quota: Option<VfsLimits>,
    limits: Limits,
    seed: u64,
    /// Virtual time when the match starts: 0, or later for each match when directories
    /// outlive it (so their files' times never go back).
    clock_base_ns: u64,
    /// Whether the directories are the run's, lent for this match (`--scratch tournament`):
    /// they go back to the run at the end instead of into the record.
    lent: bool,
    rng: ChaCha12Rng,
    judged: bool,
    recorded_bytes: u64,
    work: u64,
    record: MatchRecord,
    ended: Option<Ended>,
}

impl MatchHost {
    /// A match of `players` (one per seat; `sides` holds each participant's seats), each
    /// seat with a directory of `directory`'s quotas or none, every invocation under
    /// `limits`, the match seeded with `seed`.
    pub fn new(
        shape: Arc<GameShape>,
        players: Vec<Arc<dyn Player>>,
        sides: Vec<Vec<usize>>,
        directory: Option<VfsLimits>,
        limits: Limits,
        seed: u64,
    ) -> MatchHost {
        let n = players.len();
        MatchHost {
            shape,
            sides,
            dirs: (0..n).map(|_| directory.map(Vfs::new)).collect(),
            placed: vec![BTreeMap::new(); n],
            quota: directory,
            limits,
            seed,
            clock_base_ns: 0,
            lent: false,
            rng: ChaCha12Rng::from_seed(crate::seed::derive(seed, "referee/random", &[])),
            judged: true,
            recorded_bytes: 0,
            work: 0,
            record: MatchRecord {
                seats: players.iter().map(|p| p.name().to_string()).collect(),
                scores: Vec::new(),
                points: Vec::new(),
                winners: Vec::new(),
                void: None,
                detail: serde_json::Value::Null,
                fuel: vec![0; n],
                invocations: vec![0; n],
                failures: vec![BTreeMap::new(); n],
                log: super::record::Decisions::new(),
                human_log: crate::games::str_list::StrList::new(),
                scratch: Vec::new(),
                kept: Vec::new(),
            },
            players,
            ended: None,
        }
    }

    /// Play the match in directories that outlive it (`--scratch tournament`): `dirs`, one
    /// per seat, lent by the run and handed back by [`MatchHost::close`]; the match starts
    /// at virtual time `clock_base_ns`.
    pub fn with_directories(mut self, dirs: Vec<Vfs>, clock_base_ns: u64) -> MatchHost {
        self.dirs = dirs.into_iter().map(Some).collect();
        self.clock_base_ns = clock_base_ns;
        self.lent = true;
        self
    }

    /// Virtual time at the start of the match's next decision.
    fn now(&self) -> u64 {
        let n = self.record.log.len() as u64;
        // Each decision starts a virtual second after the one before.
        self.clock_base_ns
            .saturating_add(n.saturating_mul(1_000_000_000))
    }

    /// Fuel owed by the referee for the host's work since the last call, reset to zero.
    pub fn take_work(&mut self) -> u64 {
        std::mem::take(&mut self.work)
    }

    /// How the match ended early, if it did.
    pub fn ended(&self) -> Option<&Ended> {
        self.ended.as_ref()
    }

    /// End the match as a referee fault (the first reason given stands).
    pub fn fault(&mut self, why: impl Into<String>) -> Abort {
        let why = why.into();
        if self.ended.is_none() {
            self.ended = Some(Ended::RefereeFault(why.clone()));
        }
        Abort::new(why)
    }

    fn open(&self) -> Result<(), Abort> {
        match &self.ended {
            Some(e) => Err(Abort::new(e.reason())),
            None => Ok(()),
        }
    }

    fn seat(&mut self, seat: u32) -> Result<usize, Abort> {
        self.open()?;
        let n = self.players.len();
        if (seat as usize) < n {
            Ok(seat as usize)
        } else {
            Err(self.fault(format!("it named seat {seat}, but the match has {n} seats")))
        }
    }

    fn dir(&mut self, seat: u32) -> Result<&mut Vfs, Abort> {
        let s = self.seat(seat)?;
        if self.dirs[s].is_none() {
            return Err(self.fault(format!(
                "it used seat {seat}'s directory, but the game gives seats none"
            )));
        }
        self.dirs[s]
            .as_mut()
            .ok_or_else(|| Abort::new("no directory"))
    }

    fn account(&mut self, bytes: usize, what: &str) -> Result<(), Abort> {
        self.recorded_bytes = self.recorded_bytes.saturating_add(bytes as u64);
        self.work = self.work.saturating_add(bytes as u64);
        if self.recorded_bytes > MAX_RECORD_BYTES {
            return Err(self.fault(format!(
                "its {what} took the match's log past its cap of {MAX_RECORD_BYTES} bytes"
            )));
        }
        Ok(())
    }

    /// Close the match with the referee's result (checked against the seats), or with how
    /// it ended early; snapshot the directories.
    pub fn finish(self, result: Result<MatchResult, Abort>) -> MatchRecord {
        self.close(result).0
    }

    /// [`MatchHost::finish`], handing back the directories, one per seat (`None` for a
    /// game without any): lent ones as the match left them, not snapshot into the record.
    pub fn close(mut self, result: Result<MatchResult, Abort>) -> (MatchRecord, Vec<Option<Vfs>>) {
        if self.ended.is_none() {
            match result {
                Ok(r) => match self.check_result(&r) {
                    Err(why) => self.ended = Some(Ended::RefereeFault(why)),
                    Ok(detail) => {
                        self.record.scores = r.seats.iter().map(|s| s.score).collect();
                        if self.shape.scoring.points {
                            self.record.points = r
                                .seats
                                .iter()
                                .map(|s| (s.points_for, s.points_against))
                                .collect();
                        }
                        self.record.winners = r.winners;
                        self.record.detail = detail;
                    }
                },
                // A referee that gives up on its own: nothing koth did ended it.
                Err(abort) => {
                    self.ended = Some(Ended::RefereeFault(format!(
                        "it ended the match itself: {}",
                        abort.reason()
                    )))
                }
            }
        }
        if let Some(e) = &self.ended {
            self.record.void = Some(e.reason());
            self.record.scores.clear();
            self.record.points.clear();
            self.record.winners.clear();
            self.record.detail = serde_json::Value::Null;
        }
        if !self.lent {
            self.record.scratch = self
                .dirs
                .iter()
                .enumerate()
                .filter_map(|(s, d)| Some((s as u32, d.as_ref()?.snapshot())))
                .filter(|(_, entries)| !entries.is_empty())
                .collect();
        }
        self.record.log.freeze();
        (self.record, self.dirs)
    }

    /// `r` checked against the match; its detail, parsed.
    fn check_result(&self, r: &MatchResult) -> Result<serde_json::Value, String> {
        let n = self.players.len();
        if r.seats.len() != n {
            return Err(format!(
                "it returned results for {} seats, but the match has {n}",
                r.seats.len()
            ));
        }
        let mut won = vec![false; n];
        for &w in &r.winners {
            match won.get_mut(w as usize) {
                None => {
                    return Err(format!(
                        "it named seat {w} a winner, but the match has {n} seats"
                    ))
                }
                Some(true) => return Err(format!("it named seat {w} a winner twice")),
                Some(slot) => *slot = true,
            }
        }
        for side in &self.sides {
            let mut scores = side.iter().map(|&s| r.seats[s].score);
            let first = scores.next();
            if scores.any(|x| Some(x) != first) {
                return Err(format!(
                    "seats {side:?} play for one bot, but it gave them different scores"
                ));
            }
        }
        if r.detail.len() > MAX_DETAIL_BYTES {
            return Err(format!(
                "its detail is {} bytes, over the cap of {MAX_DETAIL_BYTES}",
                r.detail.len()
            ));
        }
        match serde_json::from_str::<serde_json::Value>(&r.detail) {
            Ok(d @ serde_json::Value::Object(_)) => Ok(d),
            Ok(_) => Err("its detail is JSON but not an object".into()),
            Err(e) => Err(format!("its detail is not JSON: {e}")),
        }
    }
}

/// Whether `name` is one entry of a directory (what a referee may place).
fn is_entry_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && name.len() <= 255
        && !name.contains('/')
        && !name.chars().any(char::is_control)
}

fn outcome(o: &Outcome) -> sdk::Outcome {
    match o {
        Outcome::Ok => sdk::Outcome::Ok,
        Outcome::Exit(n) => sdk::Outcome::Exit(*n),
        Outcome::Trap(k) => sdk::Outcome::Trap(k.to_string()),
        Outcome::OutOfFuel => sdk::Outcome::OutOfFuel,
        Outcome::OutOfMemory => sdk::Outcome::OutOfMemory,
        Outcome::OutputLimit => sdk::Outcome::OutputLimit,
        Outcome::LimitExceeded | Outcome::HostFault(_) => sdk::Outcome::LimitExceeded,
    }
}

impl sdk::Host for MatchHost {
    fn decide(&mut self, req: DecisionRequest) -> Result<DecisionReport, Abort> {
        let s = self.seat(req.seat)?;
        if req.args.len() > MAX_ARGS {
            return Err(self.fault(format!(
                "it passed {} arguments, over the cap of {MAX_ARGS}",
                req.args.len()
            )));
        }
        let arg_bytes: usize = req.args.iter().map(String::len).sum();
        if arg_bytes > MAX_INPUT_BYTES || req.stdin.len() > MAX_INPUT_BYTES {
            return Err(self.fault(format!(
                "it passed {arg_bytes} bytes of arguments and {} of stdin, over the cap of {MAX_INPUT_BYTES} each",
                req.stdin.len()
            )));
        }
        if req.phase.len() > MAX_PHASE_BYTES {
            return Err(self.fault(format!(
                "its phase name is {} bytes, over the cap of {MAX_PHASE_BYTES}",
                req.phase.len()
            )));
        }
        let n = self.record.log.len() as u64;
        let inv = Invocation {
            args: req.args.iter().map(|a| a.as_bytes().to_vec()).collect(),
            stdin: req.stdin,
            seed: crate::seed::derive(self.seed, "referee/invocation", &[s as u64, n]),
            clock_start_ns: self.now(),
            limits: self.limits,
        };
        let report = self.players[s].invoke(&inv, self.dirs[s].as_mut());
        self.work = self.work.saturating_add(
            DECIDE_FUEL + (arg_bytes + inv.stdin.len() + report.stdout.len()) as u64,
        );
        self.record.fuel[s] += report.fuel_used;
        self.record.invocations[s] += 1;
        let tail = stderr_tail(&report.stderr, STDERR_TAIL);
        self.record.log.push(InvocationRecord {
            n: n as u32,
            seat: s as u32,
            bot: self.record.seats[s].clone(),
            phase: req.phase,
            args: req.args.iter().collect(),
            stdin: String::from_utf8_lossy(&inv.stdin).into_owned(),
            outcome: report.outcome.clone(),
            stdout: String::from_utf8_lossy(&report.stdout).into_owned(),
            answer: String::new(),
            failure: None,
            fuel_used: report.fuel_used,
            stderr_tail: tail.clone(),
            events: crate::games::str_list::StrList::new(),
            state: None,
        });
        if let Outcome::HostFault(why) = &report.outcome {
            let why = format!(
                "{} ({}): {why}",
                self.record.seats[s],
                self.shape.seat_name(s)
            );
            self.ended = Some(Ended::HostFault(why.clone()));
            return Err(Abort::new(why));
        }
        self.judged = false;
        Ok(DecisionReport {
            outcome: outcome(&report.outcome),
            stdout: report.stdout,
            stderr_tail: tail,
            fuel: report.fuel_used,
        })
    }

    fn judge(&mut self, v: Verdict) -> Result<(), Abort> {
        self.open()?;
        if std::mem::replace(&mut self.judged, true) {
            return Err(self.fault(if self.record.log.is_empty() {
                "it judged a decision before asking for one".to_string()
            } else {
                "it judged the same decision twice".to_string()
            }));
        }
        let bytes = v.answer.len()
            + v.events.iter().map(|e| e.len() + 32).sum::<usize>()
            + v.failure
                .as_ref()
                .map_or(0, |f| f.kind.len() + f.detail.len());
        self.account(bytes, "verdict")?;
        if let Some(f) = &v.failure {
            if f.kind.is_empty() || f.kind.len() > 32 {
                return Err(
                    self.fault(format!("a failure's kind {:?} is not a short name", f.kind))
                );
            }
        }
        let Some(last) = self.record.log.last_mut() else {
            return Err(self.fault("it judged a decision before asking for one"));
        };
        let seat = last.seat as usize;
        last.answer = v.answer;
        last.events = v.events.iter().collect();
        if let Some(f) = v.failure {
            *self.record.failures[seat]
                .entry(f.kind.clone())
                .or_default() += 1;
            last.failure = Some(FailureRecord {
                kind: f.kind,
                detail: f.detail,
            });
        }
        Ok(())
    }

    fn show(&mut self, state: &str) -> Result<(), Abort> {
        self.open()?;
        if state.len() > MAX_STATE_BYTES {
            return Err(self.fault(format!(
                "a state of {} bytes is over the {MAX_STATE_BYTES}-byte cap",
                state.len()
            )));
        }
        let value = State::parse(state).map_err(|why| self.fault(why))?;
        self.account(value.as_str().len() + 16, "state")?;
        let Some(last) = self.record.log.last_mut() else {
            return Err(self.fault("it showed a state before asking for a decision"));
        };
        if last.state.is_some() {
            return Err(self.fault("it showed two states for one decision"));
        }
        last.state = Some(value);
        Ok(())
    }

    fn log(&mut self, line: &str) -> Result<(), Abort> {
        self.open()?;
        self.account(line.len() + 16, "log")?;
        self.record.human_log.push(line);
        Ok(())
    }

    /// A symbolic link is not a file: a bot that puts one where the referee placed a file
    /// has not left the file there (Coup's file rule, as its driver held it).
    fn read_file(&mut self, seat: u32, path: &str) -> Result<Option<Vec<u8>>, Abort> {
        let dir = self.dir(seat)?;
        let found = dir
            .lookup(Vfs::ROOT, path.as_bytes(), false)
            .ok()
            .filter(|&node| {
                dir.stat(node)
                    .is_ok_and(|st| st.file_type == FileType::File)
            });
        let data = found.and_then(|node| {
            let len = dir.file_len(node).ok()? as usize;
            let mut buf = vec![0; len];
            let got = dir.read_at(node, 0, &mut buf).ok()?;
            buf.truncate(got);
            Some(buf)
        });
        // The walk's cost is the referee's, never the bot's next invocation's.
        let walked = dir.take_work();
        self.work = self
            .work
            .saturating_add(FILE_CALL_FUEL + walked + data.as_ref().map_or(0, |d| d.len() as u64));
        Ok(data)
    }

    fn write_file(&mut self, seat: u32, path: &str, data: &[u8]) -> Result<(), Abort> {
        let s = self.seat(seat)?;
        if !is_entry_name(path) {
            return Err(self.fault(format!(
                "it wrote {path:?} in seat {seat}'s directory; a referee places files in its root, by plain names"
            )));
        }
        let Some(quota) = self.quota else {
            return Err(self.fault(format!(
                "it used seat {seat}'s directory, but the game gives seats none"
            )));
        };
        let mut placed = self.placed[s].clone();
        placed.insert(path.to_string(), data.len() as u64);
        let bytes: u64 = placed.values().sum();
        if bytes > quota.max_bytes || placed.len() > quota.max_nodes as usize {
            return Err(self.fault(format!(
                "its files in seat {seat}'s directory would hold {bytes} bytes in {} files, over the directory's quota of {} bytes and {} files",
                placed.len(),
                quota.max_bytes,
                quota.max_nodes
            )));
        }
        self.placed[s] = placed;
        let now = self.now();
        let dir = self.dir(seat)?;
        dir.set_now(now);
        dir.put_host_file(path, data);
        let walked = dir.take_work();
        self.work = self
            .work
            .saturating_add(FILE_CALL_FUEL + walked + data.len() as u64);
        Ok(())
    }

    fn remove_file(&mut self, seat: u32, path: &str) -> Result<bool, Abort> {
        let s = self.seat(seat)?;
        let dir = self.dir(seat)?;
        let removed = dir.unlink(Vfs::ROOT, path.as_bytes()).is_ok();
        let walked = dir.take_work();
        if removed {
            self.placed[s].remove(path);
        }
        self.work = self
            .work
            .saturating_add(FILE_CALL_FUEL + walked + path.len() as u64);
        Ok(removed)
    }

    fn list_files(&mut self, seat: u32) -> Result<Vec<(String, u64)>, Abort> {
        let dir = self.dir(seat)?;
        let files: Vec<(String, u64)> = dir
            .snapshot()
            .into_iter()
            .filter_map(|e| match e {
                SnapshotEntry::File(p, d) => Some((p, d.len() as u64)),
                _ => None,
            })
            .collect();
        let bytes: usize = files.iter().map(|(p, _)| p.len() + 32).sum();
        self.work = self.work.saturating_add(FILE_CALL_FUEL + bytes as u64);
        Ok(files)
    }

    fn random(&mut self, len: u32) -> Result<Vec<u8>, Abort> {
        self.open()?;
        if len > MAX_RANDOM_BYTES {
            return Err(self.fault(format!(
                "it asked for {len} random bytes at once, over the cap of {MAX_RANDOM_BYTES}"
            )));
        }
        let mut out = vec![0; len as usize];
        self.rng.fill_bytes(&mut out);
        self.work = self.work.saturating_add(4 * len as u64);
        Ok(out)
    }
}
