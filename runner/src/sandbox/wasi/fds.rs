//! The guest's descriptor table: stdio, the preopened root, and what it opens.

use crate::sandbox::errno::Errno;
use crate::sandbox::vfs::NodeId;

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

/// Descriptors by number; the lowest free number is reused first, as POSIX does.
#[derive(Debug)]
pub(crate) struct FdTable {
    slots: Vec<Option<Fd>>,
    open: u32,
    max_open: u32,
}

impl FdTable {
    /// Stdio, plus the root directory as fd 3 when the bot has a directory.
    pub fn new(with_root: bool, root: NodeId, max_open: u32) -> Self {
        let mut slots = vec![Some(Fd::Stdin), Some(Fd::Stdout), Some(Fd::Stderr)];
        if with_root {
            slots.push(Some(Fd::Dir {
                node: root,
                preopen: true,
            }));
        }
        let open = slots.len() as u32;
        FdTable {
            slots,
            open,
            max_open,
        }
    }

    pub fn get(&self, fd: i32) -> Result<Fd, Errno> {
        usize::try_from(fd)
            .ok()
            .and_then(|i| self.slots.get(i).copied().flatten())
            .ok_or(Errno::Badf)
    }

    pub fn get_mut(&mut self, fd: i32) -> Result<&mut Fd, Errno> {
        usize::try_from(fd)
            .ok()
            .and_then(|i| self.slots.get_mut(i))
            .and_then(|s| s.as_mut())
            .ok_or(Errno::Badf)
    }

    /// Fails with `EMFILE` when the table is full.
    pub fn check_room(&self) -> Result<(), Errno> {
        if self.open >= self.max_open {
            return Err(Errno::Mfile);
        }
        Ok(())
    }

    pub fn insert(&mut self, fd: Fd) -> Result<u32, Errno> {
        self.check_room()?;
        self.open += 1;
        if let Some(i) = self.slots.iter().position(|s| s.is_none()) {
            self.slots[i] = Some(fd);
            return Ok(i as u32);
        }
        self.slots.push(Some(fd));
        Ok(self.slots.len() as u32 - 1)
    }

    pub fn remove(&mut self, fd: i32) -> Result<Fd, Errno> {
        let taken = usize::try_from(fd)
            .ok()
            .and_then(|i| self.slots.get_mut(i))
            .and_then(|s| s.take())
            .ok_or(Errno::Badf)?;
        self.open -= 1;
        Ok(taken)
    }

    /// Move `from` onto `to` (which must be open), closing what `to` held.
    pub fn renumber(&mut self, from: i32, to: i32) -> Result<(), Errno> {
        self.get(to)?;
        let moved = self.get(from)?;
        if from == to {
            return Ok(());
        }
        self.remove(from)?;
        *self.get_mut(to)? = moved;
        Ok(())
    }
}
