//! A referee's game as the tournament commands run, resume, shard, merge and verify it.
//!
//! Everything after playing (results, leaderboard, archive) works from the manifest's
//! options and the match records alone, so `koth merge` and `koth report` need no referee.

use super::host::MatchHost;
use super::pages::VIEWER_FILE;
use super::record::{LogLine, MatchRecord};
use super::schedule::{self, Fixture};
use super::shape::{FormatName, GameShape, RefereeOptions};
use super::Referee;
use crate::games::{Finished, Game, Player};
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::{Vfs, VfsLimits};
use crate::tournament::archive::{Archive, ArchiveError, MatchFiles};
use crate::tournament::leaderboard::{Columns, Leaderboard};
use crate::tournament::ratings::MIN_MATCHES;
use crate::tournament::results::{head_to_head, rate, standings, write_run, MatchUnit, Results};
use crate::tournament::store::Identity;
use crate::tournament::{
    self, Manifest, MatchFormat, MatchSummary, RunError, RunPlan, ScratchScope,
};
use koth_referee::{MatchSetup, Seat};
use serde::Serialize;
use std::sync::{Arc, Mutex};

/// A game played by a referee: built in, or a component.
pub struct RefereeGame {
    name: String,
    referee: Option<Arc<dyn Referee>>,
}

impl RefereeGame {
    /// The game `referee` plays.
    pub fn new(referee: Arc<dyn Referee>) -> RefereeGame {
        RefereeGame {
            name: referee.description().name.clone(),
            referee: Some(referee),
        }
    }

    /// The game named `name`, for the steps after playing (merge, report): it can finish
    /// a run from its records but not play one.
    pub fn finishing(name: &str) -> RefereeGame {
        RefereeGame {
            name: name.to_string(),
            referee: None,
        }
    }

    /// The referee, if this game can play.
    pub fn referee(&self) -> Option<&Arc<dyn Referee>> {
        self.referee.as_ref()
    }
}

/// The matches of a run, for the tournament layer.
struct Matches<'a> {
    referee: &'a dyn Referee,
    players: &'a [Arc<dyn Player>],
    opts: &'a RefereeOptions,
    shape: Arc<GameShape>,
    fixtures: Vec<Fixture>,
    /// With `--scratch tournament`: each bot's directory for the whole run, and the index of
    /// its last match (after which the archive keeps it). Empty otherwise.
    kept: Vec<(Mutex<Vfs>, usize)>,
}

impl Matches<'_> {
    fn tournament_scratch(&self) -> bool {
        self.opts.scratch == ScratchScope::Tournament
    }
}

impl MatchFormat for Matches<'_> {
    type Match = Fixture;
    type Record = MatchRecord;

    fn matches(&self) -> &[Fixture] {
        &self.fixtures
    }

    fn shared_state(&self, f: &Fixture) -> Vec<usize> {
        if self.tournament_scratch() {
            f.seats.clone()
        } else {
            Vec::new()
        }
    }

    fn identity(&self, f: &Fixture) -> Option<Identity> {
        // A match that finds what its bots wrote in earlier ones depends on them.
        (!self.tournament_scratch()).then(|| Identity {
            round: f.round,
            seats: f.seats.clone(),
        })
    }

    fn play(&self, index: usize, f: &Fixture) -> MatchRecord {
        let players: Vec<Arc<dyn Player>> = f
            .seats
            .iter()
            .map(|&b| Arc::clone(&self.players[b]))
            .collect();
        let setup = MatchSetup {
            round: f.round,
            paired: self.opts.paired,
            seats: f
                .seats
                .iter()
                .zip(&f.team_of)
                .map(|(&b, &team)| Seat {
                    bot: self.players[b].name().to_string(),
                    team,
                })
                .collect(),
            options: self.opts.options.to_values(),
            seed: f.seed,
        };
        let host = MatchHost::new(
            Arc::clone(&self.shape),
            players,
            f.seats_of.clone(),
            self.opts.directory,
            self.opts.limits,
            f.seed,
        );
        if !self.tournament_scratch() {
            let (host, result) = self.referee.play(&setup, host);
            return host.finish(result);
        }
        // The scheduler runs the matches that share a bot one at a time, in match order:
        // these locks are never contended. The directories are lent to the match and given
        // back after it. A bot holds one seat of a match (the schedule refuses copies).
        let lend = |b: usize| {
            let mut dir = self.kept[b].0.lock().unwrap_or_else(|e| e.into_inner());
            std::mem::replace(&mut *dir, Vfs::new(VfsLimits::default()))
        };
        let dirs = f.seats.iter().map(|&b| lend(b)).collect();
        // Time goes on from match to match, as the bots' files' times do.
        let host = host.with_directories(dirs, (index as u64).saturating_mul(1_000_000_000_000));
        let (host, result) = self.referee.play(&setup, host);
        let (mut record, dirs) = host.close(result);
        for (seat, (&b, dir)) in f.seats.iter().zip(dirs).enumerate() {
            let Some(dir) = dir else { continue };
            if self.kept[b].1 == index && dir.used_nodes() > 0 {
                record.kept.push((seat as u32, dir.snapshot()));
            }
            *self.kept[b].0.lock().unwrap_or_else(|e| e.into_inner()) = dir;
        }
        record
    }
}

/// A finished run.
pub struct RefereeRun {
    /// The matches, in order.
    pub fixtures: Vec<Fixture>,
    /// What happened in each.
    pub records: Vec<MatchRecord>,
    /// Each match in the shared results schema.
    pub summaries: Vec<MatchSummary>,
    /// Each match's record digest, for the receipt.
    pub digests: Vec<String>,
    /// The standings.
    pub leaderboard: Leaderboard,
    /// The bots' names, in the order given.
    pub names: Vec<String>,
    /// The game.
    pub shape: GameShape,
}

impl Finished for RefereeRun {
    fn names(&self) -> &[String] {
        &self.names
    }
    fn summaries(&self) -> &[MatchSummary] {
        &self.summaries
    }
    fn leaderboard(&self) -> &Leaderboard {
        &self.leaderboard
    }
    fn invocations(&self) -> u64 {
        self.records
            .iter()
            .flat_map(|r| &r.invocations)
            .map(|&n| u64::from(n))
            .sum()
    }
}

/// A match's name: its seats, team by team (`a (N) & a (S) against b (E) & b (W)`), or its
/// number when more than four bots play.
fn label(shape: &GameShape, index: usize, f: &Fixture, names: &[String]) -> String {
    let seat = |s: usize| format!("{} ({})", names[f.seats[s]], shape.seat_name(s));
    if f.participants.len() > 4 {
        return format!("match {index}: {} bots", f.participants.len());
    }
    let sides: Vec<Vec<usize>> = if shape.teams.is_empty() {
        (0..f.seats.len()).map(|s| vec![s]).collect()
    } else {
        shape
            .teams
            .iter()
            .map(|t| t.iter().map(|&s| s as usize).collect())
            .collect()
    };
    let text: Vec<String> = sides
        .iter()
        .map(|side| {
            side.iter()
                .map(|&s| seat(s))
                .collect::<Vec<_>>()
                .join(" & ")
        })
        .collect();
    format!("match {index}: {}", text.join(" against "))
}

/// A match in the shared results schema.
fn summarize(
    shape: &GameShape,
    index: usize,
    f: &Fixture,
    r: &MatchRecord,
    names: &[String],
) -> MatchSummary {
    let first = |p: usize| f.seats_of[p].first().copied().unwrap_or(0);
    let over_seats = |p: usize, v: &[u64]| f.seats_of[p].iter().filter_map(|&s| v.get(s)).sum();
    let invocations: Vec<u64> = r.invocations.iter().map(|&n| u64::from(n)).collect();
    let winners = (0..f.participants.len())
        .filter(|&p| {
            f.seats_of[p]
                .iter()
                .any(|&s| r.winners.contains(&(s as u32)))
        })
        .collect();
    MatchSummary {
        label: label(shape, index, f, names),
        participants: f.participants.clone(),
        scores: (0..f.participants.len())
            .map(|p| r.scores.get(first(p)).copied().unwrap_or(0))
            .collect(),
        winners,
        void: r.void.clone(),
        fuel: (0..f.participants.len())
            .map(|p| over_seats(p, &r.fuel))
            .collect(),
        invocations: (0..f.participants.len())
            .map(|p| over_seats(p, &invocations))
            .collect(),
        forfeits: (0..f.participants.len())
            .flat_map(|p| {
                f.seats_of[p].iter().flat_map(move |&s| {
                    r.failures
                        .get(s)
                        .into_iter()
                        .flatten()
                        .map(move |(k, &n)| (p, k.clone(), n))
                })
            })
            .collect(),
        points: if r.points.is_empty() {
            Vec::new()
        } else {
            (0..f.participants.len())
                .map(|p| r.points.get(first(p)).copied().unwrap_or((0, 0)))
                .collect()
        },
    }
}

/// The leaderboard's columns for `shape`.
fn columns(shape: &GameShape) -> Columns {
    Columns {
        score: shape.scoring.score_name.clone(),
        matches: shape.scoring.matches.clone(),
        spread: shape.scoring.spread,
        points: shape.scoring.points,
    }
}

/// Why a `--reuse` store saves little for runs of the game `game` with `opts`, if so: in an
/// all-play-all game every match holds every bot, so any new version changes them all. (The
/// CLI prints it; a contest's leaderboard says it.)
pub fn reuse_note(game: &str, opts: &RefereeOptions) -> Option<String> {
    (opts.format == FormatName::AllPlayAll).then(|| {
        format!(
            "every bot plays in all of {game}'s {} (all-play-all), so a change to any bot \
             replays them all",
            opts.game.scoring.matches
        )
    })
}

impl Game for RefereeGame {
    type Options = RefereeOptions;
    type Record = MatchRecord;
    type Run = RefereeRun;

    fn invocation_lines(&self, index: usize, r: &MatchRecord) -> Vec<serde_json::Value> {
        r.log
            .iter()
            .filter_map(|invocation| serde_json::to_value(LogLine { index, invocation }).ok())
            .collect()
    }

    fn name(&self) -> &str {
        &self.name
    }

    /// A decision whose verdict carries events is read from its line. One without is read
    /// from the human log, where a referee may mark each decision with the line `BOT "ARG"
    /// "ARG"...` (the form of koth's logs, which Coup's referee writes): the lines after the
    /// decision's mark, up to the next decision's.
    fn decision_reading(&self, r: &MatchRecord, k: usize) -> Vec<String> {
        if r.log.get(k).is_none_or(|d| !d.events.is_empty()) {
            return Vec::new();
        }
        let marks = r.log.iter().map(|d| decision_mark(&d.bot, d.args.iter()));
        // A referee may pass several lines in one call (Coup's does): read line by line.
        let lines = r.human_log.iter().flat_map(|entry| entry.split('\n'));
        lines_after_mark(lines, marks, k)
    }

    fn match_count(&self, bots: usize, opts: &RefereeOptions) -> usize {
        schedule::count(opts, bots).unwrap_or(0)
    }

    fn reuse_note(&self, opts: &RefereeOptions) -> Option<String> {
        reuse_note(&self.name, opts)
    }

    fn viewer(&self) -> Option<&str> {
        self.referee
            .as_ref()
            .map(|r| r.pages().viewer.as_str())
            .filter(|v| !v.is_empty())
    }

    fn play(
        &self,
        players: &[Arc<dyn Player>],
        opts: &RefereeOptions,
        workers: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        plan: RunPlan<'_, MatchRecord>,
    ) -> Result<Vec<Option<MatchRecord>>, RunError> {
        let referee = self.referee.as_deref().ok_or_else(|| {
            RunError::Cannot(format!("the referee of {} is not loaded", self.name))
        })?;
        let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
        let fixtures =
            schedule::schedule(opts, &names).map_err(|e| RunError::Cannot(e.to_string()))?;
        let kept = match (opts.scratch, opts.directory) {
            (ScratchScope::Tournament, Some(quota)) => (0..players.len())
                .map(|b| {
                    let last = fixtures
                        .iter()
                        .rposition(|f| f.seats.contains(&b))
                        .unwrap_or(usize::MAX);
                    (Mutex::new(Vfs::new(quota)), last)
                })
                .collect(),
            (ScratchScope::Tournament, None) => {
                return Err(RunError::Cannot(format!(
                    "--scratch tournament: {} gives bots no directory",
                    self.name
                )))
            }
            (ScratchScope::Game, _) => Vec::new(),
        };
        let format = Matches {
            referee,
            players,
            opts,
            shape: Arc::new(opts.game.clone()),
            fixtures,
            kept,
        };
        tournament::run(&format, workers, progress, plan)
    }

    fn finish(
        &self,
        names: Vec<String>,
        opts: &RefereeOptions,
        records: Vec<MatchRecord>,
        digests: Vec<String>,
    ) -> Result<RefereeRun, RunError> {
        let fixtures =
            schedule::schedule(opts, &names).map_err(|e| RunError::Cannot(e.to_string()))?;
        RunError::check_records(fixtures.len(), records.len(), digests.len())?;
        let summaries: Vec<MatchSummary> = fixtures
            .iter()
            .zip(&records)
            .enumerate()
            .map(|(i, (f, r))| summarize(&opts.game, i, f, r, &names))
            .collect();
        let mut leaderboard = standings(&names, &summaries, columns(&opts.game));
        let per_round = schedule::count(
            &RefereeOptions {
                rounds: 1,
                ..opts.clone()
            },
            names.len(),
        )
        .unwrap_or(1)
        .max(1);
        let many = opts.game.scoring.matches.clone();
        let unit = MatchUnit {
            one: many.strip_suffix('s').unwrap_or(&many).to_string(),
            advice: format!(
                "run with --rounds {} or more",
                MIN_MATCHES.div_ceil(per_round)
            ),
            many,
        };
        rate(&mut leaderboard, &names, &summaries, opts.seed, &unit);
        Ok(RefereeRun {
            fixtures,
            records,
            summaries,
            digests,
            leaderboard,
            names,
            shape: opts.game.clone(),
        })
    }

    fn write_archive(
        &self,
        run: &RefereeRun,
        manifest: &Manifest<RefereeOptions>,
        archive: &Archive,
    ) -> Result<(), ArchiveError> {
        write_archive(run, manifest, archive)?;
        // The referee's own viewer travels with its archive: the report is built from the
        // archive alone.
        match self.viewer() {
            Some(viewer) => archive.write(VIEWER_FILE, viewer.as_bytes()),
            None => Ok(()),
        }
    }
}

#[derive(Serialize)]
struct Detail<'a> {
    matches: Vec<MatchDetail<'a>>,
}

#[derive(Serialize)]
struct MatchDetail<'a> {
    index: usize,
    round: u32,
    seats: Vec<String>,
    result: &'a serde_json::Value,
}

/// Write the archive: manifest, results (the referee's own account of each match under
/// `detail`), leaderboard, head-to-head table for two-sided games, every decision
/// (`invocations.jsonl`), and in `matches.zip.zst` a human log per match (`logs/match-N.log`, in
/// match order) then what each seat left in its directory (`scratch/match-N/<seat>/`), or
/// with `--scratch tournament` what each bot left in its run-long one (`scratch/<bot>/`).
pub fn write_archive(
    run: &RefereeRun,
    manifest: &Manifest<RefereeOptions>,
    archive: &Archive,
) -> Result<(), ArchiveError> {
    let matches = run
        .fixtures
        .iter()
        .zip(&run.records)
        .enumerate()
        .map(|(index, (f, r))| MatchDetail {
            index,
            round: f.round,
            seats: (0..r.seats.len())
                .map(|s| format!("{} ({})", r.seats[s], run.shape.seat_name(s)))
                .collect(),
            result: &r.detail,
        })
        .collect();
    let results = Results::new(
        &run.shape.name,
        &run.names,
        &run.leaderboard,
        &run.summaries,
        &run.digests,
        &manifest.options.game.scoring.matches,
        Detail { matches },
    );
    let matches: Vec<(usize, &MatchRecord)> = run.records.iter().enumerate().collect();
    write_run(
        archive,
        manifest,
        &run.leaderboard,
        results,
        head_to_head(&run.names, &run.summaries),
        &matches,
        |&(index, r), buf| r.log.write_lines(index, buf),
        || {
            let mut files = MatchFiles::with_capacity(run.records.len());
            for (i, r) in run.records.iter().enumerate() {
                files.file(format!("logs/match-{i}.log"), r.human_log.as_log())?;
            }
            for (i, r) in run.records.iter().enumerate() {
                for (seat, entries) in &r.scratch {
                    let owner = format!("match-{i}/{}", run.shape.seat_name(*seat as usize));
                    files.scratch(&owner, entries)?;
                }
            }
            // Run-long directories (`--scratch tournament`), each as its bot's last match
            // left it, under the bot's name, in the order the bots were given.
            let mut kept: Vec<(&str, &[SnapshotEntry])> = run
                .records
                .iter()
                .flat_map(|r| {
                    r.kept
                        .iter()
                        .map(|(seat, entries)| (r.seats[*seat as usize].as_str(), &entries[..]))
                })
                .collect();
            kept.sort_by_key(|(bot, _)| run.names.iter().position(|n| n == bot));
            for (bot, entries) in kept {
                files.scratch(bot, entries)?;
            }
            Ok(files)
        },
    )
}

/// The line that marks a decision in a human log: the bot's name and its arguments, each
/// quoted as Rust's `Debug` quotes a string (newlines and quotes visible).
pub fn decision_mark<S: AsRef<str>>(bot: &str, args: impl IntoIterator<Item = S>) -> String {
    let quoted: Vec<String> = args
        .into_iter()
        .map(|a| format!("{:?}", a.as_ref()))
        .collect();
    format!("{bot} {}", quoted.join(" "))
}

/// The lines of `log` after the `k`th of `marks` (each found in order after the one before),
/// up to the next; empty when the log does not hold the marks.
pub(crate) fn lines_after_mark<'a>(
    log: impl Iterator<Item = &'a str>,
    marks: impl Iterator<Item = String>,
    k: usize,
) -> Vec<String> {
    let log: Vec<&str> = log.collect();
    let mut starts = Vec::new();
    let mut from = 0;
    for mark in marks.take(k + 2) {
        match log[from..].iter().position(|l| *l == mark) {
            Some(at) => {
                starts.push(from + at);
                from += at + 1;
            }
            None => break,
        }
    }
    let Some(&start) = starts.get(k) else {
        return Vec::new();
    };
    let end = starts.get(k + 1).copied().unwrap_or(log.len());
    log[start + 1..end].iter().map(|l| l.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_decisions_reading_is_the_log_after_its_mark() {
        let mark = |bot: &str, a: &str| decision_mark(bot, [a, "I\n"]);
        assert_eq!(mark("ann", "f.txt"), "ann \"f.txt\" \"I\\n\"");
        let log = [
            "--- ann vs. bob".to_string(),
            mark("ann", "1"),
            "ann played".into(),
            mark("bob", "2"),
            mark("ann", "1"),
            "ann again".into(),
            "ann wins!".into(),
        ];
        let marks = || [mark("ann", "1"), mark("bob", "2"), mark("ann", "1")].into_iter();
        let read = |k| lines_after_mark(log.iter().map(String::as_str), marks(), k);
        assert_eq!(read(0), ["ann played"]);
        assert!(read(1).is_empty());
        // The same mark again is the next one after the one before, and the last decision
        // reads to the end.
        assert_eq!(read(2), ["ann again", "ann wins!"]);
        assert!(read(3).is_empty());
    }
}
