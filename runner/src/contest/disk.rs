//! The contest's disk: what its folder holds, and the retention that keeps it within
//! `max_disk_mib`. The store (every match, which runs reuse), the versions, the database and
//! the newest run's archive are always kept; older runs' archives lose their match logs
//! (`matches.zip`, `invocations.jsonl`, ...) oldest first, keeping their leaderboard,
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
        if e.file_type().map_err(io(&path))?.is_dir() {
            freed += usage(&path);
            std::fs::remove_dir_all(&path).map_err(io(&path))?;
        } else {
            freed += e.metadata().map_or(0, |m| m.len());
            std::fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    Ok(freed)
}
