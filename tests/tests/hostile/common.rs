//! Helpers shared by the hostile-bot tests.
//!
//! WAT bots report what they observed by writing little-endian `i64` values to stdout (their
//! `$emit` helper); [`values`] decodes them. Errno values are compared with [`errno`].

use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{
    Bot, Errno, Invocation, Limits, Outcome, Report, Sandbox, SandboxOptions, Vfs, VfsLimits,
};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The history file every Coup-like directory starts with.
pub const HISTORY: &[u8] = b"I\n";

/// A sandbox with the default options (no disk cache).
pub fn sandbox() -> Sandbox {
    Sandbox::new(SandboxOptions::default()).expect("create the sandbox")
}

/// The binary module of `tests/hostile/<name>.wat`.
pub fn wat(name: &str) -> Vec<u8> {
    koth_tests::hostile_module(name)
}

/// Load `tests/hostile/<name>.wat` as a bot named `name`; it must load.
pub fn load(sb: &Sandbox, name: &str) -> Bot {
    sb.load_bytes(name, &wat(name))
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The path of a Rust test bot built for wasm32-wasip1.
pub fn rust_bot(name: &str) -> PathBuf {
    koth_tests::wasm(name)
}

/// Load a Rust test bot (named after its file).
pub fn load_rust(sb: &Sandbox, name: &str) -> Bot {
    sb.load_file(&rust_bot(name), None)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// A Coup-like invocation: `argv[1]` names the history file, the default limits but for a
/// backstop with room for a slow machine ([`koth_tests::attack_limits`]).
pub fn invocation() -> Invocation {
    Invocation {
        args: vec![b"history.txt".to_vec()],
        stdin: vec![],
        seed: [0; 32],
        clock_start_ns: 0,
        limits: koth_tests::attack_limits(),
    }
}

/// An invocation with other limits.
pub fn invocation_with(limits: Limits) -> Invocation {
    Invocation {
        limits,
        ..invocation()
    }
}

/// A directory with the default quotas holding `history.txt` = [`HISTORY`].
pub fn coup_dir() -> Vfs {
    let mut dir = Vfs::new(VfsLimits::default());
    dir.put_host_file("history.txt", HISTORY);
    dir
}

/// Run `bot` once in `dir` with the default Coup invocation.
pub fn run(bot: &Bot, dir: &mut Vfs) -> Report {
    bot.invoke(&invocation(), Some(dir))
}

/// The `i64` values a WAT bot emitted on stdout.
pub fn values(r: &Report) -> Vec<i64> {
    assert_eq!(
        r.stdout.len() % 8,
        0,
        "stdout is not a list of i64: {:?}",
        r.stdout
    );
    r.stdout
        .chunks_exact(8)
        .map(|c| i64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// An errno as a WAT bot emits it.
pub fn errno(e: Errno) -> i64 {
    e.raw() as i64
}

/// Shorthand for a list of expected errno values.
pub fn errnos(list: &[Errno]) -> Vec<i64> {
    list.iter().map(|&e| errno(e)).collect()
}

/// A snapshot entry for a file.
pub fn file(path: &str, content: &[u8]) -> SnapshotEntry {
    SnapshotEntry::File(path.into(), content.to_vec())
}

/// A snapshot entry for a directory.
pub fn dir(path: &str) -> SnapshotEntry {
    SnapshotEntry::Dir(path.into())
}

/// A snapshot entry for a symlink.
pub fn symlink(path: &str, target: &str) -> SnapshotEntry {
    SnapshotEntry::Symlink(path.into(), target.into())
}

/// The host is unharmed: a well-behaved bot on the same sandbox still loads, runs to
/// `Outcome::Ok`, prints, reads its history file and writes its scratch, exactly as expected.
pub fn assert_host_unharmed(sb: &Sandbox) {
    let bot = load(sb, "well_behaved");
    for _ in 0..2 {
        let mut d = coup_dir();
        let r = run(&bot, &mut d);
        assert_eq!(
            r.outcome,
            Outcome::Ok,
            "well-behaved bot after an attack: {r:?}"
        );
        assert_eq!(r.stdout, b"ok I\n");
        assert!(r.stderr.is_empty() && r.stderr_dropped == 0);
        assert_eq!(
            d.snapshot(),
            vec![file("history.txt", HISTORY), file("note.txt", b"hello")]
        );
        assert_eq!((d.used_bytes(), d.used_nodes()), (5, 1));
    }
    // And one without any directory.
    let r = bot.invoke(&invocation(), None);
    assert_eq!(
        r.outcome,
        Outcome::Ok,
        "well-behaved bot without a directory: {r:?}"
    );
    assert_eq!(r.stdout, b"ok\n");
}

/// Memory-heavy attacks run one at a time under this lock, so that the resident-size check of
/// one is not disturbed by another.
static HEAVY: Mutex<()> = Mutex::new(());

/// Resident set size of this process, in bytes.
pub fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").expect("read /proc/self/statm");
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .expect("resident field")
        .parse()
        .expect("a number");
    pages * 4096
}

/// Guard of a memory-heavy attack: holds [`HEAVY`] and remembers the resident size before.
pub struct RssGuard {
    _lock: MutexGuard<'static, ()>,
    before: u64,
}

/// Start a memory-heavy attack.
pub fn heavy() -> RssGuard {
    let lock = HEAVY.lock().unwrap_or_else(|e| e.into_inner());
    RssGuard {
        _lock: lock,
        before: resident_bytes(),
    }
}

impl RssGuard {
    /// The host did not keep more than `bound` bytes of what the attack made it touch
    /// (generous: other tests run on other threads meanwhile).
    pub fn assert_grew_less_than(&self, bound: u64) {
        let after = resident_bytes();
        let grown = after.saturating_sub(self.before);
        assert!(
            grown < bound,
            "the host grew by {} KiB (from {} to {} KiB), above the {} KiB bound",
            grown >> 10,
            self.before >> 10,
            after >> 10,
            bound >> 10
        );
    }
}

/// 1 MiB.
pub const MIB: u64 = 1 << 20;
