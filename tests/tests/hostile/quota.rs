//! Attacks on the quotas of the virtual directory: bytes, sparse files, node count, depth.

use crate::common::*;
use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Errno, Outcome};

#[test]
fn ten_gib_scratch_write_stops_at_one_mib() {
    let sb = sandbox();
    let bot = load(&sb, "scratch_flood");
    let guard = heavy();
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let nospc = errno(Errno::Nospc);
    assert_eq!(
        values(&r),
        vec![10, 107_365, 0, 10, nospc, 0, nospc, 1 << 20, 0, nospc]
    );
    assert_eq!(d.used_bytes(), 1 << 20, "exactly the quota, never above");
    assert_eq!(d.used_nodes(), 2);
    let mut content = vec![b's'; 1_000_000];
    content.extend(vec![b't'; 48_576]);
    assert_eq!(
        d.snapshot(),
        vec![
            file("b", b""),
            file("history.txt", HISTORY),
            file("scratch.bin", &content)
        ]
    );
    // The host file is exempt: the host can still replace it with a longer one.
    d.put_host_file("history.txt", b"I\nI\n");
    assert_eq!(d.used_bytes(), 1 << 20);
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

#[test]
fn sparse_write_at_2_pow_40_allocates_nothing() {
    let sb = sandbox();
    let bot = load(&sb, "sparse_write");
    let guard = heavy();
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let (nospc, tib) = (errno(Errno::Nospc), 1i64 << 40);
    #[rustfmt::skip]
    assert_eq!(values(&r), vec![
        nospc,                        // pwrite at 2^40
        0, tib, nospc, tib,           // seek to 2^40; write there; position unchanged
        nospc, nospc,                 // set_size(2^40), allocate(0, 2^40)
        errno(Errno::Fbig),           // pwrite at u64::MAX
        nospc,                        // pwrite of one byte at 1 MiB
        0,                            // the file is still empty
    ]);
    assert_eq!((d.used_bytes(), d.used_nodes()), (0, 1));
    assert_eq!(
        d.snapshot(),
        vec![file("history.txt", HISTORY), file("sparse", b"")]
    );
    guard.assert_grew_less_than(8 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

#[test]
fn one_hundred_thousand_files_stop_at_64() {
    let sb = sandbox();
    let bot = load(&sb, "many_files");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let nospc = errno(Errno::Nospc);
    assert_eq!(
        values(&r),
        vec![64, 64, nospc, 0, nospc, nospc, 0, 0, nospc]
    );
    assert_eq!((d.used_nodes(), d.used_bytes()), (64, 0));
    let mut expected = vec![dir("dir")];
    expected.extend((1..64).map(|i| file(&format!("f{i:06}"), b"")));
    expected.push(file("history.txt", HISTORY));
    assert_eq!(d.snapshot(), expected);
    assert_host_unharmed(&sb);
}

#[test]
fn deep_folders_stop_at_depth_16() {
    let sb = sandbox();
    let bot = load(&sb, "deep_dirs");
    let mut d = coup_dir();
    let r = run(&bot, &mut d);
    assert_eq!(r.outcome, Outcome::Ok, "{r:?}");
    let (long, noent) = (errno(Errno::Nametoolong), errno(Errno::Noent));
    let mut expected = vec![0; 16];
    #[rustfmt::skip]
    expected.extend([
        long, noent, noent, noent,  // levels 17..20
        long, long,                 // a file, a symlink at depth 17
        0, 0, long, 0,              // x, x/y; x under depth 15 (y at 17), under depth 14
        0, long,                    // deep -> d^16; mkdir deep/e
        long,                       // a 5000-byte path
    ]);
    assert_eq!(values(&r), expected);
    // 16 nested folders, x and x/y moved under the 14th, the symlink (31 bytes of target).
    assert_eq!((d.used_nodes(), d.used_bytes()), (19, 31));
    let d14 = vec!["d"; 14].join("/");
    let snapshot = d.snapshot();
    assert!(
        snapshot.contains(&dir(&format!("{d14}/x/y"))),
        "{snapshot:?}"
    );
    let deepest = snapshot
        .iter()
        .map(|e| match e {
            SnapshotEntry::Dir(p) | SnapshotEntry::File(p, _) | SnapshotEntry::Symlink(p, _) => {
                p.split('/').count()
            }
        })
        .max();
    assert_eq!(deepest, Some(16));
    assert_host_unharmed(&sb);
}
