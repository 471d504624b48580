//! `koth replay`: re-run one recorded decision of an archive with exactly the inputs it had,
//! from the bots' files (or a new build of the bot that took it), and compare it with the
//! record: for a bot author asking "what did it get, and what did it do?".

use super::invoke::{print_report, print_tree};
use super::merge::read_typed_manifest;
use super::verify::{archive_sandbox, check_engine, load_bots, visit_archive_game};
use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::games::replay::{line_failed, reading, replay, Captured};
use koth::games::run::differences;
use koth::games::{Game, GameVisitor, Player};
use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::Bot;
use koth::sandbox::Sandbox;
use koth::tournament::reader::RunArchive;
use koth::tournament::Manifest;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub(crate) struct ReplayArgs {
    /// The archive folder (a run's `--out`).
    #[arg(value_name = "ARCHIVE")]
    archive: PathBuf,
    /// The match, by its index in `results.json` (a Coup game, a Bank Heist tournament, a
    /// referee's match).
    #[arg(long = "match", value_name = "N")]
    match_index: usize,
    /// The decision, counted from 0 over the match's lines in `invocations.jsonl`
    /// [default: the match's first failed decision, else its last].
    #[arg(long, value_name = "K")]
    decision: Option<usize>,
    /// A new build of the bot that took the decision: it takes that decision instead, on the
    /// same inputs, and the game reads its answer.
    #[arg(long, value_name = "FILE")]
    bot: Option<PathBuf>,
    /// Folder holding the bots' files (and a referee's), named as in the manifest [default:
    /// `.`; for a run of a contest (`CONTEST/runs/N`), the contest's uploaded versions].
    #[arg(long, value_name = "DIR")]
    bots: Option<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) fn run(args: ReplayArgs) -> anyhow::Result<ExitCode> {
    let archive = RunArchive::open(&args.archive)?;
    let game = archive.game().to_string();
    let (manifest, results) = archive.into_documents();
    // A slot more than the run's bots: a new build may take a decision.
    let sandbox = archive_sandbox(&args.engine, &manifest, 1, 1)?;
    let visit = Visit {
        args: &args,
        sandbox: &sandbox,
        manifest: &manifest,
        results: &results,
    };
    // A plugin game's referee is found beside the bots.
    let dir = args.bots.clone().unwrap_or_else(|| PathBuf::from("."));
    visit_archive_game(&manifest, &game, &sandbox, &dir, visit)
}

/// The replay of one decision of a game's archive.
struct Visit<'a> {
    args: &'a ReplayArgs,
    sandbox: &'a Sandbox,
    manifest: &'a Value,
    results: &'a Value,
}

impl GameVisitor for Visit<'_> {
    type Out = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self, game: &G) -> anyhow::Result<ExitCode> {
        let Visit {
            args,
            sandbox,
            manifest: manifest_json,
            results,
        } = self;
        let manifest: Manifest<G::Options> = read_typed_manifest(&args.archive)?;
        let total = game.match_count(manifest.bots.len(), &manifest.options);
        let n = args.match_index;
        if n >= total {
            bail!(
                "--match {n}: the run has {total} matches (0 to {})",
                total.saturating_sub(1)
            );
        }
        check_engine(manifest_json, sandbox)?;
        let (earlier, lines) = match_lines(&args.archive, game.match_field(), n)?;
        if lines.is_empty() {
            bail!("match {n} has no decisions in the archive's invocations (a void match?)");
        }
        let (k, why) = match args.decision {
            Some(k) if k < lines.len() => (k, "asked for"),
            Some(k) => bail!(
                "--decision {k}: match {n} has {} decisions (0 to {})",
                lines.len(),
                lines.len() - 1
            ),
            None => match lines.iter().position(line_failed) {
                Some(k) => (k, "its first failed decision"),
                None => (lines.len() - 1, "its last decision (none failed)"),
            },
        };
        let recorded = &lines[k];
        let bots = find_bots(sandbox, &args.archive, args.bots.as_deref(), &manifest)?;
        let players: Vec<Arc<dyn Player>> = bots
            .into_iter()
            .map(|b| Arc::new(b) as Arc<dyn Player>)
            .collect();
        let substitute = match &args.bot {
            Some(path) => {
                let recorded_bot = recorded.get("bot").and_then(Value::as_str).unwrap_or("");
                let bot = sandbox
                    .load_file(path, Some(recorded_bot))
                    .with_context(|| format!("--bot {}", path.display()))?;
                Some(Arc::new(bot) as Arc<dyn Player>)
            }
            None => None,
        };
        let replayed = replay(game, &players, &manifest.options, n, k, earlier, substitute)?;
        let again = game.invocation_lines(n, &replayed.record);
        let Some(line) = again.get(k) else {
            bail!("match {n} took fewer decisions when re-played than the archive records");
        };
        let mut out = std::io::stdout().lock();
        let heading = match label_of(results, n) {
            // A referee's labels start with the match's number already.
            Some(l) if l.starts_with(&format!("match {n}")) => l,
            Some(l) => format!("match {n} ({l})"),
            None => format!("match {n}"),
        };
        writeln!(
            out,
            "{heading}, decision {k} of {} ({why}): {}",
            lines.len(),
            recorded.get("bot").and_then(Value::as_str).unwrap_or("?")
        )?;
        print_input(&mut out, &replayed.decision)?;
        writeln!(
            out,
            "\n-- {} --",
            match &args.bot {
                Some(p) => format!("as the new build {} takes it", p.display()),
                None => "as the bot takes it again".into(),
            }
        )?;
        drop(out);
        print_report(
            &replayed.decision.report,
            replayed.decision.dir_after.as_deref(),
        )?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "\n-- the game's reading --")?;
        for l in &reading(game, &replayed.record, line, k) {
            writeln!(out, "  {l}")?;
        }
        writeln!(out, "\n-- compared with the record --")?;
        let differ = record_differences(recorded, line);
        if differ.is_empty() {
            writeln!(
                out,
                "the same as the record: outcome, stdout, answer and fuel ({})",
                line.get("fuel_used").unwrap_or(&Value::Null)
            )?;
        } else {
            for d in &differ {
                writeln!(out, "  {d}")?;
            }
        }
        Ok(if differ.is_empty() || args.bot.is_some() {
            ExitCode::SUCCESS
        } else {
            // The original bots gave another decision: the run was not reproduced.
            writeln!(
                out,
                "the bots the manifest names did not reproduce this decision (another koth \
                 version or engine setting?)"
            )?;
            ExitCode::FAILURE
        })
    }
}

/// The manifest's bots, checked against its hashes: from `dir` (`.` by default), or, for a
/// contest's run (`CONTEST/runs/N`) with no `dir`, from the contest's uploaded versions
/// (`CONTEST/versions/ID/FILE`), each found by its hash.
fn find_bots<O>(
    sandbox: &Sandbox,
    archive: &Path,
    dir: Option<&Path>,
    manifest: &Manifest<O>,
) -> anyhow::Result<Vec<Bot>> {
    let contest = archive
        .canonicalize()
        .ok()
        .and_then(|a| a.parent()?.parent().map(Path::to_path_buf))
        .filter(|c| c.join(koth::contest::CONFIG).is_file() && c.join("versions").is_dir());
    let (Some(contest), None) = (contest, dir) else {
        return load_bots(sandbox, dir.unwrap_or(Path::new(".")), manifest);
    };
    let mut versions: Vec<PathBuf> = std::fs::read_dir(contest.join("versions"))
        .with_context(|| format!("reading {}", contest.join("versions").display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    versions.sort();
    manifest
        .bots
        .iter()
        .map(|entry| {
            for v in &versions {
                let path = v.join(&entry.file);
                // Hashed before compiling: many versions share a file name.
                let same = std::fs::read(&path)
                    .is_ok_and(|b| hex::encode(Sha256::digest(&b)) == entry.sha256);
                if same {
                    return sandbox
                        .load_file(&path, Some(&entry.name))
                        .with_context(|| format!("bot `{}`", entry.name));
                }
            }
            bail!(
                "bot `{}`: no version of it in {} has the manifest's SHA-256 {}",
                entry.name,
                contest.join("versions").display(),
                entry.sha256
            )
        })
        .collect()
}

/// Match `n`'s lines of `invocations.jsonl`, and how many lines the matches before it have.
fn match_lines(archive: &Path, field: &str, n: usize) -> anyhow::Result<(usize, Vec<Value>)> {
    let path = koth::tournament::archive::invocations_path(archive);
    let file = koth::tournament::archive::read_invocations(&path).with_context(|| {
        format!(
            "reading {} (an archive whose match logs were pruned cannot be replayed)",
            path.display()
        )
    })?;
    let mut earlier = 0;
    let mut lines = Vec::new();
    for (i, line) in file.lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        let at = |what: &str| format!("{} line {}: {what}", path.display(), i + 1);
        let value: Value = serde_json::from_str(&line).with_context(|| at("not JSON"))?;
        let index = value
            .get(field)
            .and_then(Value::as_u64)
            .with_context(|| at(&format!("no `{field}` field")))? as usize;
        match index.cmp(&n) {
            std::cmp::Ordering::Less => earlier += 1,
            std::cmp::Ordering::Equal => lines.push(value),
            // Lines are in match order: nothing of match n comes after.
            std::cmp::Ordering::Greater => break,
        }
    }
    Ok((earlier, lines))
}

/// Each field of a decision's line that differs from the record, whole: `answer was "qc", now
/// "9h"`; a list (a referee's events) line by line; an object (a referee's state) by the
/// parts that differ ([`part_differences`]).
fn record_differences(recorded: &Value, now: &Value) -> Vec<String> {
    let (Some(a), Some(b)) = (recorded.as_object(), now.as_object()) else {
        return differences(recorded, now, usize::MAX);
    };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let text = |v: Option<&Value>| match v {
        None => "absent".to_string(),
        Some(Value::String(s)) => format!("{s:?}"),
        Some(other) => other.to_string(),
    };
    let mut out = Vec::new();
    for k in keys {
        let (x, y) = (a.get(k), b.get(k));
        if x == y {
            continue;
        }
        match (x.and_then(Value::as_array), y.and_then(Value::as_array)) {
            (Some(xs), Some(ys)) => {
                let lines = |v: &Vec<Value>| -> Vec<String> {
                    v.iter()
                        .map(|e| {
                            format!(
                                "    {}",
                                e.as_str().map_or_else(|| e.to_string(), str::to_string)
                            )
                        })
                        .collect()
                };
                out.push(format!("{k} was:"));
                out.extend(lines(xs));
                out.push("now:".into());
                out.extend(lines(ys));
            }
            _ if x.is_some_and(Value::is_object) && y.is_some_and(Value::is_object) => {
                if let (Some(x), Some(y)) = (x, y) {
                    part_differences(k, x, y, &mut out);
                }
            }
            _ => out.push(format!("{k} was {}, now {}", text(x), text(y))),
        }
    }
    out
}

/// The parts of a structured value (a referee's state) that differ, each on one line by its
/// path: `state.hands[0] was ["ah","kh"], now ["qc","ah"]`.
fn part_differences(path: &str, x: &Value, y: &Value, out: &mut Vec<String>) {
    match (x, y) {
        (Value::Object(a), Value::Object(b)) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (a.get(k), b.get(k)) {
                    (Some(p), Some(q)) => part_differences(&format!("{path}.{k}"), p, q, out),
                    (p, q) => out.push(format!(
                        "{path}.{k} was {}, now {}",
                        p.map_or_else(|| "absent".into(), Value::to_string),
                        q.map_or_else(|| "absent".into(), Value::to_string)
                    )),
                }
            }
        }
        // A list of lists or objects (the hands) by item; a list of plain values (a hand) whole.
        (Value::Array(a), Value::Array(b))
            if a.len() == b.len() && a.iter().chain(b).all(|v| v.is_array() || v.is_object()) =>
        {
            for (i, (p, q)) in a.iter().zip(b).enumerate() {
                part_differences(&format!("{path}[{i}]"), p, q, out);
            }
        }
        _ if x != y => out.push(format!("{path} was {x}, now {y}")),
        _ => {}
    }
}

/// The match's label in `results.json`.
fn label_of(results: &Value, n: usize) -> Option<String> {
    let label = results.pointer(&format!("/matches/{n}/label"))?.as_str()?;
    Some(label.to_string())
}

/// Files of the folder up to this size are printed whole.
const SHOWN_FILE_BYTES: usize = 4096;

/// What the decision got: arguments, stdin, folder, seed, clock and limits.
fn print_input(out: &mut impl Write, c: &Captured) -> std::io::Result<()> {
    let inv = &c.invocation;
    writeln!(out, "\n-- what it got --")?;
    let argv: Vec<String> = std::iter::once(format!("{:?}", c.player))
        .chain(
            inv.args
                .iter()
                .map(|a| format!("{:?}", String::from_utf8_lossy(a))),
        )
        .collect();
    writeln!(out, "argv:   {}", argv.join(" "))?;
    if inv.stdin.is_empty() {
        writeln!(out, "stdin:  (empty)")?;
    } else {
        writeln!(out, "stdin ({} bytes):", inv.stdin.len())?;
        out.write_all(&inv.stdin)?;
        if !inv.stdin.ends_with(b"\n") {
            writeln!(out)?;
        }
    }
    match &c.dir_before {
        None => writeln!(out, "folder: none")?,
        Some(entries) if entries.is_empty() => writeln!(out, "folder: empty")?,
        Some(entries) => {
            writeln!(out, "folder before the decision:")?;
            print_tree(out, entries)?;
            // Small text files in full: a history file is most of what a bot decides on.
            for e in entries {
                if let SnapshotEntry::File(path, data) = e {
                    match std::str::from_utf8(data) {
                        Ok(text) if data.len() <= SHOWN_FILE_BYTES => {
                            writeln!(out, "{path}:")?;
                            for l in text.lines() {
                                writeln!(out, "  | {l}")?;
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    let seed: String = inv.seed.iter().map(|b| format!("{b:02x}")).collect();
    writeln!(out, "random_get seed: {seed}")?;
    writeln!(
        out,
        "clock start: {} ns; fuel {}, memory {} MiB",
        inv.clock_start_ns,
        inv.limits.fuel,
        inv.limits.memory_bytes >> 20
    )?;
    Ok(())
}
