//! koth's own implementation of WASI preview 1 over the in-memory virtual directory.
//!
//! Why not wasmtime-wasi: its preview-1 layer works on real host directories, so exact quotas
//! at the write, normalised metadata, sorted listings and a clock that never blocks would all
//! be bolted on from outside, and every file call would be a syscall (the measured cost that
//! kept it above 40 µs per invocation). Here every call is a bounds-checked copy into or out
//! of host memory that the bot's quota caps.

pub(crate) mod abi;
mod env;
pub(crate) mod fds;
mod io;
mod mem;
mod path;
pub(crate) mod state;

use crate::sandbox::errno::Errno;
use crate::sandbox::vfs::Vfs;
use abi::MODULE;
use mem::Mem;
use state::{CallResult, Fail, HostState, Stop, HOST_CALL_FUEL};
use wasmtime::{Caller, Extern, Linker};

/// Run one host call: find memory, charge fuel, map the result to an errno or a stop.
fn call<F>(caller: &mut Caller<'_, HostState>, body: F) -> wasmtime::Result<i32>
where
    F: FnOnce(&mut HostState, &mut Mem) -> CallResult,
{
    let fuel_left = caller.get_fuel()?;
    let memory = match caller.data().memory {
        Some(m) => m,
        // A start function may call WASI before koth has looked the memory up.
        None => match caller.get_export("memory") {
            Some(Extern::Memory(m)) => {
                caller.data_mut().memory = Some(m);
                m
            }
            _ => return Err(wasmtime::Error::new(Stop::NoMemory)),
        },
    };
    let (bytes, st) = memory.data_and_store_mut(&mut *caller);
    st.fuel_left = fuel_left;
    st.pending_fuel = 0;
    let result = body(st, &mut Mem(bytes));
    // The virtual directory's own work (paths walked, links followed, entries listed, nodes
    // moved) is charged on top of the bytes the call moved.
    let vfs_work = st.fs.as_ref().map_or(0, Vfs::take_work);
    let cost = HOST_CALL_FUEL
        .saturating_add(st.pending_fuel)
        .saturating_add(vfs_work);
    if cost > fuel_left {
        caller.set_fuel(0)?;
        return Err(wasmtime::Error::new(Stop::OutOfFuel));
    }
    caller.set_fuel(fuel_left - cost)?;
    match result {
        Ok(()) => Ok(0),
        Err(Fail::Errno(e)) => Ok(e.raw()),
        Err(Fail::Stop(s)) => Err(wasmtime::Error::new(s)),
    }
}

/// A 16-bit flags argument; bits above 16 are invalid.
fn u16_arg(v: u32) -> Result<u16, Errno> {
    u16::try_from(v).map_err(|_| Errno::Inval)
}

/// Define every preview-1 function in `linker`.
pub(crate) fn add_to_linker(linker: &mut Linker<HostState>) -> wasmtime::Result<()> {
    type C<'a> = Caller<'a, HostState>;
    let l = linker;
    l.func_wrap(MODULE, "args_get", |mut c: C, argv: u32, buf: u32| {
        call(&mut c, |st, m| env::args_get(st, m, argv, buf))
    })?;
    l.func_wrap(MODULE, "args_sizes_get", |mut c: C, n: u32, size: u32| {
        call(&mut c, |st, m| env::args_sizes_get(st, m, n, size))
    })?;
    l.func_wrap(MODULE, "environ_get", |mut c: C, _env: u32, _buf: u32| {
        call(&mut c, |_, _| Ok(()))
    })?;
    l.func_wrap(
        MODULE,
        "environ_sizes_get",
        |mut c: C, n: u32, size: u32| call(&mut c, |_, m| env::environ_sizes_get(m, n, size)),
    )?;
    l.func_wrap(MODULE, "clock_res_get", |mut c: C, id: u32, out: u32| {
        call(&mut c, |_, m| env::clock_res_get(m, id, out))
    })?;
    l.func_wrap(
        MODULE,
        "clock_time_get",
        |mut c: C, id: u32, _precision: u64, out: u32| {
            call(&mut c, |st, m| env::clock_time_get(st, m, id, out))
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_advise",
        |mut c: C, fd: u32, _off: u64, _len: u64, advice: u32| {
            call(&mut c, |st, _| {
                io::fd_advise(st, fd as i32, advice.min(255) as u8)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_allocate",
        |mut c: C, fd: u32, off: u64, len: u64| {
            call(&mut c, |st, _| io::fd_allocate(st, fd as i32, off, len))
        },
    )?;
    l.func_wrap(MODULE, "fd_close", |mut c: C, fd: u32| {
        call(&mut c, |st, _| io::fd_close(st, fd as i32))
    })?;
    l.func_wrap(MODULE, "fd_datasync", |mut c: C, fd: u32| {
        call(&mut c, |st, _| {
            io::fd_sync(st, fd as i32, abi::RIGHT_FD_DATASYNC)
        })
    })?;
    l.func_wrap(MODULE, "fd_fdstat_get", |mut c: C, fd: u32, out: u32| {
        call(&mut c, |st, m| io::fd_fdstat_get(st, m, fd as i32, out))
    })?;
    l.func_wrap(
        MODULE,
        "fd_fdstat_set_flags",
        |mut c: C, fd: u32, flags: u32| {
            call(&mut c, |st, _| {
                io::fd_fdstat_set_flags(st, fd as i32, u16_arg(flags)?)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_fdstat_set_rights",
        |mut c: C, fd: u32, base: u64, inh: u64| {
            call(&mut c, |st, _| {
                io::fd_fdstat_set_rights(st, fd as i32, base, inh)
            })
        },
    )?;
    l.func_wrap(MODULE, "fd_filestat_get", |mut c: C, fd: u32, out: u32| {
        call(&mut c, |st, m| io::fd_filestat_get(st, m, fd as i32, out))
    })?;
    l.func_wrap(
        MODULE,
        "fd_filestat_set_size",
        |mut c: C, fd: u32, size: u64| {
            call(&mut c, |st, _| {
                io::fd_filestat_set_size(st, fd as i32, size)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_filestat_set_times",
        |mut c: C, fd: u32, atim: u64, mtim: u64, flags: u32| {
            call(&mut c, |st, _| {
                io::fd_filestat_set_times(st, fd as i32, atim, mtim, u16_arg(flags)?)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_pread",
        |mut c: C, fd: u32, iovs: u32, n: u32, off: u64, out: u32| {
            call(&mut c, |st, m| {
                io::fd_pread(st, m, fd as i32, iovs, n, off, out)
            })
        },
    )?;
    l.func_wrap(MODULE, "fd_prestat_get", |mut c: C, fd: u32, out: u32| {
        call(&mut c, |st, m| io::fd_prestat_get(st, m, fd as i32, out))
    })?;
    l.func_wrap(
        MODULE,
        "fd_prestat_dir_name",
        |mut c: C, fd: u32, p: u32, len: u32| {
            call(&mut c, |st, m| {
                io::fd_prestat_dir_name(st, m, fd as i32, p, len)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_pwrite",
        |mut c: C, fd: u32, iovs: u32, n: u32, off: u64, out: u32| {
            call(&mut c, |st, m| {
                io::fd_pwrite(st, m, fd as i32, iovs, n, off, out)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_read",
        |mut c: C, fd: u32, iovs: u32, n: u32, out: u32| {
            call(&mut c, |st, m| io::fd_read(st, m, fd as i32, iovs, n, out))
        },
    )?;
    l.func_wrap(
        MODULE,
        "fd_readdir",
        |mut c: C, fd: u32, buf: u32, len: u32, cookie: u64, out: u32| {
            call(&mut c, |st, m| {
                io::fd_readdir(st, m, fd as i32, buf, len, cookie, out)
            })
        },
    )?;
    l.func_wrap(MODULE, "fd_renumber", |mut c: C, from: u32, to: u32| {
        call(&mut c, |st, _| io::fd_renumber(st, from as i32, to as i32))
    })?;
    l.func_wrap(
        MODULE,
        "fd_seek",
        |mut c: C, fd: u32, delta: i64, whence: u32, out: u32| {
            call(&mut c, |st, m| {
                io::fd_seek(st, m, fd as i32, delta, whence.min(255) as u8, out)
            })
        },
    )?;
    l.func_wrap(MODULE, "fd_sync", |mut c: C, fd: u32| {
        call(&mut c, |st, _| {
            io::fd_sync(st, fd as i32, abi::RIGHT_FD_SYNC)
        })
    })?;
    l.func_wrap(MODULE, "fd_tell", |mut c: C, fd: u32, out: u32| {
        call(&mut c, |st, m| io::fd_tell(st, m, fd as i32, out))
    })?;
    l.func_wrap(
        MODULE,
        "fd_write",
        |mut c: C, fd: u32, iovs: u32, n: u32, out: u32| {
            call(&mut c, |st, m| io::fd_write(st, m, fd as i32, iovs, n, out))
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_create_directory",
        |mut c: C, fd: u32, p: u32, len: u32| {
            call(&mut c, |st, m| {
                path::change_path(
                    st,
                    m,
                    fd as i32,
                    p,
                    len,
                    abi::RIGHT_PATH_CREATE_DIRECTORY,
                    Vfs::mkdir,
                )
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_filestat_get",
        |mut c: C, fd: u32, flags: u32, p: u32, len: u32, out: u32| {
            call(&mut c, |st, m| {
                path::path_filestat_get(st, m, fd as i32, flags, p, len, out)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_filestat_set_times",
        |mut c: C, fd: u32, flags: u32, p: u32, len: u32, atim: u64, mtim: u64, fst: u32| {
            call(&mut c, |st, m| {
                path::path_filestat_set_times(
                    st,
                    m,
                    fd as i32,
                    flags,
                    p,
                    len,
                    atim,
                    mtim,
                    u16_arg(fst)?,
                )
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_link",
        |mut c: C, fd: u32, _flags: u32, _p: u32, _len: u32, new_fd: u32, _np: u32, _nlen: u32| {
            call(&mut c, |st, _| {
                path::path_link(st, fd as i32, new_fd as i32)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_open",
        |mut c: C,
         fd: u32,
         lookup: u32,
         p: u32,
         len: u32,
         oflags: u32,
         base: u64,
         inh: u64,
         fdflags: u32,
         out: u32| {
            call(&mut c, |st, m| {
                path::path_open(
                    st,
                    m,
                    fd as i32,
                    lookup,
                    p,
                    len,
                    u16_arg(oflags)?,
                    base,
                    inh,
                    u16_arg(fdflags)?,
                    out,
                )
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_readlink",
        |mut c: C, fd: u32, p: u32, len: u32, buf: u32, buf_len: u32, out: u32| {
            call(&mut c, |st, m| {
                path::path_readlink(st, m, fd as i32, p, len, buf, buf_len, out)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_remove_directory",
        |mut c: C, fd: u32, p: u32, len: u32| {
            call(&mut c, |st, m| {
                path::change_path(
                    st,
                    m,
                    fd as i32,
                    p,
                    len,
                    abi::RIGHT_PATH_REMOVE_DIRECTORY,
                    Vfs::rmdir,
                )
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_rename",
        |mut c: C, fd: u32, p: u32, len: u32, new_fd: u32, np: u32, nlen: u32| {
            call(&mut c, |st, m| {
                path::path_rename(st, m, fd as i32, p, len, new_fd as i32, np, nlen)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_symlink",
        |mut c: C, t: u32, tlen: u32, fd: u32, p: u32, len: u32| {
            call(&mut c, |st, m| {
                path::path_symlink(st, m, t, tlen, fd as i32, p, len)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "path_unlink_file",
        |mut c: C, fd: u32, p: u32, len: u32| {
            call(&mut c, |st, m| {
                path::change_path(
                    st,
                    m,
                    fd as i32,
                    p,
                    len,
                    abi::RIGHT_PATH_UNLINK_FILE,
                    Vfs::unlink,
                )
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "poll_oneoff",
        |mut c: C, input: u32, output: u32, n: u32, out: u32| {
            call(&mut c, |st, m| {
                env::poll_oneoff(st, m, input, output, n, out)
            })
        },
    )?;
    l.func_wrap(
        MODULE,
        "proc_exit",
        |mut c: C, code: u32| -> wasmtime::Result<()> {
            call(&mut c, |_, _| env::proc_exit(code)).map(|_| ())
        },
    )?;
    l.func_wrap(MODULE, "proc_raise", |mut c: C, _sig: u32| {
        call(&mut c, |_, _| Err(Errno::Nosys.into()))
    })?;
    l.func_wrap(MODULE, "sched_yield", |mut c: C| {
        call(&mut c, |_, _| Ok(()))
    })?;
    l.func_wrap(MODULE, "random_get", |mut c: C, buf: u32, len: u32| {
        call(&mut c, |st, m| env::random_get(st, m, buf, len))
    })?;
    l.func_wrap(
        MODULE,
        "sock_accept",
        |mut c: C, fd: u32, _flags: u32, _out: u32| call(&mut c, |st, _| env::sock(st, fd as i32)),
    )?;
    l.func_wrap(
        MODULE,
        "sock_recv",
        |mut c: C, fd: u32, _d: u32, _dl: u32, _f: u32, _o1: u32, _o2: u32| {
            call(&mut c, |st, _| env::sock(st, fd as i32))
        },
    )?;
    l.func_wrap(
        MODULE,
        "sock_send",
        |mut c: C, fd: u32, _d: u32, _dl: u32, _f: u32, _o: u32| {
            call(&mut c, |st, _| env::sock(st, fd as i32))
        },
    )?;
    l.func_wrap(MODULE, "sock_shutdown", |mut c: C, fd: u32, _how: u32| {
        call(&mut c, |st, _| env::sock(st, fd as i32))
    })?;
    Ok(())
}
