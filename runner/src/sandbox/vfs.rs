//! The bot's virtual directory: an in-memory filesystem with exact quotas.
//!
//! Pure Rust, no wasmtime: the WASI layer (`sandbox::wasi`) translates guest calls into the
//! methods here. Everything a guest can observe is deterministic: inode numbers are assigned
//! in creation order, timestamps come from [`Vfs::set_now`] (the virtual clock), directory
//! listings are sorted by name bytes. Paths never leave the root: `..` at the root, absolute
//! symlink targets and escaping relative symlinks resolve inside the tree or fail with
//! `Errno::Notcapable`; nothing here ever touches the host filesystem.
//!
//! Quotas are checked before a change is made, so the operation that would break one fails
//! (with `Errno::Nospc`) and nothing is changed: a bot can never make the host hold more than
//! its quota. Files placed by the host ([`Vfs::put_host_file`]) are exempt up to the length the
//! host gave them and do not count as nodes.

use super::errno::Errno;
use std::collections::BTreeMap;

/// Stable identity of a node; also its inode number as the guest sees it.
pub type NodeId = u64;

/// Result of a filesystem operation, failing with the errno the guest sees.
pub type VfsResult<T> = Result<T, Errno>;

/// Quotas of one virtual directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VfsLimits {
    /// Total bytes of file contents (host-placed files count only past their host length).
    pub max_bytes: u64,
    /// Files, folders and symlinks the bot may create (the root and host files excluded).
    pub max_nodes: u32,
    /// Deepest allowed nesting: a node at `a/b/c` has depth 3.
    pub max_depth: u32,
}

impl Default for VfsLimits {
    fn default() -> Self {
        VfsLimits { max_bytes: 1 << 20, max_nodes: 64, max_depth: 16 }
    }
}

/// Longest file name component, in bytes.
pub const MAX_NAME_LEN: usize = 255;
/// Longest path a guest may pass, in bytes.
pub const MAX_PATH_LEN: usize = 4096;
/// Symlinks followed while resolving one path before `Errno::Loop`.
pub const MAX_SYMLINK_FOLLOWS: u32 = 32;

/// What kind of node this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileType {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (its target is stored, never followed outside the tree).
    Symlink,
}

/// Metadata a guest can read: all virtual.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    /// Node id (inode number).
    pub ino: NodeId,
    /// Kind of node.
    pub file_type: FileType,
    /// Link count: 1 for files and symlinks, 2 for directories (no hard links exist).
    pub nlink: u64,
    /// Size in bytes (files: content length; symlinks: target length; directories: 0).
    pub size: u64,
    /// Last access time, virtual nanoseconds.
    pub atim: u64,
    /// Last modification time, virtual nanoseconds.
    pub mtim: u64,
    /// Last status change time, virtual nanoseconds.
    pub ctim: u64,
}

/// One directory entry as listed by [`Vfs::list_dir`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirEntry {
    /// Entry name (`.` and `..` included first).
    pub name: Vec<u8>,
    /// Node id of the entry.
    pub ino: NodeId,
    /// Kind of node.
    pub file_type: FileType,
}

/// How to open or create a path.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Create the file if it does not exist.
    pub create: bool,
    /// With `create`: fail with `Exist` if it exists.
    pub exclusive: bool,
    /// Truncate an existing file to 0 bytes.
    pub truncate: bool,
    /// Fail with `Notdir` unless the path is a directory.
    pub directory: bool,
    /// Follow a symlink in the final component.
    pub follow: bool,
}

/// A snapshot of a tree for the archive: paths relative to the root, in sorted order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotEntry {
    /// A directory at this path.
    Dir(String),
    /// A file and its contents.
    File(String, Vec<u8>),
    /// A symlink and its target (never followed by the host).
    Symlink(String, String),
}

/// The in-memory tree.
#[derive(Debug, Clone)]
pub struct Vfs {
    limits: VfsLimits,
    nodes: BTreeMap<NodeId, Node>,
    next_id: NodeId,
    now: u64,
    used_bytes: u64,
    used_nodes: u32,
}

#[derive(Debug, Clone)]
struct Node {
    kind: NodeKind,
    parent: NodeId,
    depth: u32,
    host_len: Option<u64>,
    atim: u64,
    mtim: u64,
    ctim: u64,
}

#[derive(Debug, Clone)]
enum NodeKind {
    File(Vec<u8>),
    Dir(BTreeMap<Vec<u8>, NodeId>),
    Symlink(Vec<u8>),
}

impl Vfs {
    /// Id of the root directory.
    pub const ROOT: NodeId = 1;

    /// An empty tree with these quotas.
    pub fn new(limits: VfsLimits) -> Self {
        todo!()
    }

    /// The quotas in force.
    pub fn limits(&self) -> VfsLimits {
        self.limits
    }

    /// Set the virtual time stamped on later changes.
    pub fn set_now(&mut self, now_ns: u64) {
        self.now = now_ns;
    }

    /// Bytes counted against the quota.
    pub fn used_bytes(&self) -> u64 {
        self.used_bytes
    }

    /// Nodes counted against the quota.
    pub fn used_nodes(&self) -> u32 {
        self.used_nodes
    }

    // ---- host side -------------------------------------------------------------------

    /// Host: create or replace a regular file at `name` in the root with `content`, exempt from
    /// the quota up to `content.len()`. Replaces whatever node has that name (a bot's
    /// directory or symlink there is removed, its quota released).
    pub fn put_host_file(&mut self, name: &str, content: &[u8]) {
        todo!()
    }

    /// Host: the contents of the regular file at `name` in the root, if it is one (symlinks
    /// are not followed).
    pub fn host_file(&self, name: &str) -> Option<&[u8]> {
        todo!()
    }

    /// Host: every node under the root, depth first in sorted order, for the archive.
    pub fn snapshot(&self) -> Vec<SnapshotEntry> {
        todo!()
    }

    // ---- guest side: paths are resolved relative to `dir` ------------------------------

    /// Resolve `path` from directory `dir`. `follow` says whether a final symlink is followed.
    pub fn lookup(&self, dir: NodeId, path: &[u8], follow: bool) -> VfsResult<NodeId> {
        todo!()
    }

    /// Open (and maybe create) a file or directory.
    pub fn open(&mut self, dir: NodeId, path: &[u8], opts: OpenOptions) -> VfsResult<NodeId> {
        todo!()
    }

    /// Metadata of a node.
    pub fn stat(&self, node: NodeId) -> VfsResult<Stat> {
        todo!()
    }

    /// Read up to `buf.len()` bytes at `offset`; returns the count (0 at or past the end).
    pub fn read_at(&mut self, node: NodeId, offset: u64, buf: &mut [u8]) -> VfsResult<usize> {
        todo!()
    }

    /// Write all of `data` at `offset` (zero-filling any gap), or nothing and `Nospc` if the
    /// result would exceed the byte quota. Returns `data.len()`.
    pub fn write_at(&mut self, node: NodeId, offset: u64, data: &[u8]) -> VfsResult<usize> {
        todo!()
    }

    /// Current size of a file.
    pub fn file_len(&self, node: NodeId) -> VfsResult<u64> {
        todo!()
    }

    /// Truncate or extend (with zeros) a file, within the quota.
    pub fn set_len(&mut self, node: NodeId, len: u64) -> VfsResult<()> {
        todo!()
    }

    /// Set access and/or modification times.
    pub fn set_times(&mut self, node: NodeId, atim: Option<u64>, mtim: Option<u64>) -> VfsResult<()> {
        todo!()
    }

    /// Sorted listing of a directory, `.` and `..` first.
    pub fn list_dir(&self, dir: NodeId) -> VfsResult<Vec<DirEntry>> {
        todo!()
    }

    /// Create a directory.
    pub fn mkdir(&mut self, dir: NodeId, path: &[u8]) -> VfsResult<()> {
        todo!()
    }

    /// Remove an empty directory.
    pub fn rmdir(&mut self, dir: NodeId, path: &[u8]) -> VfsResult<()> {
        todo!()
    }

    /// Remove a file or symlink (never a directory: `Isdir`).
    pub fn unlink(&mut self, dir: NodeId, path: &[u8]) -> VfsResult<()> {
        todo!()
    }

    /// Rename, POSIX style (replacing a file, or an empty directory with a directory).
    pub fn rename(&mut self, from_dir: NodeId, from: &[u8], to_dir: NodeId, to: &[u8]) -> VfsResult<()> {
        todo!()
    }

    /// Create a symlink at `path` holding `target`.
    pub fn symlink(&mut self, target: &[u8], dir: NodeId, path: &[u8]) -> VfsResult<()> {
        todo!()
    }

    /// The target of the symlink at `path`.
    pub fn readlink(&self, dir: NodeId, path: &[u8]) -> VfsResult<Vec<u8>> {
        todo!()
    }

    /// Whether `node` still exists (an open descriptor's node may have been removed).
    pub fn exists(&self, node: NodeId) -> bool {
        self.nodes.contains_key(&node)
    }
}
