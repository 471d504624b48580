//! Writing a tournament's archive folder: only relative paths made by koth, never following
//! what a bot left behind.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
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

/// The folders of per-match files (one flat file per game or match, named by koth) that an
/// earlier archive's files are overwritten in rather than deleted: deleting and creating
/// again thousands of files cost more than the whole run on some filesystems.
const REWRITTEN: [&str; 2] = ["histories", "logs"];

/// An archive folder being written.
pub struct Archive {
    root: PathBuf,
    /// Files of an earlier archive (or of the killed run being resumed) that this one has not
    /// written yet: [`Archive::finish`] deletes those still here.
    stale: Mutex<BTreeSet<PathBuf>>,
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
    ///
    /// The previous archive goes at once but for its per-match files (`histories/`,
    /// `logs/`): those are overwritten as the new archive is written, and the ones it does
    /// not write are deleted by [`Archive::finish`]. The archive is then the same as one
    /// written into an empty folder.
    pub fn create(root: &Path) -> Result<Archive, ArchiveError> {
        let mut stale = BTreeSet::new();
        if root.exists() {
            let empty = std::fs::read_dir(root).map_err(io(root))?.next().is_none();
            if !empty {
                if !root.join(MANIFEST).is_file() {
                    return Err(ArchiveError::NotAnArchive(root.to_path_buf()));
                }
                if root.join(super::journal::JOURNAL).exists() {
                    return Err(ArchiveError::Unfinished(root.to_path_buf()));
                }
                stale = clear_but_per_match_files(root)?;
            }
        }
        std::fs::create_dir_all(root).map_err(io(root))?;
        Ok(Archive {
            root: root.to_path_buf(),
            stale: Mutex::new(stale),
        })
    }

    /// Open the archive of a run to resume: it must hold the run's manifest. What it holds
    /// besides the manifest and the journal (an earlier archive's per-match files, or what
    /// the killed run had written) is rewritten or deleted by [`Archive::finish`].
    pub fn open(root: &Path) -> Result<Archive, ArchiveError> {
        if !root.join(MANIFEST).is_file() {
            return Err(ArchiveError::NothingToResume(root.to_path_buf()));
        }
        let mut stale = BTreeSet::new();
        files_under(root, &mut stale)?;
        stale.remove(&root.join(MANIFEST));
        stale.remove(&root.join(super::journal::JOURNAL));
        Ok(Archive {
            root: root.to_path_buf(),
            stale: Mutex::new(stale),
        })
    }

    /// Delete what an earlier archive left that this one did not write again (and the
    /// per-match folders this left empty). Call it once the archive is written.
    pub fn finish(&self) -> Result<(), ArchiveError> {
        let stale = std::mem::take(&mut *self.stale.lock().unwrap_or_else(|e| e.into_inner()));
        let mut parents = BTreeSet::new();
        for path in stale {
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io(&path)(e)),
            }
            if let Some(p) = path.parent().filter(|p| *p != self.root) {
                parents.insert(p.to_path_buf());
            }
        }
        // Deepest first, so a folder emptied by its emptied subfolder goes too; a folder
        // that still holds files stays.
        for dir in parents.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
        Ok(())
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
        // What an earlier archive left here was checked to be a plain file (symlinks were
        // deleted), so there is no symlink to follow.
        self.unstale(&path);
        let mut f = std::fs::File::create(&path).map_err(io(&path))?;
        f.write_all(data).map_err(io(&path))
    }

    /// `path` is being written: [`Archive::finish`] must keep it.
    fn unstale(&self, path: &Path) {
        let mut stale = self.stale.lock().unwrap_or_else(|e| e.into_inner());
        if !stale.is_empty() {
            stale.remove(path);
        }
    }

    /// Create a folder at `rel`.
    pub fn mkdir(&self, rel: &str) -> Result<(), ArchiveError> {
        let path = self.target(rel)?;
        std::fs::create_dir_all(&path).map_err(io(&path))
    }

    /// Write many files at once (`(rel, bytes)`), from a pool of threads: the per-match
    /// files, thousands for a large run, cost their filesystem's latency more than its
    /// bandwidth. Stops at the first failure.
    pub fn write_all<T: AsRef<[u8]> + Sync>(
        &self,
        files: &[(String, T)],
    ) -> Result<(), ArchiveError> {
        use rayon::prelude::*;
        files
            .par_iter()
            .with_min_len(16)
            .try_for_each(|(rel, data)| self.write(rel, data.as_ref()))
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

/// Empty an earlier archive's folder `root` but for the plain files of its per-match folders
/// ([`REWRITTEN`]), which are returned, to be overwritten or deleted.
fn clear_but_per_match_files(root: &Path) -> Result<BTreeSet<PathBuf>, ArchiveError> {
    let mut kept = BTreeSet::new();
    for entry in std::fs::read_dir(root).map_err(io(root))? {
        let entry = entry.map_err(io(root))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(io(&path))?;
        let per_match = REWRITTEN.iter().any(|d| entry.file_name() == *d);
        if kind.is_dir() && per_match {
            for inner in std::fs::read_dir(&path).map_err(io(&path))? {
                let inner = inner.map_err(io(&path))?;
                let p = inner.path();
                let k = inner.file_type().map_err(io(&p))?;
                if k.is_file() {
                    kept.insert(p);
                } else {
                    remove(&p, k.is_dir())?;
                }
            }
        } else {
            remove(&path, kind.is_dir())?;
        }
    }
    Ok(kept)
}

/// Every plain file under `dir` into `out`; symlinks (which koth never writes) are deleted,
/// so that writing the archive never follows one.
fn files_under(dir: &Path, out: &mut BTreeSet<PathBuf>) -> Result<(), ArchiveError> {
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(io(&path))?;
        if kind.is_dir() {
            files_under(&path, out)?;
        } else if kind.is_file() {
            out.insert(path);
        } else {
            remove(&path, false)?;
        }
    }
    Ok(())
}

/// Delete a file (or a symlink), or a folder with what it holds.
fn remove(path: &Path, dir: bool) -> Result<(), ArchiveError> {
    if dir {
        std::fs::remove_dir_all(path).map_err(io(path))
    } else {
        std::fs::remove_file(path).map_err(io(path))
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

    /// Every file under `dir`, with its bytes, by relative path.
    fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut files = BTreeSet::new();
        files_under(dir, &mut files).unwrap();
        files
            .into_iter()
            .map(|p| {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                (rel, std::fs::read(&p).unwrap())
            })
            .collect()
    }

    #[test]
    fn an_archive_over_an_earlier_one_is_the_one_an_empty_folder_gets() {
        let tmp = tempfile::tempdir().unwrap();
        let write = |a: &Archive, files: &[(&str, &str)]| {
            a.write(MANIFEST, b"{}").unwrap();
            let files: Vec<(String, &str)> =
                files.iter().map(|(p, d)| (p.to_string(), *d)).collect();
            a.write_all(&files).unwrap();
        };
        let new = [
            ("histories/game-1.txt", "new 1"),
            ("logs/game-1.log", "log 1"),
            ("results.json", "r"),
        ];
        let fresh = tmp.path().join("fresh");
        let a = Archive::create(&fresh).unwrap();
        write(&a, &new);
        a.finish().unwrap();
        // An earlier archive with more games, scratch, a stray folder and a symlink.
        let over = tmp.path().join("over");
        let old = Archive::create(&over).unwrap();
        write(
            &old,
            &[
                ("histories/game-1.txt", "old 1, longer than the new one"),
                ("histories/game-2.txt", "old 2"),
                ("logs/game-2.log", "old log 2"),
                ("scratch/bot/notes", "n"),
                ("histories/odd/deeper", "x"),
                ("head-to-head.txt", "h"),
            ],
        );
        let outside = tmp.path().join("outside.txt");
        std::fs::write(&outside, b"keep").unwrap();
        std::os::unix::fs::symlink(&outside, over.join("logs/game-1.log")).unwrap();
        let a = Archive::create(&over).unwrap();
        // The earlier results are gone before the new run writes anything.
        assert!(!over.join("head-to-head.txt").exists() && !over.join("scratch").exists());
        write(&a, &new);
        a.finish().unwrap();
        assert_eq!(tree(&over), tree(&fresh));
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
        // A run that writes no per-match files leaves no empty folder behind.
        let a = Archive::create(&over).unwrap();
        write(&a, &[("results.json", "r")]);
        a.finish().unwrap();
        assert!(!over.join("histories").exists() && !over.join("logs").exists());
        // Resuming: what the killed run or an earlier archive left is rewritten or deleted.
        std::fs::write(over.join("stray.txt"), b"s").unwrap();
        let a = Archive::open(&over).unwrap();
        write(&a, &new);
        a.finish().unwrap();
        assert_eq!(tree(&over), tree(&fresh));
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
