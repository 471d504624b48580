//! One run of any game into an archive folder, the part that `koth <game>`, `koth play` and the
//! contest server's runs share: the manifest, the folder and its journal (afresh or resumed),
//! the reuse store's view of the run, and the archive written whole from the records once
//! every match is played. Playing (with or without a progress bar) and printing stay with
//! the caller.

use super::Game;
use crate::sandbox::{Bot, Sandbox};
use crate::tournament::archive::{Archive, ArchiveError, MANIFEST};
use crate::tournament::journal::{Header, JournalError, JOURNAL};
use crate::tournament::receipt::digests;
use crate::tournament::store::{run_key, Reuse, Store};
use crate::tournament::{BotEntry, Journal, Manifest, RefereeEntry, Shard};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a run's folder could not be prepared or its archive written.
#[derive(Debug, thiserror::Error)]
pub enum FolderError {
    /// Creating, opening or writing the archive failed.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// Creating, reading or syncing the journal failed.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The run's records could not be summed up.
    #[error(transparent)]
    Run(#[from] crate::tournament::RunError),
    /// The folder's manifest cannot be read.
    #[error("reading {path}: {why}")]
    Manifest {
        /// The manifest's path.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// The run in the folder was started with another manifest.
    #[error(
        "{out} was started with other options or bots: {keys}; give the same bots and options \
         to resume, or run without --resume into another folder"
    )]
    OtherRun {
        /// The archive folder.
        out: PathBuf,
        /// What differs, each as `path was A, now B`, separated by `; `.
        keys: String,
    },
    /// The journal was started for another share of the run.
    #[error("{out} was started as {started}, not {asked}: resume it with the same --shard")]
    OtherShard {
        /// The archive folder.
        out: PathBuf,
        /// What the journal's header says.
        started: String,
        /// What this run is.
        asked: String,
    },
    /// Fewer records than matches reached the archive.
    #[error("{played} of {total} matches were played; this is a koth bug")]
    Incomplete {
        /// Records there are.
        played: usize,
        /// Matches the run has.
        total: usize,
    },
    /// The journal could not be removed once the archive held everything it did.
    #[error("removing {path}: {source}")]
    Cleanup {
        /// The journal's path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// The manifest of a run of `game` (played by `referee`, for a plugin) with these bots, each
/// loaded from the file named in `files`, and these options.
pub fn manifest<O>(
    game: &str,
    referee: Option<RefereeEntry>,
    bots: &[Arc<Bot>],
    files: impl IntoIterator<Item = String>,
    options: O,
    sandbox: &Sandbox,
) -> Manifest<O> {
    Manifest {
        game: game.into(),
        koth_version: crate::VERSION.into(),
        bots: bots
            .iter()
            .zip(files)
            .map(|(b, file)| BotEntry {
                name: b.name().to_string(),
                file,
                sha256: b.sha256_hex(),
            })
            .collect(),
        options,
        engine: sandbox.settings().clone(),
        referee,
    }
}

/// What a run does with a journal already in its folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resume {
    /// Start afresh. An earlier archive in the folder is replaced; an unfinished run's
    /// journal is refused rather than thrown away ([`ArchiveError`]).
    Never,
    /// Carry on the folder's run, which must be this one (the same manifest and share):
    /// anything else is an error. A journal without a played match starts afresh.
    Same,
    /// Carry on the folder's run if it is this one; otherwise start afresh (the contest
    /// server, whose runs are defined by its database, not by a command line).
    IfSame,
}

/// A run's archive folder, ready to be played into.
pub struct Folder<R> {
    /// The archive, written once every match is played.
    pub archive: Archive,
    /// The journal each finished match is appended to.
    pub journal: Journal,
    /// What the journal already held: records by match index, not to be played again.
    pub done: BTreeMap<usize, R>,
}

impl<R: DeserializeOwned> Folder<R> {
    /// Prepare `out` for the run of `manifest` that `header` describes, resuming its journal
    /// as `resume` says.
    pub fn prepare<O: Serialize>(
        out: &Path,
        manifest: &Manifest<O>,
        header: &Header,
        resume: Resume,
    ) -> Result<Folder<R>, FolderError> {
        let journal_path = out.join(JOURNAL);
        let started = resume != Resume::Never && journal_started(&journal_path);
        let resuming = match resume {
            Resume::Never => false,
            Resume::Same => started,
            // An unreadable manifest is not this run's.
            Resume::IfSame => {
                started && other_keys(out, manifest).is_ok_and(|keys| keys.is_empty())
            }
        };
        if resuming {
            let archive = Archive::open(out)?;
            if resume == Resume::Same {
                // With `IfSame` the manifest was compared above.
                same_run(out, manifest)?;
            }
            let (journal, was, done) = Journal::resume::<R>(&journal_path)?;
            if was != *header {
                return Err(FolderError::OtherShard {
                    out: out.to_path_buf(),
                    started: shard_name(was.shard),
                    asked: shard_name(header.shard),
                });
            }
            return Ok(Folder {
                archive,
                journal,
                done,
            });
        }
        if resume != Resume::Never {
            // A run killed before its first match was journaled left at most a header.
            let _ = std::fs::remove_file(&journal_path);
        }
        let archive = Archive::create(out)?;
        archive.write_json(MANIFEST, manifest)?;
        Ok(Folder {
            archive,
            journal: Journal::create(&journal_path, header)?,
            done: BTreeMap::new(),
        })
    }
}

/// The reuse store's view of the run of `manifest`: its matches, keyed by what defines them.
pub fn reuse<'a, G: Game>(
    game: &G,
    store: &'a Store,
    manifest: &Manifest<G::Options>,
) -> Reuse<'a> {
    // A manifest is plain data: it always serializes.
    let json = serde_json::to_value(manifest).unwrap_or_default();
    Reuse::new(
        store,
        run_key(&json, game.round_count_field()),
        manifest
            .bots
            .iter()
            .map(|b| (b.name.clone(), b.sha256.clone()))
            .collect(),
    )
}

/// Sum up a run whose every match is played (`records`, one entry per match, in order;
/// `known`, the digests the journal took) and write its archive into `archive`, in `out`;
/// then remove the journal, which the archive now holds. `mark` is called after each phase
/// (`results, ratings`, `archive write`, `cleanup`), for `--timings`.
#[allow(clippy::too_many_arguments)]
pub fn conclude<G: Game>(
    game: &G,
    manifest: &Manifest<G::Options>,
    names: Vec<String>,
    records: Vec<Option<G::Record>>,
    known: &BTreeMap<usize, String>,
    archive: &Archive,
    out: &Path,
    mark: &mut dyn FnMut(&'static str),
) -> Result<G::Run, FolderError> {
    let total = game.match_count(names.len(), &manifest.options);
    let records: Vec<G::Record> = records.into_iter().flatten().collect();
    if records.len() != total {
        return Err(FolderError::Incomplete {
            played: records.len(),
            total,
        });
    }
    // The journal took each digest from the bytes it wrote; only resumed matches' are left.
    let digests = digests(&records, known).map_err(crate::tournament::RunError::from)?;
    let run = game.finish(names, &manifest.options, records, digests)?;
    mark("results, ratings");
    game.write_archive(&run, manifest, archive)?;
    mark("archive write");
    let journal = out.join(JOURNAL);
    std::fs::remove_file(&journal).map_err(|source| FolderError::Cleanup {
        path: journal,
        source,
    })?;
    mark("cleanup");
    Ok(run)
}

/// Whether a journal got as far as its complete header line.
pub fn journal_started(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|d| d.contains(&b'\n'))
}

fn shard_name(shard: Option<Shard>) -> String {
    shard.map_or("a whole run".into(), |s| format!("shard {s}"))
}

/// Check that the run in `out` was started with `manifest` (the same bots, options, engine
/// and koth version), naming what differs.
pub fn same_run<O: Serialize>(out: &Path, manifest: &Manifest<O>) -> Result<(), FolderError> {
    let keys = other_keys(out, manifest)?;
    if keys.is_empty() {
        return Ok(());
    }
    Err(FolderError::OtherRun {
        out: out.to_path_buf(),
        keys: keys.join("; "),
    })
}

/// What in the manifest in `out` differs from `manifest` ([`differences`]).
fn other_keys<O: Serialize>(
    out: &Path,
    manifest: &Manifest<O>,
) -> Result<Vec<String>, FolderError> {
    let path = out.join(MANIFEST);
    let why = |e: &dyn std::fmt::Display| FolderError::Manifest {
        path: path.clone(),
        why: e.to_string(),
    };
    let text = std::fs::read(&path).map_err(|e| why(&e))?;
    let started: serde_json::Value = serde_json::from_slice(&text).map_err(|e| why(&e))?;
    let now = serde_json::to_value(manifest).map_err(|e| why(&e))?;
    Ok(differences(&started, &now, DIFFERENCES_SHOWN))
}

/// How many differences a message names before it says how many more there are.
pub const DIFFERENCES_SHOWN: usize = 8;

/// Every value that differs between two JSON documents, as `path was A, now B` (`rounds was
/// 200, now 100`, `bots[taxman].sha256 was "3f2a…", now "9c01…"`), in document order: an
/// array's entries are named by their `name` field where they have one; a long value is cut.
/// At most `limit` are listed, then how many more.
pub fn differences(a: &serde_json::Value, b: &serde_json::Value, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    diff_into(&mut out, "", a, b);
    if out.len() > limit {
        let more = out.len() - limit;
        out.truncate(limit);
        out.push(format!("and {more} more"));
    }
    out
}

fn diff_into(out: &mut Vec<String>, path: &str, a: &serde_json::Value, b: &serde_json::Value) {
    use serde_json::Value;
    if a == b {
        return;
    }
    let join = |key: &str| {
        if path.is_empty() {
            key.to_string()
        } else {
            format!("{path}.{key}")
        }
    };
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                match (x.get(k), y.get(k)) {
                    (Some(va), Some(vb)) => diff_into(out, &join(k), va, vb),
                    // A field on one side only differs even from an explicit null.
                    (va, vb) => out.push(format!(
                        "{} was {}, now {}",
                        join(k),
                        va.map_or("absent".into(), short),
                        vb.map_or("absent".into(), short)
                    )),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (va, vb)) in x.iter().zip(y).enumerate() {
                let label = va
                    .get("name")
                    .and_then(Value::as_str)
                    .filter(|n| vb.get("name").and_then(Value::as_str) == Some(*n))
                    .map_or_else(|| i.to_string(), str::to_string);
                diff_into(out, &format!("{path}[{label}]"), va, vb);
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            let names = |v: &[Value]| -> String {
                let n: Vec<String> = v
                    .iter()
                    .map(|e| short(e.get("name").unwrap_or(e)))
                    .collect();
                n.join(", ")
            };
            out.push(format!(
                "{} was {} entries ({}), now {} ({})",
                if path.is_empty() {
                    "the manifest"
                } else {
                    path
                },
                x.len(),
                names(x),
                y.len(),
                names(y)
            ));
        }
        _ => out.push(format!(
            "{} was {}, now {}",
            if path.is_empty() {
                "the manifest"
            } else {
                path
            },
            short(a),
            short(b)
        )),
    }
}

/// A JSON value for a message: cut past 24 characters.
fn short(v: &serde_json::Value) -> String {
    let text = v.to_string();
    if text.chars().count() > 24 {
        let cut: String = text.chars().take(12).collect();
        format!("{cut}…")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences_name_each_value_with_both_sides() {
        let a = json!({"options": {"rounds": 200, "seed": 1},
                       "bots": [{"name": "tax", "sha256": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, {"name": "law", "sha256": "b"}]});
        let b = json!({"options": {"rounds": 100, "seed": 1},
                       "bots": [{"name": "tax", "sha256": "cccccccccccccccccccccccccccccccc"}, {"name": "law", "sha256": "b"}]});
        assert_eq!(
            differences(&a, &b, 8),
            [
                "bots[tax].sha256 was \"aaaaaaaaaaa…, now \"ccccccccccc…",
                "options.rounds was 200, now 100"
            ]
        );
        let c = json!({"bots": [{"name": "tax"}], "new": true});
        assert_eq!(
            differences(&json!({"bots": [{"name": "tax"}, {"name": "law"}]}), &c, 8),
            [
                "bots was 2 entries (\"tax\", \"law\"), now 1 (\"tax\")",
                "new was absent, now true"
            ]
        );
        assert!(differences(&a, &a, 8).is_empty());
        let many_a =
            serde_json::Value::Object((0..20).map(|i| (i.to_string(), json!(i))).collect());
        let many_b =
            serde_json::Value::Object((0..20).map(|i| (i.to_string(), json!(i + 1))).collect());
        let d = differences(&many_a, &many_b, 3);
        assert_eq!(d.len(), 4);
        assert_eq!(d[3], "and 17 more");
    }
}
