//! Attacks on the virtual directory's boundary: `..`, absolute paths, symlinks in and out,
//! trailing slashes, names that would corrupt the host's logs, bait for the host, and other
//! bots' files.

use crate::common::*;
use koth::sandbox::{Errno, Outcome, Vfs, VfsLimits};

/// Run `name` in a fresh Coup directory: it must end `ok`; returns its values and directory.
fn run_in_coup_dir(name: &str) -> (Vec<i64>, Vfs) {
    let sb = sandbox();
    let bot = load(&sb, name);
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{name}: {r:?}");
    assert!(
        r.stderr.is_empty(),
        "{name}: {}",
        String::from_utf8_lossy(&r.stderr)
    );
    assert_host_unharmed(&sb);
    (values(&r), d)
}

#[test]
fn dotdot_absolute_paths_and_escapes_stay_inside() {
    let (v, d) = run_in_coup_dir("escape_paths");
    let nc = errno(Errno::Notcapable);
    let badf = errno(Errno::Badf);
    // Absolute paths are ENOTCAPABLE at the WASI level, as in every standard runtime (libc
    // resolves `/history.txt` against the preopen before calling WASI).
    #[rustfmt::skip]
    assert_eq!(v, vec![
        nc, nc,                     // "..", "/etc/passwd"
        0, nc, nc,                  // mkdir a; a/../../x, and with O_CREAT
        nc, nc,                     // ../history.txt, /../history.txt
        0, 0, 2,                    // a/../history.txt: open, read, 2 bytes
        nc, 0,                      // /history.txt, ./history.txt
        nc,                         // stat ..
        0, nc,                      // a/.., a/../..
        0, nc, nc, nc, nc,          // from a's descriptor: open a; ../.., .., ../history.txt,
                                    // /history.txt: a descriptor is a capability for its subtree
        nc, nc, errno(Errno::Badf), // mkdir /etc, create /etc/passwd; the write goes to a's fd
        nc, nc, nc, nc,             // rename, unlink, mkdir, symlink above the root
        badf, badf, errno(Errno::Notdir), // base: stdin, 99, a file
    ]);
    // Nothing was created but `a`.
    assert_eq!(d.snapshot(), vec![dir("a"), file("history.txt", HISTORY)]);
    assert_eq!(d.host_file("history.txt"), Some(HISTORY));
    assert_eq!((d.used_nodes(), d.used_bytes()), (1, 0));
}

/// A symlink with an absolute target is never made (`EPERM`, as wasmtime-wasi answers), so
/// nothing can be opened, stat'ed or read through one. (Following one, were it there, is
/// `ENOTCAPABLE`: the virtual directory's own tests.)
#[test]
fn absolute_symlinks_are_never_made() {
    let (v, d) = run_in_coup_dir("symlink_absolute");
    let perm = errno(Errno::Perm);
    let noent = errno(Errno::Noent);
    #[rustfmt::skip]
    assert_eq!(v, vec![
        perm, noent, 0, 0, 0,       // abs -> /history.txt: refused, nothing to open or read
        0, perm, noent, 0, 0,       // sub/abs -> /history.txt: the same
        perm, noent,                // pw -> /etc/passwd
        perm, noent, noent,         // root -> /: root/history.txt, root/../x
        noent, 0, 0, noent, 0, 0,   // stat followed / not followed: no link
        noent, 0,                   // readlink: no link
    ]);
    assert_eq!(d.snapshot(), vec![file("history.txt", HISTORY), dir("sub")]);
    // The host never follows a link.
    assert_eq!(d.host_file("abs"), None);
    assert_eq!(d.host_file("history.txt"), Some(HISTORY));
}

#[test]
fn escaping_relative_symlinks_are_notcapable() {
    let (v, d) = run_in_coup_dir("symlink_escape");
    let nc = errno(Errno::Notcapable);
    #[rustfmt::skip]
    assert_eq!(v, vec![
        0, nc, nc,                  // esc -> ../../etc/passwd: open, create through it
        0, nc, nc,                  // up -> ..: up/history.txt, up
        0, 0, 0, 0, 2,              // a/ok -> ../history.txt stays inside and reads
        0, nc, nc,                  // a/bad -> ../../x
        0, nc,                      // sneaky -> a/../..
        0, 0, errno(Errno::Loop),   // l1 <-> l2
        errno(Errno::Perm), errno(Errno::Noent), // slash_up -> /..: refused, so nothing there
        nc, 0,                      // stat esc followed / not followed
        0, 16,                      // readlink esc
    ]);
    assert_eq!(
        d.snapshot(),
        vec![
            dir("a"),
            symlink("a/bad", "../../x"),
            symlink("a/ok", "../history.txt"),
            symlink("esc", "../../etc/passwd"),
            file("history.txt", HISTORY),
            symlink("l1", "l2"),
            symlink("l2", "l1"),
            symlink("sneaky", "a/../.."),
            symlink("up", ".."),
        ]
    );
}

#[test]
fn trailing_slash_tricks_fail_with_enotdir() {
    let (v, d) = run_in_coup_dir("trailing_slash");
    let nd = errno(Errno::Notdir);
    #[rustfmt::skip]
    assert_eq!(v, vec![
        0,                                  // link -> history.txt
        nd, errno(Errno::Isdir),            // open link/, and with CREAT|TRUNC (Linux: EISDIR)
        nd, nd, nd, nd, nd,                 // history.txt/, /., /.., TRUNC, link/.
        nd, nd,                             // unlink link/, history.txt/
        nd, nd, nd,                         // rename history.txt/ -> x, history.txt -> x/, link/ -> x
        nd, errno(Errno::Exist),            // stat link/, mkdir history.txt/ (as Linux)
        errno(Errno::Isdir), errno(Errno::Noent), // create new/, symlink at l2/ (as Linux)
        0, 0, 0, errno(Errno::Isdir), nd,   // d, dl -> d: open dl/, unlink dl/, rmdir dl/
        nd, errno(Errno::Inval),            // readlink link/, dl/
    ]);
    assert_eq!(
        d.snapshot(),
        vec![
            dir("d"),
            symlink("dl", "d"),
            file("history.txt", HISTORY),
            symlink("link", "history.txt")
        ]
    );
}

#[test]
fn names_with_control_characters_or_invalid_utf8_are_eilseq() {
    let (v, d) = run_in_coup_dir("bad_names");
    let ilseq = errno(Errno::Ilseq);
    let mut expected = vec![ilseq; 12];
    expected.extend([0, errno(Errno::Nametoolong), 0]);
    assert_eq!(v, expected);
    // Nothing was created but the valid names; the history file was not renamed.
    assert_eq!(
        d.snapshot(),
        vec![
            file("café", b""),
            file("history.txt", HISTORY),
            file(&"n".repeat(255), b"")
        ]
    );
    assert_eq!((d.used_nodes(), d.used_bytes()), (2, 0));
}

/// Symlinks left for the host: to the history file, above the root, and a history.txt that
/// is itself a symlink (one to /etc/passwd is refused: an absolute target). The host never
/// follows them.
#[test]
fn symlinks_left_for_the_host_are_never_followed() {
    let (v, mut d) = run_in_coup_dir("symlink_bait");
    assert_eq!(v, vec![0, errno(Errno::Perm), 0, 0, 0]);
    assert_eq!(
        d.snapshot(),
        vec![
            symlink("answer.txt", "history.txt"),
            symlink("history.txt", "../../../../etc/shadow"),
            symlink("shadow", "../../../../etc/shadow"),
        ]
    );
    assert_eq!(
        d.host_file("history.txt"),
        None,
        "history.txt is a symlink now"
    );
    assert_eq!(d.host_file("answer.txt"), None);
    assert_eq!(d.host_file("passwd"), None);
    // Symlinks are charged their target's length and count as nodes.
    assert_eq!((d.used_nodes(), d.used_bytes()), (3, 11 + 22 + 22));
    // The host puts its history file back: the bot's symlink is replaced, its quota released.
    d.put_host_file("history.txt", HISTORY);
    assert_eq!(d.host_file("history.txt"), Some(HISTORY));
    assert_eq!((d.used_nodes(), d.used_bytes()), (2, 11 + 22));
    assert_eq!(d.snapshot()[1], file("history.txt", HISTORY));
}

/// Two bots, two directories: what bot A writes, bot B cannot reach by any path, and a
/// probe listing everything B can see finds nothing of A's.
#[test]
fn another_bots_scratch_is_unreachable() {
    let sb = sandbox();
    let writer = load(&sb, "secret_writer");
    let thief = load(&sb, "secret_thief");
    let probe = load_rust(&sb, "probe_env");
    let mut a = coup_dir();
    let mut b = coup_dir();
    let r = run(&writer, &mut a);
    assert_eq!((r.outcome.clone(), values(&r)), (Outcome::Ok, vec![0; 5]));
    // B runs between two runs of A, on the same sandbox, same module instance pool.
    let r = run(&thief, &mut b);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let (noent, nc) = (errno(Errno::Noent), errno(Errno::Notcapable));
    assert_eq!(
        values(&r),
        vec![noent, nc, nc, noent, nc, nc, nc, noent, nc, 0, 86, 3]
    );
    let r = run(&writer, &mut a);
    assert_eq!(r.outcome, Outcome::Ok);
    let r = run(&probe, &mut b);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let seen = String::from_utf8_lossy(&r.stdout);
    assert!(
        !seen.contains("s3cr3t") && !seen.contains("secret") && !seen.contains("hidden"),
        "{seen}"
    );
    // A still has its secret; B has only its history file and what the probe made.
    assert_eq!(a.host_file("secret.txt"), Some(&b"s3cr3t-of-A"[..]));
    assert!(b
        .snapshot()
        .iter()
        .all(|e| !format!("{e:?}").contains("secret")));
    // And a fresh directory of another size changes nothing.
    let mut c = Vfs::new(VfsLimits {
        max_bytes: 1024,
        max_nodes: 4,
        max_depth: 2,
    });
    let r = bot_values(&thief, &mut c);
    assert_eq!(r[..9], [noent, nc, nc, noent, nc, nc, nc, noent, nc]);
    assert_host_unharmed(&sb);
}

fn bot_values(bot: &koth::sandbox::Bot, d: &mut Vfs) -> Vec<i64> {
    let r = run(bot, d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    values(&r)
}

/// The same escapes through a real toolchain: Rust's std on wasm32-wasip1, which resolves
/// paths in wasi-libc against the preopen "/". Nothing outside is reachable; `..` is
/// ENOTCAPABLE (76), host paths do not exist (ENOENT, 44), hard links are ENOTSUP (58). Its
/// last move, `remove_dir_all("/")`, empties its own directory and then fails on the root
/// itself (EBUSY, 10): the host finds no history file.
#[test]
fn std_escapes_through_wasi_libc_stay_inside() {
    let sb = sandbox();
    let bot = load_rust(&sb, "probe_escape");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let expected = "\
read /etc/passwd: err 44
read ../../etc/passwd: err 76
read /../etc/passwd: err 76
read /proc/self/environ: err 44
read /dev/urandom: err 44
read_dir /: ok history.txt
read_dir ..: err 76
read_dir /..: err 76
read_dir /tmp: err 44
canonicalize ..: ok /
hard_link: err 58
copy history: ok 2
write ../x: err 76
create_dir /..: err 76
rename to ..: err 76
set_current_dir ..: err 76
current_dir: ok /
read history.txt: ok \"I\\n\"
metadata /: ok dir true
metadata /etc: err 44
remove_dir_all /: err 28
read_dir / after: ok 
";
    assert_eq!(String::from_utf8_lossy(&r.stdout), expected);
    assert_eq!(d.snapshot(), vec![]);
    assert_eq!(d.host_file("history.txt"), None);
    assert_eq!((d.used_nodes(), d.used_bytes()), (0, 0));
    assert_host_unharmed(&sb);
}
