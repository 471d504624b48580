//! WASI preview 1 conformance, each case with its own small bot: where koth once departed
//! from what other runtimes do.

use crate::common::*;
use koth::sandbox::{Errno, Outcome};

/// Rights are a mask per descriptor type: a directory opens with `FD_WRITE` asked for, a
/// directory never holds file rights, rights only shrink and a dropped right is refused;
/// fdflags are reported as opened; `O_CREAT|O_EXCL` of a folder is `EEXIST`.
#[test]
fn rights_are_modelled_per_type_and_only_shrink() {
    let sb = sandbox();
    let bot = load(&sb, "rights");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let nc = errno(Errno::Notcapable);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0,                      // open "." with O_DIRECTORY and FD_WRITE asked for
        3, 0, 0x2000,           // a directory; no read/seek/write/set-size; PATH_OPEN
        0, 0x1a,                // a file opened SYNC|DSYNC|RSYNC, reported so
        0x44,                   // FD_SEEK and FD_WRITE, no PATH_OPEN
        0, nc, 0,               // drop FD_SEEK: seek refused, tell works
        nc,                     // FD_SEEK cannot come back
        0, nc,                  // drop FD_WRITE: write refused
        0, nc,                  // the directory drops PATH_OPEN: open through it refused
        0, errno(Errno::Exist), // O_CREAT|O_EXCL of an existing folder
    ]);
    assert_host_unharmed(&sb);
}

/// A trailing slash on a symlink to a missing target is `ENOENT` for every call.
#[test]
fn trailing_slash_on_a_dangling_symlink_is_enoent() {
    let sb = sandbox();
    let bot = load(&sb, "dangling_slash");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let noent = errno(Errno::Noent);
    assert_eq!(
        values(&r),
        vec![0, noent, noent, noent, noent, noent, noent, noent, 0]
    );
    assert_eq!(d.snapshot(), vec![file("history.txt", HISTORY)]);
    assert_host_unharmed(&sb);
}

/// With a full 4 GiB memory, arrays that would run past 2³² are `EFAULT` in `args_get`,
/// `poll_oneoff` and `fd_prestat_get` rather than wrapping to the bottom of memory.
#[test]
fn pointer_arithmetic_never_wraps_past_4_gib() {
    let four_gib = 4u64 << 30;
    let sb = koth::sandbox::Sandbox::new(koth::sandbox::SandboxOptions {
        engine: koth::sandbox::EngineOptions {
            pooling: false,
            max_memory_bytes: four_gib,
            ..Default::default()
        },
        ..Default::default()
    })
    .expect("sandbox");
    let bot = load(&sb, "wrap_4gib");
    let r = bot.invoke(
        &invocation_with(koth::sandbox::Limits {
            memory_bytes: four_gib,
            ..Default::default()
        }),
        Some(&mut coup_dir()),
    );
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let fault = errno(Errno::Fault);
    assert_eq!(values(&r), vec![1, fault, fault, fault, fault, fault, 0]);
}

/// An empty first iovec does not end `fd_read` or `fd_pread` early.
#[test]
fn an_empty_first_iovec_does_not_end_a_read() {
    let sb = sandbox();
    let bot = load(&sb, "empty_iovec");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(values(&r), vec![0, 0, 2, 0, 2]);
}

/// Found by the differential test against wasmtime-wasi: `O_DIRECTORY` with `O_CREAT`,
/// `O_EXCL` or `O_TRUNC` is `EINVAL` before any lookup; `fd_readdir` of a file and `fd_read`
/// or `fd_filestat_set_size` of a folder are `EBADF`; `O_CREAT` of a folder is `EISDIR`; `O_CREAT|O_EXCL` of a symlink
/// is `EEXIST`.
#[test]
fn wasmtime_wasi_agreements_found_by_the_differential_test() {
    let sb = sandbox();
    let bot = load(&sb, "wasi_diff_found");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let inval = errno(Errno::Inval);
    let badf = errno(Errno::Badf);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        inval, inval, inval,    // O_DIRECTORY with O_CREAT, O_EXCL, O_TRUNC
        0, badf,                // fd_readdir of a file
        errno(Errno::Isdir),    // O_CREAT of an existing folder
        0, badf, badf,          // fd_read and fd_filestat_set_size of a folder
        0, errno(Errno::Exist), // O_CREAT|O_EXCL of a symlink
    ]);
    assert_eq!(
        d.snapshot(),
        vec![file("history.txt", HISTORY), symlink("s", "history.txt")]
    );
    assert_host_unharmed(&sb);
}
