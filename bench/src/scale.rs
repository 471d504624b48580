//! `koth bench scale` and `koth bench ladder`: whole `koth coup` commands, each run as a child
//! process of this one, so that every figure is what a host's command costs (loading, playing,
//! the journal, the archive), with the child's CPU time, page faults and context switches
//! from the kernel's own accounting.

use anyhow::{bail, Context};
use clap::Args;
use koth::command::cores;
use koth::contest::disk::usage;
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

#[derive(Args)]
pub(crate) struct ScaleBench {
    /// Coup bots (.wasm), as for `koth coup`.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Rounds of the round robin.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// The most worker threads tried [default: the number of cores]; the run is timed at 1,
    /// 2, 4, ... up to it, and at it.
    #[arg(long)]
    max_jobs: Option<usize>,
}

#[derive(Args)]
pub(crate) struct LadderBench {
    /// Coup bots (.wasm) the ladder's entries are copied from, in turn.
    #[arg(required = true, value_name = "BOT.wasm")]
    modules: Vec<PathBuf>,
    /// Entries in the ladder before the new one: distinct copies of the modules (each copy's
    /// module carries a custom section naming it, so every entry has its own SHA-256, as
    /// real entries do).
    #[arg(long = "bots", default_value_t = 100)]
    entries: usize,
    /// Rounds.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Play a sampled ladder (`koth coup --opponents M`) instead of the round robin.
    #[arg(long, value_name = "M")]
    opponents: Option<u32>,
    /// Worker threads [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    /// Keep the ladder's folders (bots, compiled code, store, archives) here instead of a
    /// temporary folder.
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
    /// Play it as a contest's runs instead (what `koth serve` does after each upload), in
    /// this process: the ladder, then two new entries, with the contest's disk by part after
    /// each run and the server's leaderboard and bot page timed.
    #[arg(long)]
    contest: bool,
}

/// CPU time, page faults and context switches the kernel charged to a finished child.
#[derive(Debug, Clone, Copy, Default)]
struct Usage {
    user: Duration,
    sys: Duration,
    minor_faults: u64,
    major_faults: u64,
    voluntary_switches: u64,
    involuntary_switches: u64,
}

#[cfg(target_os = "linux")]
fn children_usage() -> Option<Usage> {
    // SAFETY: getrusage fills the struct it is given and reads nothing else.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) } != 0 {
        return None;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    Some(Usage {
        user: time(u.ru_utime),
        sys: time(u.ru_stime),
        minor_faults: u.ru_minflt.max(0) as u64,
        major_faults: u.ru_majflt.max(0) as u64,
        voluntary_switches: u.ru_nvcsw.max(0) as u64,
        involuntary_switches: u.ru_nivcsw.max(0) as u64,
    })
}

#[cfg(not(target_os = "linux"))]
fn children_usage() -> Option<Usage> {
    None
}

impl Usage {
    fn since(self, before: Usage) -> Usage {
        Usage {
            user: self.user.saturating_sub(before.user),
            sys: self.sys.saturating_sub(before.sys),
            minor_faults: self.minor_faults.saturating_sub(before.minor_faults),
            major_faults: self.major_faults.saturating_sub(before.major_faults),
            voluntary_switches: self
                .voluntary_switches
                .saturating_sub(before.voluntary_switches),
            involuntary_switches: self
                .involuntary_switches
                .saturating_sub(before.involuntary_switches),
        }
    }
}

/// One finished `koth` command.
struct ChildRun {
    wall: Duration,
    stdout: String,
    stderr: String,
    usage: Option<Usage>,
}

impl ChildRun {
    /// A phase's seconds from `--timings` (`  play   1.231 s   87.4%`).
    fn phase(&self, name: &str) -> Option<f64> {
        self.phases()
            .into_iter()
            .find_map(|(n, secs)| (n == name).then_some(secs))
    }

    /// Every phase `--timings` printed, in order, but the whole command's line.
    fn phases(&self) -> Vec<(String, f64)> {
        let mut out = Vec::new();
        let mut lines = self.stderr.lines().skip_while(|l| !l.starts_with("phases"));
        lines.next();
        for l in lines {
            let t = l.trim_start();
            if t.starts_with("whole command") || !l.starts_with("  ") {
                break;
            }
            let Some(at) = t.find(|c: char| c.is_ascii_digit()) else {
                continue;
            };
            let name = t[..at].trim_end();
            if name.is_empty() || name.starts_with("of which") {
                continue;
            }
            if let Some(secs) = t[at..]
                .split_whitespace()
                .next()
                .and_then(|x| x.parse().ok())
            {
                out.push((name.to_string(), secs));
            }
        }
        out
    }

    /// `N games, M invocations in ...`: the games and decisions of the run.
    fn counts(&self) -> Option<(u64, u64)> {
        self.stdout.lines().find_map(|l| {
            let mut w = l.split_whitespace();
            let games = w.next()?.parse().ok()?;
            (w.next()? == "games,").then_some(())?;
            let decisions = w.next()?.parse().ok()?;
            Some((games, decisions))
        })
    }

    /// The games it played and took from the store (its `Reuse:` line).
    fn reuse(&self) -> Option<(usize, usize)> {
        koth::tournament::store::read_reuse_line(&self.stdout)
    }
}

/// Run this koth with `args` (and its compiled-code cache in `cache`, where given); a failed
/// command fails the bench with its stderr.
fn koth(args: &[OsString], cache: Option<&Path>) -> anyhow::Result<ChildRun> {
    let exe = crate::koth_exe()?;
    let before = children_usage();
    let t = Instant::now();
    let mut cmd = Command::new(&exe);
    if let Some(dir) = cache {
        cmd.env("KOTH_CACHE_DIR", dir);
    }
    let out = cmd
        .args(args)
        .output()
        .with_context(|| format!("running {}", exe.display()))?;
    let wall = t.elapsed();
    let usage = children_usage().zip(before).map(|(a, b)| a.since(b));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        bail!(
            "`koth {}` failed ({}):\n{}",
            args.iter()
                .map(|a| a.to_string_lossy())
                .collect::<Vec<_>>()
                .join(" "),
            out.status,
            stderr.trim_end()
        );
    }
    Ok(ChildRun {
        wall,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
        usage,
    })
}

/// SHA-256 over an archive's results, decisions and per-match files: equal for two runs
/// exactly when they produced the same tournament.
fn archive_digest(dir: &Path) -> anyhow::Result<String> {
    let mut h = Sha256::new();
    use koth::tournament::archive::{INVOCATIONS, MATCHES};
    for f in ["results.json", INVOCATIONS, MATCHES] {
        let path = dir.join(f);
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(&bytes);
    }
    Ok(hex::encode(h.finalize()))
}

pub(crate) fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// `koth coup BOTS --rounds R --jobs J --out OUT --timings`, then `extra` options.
fn coup_command(
    bots: &[PathBuf],
    rounds: u32,
    jobs: usize,
    out: &Path,
    extra: &[OsString],
) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec!["coup".into(), "--rounds".into(), rounds.to_string().into()];
    args.extend(["--jobs".into(), jobs.to_string().into()]);
    args.extend(["--out".into(), out.into(), "--timings".into()]);
    args.extend(extra.iter().cloned());
    args.extend(bots.iter().map(OsString::from));
    args
}

/// Play time by worker count, the same tournament each time (checked byte for byte).
pub(crate) fn scale(a: ScaleBench) -> anyhow::Result<ExitCode> {
    let top = a.max_jobs.unwrap_or_else(cores).max(1);
    let mut counts: Vec<usize> = std::iter::successors(Some(1usize), |j| Some(j * 2))
        .take_while(|&j| j < top)
        .collect();
    counts.push(top);
    let tmp = tempfile::Builder::new()
        .prefix("koth-bench-scale-")
        .tempdir()?;
    let run =
        |jobs: usize, out: &Path| koth(&coup_command(&a.bots, a.rounds, jobs, out, &[]), None);
    // One run first, not counted: it fills the compiled-code cache and the page cache.
    run(top, &tmp.path().join("warm"))?;
    println!(
        "Coup, {} bots, {} rounds, on {} cores; each run a separate `koth coup --jobs J` process",
        a.bots.len(),
        a.rounds,
        cores()
    );
    println!("jobs | play s | speed-up | whole s | per decision: user µs | sys µs | minor faults | context switches");
    let mut first: Option<(f64, String)> = None;
    for jobs in counts {
        let out = tmp.path().join(format!("jobs-{jobs}"));
        let r = run(jobs, &out)?;
        let play = r.phase("play").context("the run printed no play time")?;
        let (_, decisions) = r.counts().context("the run printed no decision count")?;
        let digest = archive_digest(&out)?;
        let (base, base_digest) = first.get_or_insert_with(|| (play, digest.clone()));
        if digest != *base_digest {
            bail!("--jobs {jobs} gave a different tournament than --jobs 1 (archive digest {digest} vs {base_digest})");
        }
        let per = |x: f64| x / decisions.max(1) as f64;
        let usage = match r.usage {
            Some(u) => format!(
                "{:.1} | {:.1} | {:.3} | {:.4}",
                per(u.user.as_secs_f64() * 1e6),
                per(u.sys.as_secs_f64() * 1e6),
                per((u.minor_faults + u.major_faults) as f64),
                per((u.voluntary_switches + u.involuntary_switches) as f64)
            ),
            None => "- | - | - | -".into(),
        };
        println!(
            "{jobs:>4} | {play:>6.3} | {:>7.2}x | {:>7.3} | {usage}",
            *base / play,
            r.wall.as_secs_f64()
        );
        let _ = std::fs::remove_dir_all(&out);
    }
    println!(
        "every run's archive is byte-identical (results.json, invocations.jsonl.zst, matches.zip.zst)"
    );
    Ok(ExitCode::SUCCESS)
}

/// Append a custom section to a module or component: a distinct file (and SHA-256) that runs
/// exactly as the original. Custom sections may follow every other section in both formats,
/// with the same id.
fn with_custom_section(wasm: &[u8], name: &str, payload: &[u8]) -> Vec<u8> {
    use wasm_encoder::Section;
    let mut out = wasm.to_vec();
    wasm_encoder::CustomSection {
        name: name.into(),
        data: payload.into(),
    }
    .append_to(&mut out);
    out
}

/// An N-bot ladder played into a match store, then one more entry added and re-ranked.
pub(crate) fn ladder(a: LadderBench) -> anyhow::Result<ExitCode> {
    if a.entries < 2 {
        bail!("--bots must be at least 2 (got {})", a.entries);
    }
    let tmp = tempfile::Builder::new()
        .prefix("koth-bench-ladder-")
        .tempdir()?;
    let root = match &a.keep {
        Some(dir) => {
            // An earlier ladder's store would make the first run a re-rank, not a ladder.
            if std::fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
                bail!("--keep {}: the folder is not empty", dir.display());
            }
            std::fs::create_dir_all(dir).with_context(|| format!("--keep {}", dir.display()))?;
            dir.clone()
        }
        None => tmp.path().to_path_buf(),
    };
    let bots_dir = root.join("bots");
    std::fs::create_dir_all(&bots_dir)?;
    let mut modules = Vec::new();
    for m in &a.modules {
        let bytes = std::fs::read(m).with_context(|| format!("reading {}", m.display()))?;
        let stem = m
            .file_stem()
            .and_then(|s| s.to_str())
            .with_context(|| format!("{}: no usable file name", m.display()))?
            .to_string();
        modules.push((stem, bytes));
    }
    // Entry i is module i mod k, made distinct; the new entry is the next one (as a contest,
    // the next two: a second new entry shows the steady state, what one more run adds).
    let new_entries = if a.contest { 2 } else { 1 };
    let mut files = Vec::new();
    for i in 0..a.entries + new_entries {
        let (stem, bytes) = &modules[i % modules.len()];
        let path = bots_dir.join(format!("{stem}_{i:04}.wasm"));
        std::fs::write(
            &path,
            with_custom_section(bytes, "koth-ladder-entry", i.to_string().as_bytes()),
        )?;
        files.push(path);
    }
    let jobs = a.jobs.unwrap_or_else(cores);
    if a.contest {
        println!(
            "Coup ladder: {} entries copied from {} modules, {} rounds, --jobs {jobs} on {} cores",
            a.entries,
            modules.len(),
            a.rounds,
            cores()
        );
        crate::contest::contest_ladder(&files, a.entries, a.rounds, a.opponents, jobs, &root)?;
        return Ok(ExitCode::SUCCESS);
    }
    let store = root.join("store");
    let mut extra: Vec<OsString> = Vec::new();
    if let Some(m) = a.opponents {
        extra.extend(["--opponents".into(), m.to_string().into()]);
    }
    extra.extend(["--reuse".into(), store.clone().into()]);
    // The copies' compiled code stays in the ladder's folder: a thousand entries would
    // otherwise leave gigabytes in the user's cache.
    let cache = root.join("cache");
    let run = |bots: &[PathBuf], out: &Path| {
        koth(
            &coup_command(bots, a.rounds, jobs, out, &extra),
            Some(&cache),
        )
    };
    let format = match a.opponents {
        Some(m) => format!("sampled, {m} opponents per bot per round"),
        None => "round robin".into(),
    };
    println!(
        "Coup ladder: {} entries copied from {} modules, {} rounds, {format}, --jobs {jobs} on {} cores",
        a.entries,
        modules.len(),
        a.rounds,
        cores()
    );
    let show = |label: &str, r: &ChildRun, out: &Path, store_before: u64| {
        let (games, decisions) = r.counts().unwrap_or((0, 0));
        let (played, took) = r.reuse().unwrap_or((0, 0));
        println!("{label}: whole command {:.2} s", r.wall.as_secs_f64());
        println!(
            "  games {games} (played {played}, taken from the store {took}), decisions {decisions}"
        );
        let line: Vec<String> = r
            .phases()
            .iter()
            .map(|(p, s)| format!("{p} {s:.2} s"))
            .collect();
        println!("  phases: {}", line.join(", "));
        let store_now = usage(&store);
        println!(
            "  disk: archive {}, store {} (+{})",
            mb(usage(out)),
            mb(store_now),
            mb(store_now.saturating_sub(store_before))
        );
        if let Some(u) = r.usage {
            println!(
                "  cpu: user {:.2} s, sys {:.2} s",
                u.user.as_secs_f64(),
                u.sys.as_secs_f64()
            );
        }
    };
    let first_out = root.join("ladder");
    let r = run(&files[..a.entries], &first_out)?;
    show(
        &format!("the ladder ({} entries)", a.entries),
        &r,
        &first_out,
        0,
    );
    let before = usage(&store);
    let second_out = root.join("ladder-plus-one");
    let r = run(&files, &second_out)?;
    show(
        &format!("a new entry ({} entries)", a.entries + 1),
        &r,
        &second_out,
        before,
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_custom_section_keeps_the_module_valid_and_distinct() {
        let wasm = wat::parse_str("(module (func (export \"_start\")))").unwrap();
        let a = with_custom_section(&wasm, "koth-ladder-entry", b"1");
        let b = with_custom_section(&wasm, "koth-ladder-entry", &[b'x'; 200]);
        assert_ne!(a, b);
        let mut v = wasmparser::Validator::new();
        v.validate_all(&a).unwrap();
        v.reset();
        v.validate_all(&b).unwrap();
    }

    #[test]
    fn timings_and_counts_are_read_from_the_command_output() {
        let r = ChildRun {
            wall: Duration::ZERO,
            stdout: "364 games, 10909 invocations in 0.04 s (1 invocations/s)\nReuse: played 12 games and took 352 from /tmp/st\n".into(),
            stderr: "phases (wall time):\n  play                 0.039 s   49.7%\n  journal sync         0.001 s    1.2%\n".into(),
            usage: None,
        };
        assert_eq!(r.phase("play"), Some(0.039));
        assert_eq!(r.phase("journal sync"), Some(0.001));
        assert_eq!(r.phase("load"), None);
        assert_eq!(
            r.phases(),
            vec![
                ("play".to_string(), 0.039),
                ("journal sync".to_string(), 0.001)
            ]
        );
        assert_eq!(r.counts(), Some((364, 10909)));
        assert_eq!(r.reuse(), Some((12, 352)));
    }
}
