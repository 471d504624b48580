//! The guest's descriptor table: stdio, the preopened root, and what it opens.

use super::abi::{DIR_BASE_RIGHTS, DIR_INHERITING_RIGHTS, STDIO_RIGHTS};
use crate::sandbox::errno::Errno;
use crate::sandbox::vfs::NodeId;

/// What a descriptor may do and how it was opened: its rights, which only ever shrink, and
/// its fdflags as the guest set them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Meta {
    /// Rights of the descriptor itself.
    pub base: u64,
    /// Rights that descriptors opened through it may get.
    pub inheriting: u64,
    /// fdflags (`APPEND`, `DSYNC`, `NONBLOCK`, `RSYNC`, `SYNC`) as opened or last set.
    pub flags: u16,
}

impl Meta {
    fn stdio() -> Meta {
        Meta {
            base: STDIO_RIGHTS,
            inheriting: 0,
            flags: 0,
        }
    }
}

/// What a descriptor refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fd {
    Stdin,
    Stdout,
    Stderr,
    /// A directory; `preopen` marks the root handed to the guest at start.
    Dir {
        node: NodeId,
        preopen: bool,
    },
    /// A regular file with its position and access mode.
    File {
        node: NodeId,
        pos: u64,
        read: bool,
        write: bool,
        append: bool,
    },
}

/// Descriptors by number. The highest free number is reused first, as wasmtime-wasi does
/// (found by tests/wasi-diff; WASI, unlike POSIX, promises no order, and programs that meet
/// wasmtime first should see the same numbers here).
#[derive(Debug)]
pub(crate) struct FdTable {
    slots: Vec<Option<(Fd, Meta)>>,
    open: u32,
    max_open: u32,
}

impl FdTable {
    /// Stdio, plus the root directory as fd 3 when the bot has a directory.
    pub fn new(with_root: bool, root: NodeId, max_open: u32) -> Self {
        // Room for the files a bot usually opens, so that opening one does not reallocate.
        Self::renew(Vec::with_capacity(8), with_root, root, max_open)
    }

    /// [`FdTable::new`] in the memory of a table an earlier invocation finished with.
    pub fn reuse(self, with_root: bool, root: NodeId, max_open: u32) -> Self {
        Self::renew(self.slots, with_root, root, max_open)
    }

    fn renew(
        mut slots: Vec<Option<(Fd, Meta)>>,
        with_root: bool,
        root: NodeId,
        max_open: u32,
    ) -> Self {
        slots.clear();
        slots.extend([
            Some((Fd::Stdin, Meta::stdio())),
            Some((Fd::Stdout, Meta::stdio())),
            Some((Fd::Stderr, Meta::stdio())),
        ]);
        if with_root {
            slots.push(Some((
                Fd::Dir {
                    node: root,
                    preopen: true,
                },
                Meta {
                    base: DIR_BASE_RIGHTS,
                    inheriting: DIR_INHERITING_RIGHTS,
                    flags: 0,
                },
            )));
        }
        let open = slots.len() as u32;
        FdTable {
            slots,
            open,
            max_open,
        }
    }

    fn slot(&self, fd: i32) -> Result<&(Fd, Meta), Errno> {
        usize::try_from(fd)
            .ok()
            .and_then(|i| self.slots.get(i))
            .and_then(Option::as_ref)
            .ok_or(Errno::Badf)
    }

    fn slot_mut(&mut self, fd: i32) -> Result<&mut (Fd, Meta), Errno> {
        usize::try_from(fd)
            .ok()
            .and_then(|i| self.slots.get_mut(i))
            .and_then(Option::as_mut)
            .ok_or(Errno::Badf)
    }

    pub fn get(&self, fd: i32) -> Result<Fd, Errno> {
        self.slot(fd).map(|s| s.0)
    }

    pub fn get_mut(&mut self, fd: i32) -> Result<&mut Fd, Errno> {
        self.slot_mut(fd).map(|s| &mut s.0)
    }

    /// Rights and flags of an open descriptor.
    pub fn meta(&self, fd: i32) -> Result<Meta, Errno> {
        self.slot(fd).map(|s| s.1)
    }

    pub fn meta_mut(&mut self, fd: i32) -> Result<&mut Meta, Errno> {
        self.slot_mut(fd).map(|s| &mut s.1)
    }

    /// `ENOTCAPABLE` unless the descriptor holds every right in `rights`.
    pub fn need(&self, fd: i32, rights: u64) -> Result<(), Errno> {
        if self.meta(fd)?.base & rights != rights {
            return Err(Errno::Notcapable);
        }
        Ok(())
    }

    /// Fails with `EMFILE` when the table is full.
    pub fn check_room(&self) -> Result<(), Errno> {
        if self.open >= self.max_open {
            return Err(Errno::Mfile);
        }
        Ok(())
    }

    pub fn insert(&mut self, fd: Fd, meta: Meta) -> Result<u32, Errno> {
        self.check_room()?;
        self.open += 1;
        if let Some(i) = self.slots.iter().rposition(|s| s.is_none()) {
            self.slots[i] = Some((fd, meta));
            return Ok(i as u32);
        }
        self.slots.push(Some((fd, meta)));
        Ok(self.slots.len() as u32 - 1)
    }

    pub fn remove(&mut self, fd: i32) -> Result<Fd, Errno> {
        let taken = usize::try_from(fd)
            .ok()
            .and_then(|i| self.slots.get_mut(i))
            .and_then(|s| s.take())
            .ok_or(Errno::Badf)?;
        self.open -= 1;
        Ok(taken.0)
    }

    /// Move `from` onto `to` (which must be open), closing what `to` held: returned, so the
    /// caller can let its node go. `None` when `from == to` (nothing is closed).
    pub fn renumber(&mut self, from: i32, to: i32) -> Result<Option<Fd>, Errno> {
        self.get(to)?;
        let moved = *self.slot(from)?;
        if from == to {
            return Ok(None);
        }
        self.remove(from)?;
        let slot = self.slot_mut(to)?;
        let closed = slot.0;
        *slot = moved;
        Ok(Some(closed))
    }
}
