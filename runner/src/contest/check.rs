//! An upload's checks, apart from the ladder: load it as a run would (prescan, compile),
//! the game's compatibility check, then its validation match against the host's opponent.
//!
//! `koth serve` runs them in a child process (`koth contest check-upload`, see
//! [`Checker::Child`]), a few at a time, each under the contest's `check_seconds`: a check
//! past its deadline or its memory cap is killed, and its CPU with it (a compile on a thread of the server
//! could only be abandoned, and kept its core for minutes), and no check shares the ladder's
//! threads. What the child compiles goes to the contest's code cache, so the ladder's own
//! load of an accepted version reads it from there.

use super::{run, Contest};
use crate::sandbox::{LoadError, Sandbox};
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why an upload did not pass its checks.
#[derive(Debug, Error)]
pub enum CheckError {
    /// The upload's fault: refused with this reason (and remembered by its SHA-256).
    #[error("{0}")]
    Refused(String),
    /// The check could not be run (the server's or the host's fault, not the uploader's).
    #[error("{0}")]
    Internal(String),
}

/// Run every check of `path` (a bot named `name`) in this process, on `sandbox`.
pub fn run_checks(
    contest: &Contest,
    sandbox: &Sandbox,
    path: &Path,
    name: &str,
) -> Result<(), CheckError> {
    let dir = path
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let bot = sandbox.load_file(path, Some(name)).map_err(|e| {
        let why = format!("{}", e.error).replace(&dir, "");
        if host_fault(&e.error) {
            // The host's fault (a file it cannot read, an interpreter missing or broken): not
            // the upload's, so not remembered against it.
            CheckError::Internal(why)
        } else {
            CheckError::Refused(why)
        }
    })?;
    let game = contest.config.game.name();
    crate::worlds::check_game(&bot, game)
        .map_err(|why| CheckError::Refused(format!("this bot {why}")))?;
    let Some(file) = &contest.config.validation_opponent else {
        return Ok(());
    };
    let opp_path = contest.root().join(file);
    let stem = opp_path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "opponent".into());
    let opp_name = if stem.eq_ignore_ascii_case(name) {
        format!("{stem}-validation")
    } else {
        stem
    };
    let opponent = sandbox.load_file(&opp_path, Some(&opp_name)).map_err(|e| {
        CheckError::Internal(format!(
            "the contest's validation opponent {file} cannot be loaded: {}",
            e.error
        ))
    })?;
    run::validation_match(contest, sandbox, Arc::new(bot), Arc::new(opponent)).map_err(
        |v| match v {
            run::Validation::Forfeited(why) => CheckError::Refused(why),
            // A match the host could not complete says nothing against the upload.
            run::Validation::Void(why) => CheckError::Internal(why),
        },
    )
}

/// Whether a load error is the host's rather than the upload's: the file the server wrote
/// cannot be read, or the Python interpreter is missing, not the pinned one, or cannot be
/// snapshot (a script that does not compile is the script's).
fn host_fault(e: &LoadError) -> bool {
    match e {
        LoadError::Io(_) => true,
        LoadError::Python(why) => why.contains("CPython interpreter"),
        _ => false,
    }
}

/// What the child process prints on its stdout: one JSON line.
#[derive(Debug, Serialize, Deserialize)]
pub struct ChildAnswer {
    /// Why the upload is refused; `None`: it passed.
    pub refused: Option<String>,
}

/// Where an upload's checks run.
pub enum Checker {
    /// In this process, on this sandbox (the library's own callers and tests).
    InProcess(Box<Sandbox>),
    /// In a child process, the koth command at this path: `koth contest check-upload DIR
    /// FILE --name NAME`, killed at the contest's `check_seconds`.
    Child(PathBuf),
}

/// How often a waiting check looks at its child.
const POLL: Duration = Duration::from_millis(20);

/// The most of a failed child's stderr kept for the server's log.
const STDERR_KEPT: u64 = 4096;

impl Checker {
    /// Check the upload at `path`, a bot named `name`, for `contest`.
    pub fn check(&self, contest: &Contest, path: &Path, name: &str) -> Result<(), CheckError> {
        match self {
            Checker::InProcess(sandbox) => run_checks(contest, sandbox, path, name),
            Checker::Child(exe) => child_check(exe, contest, path, name),
        }
    }
}

fn child_check(exe: &Path, contest: &Contest, path: &Path, name: &str) -> Result<(), CheckError> {
    let limit = Duration::from_secs(contest.config.check_seconds);
    let mut command = Command::new(exe);
    // Its own process group: a Ctrl-C in the server's terminal (or a stop that signals the
    // whole group) must not kill the checks the server is finishing while it drains.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    let mut child = command
        .args(["contest", "check-upload"])
        .arg(contest.root())
        .arg(path)
        .args(["--name", name])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            CheckError::Internal(format!("cannot start the check ({}): {e}", exe.display()))
        })?;
    // Both pipes are read on threads of their own, so a chatty child never blocks on them.
    let out = child
        .stdout
        .take()
        .map(|s| std::thread::spawn(move || read_all(s, 1 << 20)));
    let err = child
        .stderr
        .take()
        .map(|s| std::thread::spawn(move || read_all(s, STDERR_KEPT)));
    let started = Instant::now();
    let memory_kib = contest.config.check_memory_mib.saturating_mul(1024);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if resident_kib(child.id()).is_some_and(|r| r > memory_kib) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CheckError::Refused(format!(
                    "its checks took more than this contest's {} MiB of memory (compiling it: a module of this shape costs the compiler too much), and were stopped",
                    contest.config.check_memory_mib
                )));
            }
            Ok(None) if started.elapsed() >= limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CheckError::Refused(format!(
                    "its checks (compiling it{}) took longer than this contest's {} s, and were stopped",
                    if contest.config.validation_opponent.is_some() {
                        ", then its validation match"
                    } else {
                        ""
                    },
                    limit.as_secs()
                )));
            }
            Ok(None) => std::thread::sleep(POLL),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(CheckError::Internal(format!("the check: {e}")));
            }
        }
    };
    let out = out.and_then(|t| t.join().ok()).unwrap_or_default();
    let err = err.and_then(|t| t.join().ok()).unwrap_or_default();
    let answer = String::from_utf8_lossy(&out)
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str::<ChildAnswer>(l).ok());
    match answer {
        Some(ChildAnswer { refused: None }) if status.success() => Ok(()),
        Some(ChildAnswer { refused: Some(why) }) if status.success() => {
            Err(CheckError::Refused(why))
        }
        _ => Err(CheckError::Internal(format!(
            "the check stopped without an answer ({status}): {}",
            String::from_utf8_lossy(&err).trim()
        ))),
    }
}

/// A process's resident memory in KiB (Linux's `/proc/PID/status`); `None` elsewhere.
fn resident_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Up to `limit` bytes of `r`; the rest is read and dropped, so the writer never blocks.
fn read_all(r: impl Read, limit: u64) -> Vec<u8> {
    let mut r = r;
    let mut kept = Vec::new();
    let _ = r.by_ref().take(limit).read_to_end(&mut kept);
    let _ = std::io::copy(&mut r, &mut std::io::sink());
    kept
}

/// Limits the child sets on itself, from inside: a CPU-time cap a little past the check's
/// deadline (should the server die before it can kill it), and, on Linux, death with its
/// parent.
pub fn limit_self(check_seconds: u64) {
    #[cfg(target_os = "linux")]
    {
        // CPU time counts every thread, and wasmtime compiles on all cores.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        let budget = check_seconds.saturating_mul(cores).saturating_add(10);
        let cpu = libc::rlimit {
            rlim_cur: budget,
            rlim_max: budget.saturating_add(5),
        };
        // SAFETY: plain system calls on this process with valid arguments.
        let orphaned = unsafe {
            libc::setrlimit(libc::RLIMIT_CPU, &cpu);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The server died before the request above took effect: adopted by init.
            libc::getppid() == 1
        };
        if orphaned {
            std::process::exit(1);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = check_seconds;
}
