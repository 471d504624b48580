//! `koth merge`: join the folders of a sharded run (`--shard K/N`) into the archive the
//! whole run would have written on one machine.

use anyhow::{bail, Context};
use clap::Args;
use koth::command::play as common;
use koth::games::run::{differences, DIFFERENCES_SHOWN};
use koth::games::{self, Finished, Game, GameVisitor};
use koth::referee::pages::VIEWER_FILE;
use koth::report::model::PluginViewer;
use koth::tournament::archive::MANIFEST;
use koth::tournament::journal::{self, JOURNAL};
use koth::tournament::receipt::digests;
use koth::tournament::Manifest;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct MergeArgs {
    /// The shard folders, each written by `koth <game> ... --shard K/N --out SHARD_DIR`.
    #[arg(required = true, value_name = "SHARD_DIR")]
    shards: Vec<PathBuf>,
    /// The merged archive's folder.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// Read an archive folder's manifest as JSON.
pub(crate) fn read_manifest(dir: &Path) -> anyhow::Result<serde_json::Value> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read(&path)
        .with_context(|| format!("reading {} (is it a koth folder?)", path.display()))?;
    serde_json::from_slice(&text).with_context(|| format!("reading {}", path.display()))
}

/// The manifest of the folder `dir`, typed, read from the file's text. Never through a
/// `serde_json::Value`: its objects are sorted by key, which would put a referee's options
/// (kept in the order the referee declares them) in another order, and the archive written
/// again would differ from the run's.
pub(crate) fn read_typed_manifest<O: serde::de::DeserializeOwned>(
    dir: &Path,
) -> anyhow::Result<Manifest<O>> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&text).with_context(|| format!("reading {}", path.display()))
}

/// The game a manifest names.
pub(crate) fn game_of(manifest: &serde_json::Value, dir: &Path) -> anyhow::Result<String> {
    manifest
        .get("game")
        .and_then(|g| g.as_str())
        .map(str::to_string)
        .with_context(|| format!("{}: the manifest names no game", dir.display()))
}

pub(crate) fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let first = &args.shards[0];
    let manifest = read_manifest(first)?;
    for dir in &args.shards[1..] {
        let other = read_manifest(dir)?;
        let differ = differences(&manifest, &other, DIFFERENCES_SHOWN);
        if !differ.is_empty() {
            bail!(
                "{} and {} come from different runs (in the second, {}): shards \
                 must be played with the same bots, options, engine and koth version",
                first.display(),
                dir.display(),
                differ.join("; ")
            );
        }
    }
    let game = game_of(&manifest, first)?;
    games::with_game(&manifest, Merge { args: &args }).with_context(|| {
        format!(
            "{}: unknown game `{game}` (this koth knows {})",
            first.display(),
            games::GAMES.join(", ")
        )
    })?
}

/// The command that plays `game` (`play REFEREE.wasm` for a plugin's), for messages.
pub(crate) fn game_command(game: &str, plugin: bool) -> String {
    if plugin {
        "play REFEREE.wasm".into()
    } else {
        game.into()
    }
}

struct Merge<'a> {
    args: &'a MergeArgs,
}

impl GameVisitor for Merge<'_> {
    type Out = anyhow::Result<ExitCode>;

    fn visit<G: Game>(self, game: &G) -> anyhow::Result<ExitCode> {
        let Merge { args } = self;
        let manifest: Manifest<G::Options> = read_typed_manifest(&args.shards[0])?;
        let total = game.match_count(manifest.bots.len(), &manifest.options);
        let mut shards: BTreeMap<usize, &Path> = BTreeMap::new();
        let mut count = None;
        let mut records = BTreeMap::new();
        for dir in &args.shards {
            let (header, recs) = journal::read::<G::Record>(&dir.join(JOURNAL))
                .with_context(|| format!("reading shard {}", dir.display()))?;
            let Some(shard) = header.shard else {
                bail!(
                    "{} is not a shard (it was run without --shard)",
                    dir.display()
                );
            };
            if header.matches != total {
                bail!(
                    "{}: its journal plans {} matches, the manifest {total}",
                    dir.display(),
                    header.matches
                );
            }
            if *count.get_or_insert(shard.count) != shard.count {
                bail!(
                    "{} is shard {shard}, but another folder splits the run in {} shards",
                    dir.display(),
                    count.unwrap_or_default()
                );
            }
            if let Some(other) = shards.insert(shard.index, dir) {
                bail!(
                    "{} and {} are both shard {shard}",
                    other.display(),
                    dir.display()
                );
            }
            if recs.len() != header.owned() {
                bail!(
                    "{} (shard {shard}) has {} of its {} matches: finish it with `koth {} ... \
                     --shard {shard} --out {} --resume`",
                    dir.display(),
                    recs.len(),
                    header.owned(),
                    game_command(game.name(), manifest.referee.is_some()),
                    dir.display()
                );
            }
            records.extend(recs);
        }
        let count = count.unwrap_or_default();
        let missing: Vec<String> = (1..=count)
            .filter(|k| !shards.contains_key(k))
            .map(|k| format!("{k}/{count}"))
            .collect();
        if !missing.is_empty() {
            bail!(
                "shard(s) {} missing: give all {count} shard folders",
                missing.join(", ")
            );
        }
        let records: Vec<G::Record> = records.into_values().collect();
        if records.len() != total {
            bail!("the shards hold {} of {total} matches", records.len());
        }
        let archive = common::archive(&args.out)?;
        let names = manifest.bots.iter().map(|b| b.name.clone()).collect();
        let digests = digests(&records, &BTreeMap::new())?;
        let run = game.finish(names, &manifest.options, records, digests)?;
        game.write_archive(&run, &manifest, &archive)
            .with_context(|| format!("writing the archive in {}", args.out.display()))?;
        // A referee's viewer: every shard holds the same one (the manifests agree on the
        // referee's SHA-256), and merging needs no referee.
        // Read and checked as the report reads an archive's.
        if let Some(viewer) = PluginViewer::read(&args.shards[0])? {
            archive.write(VIEWER_FILE, viewer.script.as_bytes())?;
        }
        eprintln!(
            "Merged {count} shards of a {} run ({total} matches)",
            game.name()
        );
        Ok(common::report(
            run.leaderboard(),
            run.names(),
            run.summaries(),
            "matches",
            run.invocations(),
            None,
            &args.out,
        ))
    }
}
