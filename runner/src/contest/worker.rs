//! The contest's background worker: one run at a time. Runs are queued in the database, so
//! a server killed during a run finds it `running` on restart and carries it on from its
//! journal; a set of versions is queued once (the run table's key), so none is run twice.

use super::{db, run, Contest, ContestError};
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The run in progress, as the pages show it.
#[derive(Debug, Default)]
pub struct Live {
    /// The run's id (0: none).
    pub run: AtomicI64,
    /// Matches done, counting those reused and resumed.
    pub done: AtomicUsize,
    /// Matches in the run.
    pub total: AtomicUsize,
    /// Runs finished or failed since the server started (pages re-read on a change).
    pub finished: AtomicUsize,
}

/// Wakes the worker when a version is accepted.
#[derive(Debug, Default)]
pub struct Wake {
    pending: Mutex<bool>,
    cond: Condvar,
}

impl Wake {
    /// Say there is something new.
    pub fn notify(&self) {
        if let Ok(mut p) = self.pending.lock() {
            *p = true;
        }
        self.cond.notify_all();
    }

    /// Wait until notified, at most `timeout`.
    fn wait(&self, timeout: Duration) {
        let Ok(mut p) = self.pending.lock() else {
            return;
        };
        if !*p {
            p = match self.cond.wait_timeout(p, timeout) {
                Ok((p, _)) => p,
                Err(_) => return,
            };
        }
        *p = false;
    }
}

/// The next run to play: one left unfinished, or a new one of the newest version of every
/// bot if that set has not been queued before (a contest needs two bots for a run).
pub fn next_run(
    contest: &Contest,
    conn: &rusqlite::Connection,
) -> Result<Option<db::Run>, ContestError> {
    if let Some(r) = db::unfinished_run(conn)? {
        return Ok(Some(r));
    }
    let latest = db::latest_versions(conn)?;
    if latest.len() < 2 {
        return Ok(None);
    }
    let ids: Vec<i64> = latest.iter().map(|v| v.id).collect();
    db::queue_run(conn, &ids, run::match_count(contest, ids.len()))
}

/// Play one run to its end and record it (failed, with why, if it cannot be played).
pub fn play_run(
    contest: &Contest,
    conn: &mut rusqlite::Connection,
    r: &db::Run,
    live: &Live,
) -> Result<(), ContestError> {
    db::start_run(conn, r.id)?;
    live.done.store(0, Ordering::Relaxed);
    live.total.store(r.total as usize, Ordering::Relaxed);
    live.run.store(r.id, Ordering::Relaxed);
    let started = std::time::Instant::now();
    let result = db::versions_by_id(conn, &r.versions).and_then(|versions| {
        run::execute(contest, r.id, &versions, &|done, total| {
            live.done.store(done, Ordering::Relaxed);
            live.total.store(total, Ordering::Relaxed);
        })
    });
    let recorded = match result {
        Ok((outcome, rows)) => {
            if outcome.resumed > 0 {
                eprintln!(
                    "koth serve: run {}: {} matches carried over from its journal",
                    r.id, outcome.resumed
                );
            }
            let played = started.elapsed();
            let recorded = run::record(conn, r.id, &outcome, &rows);
            let indexed = started.elapsed() - played;
            if recorded.is_ok() {
                eprintln!(
                    "koth serve: run {}: {} matches ({} played) in {:.2} s, indexed in {:.2} s",
                    r.id,
                    rows.len(),
                    outcome.played,
                    played.as_secs_f64(),
                    indexed.as_secs_f64()
                );
            }
            recorded
        }
        Err(e) => {
            eprintln!("koth serve: run {} failed: {e}", r.id);
            db::fail_run(conn, r.id, &e.to_string())
        }
    };
    // The runs this one supersedes are condensed, and a new archive may take the contest
    // past its disk quota: older runs give way. Until then the run is still in progress, so
    // `/api/status` says it settled only once its folder is as it stays.
    let closing = std::time::Instant::now();
    super::disk::prune_and_report(contest, conn);
    let closing = closing.elapsed();
    if closing.as_millis() >= 100 {
        eprintln!(
            "koth serve: run {}: older runs condensed in {:.2} s",
            r.id,
            closing.as_secs_f64()
        );
    }
    live.run.store(0, Ordering::Relaxed);
    live.finished.fetch_add(1, Ordering::Relaxed);
    recorded
}

/// Run the worker until the process ends: play every run there is, then wait for a wake-up
/// (or poll every few seconds).
pub fn work(contest: Contest, live: Arc<Live>, wake: Arc<Wake>) {
    let mut conn = match contest.db() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("koth serve: the run worker cannot open the database: {e}");
            return;
        }
    };
    loop {
        match next_run(&contest, &conn) {
            Ok(Some(r)) => {
                if let Err(e) = play_run(&contest, &mut conn, &r, &live) {
                    eprintln!("koth serve: run {}: {e}", r.id);
                    wake.wait(Duration::from_secs(5));
                }
            }
            Ok(None) => wake.wait(Duration::from_secs(5)),
            Err(e) => {
                eprintln!("koth serve: the run worker: {e}");
                wake.wait(Duration::from_secs(5));
            }
        }
    }
}
