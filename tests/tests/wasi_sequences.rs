//! Seeded random sequences of WASI filesystem calls, run as real wasm modules: opens with
//! every flag, reads and writes at offsets, seeks, truncates, renames, symlinks, readdir with
//! cookies, mkdir, rmdir, unlink, stat. Each call's errno and results are printed by the bot.
//!
//! Checked here: every sequence ends `ok` (no trap, no host fault), the same sequence gives
//! byte-identical output and an identical tree on a second run, and the directory's quota
//! accounting matches what the tree holds. The generated modules are the ground for a
//! differential test against wasmtime-wasi (not wired yet: see the README's issue 6 section).
//!
//! `KOTH_WASI_SEQ_SEEDS=N` runs N seeds instead of the default 16.

use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Invocation, Limits, Outcome, Sandbox, SandboxOptions, Vfs, VfsLimits};
use std::fmt::Write as _;

/// xorshift64*: small, seeded, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Names the calls pick from: files, folders, nested, dotted, links, and some that fail.
const NAMES: &[&str] = &[
    "a", "b", "c", "d", "d/x", "d/y", "d/e", "d/e/z", "l", "m", "d/..", "./a", "a/", "d/", "..",
    "l/x", "nope/x",
];
/// Symlink targets.
const TARGETS: &[&str] = &["a", "d", "d/x", "missing", "../a", "l", ".", "e/../x"];
/// Descriptor slots the bot keeps (memory 512 + 4*i), filled by opens.
const SLOTS: u64 = 6;

/// The WAT module of one sequence of `n` calls from `seed`.
fn sequence(seed: u64, n: usize) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut data = String::new();
    let mut strings: Vec<(u32, usize)> = Vec::new();
    let mut at = 1024u32;
    for s in NAMES.iter().chain(TARGETS) {
        write!(data, "(data (i32.const {at}) \"{s}\")").unwrap();
        strings.push((at, s.len()));
        at += 64;
    }
    let name = |rng: &mut Rng| strings[rng.below(NAMES.len() as u64) as usize];
    let target = |rng: &mut Rng| strings[NAMES.len() + rng.below(TARGETS.len() as u64) as usize];
    let c = |v: u64| format!("(i32.const {v})");
    let mut body = String::new();
    for _ in 0..n {
        let slot = c(rng.below(SLOTS));
        let (p, l) = name(&mut rng);
        let (p, l) = (c(u64::from(p)), c(l as u64));
        let line = match rng.below(14) {
            0 | 1 => {
                let oflags = c(rng.below(16));
                let rights = [2u64, 0x40, 0x42, 0x1fff_ffff][rng.below(4) as usize];
                let fdflags = c(rng.below(2));
                let follow = c(rng.below(2));
                format!(
                    "(call $open {slot} {follow} {p} {l} {oflags} (i64.const {rights}) {fdflags})"
                )
            }
            2 => format!("(call $write {slot} {})", c(rng.below(48))),
            3 => format!(
                "(call $pwrite {slot} {} (i64.const {}))",
                c(rng.below(48)),
                rng.below(200)
            ),
            4 => format!("(call $read {slot} {})", c(rng.below(64))),
            5 => format!(
                "(call $pread {slot} {} (i64.const {}))",
                c(rng.below(64)),
                rng.below(200)
            ),
            6 => format!(
                "(call $seek {slot} (i64.const {}) {})",
                rng.below(100) as i64 - 20,
                c(rng.below(4))
            ),
            7 => format!("(call $truncate {slot} (i64.const {}))", rng.below(150)),
            8 => format!("(call $close {slot})"),
            9 => {
                let (q, m) = name(&mut rng);
                format!("(call $rename {p} {l} {} {})", c(u64::from(q)), c(m as u64))
            }
            10 => {
                let (t, tl) = target(&mut rng);
                format!(
                    "(call $symlink {} {} {p} {l})",
                    c(u64::from(t)),
                    c(tl as u64)
                )
            }
            // mkdir, rmdir or unlink, by table index.
            11 => format!("(call $change {} {p} {l})", c(rng.below(3))),
            12 => format!("(call $stat {} {p} {l})", c(rng.below(2))),
            _ => format!(
                "(call $readdir {} (i64.const {}))",
                c(24 + rng.below(200)),
                rng.below(8)
            ),
        };
        writeln!(body, "    {line}").unwrap();
    }
    // Every helper prints the errno and then what the call returned.
    format!(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_pwrite" (func $fd_pwrite (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_pread" (func $fd_pread (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func $fd_seek (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_filestat_set_size" (func $fd_filestat_set_size (param i32 i64) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_rename" (func $path_rename (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $mkdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_remove_directory" (func $rmdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func $unlink (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_get" (func $path_filestat_get (param i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (type $change (func (param i32 i32 i32) (result i32)))
  (table 3 funcref)
  (elem (i32.const 0) $mkdir $rmdir $unlink)
  ;; Memory: 0..16 emit, 16 iovec, 24 count, 32 u64, 64..128 stat, 512.. descriptor slots,
  ;; 1024.. strings, 4096.. data to write ("0123456789..." ), 8192.. read buffer.
  (data (i32.const 4096) "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  (func $emit (param $v i64)
    (i64.store (i32.const 8) (local.get $v))
    (i32.store (i32.const 0) (i32.const 8))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 0))))
  (func $e (param $v i32) (call $emit (i64.extend_i32_s (local.get $v))))
  (func $fd (param $slot i32) (result i32)
    (i32.load (i32.add (i32.const 512) (i32.shl (local.get $slot) (i32.const 2)))))
  ;; A checksum of n bytes at 8192, so what was read is compared too.
  (func $sum (param $n i32) (result i64)
    (local $i i32) (local $h i64)
    (local.set $h (i64.const 1469598103934665603))
    (block $done (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $h (i64.mul (i64.xor (local.get $h)
        (i64.load8_u (i32.add (i32.const 8192) (local.get $i)))) (i64.const 1099511628211)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
    (local.get $h))
  (func $open (param $slot i32) (param $follow i32) (param $p i32) (param $l i32) (param $o i32) (param $r i64) (param $f i32)
    (local $err i32)
    (local.set $err (call $path_open (i32.const 3) (local.get $follow) (local.get $p) (local.get $l)
      (local.get $o) (local.get $r) (local.get $r) (local.get $f) (i32.const 24)))
    (call $e (local.get $err))
    (if (i32.eqz (local.get $err)) (then
      (i32.store (i32.add (i32.const 512) (i32.shl (local.get $slot) (i32.const 2))) (i32.load (i32.const 24)))
      (call $e (i32.load (i32.const 24))))))
  (func $write (param $slot i32) (param $n i32)
    (i32.store (i32.const 16) (i32.const 4096))
    (i32.store (i32.const 20) (local.get $n))
    (call $e (call $fd_write (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (i32.const 24)))
    (call $e (i32.load (i32.const 24))))
  (func $pwrite (param $slot i32) (param $n i32) (param $off i64)
    (i32.store (i32.const 16) (i32.const 4100))
    (i32.store (i32.const 20) (local.get $n))
    (call $e (call $fd_pwrite (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (local.get $off) (i32.const 24)))
    (call $e (i32.load (i32.const 24))))
  (func $read (param $slot i32) (param $n i32)
    (i32.store (i32.const 24) (i32.const 0))
    (i32.store (i32.const 16) (i32.const 8192))
    (i32.store (i32.const 20) (local.get $n))
    (call $e (call $fd_read (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (i32.const 24)))
    (call $e (i32.load (i32.const 24)))
    (call $emit (call $sum (i32.load (i32.const 24)))))
  (func $pread (param $slot i32) (param $n i32) (param $off i64)
    (i32.store (i32.const 24) (i32.const 0))
    (i32.store (i32.const 16) (i32.const 8192))
    (i32.store (i32.const 20) (local.get $n))
    (call $e (call $fd_pread (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (local.get $off) (i32.const 24)))
    (call $e (i32.load (i32.const 24)))
    (call $emit (call $sum (i32.load (i32.const 24)))))
  (func $seek (param $slot i32) (param $d i64) (param $w i32)
    (call $e (call $fd_seek (call $fd (local.get $slot)) (local.get $d) (local.get $w) (i32.const 32)))
    (call $emit (i64.load (i32.const 32))))
  (func $truncate (param $slot i32) (param $n i64)
    (call $e (call $fd_filestat_set_size (call $fd (local.get $slot)) (local.get $n))))
  (func $close (param $slot i32)
    (call $e (call $fd_close (call $fd (local.get $slot)))))
  (func $rename (param $p i32) (param $l i32) (param $q i32) (param $m i32)
    (call $e (call $path_rename (i32.const 3) (local.get $p) (local.get $l) (i32.const 3) (local.get $q) (local.get $m))))
  (func $symlink (param $t i32) (param $tl i32) (param $p i32) (param $l i32)
    (call $e (call $path_symlink (local.get $t) (local.get $tl) (i32.const 3) (local.get $p) (local.get $l))))
  (func $change (param $which i32) (param $p i32) (param $l i32)
    (call $e (call_indirect (type $change) (i32.const 3) (local.get $p) (local.get $l) (local.get $which))))
  (func $stat (param $follow i32) (param $p i32) (param $l i32)
    (local $err i32)
    (local.set $err (call $path_filestat_get (i32.const 3) (local.get $follow) (local.get $p) (local.get $l) (i32.const 64)))
    (call $e (local.get $err))
    (if (i32.eqz (local.get $err)) (then
      (call $e (i32.load8_u (i32.const 80)))
      (call $emit (i64.load (i32.const 96))))))
  (func $readdir (param $len i32) (param $cookie i64)
    (i32.store (i32.const 24) (i32.const 0))
    (call $e (call $fd_readdir (i32.const 3) (i32.const 8192) (local.get $len) (local.get $cookie) (i32.const 24)))
    (call $e (i32.load (i32.const 24)))
    (call $emit (call $sum (i32.load (i32.const 24)))))
  (func (export "_start")
{body}  )
  {data}
)"#
    )
}

fn seeds() -> u64 {
    std::env::var("KOTH_WASI_SEQ_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(16)
}

#[test]
fn random_wasi_sequences_are_deterministic_and_keep_the_quota_exact() {
    let sb = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    let inv = Invocation {
        args: Vec::new(),
        stdin: Vec::new(),
        seed: [0; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    let mut with_data = 0;
    for seed in 0..seeds() {
        let text = sequence(seed, 120);
        let wasm = wat::parse_str(&text).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let bot = sb
            .load_bytes("seq", &wasm)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let mut runs = Vec::new();
        for _ in 0..2 {
            let mut dir = Vfs::new(VfsLimits::default());
            let r = bot.invoke(&inv, Some(&mut dir));
            assert_eq!(r.outcome, Outcome::Ok, "seed {seed}: {r:?}");
            assert!(!r.stdout.is_empty(), "seed {seed}: nothing printed");
            // The quota counts exactly what the tree holds (no host files here).
            let snapshot = dir.snapshot();
            let bytes: u64 = snapshot
                .iter()
                .map(|e| match e {
                    SnapshotEntry::File(_, d) => d.len() as u64,
                    SnapshotEntry::Symlink(_, t) => t.len() as u64,
                    SnapshotEntry::Dir(_) => 0,
                })
                .sum();
            assert_eq!(dir.used_bytes(), bytes, "seed {seed}");
            assert_eq!(dir.used_nodes() as usize, snapshot.len(), "seed {seed}");
            runs.push((r.stdout, r.fuel_used, snapshot));
        }
        assert_eq!(runs[0], runs[1], "seed {seed}: two runs differ");
        let written = |e: &SnapshotEntry| matches!(e, SnapshotEntry::File(_, d) if !d.is_empty());
        if runs[0].2.iter().any(written) {
            with_data += 1;
        }
    }
    // The sequences do reach the interesting states: most leave a file with content.
    assert!(
        with_data * 2 >= seeds(),
        "{with_data} of {} seeds wrote data",
        seeds()
    );
}
