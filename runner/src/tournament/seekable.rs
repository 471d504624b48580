//! Compressed archive files in zstd's *seekable format*: the data cut into frames of
//! [`FRAME`] bytes, each an independent zstd frame with its own checksum, followed by a seek
//! table (a skippable frame that lists every frame's compressed and decompressed size).
//!
//! Why this layout:
//! - `zstd -d` reads it as an ordinary `.zst` file (it skips the table), so an archive needs
//!   no koth to be read;
//! - the frames are cut at fixed offsets of the data and compressed one by one at a fixed
//!   level, so the bytes depend only on the data and libzstd's version (pinned by the lock
//!   file), never on the number of threads that compressed them;
//! - a reader seeks to any offset by decompressing one frame, which is what a zip's central
//!   directory needs (`matches.zip.zst`) and what a replay of one match needs.
//!
//! The format is zstd's own (`contrib/seekable_format` in the zstd repository); the seek table
//! is written without its optional per-frame checksums, since every frame carries one.

use std::io::{Read, Seek, SeekFrom, Write};

/// The decompressed size of every frame but the last.
pub const FRAME: usize = 1 << 20;
/// zstd's level: its default, about 10× on an archive's logs at a few hundred MB/s a core.
const LEVEL: i32 = 3;
/// Frames compressed together (on every core) before they are written.
const BATCH: usize = 32;
/// A skippable frame's magic number (the seek table's frame).
const SKIPPABLE: u32 = 0x184D_2A5E;
/// The seek table footer's magic number.
const SEEKABLE: u32 = 0x8F92_EAB1;
/// Frames, descriptor and magic number.
const FOOTER: u64 = 9;
/// The largest frame a reader accepts: a table that claims more is refused before anything is
/// allocated for it.
const MAX_FRAME: u32 = 64 << 20;

thread_local! {
    /// Each thread's zstd contexts, made once: making one per frame or per store record cost
    /// a twentieth of a re-ranking's time.
    static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
        const { std::cell::RefCell::new(None) };
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// `data` as one zstd frame at [`LEVEL`], with its checksum and its size: a seekable file's
/// frame, and a `--reuse` store's record.
pub(crate) fn compress_frame(data: &[u8]) -> std::io::Result<Vec<u8>> {
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        let c = match &mut *c {
            Some(c) => c,
            None => {
                let mut new = zstd::bulk::Compressor::new(LEVEL)?;
                new.set_parameter(zstd::stream::raw::CParameter::ChecksumFlag(true))?;
                c.insert(new)
            }
        };
        c.compress(data)
    })
}

/// The data of one zstd frame, at most `size` bytes (checking its checksum).
pub(crate) fn decompress_frame(packed: &[u8], size: usize) -> std::io::Result<Vec<u8>> {
    DECOMPRESSOR.with(|d| {
        let mut d = d.borrow_mut();
        let d = match &mut *d {
            Some(d) => d,
            None => d.insert(zstd::bulk::Decompressor::new()?),
        };
        d.decompress(packed, size)
    })
}

/// What an archive file is read through: the file itself, or its seekable zstd.
pub trait ReadSeek: Read + Seek + Send {}
impl<T: Read + Seek + Send> ReadSeek for T {}

/// Where an archive's compressed file `packed` is in `root`, or its `plain` name in a layout
/// before 0.6.0 where only that exists (the compressed name when neither does, for the error
/// that names it).
pub fn packed_or_plain(root: &std::path::Path, packed: &str, plain: &str) -> std::path::PathBuf {
    let (packed, plain) = (root.join(packed), root.join(plain));
    if !packed.exists() && plain.exists() {
        plain
    } else {
        packed
    }
}

/// Open the archive file at `path`: decompressed when its name ends in `.zst` (refused as
/// `InvalidData` when it is no seekable zstd), else as it is (a layout before 0.6.0).
pub fn open_any(path: &std::path::Path) -> std::io::Result<Box<dyn ReadSeek>> {
    let file = std::fs::File::open(path)?;
    Ok(if path.extension().is_some_and(|e| e == "zst") {
        Box::new(Reader::new(file)?)
    } else {
        Box::new(file)
    })
}

fn invalid(why: impl Into<String>) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, why.into())
}

/// Writes data as seekable zstd: frames of [`FRAME`] bytes compressed a batch at a time on
/// every core, then the seek table in [`Writer::finish`].
pub struct Writer<W: Write> {
    out: W,
    /// The frame being filled.
    buf: Vec<u8>,
    /// Full frames waiting to be compressed.
    full: Vec<Vec<u8>>,
    /// Each written frame's compressed and decompressed size.
    table: Vec<(u32, u32)>,
}

impl<W: Write> Writer<W> {
    /// A writer into `out`.
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            buf: Vec::with_capacity(FRAME),
            full: Vec::new(),
            table: Vec::new(),
        }
    }

    /// Compress and write the full frames, in order.
    fn write_full(&mut self) -> std::io::Result<()> {
        use rayon::prelude::*;
        let frames = std::mem::take(&mut self.full)
            .into_par_iter()
            .map(|data| Ok((compress_frame(&data)?, data.len())))
            .collect::<std::io::Result<Vec<_>>>()?;
        for (packed, size) in frames {
            self.out.write_all(&packed)?;
            // A frame is at most FRAME bytes, and zstd's bound on it fits in 32 bits.
            self.table.push((packed.len() as u32, size as u32));
        }
        Ok(())
    }

    /// Write the last frame and the seek table; returns the inner writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        if !self.buf.is_empty() {
            let last = std::mem::take(&mut self.buf);
            self.full.push(last);
        }
        self.write_full()?;
        let mut table = Vec::with_capacity(self.table.len() * 8 + 17);
        table.extend_from_slice(&SKIPPABLE.to_le_bytes());
        let size = self.table.len() as u64 * 8 + FOOTER;
        let size = u32::try_from(size).map_err(|_| invalid("too many frames for a seek table"))?;
        table.extend_from_slice(&size.to_le_bytes());
        for (c, d) in &self.table {
            table.extend_from_slice(&c.to_le_bytes());
            table.extend_from_slice(&d.to_le_bytes());
        }
        table.extend_from_slice(&(self.table.len() as u32).to_le_bytes());
        // The descriptor: no per-frame checksums in the table.
        table.push(0);
        table.extend_from_slice(&SEEKABLE.to_le_bytes());
        self.out.write_all(&table)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

impl<W: Write> Write for Writer<W> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let n = (FRAME - self.buf.len()).min(data.len());
        self.buf.extend_from_slice(&data[..n]);
        if self.buf.len() == FRAME {
            let next = Vec::with_capacity(FRAME);
            self.full.push(std::mem::replace(&mut self.buf, next));
            if self.full.len() == BATCH {
                self.write_full()?;
            }
        }
        Ok(n)
    }

    /// Nothing to do: frames are cut at fixed offsets, so a flush cannot end one early.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One frame of a seekable file.
#[derive(Debug, Clone, Copy)]
struct Frame {
    /// Where its compressed bytes start in the file.
    at: u64,
    packed: u32,
    /// Where its data starts in the decompressed stream.
    start: u64,
    size: u32,
}

/// Reads a seekable zstd file as its decompressed data, seeking by frame.
pub struct Reader<R: Read + Seek> {
    inner: R,
    frames: Vec<Frame>,
    len: u64,
    pos: u64,
    /// The frame last decompressed, by index.
    cached: Option<(usize, Vec<u8>)>,
}

impl<R: Read + Seek> Reader<R> {
    /// Read `inner`'s seek table. A file without one, or whose table does not add up to the
    /// file's size, is refused.
    pub fn new(mut inner: R) -> std::io::Result<Reader<R>> {
        let file_len = inner.seek(SeekFrom::End(0))?;
        if file_len < FOOTER + 8 {
            return Err(invalid("too short for a seekable zstd file"));
        }
        inner.seek(SeekFrom::Start(file_len - FOOTER))?;
        let mut footer = [0u8; FOOTER as usize];
        inner.read_exact(&mut footer)?;
        let count = u32::from_le_bytes([footer[0], footer[1], footer[2], footer[3]]);
        let descriptor = footer[4];
        let magic = u32::from_le_bytes([footer[5], footer[6], footer[7], footer[8]]);
        if magic != SEEKABLE {
            return Err(invalid("no seek table (not a seekable zstd file)"));
        }
        if descriptor & 0x7C != 0 {
            return Err(invalid("the seek table's reserved bits are set"));
        }
        let entry: u64 = if descriptor & 0x80 != 0 { 12 } else { 8 };
        let table = u64::from(count) * entry + FOOTER;
        if table + 8 > file_len {
            return Err(invalid("the seek table is larger than the file"));
        }
        let table_at = file_len - table - 8;
        inner.seek(SeekFrom::Start(table_at))?;
        let mut bytes = vec![0u8; (table + 8 - FOOTER) as usize];
        inner.read_exact(&mut bytes)?;
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        if word(0) != SKIPPABLE || u64::from(word(4)) != table {
            return Err(invalid("the seek table's frame header is wrong"));
        }
        let mut frames = Vec::with_capacity(count as usize);
        let (mut at, mut start) = (0u64, 0u64);
        for k in 0..count as usize {
            let i = 8 + k * entry as usize;
            let (packed, size) = (word(i), word(i + 4));
            if size > MAX_FRAME {
                return Err(invalid(format!("frame {k} claims {size} bytes")));
            }
            frames.push(Frame {
                at,
                packed,
                start,
                size,
            });
            at += u64::from(packed);
            start += u64::from(size);
        }
        if at != table_at {
            return Err(invalid(
                "the seek table's frames do not add up to the file's size",
            ));
        }
        Ok(Reader {
            inner,
            frames,
            len: start,
            pos: 0,
            cached: None,
        })
    }

    /// The decompressed data's size.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the decompressed data is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Decompress frame `k` into the cache (checking its size and its checksum).
    fn load(&mut self, k: usize) -> std::io::Result<&[u8]> {
        if self.cached.as_ref().is_none_or(|(c, _)| *c != k) {
            let f = self.frames[k];
            self.inner.seek(SeekFrom::Start(f.at))?;
            let mut packed = vec![0u8; f.packed as usize];
            self.inner.read_exact(&mut packed)?;
            let data = decompress_frame(&packed, f.size as usize)
                .map_err(|e| invalid(format!("frame {k}: {e}")))?;
            if data.len() != f.size as usize {
                return Err(invalid(format!(
                    "frame {k} holds {} bytes, the seek table says {}",
                    data.len(),
                    f.size
                )));
            }
            self.cached = Some((k, data));
        }
        Ok(self.cached.as_ref().map_or(&[], |(_, d)| d.as_slice()))
    }
}

impl<R: Read + Seek> Read for Reader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.pos >= self.len || out.is_empty() {
            return Ok(0);
        }
        let pos = self.pos;
        // The last frame that starts at or before pos (empty frames are skipped over).
        let k = self.frames.partition_point(|f| f.start <= pos) - 1;
        let start = self.frames[k].start;
        let data = self.load(k)?;
        let from = (pos - start) as usize;
        let n = (data.len() - from).min(out.len());
        out[..n].copy_from_slice(&data[from..from + n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl<R: Read + Seek> Seek for Reader<R> {
    fn seek(&mut self, to: SeekFrom) -> std::io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.len.checked_add_signed(d),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
        };
        self.pos = target.ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "seek before the start of the data",
            )
        })?;
        Ok(self.pos)
    }
}

/// Open the seekable file at `path`.
pub fn open(path: &std::path::Path) -> std::io::Result<Reader<std::fs::File>> {
    Reader::new(std::fs::File::open(path)?)
}

/// The whole decompressed data of the seekable file at `path`.
pub fn read_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    let mut r = open(path)?;
    let mut data = Vec::with_capacity(usize::try_from(r.len()).unwrap_or(0));
    r.read_to_end(&mut data)?;
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn pack(data: &[u8], pieces: usize) -> Vec<u8> {
        let mut w = Writer::new(Vec::new());
        for chunk in data.chunks(data.len().div_ceil(pieces).max(1)) {
            w.write_all(chunk).unwrap();
        }
        w.finish().unwrap()
    }

    /// Data that compresses, over several frames and a partial last one.
    fn sample() -> Vec<u8> {
        (0..FRAME * 2 + 12_345)
            .map(|i| (i % 251) as u8 ^ ((i / 4096) as u8))
            .collect()
    }

    #[test]
    fn data_reads_back_whole_and_from_any_offset() {
        let data = sample();
        let packed = pack(&data, 7);
        assert!(packed.len() < data.len() / 4, "{} bytes", packed.len());
        let mut r = Reader::new(Cursor::new(&packed)).unwrap();
        assert_eq!(r.len(), data.len() as u64);
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!(all, data);
        // Across a frame's boundary, and from the end.
        for at in [0, FRAME - 3, FRAME * 2 + 12_000] {
            r.seek(SeekFrom::Start(at as u64)).unwrap();
            let mut six = [0u8; 6];
            let n = r.read(&mut six).unwrap();
            assert!(n > 0);
            assert_eq!(six[..n], data[at..at + n]);
        }
        r.seek(SeekFrom::End(-2)).unwrap();
        let mut tail = Vec::new();
        r.read_to_end(&mut tail).unwrap();
        assert_eq!(tail, data[data.len() - 2..]);
    }

    #[test]
    fn the_bytes_depend_on_the_data_alone_and_zstd_reads_them_as_one_stream() {
        let data = sample();
        let one = pack(&data, 1);
        assert_eq!(one, pack(&data, 1000));
        // Any zstd decoder reads the frames in a row and skips the table.
        let mut streamed = Vec::new();
        zstd::stream::read::Decoder::new(Cursor::new(&one))
            .unwrap()
            .read_to_end(&mut streamed)
            .unwrap();
        assert_eq!(streamed, data);
    }

    #[test]
    fn empty_data_is_a_file_of_just_its_table() {
        let packed = pack(&[], 1);
        assert_eq!(packed.len(), 17);
        let mut r = Reader::new(Cursor::new(&packed)).unwrap();
        assert!(r.is_empty());
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert!(all.is_empty());
    }

    #[test]
    fn a_damaged_file_is_an_error_not_wrong_data() {
        let data = sample();
        let packed = pack(&data, 3);
        // No table: a plain zstd stream.
        let plain = zstd::bulk::compress(&data, 3).unwrap();
        assert!(Reader::new(Cursor::new(&plain)).is_err());
        // Cut short.
        assert!(Reader::new(Cursor::new(&packed[..packed.len() - 1])).is_err());
        assert!(Reader::new(Cursor::new(&packed[..5])).is_err());
        // A table claiming a huge frame is refused before anything is allocated.
        let mut huge = packed.clone();
        let at = huge.len() - 9 - 3 * 8 + 4;
        huge[at..at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(Reader::new(Cursor::new(&huge)).is_err());
        // A flipped byte in a frame fails its checksum or its decoding.
        let mut flipped = packed.clone();
        flipped[100] ^= 0x40;
        let mut r = Reader::new(Cursor::new(&flipped)).unwrap();
        assert!(r.read_to_end(&mut Vec::new()).is_err());
    }
}
