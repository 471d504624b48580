//! The contest's disk: what its folder holds, and what keeps it from growing with every run.
//!
//! A run's archive is as big as the ladder (a 100-bot Coup ladder's is 140 MB), yet a run adds
//! only its new matches to the store. So when a run finishes, the runs it supersedes are
//! condensed: the newest `whole_runs` finished runs keep their archives whole, and each older
//! one keeps its standings (`standings.json`: `results.json` without its match lists, with
//! the receipt), its manifest and its tables, a few kilobytes per bot. Their matches are all
//! in the store, so `koth contest export --run N` rebuilds such a run's archive and checks it
//! against the kept receipt. The disk a new entry adds is then its matches in the store.
//!
//! `max_disk_mib` bounds the rest: past it, the runs the setting keeps whole but the newest
//! are condensed too, oldest first; when what is always kept (the store, the versions, the
//! database and the newest run's archive) passes the quota, uploads are refused until the
//! host raises it.

use super::{db, io, Contest, ContestError};
use std::path::{Path, PathBuf};

/// What a condensed run keeps of its archive: its standings and the manifest with its
/// receipt.
pub const KEPT: [&str; 4] = [
    "manifest.json",
    STANDINGS,
    "leaderboard.txt",
    "head-to-head.txt",
];

/// A condensed run's standings: its `results.json` without the match lists.
pub const STANDINGS: &str = "standings.json";

/// A run's results: `results.json` in a whole archive, else the standings a condensed run
/// kept (or, for a run koth 0.7.0 pruned, the `results.json` it kept whole).
pub fn results_file(run_dir: &Path) -> PathBuf {
    let whole = run_dir.join("results.json");
    if whole.is_file() {
        whole
    } else {
        run_dir.join(STANDINGS)
    }
}

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
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pruned {
    /// Runs condensed.
    pub runs: usize,
    /// Bytes freed.
    pub freed: u64,
    /// The contest's size after (not measured by [`supersede`]).
    pub size: u64,
    /// The runs that could not be condensed, each with why: skipped, the others condensed
    /// all the same (one damaged folder must not stop the rest, nor uploads).
    pub failed: Vec<(i64, String)>,
}

/// Whether the run in `dir` may be condensed by [`supersede`]: it has no whole results to
/// lose (a failed run), or this koth played it, so that its archive can be rebuilt from the
/// store. A match's key and the receipt both hold koth's version: a run of another version
/// cannot be rebuilt by this one, so it stays whole (only the quota may take its logs).
pub fn rebuildable(dir: &Path) -> bool {
    if !dir.join("results.json").is_file() {
        return true;
    }
    played_by(dir).as_deref() == Some(crate::VERSION)
}

/// The koth version a run's manifest names, if it can be read.
pub fn played_by(dir: &Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Version {
        koth_version: String,
    }
    let bytes = std::fs::read(dir.join("manifest.json")).ok()?;
    serde_json::from_slice::<Version>(&bytes)
        .ok()
        .map(|v| v.koth_version)
}

/// The prunes and supersedes, one at a time, so no run is condensed twice at once (the run
/// worker and the uploads both prune).
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Condense every run older than the newest `whole_runs` finished ones (failed runs
/// included) that this koth can rebuild ([`rebuildable`]): after each run, so what a run adds
/// to the disk is its new matches.
pub fn supersede(
    contest: &Contest,
    conn: &mut rusqlite::Connection,
) -> Result<Pruned, ContestError> {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|p| p.into_inner());
    let keep = contest.config.whole_runs.max(1);
    let done: Vec<i64> = db::runs(conn)?
        .into_iter()
        .filter(|r| r.state == "done")
        .map(|r| r.id)
        .collect();
    let mut out = Pruned::default();
    let Some(&oldest_whole) = done.get(keep - 1) else {
        return Ok(out);
    };
    for id in db::unpruned_runs(conn)? {
        if id >= oldest_whole {
            break;
        }
        if !rebuildable(&contest.run_dir(id)) {
            continue;
        }
        match condense(contest, conn, id) {
            Ok(freed) => {
                out.freed += freed;
                out.runs += 1;
            }
            Err(e) => out.failed.push((id, e.to_string())),
        }
    }
    Ok(out)
}

/// Condense older runs, oldest first, until the contest is within its quota; the newest
/// finished run (the leaderboard's) and any run not finished are never touched.
pub fn prune(contest: &Contest, conn: &mut rusqlite::Connection) -> Result<Pruned, ContestError> {
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
        match condense(contest, conn, id) {
            Ok(freed) => {
                out.runs += 1;
                out.freed += freed;
                out.size = out.size.saturating_sub(freed);
            }
            Err(e) => out.failed.push((id, e.to_string())),
        }
    }
    Ok(out)
}

/// [`supersede`], then [`prune`], with what they did (or why they could not) on the server's
/// log: after each run, and when the server starts.
pub fn prune_and_report(contest: &Contest, conn: &mut rusqlite::Connection) {
    let report = |what: &str, done: Result<Pruned, ContestError>| match done {
        Ok(p) => {
            if p.runs > 0 {
                eprintln!(
                    "koth serve: condensed {} {what} ({} KiB freed; their matches stay in the store)",
                    p.runs,
                    p.freed >> 10
                );
            }
            for (id, why) in &p.failed {
                eprintln!("koth serve: run {id} could not be condensed (skipped): {why}");
            }
        }
        Err(e) => eprintln!("koth serve: condensing runs ({what}): {e}"),
    };
    report(
        "superseded run(s) to their standings",
        supersede(contest, conn),
    );
    report(
        "older run(s) to keep within the disk quota",
        prune(contest, conn),
    );
}

/// Condense run `id`: its `results.json` becomes [`STANDINGS`], everything else in its
/// folder but [`KEPT`] goes, and its match index leaves the database. Returns the bytes
/// freed. The standings are written (to a temporary name, renamed) before anything is
/// removed, so a crash in between leaves a run that condenses again.
fn condense(
    contest: &Contest,
    conn: &mut rusqlite::Connection,
    id: i64,
) -> Result<u64, ContestError> {
    let dir = contest.run_dir(id);
    let before = usage(&dir);
    let results = dir.join("results.json");
    if results.is_file() {
        let bytes = std::fs::read(&results).map_err(io(&results))?;
        let whole: crate::tournament::results::Results<serde::de::IgnoredAny> =
            serde_json::from_slice(&bytes).map_err(|e| ContestError::Config {
                path: results.clone(),
                what: e.to_string(),
            })?;
        let text = crate::tournament::archive::json_lines(&whole.standings()).map_err(|e| {
            ContestError::Config {
                path: results.clone(),
                what: e.to_string(),
            }
        })?;
        let tmp = dir.join(".standings.json.tmp");
        std::fs::write(&tmp, text).map_err(io(&tmp))?;
        let kept = dir.join(STANDINGS);
        std::fs::rename(&tmp, &kept).map_err(io(&kept))?;
    }
    strip(&dir)?;
    db::mark_pruned(conn, id)?;
    Ok(before.saturating_sub(usage(&dir)))
}

/// Remove everything in a run's archive folder but [`KEPT`].
fn strip(dir: &Path) -> Result<(), ContestError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(());
    };
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
            gone(std::fs::remove_dir_all(&path))?;
        } else {
            gone(std::fs::remove_file(&path))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::ContestConfig;

    /// A contest keeping `whole` runs whole, whose runs 1..=n each hold a `size`-byte
    /// `matches.zip.zst`, a `results.json` with one match, and two match rows.
    fn contest_with_runs(
        n: i64,
        size: usize,
        quota_mib: u64,
        whole: usize,
    ) -> (tempfile::TempDir, Contest) {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let config = ContestConfig {
            max_disk_mib: quota_mib,
            whole_runs: whole,
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
            let row = |idx| db::MatchRow {
                idx,
                label: format!("game {idx}"),
                participants: vec!["a".into(), "b".into()],
                scores: vec![1, 0],
                winners: vec!["a".into()],
                void: None,
                forfeits: Vec::new(),
            };
            db::finish_run(&mut conn, id, 2, 0, &[row(0), row(1)]).expect("finish");
            let dir = contest.run_dir(id);
            std::fs::create_dir_all(dir.join("scratch")).expect("run dir");
            std::fs::write(dir.join("matches.zip.zst"), vec![7u8; size]).expect("zip");
            std::fs::write(dir.join("results.json"), results(id)).expect("results");
            let manifest = serde_json::json!({"koth_version": crate::VERSION});
            std::fs::write(dir.join("manifest.json"), manifest.to_string()).expect("manifest");
            for kept in ["leaderboard.txt", "head-to-head.txt"] {
                std::fs::write(dir.join(kept), b"{}").expect("kept");
            }
        }
        (tmp, contest)
    }

    /// A `results.json` with one match, a detail and run `id`'s receipt.
    fn results(id: i64) -> String {
        serde_json::json!({
            "schema": "koth-results/3",
            "game": "coup",
            "bots": [],
            "unit": "games",
            "void_matches": [0],
            "matches": [{"index": 0, "label": "g", "participants": ["a", "b"], "scores": [1, 0],
                         "winners": ["a"], "record_sha256": "00"}],
            "receipt": format!("receipt-{id}"),
            "detail": {"games": [{"long": "detail"}]},
        })
        .to_string()
    }

    fn rows(contest: &Contest, id: i64) -> usize {
        let conn = contest.db().expect("db");
        db::matches_of(&conn, id, "a").expect("rows").len()
    }

    /// Run `id` holds the condensed files only, its standings with the receipt.
    fn assert_condensed(contest: &Contest, id: i64) {
        let dir = contest.run_dir(id);
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .expect("run dir")
            .map(|e| e.expect("entry").file_name().into_string().expect("utf-8"))
            .collect();
        names.sort();
        let mut kept = KEPT.map(String::from).to_vec();
        kept.sort();
        assert_eq!(names, kept, "run {id}");
        let s: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(STANDINGS)).expect("standings"))
                .expect("json");
        assert_eq!(s["receipt"], format!("receipt-{id}"));
        assert_eq!(s["matches"], serde_json::json!([]));
        assert_eq!(s["void_matches"], serde_json::json!([]));
        assert!(s["detail"].is_null());
        assert_eq!(results_file(&dir), dir.join(STANDINGS));
        assert_eq!(rows(contest, id), 0, "run {id}'s match rows");
    }

    #[test]
    fn a_finished_run_condenses_every_run_older_than_the_whole_ones() {
        let (_tmp, contest) = contest_with_runs(4, 1000, 4096, 2);
        let mut conn = contest.db().expect("db");
        let p = supersede(&contest, &mut conn).expect("supersede");
        assert_eq!(p.runs, 2, "{p:?}");
        assert!(p.freed >= 2000, "{p:?}");
        for id in [1, 2] {
            assert_condensed(&contest, id);
        }
        for id in [3, 4] {
            let dir = contest.run_dir(id);
            assert!(dir.join("matches.zip.zst").is_file(), "run {id}");
            assert_eq!(results_file(&dir), dir.join("results.json"));
            assert_eq!(rows(&contest, id), 2);
        }
        assert_eq!(db::unpruned_runs(&conn).expect("runs"), vec![3, 4]);
        assert_eq!(supersede(&contest, &mut conn).expect("again").runs, 0);
    }

    #[test]
    fn a_run_another_koth_played_stays_whole_and_a_damaged_one_is_skipped() {
        let (_tmp, contest) = contest_with_runs(4, 1000, 4096, 1);
        // Run 1 by an older koth: its matches' keys hold that version, so this koth could
        // not rebuild it. Run 2's results cannot be read.
        let old = serde_json::json!({"koth_version": "0.0.1"}).to_string();
        std::fs::write(contest.run_dir(1).join("manifest.json"), old).expect("manifest");
        std::fs::write(contest.run_dir(2).join("results.json"), b"{not json").expect("results");
        let mut conn = contest.db().expect("db");
        let p = supersede(&contest, &mut conn).expect("supersede");
        assert_eq!(p.runs, 1, "{p:?}");
        assert_eq!(p.failed.len(), 1, "{p:?}");
        assert_eq!(p.failed[0].0, 2);
        assert!(contest.run_dir(1).join("matches.zip.zst").is_file());
        assert!(!rebuildable(&contest.run_dir(1)));
        assert_eq!(played_by(&contest.run_dir(1)).as_deref(), Some("0.0.1"));
        assert_condensed(&contest, 3);
        assert_eq!(db::unpruned_runs(&conn).expect("runs"), vec![1, 2, 4]);
    }

    #[test]
    fn with_fewer_finished_runs_than_it_keeps_nothing_is_condensed() {
        let (_tmp, contest) = contest_with_runs(2, 1000, 4096, 3);
        let mut conn = contest.db().expect("db");
        assert_eq!(supersede(&contest, &mut conn).expect("supersede").runs, 0);
        assert_eq!(db::unpruned_runs(&conn).expect("runs"), vec![1, 2]);
    }

    #[test]
    fn past_the_quota_older_runs_are_condensed_oldest_first_and_the_newest_never() {
        // Four runs of 400 KiB of logs each against a 1 MiB quota: the two oldest go.
        let (_tmp, contest) = contest_with_runs(4, 400 << 10, 1, 10);
        let mut conn = contest.db().expect("db");
        let before = usage(contest.root());
        let p = prune(&contest, &mut conn).expect("prune");
        assert_eq!(p.runs, 2, "{p:?}");
        assert!(p.freed >= 2 * (400 << 10), "{p:?}");
        assert_eq!(p.size, before - p.freed);
        assert!(p.size <= quota(&contest));
        for id in [1, 2] {
            assert_condensed(&contest, id);
        }
        for id in [3, 4] {
            assert!(contest.run_dir(id).join("matches.zip.zst").is_file());
        }
        assert_eq!(db::unpruned_runs(&conn).expect("runs"), vec![3, 4]);
        // Within the quota: nothing more to do.
        assert_eq!(prune(&contest, &mut conn).expect("again").runs, 0);
    }

    #[test]
    fn the_leaderboards_run_is_kept_even_past_the_quota() {
        let (_tmp, contest) = contest_with_runs(2, 2 << 20, 1, 10);
        let mut conn = contest.db().expect("db");
        let p = prune(&contest, &mut conn).expect("prune");
        assert_eq!(p.runs, 1);
        assert!(contest.run_dir(2).join("matches.zip.zst").is_file());
        assert!(p.size > quota(&contest), "what is always kept may pass it");
    }
}
