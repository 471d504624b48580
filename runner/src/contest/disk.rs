//! The contest's disk: what its folder holds, and the retention that keeps it within
//! `max_disk_mib`. The store (every match, which runs reuse), the versions, the database and
//! the newest run's archive are always kept; older runs' archives lose their match logs
//! (`matches.zip.zst`, `invocations.jsonl.zst`, ...) oldest first, keeping their leaderboard,
//! results and manifest (whose digests are the run's receipt). When what is always kept
//! passes the quota, uploads are refused until the host raises it.

use super::{db, io, Contest, ContestError};
use std::path::Path;

/// What an older run keeps of its archive: its standings and the manifest with its receipt.
pub const KEPT: [&str; 4] = [
    "manifest.json",
    "results.json",
    "leaderboard.txt",
    "head-to-head.txt",
];

/// Bytes of the files under `dir` (symbolic links not followed; unreadable entries skipped).
pub fn usage(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => usage(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

/// The contest's quota in bytes.
pub fn quota(contest: &Contest) -> u64 {
    contest.config.max_disk_mib.saturating_mul(1 << 20)
}

/// What a prune did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    /// Runs whose archive lost its match logs.
    pub runs: usize,
    /// Bytes freed.
    pub freed: u64,
    /// The contest's size after.
    pub size: u64,
}

/// Remove older runs' match logs, oldest first, until the contest is within its quota; the
/// newest finished run (the leaderboard's) and any run not finished are never touched.
pub fn prune(contest: &Contest, conn: &rusqlite::Connection) -> Result<Pruned, ContestError> {
    // The run worker and the uploads prune: one at a time, so no run is stripped twice.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let limit = quota(contest);
    let mut out = Pruned {
        size: usage(contest.root()),
        ..Pruned::default()
    };
    if out.size <= limit {
        return Ok(out);
    }
    let newest = db::latest_done(conn)?.map(|r| r.id);
    for id in db::unpruned_runs(conn)? {
        if out.size <= limit {
            break;
        }
        if Some(id) == newest {
            continue;
        }
        let dir = contest.run_dir(id);
        let freed = strip(&dir)?;
        db::mark_pruned(conn, id)?;
        out.runs += 1;
        out.freed += freed;
        out.size = out.size.saturating_sub(freed);
    }
    Ok(out)
}

/// [`prune`], with what it did (or why it could not) on the server's log: after each run,
/// and when the server starts.
pub fn prune_and_report(contest: &Contest, conn: &rusqlite::Connection) {
    match prune(contest, conn) {
        Ok(p) if p.runs > 0 => eprintln!(
            "koth serve: removed the match logs of {} older run(s) ({} KiB) to keep within the disk quota",
            p.runs,
            p.freed >> 10
        ),
        Ok(_) => {}
        Err(e) => eprintln!("koth serve: the disk quota: {e}"),
    }
}

/// Remove everything in a run's archive folder but [`KEPT`]; returns the bytes freed.
fn strip(dir: &Path) -> Result<u64, ContestError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(0);
    };
    let mut freed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        if KEPT.iter().any(|k| name == *k) {
            continue;
        }
        let path = e.path();
        let gone = |r: std::io::Result<()>| match r {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io(&path)(e)),
            _ => Ok(()),
        };
        if e.file_type().map_err(io(&path))?.is_dir() {
            freed += usage(&path);
            gone(std::fs::remove_dir_all(&path))?;
        } else {
            freed += e.metadata().map_or(0, |m| m.len());
            gone(std::fs::remove_file(&path))?;
        }
    }
    Ok(freed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::ContestConfig;

    /// A contest whose runs 1..=n each hold a `size`-byte `matches.zip.zst` and the kept files.
    fn contest_with_runs(n: i64, size: usize, quota_mib: u64) -> (tempfile::TempDir, Contest) {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let config = ContestConfig {
            max_disk_mib: quota_mib,
            ..ContestConfig::coup(1, 1)
        };
        let contest = Contest::init(&tmp.path().join("c"), config).expect("init");
        let mut conn = contest.db().expect("db");
        for id in 1..=n {
            let run = db::queue_run(&conn, &[id, id + 100], 2)
                .expect("queue")
                .expect("a new set");
            assert_eq!(run.id, id);
            db::start_run(&conn, id).expect("start");
            db::finish_run(&mut conn, id, 2, 0, &[]).expect("finish");
            let dir = contest.run_dir(id);
            std::fs::create_dir_all(&dir).expect("run dir");
            std::fs::write(dir.join("matches.zip.zst"), vec![7u8; size]).expect("zip");
            for kept in KEPT {
                std::fs::write(dir.join(kept), b"{}").expect("kept");
            }
        }
        (tmp, contest)
    }

    #[test]
    fn older_runs_lose_their_match_logs_oldest_first_and_the_newest_never() {
        // Four runs of 400 KiB of logs each against a 1 MiB quota: the two oldest go.
        let (_tmp, contest) = contest_with_runs(4, 400 << 10, 1);
        let conn = contest.db().expect("db");
        let before = usage(contest.root());
        let p = prune(&contest, &conn).expect("prune");
        assert_eq!(p.runs, 2, "{p:?}");
        assert_eq!(p.freed, 2 * (400 << 10));
        assert_eq!(p.size, before - p.freed);
        assert!(p.size <= quota(&contest));
        for id in 1..=4 {
            let dir = contest.run_dir(id);
            assert_eq!(dir.join("matches.zip.zst").exists(), id > 2, "run {id}");
            for kept in KEPT {
                assert!(dir.join(kept).is_file(), "run {id} kept {kept}");
            }
        }
        assert_eq!(db::unpruned_runs(&conn).expect("runs"), vec![3, 4]);
        // Within the quota: nothing more to do.
        assert_eq!(prune(&contest, &conn).expect("again").runs, 0);
    }

    #[test]
    fn the_leaderboards_run_is_kept_even_past_the_quota() {
        let (_tmp, contest) = contest_with_runs(2, 2 << 20, 1);
        let conn = contest.db().expect("db");
        let p = prune(&contest, &conn).expect("prune");
        assert_eq!(p.runs, 1);
        assert!(contest.run_dir(2).join("matches.zip.zst").is_file());
        assert!(p.size > quota(&contest), "what is always kept may pass it");
    }
}
