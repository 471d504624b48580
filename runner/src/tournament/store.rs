//! Finished matches kept by what defines them, so that a later run plays only the matches
//! whose definition is new (`--reuse DIR`).
//!
//! A match's key is a SHA-256 over everything its result depends on: the run's identity
//! (game or referee, options but the number of rounds, seed, limits, engine settings, koth's
//! version) and the match's own (its round, and each seat's bot by name and SHA-256). Never
//! its position in the run: adding a bot leaves every other match's key as it was.
//!
//! The store is a folder of `<key[..2]>/<key>.json.zst`, each the match's record as the
//! journal keeps it, compressed as one zstd frame (8× smaller: a 100-bot ladder's store is a
//! seventh of a gigabyte, not a gigabyte and more), written whole (a temporary file renamed
//! into place), so a run killed mid-write leaves no half record, and runs sharing a store never
//! see one. (koth 0.5.0 and earlier kept `<key>.json` uncompressed; their keys hold their
//! version, so this koth never looks for them.)
//!
//! In front of the record's frame, a zstd *skippable* frame holds the record's digest (the
//! SHA-256 the receipt takes of it) and a CRC-32 of the digest, so that a run taking 99,000
//! matches from the store does not hash a gigabyte of JSON again; `zstd -d` skips that frame
//! and prints the record. A digest whose CRC fails, or a file without the frame, still reads:
//! the digest is then taken from the record. (Keys are `koth-match-v2` since the frame: a
//! koth before it would read such a file as damaged and write it again without the frame.)

use serde::de::DeserializeOwned;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use thiserror::Error;

/// The store could not be used.
#[derive(Debug, Error)]
pub enum StoreError {
    /// A filesystem operation failed.
    #[error("match store {path}: {source}")]
    Io {
        /// The path at fault.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// The largest record the store reads back (a frame that claims more is damaged): far above
/// any match's record, whose decisions' output is capped by the sandbox.
const MAX_RECORD: u64 = 1 << 30;

/// The magic number of the skippable frame that holds a record's digest (zstd reserves
/// 0x184D2A50 to 0x184D2A5F for skippable frames; a seekable file's table uses 0x184D2A5E).
const DIGEST_FRAME: u32 = 0x184D_2A5D;
/// What that frame holds: the 32 bytes of the SHA-256 and their CRC-32 (a skippable frame
/// has no checksum of its own, and a digest that rotted would fail an honest match in
/// `koth verify`).
const DIGEST_FRAME_SIZE: u32 = 32 + 4;
/// That frame's whole length: magic number, size, and what it holds.
const DIGEST_FRAME_LEN: usize = 8 + DIGEST_FRAME_SIZE as usize;

/// A record read back from the store.
#[derive(Debug)]
pub struct Found<R> {
    /// The record.
    pub record: R,
    /// Its JSON, as [`Store::put`] wrote it (`serde_json::to_vec` of the record).
    pub json: Vec<u8>,
    /// The digest of that JSON ([`super::receipt::digest_json`]).
    pub digest: String,
}

/// A folder of finished matches, by key.
#[derive(Debug)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// Open (creating it if needed) the store at `root`.
    pub fn open(root: &Path) -> Result<Store, StoreError> {
        std::fs::create_dir_all(root).map_err(|source| StoreError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(Store {
            root: root.to_path_buf(),
        })
    }

    /// The store's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    fn path(&self, key: &[u8; 32]) -> PathBuf {
        let hex = hex::encode(key);
        self.root.join(&hex[..2]).join(format!("{hex}.json.zst"))
    }

    /// The record kept under `key`, if there is one that reads back (a damaged file counts as
    /// none: the match is played again and the file replaced).
    pub fn get<R: DeserializeOwned>(&self, key: &[u8; 32]) -> Option<R> {
        self.find(key).map(|f| f.record)
    }

    /// [`Store::get`], with the record's JSON as the file holds it and its digest, so that
    /// neither is made again.
    pub fn find<R: DeserializeOwned>(&self, key: &[u8; 32]) -> Option<Found<R>> {
        let file = std::fs::read(self.path(key)).ok()?;
        let (digest, packed) = match file.get(..DIGEST_FRAME_LEN) {
            Some(head) if head[..4] == DIGEST_FRAME.to_le_bytes() => {
                if head[4..8] != DIGEST_FRAME_SIZE.to_le_bytes() {
                    return None;
                }
                let (sha, crc) = head[8..].split_at(32);
                let sound = crc32fast::hash(sha).to_le_bytes() == crc;
                (sound.then(|| hex::encode(sha)), &file[DIGEST_FRAME_LEN..])
            }
            _ => (None, &file[..]),
        };
        // The frame says its size; one that claims more than a record can be is damaged.
        let size = zstd::zstd_safe::get_frame_content_size(packed).ok()??;
        if size > MAX_RECORD {
            return None;
        }
        let json = super::seekable::decompress_frame(packed, size as usize).ok()?;
        // `put` writes one line of compact JSON; a file with a line break was not written so
        // (its bytes would split a journal line): damaged, so played again.
        if json.contains(&b'\n') {
            return None;
        }
        let record = serde_json::from_slice(&json).ok()?;
        let digest = digest.unwrap_or_else(|| super::receipt::digest_json(&json));
        Some(Found {
            record,
            json,
            digest,
        })
    }

    /// Keep `record` under `key`.
    pub fn put<R: Serialize>(&self, key: &[u8; 32], record: &R) -> Result<(), StoreError> {
        let json = serde_json::to_vec(record).map_err(|e| StoreError::Io {
            path: self.path(key),
            source: std::io::Error::other(e),
        })?;
        self.put_json(key, &json)
    }

    /// Keep the record whose JSON is `json` (`serde_json::to_vec` of it) under `key`.
    pub fn put_json(&self, key: &[u8; 32], json: &[u8]) -> Result<(), StoreError> {
        let path = self.path(key);
        let io = |p: &Path| {
            let p = p.to_path_buf();
            move |source| StoreError::Io { path: p, source }
        };
        let dir = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let sha = Sha256::digest(json);
        let mut bytes = Vec::with_capacity(DIGEST_FRAME_LEN + json.len() / 4);
        bytes.extend_from_slice(&DIGEST_FRAME.to_le_bytes());
        bytes.extend_from_slice(&DIGEST_FRAME_SIZE.to_le_bytes());
        bytes.extend_from_slice(&sha);
        bytes.extend_from_slice(&crc32fast::hash(&sha).to_le_bytes());
        bytes.extend(super::seekable::compress_frame(json).map_err(io(&path))?);
        let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io(dir))?;
        tmp.write_all(&bytes).map_err(io(tmp.path()))?;
        tmp.persist(&path).map_err(|e| StoreError::Io {
            path: path.clone(),
            source: e.error,
        })?;
        Ok(())
    }
}

/// What a match is, as its key counts it: its round, and the bot in each seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The round (of its pairing).
    pub round: u32,
    /// Each seat's bot, an index into the run's bots.
    pub seats: Vec<usize>,
}

/// What a run needs to reuse matches: the store, the run's identity and its bots'.
pub struct Reuse<'a> {
    /// Where finished matches are kept.
    pub store: &'a Store,
    /// SHA-256 of what every match of the run shares (see [`run_key`]).
    pub run: [u8; 32],
    /// Each bot's name and SHA-256 (hex), in the run's order.
    pub bots: Vec<(String, String)>,
    /// How many matches were taken from the store.
    pub reused: AtomicUsize,
    /// How many were played and put there.
    pub stored: AtomicUsize,
}

impl<'a> Reuse<'a> {
    /// Reuse from `store` for the run `run` (see [`run_key`]) of `bots` (name, SHA-256).
    pub fn new(store: &'a Store, run: [u8; 32], bots: Vec<(String, String)>) -> Reuse<'a> {
        Reuse {
            store,
            run,
            bots,
            reused: AtomicUsize::new(0),
            stored: AtomicUsize::new(0),
        }
    }

    /// The key of the match `id`.
    pub fn key(&self, id: &Identity) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(b"koth-match-v2\0");
        h.update(self.run);
        h.update(id.round.to_le_bytes());
        h.update((id.seats.len() as u64).to_le_bytes());
        for &s in &id.seats {
            let (name, sha) = self
                .bots
                .get(s)
                .map(|(n, h)| (n.as_str(), h.as_str()))
                .unwrap_or_default();
            for part in [name.as_bytes(), sha.as_bytes()] {
                h.update((part.len() as u64).to_le_bytes());
                h.update(part);
            }
        }
        h.finalize().into()
    }

    /// Count a match taken from the store.
    pub(crate) fn took(&self) {
        self.reused.fetch_add(1, Ordering::Relaxed);
    }

    /// Count a match played and kept.
    pub(crate) fn kept(&self) {
        self.stored.fetch_add(1, Ordering::Relaxed);
    }
}

/// What a run says of its store once it has played: `Reuse: played P UNIT and took T from
/// DIR`. Whatever runs koth and counts its matches (a Slurm task's log read by the contest
/// server, `koth bench ladder`) reads it back with [`read_reuse_line`].
pub fn reuse_line(played: usize, unit: &str, took: usize, from: &Path) -> String {
    format!(
        "Reuse: played {played} {unit} and took {took} from {}",
        from.display()
    )
}

/// The matches played and taken of the last [`reuse_line`] in `text`.
pub fn read_reuse_line(text: &str) -> Option<(usize, usize)> {
    text.lines().rev().find_map(|l| {
        let rest = l.strip_prefix("Reuse: played ")?;
        let mut w = rest.split_whitespace();
        let played = w.next()?.parse().ok()?;
        let took = w.skip_while(|x| *x != "took").nth(1)?.parse().ok()?;
        Some((played, took))
    })
}

/// The key of what every match of a run shares: the run's manifest as JSON (game,
/// referee, koth's version, options, engine settings) with its bots and the number of
/// rounds (`count_field` of the options: it fixes which matches there are, not how any
/// of them goes) taken out.
pub fn run_key(manifest: &serde_json::Value, count_field: &str) -> [u8; 32] {
    let mut m = manifest.clone();
    if let Some(obj) = m.as_object_mut() {
        obj.remove("bots");
        if let Some(opts) = obj.get_mut("options").and_then(|o| o.as_object_mut()) {
            opts.remove(count_field);
        }
    }
    let mut h = Sha256::new();
    h.update(b"koth-run-v1\0");
    // serde_json's maps are sorted, so equal manifests hash alike.
    h.update(m.to_string().as_bytes());
    h.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_log_says_what_it_played_and_took() {
        let log = "Coup: 3 bots\nReuse: played 8 games and took 4 from /c/store\n";
        assert_eq!(read_reuse_line(log), Some((8, 4)));
        assert_eq!(read_reuse_line("nothing"), None);
        let line = reuse_line(8, "games", 4, Path::new("/c/store"));
        assert_eq!(read_reuse_line(&line), Some((8, 4)));
    }

    fn bots() -> Vec<(String, String)> {
        vec![
            ("a".into(), "aa".into()),
            ("b".into(), "bb".into()),
            ("c".into(), "cc".into()),
        ]
    }

    #[test]
    fn a_key_depends_on_the_seats_bots_and_round_not_their_positions() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let r = Reuse::new(&store, [7; 32], bots());
        let ab = r.key(&Identity {
            round: 0,
            seats: vec![0, 1],
        });
        // The same two bots at other positions of another run's list.
        let mut moved = vec![("z".into(), "zz".into())];
        moved.extend(bots());
        let r2 = Reuse::new(&store, [7; 32], moved);
        assert_eq!(
            ab,
            r2.key(&Identity {
                round: 0,
                seats: vec![1, 2]
            })
        );
        assert_ne!(
            ab,
            r.key(&Identity {
                round: 0,
                seats: vec![1, 0]
            })
        );
        assert_ne!(
            ab,
            r.key(&Identity {
                round: 1,
                seats: vec![0, 1]
            })
        );
        let changed = vec![("a".into(), "a2".into()), ("b".into(), "bb".into())];
        assert_ne!(
            ab,
            Reuse::new(&store, [7; 32], changed).key(&Identity {
                round: 0,
                seats: vec![0, 1]
            })
        );
        assert_ne!(
            ab,
            Reuse::new(&store, [8; 32], bots()).key(&Identity {
                round: 0,
                seats: vec![0, 1]
            })
        );
    }

    #[test]
    fn records_come_back_and_damaged_ones_count_as_missing() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s")).unwrap();
        let key = [3u8; 32];
        assert_eq!(store.get::<Vec<u32>>(&key), None);
        store.put(&key, &vec![1u32, 2, 3]).unwrap();
        assert_eq!(store.get::<Vec<u32>>(&key), Some(vec![1, 2, 3]));
        // Compressed: the file is not the JSON.
        assert_ne!(std::fs::read(store.path(&key)).unwrap(), b"[1,2,3]");
        // A truncated record, a frame whose checksum fails, and a record with a line break
        // (not what `put` writes) all count as missing.
        std::fs::write(
            store.path(&key),
            super::super::seekable::compress_frame(b"[1, 2").unwrap(),
        )
        .unwrap();
        assert_eq!(store.get::<Vec<u32>>(&key), None);
        let mut flipped = super::super::seekable::compress_frame(b"[1,2,3]").unwrap();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        std::fs::write(store.path(&key), flipped).unwrap();
        assert_eq!(store.get::<Vec<u32>>(&key), None);
        std::fs::write(
            store.path(&key),
            super::super::seekable::compress_frame(b"[1,\n2]").unwrap(),
        )
        .unwrap();
        assert_eq!(store.get::<Vec<u32>>(&key), None);
        std::fs::write(store.path(&key), b"[1,2,3]").unwrap();
        assert_eq!(store.get::<Vec<u32>>(&key), None);
        store.put(&key, &vec![4u32]).unwrap();
        assert_eq!(store.get::<Vec<u32>>(&key), Some(vec![4]));
    }

    #[test]
    fn a_record_keeps_its_digest_and_zstd_still_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap();
        let key = [5u8; 32];
        store.put(&key, &vec![1u32, 2]).unwrap();
        let found = store.find::<Vec<u32>>(&key).unwrap();
        assert_eq!(found.json, b"[1,2]");
        assert_eq!(
            found.digest,
            crate::tournament::receipt::digest_json(b"[1,2]")
        );
        // The digest's frame is one zstd skips: the file decompresses to the record.
        let file = std::fs::read(store.path(&key)).unwrap();
        assert_eq!(zstd::decode_all(&file[..]).unwrap(), b"[1,2]");
        // The digest the store holds is the one it gives: not taken again, as a wrong one
        // with a sound CRC shows.
        let mut other = file.clone();
        other[8] ^= 0xff;
        let crc = crc32fast::hash(&other[8..40]).to_le_bytes();
        other[40..44].copy_from_slice(&crc);
        std::fs::write(store.path(&key), &other).unwrap();
        assert_ne!(store.find::<Vec<u32>>(&key).unwrap().digest, found.digest);
        // A digest whose CRC fails is taken from the record again.
        other[8] ^= 0xff;
        other[9] ^= 0x01;
        std::fs::write(store.path(&key), &other).unwrap();
        assert_eq!(store.find::<Vec<u32>>(&key).unwrap().digest, found.digest);
        // A record written without one reads, its digest taken from it; a digest frame of
        // another size is damage.
        let plain = &file[DIGEST_FRAME_LEN..];
        std::fs::write(store.path(&key), plain).unwrap();
        assert_eq!(store.find::<Vec<u32>>(&key).unwrap().digest, found.digest);
        let mut odd = file.clone();
        odd[4] = 32;
        std::fs::write(store.path(&key), &odd).unwrap();
        assert!(store.find::<Vec<u32>>(&key).is_none());
    }

    #[test]
    fn the_run_key_ignores_the_bots_and_the_round_count_only() {
        let m = serde_json::json!({
            "game": "coup", "koth_version": "1", "bots": [{"name": "a"}],
            "options": {"rounds": 10, "seed": 1}, "engine": {"x": 1}
        });
        let k = run_key(&m, "rounds");
        let mut more = m.clone();
        more["bots"] = serde_json::json!([{"name": "a"}, {"name": "b"}]);
        more["options"]["rounds"] = 20.into();
        assert_eq!(k, run_key(&more, "rounds"));
        for (path, v) in [
            ("/options/seed", serde_json::json!(2)),
            ("/koth_version", serde_json::json!("2")),
            ("/engine/x", serde_json::json!(2)),
            ("/game", serde_json::json!("euchre")),
        ] {
            let mut other = m.clone();
            *other.pointer_mut(path).unwrap() = v;
            assert_ne!(k, run_key(&other, "rounds"), "{path}");
        }
    }
}
