//! Attacks on the history file: hard links, renames, forgeries, truncation, rewriting,
//! deletion, appending too much. The sandbox lets the bot do what POSIX allows in its own
//! directory (but hard links); each test asserts exactly what the host sees afterwards, which
//! the Coup driver turns into a forfeit.

use crate::common::*;
use koth::sandbox::{Errno, Invocation, Outcome, Vfs, VfsLimits};

/// Run `name` once in a fresh Coup directory; it must end `ok`.
fn attack(name: &str) -> (Vec<i64>, Vfs) {
    let sb = sandbox();
    let bot = load(&sb, name);
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{name}: {r:?}");
    assert_host_unharmed(&sb);
    (values(&r), d)
}

#[test]
fn hard_linking_the_history_file_is_not_supported() {
    let (v, d) = attack("history_link");
    use Errno::*;
    assert_eq!(v, errnos(&[Notsup, Notsup, Badf, Noent, Success, Success]));
    assert_eq!(d.host_file("history.txt"), Some(HISTORY));
    assert_eq!(
        d.snapshot(),
        vec![file("h2", b"XXX"), file("history.txt", HISTORY)]
    );
}

#[test]
fn renaming_the_history_file_then_writing_to_it() {
    let (v, d) = attack("history_rename");
    assert_eq!(v, vec![0, 0, 0, errno(Errno::Noent)]);
    assert_eq!(d.host_file("history.txt"), None);
    assert_eq!(d.snapshot(), vec![file("h.old", b"I\nXYZ")]);
    // Moved off its name, the host file became the bot's own: counted, and charged in full.
    assert_eq!((d.used_bytes(), d.used_nodes()), (5, 1));
}

#[test]
fn forging_a_new_history_file() {
    let (v, d) = attack("history_forge");
    assert_eq!(v, vec![0, 0, 0]);
    assert_eq!(d.host_file("history.txt"), Some(&b"I\nT"[..]));
    assert_eq!(
        d.snapshot(),
        vec![file("history.txt", b"I\nT"), file("real.txt", HISTORY)]
    );
}

#[test]
fn truncating_the_history_file() {
    let (v, d) = attack("history_truncate");
    assert_eq!(v, vec![0]);
    assert_eq!(d.host_file("history.txt"), Some(&b""[..]));
    assert_eq!((d.used_bytes(), d.used_nodes()), (0, 0));
}

#[test]
fn rewriting_the_history_file() {
    let (v, d) = attack("history_rewrite");
    use Errno::*;
    // Through the read-only descriptor nothing is written; through the read-write one the
    // two bytes are overwritten.
    assert_eq!(
        v,
        errnos(&[Success, Badf, Badf, Badf, Inval, Success, Success])
    );
    assert_eq!(d.host_file("history.txt"), Some(&b"XX"[..]));
    assert_eq!((d.used_bytes(), d.used_nodes()), (0, 0));
}

#[test]
fn deleting_the_history_file() {
    let (v, d) = attack("history_delete");
    assert_eq!(v, vec![0, errno(Errno::Noent)]);
    assert_eq!(d.host_file("history.txt"), None);
    assert_eq!(d.snapshot(), vec![]);
}

#[test]
fn appending_three_characters_to_the_history_file() {
    let (v, d) = attack("history_append3");
    assert_eq!(v, vec![0, 0]);
    assert_eq!(d.host_file("history.txt"), Some(&b"I\nabc"[..]));
    assert_eq!((d.used_bytes(), d.used_nodes()), (3, 0));
}

/// The quotas must hold across invocations too. Each invocation the bot renames the host's
/// history file to a new name; each time the host puts a fresh one back (as a driver does
/// before every invocation). The renamed copies are the bot's now: together with its own
/// files they may never exceed its quotas (64 nodes, 1 MiB), however many invocations pass.
#[test]
fn renamed_history_files_do_not_escape_the_quotas() {
    let sb = sandbox();
    let bot = load(&sb, "history_stash");
    let mut d = Vfs::new(VfsLimits::default());
    // A 16 KiB history, like a long game's.
    let history = vec![b'I'; 16 << 10];
    let mut renamed = 0;
    for i in 0..100 {
        d.put_host_file("history.txt", &history);
        let inv = Invocation {
            stdin: format!("stash{i:03}").into_bytes(),
            ..invocation()
        };
        let r = bot.invoke(&inv, Some(&mut d));
        assert_eq!(r.outcome, Outcome::Ok);
        if values(&r) == [0] {
            renamed += 1;
        }
    }
    d.put_host_file("history.txt", &history);
    // What the bot holds besides the host's current history file.
    let held: Vec<_> = d
        .snapshot()
        .into_iter()
        .filter(|e| *e != file("history.txt", &history))
        .collect();
    let held_bytes: usize = held
        .iter()
        .map(|e| match e {
            koth::sandbox::vfs::SnapshotEntry::File(_, c) => c.len(),
            _ => 0,
        })
        .sum();
    let limits = VfsLimits::default();
    assert!(
        held.len() <= limits.max_nodes as usize && held_bytes as u64 <= limits.max_bytes,
        "after {renamed} successful renames the bot holds {} nodes and {held_bytes} bytes \
         (used_nodes() says {}, used_bytes() says {}), above its quota of {} nodes and {} bytes",
        held.len(),
        d.used_nodes(),
        d.used_bytes(),
        limits.max_nodes,
        limits.max_bytes
    );
    assert_host_unharmed(&sb);
}
