//! `matches.zip.zst`: an archive's per-match files (human logs, histories, what bots left in
//! their directories) in one stored (uncompressed) zip, the same bytes for the same entries,
//! compressed as seekable zstd ([`super::seekable`]).
//!
//! One file rather than one per match: creating, overwriting or deleting thousands of small
//! files cost more than the rest of writing an archive. A zip is read by any unzip tool once
//! `zstd -d` has restored it, and its central directory finds one match's log without reading
//! the others; the seek table lets koth do that without restoring the whole zip. Compressing
//! the zip whole rather than entry by entry is what makes it small: one game's log is a few
//! kilobytes, and most of it repeats the other games' (9.8× for a Coup run's logs, against
//! 4.6× for deflate entry by entry with the zip's headers).
//!
//! The writer is koth's own, a few fixed fields per entry, so that an archive's bytes depend
//! on koth alone and never on a zip library's version (`koth verify` compares them): entries
//! in the order given, stored, dated 1980-01-01 00:00, Unix mode 0644 for files and 0755 for
//! folders, UTF-8 names, no comment, zip64 fields only where a size, an offset or the number
//! of entries needs them. The reader is the `zip` crate.

use std::borrow::Cow;
use std::io::{Read, Write};
use std::path::Path;
use thiserror::Error;

/// The container's file name in an archive folder.
pub const MATCHES: &str = "matches.zip.zst";

/// The container as koth 0.3.0 to 0.5.0 wrote it: the same zip, not compressed.
pub const MATCHES_ZIP: &str = "matches.zip";

/// One entry: a file with its bytes, or a folder (its name ends with `/` in the zip).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry<'a> {
    /// The path inside the container (`logs/match-0.log`), without a trailing `/`.
    pub name: String,
    /// The file's bytes; empty for a folder.
    pub data: Cow<'a, [u8]>,
    /// A folder rather than a file.
    pub dir: bool,
}

impl<'a> Entry<'a> {
    /// A file.
    pub fn file(name: String, data: impl Into<Cow<'a, [u8]>>) -> Entry<'a> {
        Entry {
            name,
            data: data.into(),
            dir: false,
        }
    }

    /// A folder.
    pub fn dir(name: String) -> Entry<'a> {
        Entry {
            name,
            data: Cow::Borrowed(&[]),
            dir: true,
        }
    }

    /// The name as the zip stores it (a folder's with its `/`).
    fn zip_name(&self) -> Cow<'_, str> {
        if self.dir {
            Cow::Owned(format!("{}/", self.name))
        } else {
            Cow::Borrowed(&self.name)
        }
    }
}

/// The container could not be read.
#[derive(Debug, Error)]
pub enum ContainerError {
    /// A filesystem operation failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a zip this reader understands.
    #[error("{path}: {why}")]
    Malformed {
        /// The file.
        path: std::path::PathBuf,
        /// What is wrong.
        why: String,
    },
}

const LOCAL: u32 = 0x0403_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const END: u32 = 0x0605_4b50;
const END64: u32 = 0x0606_4b50;
const LOCATOR64: u32 = 0x0706_4b50;
/// Bit 11: the name is UTF-8.
const FLAGS: u16 = 0x0800;
/// 1980-01-01 (the first date a zip can hold) at 00:00:00, in MS-DOS form.
const DOS_DATE: u16 = (1 << 5) | 1;
const DOS_TIME: u16 = 0;
/// Made by Unix (3), version 4.5 of the format (zip64), so the mode below is read.
const MADE_BY: u16 = (3 << 8) | 45;
const FILE_MODE: u32 = 0o100_644;
const DIR_MODE: u32 = 0o040_755;
/// The MS-DOS attribute of a folder.
const DOS_DIR: u32 = 0x10;

/// Where the 32-bit and 16-bit fields overflow into zip64: the format's own limits, lowered
/// in the tests to reach the zip64 paths without writing 4 GiB.
#[derive(Debug, Clone, Copy)]
struct Limits {
    /// A size or offset at or above this goes into a zip64 field.
    bytes: u64,
    /// More entries than this need the zip64 end record.
    entries: u64,
}

const FORMAT: Limits = Limits {
    bytes: 0xFFFF_FFFF,
    entries: 0xFFFF,
};

/// Write `entries` as a stored zip to `out`, in the order given; returns the bytes written.
/// The names must be unique (the caller's job: see [`crate::tournament::archive::MatchFiles`]).
pub fn write<W: Write>(out: W, entries: &[Entry<'_>]) -> std::io::Result<u64> {
    write_with(out, entries, FORMAT)
}

fn write_with<W: Write>(out: W, entries: &[Entry<'_>], limits: Limits) -> std::io::Result<u64> {
    use rayon::prelude::*;
    // The checksums are most of the work: every core takes a share.
    let crcs: Vec<u32> = entries
        .par_iter()
        .with_min_len(64)
        .map(|e| crc32fast::hash(&e.data))
        .collect();
    let mut out = Counting {
        inner: std::io::BufWriter::with_capacity(1 << 16, out),
        written: 0,
    };
    let mut central = Vec::with_capacity(entries.len() * 96);
    for (e, &crc) in entries.iter().zip(&crcs) {
        let offset = out.written;
        let name = e.zip_name();
        let size = e.data.len() as u64;
        let big = size >= limits.bytes;
        // The local header: sizes in a zip64 field when they overflow.
        let mut h = Vec::with_capacity(30 + name.len() + 20);
        put32(&mut h, LOCAL);
        put16(&mut h, if big { 45 } else { 20 });
        put16(&mut h, FLAGS);
        put16(&mut h, 0);
        put16(&mut h, DOS_TIME);
        put16(&mut h, DOS_DATE);
        put32(&mut h, crc);
        let short = if big { u32::MAX } else { size as u32 };
        put32(&mut h, short);
        put32(&mut h, short);
        put16(&mut h, name.len() as u16);
        put16(&mut h, if big { 20 } else { 0 });
        h.extend_from_slice(name.as_bytes());
        if big {
            put16(&mut h, 1);
            put16(&mut h, 16);
            put64(&mut h, size);
            put64(&mut h, size);
        }
        out.write_all(&h)?;
        out.write_all(&e.data)?;
        // Its central directory header: each overflowing field in the zip64 extra, in the
        // format's order (size, compressed size, offset).
        let far = offset >= limits.bytes;
        let mut extra = Vec::new();
        if big {
            put64(&mut extra, size);
            put64(&mut extra, size);
        }
        if far {
            put64(&mut extra, offset);
        }
        put32(&mut central, CENTRAL);
        put16(&mut central, MADE_BY);
        put16(&mut central, if big || far { 45 } else { 20 });
        put16(&mut central, FLAGS);
        put16(&mut central, 0);
        put16(&mut central, DOS_TIME);
        put16(&mut central, DOS_DATE);
        put32(&mut central, crc);
        put32(&mut central, short);
        put32(&mut central, short);
        put16(&mut central, name.len() as u16);
        put16(
            &mut central,
            if extra.is_empty() {
                0
            } else {
                4 + extra.len() as u16
            },
        );
        // Comment length, first disk, internal attributes.
        put16(&mut central, 0);
        put16(&mut central, 0);
        put16(&mut central, 0);
        put32(
            &mut central,
            if e.dir {
                (DIR_MODE << 16) | DOS_DIR
            } else {
                FILE_MODE << 16
            },
        );
        put32(&mut central, if far { u32::MAX } else { offset as u32 });
        central.extend_from_slice(name.as_bytes());
        if !extra.is_empty() {
            put16(&mut central, 1);
            put16(&mut central, extra.len() as u16);
            central.extend_from_slice(&extra);
        }
    }
    let start = out.written;
    let count = entries.len() as u64;
    let size = central.len() as u64;
    out.write_all(&central)?;
    let zip64 = count > limits.entries || start >= limits.bytes || size >= limits.bytes;
    let mut end = Vec::with_capacity(98);
    if zip64 {
        let record = out.written;
        put32(&mut end, END64);
        put64(&mut end, 44);
        put16(&mut end, MADE_BY);
        put16(&mut end, 45);
        put32(&mut end, 0);
        put32(&mut end, 0);
        put64(&mut end, count);
        put64(&mut end, count);
        put64(&mut end, size);
        put64(&mut end, start);
        put32(&mut end, LOCATOR64);
        put32(&mut end, 0);
        put64(&mut end, record);
        put32(&mut end, 1);
    }
    let count16 = if count > limits.entries {
        u16::MAX
    } else {
        count as u16
    };
    put32(&mut end, END);
    put16(&mut end, 0);
    put16(&mut end, 0);
    put16(&mut end, count16);
    put16(&mut end, count16);
    put32(
        &mut end,
        if size >= limits.bytes {
            u32::MAX
        } else {
            size as u32
        },
    );
    put32(
        &mut end,
        if start >= limits.bytes {
            u32::MAX
        } else {
            start as u32
        },
    );
    put16(&mut end, 0);
    out.write_all(&end)?;
    out.inner.flush()?;
    Ok(out.written)
}

fn put16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put64(v: &mut Vec<u8>, x: u64) {
    v.extend_from_slice(&x.to_le_bytes());
}

/// A writer that counts what went through it (the entries' offsets).
struct Counting<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> Counting<W> {
    fn write_all(&mut self, data: &[u8]) -> std::io::Result<()> {
        self.inner.write_all(data)?;
        self.written += data.len() as u64;
        Ok(())
    }
}

/// Write `entries` as the compressed container [`MATCHES`] at `path`.
pub fn write_file(path: &Path, entries: &[Entry<'_>]) -> std::io::Result<()> {
    let file = std::fs::File::create(path)?;
    let mut packed = super::seekable::Writer::new(std::io::BufWriter::with_capacity(1 << 16, file));
    write(&mut packed, entries)?;
    packed.finish()?;
    Ok(())
}

/// Where an archive's container is: [`MATCHES`], or the plain [`MATCHES_ZIP`] of an archive
/// written by koth 0.3.0 to 0.5.0. (The compressed name when neither exists.)
pub fn container_path(root: &Path) -> std::path::PathBuf {
    super::seekable::packed_or_plain(root, MATCHES, MATCHES_ZIP)
}

/// Open the zip at `path`: seekable zstd when its name ends in `.zst`, else a plain zip.
fn open_zip(
    path: &Path,
) -> Result<zip::ZipArchive<Box<dyn super::seekable::ReadSeek>>, ContainerError> {
    let inner = super::seekable::open_any(path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::InvalidData {
            ContainerError::Malformed {
                path: path.to_path_buf(),
                why: format!("not a readable seekable zstd file: {source}"),
            }
        } else {
            ContainerError::Io {
                path: path.to_path_buf(),
                source,
            }
        }
    })?;
    zip::ZipArchive::new(inner).map_err(|e| malformed(path, e))
}

/// An archive's per-match files, read from its `matches.zip.zst`, from the `matches.zip` of
/// an archive written by koth 0.3.0 to 0.5.0, or from its folders for an archive written
/// before the container (koth 0.2.0 and earlier wrote `logs/` and `histories/` as files).
pub struct Reader {
    root: std::path::PathBuf,
    /// The container and its path.
    zip: Option<(
        zip::ZipArchive<Box<dyn super::seekable::ReadSeek>>,
        std::path::PathBuf,
    )>,
}

impl Reader {
    /// Open the per-match files of the archive folder `root`.
    pub fn open(root: &Path) -> Result<Reader, ContainerError> {
        let path = container_path(root);
        let zip = match std::fs::metadata(&path) {
            Ok(_) => Some((open_zip(&path)?, path)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(source) => return Err(ContainerError::Io { path, source }),
        };
        Ok(Reader {
            root: root.to_path_buf(),
            zip,
        })
    }

    /// Where the per-match files are read from, for messages.
    pub fn source(&self) -> String {
        match &self.zip {
            Some((_, path)) => path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
            None => "the archive folder".to_string(),
        }
    }

    /// Every entry's name (a folder's ends with `/`) and size, in the container's order; none
    /// for an archive without a container.
    pub fn entries(&mut self) -> Result<Vec<(String, u64)>, ContainerError> {
        let Some((zip, path)) = &mut self.zip else {
            return Ok(Vec::new());
        };
        (0..zip.len())
            .map(|i| {
                let f = zip.by_index_raw(i).map_err(|e| malformed(path, e))?;
                let name = f.name().map_err(|e| malformed(path, e))?.into_owned();
                Ok((name, f.size()))
            })
            .collect()
    }

    /// The file `name` (`logs/match-3.log`), or `None` if the archive has none by that name.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, ContainerError> {
        let Some((zip, path)) = &mut self.zip else {
            // An older archive: a plain relative path under its folder, never a symlink.
            if !Path::new(name)
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)))
            {
                return Ok(None);
            }
            let path = self.root.join(name);
            return match std::fs::symlink_metadata(&path) {
                Ok(m) if m.is_file() => std::fs::read(&path)
                    .map(Some)
                    .map_err(|source| ContainerError::Io { path, source }),
                _ => Ok(None),
            };
        };
        let mut entry = match zip.by_name(name) {
            Ok(f) => f,
            Err(zip::result::ZipError::FileNotFound) => return Ok(None),
            Err(e) => return Err(malformed(path, e)),
        };
        let mut data = Vec::with_capacity(usize::try_from(entry.size()).unwrap_or(0).min(1 << 26));
        // Reading to the end checks the entry's CRC.
        entry
            .read_to_end(&mut data)
            .map_err(|source| ContainerError::Io {
                path: path.clone(),
                source,
            })?;
        Ok(Some(data))
    }
}

fn malformed(path: &Path, e: impl std::fmt::Display) -> ContainerError {
    ContainerError::Malformed {
        path: path.to_path_buf(),
        why: format!("not a readable zip: {e}"),
    }
}

/// Every entry of the container at `path` (`matches.zip.zst`, or an older `matches.zip`), in
/// its order: the name as stored (a folder's ends with `/`) and the bytes, each checked
/// against its CRC. For `koth verify`'s comparison and the tests.
pub fn read_all(path: &Path) -> Result<Vec<(String, Vec<u8>)>, ContainerError> {
    let mut zip = open_zip(path)?;
    let mut out = Vec::with_capacity(zip.len());
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).map_err(|e| malformed(path, e))?;
        let mut data = Vec::new();
        f.read_to_end(&mut data)
            .map_err(|source| ContainerError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        let name = f.name().map_err(|e| malformed(path, e))?.into_owned();
        out.push((name, data));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<Entry<'static>> {
        vec![
            Entry::file("logs/a.log".into(), b"first log\n".to_vec()),
            Entry::dir("scratch/m/bot".into()),
            Entry::file("scratch/m/bot/notes".into(), Vec::new()),
            Entry::file("logs/ü.log".into(), vec![0u8, 255, 1, 2]),
        ]
    }

    fn read_back(bytes: &[u8]) -> Vec<(String, Vec<u8>, bool, Option<u32>)> {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        (0..zip.len())
            .map(|i| {
                let mut f = zip.by_index(i).unwrap();
                assert_eq!(f.compression(), zip::CompressionMethod::Stored);
                let mut data = Vec::new();
                f.read_to_end(&mut data).unwrap();
                (
                    f.name().unwrap().into_owned(),
                    data,
                    f.is_dir(),
                    f.unix_mode(),
                )
            })
            .collect()
    }

    #[test]
    fn entries_read_back_in_order_with_their_bytes_and_modes() {
        let mut bytes = Vec::new();
        let n = write(&mut bytes, &sample()).unwrap();
        assert_eq!(n, bytes.len() as u64);
        let back = read_back(&bytes);
        let names: Vec<&str> = back.iter().map(|e| e.0.as_str()).collect();
        assert_eq!(
            names,
            [
                "logs/a.log",
                "scratch/m/bot/",
                "scratch/m/bot/notes",
                "logs/ü.log"
            ]
        );
        assert_eq!(back[0].1, b"first log\n");
        assert_eq!(back[3].1, [0u8, 255, 1, 2]);
        assert!(back[1].2 && !back[0].2);
        assert_eq!(back[0].3, Some(0o100_644));
        assert_eq!(back[1].3, Some(0o040_755));
        // The same entries give the same bytes.
        let mut again = Vec::new();
        write(&mut again, &sample()).unwrap();
        assert_eq!(bytes, again);
        // Stored: every byte of every file is in the zip as it is.
        assert!(bytes.windows(10).any(|w| w == b"first log\n"));
    }

    #[test]
    fn the_zip64_fields_read_back_where_sizes_offsets_and_counts_overflow() {
        // Limits low enough that the second entry's offset, the big entry's size, the
        // directory's offset and the number of entries all overflow.
        let limits = Limits {
            bytes: 40,
            entries: 3,
        };
        let entries = vec![
            Entry::file("a".into(), b"x".to_vec()),
            Entry::file("big".into(), vec![7u8; 100]),
            Entry::dir("d".into()),
            Entry::file("d/e".into(), b"end".to_vec()),
        ];
        let mut bytes = Vec::new();
        write_with(&mut bytes, &entries, limits).unwrap();
        let back = read_back(&bytes);
        assert_eq!(back.len(), 4);
        assert_eq!(back[1].1, vec![7u8; 100]);
        assert_eq!(back[3].0, "d/e");
        assert_eq!(back[3].1, b"end");
        // The end record says 0xFFFF entries: the count came from the zip64 record.
        assert_eq!(
            &bytes[bytes.len() - 22..bytes.len() - 18],
            END.to_le_bytes()
        );
        assert_eq!(&bytes[bytes.len() - 14..bytes.len() - 12], [0xFF, 0xFF]);
    }

    #[test]
    fn an_empty_container_is_a_valid_zip() {
        let mut bytes = Vec::new();
        write(&mut bytes, &[]).unwrap();
        assert_eq!(bytes.len(), 22);
        assert!(read_back(&bytes).is_empty());
    }

    #[test]
    fn the_reader_finds_one_entry_and_reads_older_archives_from_their_folders() {
        let tmp = tempfile::tempdir().unwrap();
        write_file(&tmp.path().join(MATCHES), &sample()).unwrap();
        let mut r = Reader::open(tmp.path()).unwrap();
        assert_eq!(r.source(), MATCHES);
        assert_eq!(r.read("logs/a.log").unwrap().unwrap(), b"first log\n");
        assert_eq!(r.read("logs/none.log").unwrap(), None);
        let all = read_all(&tmp.path().join(MATCHES)).unwrap();
        assert_eq!(all.len(), 4);
        // `zstd -d` gives the plain zip that `write` makes.
        let mut zip = Vec::new();
        write(&mut zip, &sample()).unwrap();
        assert_eq!(
            super::super::seekable::read_file(&tmp.path().join(MATCHES)).unwrap(),
            zip
        );
        // The plain zip of koth 0.3.0 to 0.5.0.
        let v5 = tmp.path().join("v5");
        std::fs::create_dir(&v5).unwrap();
        std::fs::write(v5.join(MATCHES_ZIP), &zip).unwrap();
        let mut r = Reader::open(&v5).unwrap();
        assert_eq!(r.source(), MATCHES_ZIP);
        assert_eq!(r.read("logs/a.log").unwrap().unwrap(), b"first log\n");
        assert_eq!(read_all(&v5.join(MATCHES_ZIP)).unwrap(), all);
        // No container: the folder of an archive written before it.
        let old = tmp.path().join("old");
        std::fs::create_dir_all(old.join("logs")).unwrap();
        std::fs::write(old.join("logs/x.log"), b"old").unwrap();
        let mut r = Reader::open(&old).unwrap();
        assert_eq!(r.read("logs/x.log").unwrap().unwrap(), b"old");
        assert_eq!(r.read("../old/logs/x.log").unwrap(), None);
        assert_eq!(r.read("logs/y.log").unwrap(), None);
    }
}
