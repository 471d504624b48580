//! Opening a finished run's archive: `manifest.json` and `results.json` read once and checked
//! against the types koth writes them from, for `koth report`, `koth verify` and `koth
//! replay` alike. A malformed archive is an error that names the file and what is wrong
//! (serde's words: the missing field, the line), never an empty report or a silent default.
//!
//! The documents stay `serde_json::Value`s: `koth verify` recomputes the receipt over exactly
//! what the file holds, and each game reads its own options and `detail`. The check
//! deserialises them into the shared types beside it and throws the copy away.

use super::archive::MANIFEST;
use super::results::{BotEntry, Results, READABLE_SCHEMAS};
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The results file of an archive.
pub const RESULTS: &str = "results.json";

/// An archive that cannot be read.
#[derive(Debug, Error)]
pub enum ReadError {
    /// A file is missing or unreadable.
    #[error("cannot read {path} (is it the folder of a finished koth run?)")]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file is not what koth writes.
    #[error("{path}: {what}")]
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
}

/// What every manifest holds, whatever the game (its options are the game's to read).
#[derive(Deserialize)]
#[allow(dead_code)] // Read for the check, not kept.
struct ManifestHead {
    game: String,
    koth_version: String,
    bots: Vec<BotEntry>,
    options: IgnoredAny,
}

/// A finished run's archive, its manifest and results read and checked.
#[derive(Debug, Clone)]
pub struct RunArchive {
    root: PathBuf,
    /// `manifest.json` as written.
    pub manifest: Value,
    /// `results.json` as written.
    pub results: Value,
}

impl RunArchive {
    /// Read the archive in the folder `root`: both documents must parse, hold every field
    /// koth writes (results of a schema this koth reads), and name the same game.
    ///
    /// # Errors
    ///
    /// [`ReadError`], naming the file at fault.
    pub fn open(root: &Path) -> Result<RunArchive, ReadError> {
        let manifest_path = root.join(MANIFEST);
        let manifest = read_json(&manifest_path)?;
        let head = ManifestHead::deserialize(&manifest).map_err(|e| ReadError::Malformed {
            path: manifest_path.clone(),
            what: format!("not a koth manifest: {e}"),
        })?;
        let results_path = root.join(RESULTS);
        let results = read_json(&results_path)?;
        let malformed = |what: String| ReadError::Malformed {
            path: results_path.clone(),
            what,
        };
        let schema = results.get("schema").and_then(Value::as_str);
        if !schema.is_some_and(|s| READABLE_SCHEMAS.contains(&s)) {
            return Err(malformed(format!(
                "schema {schema:?}, expected one of {}",
                READABLE_SCHEMAS.join(", ")
            )));
        }
        let typed = Results::<IgnoredAny>::deserialize(&results)
            .map_err(|e| malformed(format!("not koth's results: {e}")))?;
        if typed.game != head.game {
            return Err(malformed(format!(
                "a run of `{}`, but its manifest names `{}`",
                typed.game, head.game
            )));
        }
        if let Some(m) = typed
            .matches
            .iter()
            .enumerate()
            .find(|(i, m)| m.index != *i)
        {
            return Err(malformed(format!(
                "match {} is listed as match {}",
                m.0, m.1.index
            )));
        }
        Ok(RunArchive {
            root: root.to_path_buf(),
            manifest,
            results,
        })
    }

    /// The manifest and the results, as written.
    pub fn into_documents(self) -> (Value, Value) {
        (self.manifest, self.results)
    }

    /// The game both documents name (checked present by [`RunArchive::open`]).
    pub fn game(&self) -> &str {
        self.manifest
            .get("game")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// The manifest's path, for messages.
    pub fn manifest_path(&self) -> PathBuf {
        self.root.join(MANIFEST)
    }

    /// Every match of `results.json`, in order (checked present by [`RunArchive::open`]).
    pub fn matches(&self) -> &[Value] {
        self.results
            .get("matches")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The leaderboard's rows, best first (checked present by [`RunArchive::open`]).
    pub fn rows(&self) -> &[Value] {
        self.results
            .get("bots")
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// The receipt `results.json` stores.
    pub fn receipt(&self) -> &str {
        self.results
            .get("receipt")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }
}

fn read_json(path: &Path) -> Result<Value, ReadError> {
    let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ReadError::Malformed {
        path: path.to_path_buf(),
        what: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(dir: &Path, manifest: &Value, results: &Value) {
        std::fs::write(dir.join(MANIFEST), manifest.to_string()).expect("manifest");
        std::fs::write(dir.join(RESULTS), results.to_string()).expect("results");
    }

    fn manifest() -> Value {
        json!({"game": "coup", "koth_version": "0.7.0", "options": {},
               "bots": [{"name": "a", "file": "a.wasm", "sha256": "00"}]})
    }

    fn results() -> Value {
        json!({"schema": "koth-results/3", "game": "coup", "unit": "games",
               "bots": [], "void_matches": [], "receipt": "ab", "detail": {},
               "matches": [{"index": 0, "label": "g0", "participants": ["a", "a"],
                            "scores": [1, 0], "winners": ["a"], "record_sha256": "cd"}]})
    }

    #[test]
    fn a_whole_archive_opens_and_every_fault_names_its_file() {
        let tmp = tempfile::tempdir().expect("tmp");
        let dir = tmp.path();
        let err = RunArchive::open(dir).expect_err("empty folder");
        assert!(err.to_string().contains("manifest.json"), "{err}");
        write(dir, &manifest(), &results());
        let run = RunArchive::open(dir).expect("opens");
        assert_eq!(
            (run.game(), run.matches().len(), run.receipt()),
            ("coup", 1, "ab")
        );

        let cases: [(&str, Value, Value, &str); 6] = [
            (
                "no bots",
                manifest(),
                {
                    let mut r = results();
                    r.as_object_mut().expect("object").remove("bots");
                    r
                },
                "results.json: not koth's results: missing field `bots`",
            ),
            (
                "a future schema",
                manifest(),
                {
                    let mut r = results();
                    r["schema"] = json!("koth-results/9");
                    r
                },
                "schema Some(\"koth-results/9\")",
            ),
            (
                "another game",
                manifest(),
                {
                    let mut r = results();
                    r["game"] = json!("euchre");
                    r
                },
                "a run of `euchre`, but its manifest names `coup`",
            ),
            (
                "a match out of place",
                manifest(),
                {
                    let mut r = results();
                    r["matches"][0]["index"] = json!(3);
                    r
                },
                "match 0 is listed as match 3",
            ),
            (
                "a match without its digest",
                manifest(),
                {
                    let mut r = results();
                    r["matches"][0]
                        .as_object_mut()
                        .expect("object")
                        .remove("record_sha256");
                    r
                },
                "missing field `record_sha256`",
            ),
            (
                "a manifest without its bots",
                {
                    let mut m = manifest();
                    m.as_object_mut().expect("object").remove("bots");
                    m
                },
                results(),
                "manifest.json: not a koth manifest: missing field `bots`",
            ),
        ];
        for (what, m, r, says) in cases {
            write(dir, &m, &r);
            let err = RunArchive::open(dir).expect_err(what).to_string();
            assert!(err.contains(says), "{what}: {err}");
        }
    }
}
