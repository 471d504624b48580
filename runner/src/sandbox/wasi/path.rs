//! Path calls, all resolved inside the bot's virtual directory.

use super::abi::*;
use super::fds::{Fd, Meta};
use super::io::{times, write_filestat};
use super::mem::Mem;
use super::state::{CallResult, HostState};
use crate::sandbox::errno::Errno;
use crate::sandbox::vfs::{FileType, NodeId, OpenOptions, Vfs, MAX_PATH_LEN};

/// The directory node behind a descriptor used as a path base, which must hold `rights`
/// (`ENOTCAPABLE` if it was opened or narrowed without them).
fn dir_of(st: &HostState, fd: i32, rights: u64) -> Result<NodeId, Errno> {
    let node = match st.fds.get(fd)? {
        Fd::Dir { node, .. } => node,
        Fd::File { .. } => return Err(Errno::Notdir),
        _ => return Err(Errno::Badf),
    };
    st.fds.need(fd, rights)?;
    Ok(node)
}

/// A guest path, bounds- and length-checked (the virtual filesystem checks its contents).
/// An absolute path is `ENOTCAPABLE`: at the WASI level paths are relative to a directory
/// descriptor (libc, Go and Zig resolve `/x` against the preopen named `/` before calling
/// WASI), and every standard runtime refuses one.
fn path<'m>(mem: &'m Mem, ptr: u32, len: u32) -> Result<&'m [u8], Errno> {
    if len as usize > MAX_PATH_LEN {
        return Err(Errno::Nametoolong);
    }
    let p = mem.slice(ptr, len)?;
    if p.first() == Some(&b'/') {
        return Err(Errno::Notcapable);
    }
    Ok(p)
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn path_open(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    lookup: u32,
    ptr: u32,
    len: u32,
    oflags: u16,
    rights: u64,
    inheriting: u64,
    fdflags: u16,
    out: u32,
) -> CallResult {
    let mut needed = RIGHT_PATH_OPEN;
    if oflags & OFLAG_CREAT != 0 {
        needed |= RIGHT_PATH_CREATE_FILE;
    }
    if oflags & OFLAG_TRUNC != 0 {
        needed |= RIGHT_PATH_FILESTAT_SET_SIZE;
    }
    let dir = dir_of(st, fd, needed)?;
    let parent = st.fds.meta(fd)?;
    let p = path(mem, ptr, len)?;
    if oflags & !(OFLAG_CREAT | OFLAG_DIRECTORY | OFLAG_EXCL | OFLAG_TRUNC) != 0
        || fdflags & !FDFLAGS_KNOWN != 0
    {
        return Err(Errno::Inval.into());
    }
    // A directory can be neither created, made exclusively nor truncated by `path_open`:
    // refused before the path is looked at, as wasmtime-wasi does (found by the differential
    // test, tests/wasi-diff).
    if oflags & OFLAG_DIRECTORY != 0 && oflags & (OFLAG_CREAT | OFLAG_EXCL | OFLAG_TRUNC) != 0 {
        return Err(Errno::Inval.into());
    }
    st.fds.check_room()?;
    // Check where the new descriptor goes before opening anything: a bad pointer must not
    // leave a file created or a descriptor taken.
    mem.slice(out, 4)?;
    let opts = OpenOptions {
        create: oflags & OFLAG_CREAT != 0,
        exclusive: oflags & OFLAG_EXCL != 0,
        truncate: oflags & OFLAG_TRUNC != 0,
        directory: oflags & OFLAG_DIRECTORY != 0,
        follow: lookup & LOOKUP_SYMLINK_FOLLOW != 0,
    };
    // What the new descriptor may do: everything its kind allows, within what its directory
    // passes on, except reading and writing, which only come when asked for. The other
    // requested rights are a hint, as in wasmtime: programs ask for few and then seek.
    let inheriting = inheriting & parent.inheriting;
    let read = rights & parent.inheriting & RIGHT_FD_READ != 0;
    let append = fdflags & FDFLAG_APPEND != 0;
    // `APPEND` says where writes go, not that the file may be written: without `FD_WRITE` the
    // descriptor is read-only and a write is `EBADF`, as `O_RDONLY|O_APPEND` on Linux (hence
    // wasmtime-wasi; found by tests/wasi-diff).
    let write = rights & parent.inheriting & RIGHT_FD_WRITE != 0;
    let fs = st.fs_now()?;
    // As Linux (hence wasmtime-wasi) checks, found by tests/wasi-diff: `O_CREAT` with a
    // trailing slash is `EISDIR` whatever is there, and `O_CREAT|O_EXCL` of any existing name
    // (a symlink is not followed) is `EEXIST` before its kind is looked at.
    if opts.create && p.last() == Some(&b'/') {
        return Err(Errno::Isdir.into());
    }
    let exclusive = opts.create && opts.exclusive;
    // Decide the kind before creating or truncating anything, so a refused open changes nothing.
    let node = fs.open_inspected(dir, p, opts, |fs, existing| {
        if exclusive {
            return Err(Errno::Exist);
        }
        match fs.stat(existing)?.file_type {
            // `O_CREAT` of an existing folder is `EISDIR`, as on Linux (hence wasmtime-wasi;
            // found by tests/wasi-diff).
            FileType::Dir if opts.truncate || opts.create => return Err(Errno::Isdir),
            // Asking for a directory and for the right to write it is a contradiction:
            // `EISDIR`, as wasmtime-wasi and POSIX `open(dir, O_DIRECTORY|O_RDWR)` say; the
            // requested right decides, whatever the parent passes on. Without `O_DIRECTORY`
            // rights stay a mask (a program that opens a name without knowing its kind may
            // pass on `FD_WRITE`): the folder opens, without that right.
            FileType::Dir if opts.directory && rights & RIGHT_FD_WRITE != 0 => {
                return Err(Errno::Isdir)
            }
            // An unfollowed symlink cannot be opened, even as a directory: `ELOOP`, as
            // wasmtime-wasi says (found by tests/wasi-diff; Linux says `ENOTDIR` with
            // `O_DIRECTORY`).
            FileType::Symlink => return Err(Errno::Loop),
            _ => {}
        }
        // A file of the read-only layer opens for reading only: asking to write is refused
        // at the open, as a read-only mount does (`EROFS`, passed through by wasmtime-wasi).
        if fs.is_read_only(existing) && (write || opts.truncate) {
            return Err(Errno::Rofs);
        }
        Ok(())
    })?;
    // Rights are a mask: those that do not fit the kind of node are dropped, not refused.
    let (entry, meta) = match fs.stat(node)?.file_type {
        FileType::Dir => (
            Fd::Dir {
                node,
                preopen: false,
            },
            Meta {
                base: DIR_BASE_RIGHTS & parent.inheriting,
                inheriting: inheriting & DIR_INHERITING_RIGHTS,
                flags: fdflags,
            },
        ),
        FileType::File => (
            Fd::File {
                node,
                pos: 0,
                read,
                write,
                append,
            },
            Meta {
                base: FILE_RIGHTS
                    & parent.inheriting
                    & !((!read as u64 * RIGHT_FD_READ) | (!write as u64 * RIGHT_FD_WRITE)),
                inheriting: 0,
                flags: fdflags,
            },
        ),
        FileType::Symlink => return Err(Errno::Loop.into()),
    };
    let new_fd = st.fds.insert(entry, meta)?;
    // Removing the node from the tree now leaves this descriptor working (see `Vfs::hold`).
    if let Some(fs) = st.fs.as_mut() {
        fs.hold(node);
    }
    mem.write_u32(out, new_fd)?;
    Ok(())
}

/// `mkdir`, `rmdir` and `unlink`: one path under a directory descriptor, one change.
pub(crate) type PathChange = fn(&mut Vfs, NodeId, &[u8]) -> Result<(), Errno>;

/// Apply `change` to the path `ptr`/`len` under the directory descriptor `fd`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn change_path(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    ptr: u32,
    len: u32,
    right: u64,
    change: PathChange,
) -> CallResult {
    let dir = dir_of(st, fd, right)?;
    let p = path(mem, ptr, len)?;
    change(st.fs_now()?, dir, p)?;
    Ok(())
}

pub(crate) fn path_filestat_get(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    lookup: u32,
    ptr: u32,
    len: u32,
    out: u32,
) -> CallResult {
    let dir = dir_of(st, fd, RIGHT_PATH_FILESTAT_GET)?;
    let p = path(mem, ptr, len)?;
    let fs = st.fs()?;
    let node = fs.lookup(dir, p, lookup & LOOKUP_SYMLINK_FOLLOW != 0)?;
    let s = fs.stat(node)?;
    write_filestat(mem, out, &s)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn path_filestat_set_times(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    lookup: u32,
    ptr: u32,
    len: u32,
    atim: u64,
    mtim: u64,
    flags: u16,
) -> CallResult {
    let dir = dir_of(st, fd, RIGHT_PATH_FILESTAT_SET_TIMES)?;
    let (a, m) = times(st, atim, mtim, flags)?;
    let p = path(mem, ptr, len)?;
    let fs = st.fs_now()?;
    let node = fs.lookup(dir, p, lookup & LOOKUP_SYMLINK_FOLLOW != 0)?;
    fs.set_times(node, a, m)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn path_rename(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    old: u32,
    old_len: u32,
    new_fd: i32,
    new: u32,
    new_len: u32,
) -> CallResult {
    let from_dir = dir_of(st, fd, RIGHT_PATH_RENAME_SOURCE)?;
    let to_dir = dir_of(st, new_fd, RIGHT_PATH_RENAME_TARGET)?;
    let from = path(mem, old, old_len)?;
    let to = path(mem, new, new_len)?;
    st.fs_now()?.rename(from_dir, from, to_dir, to)?;
    Ok(())
}

pub(crate) fn path_symlink(
    st: &mut HostState,
    mem: &mut Mem,
    target: u32,
    target_len: u32,
    fd: i32,
    ptr: u32,
    len: u32,
) -> CallResult {
    let dir = dir_of(st, fd, RIGHT_PATH_SYMLINK)?;
    if target_len as usize > MAX_PATH_LEN {
        return Err(Errno::Nametoolong.into());
    }
    let t = mem.slice(target, target_len)?;
    let name = mem.slice(ptr, len)?;
    // An absolute target is refused before the new name is looked at, with wasmtime-wasi's
    // `EPERM` (cap-std's "a path led outside of the filesystem"): following one would fail
    // anyway, and a link that points out of the tree is never made. A target or name that is
    // not UTF-8 is `EILSEQ` first (the virtual directory's check), as wasmtime-wasi reads
    // both strings before anything else.
    if t.first() == Some(&b'/')
        && std::str::from_utf8(t).is_ok()
        && std::str::from_utf8(name).is_ok()
    {
        return Err(Errno::Perm.into());
    }
    let p = path(mem, ptr, len)?;
    st.fs_now()?.symlink(t, dir, p)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn path_readlink(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    ptr: u32,
    len: u32,
    buf: u32,
    buf_len: u32,
    out: u32,
) -> CallResult {
    let dir = dir_of(st, fd, RIGHT_PATH_READLINK)?;
    let p = path(mem, ptr, len)?;
    let target = st.fs()?.readlink(dir, p)?;
    // Truncated to the buffer, as POSIX readlink does.
    let k = target.len().min(buf_len as usize);
    mem.write(buf, &target[..k])?;
    mem.write_u32(out, k as u32)?;
    Ok(())
}

/// Hard links are not supported: one node, one name keeps the history file rule simple and
/// quota accounting exact. Both descriptors must still be valid directories.
pub(crate) fn path_link(st: &mut HostState, fd: i32, new_fd: i32) -> CallResult {
    dir_of(st, fd, RIGHT_PATH_LINK_SOURCE)?;
    dir_of(st, new_fd, RIGHT_PATH_LINK_TARGET)?;
    Err(Errno::Notsup.into())
}
