//! Arguments, environment, clocks, randomness, polling, exit and the socket stubs.

use super::abi::*;
use super::fds::Fd;
use super::mem::Mem;
use super::state::{CallResult, HostState, Stop, ARG_FUEL, SUBSCRIPTION_FUEL};
use crate::sandbox::errno::Errno;
use rand_core::RngCore;

pub(crate) fn args_sizes_get(
    st: &mut HostState,
    mem: &mut Mem,
    count: u32,
    size: u32,
) -> CallResult {
    st.charge_fuel(st.args.len() as u64 * ARG_FUEL);
    mem.write_u32(count, st.args.len() as u32)?;
    mem.write_u32(size, st.args.bytes().len() as u32)?;
    Ok(())
}

/// `ptr + off` in guest address space, or `EFAULT` where it would wrap past 2³²: the
/// guest's arrays end inside its memory or not at all.
pub(crate) fn offset(ptr: u32, off: u64) -> Result<u32, Errno> {
    u32::try_from(u64::from(ptr) + off).map_err(|_| Errno::Fault)
}

pub(crate) fn args_get(st: &mut HostState, mem: &mut Mem, argv: u32, buf: u32) -> CallResult {
    let bytes = st.args.bytes().len() as u64;
    st.charge_fuel(st.args.len() as u64 * ARG_FUEL + bytes);
    // Both arrays are checked whole before anything is written.
    mem.slice(argv, offset(0, st.args.len() as u64 * 4)?)?;
    mem.slice(buf, offset(0, bytes)?)?;
    // Pointer, then string: the order matters when a guest makes the two arrays overlap.
    let all = st.args.bytes();
    let starts = st.args.starts();
    for (i, &start) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(all.len(), |&e| e as usize);
        let at = offset(buf, u64::from(start))?;
        mem.write_u32(offset(argv, 4 * i as u64)?, at)?;
        mem.write(at, &all[start as usize..end])?;
    }
    Ok(())
}

/// The environment is empty.
pub(crate) fn environ_sizes_get(mem: &mut Mem, count: u32, size: u32) -> CallResult {
    mem.write_u32(count, 0)?;
    mem.write_u32(size, 0)?;
    Ok(())
}

pub(crate) fn clock_res_get(mem: &mut Mem, id: u32, out: u32) -> CallResult {
    if id > CLOCK_THREAD_CPUTIME {
        return Err(Errno::Inval.into());
    }
    mem.write_u64(out, 1)?;
    Ok(())
}

/// The value of a virtual clock, or `EINVAL` for an unknown id.
fn clock_now(st: &HostState, id: u32) -> Result<u64, Errno> {
    match id {
        CLOCK_REALTIME => Ok(st.realtime_ns()),
        CLOCK_MONOTONIC => Ok(st.monotonic_ns()),
        CLOCK_PROCESS_CPUTIME | CLOCK_THREAD_CPUTIME => Ok(st.elapsed_ns()),
        _ => Err(Errno::Inval),
    }
}

pub(crate) fn clock_time_get(st: &mut HostState, mem: &mut Mem, id: u32, out: u32) -> CallResult {
    let now = clock_now(st, id)?;
    mem.write_u64(out, now)?;
    Ok(())
}

pub(crate) fn random_get(st: &mut HostState, mem: &mut Mem, buf: u32, len: u32) -> CallResult {
    if len > st.limits.random_bytes_per_call {
        return Err(Errno::Inval.into());
    }
    let dest = mem.slice_mut(buf, len)?;
    st.rng().fill_bytes(dest);
    st.charge_bytes(len as u64);
    Ok(())
}

/// One subscription read from guest memory.
struct Sub {
    userdata: u64,
    tag: u8,
    clock_id: u32,
    timeout: u64,
    flags: u16,
    fd: i32,
}

fn read_sub(mem: &Mem, at: u32) -> Result<Sub, Errno> {
    let raw = mem.slice(at, SUBSCRIPTION_SIZE)?;
    let u64_at = |i: usize| u64::from_le_bytes(raw[i..i + 8].try_into().unwrap_or([0; 8]));
    let u32_at = |i: usize| u32::from_le_bytes(raw[i..i + 4].try_into().unwrap_or([0; 4]));
    Ok(Sub {
        userdata: u64_at(0),
        tag: raw[8],
        clock_id: u32_at(16),
        timeout: u64_at(24),
        flags: u16::from_le_bytes([raw[40], raw[41]]),
        fd: u32_at(16) as i32,
    })
}

fn write_event(
    mem: &mut Mem,
    at: u32,
    userdata: u64,
    error: Errno,
    kind: u8,
    nbytes: u64,
) -> Result<(), Errno> {
    let mut b = [0u8; EVENT_SIZE as usize];
    b[0..8].copy_from_slice(&userdata.to_le_bytes());
    b[8..10].copy_from_slice(&(error.raw() as u16).to_le_bytes());
    b[10] = kind;
    b[16..24].copy_from_slice(&nbytes.to_le_bytes());
    mem.write(at, &b)
}

/// `poll_oneoff` never blocks: descriptors are always ready (everything is in memory), and a
/// clock subscription is satisfied by advancing the virtual clock to its deadline at once.
pub(crate) fn poll_oneoff(
    st: &mut HostState,
    mem: &mut Mem,
    input: u32,
    output: u32,
    n: u32,
    out_n: u32,
) -> CallResult {
    if n == 0 || n > MAX_SUBSCRIPTIONS {
        return Err(Errno::Inval.into());
    }
    st.charge_fuel(u64::from(n) * SUBSCRIPTION_FUEL);
    // Both arrays are checked whole first: one that would wrap past 2³² is EFAULT.
    mem.slice(
        input,
        offset(0, u64::from(n) * u64::from(SUBSCRIPTION_SIZE))?,
    )?;
    mem.slice(output, offset(0, u64::from(n) * u64::from(EVENT_SIZE))?)?;
    let subs = (0..n)
        .map(|i| read_sub(mem, offset(input, u64::from(i * SUBSCRIPTION_SIZE))?))
        .collect::<Result<Vec<_>, _>>()?;
    let mut events = 0u32;
    for s in subs
        .iter()
        .filter(|s| s.tag == EVENTTYPE_FD_READ || s.tag == EVENTTYPE_FD_WRITE)
    {
        let (err, nbytes) = match (st.fds.get(s.fd), s.tag) {
            (Err(e), _) => (e, 0),
            (Ok(_), _) if st.fds.need(s.fd, RIGHT_POLL_FD_READWRITE).is_err() => {
                (Errno::Notcapable, 0)
            }
            (Ok(Fd::Stdin), EVENTTYPE_FD_READ) => {
                (Errno::Success, (st.stdin.len() - st.stdin_pos) as u64)
            }
            (Ok(Fd::File { node, pos, .. }), EVENTTYPE_FD_READ) => {
                let len = st.fs()?.file_len(node).unwrap_or(0);
                (Errno::Success, len.saturating_sub(pos))
            }
            (Ok(Fd::Dir { .. }), _) => (Errno::Badf, 0),
            _ => (Errno::Success, 0),
        };
        write_event(
            mem,
            offset(output, u64::from(events * EVENT_SIZE))?,
            s.userdata,
            err,
            s.tag,
            nbytes,
        )?;
        events += 1;
    }
    if events == 0 {
        // Sleep: the earliest clock deadline fires; time jumps there.
        let mut deadlines = Vec::with_capacity(subs.len());
        for s in &subs {
            if s.tag != EVENTTYPE_CLOCK {
                return Err(Errno::Inval.into());
            }
            let deadline = clock_now(st, s.clock_id).map(|now| {
                if s.flags & SUBCLOCK_ABSTIME != 0 {
                    s.timeout.saturating_sub(now)
                } else {
                    s.timeout
                }
            });
            deadlines.push(deadline);
        }
        let wait = deadlines.iter().filter_map(|d| d.ok()).min().unwrap_or(0);
        st.slept_ns = st.slept_ns.saturating_add(wait);
        for (s, d) in subs.iter().zip(&deadlines) {
            let (fired, err) = match d {
                Ok(w) => (*w <= wait, Errno::Success),
                Err(e) => (true, *e),
            };
            if fired {
                write_event(
                    mem,
                    offset(output, u64::from(events * EVENT_SIZE))?,
                    s.userdata,
                    err,
                    EVENTTYPE_CLOCK,
                    0,
                )?;
                events += 1;
            }
        }
    }
    mem.write_u32(out_n, events)?;
    Ok(())
}

pub(crate) fn proc_exit(code: u32) -> CallResult {
    Err(Stop::Exit(code).into())
}

/// Sockets do not exist: any descriptor is not a socket.
pub(crate) fn sock(st: &mut HostState, fd: i32) -> CallResult {
    st.fds.get(fd)?;
    Err(Errno::Notsock.into())
}
