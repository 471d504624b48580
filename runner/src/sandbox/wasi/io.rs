//! Descriptor calls: read, write, seek, stat, readdir, close.

use super::abi::*;
use super::fds::Fd;
use super::mem::{Iovecs, Mem};
use super::state::{CallResult, Fail, HostState, Stop, IOVEC_FUEL};
use crate::sandbox::errno::Errno;
use crate::sandbox::vfs::{FileType, NodeId, Stat};

pub(crate) fn filetype_code(t: FileType) -> u8 {
    match t {
        FileType::File => FILETYPE_REGULAR_FILE,
        FileType::Dir => FILETYPE_DIRECTORY,
        FileType::Symlink => FILETYPE_SYMBOLIC_LINK,
    }
}

/// Write a `filestat` for a virtual node.
pub(crate) fn write_filestat(mem: &mut Mem, ptr: u32, s: &Stat) -> Result<(), Errno> {
    let mut b = [0u8; FILESTAT_SIZE as usize];
    b[0..8].copy_from_slice(&VFS_DEVICE.to_le_bytes());
    b[8..16].copy_from_slice(&s.ino.to_le_bytes());
    b[16] = filetype_code(s.file_type);
    b[24..32].copy_from_slice(&s.nlink.to_le_bytes());
    b[32..40].copy_from_slice(&s.size.to_le_bytes());
    b[40..48].copy_from_slice(&s.atim.to_le_bytes());
    b[48..56].copy_from_slice(&s.mtim.to_le_bytes());
    b[56..64].copy_from_slice(&s.ctim.to_le_bytes());
    mem.write(ptr, &b)
}

/// The iovecs of a read or write, paid for one by one: a thousand empty ones cost the host
/// as much work as a thousand short ones.
fn iovecs(st: &mut HostState, mem: &Mem, ptr: u32, count: u32) -> Result<Iovecs, Errno> {
    st.charge_fuel(u64::from(count.min(MAX_IOVECS + 1)) * IOVEC_FUEL);
    mem.iovecs(ptr, count)
}

/// Total length of iovecs, capped by the per-call limit.
fn capped_total(iovs: &[(u32, u32)], cap: u32) -> u64 {
    iovs.iter()
        .map(|&(_, l)| l as u64)
        .sum::<u64>()
        .min(cap as u64)
}

/// Gather the bytes a write passes, up to the per-call cap.
fn gather<'m>(
    mem: &'m Mem,
    iovs: &[(u32, u32)],
    cap: u32,
) -> Result<std::borrow::Cow<'m, [u8]>, Errno> {
    let total = capped_total(iovs, cap) as usize;
    let mut nonempty = iovs.iter().filter(|&&(_, l)| l > 0);
    if let (Some(&(p, l)), None) = (nonempty.next(), nonempty.next()) {
        // One buffer (the usual case): borrowed, not copied.
        return Ok(std::borrow::Cow::Borrowed(
            mem.slice(p, l.min(total as u32))?,
        ));
    }
    let mut buf = Vec::with_capacity(total);
    for &(p, l) in iovs {
        let room = total - buf.len();
        if room == 0 {
            break;
        }
        buf.extend_from_slice(mem.slice(p, l.min(room as u32))?);
    }
    Ok(std::borrow::Cow::Owned(buf))
}

/// Append to stdout (failing past its cap) or stderr (keeping the first bytes, counting the
/// rest). The iovecs are already known to be in bounds.
fn write_stdio(
    st: &mut HostState,
    mem: &Mem,
    stdout: bool,
    iovs: &[(u32, u32)],
) -> Result<u64, Fail> {
    let total: u64 = iovs.iter().map(|&(_, l)| l as u64).sum();
    if stdout {
        if st.stdout.len() as u64 + total > st.limits.stdout_bytes as u64 {
            return Err(Fail::Stop(Stop::OutputLimit));
        }
        for &(p, l) in iovs {
            st.stdout.extend_from_slice(mem.slice(p, l)?);
        }
    } else {
        for &(p, l) in iovs {
            let s = mem.slice(p, l)?;
            let room = (st.limits.stderr_bytes as usize).saturating_sub(st.stderr.len());
            let keep = room.min(s.len());
            st.stderr.extend_from_slice(&s[..keep]);
            st.stderr_dropped += (s.len() - keep) as u64;
        }
    }
    st.charge_bytes(total);
    Ok(total)
}

fn write_to(
    st: &mut HostState,
    mem: &Mem,
    fd: i32,
    iovs: &[(u32, u32)],
    at: Option<u64>,
) -> Result<u64, Fail> {
    let cap = st.limits.io_bytes_per_call;
    match st.fds.get(fd)? {
        kind @ (Fd::Stdout | Fd::Stderr) => {
            st.fds.need(fd, RIGHT_FD_WRITE)?;
            // Every iovec is checked before any byte is taken, so a fault writes nothing.
            for &(p, l) in iovs {
                mem.slice(p, l)?;
            }
            write_stdio(st, mem, kind == Fd::Stdout, iovs)
        }
        Fd::File {
            node,
            pos,
            write,
            append,
            ..
        } => {
            if !write {
                return Err(Errno::Badf.into());
            }
            let positioned = if at.is_some() { RIGHT_FD_SEEK } else { 0 };
            st.fds.need(fd, RIGHT_FD_WRITE | positioned)?;
            let data = gather(mem, iovs, cap)?;
            let fs = st.fs_now()?;
            let old_len = fs.file_len(node)?;
            // In append mode every write goes to the end, `fd_pwrite` too (its offset is
            // ignored, as Linux's `pwrite` does, hence wasmtime-wasi; found by tests/wasi-diff).
            let offset = match at {
                _ if append => old_len,
                Some(off) => off,
                None => pos,
            };
            let n = fs.write_at(node, offset, &data)? as u64;
            // A write past the end zero-fills the gap: charge for every byte it made (a
            // write of nothing changes nothing, even past the end).
            let grown = if n == 0 {
                0
            } else {
                offset.saturating_add(n).saturating_sub(old_len)
            };
            if at.is_none() {
                if let Fd::File { pos, .. } = st.fds.get_mut(fd)? {
                    *pos = offset + n;
                }
            }
            st.charge_bytes(n.max(grown));
            Ok(n)
        }
        Fd::Dir { .. } => Err(Errno::Badf.into()),
        Fd::Stdin => Err(Errno::Badf.into()),
    }
}

pub(crate) fn fd_write(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    iovs: u32,
    n: u32,
    out: u32,
) -> CallResult {
    let list = iovecs(st, mem, iovs, n)?;
    let written = write_to(st, mem, fd, &list, None)?;
    mem.write_u32(out, written as u32)?;
    Ok(())
}

pub(crate) fn fd_pwrite(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    iovs: u32,
    n: u32,
    offset: u64,
    out: u32,
) -> CallResult {
    match st.fds.get(fd)? {
        Fd::File { .. } => {}
        Fd::Dir { .. } => return Err(Errno::Badf.into()),
        _ => return Err(Errno::Spipe.into()),
    }
    let list = iovecs(st, mem, iovs, n)?;
    let written = write_to(st, mem, fd, &list, Some(offset))?;
    mem.write_u32(out, written as u32)?;
    Ok(())
}

/// Read into the iovecs from a file node at `offset`; returns bytes read.
fn read_file(
    st: &mut HostState,
    mem: &mut Mem,
    node: NodeId,
    mut offset: u64,
    list: &[(u32, u32)],
) -> Result<u64, Errno> {
    let mut budget = st.limits.io_bytes_per_call as u64;
    let mut total = 0u64;
    let fs = st.fs.as_mut().ok_or(Errno::Badf)?;
    for &(p, l) in list {
        if budget == 0 {
            break;
        }
        // An empty iovec is skipped, not taken for the end of the read.
        let want = (l as u64).min(budget) as u32;
        if want == 0 {
            continue;
        }
        let buf = mem.slice_mut(p, want)?;
        let got = fs.read_at(node, offset, buf)? as u64;
        total += got;
        offset += got;
        budget -= got;
        if got < want as u64 {
            break;
        }
    }
    st.charge_bytes(total);
    Ok(total)
}

pub(crate) fn fd_read(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    iovs: u32,
    n: u32,
    out: u32,
) -> CallResult {
    let list = iovecs(st, mem, iovs, n)?;
    let got = match st.fds.get(fd)? {
        Fd::Stdin => {
            st.fds.need(fd, RIGHT_FD_READ)?;
            let mut total = 0u64;
            for &(p, l) in list.iter() {
                let rest = &st.stdin[st.stdin_pos..];
                let k = rest.len().min(l as usize);
                mem.slice_mut(p, k as u32)?.copy_from_slice(&rest[..k]);
                st.stdin_pos += k;
                total += k as u64;
                if k < l as usize {
                    break;
                }
            }
            st.charge_bytes(total);
            total
        }
        Fd::File {
            node, pos, read, ..
        } => {
            if !read {
                return Err(Errno::Badf.into());
            }
            st.fds.need(fd, RIGHT_FD_READ)?;
            let got = read_file(st, mem, node, pos, &list)?;
            if let Fd::File { pos, .. } = st.fds.get_mut(fd)? {
                *pos += got;
            }
            got
        }
        // Reading or writing a directory descriptor is `EBADF`, as in wasmtime-wasi (found by
        // tests/wasi-diff; POSIX would say EISDIR, but WASI has no read right on a folder).
        Fd::Dir { .. } => return Err(Errno::Badf.into()),
        Fd::Stdout | Fd::Stderr => return Err(Errno::Badf.into()),
    };
    mem.write_u32(out, got as u32)?;
    Ok(())
}

pub(crate) fn fd_pread(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    iovs: u32,
    n: u32,
    offset: u64,
    out: u32,
) -> CallResult {
    let list = iovecs(st, mem, iovs, n)?;
    let got = match st.fds.get(fd)? {
        Fd::File {
            node, read: true, ..
        } => {
            st.fds.need(fd, RIGHT_FD_READ | RIGHT_FD_SEEK)?;
            read_file(st, mem, node, offset, &list)?
        }
        Fd::File { .. } => return Err(Errno::Badf.into()),
        Fd::Dir { .. } => return Err(Errno::Badf.into()),
        _ => return Err(Errno::Spipe.into()),
    };
    mem.write_u32(out, got as u32)?;
    Ok(())
}

pub(crate) fn fd_seek(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    delta: i64,
    whence: u8,
    out: u32,
) -> CallResult {
    let (node, cur) = match st.fds.get(fd)? {
        Fd::File { node, pos, .. } => (node, pos),
        Fd::Dir { .. } => return Err(Errno::Badf.into()),
        _ => return Err(Errno::Spipe.into()),
    };
    // Only reading the position is telling; anything else is seeking.
    let right = if delta == 0 && whence == WHENCE_CUR {
        RIGHT_FD_TELL
    } else {
        RIGHT_FD_SEEK
    };
    st.fds.need(fd, right)?;
    let base = match whence {
        WHENCE_SET => 0,
        WHENCE_CUR => cur,
        WHENCE_END => st.fs()?.file_len(node)?,
        _ => return Err(Errno::Inval.into()),
    };
    let new = (base as i128) + (delta as i128);
    if new < 0 || new > i64::MAX as i128 {
        return Err(Errno::Inval.into());
    }
    if let Fd::File { pos, .. } = st.fds.get_mut(fd)? {
        *pos = new as u64;
    }
    mem.write_u64(out, new as u64)?;
    Ok(())
}

pub(crate) fn fd_tell(st: &mut HostState, mem: &mut Mem, fd: i32, out: u32) -> CallResult {
    match st.fds.get(fd)? {
        Fd::File { pos, .. } => {
            st.fds.need(fd, RIGHT_FD_TELL)?;
            Ok(mem.write_u64(out, pos)?)
        }
        Fd::Dir { .. } => Err(Errno::Badf.into()),
        _ => Err(Errno::Spipe.into()),
    }
}

pub(crate) fn fd_close(st: &mut HostState, fd: i32) -> CallResult {
    let closed = st.fds.remove(fd)?;
    let_go(st, closed);
    Ok(())
}

/// A descriptor to a node was closed: a removed node it kept alive may go (`Vfs::let_go`).
fn let_go(st: &mut HostState, closed: Fd) {
    if let (Fd::Dir { node, .. } | Fd::File { node, .. }, Some(fs)) = (closed, st.fs.as_mut()) {
        fs.let_go(node);
    }
}

/// `fd_sync`, `fd_datasync`: nothing to flush in memory, but the descriptor must exist and
/// hold the right (`FD_SYNC` or `FD_DATASYNC`).
pub(crate) fn fd_sync(st: &mut HostState, fd: i32, right: u64) -> CallResult {
    st.fds.need(fd, right)?;
    Ok(())
}

pub(crate) fn fd_advise(st: &mut HostState, fd: i32, advice: u8) -> CallResult {
    match st.fds.get(fd)? {
        Fd::File { .. } if advice <= 5 => Ok(st.fds.need(fd, RIGHT_FD_ADVISE)?),
        Fd::File { .. } => Err(Errno::Inval.into()),
        Fd::Dir { .. } => Err(Errno::Badf.into()),
        _ => Err(Errno::Spipe.into()),
    }
}

pub(crate) fn fd_fdstat_get(st: &mut HostState, mem: &mut Mem, fd: i32, out: u32) -> CallResult {
    let filetype = match st.fds.get(fd)? {
        Fd::Stdin | Fd::Stdout | Fd::Stderr => FILETYPE_UNKNOWN,
        Fd::Dir { .. } => FILETYPE_DIRECTORY,
        Fd::File { .. } => FILETYPE_REGULAR_FILE,
    };
    let meta = st.fds.meta(fd)?;
    let mut b = [0u8; FDSTAT_SIZE as usize];
    b[0] = filetype;
    b[2..4].copy_from_slice(&meta.flags.to_le_bytes());
    b[8..16].copy_from_slice(&meta.base.to_le_bytes());
    b[16..24].copy_from_slice(&meta.inheriting.to_le_bytes());
    mem.write(out, &b)?;
    Ok(())
}

/// Sets every fdflag; only `APPEND` changes what a descriptor does (in-memory data needs no
/// syncing and nothing blocks), the rest are kept so that `fd_fdstat_get` reports them.
pub(crate) fn fd_fdstat_set_flags(st: &mut HostState, fd: i32, flags: u16) -> CallResult {
    if flags & !FDFLAGS_KNOWN != 0 {
        return Err(Errno::Inval.into());
    }
    st.fds.need(fd, RIGHT_FD_FDSTAT_SET_FLAGS)?;
    if let Fd::File { append, .. } = st.fds.get_mut(fd)? {
        *append = flags & FDFLAG_APPEND != 0;
    }
    st.fds.meta_mut(fd)?.flags = flags;
    Ok(())
}

/// Rights only shrink: asking for one the descriptor does not hold is `ENOTCAPABLE`.
pub(crate) fn fd_fdstat_set_rights(
    st: &mut HostState,
    fd: i32,
    base: u64,
    inheriting: u64,
) -> CallResult {
    let meta = st.fds.meta_mut(fd)?;
    if base & !meta.base != 0 || inheriting & !meta.inheriting != 0 {
        return Err(Errno::Notcapable.into());
    }
    meta.base = base;
    meta.inheriting = inheriting;
    Ok(())
}

pub(crate) fn fd_filestat_get(st: &mut HostState, mem: &mut Mem, fd: i32, out: u32) -> CallResult {
    st.fds.need(fd, RIGHT_FD_FILESTAT_GET)?;
    match st.fds.get(fd)? {
        Fd::Stdin | Fd::Stdout | Fd::Stderr => {
            mem.write(out, &[0u8; FILESTAT_SIZE as usize])?;
            Ok(())
        }
        Fd::Dir { node, .. } | Fd::File { node, .. } => {
            let s = st.fs()?.stat(node).map_err(stale)?;
            write_filestat(mem, out, &s)?;
            Ok(())
        }
    }
}

/// A descriptor whose node was removed behaves as a bad descriptor.
fn stale(e: Errno) -> Errno {
    if e == Errno::Noent {
        Errno::Badf
    } else {
        e
    }
}

pub(crate) fn fd_filestat_set_size(st: &mut HostState, fd: i32, size: u64) -> CallResult {
    match st.fds.get(fd)? {
        Fd::File {
            node, write: true, ..
        } => {
            st.fds.need(fd, RIGHT_FD_FILESTAT_SET_SIZE)?;
            let fs = st.fs_now()?;
            let old = fs.file_len(node).map_err(stale)?;
            fs.set_len(node, size)?;
            // Growing zero-fills host memory: charge for it like a write.
            st.charge_bytes(size.saturating_sub(old));
            Ok(())
        }
        Fd::File { .. } => Err(Errno::Inval.into()),
        Fd::Dir { .. } => Err(Errno::Badf.into()),
        _ => Err(Errno::Inval.into()),
    }
}

pub(crate) fn fd_allocate(st: &mut HostState, fd: i32, offset: u64, len: u64) -> CallResult {
    match st.fds.get(fd)? {
        Fd::File {
            node, write: true, ..
        } => {
            st.fds.need(fd, RIGHT_FD_ALLOCATE)?;
            let end = offset.checked_add(len).ok_or(Errno::Fbig)?;
            let fs = st.fs_now()?;
            let old = fs.file_len(node).map_err(stale)?;
            if end > old {
                fs.set_len(node, end)?;
                st.charge_bytes(end - old);
            }
            Ok(())
        }
        Fd::File { .. } => Err(Errno::Badf.into()),
        Fd::Dir { .. } => Err(Errno::Badf.into()),
        _ => Err(Errno::Spipe.into()),
    }
}

/// Resolve `fst_flags` into the times to set, against the virtual clock.
pub(crate) fn times(
    st: &HostState,
    atim: u64,
    mtim: u64,
    flags: u16,
) -> Result<(Option<u64>, Option<u64>), Errno> {
    if flags & !(FST_ATIM | FST_ATIM_NOW | FST_MTIM | FST_MTIM_NOW) != 0
        || (flags & FST_ATIM != 0 && flags & FST_ATIM_NOW != 0)
        || (flags & FST_MTIM != 0 && flags & FST_MTIM_NOW != 0)
    {
        return Err(Errno::Inval);
    }
    let now = st.realtime_ns();
    let a = if flags & FST_ATIM_NOW != 0 {
        Some(now)
    } else if flags & FST_ATIM != 0 {
        Some(atim)
    } else {
        None
    };
    let m = if flags & FST_MTIM_NOW != 0 {
        Some(now)
    } else if flags & FST_MTIM != 0 {
        Some(mtim)
    } else {
        None
    };
    Ok((a, m))
}

pub(crate) fn fd_filestat_set_times(
    st: &mut HostState,
    fd: i32,
    atim: u64,
    mtim: u64,
    flags: u16,
) -> CallResult {
    let (a, m) = times(st, atim, mtim, flags)?;
    match st.fds.get(fd)? {
        Fd::Dir { node, .. } | Fd::File { node, .. } => {
            st.fds.need(fd, RIGHT_FD_FILESTAT_SET_TIMES)?;
            st.fs_now()?.set_times(node, a, m).map_err(stale)?;
            Ok(())
        }
        _ => Err(Errno::Badf.into()),
    }
}

pub(crate) fn fd_prestat_get(st: &mut HostState, mem: &mut Mem, fd: i32, out: u32) -> CallResult {
    match st.fds.get(fd)? {
        Fd::Dir { preopen: true, .. } => {
            // Tag 0 (a directory), then the length of its name, "/": checked whole first,
            // so a pointer near 2³² is EFAULT rather than a wrapped write.
            mem.slice(out, 8)?;
            mem.write_u32(out, 0)?;
            mem.write_u32(super::env::offset(out, 4)?, 1)?;
            Ok(())
        }
        _ => Err(Errno::Badf.into()),
    }
}

pub(crate) fn fd_prestat_dir_name(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    ptr: u32,
    len: u32,
) -> CallResult {
    match st.fds.get(fd)? {
        Fd::Dir { preopen: true, .. } => {
            if len < 1 {
                return Err(Errno::Nametoolong.into());
            }
            mem.write(ptr, b"/")?;
            Ok(())
        }
        _ => Err(Errno::Badf.into()),
    }
}

pub(crate) fn fd_readdir(
    st: &mut HostState,
    mem: &mut Mem,
    fd: i32,
    buf: u32,
    len: u32,
    cookie: u64,
    out: u32,
) -> CallResult {
    let node = match st.fds.get(fd)? {
        Fd::Dir { node, .. } => node,
        // Not a directory descriptor: `Badf`, as wasmtime-wasi says (found by tests/wasi-diff).
        _ => return Err(Errno::Badf.into()),
    };
    st.fds.need(fd, RIGHT_FD_READDIR)?;
    let fs = st.fs.as_ref().ok_or(Errno::Badf)?;
    let dest = mem.slice_mut(buf, len)?;
    let mut used = 0usize;
    fs.read_dir(node, cookie, |i, name, ino, file_type| {
        let mut header = [0u8; DIRENT_HEADER_SIZE];
        header[0..8].copy_from_slice(&(i + 1).to_le_bytes());
        header[8..16].copy_from_slice(&ino.to_le_bytes());
        header[16..20].copy_from_slice(&(name.len() as u32).to_le_bytes());
        header[20] = filetype_code(file_type);
        // Entries are cut at the end of the buffer; the guest sees a full buffer and asks again.
        for part in [&header[..], name] {
            let k = part.len().min(dest.len() - used);
            dest[used..used + k].copy_from_slice(&part[..k]);
            used += k;
        }
        used < dest.len()
    })
    .map_err(stale)?;
    st.charge_bytes(used as u64);
    mem.write_u32(out, used as u32)?;
    Ok(())
}

pub(crate) fn fd_renumber(st: &mut HostState, from: i32, to: i32) -> CallResult {
    if let Some(closed) = st.fds.renumber(from, to)? {
        let_go(st, closed);
    }
    Ok(())
}
