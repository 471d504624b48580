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
use crate::tournament::store;
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
            // Linked or copied under a temporary name and renamed: a server stopped midway
            // never leaves a truncated bot for the next attempt.
            let part = bots.join(format!(".{}.{ext}.part", v.bot));
            let _ = std::fs::remove_file(&part);
            if std::fs::hard_link(&from, &part).is_err() {
                std::fs::copy(&from, &part).map_err(|e| {
                    failed(format!("{} to {}: {e}", from.display(), part.display()))
                })?;
            }
            std::fs::rename(&part, &to).map_err(|e| failed(format!("{}: {e}", to.display())))?;
        }
        files.push(to);
    }
    let koth = std::env::current_exe().map_err(|e| failed(format!("koth's own path: {e}")))?;
    let script = dir.join("shards.sbatch");
    let text = job_script(&koth, game_args, &files, contest, &dir, shards)?;
    std::fs::write(&script, text).map_err(|e| failed(format!("{}: {e}", script.display())))?;
    let name = job_name(contest, id);
    let job_file = dir.join("job");
    let known = std::fs::read_to_string(&job_file)
        .ok()
        .map(|j| j.trim().to_string())
        .filter(|j| !j.is_empty());
    let job = match known {
        // A job submitted before the server stopped: wait for it while Slurm still has it
        // (an error asking counts as still there; the wait below asks again).
        Some(job) if queued(&job).unwrap_or(true) => job,
        // It ended while the server was down: if every shard is whole there is nothing to
        // submit; otherwise its tasks resume their shards from their journals.
        known => {
            if known.is_some() {
                if let Ok(whole) = collect(&dir, total, shards, "") {
                    return Ok(whole);
                }
            }
            match live_job(&name) {
                // Submitted, but the server stopped before it wrote the job's id down.
                Some(job) => job,
                None => submit(&script, &name, &dir, sbatch_args)?,
            }
        }
    };
    let part = dir.join("job.part");
    std::fs::write(&part, &job)
        .and_then(|()| std::fs::rename(&part, &job_file))
        .map_err(|e| failed(format!("{}: {e}", job_file.display())))?;
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
    let shards_done = collect(&dir, total, shards, &format!("Slurm job {job}: "))?;
    progress(total, total);
    Ok(shards_done)
}

/// Every shard's records, or why one is missing or unfinished (named with `what`).
fn collect<R: DeserializeOwned>(
    dir: &Path,
    total: usize,
    shards: u32,
    what: &str,
) -> Result<Shards<R>, ContestError> {
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
                "{what}shard {k} of {shards} {why}; its log ({}) ends: {}",
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
            .and_then(store::read_reuse_line)
        {
            played += p;
            reused += t;
        }
    }
    Ok(Shards {
        records,
        played,
        reused,
    })
}

/// After a failed run: cancel its job if Slurm still has it, and remove the bots and the
/// shards (the script, the job's id and the tasks' logs stay, to say what went wrong).
pub fn abandon(contest: &Contest, id: i64) {
    let dir = folder(contest, id);
    if let Ok(job) = std::fs::read_to_string(dir.join("job")) {
        let _ = Command::new("scancel").arg(job.trim()).output();
    }
    let _ = std::fs::remove_dir_all(dir.join("bots"));
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with("shard-") && e.path().is_dir() {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

/// The job's name: the run and a digest of the contest's folder, so two contests sharing a
/// cluster never take each other's jobs for their own.
fn job_name(contest: &Contest, id: i64) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(contest.root().to_string_lossy().as_bytes());
    format!("koth-{}-run-{id}", &hex::encode(digest)[..12])
}

/// Remove the run's Slurm folder (once its archive is written).
pub fn clean(contest: &Contest, id: i64) {
    let _ = std::fs::remove_dir_all(folder(contest, id));
}

/// `'text'` for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

fn job_script(
    koth: &Path,
    game_args: &[String],
    bots: &[PathBuf],
    contest: &Contest,
    dir: &Path,
    shards: u32,
) -> Result<String, ContestError> {
    // Paths go into a shell script: each must be text, and is quoted whole.
    let path = |p: &Path| {
        p.to_str()
            .map(quote)
            .ok_or_else(|| failed(format!("{}: not a UTF-8 path", p.display())))
    };
    let mut command = vec![path(koth)?];
    command.extend(game_args.iter().map(|a| quote(a)));
    for b in bots {
        command.push(path(b)?);
    }
    command.extend([
        "--reuse".into(),
        path(&contest.store_dir())?,
        "--cache-dir".into(),
        path(&contest.cache_dir())?,
        "--jobs".into(),
        format!("\"${{SLURM_CPUS_PER_TASK:-{}}}\"", contest.config.workers()),
        "--shard".into(),
        format!("\"$SLURM_ARRAY_TASK_ID/{shards}\""),
        "--out".into(),
        format!("{}\"/shard-$SLURM_ARRAY_TASK_ID\"", path(dir)?),
        "--resume".into(),
    ]);
    Ok(format!(
        "#!/bin/sh\n\
         # A contest run, written by koth serve: one shard per task of the array.\n\
         #SBATCH --array=1-{shards}\n\
         #SBATCH --requeue\n\
         #SBATCH --open-mode=append\n\
         set -eu\n\
         exec {command}\n",
        command = command.join(" \\\n    "),
    ))
}

/// Submit the job array as `name`, each task's log in `dir`; its id.
fn submit(
    script: &Path,
    name: &str,
    dir: &Path,
    sbatch_args: &[String],
) -> Result<String, ContestError> {
    // `%` starts a pattern in sbatch's file names: the folder's own are doubled.
    let log = format!("{}/shard-%a.log", dir.to_string_lossy().replace('%', "%%"));
    let out = Command::new("sbatch")
        .arg("--parsable")
        .arg(format!("--job-name={name}"))
        .arg(format!("--output={log}"))
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

/// The job named `name` that Slurm still has, if any (its array's id).
fn live_job(name: &str) -> Option<String> {
    let out = Command::new("squeue")
        .args(["-h", "-n", name, "-o", "%F"])
        .output()
        .ok()?;
    let said = String::from_utf8_lossy(&out.stdout);
    said.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_quoted_for_the_shell() {
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
