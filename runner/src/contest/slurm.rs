//! A contest's runs as Slurm job arrays (`"executor": {"slurm": {"shards": N}}`): when a
//! ladder outgrows one machine, each run's matches are played by N array tasks, each the
//! ordinary `koth <game> ... --shard K/N --resume` with the contest's match store and code
//! cache, and the server joins the shards' journals into the run's archive as `koth merge`
//! would. The server's own process only submits, waits and merges.
//!
//! Everything lives in `slurm/<run>/` of the contest folder (which must be on a filesystem the
//! nodes share, at the same path, with koth at the server's path): the bots under the names
//! the run gives them, the job script, each task's log and shard. The job's id is kept there,
//! so a server restarted while the array runs waits for that job instead of submitting a
//! second one; a task requeued by Slurm resumes its shard from its journal. The folder is
//! removed once the run's archive is written.

use super::db::Version;
use super::{Contest, ContestError};
use crate::tournament::journal::{self, JOURNAL};
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How often the server asks Slurm whether the job is still there.
const POLL: Duration = Duration::from_millis(500);
/// Slurm commands failing in a row (the controller unreachable) before the run fails.
const MAX_FAILED_POLLS: u32 = 120;

fn failed(what: impl std::fmt::Display) -> ContestError {
    ContestError::Refused(what.to_string())
}

/// The run's Slurm folder.
pub fn folder(contest: &Contest, id: i64) -> PathBuf {
    contest.root().join("slurm").join(id.to_string())
}

/// What the shards of a run played.
pub struct Shards<R> {
    /// Every match's record, by index.
    pub records: Vec<Option<R>>,
    /// Matches the tasks played.
    pub played: usize,
    /// Matches they took from the store.
    pub reused: usize,
}

/// One run as a job array: `game_args` is the game's command and options (`coup --rounds 10
/// --seed 1 ...`), without bots, store, cache, shard or output. Returns once every shard is
/// done, with their records; `progress(done, total)` follows the shards' journals.
#[allow(clippy::too_many_arguments)]
pub fn play<R: DeserializeOwned>(
    contest: &Contest,
    id: i64,
    versions: &[Version],
    game_args: &[String],
    total: usize,
    shards: u32,
    sbatch_args: &[String],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Shards<R>, ContestError> {
    let dir = folder(contest, id);
    let bots = dir.join("bots");
    std::fs::create_dir_all(&bots).map_err(|e| failed(format!("{}: {e}", bots.display())))?;
    let mut files = Vec::new();
    for v in versions {
        let ext = Path::new(&v.file)
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("wasm");
        // The command names a bot by its file's stem: the version's file under the bot's name.
        let to = bots.join(format!("{}.{ext}", v.bot));
        if !to.exists() {
            let from = contest.version_file(v.id, &v.file);
            if std::fs::hard_link(&from, &to).is_err() {
                std::fs::copy(&from, &to)
                    .map_err(|e| failed(format!("{} to {}: {e}", from.display(), to.display())))?;
            }
        }
        files.push(to);
    }
    let koth = std::env::current_exe().map_err(|e| failed(format!("koth's own path: {e}")))?;
    let script = dir.join("shards.sbatch");
    std::fs::write(
        &script,
        job_script(
            id,
            &koth,
            game_args,
            &files,
            contest,
            &dir,
            shards,
            contest.config.workers(),
        ),
    )
    .map_err(|e| failed(format!("{}: {e}", script.display())))?;
    let job_file = dir.join("job");
    let job = match std::fs::read_to_string(&job_file) {
        Ok(job) if queued(job.trim())? => job.trim().to_string(),
        // No job yet, or it ended (a server stopped while it ran): (re)submit; the tasks
        // resume their shards from their journals.
        _ => {
            let job = submit(&script, sbatch_args)?;
            std::fs::write(&job_file, &job)
                .map_err(|e| failed(format!("{}: {e}", job_file.display())))?;
            job
        }
    };
    eprintln!(
        "koth serve: run {id}: Slurm job {job}, {shards} shards, in {}",
        dir.display()
    );
    let mut counted = BTreeMap::new();
    let mut failures = 0;
    loop {
        match queued(&job) {
            Ok(false) => break,
            Ok(true) => failures = 0,
            Err(e) => {
                failures += 1;
                if failures >= MAX_FAILED_POLLS {
                    return Err(e);
                }
            }
        }
        progress(journaled(&dir, shards, &mut counted).min(total), total);
        std::thread::sleep(POLL);
    }
    let mut records: Vec<Option<R>> = (0..total).map(|_| None).collect();
    let (mut played, mut reused) = (0, 0);
    for k in 1..=shards {
        let shard = dir.join(format!("shard-{k}"));
        let log = dir.join(format!("shard-{k}.log"));
        let lacks = |why: String| {
            let tail = std::fs::read_to_string(&log).unwrap_or_default();
            let tail: Vec<&str> = tail.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            failed(format!(
                "Slurm job {job}: shard {k} of {shards} {why}; its log ({}) ends: {}",
                log.display(),
                tail.join(" | ")
            ))
        };
        let (_, got) = journal::read::<R>(&shard.join(JOURNAL))
            .map_err(|e| lacks(format!("left no readable journal ({e})")))?;
        let expect = (0..total).filter(|i| i % shards as usize == (k - 1) as usize);
        let missing = expect.filter(|i| !got.contains_key(i)).count();
        if missing > 0 {
            return Err(lacks(format!("did not finish ({missing} matches missing)")));
        }
        for (i, r) in got {
            if let Some(slot) = records.get_mut(i) {
                *slot = Some(r);
            }
        }
        if let Some((p, t)) = std::fs::read_to_string(&log)
            .ok()
            .as_deref()
            .and_then(reuse_line)
        {
            played += p;
            reused += t;
        }
    }
    progress(total, total);
    Ok(Shards {
        records,
        played,
        reused,
    })
}

/// Remove the run's Slurm folder (once its archive is written).
pub fn clean(contest: &Contest, id: i64) {
    let _ = std::fs::remove_dir_all(folder(contest, id));
}

/// `'text'` for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[allow(clippy::too_many_arguments)]
fn job_script(
    id: i64,
    koth: &Path,
    game_args: &[String],
    bots: &[PathBuf],
    contest: &Contest,
    dir: &Path,
    shards: u32,
    jobs: usize,
) -> String {
    let path = |p: &Path| quote(&p.to_string_lossy());
    let mut command = vec![path(koth)];
    command.extend(game_args.iter().map(|a| quote(a)));
    command.extend(bots.iter().map(|b| path(b)));
    command.extend([
        "--reuse".into(),
        path(&contest.store_dir()),
        "--cache-dir".into(),
        path(&contest.cache_dir()),
        "--jobs".into(),
        format!("\"${{SLURM_CPUS_PER_TASK:-{jobs}}}\""),
        "--shard".into(),
        format!("\"$SLURM_ARRAY_TASK_ID/{shards}\""),
        "--out".into(),
        format!("{}\"/shard-$SLURM_ARRAY_TASK_ID\"", path(dir)),
        "--resume".into(),
    ]);
    format!(
        "#!/bin/sh\n\
         # Run {id} of the contest in {contest}, written by koth serve: one shard per task.\n\
         #SBATCH --job-name=koth-run-{id}\n\
         #SBATCH --array=1-{shards}\n\
         #SBATCH --requeue\n\
         #SBATCH --output={log}\n\
         set -eu\n\
         exec {command}\n",
        contest = contest.root().display(),
        log = dir.join("shard-%a.log").display(),
        command = command.join(" \\\n    "),
    )
}

/// Submit the job array; its id.
fn submit(script: &Path, sbatch_args: &[String]) -> Result<String, ContestError> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(sbatch_args)
        .arg(script)
        .output()
        .map_err(|e| failed(format!("sbatch: {e}")))?;
    let said = String::from_utf8_lossy(&out.stdout);
    // `--parsable` prints `ID` or `ID;CLUSTER`.
    let job = said
        .trim()
        .split(';')
        .next()
        .unwrap_or_default()
        .to_string();
    if !out.status.success() || job.is_empty() || !job.bytes().all(|b| b.is_ascii_digit()) {
        return Err(failed(format!(
            "sbatch {}: {}{}",
            script.display(),
            said.trim(),
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(job)
}

/// Whether any task of `job` is still pending or running.
fn queued(job: &str) -> Result<bool, ContestError> {
    let out = Command::new("squeue")
        .args(["-h", "-j", job, "-o", "%i"])
        .output()
        .map_err(|e| failed(format!("squeue: {e}")))?;
    let err = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        // A job Slurm has already forgotten is not queued.
        if err.contains("Invalid job id") {
            return Ok(false);
        }
        return Err(failed(format!("squeue -j {job}: {}", err.trim())));
    }
    Ok(!String::from_utf8_lossy(&out.stdout).trim().is_empty())
}

/// Matches in the shards' journals so far (each journal read from where it was last read).
fn journaled(dir: &Path, shards: u32, counted: &mut BTreeMap<u32, (u64, usize)>) -> usize {
    for k in 1..=shards {
        let path = dir.join(format!("shard-{k}")).join(JOURNAL);
        let Ok(mut f) = std::fs::File::open(&path) else {
            continue;
        };
        let (offset, lines) = counted.entry(k).or_insert((0, 0));
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        if len < *offset {
            // A requeued task cut its journal's partial line: count again.
            (*offset, *lines) = (0, 0);
        }
        let mut new = Vec::new();
        if f.seek(SeekFrom::Start(*offset)).is_ok() && f.read_to_end(&mut new).is_ok() {
            *offset += new.len() as u64;
            *lines += new.iter().filter(|&&b| b == b'\n').count();
        }
    }
    // Each journal's first line is its header.
    counted.values().map(|(_, l)| l.saturating_sub(1)).sum()
}

/// `Reuse: played P games and took T from ...` in a task's log.
fn reuse_line(log: &str) -> Option<(usize, usize)> {
    log.lines().rev().find_map(|l| {
        let rest = l.strip_prefix("Reuse: played ")?;
        let mut w = rest.split_whitespace();
        let played = w.next()?.parse().ok()?;
        let took = w.skip_while(|x| *x != "took").nth(1)?.parse().ok()?;
        Some((played, took))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_quoted_for_the_shell() {
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }

    #[test]
    fn a_task_log_says_what_it_played_and_took() {
        let log = "Coup: 3 bots\nReuse: played 8 games and took 4 from /c/store\n";
        assert_eq!(reuse_line(log), Some((8, 4)));
        assert_eq!(reuse_line("nothing"), None);
    }
}
