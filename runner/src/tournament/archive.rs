//! Writing a tournament's archive folder: only relative paths made by koth, never following
//! what a bot left behind.

use std::io::Write;
use std::path::{Component, Path, PathBuf};
use thiserror::Error;

/// The archive could not be written.
#[derive(Debug, Error)]
pub enum ArchiveError {
    /// A filesystem operation failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path at fault.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The folder holds something else than a koth archive.
    #[error("{0} exists and is not an empty folder or a koth archive; choose another --out")]
    NotAnArchive(PathBuf),
    /// The folder holds an unfinished run's journal, which a fresh run would throw away.
    #[error(
        "{0} holds the journal of an unfinished run or a shard (journal.jsonl): add --resume \
         to continue it, or delete the folder to start again"
    )]
    Unfinished(PathBuf),
    /// `--resume` was asked for a folder with no run to resume.
    #[error("{0} holds no koth run to resume (no manifest.json)")]
    NothingToResume(PathBuf),
    /// A path given by a bot would leave the archive.
    #[error("refusing to write outside the archive: {0}")]
    Escape(String),
}

/// A symlink a bot left in its directory: recorded as data, never recreated on the host.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SymlinkRecord {
    /// Whose directory (`scratch/<owner>/`).
    pub owner: String,
    /// The link's path in that directory.
    pub path: String,
    /// Where it points.
    pub target: String,
}

/// Where symlinks left in scratch are listed: outside `scratch/`, so no name a bot picks can
/// collide with it.
pub const SYMLINKS: &str = "scratch-symlinks.jsonl";

/// Name of the file that marks a folder as a koth archive.
pub const MANIFEST: &str = "manifest.json";

/// An archive folder being written.
pub struct Archive {
    root: PathBuf,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Archive {
    /// Create (or replace) the archive at `root`. An existing folder is only replaced if it
    /// is empty or holds a previous koth archive (a manifest), so no user file is lost.
    pub fn create(root: &Path) -> Result<Archive, ArchiveError> {
        if root.exists() {
            let empty = std::fs::read_dir(root).map_err(io(root))?.next().is_none();
            if !empty {
                if !root.join(MANIFEST).is_file() {
                    return Err(ArchiveError::NotAnArchive(root.to_path_buf()));
                }
                if root.join(super::journal::JOURNAL).exists() {
                    return Err(ArchiveError::Unfinished(root.to_path_buf()));
                }
                std::fs::remove_dir_all(root).map_err(io(root))?;
            }
        }
        std::fs::create_dir_all(root).map_err(io(root))?;
        Ok(Archive {
            root: root.to_path_buf(),
        })
    }

    /// Open the archive of a run to resume: it must hold the run's manifest.
    pub fn open(root: &Path) -> Result<Archive, ArchiveError> {
        if !root.join(MANIFEST).is_file() {
            return Err(ArchiveError::NothingToResume(root.to_path_buf()));
        }
        Ok(Archive {
            root: root.to_path_buf(),
        })
    }

    /// The archive's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Where `rel` goes, refusing anything but plain relative components.
    fn target(&self, rel: &str) -> Result<PathBuf, ArchiveError> {
        let p = Path::new(rel);
        if rel.is_empty() || !p.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(ArchiveError::Escape(rel.to_string()));
        }
        Ok(self.root.join(p))
    }

    /// Write a file at `rel`, creating its folders.
    pub fn write(&self, rel: &str, data: &[u8]) -> Result<(), ArchiveError> {
        let path = self.target(rel)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        // A fresh archive holds only what koth wrote, so there is no symlink to follow here.
        let mut f = std::fs::File::create(&path).map_err(io(&path))?;
        f.write_all(data).map_err(io(&path))
    }

    /// Create a folder at `rel`.
    pub fn mkdir(&self, rel: &str) -> Result<(), ArchiveError> {
        let path = self.target(rel)?;
        std::fs::create_dir_all(&path).map_err(io(&path))
    }

    /// Write what bots left in their directories: `scratch/<owner>/...` for files and
    /// folders, and every symlink as a line of [`SYMLINKS`]. Whatever the names, nothing
    /// collides: a directory snapshot holds each path once, and symlinks live elsewhere.
    pub fn write_scratch(
        &self,
        scratch: &[(String, Vec<crate::sandbox::vfs::SnapshotEntry>)],
    ) -> Result<(), ArchiveError> {
        use crate::sandbox::vfs::SnapshotEntry;
        let mut links = Vec::new();
        for (owner, entries) in scratch {
            for e in entries {
                match e {
                    SnapshotEntry::Dir(p) => self.mkdir(&format!("scratch/{owner}/{p}"))?,
                    SnapshotEntry::File(p, data) => {
                        self.write(&format!("scratch/{owner}/{p}"), data)?
                    }
                    SnapshotEntry::Symlink(p, target) => links.push(SymlinkRecord {
                        owner: owner.clone(),
                        path: p.clone(),
                        target: target.clone(),
                    }),
                }
            }
        }
        if links.is_empty() {
            Ok(())
        } else {
            self.write_jsonl(SYMLINKS, &links)
        }
    }

    /// Write one JSON value per line.
    pub fn write_jsonl<T: serde::Serialize>(
        &self,
        rel: &str,
        items: impl IntoIterator<Item = T>,
    ) -> Result<(), ArchiveError> {
        let mut buf = Vec::new();
        for item in items {
            serde_json::to_writer(&mut buf, &item).map_err(|e| ArchiveError::Io {
                path: self.root.join(rel),
                source: e.into(),
            })?;
            buf.push(b'\n');
        }
        self.write(rel, &buf)
    }

    /// Write a pretty JSON document.
    pub fn write_json<T: serde::Serialize>(
        &self,
        rel: &str,
        value: &T,
    ) -> Result<(), ArchiveError> {
        let mut buf = serde_json::to_vec_pretty(value).map_err(|e| ArchiveError::Io {
            path: self.root.join(rel),
            source: e.into(),
        })?;
        buf.push(b'\n');
        self.write(rel, &buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_that_leave_the_archive() {
        let tmp = tempfile::Builder::new()
            .prefix("koth-archive-test-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("archive");
        let a = Archive::create(&dir).unwrap();
        for bad in ["../x", "/etc/x", "a/../../x", ""] {
            assert!(
                matches!(a.write(bad, b"x"), Err(ArchiveError::Escape(_))),
                "{bad}"
            );
        }
        a.write("ok/file.txt", b"x").unwrap();
        assert_eq!(std::fs::read(dir.join("ok/file.txt")).unwrap(), b"x");
    }

    #[test]
    fn never_replaces_a_folder_that_is_not_an_archive() {
        let tmp = tempfile::Builder::new()
            .prefix("koth-archive-keep-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("archive");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("precious.txt"), b"keep").unwrap();
        assert!(matches!(
            Archive::create(&dir),
            Err(ArchiveError::NotAnArchive(_))
        ));
        assert_eq!(std::fs::read(dir.join("precious.txt")).unwrap(), b"keep");
    }

    #[test]
    fn scratch_is_written_whole_whatever_the_names() {
        use crate::sandbox::vfs::SnapshotEntry;
        let tmp = tempfile::Builder::new()
            .prefix("koth-archive-links-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("archive");
        let a = Archive::create(&dir).unwrap();
        // A symlink `x` beside a folder `x.symlink` once made the archive fail half written.
        let entries = vec![
            SnapshotEntry::Symlink("x".into(), "../../etc/passwd".into()),
            SnapshotEntry::Dir("x.symlink".into()),
            SnapshotEntry::File("x.symlink/f".into(), b"data".to_vec()),
            SnapshotEntry::Symlink("x.symlink/y".into(), "f".into()),
        ];
        a.write_scratch(&[("bot".into(), entries)]).unwrap();
        assert_eq!(
            std::fs::read(dir.join("scratch/bot/x.symlink/f")).unwrap(),
            b"data"
        );
        assert!(!dir.join("scratch/bot/x").exists());
        let links = std::fs::read_to_string(dir.join(SYMLINKS)).unwrap();
        assert_eq!(links.lines().count(), 2);
        assert!(links.contains("\"target\":\"../../etc/passwd\""));
    }
}
