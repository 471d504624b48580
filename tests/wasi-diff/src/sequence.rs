//! Seeded random sequences of WASI preview 1 filesystem calls, as WAT modules that print every
//! call's errno and results on stdout, and the decoder of that transcript.
//!
//! Shared by `tests/tests/wasi_sequences.rs` (koth against itself) and the differential test
//! of this crate (koth against wasmtime-wasi), which includes this file by path: it uses only
//! `std`, so neither crate depends on the other.
//!
//! The generator keeps clear of koth's deliberate differences (see the README's issue 6
//! section), so what remains comparable is compared byte for byte: no hard links, far below the
//! node and byte quotas, only UTF-8 names, and no timestamps or inode numbers in the
//! transcript. Every name is one byte long, so the size of a directory listing does not depend
//! on the order of its entries.

use std::fmt::Write as _;

/// xorshift64*: small, seeded, and the same everywhere.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// Paths the calls pick from: files, folders, nested, dotted, links, and some that fail.
pub const NAMES: &[&str] = &[
    "a", "b", "c", "d", "d/x", "d/y", "d/e", "d/e/z", "l", "m", "d/..", "./a", "a/", "d/", "..",
    "l/x", "nope/x",
];
/// Symlink targets. `z` names nothing in [`NAMES`] (a dangling link, until an open with
/// `O_CREAT` through it creates it): one byte long like every name a call can create. `/` is
/// absolute, which both refuse to link to (`EPERM`).
pub const TARGETS: &[&str] = &["a", "d", "d/x", "z", "../a", "l", ".", "e/../x", "/"];
/// Descriptor slots the bot keeps, filled by opens.
pub const SLOTS: u8 = 6;
/// What a slot holds before its first open: a descriptor that is never valid.
pub const NO_FD: u32 = 99;
const OFLAG_CREAT: u16 = 1;
/// `O_DIRECTORY`.
pub const OFLAG_DIRECTORY: u16 = 2;
const OFLAG_TRUNC: u16 = 8;
/// The `FD_WRITE` right.
pub const RIGHT_FD_WRITE: u64 = 0x40;
/// `EISDIR`.
pub const ERRNO_ISDIR: i64 = 31;
/// `EINVAL`.
pub const ERRNO_INVAL: i64 = 28;

/// One WASI call. Paths are indices into [`NAMES`], targets into [`TARGETS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `path_open(3, follow, path, oflags, rights, rights, fdflags)` into `slot`.
    Open {
        slot: u8,
        follow: bool,
        path: usize,
        oflags: u16,
        rights: u64,
        fdflags: u16,
    },
    /// `fd_write` of the first `n` bytes of the alphabet.
    Write { slot: u8, n: u32 },
    /// `fd_pwrite` of `n` bytes (from `4`) at `offset`.
    Pwrite { slot: u8, n: u32, offset: u64 },
    /// `fd_read` of up to `n` bytes.
    Read { slot: u8, n: u32 },
    /// `fd_pread` of up to `n` bytes at `offset`.
    Pread { slot: u8, n: u32, offset: u64 },
    /// `fd_seek`.
    Seek { slot: u8, delta: i64, whence: u8 },
    /// `fd_filestat_set_size`.
    Truncate { slot: u8, len: u64 },
    /// `fd_close`.
    Close { slot: u8 },
    /// `path_rename(3, from, 3, to)`.
    Rename { from: usize, to: usize },
    /// `path_symlink(target, 3, path)`.
    Symlink { target: usize, path: usize },
    /// `path_create_directory(3, path)`.
    Mkdir { path: usize },
    /// `path_remove_directory(3, path)`.
    Rmdir { path: usize },
    /// `path_unlink_file(3, path)`.
    Unlink { path: usize },
    /// `path_filestat_get(3, follow, path)`.
    Stat { follow: bool, path: usize },
    /// `fd_readdir` of the preopen (`slot` None) or a slot, into `len` bytes from `cookie`.
    Readdir {
        slot: Option<u8>,
        len: u32,
        cookie: u64,
    },
}

/// `n` random calls from `seed`.
pub fn generate(seed: u64, n: usize) -> Vec<Op> {
    let mut rng = Rng::new(seed);
    let name = |rng: &mut Rng| rng.below(NAMES.len() as u64) as usize;
    (0..n)
        .map(|_| {
            let slot = rng.below(u64::from(SLOTS)) as u8;
            let path = name(&mut rng);
            match rng.below(16) {
                0..=2 => {
                    let oflags = rng.below(16) as u16;
                    let mut rights = [2u64, 0x40, 0x42, 0x1fff_ffff][rng.below(4) as usize];
                    // Creating or truncating asks for FD_WRITE: wasmtime-wasi opens for
                    // writing whenever it creates or truncates (rule `create-implies-write`).
                    if oflags & (OFLAG_CREAT | OFLAG_TRUNC) != 0 {
                        rights |= RIGHT_FD_WRITE;
                    }
                    Op::Open {
                        slot,
                        follow: rng.below(2) == 1,
                        path,
                        oflags,
                        rights,
                        fdflags: rng.below(2) as u16,
                    }
                }
                3 => Op::Write {
                    slot,
                    n: rng.below(48) as u32,
                },
                4 => Op::Pwrite {
                    slot,
                    n: rng.below(48) as u32,
                    offset: rng.below(200),
                },
                5 => Op::Read {
                    slot,
                    n: rng.below(64) as u32,
                },
                6 => Op::Pread {
                    slot,
                    n: rng.below(64) as u32,
                    offset: rng.below(200),
                },
                7 => Op::Seek {
                    slot,
                    delta: rng.below(100) as i64 - 20,
                    // Only valid whences: wasmtime-wasi traps on another (rule `invalid-enum`).
                    whence: rng.below(3) as u8,
                },
                8 => Op::Truncate {
                    slot,
                    len: rng.below(150),
                },
                9 => Op::Close { slot },
                10 => Op::Rename {
                    from: path,
                    to: name(&mut rng),
                },
                11 => Op::Symlink {
                    target: rng.below(TARGETS.len() as u64) as usize,
                    path,
                },
                12 => match rng.below(3) {
                    0 => Op::Mkdir { path },
                    1 => Op::Rmdir { path },
                    _ => Op::Unlink { path },
                },
                13 => Op::Stat {
                    follow: rng.below(2) == 1,
                    path,
                },
                _ => Op::Readdir {
                    slot: (rng.below(3) == 0).then_some(slot),
                    len: 24 + rng.below(200) as u32,
                    cookie: rng.below(8),
                },
            }
        })
        .collect()
}

/// The WAT module that makes these calls in order.
pub fn render(ops: &[Op]) -> String {
    let mut data = String::new();
    let mut at = 1024u32;
    let mut strings: Vec<(u32, usize)> = Vec::new();
    for s in NAMES.iter().chain(TARGETS) {
        write!(data, "(data (i32.const {at}) \"{s}\")").unwrap();
        strings.push((at, s.len()));
        at += 64;
    }
    let p = |i: usize| {
        let (at, len) = strings[i];
        format!("(i32.const {at}) (i32.const {len})")
    };
    let t = |i: usize| p(NAMES.len() + i);
    let mut body = String::new();
    for op in ops {
        let line = match *op {
            Op::Open {
                slot,
                follow,
                path,
                oflags,
                rights,
                fdflags,
            } => format!(
                "(call $open (i32.const {slot}) (i32.const {}) {} (i32.const {oflags}) (i64.const {rights}) (i32.const {fdflags}))",
                u8::from(follow),
                p(path)
            ),
            Op::Write { slot, n } => format!("(call $write (i32.const {slot}) (i32.const {n}))"),
            Op::Pwrite { slot, n, offset } => format!(
                "(call $pwrite (i32.const {slot}) (i32.const {n}) (i64.const {offset}))"
            ),
            Op::Read { slot, n } => format!("(call $read (i32.const {slot}) (i32.const {n}))"),
            Op::Pread { slot, n, offset } => format!(
                "(call $pread (i32.const {slot}) (i32.const {n}) (i64.const {offset}))"
            ),
            Op::Seek {
                slot,
                delta,
                whence,
            } => format!(
                "(call $seek (i32.const {slot}) (i64.const {delta}) (i32.const {whence}))"
            ),
            Op::Truncate { slot, len } => {
                format!("(call $truncate (i32.const {slot}) (i64.const {len}))")
            }
            Op::Close { slot } => format!("(call $close (i32.const {slot}))"),
            Op::Rename { from, to } => format!("(call $rename {} {})", p(from), p(to)),
            Op::Symlink { target, path } => format!("(call $symlink {} {})", t(target), p(path)),
            Op::Mkdir { path } => format!("(call $change (i32.const 0) {})", p(path)),
            Op::Rmdir { path } => format!("(call $change (i32.const 1) {})", p(path)),
            Op::Unlink { path } => format!("(call $change (i32.const 2) {})", p(path)),
            Op::Stat { follow, path } => {
                format!("(call $stat (i32.const {}) {})", u8::from(follow), p(path))
            }
            Op::Readdir { slot, len, cookie } => {
                let fd = match slot {
                    Some(s) => format!("(call $fd (i32.const {s}))"),
                    None => "(i32.const 3)".to_string(),
                };
                format!("(call $readdir {fd} (i32.const {len}) (i64.const {cookie}))")
            }
        };
        writeln!(body, "    {line}").unwrap();
    }
    let mut slots = String::new();
    for s in 0..u32::from(SLOTS) {
        write!(
            slots,
            "(i32.store (i32.const {}) (i32.const {NO_FD}))",
            512 + 4 * s
        )
        .unwrap();
    }
    // Every helper prints the errno, then, on success only, what the call returned (so memory
    // a failed call left alone never reaches the transcript).
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
  ;; Memory: 0..16 emit, 16 iovec, 24 count, 32 u64, 40 iovec of bytes, 64..128 stat,
  ;; 512.. descriptor slots, 1024.. strings, 4096.. data to write, 8192.. read buffer.
  (data (i32.const 4096) "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
  (func $emit (param $v i64)
    (i64.store (i32.const 8) (local.get $v))
    (i32.store (i32.const 0) (i32.const 8))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 0))))
  (func $e (param $v i32) (call $emit (i64.extend_i32_s (local.get $v))))
  ;; The count at 24, then that many bytes from 8192.
  (func $bytes
    (call $emit (i64.extend_i32_u (i32.load (i32.const 24))))
    (i32.store (i32.const 40) (i32.const 8192))
    (i32.store (i32.const 44) (i32.load (i32.const 24)))
    (drop (call $fd_write (i32.const 1) (i32.const 40) (i32.const 1) (i32.const 0))))
  (func $fd (param $slot i32) (result i32)
    (i32.load (i32.add (i32.const 512) (i32.shl (local.get $slot) (i32.const 2)))))
  (func $ok (param $err i32) (result i32)
    (call $e (local.get $err))
    (i32.eqz (local.get $err)))
  ;; An open refused with EISDIR while FD_WRITE was asked for is tried again without it, and
  ;; both errnos are printed: wasmtime-wasi refuses a folder asked for with FD_WRITE, koth
  ;; opens it (rule `directory-write-rights`), and the sequence goes on alike.
  (func $open (param $slot i32) (param $follow i32) (param $p i32) (param $l i32) (param $o i32) (param $r i64) (param $f i32)
    (local $err i32)
    (local.set $err (call $path_open (i32.const 3) (local.get $follow) (local.get $p) (local.get $l)
      (local.get $o) (local.get $r) (local.get $r) (local.get $f) (i32.const 24)))
    (call $e (local.get $err))
    (if (i32.and (i32.eq (local.get $err) (i32.const 31))
                 (i64.ne (i64.and (local.get $r) (i64.const 0x40)) (i64.const 0))) (then
      (local.set $r (i64.and (local.get $r) (i64.const -65)))
      (local.set $err (call $path_open (i32.const 3) (local.get $follow) (local.get $p) (local.get $l)
        (local.get $o) (local.get $r) (local.get $r) (local.get $f) (i32.const 24)))
      (call $e (local.get $err))))
    (if (i32.eqz (local.get $err)) (then
      (i32.store (i32.add (i32.const 512) (i32.shl (local.get $slot) (i32.const 2))) (i32.load (i32.const 24)))
      (call $e (i32.load (i32.const 24))))))
  (func $write (param $slot i32) (param $n i32)
    (i32.store (i32.const 16) (i32.const 4096))
    (i32.store (i32.const 20) (local.get $n))
    (if (call $ok (call $fd_write (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (i32.const 24)))
      (then (call $e (i32.load (i32.const 24))))))
  (func $pwrite (param $slot i32) (param $n i32) (param $off i64)
    (i32.store (i32.const 16) (i32.const 4100))
    (i32.store (i32.const 20) (local.get $n))
    (if (call $ok (call $fd_pwrite (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (local.get $off) (i32.const 24)))
      (then (call $e (i32.load (i32.const 24))))))
  (func $read (param $slot i32) (param $n i32)
    (i32.store (i32.const 16) (i32.const 8192))
    (i32.store (i32.const 20) (local.get $n))
    (if (call $ok (call $fd_read (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (i32.const 24)))
      (then (call $bytes))))
  (func $pread (param $slot i32) (param $n i32) (param $off i64)
    (i32.store (i32.const 16) (i32.const 8192))
    (i32.store (i32.const 20) (local.get $n))
    (if (call $ok (call $fd_pread (call $fd (local.get $slot)) (i32.const 16) (i32.const 1) (local.get $off) (i32.const 24)))
      (then (call $bytes))))
  (func $seek (param $slot i32) (param $d i64) (param $w i32)
    (if (call $ok (call $fd_seek (call $fd (local.get $slot)) (local.get $d) (local.get $w) (i32.const 32)))
      (then (call $emit (i64.load (i32.const 32))))))
  (func $truncate (param $slot i32) (param $n i64)
    (call $e (call $fd_filestat_set_size (call $fd (local.get $slot)) (local.get $n))))
  (func $close (param $slot i32)
    (call $e (call $fd_close (call $fd (local.get $slot)))))
  (func $rename (param $p i32) (param $l i32) (param $q i32) (param $m i32)
    (call $e (call $path_rename (i32.const 3) (local.get $p) (local.get $l) (i32.const 3) (local.get $q) (local.get $m))))
  (func $symlink (param $t i32) (param $tl i32) (param $p i32) (param $l i32)
    (call $e (call $path_symlink (local.get $t) (local.get $tl) (i32.const 3) (local.get $p) (local.get $l))))
;; An rmdir of `name/` refused with EINVAL is tried again as `name`, and both errnos are
  ;; printed: wasmtime-wasi removes `name/.` and gets EINVAL, koth removes `name` as Linux
  ;; does (rule `rmdir-trailing-slash`), and the sequence goes on alike.
  (func $change (param $which i32) (param $p i32) (param $l i32)
    (local $err i32)
    (local.set $err (call_indirect (type $change) (i32.const 3) (local.get $p) (local.get $l) (local.get $which)))
    (call $e (local.get $err))
    (if (i32.and (i32.and (i32.eq (local.get $which) (i32.const 1)) (i32.eq (local.get $err) (i32.const 28)))
                 (i32.eq (i32.load8_u (i32.add (local.get $p) (i32.sub (local.get $l) (i32.const 1)))) (i32.const 47))) (then
      (call $e (call_indirect (type $change) (i32.const 3) (local.get $p) (i32.sub (local.get $l) (i32.const 1)) (local.get $which))))))
  ;; The file type and size; never inode numbers or times.
  (func $stat (param $follow i32) (param $p i32) (param $l i32)
    (if (call $ok (call $path_filestat_get (i32.const 3) (local.get $follow) (local.get $p) (local.get $l) (i32.const 64))) (then
      (call $e (i32.load8_u (i32.const 80)))
      (call $emit (i64.load (i32.const 96))))))
  ;; The raw entries: the comparison leaves out what differs by design (inodes, order).
  (func $readdir (param $fd i32) (param $len i32) (param $cookie i64)
    (if (call $ok (call $fd_readdir (local.get $fd) (i32.const 8192) (local.get $len) (local.get $cookie) (i32.const 24)))
      (then (call $bytes))))
  (func (export "_start")
    {slots}
{body}  )
  {data}
)"#
    )
}

/// What one call printed: its errno and, when it succeeded, its results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 0 on success.
    pub errno: i64,
    /// The numbers it returned (descriptor, count, offset, file type and size).
    pub values: Vec<i64>,
    /// The bytes it read, or the raw directory entries it listed.
    pub bytes: Vec<u8>,
}

/// Splits a module's stdout into one record per call, or says where it does not fit.
pub fn decode(ops: &[Op], mut out: &[u8]) -> Result<Vec<Record>, String> {
    fn num(out: &mut &[u8]) -> Result<i64, String> {
        let (head, rest) = out
            .split_first_chunk::<8>()
            .ok_or("transcript ends early")?;
        *out = rest;
        Ok(i64::from_le_bytes(*head))
    }
    let mut records = Vec::with_capacity(ops.len());
    for (i, op) in ops.iter().enumerate() {
        let errno = num(&mut out).map_err(|e| format!("call {i}: {e}"))?;
        let mut r = Record {
            errno,
            values: Vec::new(),
            bytes: Vec::new(),
        };
        // The second try of an open refused with EISDIR (see `$open`): its errno, then the
        // descriptor if it worked.
        // The second try of an rmdir of `name/` refused with EINVAL (see `$change`).
        if let Op::Rmdir { path } = op {
            if errno == ERRNO_INVAL && NAMES[*path].ends_with('/') {
                r.values
                    .push(num(&mut out).map_err(|e| format!("call {i}: {e}"))?);
            }
        }
        if let Op::Open { rights, .. } = op {
            if errno == ERRNO_ISDIR && rights & RIGHT_FD_WRITE != 0 {
                let again = num(&mut out).map_err(|e| format!("call {i}: {e}"))?;
                r.values.push(again);
                if again == 0 {
                    r.values
                        .push(num(&mut out).map_err(|e| format!("call {i}: {e}"))?);
                }
            }
        }
        if errno == 0 {
            let (numbers, with_bytes) = match op {
                Op::Open { .. } | Op::Write { .. } | Op::Pwrite { .. } | Op::Seek { .. } => {
                    (1, false)
                }
                Op::Stat { .. } => (2, false),
                Op::Read { .. } | Op::Pread { .. } | Op::Readdir { .. } => (0, true),
                _ => (0, false),
            };
            for _ in 0..numbers {
                r.values
                    .push(num(&mut out).map_err(|e| format!("call {i}: {e}"))?);
            }
            if with_bytes {
                let n = num(&mut out).map_err(|e| format!("call {i}: {e}"))?;
                let n = usize::try_from(n).map_err(|_| format!("call {i}: count {n}"))?;
                if n > out.len() {
                    return Err(format!("call {i}: {n} bytes announced, {} left", out.len()));
                }
                r.values.push(n as i64);
                r.bytes = out[..n].to_vec();
                out = &out[n..];
            }
        }
        records.push(r);
    }
    if !out.is_empty() {
        return Err(format!("{} bytes after the last call", out.len()));
    }
    Ok(records)
}

/// A call as a reader would write it, for divergence reports.
pub fn describe(op: &Op) -> String {
    match *op {
        Op::Open {
            slot,
            follow,
            path,
            oflags,
            rights,
            fdflags,
        } => format!(
            "path_open({:?}, follow={follow}, oflags={oflags:#x}, rights={rights:#x}, fdflags={fdflags}) -> slot {slot}",
            NAMES[path]
        ),
        Op::Rename { from, to } => format!("path_rename({:?}, {:?})", NAMES[from], NAMES[to]),
        Op::Symlink { target, path } => {
            format!("path_symlink({:?} at {:?})", TARGETS[target], NAMES[path])
        }
        Op::Mkdir { path } => format!("path_create_directory({:?})", NAMES[path]),
        Op::Rmdir { path } => format!("path_remove_directory({:?})", NAMES[path]),
        Op::Unlink { path } => format!("path_unlink_file({:?})", NAMES[path]),
        Op::Stat { follow, path } => {
            format!("path_filestat_get({:?}, follow={follow})", NAMES[path])
        }
        other => format!("{other:?}"),
    }
}
