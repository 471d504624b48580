//! A live contest: one game, its authors, their bots and every version of them, and the runs
//! that re-play the ladder after each accepted upload (`koth contest`, `koth serve`).
//!
//! A contest is a folder:
//!
//! - `contest.json`: the game and its options ([`config`]);
//! - `contest.db`: SQLite (WAL) with authors, bots, versions, runs and the match index ([`db`]);
//! - `versions/<id>/<bot>.<ext>`: each accepted upload, as it was sent;
//! - `store/`: finished matches by what defines them (the `--reuse` store);
//! - `runs/<id>/`: each run's archive, an ordinary koth archive;
//! - `cache/`: compiled code.
//!
//! Every run is an ordinary tournament with `--reuse` on the contest's store ([`run`]); the
//! [`worker`] plays them one at a time, queued in the database so a restart carries on.

pub mod auth;
pub mod config;
pub mod db;
pub mod run;
pub mod submit;
pub mod worker;

use std::path::{Path, PathBuf};
use thiserror::Error;

pub use config::{ContestConfig, GameConfig};

/// The contest's configuration file.
pub const CONFIG: &str = "contest.json";
/// The contest's database.
pub const DATABASE: &str = "contest.db";

/// A contest could not be opened or changed.
#[derive(Debug, Error)]
pub enum ContestError {
    /// A file or folder of the contest could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The path at fault.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The database refused an operation.
    #[error("contest database: {0}")]
    Db(#[from] rusqlite::Error),
    /// `contest.json` is not a contest configuration.
    #[error("{path}: {what}")]
    Config {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// What was asked cannot be done (a name taken, a folder not empty...).
    #[error("{0}")]
    Refused(String),
}

/// Wrap an I/O error with its path.
pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ContestError + '_ {
    move |source| ContestError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// A contest folder, opened.
#[derive(Debug, Clone)]
pub struct Contest {
    root: PathBuf,
    /// Its configuration.
    pub config: ContestConfig,
}

impl Contest {
    /// Create the contest folder `root` (absent or empty) with this configuration.
    pub fn init(root: &Path, config: ContestConfig) -> Result<Contest, ContestError> {
        config.check().map_err(ContestError::Refused)?;
        if root.exists() {
            let mut entries = std::fs::read_dir(root).map_err(io(root))?;
            if entries.next().is_some() {
                return Err(ContestError::Refused(format!(
                    "{} is not empty: a contest is created in a new or empty folder",
                    root.display()
                )));
            }
        }
        std::fs::create_dir_all(root).map_err(io(root))?;
        for sub in ["versions", "runs", "store", "cache", "incoming"] {
            let p = root.join(sub);
            std::fs::create_dir_all(&p).map_err(io(&p))?;
        }
        let path = root.join(CONFIG);
        let text = serde_json::to_string_pretty(&config).map_err(|e| ContestError::Config {
            path: path.clone(),
            what: e.to_string(),
        })?;
        std::fs::write(&path, text + "\n").map_err(io(&path))?;
        db::open(&root.join(DATABASE))?;
        Ok(Contest {
            root: root.to_path_buf(),
            config,
        })
    }

    /// Open the contest folder `root`.
    pub fn open(root: &Path) -> Result<Contest, ContestError> {
        let path = root.join(CONFIG);
        let text = std::fs::read_to_string(&path).map_err(|source| {
            if source.kind() == std::io::ErrorKind::NotFound {
                ContestError::Refused(format!(
                    "{} is not a contest folder (no {CONFIG}; create one with `koth contest init`)",
                    root.display()
                ))
            } else {
                ContestError::Io {
                    path: path.clone(),
                    source,
                }
            }
        })?;
        let config: ContestConfig =
            serde_json::from_str(&text).map_err(|e| ContestError::Config {
                path: path.clone(),
                what: e.to_string(),
            })?;
        config.check().map_err(|what| ContestError::Config {
            path: path.clone(),
            what,
        })?;
        Ok(Contest {
            root: root.to_path_buf(),
            config,
        })
    }

    /// The contest folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A new connection to the contest's database.
    pub fn db(&self) -> Result<rusqlite::Connection, ContestError> {
        db::open(&self.root.join(DATABASE))
    }

    /// The folder of run `id`'s archive.
    pub fn run_dir(&self, id: i64) -> PathBuf {
        self.root.join("runs").join(id.to_string())
    }

    /// The file of a version.
    pub fn version_file(&self, id: i64, file: &str) -> PathBuf {
        self.root.join("versions").join(id.to_string()).join(file)
    }

    /// The match store every run reuses.
    pub fn store_dir(&self) -> PathBuf {
        self.root.join("store")
    }

    /// Where uploads are checked before they are accepted.
    pub fn incoming_dir(&self) -> PathBuf {
        self.root.join("incoming")
    }

    /// The compiled-code cache.
    pub fn cache_dir(&self) -> PathBuf {
        self.root.join("cache")
    }
}
