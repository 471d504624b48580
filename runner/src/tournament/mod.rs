//! What every game's tournament shares, knowing neither games nor wasmtime.
//!
//! A game brings its rules, its driver and its match format ([`MatchFormat`]: which matches
//! a run plays and how one is played and summed up). This layer brings the rest:
//!
//! - [`scheduler`]: matches on worker threads, results in match order whatever the worker
//!   count, and matches that share a bot's state run in match order;
//! - [`results`]: the game-agnostic results (`results.json`: bots, scores, every match's
//!   participants and scores, void matches), the leaderboard and the manifest;
//! - [`archive`]: the archive folder, written whole whatever bots left behind.

pub mod archive;
pub mod leaderboard;
pub mod ratings;
pub mod results;
pub mod scheduler;

pub use results::{BotEntry, Manifest, MatchSummary};

/// How a game's matches are scheduled and played. The tournament layer calls
/// [`MatchFormat::play`] for each match on worker threads and sums up the summaries.
///
/// The formats the games use: Coup's ordered-pair round robin (a match is one game of two
/// bots), Bank Heist's free for all (a match is one whole tournament of every bot, G games
/// with state carried from game to game), Euchre's partnered pairings.
pub trait MatchFormat: Sync {
    /// What identifies one match (its participants, its round...).
    type Match: Sync;
    /// What playing one match produced (records, logs...).
    type Record: Send;

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

    /// The game-agnostic summary of a played match.
    fn summarize(&self, index: usize, m: &Self::Match, record: &Self::Record) -> MatchSummary;
}

/// Play every match of `format` with `workers` threads. `progress(done, total)` is called
/// after each match. Records and summaries come back in match order.
pub fn run<F: MatchFormat>(
    format: &F,
    workers: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> (Vec<F::Record>, Vec<MatchSummary>) {
    let matches = format.matches();
    let total = matches.len();
    let uses: Vec<Vec<usize>> = matches.iter().map(|m| format.shared_state(m)).collect();
    let deps = if uses.iter().all(Vec::is_empty) {
        Vec::new()
    } else {
        scheduler::chain_by_resource(&uses)
    };
    let records = scheduler::run_jobs(
        total,
        &deps,
        workers,
        |i| format.play(i, &matches[i]),
        |done| progress(done, total),
    );
    let summaries = records
        .iter()
        .enumerate()
        .map(|(i, r)| format.summarize(i, &matches[i], r))
        .collect();
    (records, summaries)
}
