//! The games koth can run, each in its own module, and the one seam where a game's driver
//! meets the sandbox: [`Player`].
//!
//! A game's rules never see wasmtime. Its driver builds [`Invocation`]s and reads [`Report`]s,
//! which are plain data, so drivers and tournaments can be tested with scripted in-process
//! players and no wasm at all.

pub mod bank_heist;
pub mod coup;
pub mod euchre;
pub mod judge;
pub mod registry;
pub mod replay;
pub mod run;
pub mod str_list;
pub mod trial;
pub mod witness;

use crate::sandbox::{Bot, Invocation, Outcome, Report, Vfs};
use crate::tournament::archive::{Archive, ArchiveError};
use crate::tournament::leaderboard::Leaderboard;
use crate::tournament::{Manifest, MatchSummary, RunError, RunPlan};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::sync::Arc;

/// A game as the commands that run, resume, shard, merge and verify tournaments see it: its
/// matches, how to play them, and how a complete set of records becomes the archive. Every
/// step after playing works from the manifest and the records alone (no bots), which is what
/// lets `koth merge` build an archive from shards.
pub trait Game: Sync {
    /// The run's options, as the manifest records them.
    type Options: Serialize + DeserializeOwned + Sync;
    /// One played match, as the journal keeps it.
    type Record: Serialize + DeserializeOwned + Send + Sync;
    /// A finished run.
    type Run: Finished;

    /// The game's name in manifests and on the command line.
    fn name(&self) -> &str;

    /// The number of matches a run of `bots` bots plays.
    fn match_count(&self, bots: usize, opts: &Self::Options) -> usize;

    /// The field of the options that counts rounds (or tournaments): it decides which
    /// matches a run has, never how one goes, so reused matches do not depend on it.
    fn round_count_field(&self) -> &'static str {
        "rounds"
    }

    /// Why a run with these options can reuse no match from an earlier one with other bots,
    /// if that is so (said when nothing was reused, rather than pretend).
    fn reuse_note(&self, _opts: &Self::Options) -> Option<String> {
        None
    }

    /// The game's own replay viewer (a referee's `viewer`), which every folder of its runs
    /// holds as [`crate::referee::pages::VIEWER_FILE`] from the start, shards included, so
    /// that `koth merge` has it without the referee.
    fn viewer(&self) -> Option<&str> {
        None
    }

    /// Play what `plan` selects and has not done yet; one entry per match, in match order.
    fn play(
        &self,
        players: &[Arc<dyn Player>],
        opts: &Self::Options,
        workers: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        plan: RunPlan<'_, Self::Record>,
    ) -> Result<Vec<Option<Self::Record>>, RunError>;

    /// Sum up a complete run: every match's record, in match order, with its digest
    /// ([`crate::tournament::receipt::digests`]: the journal's, or computed). An error where
    /// the records are not one per match of these options and bots
    /// ([`RunError::check_records`]), or the options give no schedule.
    fn finish(
        &self,
        names: Vec<String>,
        opts: &Self::Options,
        records: Vec<Self::Record>,
        digests: Vec<String>,
    ) -> Result<Self::Run, RunError>;

    /// Play every match with `workers` threads and sum the run up: a whole run without a
    /// journal, as the library's callers (tests, benchmarks) want it.
    fn play_whole(
        &self,
        players: &[Arc<dyn Player>],
        opts: &Self::Options,
        workers: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
    ) -> Result<Self::Run, RunError> {
        let names = players.iter().map(|p| p.name().to_string()).collect();
        let records: Vec<Self::Record> = self
            .play(players, opts, workers, progress, RunPlan::all())?
            .into_iter()
            .flatten()
            .collect();
        let digests = crate::tournament::receipt::digests(&records, &Default::default())?;
        self.finish(names, opts, records, digests)
    }

    /// Match `index`'s lines of `invocations.jsonl`, as the archive writes them.
    fn invocation_lines(&self, index: usize, record: &Self::Record) -> Vec<serde_json::Value>;

    /// The field of an `invocations.jsonl` line that holds its match's index.
    fn match_field(&self) -> &'static str {
        "match"
    }

    /// How the game read decision `k` of a match, in the words of its human log, where the
    /// line in `invocations.jsonl` does not say it (its `decision`, `answer`, `failure` and
    /// `events` fields do, when it has them).
    fn decision_reading(&self, _record: &Self::Record, _k: usize) -> Vec<String> {
        Vec::new()
    }

    /// Write the archive of a finished run.
    fn write_archive(
        &self,
        run: &Self::Run,
        manifest: &Manifest<Self::Options>,
        archive: &Archive,
    ) -> Result<(), ArchiveError>;
}

/// Something to do with a game known only by name at run time (the `game` field of an
/// archive's manifest): [`with_game`] calls [`GameVisitor::visit`] with the game.
pub trait GameVisitor {
    /// What the visit returns.
    type Out;
    /// Do it for `game`.
    fn visit<G: Game>(self, game: &G) -> Self::Out;
}

/// Every built-in game's name, for messages.
pub const GAMES: [&str; 3] = [coup::NAME, bank_heist::NAME, euchre::NAME];

/// Run `visitor` with the game a manifest names (`None` for an unknown name):
///
/// - a game a plugin played (the manifest has a `referee`): that referee's game, able to
///   finish a run but not to play one (the commands that re-play load the plugin);
/// - a game a built-in referee played (its options hold the game's shape): that referee,
///   from [`registry`];
/// - otherwise the built-in game of that name, as Coup and Bank Heist were played before
///   they had referees (their archives keep their own layout: Coup's before
///   `koth-results/4`, Bank Heist's before its referee, in the same schema).
pub fn with_game<V: GameVisitor>(manifest: &serde_json::Value, visitor: V) -> Option<V::Out> {
    let name = manifest.get("game")?.as_str()?;
    if manifest.get("referee").is_some_and(|r| !r.is_null()) {
        return Some(visitor.visit(&crate::referee::game::RefereeGame::finishing(name)));
    }
    if manifest.pointer("/options/game").is_some() {
        let referee = registry::referee(name)?;
        return Some(visitor.visit(&crate::referee::game::RefereeGame::new(referee)));
    }
    match name {
        coup::tournament::NAME => Some(visitor.visit(&coup::tournament::Coup)),
        bank_heist::format::NAME => Some(visitor.visit(&bank_heist::format::BankHeist)),
        _ => None,
    }
}

/// What a finished run shows, whatever the game.
pub trait Finished {
    /// The bots' names, in the order given.
    fn names(&self) -> &[String];
    /// Every match in the shared schema.
    fn summaries(&self) -> &[MatchSummary];
    /// The standings.
    fn leaderboard(&self) -> &Leaderboard;
    /// Invocations in all.
    fn invocations(&self) -> u64;
}

/// Something that can take one decision: a sandboxed bot, or a scripted player in tests.
pub trait Player: Send + Sync {
    /// The player's name (its `argv[0]`, and its name on the leaderboard).
    fn name(&self) -> &str;
    /// Take one decision.
    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report;
}

impl Player for Bot {
    fn name(&self) -> &str {
        Bot::name(self)
    }

    /// A typed-world component goes through its world's adapter (`crate::worlds`);
    /// anything else is invoked directly.
    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        crate::worlds::invoke(self, inv, dir)
    }
}

/// A short stable name for an invocation that did not end `ok`, for the leaderboard's
/// forfeit and failure counts (`exit`, `trap`, `fuel`, `memory`, `output`, `limit`).
pub fn crash_kind(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Exit(_) => "exit",
        Outcome::Trap(_) => "trap",
        Outcome::OutOfFuel => "fuel",
        Outcome::OutOfMemory => "memory",
        Outcome::OutputLimit => "output",
        _ => "limit",
    }
}

/// The last `max` bytes of a bot's stderr, as text for logs.
pub fn stderr_tail(stderr: &[u8], max: usize) -> String {
    let start = stderr.len().saturating_sub(max);
    String::from_utf8_lossy(&stderr[start..]).into_owned()
}
