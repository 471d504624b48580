//! What every game's tournament shares, knowing neither games nor wasmtime.
//!
//! A game brings its rules, its driver and its match format ([`MatchFormat`]: which matches
//! a run plays and how one is played and summed up). This layer brings the rest:
//!
//! - [`scheduler`]: matches on worker threads, results in match order whatever the worker
//!   count, and matches that share a bot's state run in match order;
//! - [`results`]: the game-agnostic results (`results.json`: bots, scores, every match's
//!   participants and scores, void matches), the leaderboard and the manifest;
//! - [`archive`]: the archive folder, written whole whatever bots left behind;
//! - [`reader`]: a finished archive opened and checked, the one way every reader starts;
//! - [`container`]: `matches.zip.zst`, the one file holding every match's logs and scratch;
//! - [`seekable`]: the zstd frames with a seek table that the archive's big files are
//!   compressed in;
//! - [`journal`]: every finished match appended as it finishes, for `--resume` and shards;
//! - [`receipt`]: the hash over a run's manifest and results that `koth verify` checks.

pub mod archive;
pub mod container;
pub mod journal;
pub mod leaderboard;
pub mod ratings;
pub mod reader;
pub mod receipt;
pub mod results;
pub mod sample;
pub mod scheduler;
pub mod seekable;
pub mod store;

pub use journal::{Journal, Shard};
pub use results::{BotEntry, Manifest, MatchSummary, RefereeEntry};

/// How long a bot's scratch files live (`--scratch`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    Default,
    clap::ValueEnum,
)]
#[serde(rename_all = "snake_case")]
pub enum ScratchScope {
    /// A fresh directory for every game (the default).
    #[default]
    Game,
    /// One directory per bot for the whole tournament, as the original arbiter's folders.
    /// Games sharing a bot then run in game order, whatever the number of workers.
    Tournament,
}

impl ScratchScope {
    /// Whether this is the default, a directory per game (which manifests leave out).
    pub fn is_game(&self) -> bool {
        *self == ScratchScope::Game
    }
}

use std::collections::{BTreeMap, BTreeSet};

/// How a game's matches are scheduled and played. The tournament layer calls
/// [`MatchFormat::play`] for each match on worker threads.
///
/// The formats the games use: Coup's ordered-pair round robin (a match is one game of two
/// bots), Bank Heist's free for all (a match is one whole tournament of every bot, G games
/// with state carried from game to game), Euchre's partnered pairings.
pub trait MatchFormat: Sync {
    /// What identifies one match (its participants, its round...).
    type Match: Sync;
    /// What playing one match produced (records, logs...). It goes to the journal as JSON
    /// and must come back identical, so that a resumed or merged run writes the same archive.
    type Record: Send + serde::Serialize;

    /// Every match of the run, in order; the order fixes seeds and the archive.
    fn matches(&self) -> &[Self::Match];

    /// Bots whose state carries over between matches (such as a tournament-wide scratch
    /// directory): matches that share one run in match order. Empty (the default) when
    /// matches are independent.
    fn shared_state(&self, _m: &Self::Match) -> Vec<usize> {
        Vec::new()
    }

    /// Play match `index`.
    fn play(&self, index: usize, m: &Self::Match) -> Self::Record;

    /// What defines match `m`, for keeping it and reusing it in a later run (its round and
    /// the bot in each seat): `None` when it cannot be reused (it depends on other matches).
    fn identity(&self, _m: &Self::Match) -> Option<store::Identity> {
        None
    }
}

/// Which matches a run plays and what it already has.
pub struct RunPlan<'a, R> {
    /// Records already played (read back from a journal), by match index: not played again.
    pub done: BTreeMap<usize, R>,
    /// Play only these matches (a shard's, or a sample to verify); `None`: all of them.
    pub select: Option<BTreeSet<usize>>,
    /// Where each newly finished match is appended.
    pub journal: Option<&'a Journal>,
    /// Where finished matches are kept and looked up by what defines them.
    pub reuse: Option<&'a store::Reuse<'a>>,
}

impl<R> Default for RunPlan<'_, R> {
    fn default() -> Self {
        RunPlan {
            done: BTreeMap::new(),
            select: None,
            journal: None,
            reuse: None,
        }
    }
}

impl<R> RunPlan<'_, R> {
    /// A plan that plays every match and keeps no journal.
    pub fn all() -> Self {
        Self::default()
    }
}

/// A run could not be planned.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Matches carry bot state from one to the next, so one cannot be played without all
    /// those before it.
    #[error(
        "these matches carry bot state from one to the next ({0}), so they cannot be resumed, \
         sharded or re-played one by one; run the whole tournament again"
    )]
    SharedState(String),
    /// The run cannot be played as asked (its game cannot draw these bots' matches, or is
    /// not loaded).
    #[error("{0}")]
    Cannot(String),
    /// A match's record cannot be written as JSON, so it has no digest.
    #[error("a match's record cannot be written as JSON: {0}")]
    Record(#[from] serde_json::Error),
    /// The records given to sum a run up are not one per match (a journal or shards of
    /// another run).
    #[error(
        "the run has {matches} matches, but {records} records and {digests} digests were given"
    )]
    Records {
        /// Matches the run's options and bots give.
        matches: usize,
        /// Records given.
        records: usize,
        /// Digests given.
        digests: usize,
    },
}

impl RunError {
    /// `Ok` when there is one record and one digest per match.
    pub fn check_records(matches: usize, records: usize, digests: usize) -> Result<(), RunError> {
        if records == matches && digests == matches {
            Ok(())
        } else {
            Err(RunError::Records {
                matches,
                records,
                digests,
            })
        }
    }
}

/// Play the matches of `format` that `plan` selects and has not done yet, with `workers`
/// threads; `progress(done, total)` is called after each match (counting the ones already
/// done). Returns one entry per match in match order: the record, or `None` for a match
/// outside the selection.
pub fn run<F: MatchFormat>(
    format: &F,
    workers: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
    plan: RunPlan<'_, F::Record>,
) -> Result<Vec<Option<F::Record>>, RunError>
where
    F::Record: serde::de::DeserializeOwned,
{
    let matches = format.matches();
    let uses: Vec<Vec<usize>> = matches.iter().map(|m| format.shared_state(m)).collect();
    let shared = uses.iter().any(|u| !u.is_empty());
    let RunPlan {
        mut done,
        select,
        journal,
        reuse,
    } = plan;
    let selected = |i: &usize| select.as_ref().is_none_or(|s| s.contains(i));
    let keys: Vec<Option<[u8; 32]>> = matches
        .iter()
        .map(|m| Some(reuse?.key(&format.identity(m)?)))
        .collect();
    // Matches the store already holds are taken as they are (and journaled, so a shard's
    // journal is whole for the merge).
    // They are read on the run's workers: a new entry in a 100-bot ladder takes 99,000
    // records, and reading, parsing and journaling them one by one was most of its run.
    if let Some(reuse) = reuse.filter(|_| !shared) {
        let candidates: Vec<usize> = (0..matches.len())
            .filter(selected)
            .filter(|i| keys[*i].is_some() && !done.contains_key(i))
            .collect();
        let found = scheduler::run_jobs(
            candidates.len(),
            &[],
            workers,
            |j| {
                let i = candidates[j];
                let found = reuse.store.find::<F::Record>(&keys[i]?)?;
                if let Some(journal) = journal {
                    // A shard's journal is what the merge reads: it must hold every record.
                    // A whole run's journal only lets a killed run resume, and a resumed run
                    // takes these from the store again: writing them (a gigabyte for a new
                    // entry in a 100-bot ladder) would only cost.
                    if select.is_some() {
                        journal.append_json(i, &found.json);
                    } else {
                        journal.note(i, found.digest);
                    }
                }
                reuse.took();
                Some(found.record)
            },
            |_| {},
        );
        for (&i, record) in candidates.iter().zip(found) {
            if let Some(record) = record {
                done.insert(i, record);
            }
        }
    }
    let todo: Vec<usize> = (0..matches.len())
        .filter(selected)
        .filter(|i| !done.contains_key(i))
        .collect();
    if shared && todo.len() != matches.len() {
        return Err(RunError::SharedState(
            "a tournament-wide scratch directory".into(),
        ));
    }
    let deps = if shared {
        scheduler::chain_by_resource(&uses)
    } else {
        Vec::new()
    };
    let total = (0..matches.len()).filter(selected).count();
    let already = total - todo.len();
    let played = scheduler::run_jobs(
        todo.len(),
        &deps,
        workers,
        |j| {
            let i = todo[j];
            let record = format.play(i, &matches[i]);
            let store = reuse.zip(keys[i]);
            // Serialised once for the journal and the store. A record that cannot be (no
            // match's can) goes to the journal's own serialiser, which reports the failure.
            let json = store.and_then(|_| serde_json::to_vec(&record).ok());
            if let Some(journal) = journal {
                match &json {
                    Some(json) => journal.append_json(i, json),
                    None => journal.append(i, &record),
                }
            }
            if let (Some((reuse, key)), Some(json)) = (store, &json) {
                // A store that cannot be written costs the reuse, never the run.
                if reuse.store.put_json(&key, json).is_ok() {
                    reuse.kept();
                }
            }
            record
        },
        |finished| progress(already + finished, total),
    );
    for (i, r) in todo.iter().zip(played) {
        done.insert(*i, r);
    }
    Ok((0..matches.len()).map(|i| done.remove(&i)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Matches that square their index, counting how many were played; optionally sharing
    /// one bot's state.
    struct Squares {
        matches: Vec<usize>,
        shared: bool,
        played: AtomicUsize,
    }

    impl MatchFormat for Squares {
        type Match = usize;
        type Record = usize;

        fn matches(&self) -> &[usize] {
            &self.matches
        }

        fn shared_state(&self, _m: &usize) -> Vec<usize> {
            if self.shared {
                vec![0]
            } else {
                Vec::new()
            }
        }

        fn play(&self, _i: usize, m: &usize) -> usize {
            self.played.fetch_add(1, Ordering::SeqCst);
            m * m
        }

        fn identity(&self, m: &usize) -> Option<store::Identity> {
            // Match m seats bots m and m + 1, in round 0.
            (!self.shared).then(|| store::Identity {
                round: 0,
                seats: vec![*m, m + 1],
            })
        }
    }

    fn squares(n: usize, shared: bool) -> Squares {
        Squares {
            matches: (0..n).collect(),
            shared,
            played: AtomicUsize::new(0),
        }
    }

    #[test]
    fn a_plan_plays_only_what_it_selects_and_has_not_done() {
        let f = squares(10, false);
        let plan = RunPlan {
            // Already done, with a record the format would not give: it must be kept as is.
            done: [(2, 1000), (5, 1001)].into_iter().collect(),
            select: Some([1, 2, 3, 5, 8].into_iter().collect()),
            ..RunPlan::all()
        };
        let last = AtomicUsize::new(0);
        let out = run(
            &f,
            2,
            &|done, total| {
                assert_eq!(total, 5);
                last.fetch_max(done, Ordering::SeqCst);
            },
            plan,
        )
        .unwrap();
        assert_eq!(f.played.load(Ordering::SeqCst), 3);
        assert_eq!(last.load(Ordering::SeqCst), 5);
        let expect = [
            None,
            Some(1),
            Some(1000),
            Some(9),
            None,
            Some(1001),
            None,
            None,
            Some(64),
            None,
        ];
        assert_eq!(out, expect);
    }

    #[test]
    fn the_journal_gets_every_newly_played_match() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(journal::JOURNAL);
        let j = Journal::create(&path, &journal::Header::new(6, None)).unwrap();
        let f = squares(6, false);
        let plan = RunPlan {
            done: [(0, 0)].into_iter().collect(),
            journal: Some(&j),
            ..RunPlan::all()
        };
        run(&f, 3, &|_, _| {}, plan).unwrap();
        j.finish().unwrap();
        let (_, records) = journal::read::<usize>(&path).unwrap();
        assert_eq!(records, (1..6).map(|i| (i, i * i)).collect());
    }

    #[test]
    fn a_run_plays_only_the_matches_its_store_lacks_and_a_shard_journals_all() {
        let dir = tempfile::tempdir().unwrap();
        let st = store::Store::open(&dir.path().join("store")).unwrap();
        let bots = |n: usize, changed: usize| -> Vec<(String, String)> {
            (0..n)
                .map(|b| {
                    let sha = if b == changed { "new" } else { "old" };
                    (format!("b{b}"), sha.to_string())
                })
                .collect()
        };
        let first = store::Reuse::new(&st, [1; 32], bots(7, 99));
        let f = squares(6, false);
        let plan = RunPlan {
            reuse: Some(&first),
            ..RunPlan::all()
        };
        let all = run(&f, 2, &|_, _| {}, plan).unwrap();
        assert_eq!(f.played.load(Ordering::SeqCst), 6);
        assert_eq!(first.stored.load(Ordering::SeqCst), 6);
        // Bot 3 changed: matches 2 (bots 2, 3) and 3 (bots 3, 4) are played again.
        let second = store::Reuse::new(&st, [1; 32], bots(7, 3));
        let f2 = squares(6, false);
        let path = dir.path().join(journal::JOURNAL);
        let j = Journal::create(&path, &journal::Header::new(6, None)).unwrap();
        let plan = RunPlan {
            reuse: Some(&second),
            journal: Some(&j),
            ..RunPlan::all()
        };
        let again = run(&f2, 2, &|_, _| {}, plan).unwrap();
        assert_eq!(again, all);
        assert_eq!(f2.played.load(Ordering::SeqCst), 2);
        assert_eq!(second.reused.load(Ordering::SeqCst), 4);
        // A whole run writes only what it played; every match's digest still reaches the
        // receipt, the reused ones' taken from the store's bytes.
        let digests = j.finish().unwrap();
        let (_, journaled) = journal::read::<usize>(&path).unwrap();
        assert_eq!(journaled.keys().copied().collect::<Vec<_>>(), vec![2, 3]);
        let expect: BTreeMap<usize, String> = all
            .iter()
            .enumerate()
            .map(|(i, r)| (i, receipt::digest(&r.unwrap()).unwrap()))
            .collect();
        assert_eq!(digests, expect);
        // A shard's journal is what the merge reads: it holds the reused matches whole.
        let shard = store::Reuse::new(&st, [1; 32], bots(7, 3));
        let path = dir.path().join("shard.jsonl");
        let j = Journal::create(&path, &journal::Header::new(6, None)).unwrap();
        let plan = RunPlan {
            reuse: Some(&shard),
            journal: Some(&j),
            select: Some([0, 2, 4].into_iter().collect()),
            ..RunPlan::all()
        };
        run(&squares(6, false), 2, &|_, _| {}, plan).unwrap();
        j.finish().unwrap();
        let (_, journaled) = journal::read::<usize>(&path).unwrap();
        assert_eq!(
            journaled,
            [0, 2, 4]
                .into_iter()
                .map(|i| (i, all[i].unwrap()))
                .collect()
        );
        // Another run identity shares nothing.
        let other = store::Reuse::new(&st, [2; 32], bots(7, 99));
        let f3 = squares(6, false);
        let plan = RunPlan {
            reuse: Some(&other),
            ..RunPlan::all()
        };
        run(&f3, 2, &|_, _| {}, plan).unwrap();
        assert_eq!(f3.played.load(Ordering::SeqCst), 6);
    }

    #[test]
    fn shared_state_refuses_a_partial_run_but_plays_a_whole_one() {
        let f = squares(4, true);
        let partial = RunPlan {
            select: Some([1].into_iter().collect()),
            ..RunPlan::all()
        };
        assert!(matches!(
            run(&f, 2, &|_, _| {}, partial),
            Err(RunError::SharedState(_))
        ));
        let resumed = RunPlan {
            done: [(0, 0)].into_iter().collect(),
            ..RunPlan::all()
        };
        assert!(run(&f, 2, &|_, _| {}, resumed).is_err());
        assert_eq!(f.played.load(Ordering::SeqCst), 0);
        let all = run(&f, 2, &|_, _| {}, RunPlan::all()).unwrap();
        assert_eq!(all, vec![Some(0), Some(1), Some(4), Some(9)]);
    }
}
