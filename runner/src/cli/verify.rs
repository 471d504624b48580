//! `koth verify`: check a published archive. The receipt in `results.json` must match the
//! manifest and results as they are; then matches are re-played from the bots (a seeded
//! sample, or all) and each must give the record digest the archive lists. With `--all`,
//! the whole archive is written again and compared file by file.

use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::games::{self, Game, GameVisitor, Player};
use koth::referee::game::RefereeGame;
use koth::sandbox::{Bot, Sandbox};
use koth::tournament::archive::{invocations_path, Archive, INVOCATIONS, MATCHES};
use koth::tournament::container;
use koth::tournament::reader::RunArchive;
use koth::tournament::receipt::{digest, receipt};
use koth::tournament::seekable;
use koth::tournament::{Manifest, RefereeEntry, RunError, RunPlan};
use rand::seq::index::sample;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub(crate) struct VerifyArgs {
    /// The archive folder to check.
    #[arg(value_name = "ARCHIVE")]
    archive: PathBuf,
    /// Folder holding the bots' files, named as in the manifest.
    #[arg(long, value_name = "DIR", default_value = ".")]
    bots: PathBuf,
    /// How many matches to re-play, drawn at random (seeded by the receipt, so the same
    /// archive always gets the same sample).
    #[arg(long, default_value_t = 20)]
    sample: usize,
    /// Re-play every match and compare the whole archive, file by file.
    #[arg(long, conflicts_with = "sample")]
    all: bool,
    /// Check only the receipt against the archive's files; re-play nothing (no bots needed).
    #[arg(long, conflicts_with_all = ["all", "sample"])]
    receipt_only: bool,
    /// Worker threads [default: the number of cores].
    #[arg(long)]
    jobs: Option<usize>,
    #[command(flatten)]
    engine: EngineArgs,
}

pub(crate) fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let archive = RunArchive::open(&args.archive)?;
    let game = archive.game();
    let manifest = &archive.manifest;
    let stored = archive.receipt();
    let matches = archive.matches();
    let computed = receipt(
        manifest,
        archive.results.get("bots").unwrap_or(&Value::Null),
        matches,
    );
    if computed != stored {
        println!(
            "FAILED: the receipt does not match: manifest.json or results.json was changed after \
             the run.\n  stored   {stored}\n  computed {computed}"
        );
        return Ok(ExitCode::FAILURE);
    }
    println!("Receipt {stored} matches the manifest and the results.");
    if args.receipt_only {
        return Ok(ExitCode::SUCCESS);
    }
    let jobs = args.jobs.unwrap_or_else(koth::command::cores).max(1);
    let sandbox = archive_sandbox(&args.engine, manifest, jobs, 0)?;
    let replay = Replay {
        args: &args,
        sandbox: &sandbox,
        jobs,
        digests: matches
            .iter()
            .map(|m| {
                m.get("record_sha256")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            })
            .collect(),
        labels: matches
            .iter()
            .map(|m| {
                m.get("label")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .into()
            })
            .collect(),
        seed: u64::from_str_radix(&stored[..16.min(stored.len())], 16).unwrap_or(0),
        manifest: manifest.clone(),
    };
    visit_archive_game(manifest, game, &sandbox, &args.bots, replay)
}

/// A sandbox to re-play the archive whose manifest is `manifest`: its memory limit, a pool
/// for `workers` threads and its bots plus `extra` more.
pub(crate) fn archive_sandbox(
    engine: &EngineArgs,
    manifest: &Value,
    workers: usize,
    extra: usize,
) -> anyhow::Result<Sandbox> {
    let memory = manifest
        .pointer("/options/limits/memory_bytes")
        .and_then(Value::as_u64)
        .unwrap_or(64 << 20);
    let bots = manifest
        .get("bots")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    engine.sandbox_for_bots(workers, bots + extra, memory)
}

/// Refuse a sandbox whose engine settings are not the run's: its results would differ.
pub(crate) fn check_engine(manifest: &Value, sandbox: &Sandbox) -> anyhow::Result<()> {
    let engine = serde_json::to_value(sandbox.settings())?;
    if manifest.get("engine") != Some(&engine) {
        bail!(
            "this koth's engine settings differ from the run's ({}); give the same \
             --no-pooling choice as the run",
            koth::games::run::differences(
                manifest.get("engine").unwrap_or(&Value::Null),
                &engine,
                koth::games::run::DIFFERENCES_SHOWN
            )
            .join("; ")
        );
    }
    Ok(())
}

/// Visit the game an archive's manifest names (`game`): a plugin game by its referee, loaded
/// from `bots_dir` and checked against the manifest; else the built-in game.
pub(crate) fn visit_archive_game<V: GameVisitor<Out = anyhow::Result<ExitCode>>>(
    manifest: &Value,
    game: &str,
    sandbox: &Sandbox,
    bots_dir: &Path,
    visitor: V,
) -> anyhow::Result<ExitCode> {
    if let Some(entry) = manifest.get("referee").filter(|r| !r.is_null()) {
        let entry: RefereeEntry =
            serde_json::from_value(entry.clone()).context("reading the manifest's referee")?;
        let referee = super::play::load_referee(sandbox, &bots_dir.join(&entry.file), &entry)?;
        return visitor.visit(&RefereeGame::new(Arc::new(referee)));
    }
    games::with_game(manifest, visitor).with_context(|| {
        format!(
            "unknown game `{game}` (this koth knows {})",
            games::GAMES.join(", ")
        )
    })?
}

/// Re-play matches of a game's archive.
struct Replay<'a> {
    args: &'a VerifyArgs,
    sandbox: &'a Sandbox,
    jobs: usize,
    manifest: Value,
    digests: Vec<String>,
    labels: Vec<String>,
    seed: u64,
}

impl GameVisitor for Replay<'_> {
    type Out = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self, game: &G) -> anyhow::Result<ExitCode> {
        let Replay {
            args,
            sandbox,
            jobs,
            manifest: manifest_json,
            digests,
            labels,
            seed,
        } = self;
        let manifest: Manifest<G::Options> = super::merge::read_typed_manifest(&args.archive)?;
        let total = game.match_count(manifest.bots.len(), &manifest.options);
        if digests.len() != total {
            bail!(
                "results.json lists {} matches; the manifest's run plays {total}",
                digests.len()
            );
        }
        check_engine(&manifest_json, sandbox)?;
        let bots = load_bots(sandbox, &args.bots, &manifest)?;
        let select: Option<BTreeSet<usize>> = if args.all || args.sample >= total {
            None
        } else {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            Some(sample(&mut rng, total, args.sample).into_iter().collect())
        };
        let players: Vec<Arc<dyn Player>> = bots
            .into_iter()
            .map(|b| Arc::new(b) as Arc<dyn Player>)
            .collect();
        let play = |select| {
            game.play(
                &players,
                &manifest.options,
                jobs,
                &|_, _| {},
                RunPlan {
                    select,
                    ..RunPlan::all()
                },
            )
        };
        let played = match play(select) {
            Err(RunError::SharedState(why)) => {
                eprintln!("The matches share state ({why}): re-playing all of them");
                play(None)?
            }
            other => other?,
        };
        let mut replayed = 0;
        let mut differ = Vec::new();
        for (i, record) in played.iter().enumerate() {
            let Some(record) = record else { continue };
            replayed += 1;
            if digest(record)? != digests[i] {
                differ.push(format!(
                    "  match {i} ({}): its re-played record differs",
                    labels[i]
                ));
            }
        }
        if replayed == total && differ.is_empty() {
            // Everything was re-played: write the archive again and compare every file.
            let records: Vec<G::Record> = played.into_iter().flatten().collect();
            let names = manifest.bots.iter().map(|b| b.name.clone()).collect();
            // Every digest was just checked equal to the archive's.
            let run = game.finish(names, &manifest.options, records, digests)?;
            let dir = tempfile::tempdir().context("creating a temporary folder")?;
            let again = Archive::create(&dir.path().join("archive"))?;
            game.write_archive(&run, &manifest, &again)?;
            differ.extend(compare_trees(again.root(), &args.archive)?);
        }
        if differ.is_empty() {
            println!(
                "Verified: {replayed} of {total} matches re-played from the bots gave the records \
                 the archive lists{}.",
                if replayed == total {
                    ", and the whole archive was written again identically"
                } else {
                    ""
                }
            );
            Ok(ExitCode::SUCCESS)
        } else {
            println!("FAILED: {} difference(s):", differ.len());
            for d in &differ {
                println!("{d}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Load the manifest's bots from `dir`, each checked against the manifest's hash.
pub(crate) fn load_bots(
    sandbox: &Sandbox,
    dir: &Path,
    manifest: &Manifest<impl Sized>,
) -> anyhow::Result<Vec<Bot>> {
    manifest
        .bots
        .iter()
        .map(|entry| {
            let path = dir.join(&entry.file);
            let bot = sandbox
                .load_file(&path, Some(&entry.name))
                .with_context(|| format!("bot `{}` (give its folder with --bots)", entry.name))?;
            if bot.sha256_hex() != entry.sha256 {
                bail!(
                    "bot `{}`: {} has SHA-256 {}, the manifest says {}: not the bot that played",
                    entry.name,
                    path.display(),
                    bot.sha256_hex(),
                    entry.sha256
                );
            }
            Ok(bot)
        })
        .collect()
}

/// Every file written again that is missing or different in the archive; in the matches'
/// container, every entry.
///
/// Files are compared by what they hold, so an archive of an earlier layout (koth 0.5.0's
/// plain `invocations.jsonl` and `matches.zip`, JSON indented throughout) verifies, and so
/// does one whose compressed bytes came from another libzstd: the compressed files by their
/// data, the JSON documents by their values (all but the layout's `schema`, and the `unit`
/// an older `results.json` lacks).
fn compare_trees(again: &Path, archive: &Path) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for entry in walk(again)? {
        let rel = entry.strip_prefix(again).unwrap_or(&entry);
        // The archive's file of that name, or of its older layout's.
        let theirs = if rel == Path::new(INVOCATIONS) {
            invocations_path(archive)
        } else if rel == Path::new(MATCHES) {
            container::container_path(archive)
        } else {
            archive.join(rel)
        };
        let ours = std::fs::read(&entry).with_context(|| format!("reading {}", entry.display()))?;
        match std::fs::read(&theirs) {
            Ok(t) if t == ours => {}
            Ok(t) if same_content(rel, &ours, &theirs, &t) => {}
            Ok(_) if rel == Path::new(MATCHES) => {
                out.extend(compare_containers(&entry, &theirs));
            }
            Ok(_) => out.push(format!(
                "  {}: differs from the re-played run's",
                theirs.strip_prefix(archive).unwrap_or(&theirs).display()
            )),
            Err(_) => out.push(format!("  {}: missing", rel.display())),
        }
    }
    Ok(out)
}

/// Whether the archive's file `theirs` (bytes `t`) holds what the re-played run's `rel`
/// (bytes `ours`) holds, though the bytes differ.
fn same_content(rel: &Path, ours: &[u8], theirs: &Path, t: &[u8]) -> bool {
    let unpack = |bytes: &[u8], packed: bool| -> Option<Vec<u8>> {
        if !packed {
            return Some(bytes.to_vec());
        }
        let mut data = Vec::new();
        seekable::Reader::new(std::io::Cursor::new(bytes))
            .and_then(|mut r| r.read_to_end(&mut data))
            .ok()?;
        Some(data)
    };
    let zst = |p: &Path| p.extension().is_some_and(|e| e == "zst");
    if zst(rel) {
        return match (unpack(ours, true), unpack(t, zst(theirs))) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        };
    }
    if rel.extension().is_some_and(|e| e == "json") {
        let value = |bytes: &[u8]| serde_json::from_slice::<Value>(bytes).ok();
        let (Some(mut a), Some(mut b)) = (value(ours), value(t)) else {
            return false;
        };
        // The layout's own fields: its `schema`, and the `unit` that `koth-results/1` lacks.
        if let (Some(a), Some(b)) = (a.as_object_mut(), b.as_object_mut()) {
            a.remove("schema");
            b.remove("schema");
            if !b.contains_key("unit") {
                a.remove("unit");
            }
            // Before `koth-results/3` the rows were in the score's order and a game ranked by
            // its score was rated by Bradley–Terry: the same rows, ranked and rated by the rule
            // of their day (and the receipt over them, which step 1 checked against the
            // archive's own files).
            if rel.file_name().is_some_and(|n| n == "results.json") && !b.contains_key("ranked_by")
            {
                for key in ["ranked_by", "score", "receipt"] {
                    a.remove(key);
                    b.remove(key);
                }
                for doc in [&mut *a, &mut *b] {
                    if let Some(Value::Array(rows)) = doc.get_mut("bots") {
                        for row in rows.iter_mut().filter_map(Value::as_object_mut) {
                            row.remove("rating");
                        }
                        rows.sort_by(|x, y| x["bot"].to_string().cmp(&y["bot"].to_string()));
                    }
                }
            }
        }
        return a == b;
    }
    false
}

/// What differs between two matches' containers, by entry (the archive's own, `theirs`, may
/// be damaged, or a `matches.zip` of koth 0.5.0: then the whole file is named).
fn compare_containers(ours: &Path, theirs: &Path) -> Vec<String> {
    let file = theirs
        .file_name()
        .map_or_else(|| MATCHES.into(), |n| n.to_string_lossy());
    let whole = vec![format!("  {file}: differs from the re-played run's")];
    let (Ok(ours), Ok(theirs)) = (container::read_all(ours), container::read_all(theirs)) else {
        return whole;
    };
    let theirs: BTreeMap<String, Vec<u8>> = theirs.into_iter().collect();
    let mut out: Vec<String> = Vec::new();
    let mut names = BTreeSet::new();
    for (name, data) in &ours {
        names.insert(name.as_str());
        match theirs.get(name) {
            Some(t) if t == data => {}
            Some(_) => out.push(format!(
                "  {file}: {name}: differs from the re-played run's"
            )),
            None => out.push(format!("  {file}: {name}: missing")),
        }
    }
    for name in theirs.keys().filter(|n| !names.contains(n.as_str())) {
        out.push(format!("  {file}: {name}: not in the re-played run's"));
    }
    // Entries alike but in another order, or the zip's own fields changed.
    if out.is_empty() {
        whole
    } else {
        out
    }
}

/// The files under `root`, recursively (koth's own output: no symlinks).
fn walk(root: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).with_context(|| format!("reading {}", dir.display()))? {
            let e = e?;
            if e.file_type()?.is_dir() {
                stack.push(e.path());
            } else {
                files.push(e.path());
            }
        }
    }
    files.sort();
    Ok(files)
}
