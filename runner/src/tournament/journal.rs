//! The journal: every finished match of a run, appended to `journal.jsonl` in the archive
//! folder as it finishes, so that a run killed at any moment can be resumed (`--resume`) and
//! a shard's matches can be merged (`koth merge`).
//!
//! Each line is one JSON object written with a single `write` on a file opened for appending,
//! so a crash leaves at most one partial line at the end; reading drops it (and resuming cuts
//! it off before appending). The file is fsynced once per batch of matches rather than per
//! line, by a thread of its own so that no worker waits for the disk: a killed process loses
//! nothing either way (the kernel holds what was written), and a machine crash loses at most
//! the last batch or two, which are simply played again.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The journal's file name in an archive folder.
pub const JOURNAL: &str = "journal.jsonl";

/// The version of the journal's layout.
pub const JOURNAL_SCHEMA: &str = "koth-journal/1";

/// Lines written between two fsyncs, at most.
const BATCH_LINES: usize = 64;
/// Time between two fsyncs, at most (when matches keep finishing).
const BATCH_TIME: Duration = Duration::from_millis(500);

/// The journal could not be written or read.
#[derive(Debug, Error)]
pub enum JournalError {
    /// A filesystem operation failed.
    #[error("journal {path}: {source}")]
    Io {
        /// The journal's path.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A line is not what koth writes.
    #[error("journal {path}, line {line}: {reason}")]
    Corrupt {
        /// The journal's path.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

/// A deterministic share of a run's matches: `--shard K/N` plays the matches whose index is
/// `K - 1` modulo `N` (interleaved, so every shard gets early and late rounds alike).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// K, from 1.
    pub index: usize,
    /// N.
    pub count: usize,
}

impl Shard {
    /// Whether match `m` belongs to this shard.
    pub fn owns(&self, m: usize) -> bool {
        m % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard: write K/N with 1 <= K <= N (such as 2/4)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Serialize for Shard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Shard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Shard, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The journal's first line: what run it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// [`JOURNAL_SCHEMA`].
    pub journal: String,
    /// The run's matches in all (every shard's).
    pub matches: usize,
    /// The shard this journal plays, if the run is sharded.
    pub shard: Option<Shard>,
}

impl Header {
    /// The header of a run of `matches` matches, sharded or not.
    pub fn new(matches: usize, shard: Option<Shard>) -> Header {
        Header {
            journal: JOURNAL_SCHEMA.to_string(),
            matches,
            shard,
        }
    }

    /// Whether this journal's run plays match `m`.
    pub fn owns(&self, m: usize) -> bool {
        m < self.matches && self.shard.is_none_or(|s| s.owns(m))
    }

    /// How many matches this journal's run plays.
    pub fn owned(&self) -> usize {
        (0..self.matches).filter(|&m| self.owns(m)).count()
    }
}

#[derive(Deserialize)]
struct LineIn<R> {
    #[serde(rename = "match")]
    index: usize,
    record: R,
}

struct Writer {
    file: File,
    unsynced: usize,
    last_sync: Instant,
    error: Option<std::io::Error>,
    /// The digest of every record appended, by match index.
    digests: BTreeMap<usize, String>,
}

/// A journal open for appending.
pub struct Journal {
    path: PathBuf,
    syncer: Syncer,
    writer: Mutex<Writer>,
    /// Nanoseconds spent in [`Journal::append`], summed over the threads calling it.
    busy_ns: AtomicU64,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> JournalError + '_ {
    move |source| JournalError::Io {
        path: path.to_path_buf(),
        source,
    }
}

impl Journal {
    /// Start a new journal at `path` (replacing any) with its header.
    pub fn create(path: &Path, header: &Header) -> Result<Journal, JournalError> {
        let mut file = File::create(path).map_err(io(path))?;
        let mut line = serde_json::to_vec(header).map_err(|e| JournalError::Io {
            path: path.to_path_buf(),
            source: e.into(),
        })?;
        line.push(b'\n');
        file.write_all(&line).map_err(io(path))?;
        drop(file);
        let journal = Self::append_to(path)?;
        // The header reaches the disk with the first batch; until then a crash leaves a
        // folder that `--resume` starts afresh, as one killed before its first match.
        journal.syncer.request();
        Ok(journal)
    }

    /// Open `path` to resume it: returns the journal (ready to append, with any partial last
    /// line cut off), its header and the records already in it, by match index.
    pub fn resume<R: DeserializeOwned>(
        path: &Path,
    ) -> Result<(Journal, Header, BTreeMap<usize, R>), JournalError> {
        let (header, records, complete_len) = read_at(path)?;
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(io(path))?;
        file.set_len(complete_len).map_err(io(path))?;
        file.sync_all().map_err(io(path))?;
        drop(file);
        Ok((Self::append_to(path)?, header, records))
    }

    fn append_to(path: &Path) -> Result<Journal, JournalError> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(io(path))?;
        let syncer = Syncer::start(file.try_clone().map_err(io(path))?).map_err(io(path))?;
        Ok(Journal {
            path: path.to_path_buf(),
            syncer,
            writer: Mutex::new(Writer {
                file,
                unsynced: 0,
                last_sync: Instant::now(),
                error: None,
                digests: BTreeMap::new(),
            }),
            busy_ns: AtomicU64::new(0),
        })
    }

    /// The time spent appending so far, summed over the threads (for `--timings`).
    pub fn busy(&self) -> Duration {
        Duration::from_nanos(self.busy_ns.load(Ordering::Relaxed))
    }

    /// Append match `index`'s record. A failure is kept and reported by [`Journal::finish`]
    /// (the match itself is not lost: the run still has it in memory).
    pub fn append<R: Serialize>(&self, index: usize, record: &R) {
        self.append_with(index, |line| {
            serde_json::to_writer(line, record).map_err(std::io::Error::from)
        });
    }

    /// Append match `index`'s record given as its JSON (`serde_json::to_vec` of the record,
    /// as a match store keeps it): the same line [`Journal::append`] writes, without
    /// serialising the record again.
    pub fn append_json(&self, index: usize, json: &[u8]) {
        self.append_with(index, |line| {
            line.extend_from_slice(json);
            Ok(())
        });
    }

    /// Count match `index` as done with this record digest, without writing it: a match a
    /// run took from its store, which a resumed run takes from the store again. Its digest
    /// still reaches the receipt through [`Journal::finish`].
    pub fn note(&self, index: usize, digest: String) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        w.digests.insert(index, digest);
    }

    /// Append `{"match":N,"record":<the record's JSON, as fill writes it>}`, timed for
    /// `--timings`.
    fn append_with(&self, index: usize, fill: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) {
        let started = Instant::now();
        self.write_line(index, fill);
        let spent = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.busy_ns.fetch_add(spent, Ordering::Relaxed);
    }

    /// The line of [`Journal::append_with`]. The record's bytes are those its digest is
    /// taken over, so the digest costs a hash and no second serialisation.
    fn write_line(&self, index: usize, fill: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) {
        let mut line = format!("{{\"match\":{index},\"record\":").into_bytes();
        let start = line.len();
        let written = fill(&mut line);
        let digest = super::receipt::digest_json(&line[start..]);
        line.extend_from_slice(b"}\n");
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if w.error.is_some() {
            return;
        }
        if let Err(e) = written.and_then(|()| w.file.write_all(&line)) {
            w.error = Some(e);
            return;
        }
        w.digests.insert(index, digest);
        w.unsynced += 1;
        if w.unsynced >= BATCH_LINES || w.last_sync.elapsed() >= BATCH_TIME {
            w.unsynced = 0;
            w.last_sync = Instant::now();
            self.syncer.request();
        }
    }

    /// Sync what is left and report the first failure, if any. Returns the digest (see
    /// [`super::receipt::digest`]) of every record appended, by match index.
    pub fn finish(self) -> Result<BTreeMap<usize, String>, JournalError> {
        let Journal {
            path,
            syncer,
            writer,
            ..
        } = self;
        let synced = syncer.stop();
        let w = writer.into_inner().unwrap_or_else(|e| e.into_inner());
        if let Some(e) = w.error.or(synced.err()) {
            return Err(io(&path)(e));
        }
        w.file.sync_all().map_err(io(&path))?;
        Ok(w.digests)
    }
}

/// The thread that fsyncs the journal when a batch asks for it, so that the workers appending
/// never wait for the disk (an fsync takes milliseconds; an append, microseconds).
struct Syncer {
    shared: std::sync::Arc<(Mutex<SyncState>, std::sync::Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Default)]
struct SyncState {
    /// A batch asked for an fsync since the last one began.
    wanted: bool,
    /// The journal is finished: sync what was asked and stop.
    stop: bool,
    /// The first failed fsync.
    error: Option<std::io::Error>,
}

impl Syncer {
    /// Start the thread, syncing `file` (the journal's, another handle on it).
    fn start(file: File) -> std::io::Result<Syncer> {
        let shared =
            std::sync::Arc::new((Mutex::new(SyncState::default()), std::sync::Condvar::new()));
        let theirs = std::sync::Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("koth-journal-sync".into())
            .spawn(move || {
                let (state, wake) = &*theirs;
                let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    if s.wanted {
                        s.wanted = false;
                        drop(s);
                        let synced = file.sync_data();
                        s = state.lock().unwrap_or_else(|e| e.into_inner());
                        if let Err(e) = synced {
                            s.error.get_or_insert(e);
                        }
                    } else if s.stop {
                        return;
                    } else {
                        s = wake.wait(s).unwrap_or_else(|e| e.into_inner());
                    }
                }
            })?;
        Ok(Syncer {
            shared,
            thread: Some(thread),
        })
    }

    /// Ask for an fsync of everything written so far (it starts at once unless one is under
    /// way, which then is followed by another).
    fn request(&self) {
        let (state, wake) = &*self.shared;
        state.lock().unwrap_or_else(|e| e.into_inner()).wanted = true;
        wake.notify_one();
    }

    /// Stop the thread (after any fsync asked for) and report the first failure.
    fn stop(mut self) -> std::io::Result<()> {
        self.halt();
        let (state, _) = &*self.shared;
        match state.lock().unwrap_or_else(|e| e.into_inner()).error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn halt(&mut self) {
        let (state, wake) = &*self.shared;
        state.lock().unwrap_or_else(|e| e.into_inner()).stop = true;
        wake.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Syncer {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Read a journal: its header and records by match index (a partial last line, left by a
/// crash, is dropped).
pub fn read<R: DeserializeOwned>(
    path: &Path,
) -> Result<(Header, BTreeMap<usize, R>), JournalError> {
    read_at(path).map(|(h, r, _)| (h, r))
}

/// The header, the records and the length of the complete lines.
fn read_at<R: DeserializeOwned>(
    path: &Path,
) -> Result<(Header, BTreeMap<usize, R>, u64), JournalError> {
    let mut data = Vec::new();
    File::open(path)
        .and_then(|mut f| {
            f.seek(SeekFrom::Start(0))?;
            f.read_to_end(&mut data)
        })
        .map_err(io(path))?;
    let complete_len = data.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let corrupt = |line: usize, reason: String| JournalError::Corrupt {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let mut lines = data[..complete_len].split(|&b| b == b'\n');
    let header: Header = lines
        .next()
        .filter(|l| !l.is_empty())
        .ok_or_else(|| corrupt(1, "no header: the run stopped before it started".into()))
        .and_then(|l| serde_json::from_slice(l).map_err(|e| corrupt(1, e.to_string())))?;
    if header.journal != JOURNAL_SCHEMA {
        return Err(corrupt(
            1,
            format!(
                "layout `{}`, this koth reads `{JOURNAL_SCHEMA}`",
                header.journal
            ),
        ));
    }
    let mut records = BTreeMap::new();
    for (n, l) in lines.enumerate() {
        let line = n + 2;
        if l.is_empty() {
            continue;
        }
        let LineIn { index, record } =
            serde_json::from_slice::<LineIn<R>>(l).map_err(|e| corrupt(line, e.to_string()))?;
        if !header.owns(index) {
            return Err(corrupt(
                line,
                format!("match {index} does not belong to this run"),
            ));
        }
        if records.insert(index, record).is_some() {
            return Err(corrupt(line, format!("match {index} appears twice")));
        }
    }
    Ok((header, records, complete_len as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_every_match_once() {
        let shards: Vec<Shard> = (1..=4).map(|k| format!("{k}/4").parse().unwrap()).collect();
        for m in 0..103 {
            assert_eq!(shards.iter().filter(|s| s.owns(m)).count(), 1);
        }
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_partial_last_line_is_dropped_and_cut_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(JOURNAL);
        let j = Journal::create(&path, &Header::new(10, None)).unwrap();
        j.append(3, &"three".to_string());
        j.append(1, &"one".to_string());
        let digests = j.finish().unwrap();
        // Each record's digest, as the receipt takes it.
        assert_eq!(digests.len(), 2);
        assert_eq!(
            digests[&3],
            crate::tournament::receipt::digest(&"three").unwrap()
        );
        // A crash in the middle of a line.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"match\":7,\"reco").unwrap();
        drop(f);
        let (h, done) = read::<String>(&path).unwrap();
        assert_eq!(h.matches, 10);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\n{\"match\":3,\"record\":\"three\"}\n"),
            "{text}"
        );
        assert_eq!(done.keys().copied().collect::<Vec<_>>(), vec![1, 3]);
        let (j, _, done) = Journal::resume::<String>(&path).unwrap();
        assert_eq!(done.len(), 2);
        j.append(7, &"seven".to_string());
        j.finish().unwrap();
        let (_, done) = read::<String>(&path).unwrap();
        assert_eq!(done.get(&7).map(String::as_str), Some("seven"));
    }

    #[test]
    fn foreign_or_repeated_matches_are_refused_with_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(JOURNAL);
        let shard = "2/3".parse().unwrap();
        let j = Journal::create(&path, &Header::new(9, Some(shard))).unwrap();
        j.append(1, &0u8);
        j.append(0, &0u8);
        j.finish().unwrap();
        let e = read::<u8>(&path).unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains("match 0"), "{e}");
        std::fs::write(&path, b"").unwrap();
        let e = read::<u8>(&path).unwrap_err().to_string();
        assert!(e.contains("no header"), "{e}");
    }
}
