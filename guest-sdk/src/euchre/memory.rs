//! A bot's memory between invocations: one small file within the 1 KiB quota.

use super::Error;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// The most bytes a bot may keep in its directory (the seed: one file of at most 1 KB).
pub const MEMORY_LIMIT: usize = 1024;

/// The file [`Memory::open_default`] uses, in the bot's own directory.
pub const MEMORY_FILE: &str = "euchre.mem";

/// Payload bytes that fit: the file adds a magic byte and a checksum.
pub const MEMORY_CAPACITY: usize = MEMORY_LIMIT - 2;

/// The first byte of a memory file.
const MAGIC: u8 = 0xE7;

/// A compact memory: up to [`MEMORY_CAPACITY`] bytes kept in one file, framed with a magic
/// byte and a checksum so that a damaged or half-written file reads as empty rather than as
/// nonsense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    path: Option<PathBuf>,
    data: Vec<u8>,
}

fn checksum(data: &[u8]) -> u8 {
    data.iter()
        .fold(data.len() as u8, |acc, &b| acc.rotate_left(1) ^ b)
}

impl Memory {
    /// The memory in `path`: empty if the file is missing, too long, or damaged.
    pub fn open(path: impl Into<PathBuf>) -> Memory {
        let path = path.into();
        let data = read_framed(&path).unwrap_or_default();
        Memory {
            path: Some(path),
            data,
        }
    }

    /// The memory in [`MEMORY_FILE`] in the current directory.
    pub fn open_default() -> Memory {
        Memory::open(MEMORY_FILE)
    }

    /// A memory with no file (for native tests): [`Memory::save`] does nothing.
    pub fn in_memory(data: &[u8]) -> Memory {
        Memory {
            path: None,
            data: data[..data.len().min(MEMORY_CAPACITY)].to_vec(),
        }
    }

    /// The stored bytes.
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Replaces the bytes; refused (and nothing changed) beyond [`MEMORY_CAPACITY`].
    pub fn set(&mut self, data: &[u8]) -> Result<(), Error> {
        if data.len() > MEMORY_CAPACITY {
            return Err(Error::TooLarge(data.len()));
        }
        self.data = data.to_vec();
        Ok(())
    }

    /// Empties the memory.
    pub fn clear(&mut self) {
        self.data.clear();
    }

    /// Writes the file (in one write, replacing the old content). A full quota gives
    /// [`Error::NoSpace`]; the caller can carry on without memory.
    pub fn save(&self) -> Result<(), Error> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut framed = Vec::with_capacity(self.data.len() + 2);
        framed.push(MAGIC);
        framed.extend_from_slice(&self.data);
        framed.push(checksum(&self.data));
        let result = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)
            .and_then(|mut f| f.write_all(&framed).and_then(|()| f.flush()));
        result.map_err(|e| {
            if e.kind() == ErrorKind::StorageFull {
                Error::NoSpace
            } else {
                Error::Io(e)
            }
        })
    }
}

/// The payload of a framed file, or `None`.
fn read_framed(path: &Path) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    // Read one byte past the limit to notice a file that is too long.
    File::open(path)
        .ok()?
        .take(MEMORY_LIMIT as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() < 2 || bytes.len() > MEMORY_LIMIT || bytes[0] != MAGIC {
        return None;
    }
    let (body, sum) = bytes[1..].split_at(bytes.len() - 2);
    (checksum(body) == sum[0]).then(|| body.to_vec())
}
