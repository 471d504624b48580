//! Writing a tournament's archive folder: only relative paths made by koth, never following
//! what a bot left behind. Per-match files (human logs, histories, scratch) go into one
//! container, [`MATCHES`]; the folder holds a handful of files whatever the run's size.

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
    /// Two per-match files koth names alike.
    #[error("two per-match files are named {0}; this is a koth bug")]
    Duplicate(String),
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

/// An archive's invocation lines: one JSON line per invocation, as seekable zstd.
pub const INVOCATIONS: &str = "invocations.jsonl.zst";

/// The invocation lines as koth 0.5.0 and earlier wrote them, not compressed.
pub const INVOCATIONS_PLAIN: &str = "invocations.jsonl";

/// Name of the file that marks a folder as a koth archive.
pub const MANIFEST: &str = "manifest.json";

pub use super::container::MATCHES;

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
    /// is empty or holds a previous koth archive (a manifest), so no user file is lost; the
    /// previous archive's files go at once (its per-match files are one container, or, for
    /// an archive written before the container, folders of them), so what is written next
    /// is the archive an empty folder gets.
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
                clear(root, &[])?;
            }
        }
        std::fs::create_dir_all(root).map_err(io(root))?;
        Ok(Archive {
            root: root.to_path_buf(),
        })
    }

    /// Open the archive of a run to resume: it must hold the run's manifest. What it holds
    /// besides the manifest and the journal (an earlier archive's files, or what the killed
    /// run had written) goes at once: the archive is written whole from the journal.
    pub fn open(root: &Path) -> Result<Archive, ArchiveError> {
        if !root.join(MANIFEST).is_file() {
            return Err(ArchiveError::NothingToResume(root.to_path_buf()));
        }
        clear(root, &[MANIFEST, super::journal::JOURNAL])?;
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
        check_relative(rel)?;
        Ok(self.root.join(rel))
    }

    /// Write a file at `rel`, creating its folders.
    pub fn write(&self, rel: &str, data: &[u8]) -> Result<(), ArchiveError> {
        let path = self.target(rel)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        // The folder was emptied of an earlier archive's files (symlinks included), so there
        // is no symlink to follow.
        let mut f = std::fs::File::create(&path).map_err(io(&path))?;
        f.write_all(data).map_err(io(&path))
    }

    /// Write the per-match files into [`MATCHES`], and the symlinks bots left as the lines of
    /// [`SYMLINKS`] (when they left any).
    pub fn write_matches(&self, files: &MatchFiles<'_>) -> Result<(), ArchiveError> {
        let path = self.target(MATCHES)?;
        super::container::write_file(&path, &files.entries).map_err(io(&path))?;
        if files.links.is_empty() {
            Ok(())
        } else {
            self.write_jsonl(SYMLINKS, &files.links)
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

    /// Write [`INVOCATIONS`]: one JSON value per line, the lines of each chunk
    /// (`lines(chunk, buf)` writes them, each ended by a line break, in order; see
    /// [`json_lines_into`]) made on every core a batch of chunks at a time, and compressed
    /// in chunk order as seekable zstd ([`super::seekable`]): a fraction of the time and a
    /// tenth of the disk of writing the lines as they are, and never all of them in memory.
    pub fn write_invocations<'c, C, F>(&self, chunks: &'c [C], lines: F) -> Result<(), ArchiveError>
    where
        C: Sync,
        F: Fn(&'c C, &mut Vec<u8>) -> serde_json::Result<()> + Sync,
    {
        use rayon::prelude::*;
        /// Chunks serialised before their bytes are written.
        const BATCH: usize = 256;
        let path = self.target(INVOCATIONS)?;
        let file = std::fs::File::create(&path).map_err(io(&path))?;
        let mut out =
            super::seekable::Writer::new(std::io::BufWriter::with_capacity(1 << 16, file));
        for batch in chunks.chunks(BATCH) {
            let bufs = batch
                .par_iter()
                .map(|chunk| {
                    let mut buf = Vec::new();
                    lines(chunk, &mut buf)?;
                    Ok(buf)
                })
                .collect::<Result<Vec<Vec<u8>>, serde_json::Error>>()
                .map_err(|e| io(&path)(e.into()))?;
            for buf in &bufs {
                out.write_all(buf).map_err(io(&path))?;
            }
        }
        out.finish().map_err(io(&path))?;
        Ok(())
    }

    /// Write a JSON document: objects indented, and each element of an array on a line of
    /// its own, compact ([`json_lines`]).
    pub fn write_json<T: serde::Serialize>(
        &self,
        rel: &str,
        value: &T,
    ) -> Result<(), ArchiveError> {
        let buf = json_lines(value).map_err(|e| ArchiveError::Io {
            path: self.root.join(rel),
            source: e.into(),
        })?;
        self.write(rel, &buf)
    }
}

/// Write each of `items` as a line of compact JSON into `buf`: the lines of
/// [`Archive::write_invocations`] for a chunk whose lines are values to serialize.
pub fn json_lines_into<I>(items: I, buf: &mut Vec<u8>) -> serde_json::Result<()>
where
    I: IntoIterator,
    I::Item: serde::Serialize,
{
    for item in items {
        serde_json::to_writer(&mut *buf, &item)?;
        buf.push(b'\n');
    }
    Ok(())
}

/// `value` as the archive's JSON documents are written: an object's members one per line,
/// indented, and each element of an array on one line, compact, so `results.json` holds a
/// match per line (about half the size of indenting everything, for a 99,000-match run some
/// 30 MB less) and still reads well and diffs line by line. Ends with a newline.
pub fn json_lines<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, LinesFormatter::default());
    value.serialize(&mut ser)?;
    buf.push(b'\n');
    Ok(buf)
}

/// The formatter of [`json_lines`]: for each open object or array, whether it is an array
/// element written on one line (or inside one), and whether it has members yet.
#[derive(Default)]
struct LinesFormatter {
    open: Vec<Open>,
}

#[derive(Clone, Copy)]
struct Open {
    array: bool,
    compact: bool,
    any: bool,
}

impl LinesFormatter {
    fn begin<W: ?Sized + Write>(&mut self, w: &mut W, array: bool) -> std::io::Result<()> {
        let compact = self.open.last().is_some_and(|o| o.compact || o.array);
        self.open.push(Open {
            array,
            compact,
            any: false,
        });
        w.write_all(if array { b"[" } else { b"{" })
    }

    fn end<W: ?Sized + Write>(&mut self, w: &mut W, array: bool) -> std::io::Result<()> {
        if let Some(o) = self.open.pop() {
            if !o.compact && o.any {
                self.newline(w)?;
            }
        }
        w.write_all(if array { b"]" } else { b"}" })
    }

    fn newline<W: ?Sized + Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.open.len() {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Before a member or an element.
    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        match self.open.last_mut() {
            Some(o) if !o.compact => {
                o.any = true;
                self.newline(w)
            }
            _ => Ok(()),
        }
    }
}

impl serde_json::ser::Formatter for LinesFormatter {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, true)
    }
    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, true)
    }
    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, false)
    }
    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, false)
    }
    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        let compact = self.open.last().is_some_and(|o| o.compact);
        w.write_all(if compact { b":" } else { b": " })
    }
}

/// Where an archive's invocation lines are: [`INVOCATIONS`], or the plain
/// [`INVOCATIONS_PLAIN`] of an archive written by koth 0.5.0 or earlier. (The compressed name
/// when neither exists, for the error that names it.)
pub fn invocations_path(root: &Path) -> PathBuf {
    super::seekable::packed_or_plain(root, INVOCATIONS, INVOCATIONS_PLAIN)
}

/// Read the lines of the invocation file at `path` (from [`invocations_path`]): decompressed
/// when its name ends in `.zst`.
pub fn read_invocations(path: &Path) -> std::io::Result<Box<dyn std::io::BufRead + Send>> {
    Ok(Box::new(std::io::BufReader::with_capacity(
        1 << 16,
        super::seekable::open_any(path)?,
    )))
}

/// Refuse a path that is empty or not made of plain relative components.
fn check_relative(rel: &str) -> Result<(), ArchiveError> {
    let p = Path::new(rel);
    if rel.is_empty() || !p.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(ArchiveError::Escape(rel.to_string()));
    }
    Ok(())
}

/// An archive's per-match files, gathered in the order they go into [`MATCHES`]: each
/// match's human log (and Coup's history), and what bots left in their directories.
#[derive(Default)]
pub struct MatchFiles<'a> {
    entries: Vec<super::container::Entry<'a>>,
    names: std::collections::HashSet<String>,
    links: Vec<SymlinkRecord>,
}

impl<'a> MatchFiles<'a> {
    /// Room for `n` entries.
    pub fn with_capacity(n: usize) -> MatchFiles<'a> {
        MatchFiles {
            entries: Vec::with_capacity(n),
            names: std::collections::HashSet::with_capacity(n),
            links: Vec::new(),
        }
    }

    /// A file koth names (`logs/match-3.log`).
    pub fn file(
        &mut self,
        name: String,
        data: impl Into<std::borrow::Cow<'a, [u8]>>,
    ) -> Result<(), ArchiveError> {
        check_relative(&name)?;
        if !self.names.insert(name.clone()) {
            return Err(ArchiveError::Duplicate(name));
        }
        self.entries
            .push(super::container::Entry::file(name, data.into()));
        Ok(())
    }

    /// What a bot left in its directory: `scratch/<owner>/...` for files and folders, and
    /// every symlink as a line of [`SYMLINKS`]. Whatever the names, nothing collides: a
    /// directory snapshot holds each path once and symlinks live elsewhere; a path that
    /// reads the same as an earlier one (names that are not UTF-8 are read lossily) is kept
    /// once, the first time.
    pub fn scratch(
        &mut self,
        owner: &str,
        entries: &'a [crate::sandbox::vfs::SnapshotEntry],
    ) -> Result<(), ArchiveError> {
        use crate::sandbox::vfs::SnapshotEntry;
        use std::borrow::Cow;
        for e in entries {
            let (path, entry) = match e {
                SnapshotEntry::Dir(p) => {
                    let name = format!("scratch/{owner}/{p}");
                    (name.clone(), super::container::Entry::dir(name))
                }
                SnapshotEntry::File(p, data) => {
                    let name = format!("scratch/{owner}/{p}");
                    (
                        name.clone(),
                        super::container::Entry::file(name, Cow::Borrowed(data.as_slice())),
                    )
                }
                SnapshotEntry::Symlink(p, target) => {
                    self.links.push(SymlinkRecord {
                        owner: owner.to_string(),
                        path: p.clone(),
                        target: target.clone(),
                    });
                    continue;
                }
            };
            check_relative(&path)?;
            if self.names.insert(path) {
                self.entries.push(entry);
            }
        }
        Ok(())
    }
}

/// Empty the folder `root` but for the files named in `keep`: files, folders and symlinks
/// (deleted, never followed).
fn clear(root: &Path, keep: &[&str]) -> Result<(), ArchiveError> {
    for entry in std::fs::read_dir(root).map_err(io(root))? {
        let entry = entry.map_err(io(root))?;
        if keep.iter().any(|k| entry.file_name() == *k) {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type().map_err(io(&path))?;
        if kind.is_dir() {
            std::fs::remove_dir_all(&path).map_err(io(&path))?;
        } else {
            std::fs::remove_file(&path).map_err(io(&path))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::vfs::SnapshotEntry;
    use std::collections::BTreeMap;

    #[test]
    fn refuses_paths_that_leave_the_archive() {
        let tmp = tempfile::Builder::new()
            .prefix("koth-archive-test-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("archive");
        let a = Archive::create(&dir).unwrap();
        let mut files = MatchFiles::default();
        for bad in ["../x", "/etc/x", "a/../../x", ""] {
            assert!(
                matches!(a.write(bad, b"x"), Err(ArchiveError::Escape(_))),
                "{bad}"
            );
            assert!(
                matches!(
                    files.file(bad.into(), &b"x"[..]),
                    Err(ArchiveError::Escape(_))
                ),
                "{bad}"
            );
        }
        a.write("ok/file.txt", b"x").unwrap();
        assert_eq!(std::fs::read(dir.join("ok/file.txt")).unwrap(), b"x");
        files.file("logs/a.log".into(), &b"a"[..]).unwrap();
        assert!(matches!(
            files.file("logs/a.log".into(), &b"b"[..]),
            Err(ArchiveError::Duplicate(_))
        ));
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

    /// Every file under `dir`, with its bytes, by relative path (symlinks as their target).
    fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                let meta = std::fs::symlink_metadata(&p).unwrap();
                if meta.is_dir() {
                    out.insert(format!("{rel}/"), Vec::new());
                    stack.push(p);
                } else if meta.is_symlink() {
                    let target = std::fs::read_link(&p).unwrap();
                    out.insert(rel, target.to_string_lossy().as_bytes().to_vec());
                } else {
                    out.insert(rel, std::fs::read(&p).unwrap());
                }
            }
        }
        out
    }

    /// The archive `write` gives: a manifest, a results file and two per-match files.
    fn write(a: &Archive, log: &str) {
        a.write(MANIFEST, b"{}").unwrap();
        a.write("results.json", b"r").unwrap();
        let mut files = MatchFiles::default();
        files
            .file("logs/game-0.log".into(), log.as_bytes())
            .unwrap();
        files
            .file("histories/game-0.txt".into(), &b"h"[..])
            .unwrap();
        a.write_matches(&files).unwrap();
    }

    #[test]
    fn an_archive_over_an_earlier_one_is_the_one_an_empty_folder_gets() {
        let tmp = tempfile::tempdir().unwrap();
        let fresh = tmp.path().join("fresh");
        write(&Archive::create(&fresh).unwrap(), "log 0");
        let fresh_tree = tree(&fresh);
        assert_eq!(
            fresh_tree.keys().collect::<Vec<_>>(),
            ["manifest.json", MATCHES, "results.json"]
        );
        // An earlier archive of the layout before the container: per-match folders, scratch,
        // a stray folder, and symlinks to a file outside that must survive.
        let over = tmp.path().join("over");
        let outside = tmp.path().join("outside.txt");
        std::fs::write(&outside, b"keep").unwrap();
        for (rel, data) in [
            (MANIFEST, "{}"),
            ("results.json", "old"),
            (
                "histories/game-0.txt",
                "old history, longer than the new one",
            ),
            ("histories/game-1.txt", "old 1"),
            ("logs/game-1.log", "old log 1"),
            ("scratch/game-1/bot/notes", "n"),
            ("head-to-head.txt", "h"),
        ] {
            let p = over.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, data).unwrap();
        }
        std::fs::create_dir_all(over.join("scratch/game-2/bot/empty")).unwrap();
        std::os::unix::fs::symlink(&outside, over.join("logs/game-0.log")).unwrap();
        std::os::unix::fs::symlink(&outside, over.join(MATCHES)).unwrap();
        std::os::unix::fs::symlink(tmp.path(), over.join("scratch/game-2/link")).unwrap();
        let a = Archive::create(&over).unwrap();
        // The earlier archive is gone before the new run writes anything.
        assert!(tree(&over).is_empty());
        write(&a, "log 0");
        assert_eq!(tree(&over), fresh_tree);
        assert_eq!(std::fs::read(&outside).unwrap(), b"keep");
        // And over an archive of the same layout (a longer container than the new one).
        write(&Archive::create(&over).unwrap(), &"long log ".repeat(1000));
        write(&Archive::create(&over).unwrap(), "log 0");
        assert_eq!(tree(&over), fresh_tree);
        // Resuming: all but the manifest and the journal goes; the archive is written whole.
        std::fs::write(over.join("stray.txt"), b"s").unwrap();
        std::fs::write(over.join(super::super::journal::JOURNAL), b"j").unwrap();
        let a = Archive::open(&over).unwrap();
        assert_eq!(
            tree(&over).keys().collect::<Vec<_>>(),
            ["journal.jsonl", "manifest.json"]
        );
        write(&a, "log 0");
        std::fs::remove_file(over.join(super::super::journal::JOURNAL)).unwrap();
        assert_eq!(tree(&over), fresh_tree);
    }

    #[test]
    fn scratch_is_written_whole_whatever_the_names() {
        let tmp = tempfile::Builder::new()
            .prefix("koth-archive-links-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().join("archive");
        let a = Archive::create(&dir).unwrap();
        // A symlink `x` beside a folder `x.symlink` once made the archive fail half written;
        // two names that were not UTF-8 read alike (the second is dropped, not an error).
        let entries = vec![
            SnapshotEntry::Symlink("x".into(), "../../etc/passwd".into()),
            SnapshotEntry::Dir("x.symlink".into()),
            SnapshotEntry::File("x.symlink/f".into(), b"data".to_vec()),
            SnapshotEntry::Symlink("x.symlink/y".into(), "f".into()),
            SnapshotEntry::File("\u{FFFD}".into(), b"first".to_vec()),
            SnapshotEntry::File("\u{FFFD}".into(), b"second".to_vec()),
        ];
        let mut files = MatchFiles::default();
        files.scratch("bot", &entries).unwrap();
        a.write_matches(&files).unwrap();
        let zip = super::super::container::read_all(&dir.join(MATCHES)).unwrap();
        let names: Vec<&str> = zip.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "scratch/bot/x.symlink/",
                "scratch/bot/x.symlink/f",
                "scratch/bot/\u{FFFD}"
            ]
        );
        assert_eq!(zip[1].1, b"data");
        assert_eq!(zip[2].1, b"first");
        // Nothing a bot names is created on the host.
        assert_eq!(tree(&dir).keys().collect::<Vec<_>>(), [MATCHES, SYMLINKS]);
        let links = std::fs::read_to_string(dir.join(SYMLINKS)).unwrap();
        assert_eq!(links.lines().count(), 2);
        assert!(links.contains("\"target\":\"../../etc/passwd\""));
    }

    #[test]
    fn the_invocations_are_the_lines_written_at_once_compressed() {
        let tmp = tempfile::tempdir().unwrap();
        let a = Archive::create(&tmp.path().join("a")).unwrap();
        let chunks: Vec<Vec<u32>> = (0..700).map(|c| (0..c % 5).collect()).collect();
        a.write_invocations(&chunks, |c, buf| {
            json_lines_into(c.iter().map(|x| (x, "x")), buf)
        })
        .unwrap();
        a.write_jsonl("whole.jsonl", chunks.iter().flatten().map(|x| (x, "x")))
            .unwrap();
        let whole = std::fs::read(a.root().join("whole.jsonl")).unwrap();
        assert!(!whole.is_empty());
        let path = invocations_path(a.root());
        assert_eq!(path, a.root().join(INVOCATIONS));
        let mut lines = Vec::new();
        read_invocations(&path)
            .unwrap()
            .read_to_end(&mut lines)
            .unwrap();
        assert_eq!(lines, whole);
        // An archive of koth 0.5.0: the plain file.
        std::fs::remove_file(&path).unwrap();
        std::fs::rename(
            a.root().join("whole.jsonl"),
            a.root().join(INVOCATIONS_PLAIN),
        )
        .unwrap();
        let path = invocations_path(a.root());
        assert_eq!(path, a.root().join(INVOCATIONS_PLAIN));
        let mut again = Vec::new();
        read_invocations(&path)
            .unwrap()
            .read_to_end(&mut again)
            .unwrap();
        assert_eq!(again, whole);
    }

    #[test]
    fn json_documents_hold_an_array_element_per_line() {
        let value = serde_json::json!({
            "schema": "s",
            "bots": [{"bot": "a", "rating": {"low": 1, "high": 2}}, {"bot": "b"}],
            "empty": [],
            "none": {},
            "detail": {"games": [[1, 2], {"x": [3]}]}
        });
        let text = String::from_utf8(json_lines(&value).unwrap()).unwrap();
        assert_eq!(
            text,
            r#"{
  "bots": [
    {"bot":"a","rating":{"high":2,"low":1}},
    {"bot":"b"}
  ],
  "detail": {
    "games": [
      [1,2],
      {"x":[3]}
    ]
  },
  "empty": [],
  "none": {},
  "schema": "s"
}
"#
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }
}
