//! WASI preview 1 conformance, each case with its own small bot: where koth once departed
//! from what other runtimes do.

use crate::common::*;
use koth::sandbox::{Errno, Outcome};

/// Rights are a mask per descriptor type: a directory opens with `FD_WRITE` asked for (without
/// `O_DIRECTORY`), a directory never holds file rights, rights only shrink and a dropped right is refused;
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
        0,                      // open "." with FD_WRITE asked for, without O_DIRECTORY
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

/// A trailing slash on a symlink to a missing target is `ENOENT` for every call that resolves
/// it; `path_rename`, which never follows it (Linux's `renameat`, hence wasmtime-wasi), says
/// the source is not a directory.
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
        vec![
            0,
            noent,
            noent,
            noent,
            noent,
            noent,
            noent,
            errno(Errno::Notdir),
            0
        ]
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

/// A file or folder removed while a descriptor holds it keeps working through the descriptor
/// (reads, stat with no link left), a removed folder stays empty, and when the invocation ends
/// nothing of them is left, in the tree or in the quotas.
#[test]
fn a_removed_file_held_open_keeps_working_until_closed() {
    let sb = sandbox();
    let bot = load(&sb, "held_open");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0, 0, 0,                // create f, write "hello", unlink f
        0, 5,                   // pread through the descriptor: 5 bytes
        0, 0, 5,                // its stat: no link left, 5 bytes
        0, 0, 0,                // mkdir d, open it, rmdir d
        errno(Errno::Noent),    // create in the removed folder
        0,                      // close f
    ]);
    assert_eq!(d.snapshot(), vec![file("history.txt", HISTORY)]);
    assert_eq!((d.used_nodes(), d.used_bytes()), (0, 0));
    assert_host_unharmed(&sb);
}

/// `APPEND` without `FD_WRITE` is a read-only descriptor (`EBADF` to write, `EINVAL` to
/// truncate), and in append mode `fd_pwrite` appends whatever its offset.
#[test]
fn append_is_not_a_write_right_and_pwrite_appends() {
    let sb = sandbox();
    let bot = load(&sb, "append_rights");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0, errno(Errno::Badf), errno(Errno::Inval), // APPEND, read only: write, truncate
        0, 0,                                       // APPEND and FD_WRITE: pwrite at 0
    ]);
    assert_eq!(d.snapshot(), vec![file("history.txt", b"I\nXY")]);
}

/// The highest free descriptor number is reused first, as wasmtime-wasi does.
#[test]
fn the_highest_free_descriptor_is_reused_first() {
    let sb = sandbox();
    let bot = load(&sb, "fd_numbers");
    let r = run(&bot, &mut coup_dir());
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    assert_eq!(values(&r), vec![4, 5, 6, 0, 0, 5, 4]);
}

/// Trailing slashes, dots and links give the errnos Linux and wasmtime-wasi agree on (or, where
/// they differ only in the errno, wasmtime-wasi's), and `O_CREAT` through a dangling link
/// creates its target.
#[test]
fn slashes_dots_and_links_answer_as_wasmtime_wasi() {
    let sb = sandbox();
    let bot = load(&sb, "slash_errnos");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let lp = errno(Errno::Loop);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0, errno(Errno::Notdir),    // mkdir n/, symlink at history.txt/
        0, lp, lp,                  // loop -> loop: symlink at loop/, unlink loop/
        errno(Errno::Busy),         // rename n/. to x
        errno(Errno::Inval),        // rmdir .
        errno(Errno::Isdir),        // unlink .
        0, lp,                      // s -> history.txt: O_DIRECTORY without following
        0, 0,                       // dl -> z: O_CREAT through dl
        0, errno(Errno::Notempty),  // n/f: rename it onto n
    ]);
    assert_eq!(
        d.snapshot(),
        vec![
            symlink("dl", "z"),
            file("history.txt", HISTORY),
            symlink("loop", "loop"),
            dir("n"),
            file("n/f", b""),
            symlink("s", "history.txt"),
            file("z", b""),
        ]
    );
    assert_host_unharmed(&sb);
}

/// `path_open` with `O_DIRECTORY` and `FD_WRITE` is `EISDIR` (of a folder, the preopen, a
/// followed link to one, and whatever the parent descriptor passes on), as wasmtime-wasi and
/// POSIX answer; it stays `ENOTDIR`, `ENOENT` or `ELOOP` where the name is no folder; the
/// same folder opens without `FD_WRITE`, and without `O_DIRECTORY` (rights are a mask).
/// `tests/wasi-diff` runs the same bot under wasmtime-wasi.
#[test]
fn a_directory_asked_for_with_the_write_right_is_eisdir() {
    let sb = sandbox();
    let bot = load(&sb, "dir_write_rights");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let isdir = errno(Errno::Isdir);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0,                      // mkdir d
        isdir, isdir,           // d, O_DIRECTORY, FD_WRITE / every right
        0, 0,                   // d, O_DIRECTORY, FD_READDIR: opens; close
        isdir,                  // ".", O_DIRECTORY, FD_WRITE
        0, 0,                   // create f; close
        errno(Errno::Notdir),   // f, O_DIRECTORY, FD_WRITE
        errno(Errno::Noent),    // a missing name
        0, isdir,               // ld -> d; followed
        errno(Errno::Loop),     // not followed
        0, isdir, 0, 0,         // from a folder passing no right on: still EISDIR; without FD_WRITE opens
        0, errno(Errno::Badf), 0, // d with FD_WRITE, without O_DIRECTORY: opens, not writable
    ]);
    assert_eq!(
        d.snapshot(),
        vec![
            dir("d"),
            file("f", b""),
            file("history.txt", HISTORY),
            symlink("ld", "d"),
        ]
    );
    assert_host_unharmed(&sb);
}

/// `path_symlink` with an absolute target is `EPERM` (wasmtime-wasi's answer), before the new
/// name is looked at, and makes nothing; a target that is not UTF-8 is `EILSEQ` first; a
/// relative target still works. `tests/wasi-diff` runs the same bot under wasmtime-wasi.
#[test]
fn an_absolute_symlink_target_is_refused_with_eperm() {
    let sb = sandbox();
    let bot = load(&sb, "symlink_absolute_target");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let perm = errno(Errno::Perm);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        0, 0,                   // create f; close
        perm, perm, perm, perm, // "/", "/etc/passwd", "//x", "/.."
        perm, perm,             // at an existing name, at an absolute name
        errno(Errno::Ilseq),    // "/\xff"
        0,                      // rel -> a
        errno(Errno::Noent),    // nothing at r
        0, 1,                   // readlink rel
    ]);
    assert_eq!(
        d.snapshot(),
        vec![
            file("f", b""),
            file("history.txt", HISTORY),
            symlink("rel", "a"),
        ]
    );
    assert_host_unharmed(&sb);
}
