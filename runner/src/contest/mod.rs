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
pub mod check;
pub mod config;
pub mod db;
pub mod disk;
pub mod run;
pub mod slurm;
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
        owner_only(root)?;
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
        owner_only(root)?;
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

    /// A read-only connection to the contest's database (see [`db::open_read_only`]).
    pub fn db_read_only(&self) -> Result<rusqlite::Connection, ContestError> {
        db::open_read_only(&self.root.join(DATABASE))
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

    /// Remove what a stopped server left in [`Contest::incoming_dir`] (uploads it was still
    /// checking); returns how many entries went.
    pub fn clear_incoming(&self) -> Result<usize, ContestError> {
        let dir = self.incoming_dir();
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(0);
        };
        let mut n = 0;
        for entry in entries {
            let path = entry.map_err(io(&dir))?.path();
            let removed = if path.is_dir() {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            removed.map_err(io(&path))?;
            n += 1;
        }
        Ok(n)
    }
}

/// Make the contest folder its owner's alone (tokens' hashes, authors' uploads and the
/// database are inside): mode 0700 on Unix.
fn owner_only(root: &Path) -> Result<(), ContestError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(root).map_err(io(root))?;
        if meta.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o700))
                .map_err(io(root))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contest_folder_is_its_owners_alone_and_leftover_uploads_go() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let root = tmp.path().join("c");
        let contest = Contest::init(&root, ContestConfig::coup(1, 1)).expect("init");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&root).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o700);
            std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).expect("chmod");
            Contest::open(&root).expect("open");
            let mode = std::fs::metadata(&root).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o700, "open tightens a loosened folder");
        }
        std::fs::create_dir_all(contest.incoming_dir().join("upload-x")).expect("leftover");
        std::fs::write(contest.incoming_dir().join("upload-x/a.wasm"), b"x").expect("file");
        assert_eq!(contest.clear_incoming().expect("clear"), 1);
        assert_eq!(contest.clear_incoming().expect("clear"), 0);
    }
}
