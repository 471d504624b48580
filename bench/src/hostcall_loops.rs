//! Bots that call one WASI function in an endless loop with its most expensive arguments
//! inside the quotas, until their fuel runs out: the proof that fuel bounds the host's work
//! as well as the guest's. The hostile test suite runs every one and asserts `out of fuel`
//! (or `ok`), never the wall-clock backstop; `koth bench hostcalls` times each against a
//! pure-wasm loop burning the same fuel.
//!
//! Each bot first builds the state that makes its call expensive (a chain of 32 symlinks whose
//! targets are 4 KiB of `./`, a directory of 60 files with 201-byte names, a 1 MiB file and
//! 1024 iovecs of 1 KiB, …), checking every set-up call's errno, then loops on the call,
//! checking that it returns the errno expected every time (a loop that failed early, say on
//! `ENOENT`, would prove nothing). A wrong errno traps (`unreachable`).

use koth::sandbox::preview1::{
    FILE_RIGHTS, FUNCTIONS, MAX_IOVECS, MAX_SUBSCRIPTIONS, SUBSCRIPTION_SIZE,
};
use koth::sandbox::Errno;
use std::fmt::Write as _;

/// One looping bot.
#[derive(Debug, Clone)]
pub struct HostcallLoop {
    /// The WASI function under attack.
    pub function: &'static str,
    /// What makes this loop expensive.
    pub what: &'static str,
    /// The module, as WAT text.
    pub wat: String,
}

impl HostcallLoop {
    /// A short unique label: the function and what the loop does.
    pub fn label(&self) -> String {
        format!("{}: {}", self.function, self.what)
    }

    /// The binary module.
    ///
    /// # Errors
    ///
    /// Only if the generator itself is broken (the text does not parse).
    pub fn module(&self) -> Result<Vec<u8>, wat::Error> {
        wat::parse_str(&self.wat)
    }
}

pub use koth::sandbox::fuzz::pure_loop;

/// A tighter pure-wasm loop (a counter in a local: five operators per branch), which burns
/// fuel faster than [`pure_loop`]; the benchmark reports both.
pub fn counter_loop() -> String {
    "(module (memory (export \"memory\") 1)\n\
     (func (export \"_start\") (local $i i32)\n\
       (loop $l (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $l))))"
        .to_string()
}

// Memory layout of every bot.
/// u32 results.
const OUT: u32 = 8;
/// u64 results.
const OUT64: u32 = 16;
/// Stat and fdstat buffers.
const STAT: u32 = 64;
/// Where the generated data (paths, targets, iovec arrays, subscriptions) starts.
const DATA: u32 = 0x1_0000;
/// A 1 MiB buffer for reads, writes, `random_get`, listings.
const BUF: u32 = 0x20_0000;
/// Pages of memory (4 MiB).
const PAGES: u32 = 64;
/// The byte quota of the default virtual directory, and the per-call I/O cap.
const MIB: u64 = 1 << 20;
/// The first descriptor a bot opens.
const FD: u32 = 4;
/// Every right.
const ALL_RIGHTS: u64 = (1 << 29) - 1;
/// The right to write.
const FD_WRITE: u64 = 0x40;

/// oflags.
const CREAT: u32 = 1;
const DIRECTORY: u32 = 2;
const TRUNC: u32 = 8;

/// A call argument.
#[derive(Clone, Copy)]
enum A {
    I(u32),
    L(u64),
}
use A::{I, L};

/// A bot under construction.
struct Bot {
    data: Vec<(u32, Vec<u8>)>,
    next: u32,
    setup: String,
    body: String,
}

fn call(f: &str, args: &[A]) -> String {
    let mut s = format!("(call ${f}");
    for a in args {
        match a {
            I(v) => write!(s, " (i32.const {})", *v as i32),
            L(v) => write!(s, " (i64.const {})", *v as i64),
        }
        .unwrap_or(());
    }
    s.push(')');
    s
}

impl Bot {
    fn new() -> Bot {
        Bot {
            data: Vec::new(),
            next: DATA,
            setup: String::new(),
            body: String::new(),
        }
    }

    /// Place `bytes` in memory: (address, length).
    fn bytes(&mut self, bytes: &[u8]) -> (u32, u32) {
        let at = self.next;
        self.data.push((at, bytes.to_vec()));
        self.next += (bytes.len() as u32 + 8) & !7;
        (at, bytes.len() as u32)
    }

    /// A set-up call that must return `want`.
    fn setup(&mut self, want: Errno, f: &str, args: &[A]) {
        writeln!(
            self.setup,
            "    (call $expect (i32.const {}) {})",
            want.raw(),
            call(f, args)
        )
        .unwrap_or(());
    }

    /// A call of the loop that must return `want` every time.
    fn body(&mut self, want: Errno, f: &str, args: &[A]) {
        writeln!(
            self.body,
            "      (call $expect (i32.const {}) {})",
            want.raw(),
            call(f, args)
        )
        .unwrap_or(());
    }

    /// Open `path` (created if missing) from the root with every right: fd [`FD`] for the
    /// first one opened.
    fn open_setup(&mut self, path: &[u8], oflags: u32) {
        let (p, l) = self.bytes(path);
        self.setup(
            Errno::Success,
            "path_open",
            &[
                I(3),
                I(0),
                I(p),
                I(l),
                I(oflags),
                L(ALL_RIGHTS),
                L(ALL_RIGHTS),
                I(0),
                I(OUT),
            ],
        );
    }

    /// A file of `len` bytes at `name`, open as fd [`FD`].
    fn big_file(&mut self, name: &[u8], len: u64) {
        self.open_setup(name, CREAT);
        self.setup(Errno::Success, "fd_filestat_set_size", &[I(FD), L(len)]);
    }

    /// An array of `n` iovecs of `each` bytes over [`BUF`].
    fn iovecs(&mut self, n: u32, each: u32) -> u32 {
        let mut raw = Vec::with_capacity(n as usize * 8);
        for i in 0..n {
            raw.extend_from_slice(&(BUF + i * each).to_le_bytes());
            raw.extend_from_slice(&each.to_le_bytes());
        }
        self.bytes(&raw).0
    }

    fn finish(self, function: &'static str, what: &'static str) -> HostcallLoop {
        let mut wat = format!(
            "(module\n{}\n  (memory (export \"memory\") {PAGES})\n",
            imports()
        );
        wat.push_str(
            "  (func $expect (param $want i32) (param $got i32)\n    \
             (if (i32.ne (local.get $want) (local.get $got)) (then unreachable)))\n",
        );
        write!(
            wat,
            "  (func $setup\n{}  )\n  (func (export \"_start\")\n    (call $setup)\n    (loop $l\n{}      (br $l)))\n",
            self.setup, self.body
        )
        .unwrap_or(());
        for (at, bytes) in &self.data {
            write!(wat, "  (data (i32.const {at}) \"").unwrap_or(());
            for &b in bytes {
                if b.is_ascii_alphanumeric() || b"./_-".contains(&b) {
                    wat.push(b as char);
                } else {
                    write!(wat, "\\{b:02x}").unwrap_or(());
                }
            }
            wat.push_str("\")\n");
        }
        wat.push_str(")\n");
        HostcallLoop {
            function,
            what,
            wat,
        }
    }
}

/// The WASI signature of each function (parameters, then whether it returns an errno).
fn signature(f: &str) -> (&'static str, bool) {
    match f {
        "args_get"
        | "args_sizes_get"
        | "environ_get"
        | "environ_sizes_get"
        | "clock_res_get"
        | "fd_fdstat_get"
        | "fd_fdstat_set_flags"
        | "fd_filestat_get"
        | "fd_prestat_get"
        | "fd_renumber"
        | "fd_tell"
        | "random_get"
        | "sock_shutdown" => ("i32 i32", true),
        "clock_time_get" => ("i32 i64 i32", true),
        "fd_advise" => ("i32 i64 i64 i32", true),
        "fd_allocate" | "fd_fdstat_set_rights" => ("i32 i64 i64", true),
        "fd_close" | "fd_datasync" | "fd_sync" | "proc_raise" => ("i32", true),
        "fd_filestat_set_size" => ("i32 i64", true),
        "fd_filestat_set_times" => ("i32 i64 i64 i32", true),
        "fd_pread" | "fd_pwrite" | "fd_readdir" => ("i32 i32 i32 i64 i32", true),
        "fd_prestat_dir_name"
        | "path_create_directory"
        | "path_remove_directory"
        | "path_unlink_file"
        | "sock_accept" => ("i32 i32 i32", true),
        "fd_read" | "fd_write" | "poll_oneoff" => ("i32 i32 i32 i32", true),
        "fd_seek" => ("i32 i64 i32 i32", true),
        "path_filestat_get" | "path_symlink" | "sock_send" => ("i32 i32 i32 i32 i32", true),
        "path_filestat_set_times" => ("i32 i32 i32 i32 i64 i64 i32", true),
        "path_link" => ("i32 i32 i32 i32 i32 i32 i32", true),
        "path_open" => ("i32 i32 i32 i32 i32 i64 i64 i32 i32", true),
        "path_readlink" | "path_rename" | "sock_recv" => ("i32 i32 i32 i32 i32 i32", true),
        "proc_exit" => ("i32", false),
        _ => ("", true), // sched_yield
    }
}

/// Imports of every WASI function, each as `$name`.
fn imports() -> String {
    let mut s = String::new();
    for f in FUNCTIONS {
        let (params, result) = signature(f);
        writeln!(
            s,
            "  (import \"wasi_snapshot_preview1\" \"{f}\" (func ${f} (param {params}){}))",
            if result { " (result i32)" } else { "" }
        )
        .unwrap_or(());
    }
    s
}

/// `unit` repeated to exactly `len` bytes (padded with `/`, which resolution skips).
fn filler(unit: &[u8], len: usize) -> Vec<u8> {
    let mut v = Vec::with_capacity(len);
    while v.len() + unit.len() <= len {
        v.extend_from_slice(unit);
    }
    v.resize(len, b'/');
    v
}

/// Longest path or symlink target.
const PATH_MAX: usize = 4096;
/// Symlinks one resolution may follow.
const FOLLOWS: usize = 32;

/// The costliest resolution inside the quotas: a folder `d` and a chain of 32 symlinks
/// `l00 → … → l31 → d`, each target 4 KiB of `unit` (`./` or `d/../`) before the next name.
/// Returns a function giving the 4 KiB path that walks the whole chain to `d/<name>`.
fn deep_paths(b: &mut Bot, unit: &[u8]) -> impl Fn(&[u8]) -> Vec<u8> {
    let (d, dl) = b.bytes(b"d");
    b.setup(
        Errno::Success,
        "path_create_directory",
        &[I(3), I(d), I(dl)],
    );
    for i in 0..FOLLOWS {
        let next = if i + 1 == FOLLOWS {
            b"d".to_vec()
        } else {
            format!("l{:02}", i + 1).into_bytes()
        };
        let mut target = filler(unit, PATH_MAX - next.len());
        target.extend_from_slice(&next);
        let (t, tl) = b.bytes(&target);
        let (p, pl) = b.bytes(format!("l{i:02}").as_bytes());
        b.setup(
            Errno::Success,
            "path_symlink",
            &[I(t), I(tl), I(3), I(p), I(pl)],
        );
    }
    let unit = unit.to_vec();
    move |name: &[u8]| {
        let mut path = filler(&unit, PATH_MAX - 4 - name.len());
        path.extend_from_slice(b"l00/");
        path.extend_from_slice(name);
        path
    }
}

/// Every looping bot: at least one per WASI function koth provides.
pub fn loops() -> Vec<HostcallLoop> {
    let mut all = Vec::new();
    let mut add = |b: Bot, f: &'static str, what: &'static str| all.push(b.finish(f, what));
    let ok = Errno::Success;

    // ---- arguments, environment, clocks, randomness, scheduling, sockets ----
    for (f, what, args) in [
        ("args_get", "every argument", [I(0x100), I(0x1000)]),
        ("args_sizes_get", "counts", [I(OUT), I(OUT + 4)]),
        ("environ_get", "empty", [I(0x100), I(0x1000)]),
        ("environ_sizes_get", "counts", [I(OUT), I(OUT + 4)]),
        ("clock_res_get", "monotonic", [I(1), I(OUT64)]),
        ("random_get", "1 MiB per call", [I(BUF), I(MIB as u32)]),
        ("fd_prestat_get", "the root", [I(3), I(OUT)]),
        ("fd_fdstat_get", "the root", [I(3), I(STAT)]),
        ("fd_filestat_get", "the root", [I(3), I(STAT)]),
        ("sock_shutdown", "the root", [I(3), I(0)]),
    ] {
        let mut b = Bot::new();
        let want = if f == "sock_shutdown" {
            Errno::Notsock
        } else {
            ok
        };
        b.body(want, f, &args);
        add(b, f, what);
    }
    let mut b = Bot::new();
    b.body(ok, "clock_time_get", &[I(1), L(0), I(OUT64)]);
    add(b, "clock_time_get", "monotonic");
    let mut b = Bot::new();
    b.body(ok, "fd_prestat_dir_name", &[I(3), I(0x100), I(1)]);
    add(b, "fd_prestat_dir_name", "the root");
    let mut b = Bot::new();
    b.body(ok, "sched_yield", &[]);
    add(b, "sched_yield", "endless");
    let mut b = Bot::new();
    b.body(Errno::Nosys, "proc_raise", &[I(9)]);
    add(b, "proc_raise", "SIGKILL");
    let mut b = Bot::new();
    writeln!(b.body, "      {}", call("proc_exit", &[I(0)])).unwrap_or(());
    add(b, "proc_exit", "exit at once (ok)");
    let mut b = Bot::new();
    b.body(Errno::Notsock, "sock_accept", &[I(3), I(0), I(OUT)]);
    add(b, "sock_accept", "the root");
    let mut b = Bot::new();
    let iov = b.iovecs(MAX_IOVECS, 1024);
    b.body(
        Errno::Notsock,
        "sock_recv",
        &[I(3), I(iov), I(MAX_IOVECS), I(0), I(OUT), I(OUT + 4)],
    );
    add(b, "sock_recv", "1024 iovecs");
    let mut b = Bot::new();
    let iov = b.iovecs(MAX_IOVECS, 1024);
    b.body(
        Errno::Notsock,
        "sock_send",
        &[I(3), I(iov), I(MAX_IOVECS), I(0), I(OUT)],
    );
    add(b, "sock_send", "1024 iovecs");

    // ---- descriptors on a 1 MiB file ----
    let simple: [(&'static str, &'static str, Vec<A>); 9] = [
        ("fd_advise", "willneed", vec![I(FD), L(0), L(MIB), I(3)]),
        ("fd_datasync", "a file", vec![I(FD)]),
        ("fd_sync", "a file", vec![I(FD)]),
        ("fd_fdstat_set_flags", "append on", vec![I(FD), I(1)]),
        (
            "fd_fdstat_set_rights",
            "keep every right",
            vec![I(FD), L(FILE_RIGHTS), L(0)],
        ),
        (
            "fd_filestat_set_times",
            "both times",
            vec![I(FD), L(1), L(2), I(5)],
        ),
        ("fd_seek", "to the end", vec![I(FD), L(0), I(2), I(OUT64)]),
        ("fd_tell", "a file", vec![I(FD), I(OUT64)]),
        ("fd_renumber", "onto itself", vec![I(FD), I(FD)]),
    ];
    for (f, what, args) in simple {
        let mut b = Bot::new();
        b.big_file(b"f", MIB);
        b.body(ok, f, &args);
        add(b, f, what);
    }
    let mut b = Bot::new();
    b.big_file(b"f", 0);
    b.body(ok, "fd_filestat_set_size", &[I(FD), L(MIB)]);
    b.body(ok, "fd_filestat_set_size", &[I(FD), L(0)]);
    add(b, "fd_filestat_set_size", "grow to 1 MiB and back");
    let mut b = Bot::new();
    b.big_file(b"f", MIB);
    b.body(ok, "fd_filestat_set_size", &[I(FD), L(MIB / 2 - 1)]);
    b.body(ok, "fd_filestat_set_size", &[I(FD), L(MIB / 2)]);
    add(
        b,
        "fd_filestat_set_size",
        "shrink one byte below half, grow back",
    );
    let mut b = Bot::new();
    b.big_file(b"f", 0);
    b.body(ok, "fd_allocate", &[I(FD), L(0), L(MIB)]);
    b.body(ok, "fd_filestat_set_size", &[I(FD), L(0)]);
    add(b, "fd_allocate", "1 MiB, then truncate");
    let mut b = Bot::new();
    b.big_file(b"f", MIB);
    b.setup(ok, "fd_close", &[I(FD)]);
    let (p, l) = b.bytes(b"f");
    b.body(
        ok,
        "path_open",
        &[
            I(3),
            I(0),
            I(p),
            I(l),
            I(0),
            L(ALL_RIGHTS),
            L(0),
            I(0),
            I(OUT),
        ],
    );
    b.body(ok, "fd_close", &[I(FD)]);
    add(b, "fd_close", "open and close");

    // Reads and writes: 1024 iovecs of 1 KiB (the per-call cap), or 1024 empty ones.
    for (f, what, each) in [
        ("fd_pread", "1024 iovecs of 1 KiB", 1024),
        ("fd_pwrite", "1024 iovecs of 1 KiB", 1024),
        ("fd_read", "1024 iovecs of 1 KiB", 1024),
        ("fd_write", "1024 iovecs of 1 KiB", 1024),
        ("fd_read", "1024 empty iovecs", 0),
        ("fd_write", "1024 empty iovecs", 0),
        ("fd_pread", "1024 iovecs of 1 byte", 1),
    ] {
        let mut b = Bot::new();
        b.big_file(b"f", MIB);
        let iov = b.iovecs(MAX_IOVECS, each);
        match f {
            "fd_pread" | "fd_pwrite" => {
                b.body(ok, f, &[I(FD), I(iov), I(MAX_IOVECS), L(0), I(OUT)]);
            }
            _ => {
                b.body(ok, "fd_seek", &[I(FD), L(0), I(0), I(OUT64)]);
                b.body(ok, f, &[I(FD), I(iov), I(MAX_IOVECS), I(OUT)]);
            }
        }
        add(b, f, what);
    }
    let mut b = Bot::new();
    let iov = b.iovecs(MAX_IOVECS, 1024);
    b.body(ok, "fd_write", &[I(2), I(iov), I(MAX_IOVECS), I(OUT)]);
    add(b, "fd_write", "1 MiB to stderr (dropped past its cap)");

    // ---- directory listings ----
    for (what, buf_len, cookie) in [
        (
            "60 names of 201 bytes, 16-byte buffer, cookie 0",
            16u32,
            0u64,
        ),
        ("60 names of 201 bytes, whole listing", 64 << 10, 0),
        ("60 names of 201 bytes, skip to the last", 16, 61),
    ] {
        let mut b = Bot::new();
        for i in 0..60 {
            let mut name = filler(b"n", 198);
            name.extend_from_slice(format!("{i:03}").as_bytes());
            b.open_setup(&name, CREAT);
            b.setup(ok, "fd_close", &[I(FD)]);
        }
        b.body(
            ok,
            "fd_readdir",
            &[I(3), I(BUF), I(buf_len), L(cookie), I(OUT)],
        );
        add(b, "fd_readdir", what);
    }

    // ---- polling ----
    for (what, tag) in [("1024 fd_read subscriptions", 1u8), ("1024 clocks", 0)] {
        let mut b = Bot::new();
        b.big_file(b"f", MIB);
        let mut subs = Vec::new();
        for i in 0..MAX_SUBSCRIPTIONS {
            let mut s = [0u8; SUBSCRIPTION_SIZE as usize];
            s[0..8].copy_from_slice(&u64::from(i).to_le_bytes());
            s[8] = tag;
            // fd (tag 1) or clock id 1, monotonic (tag 0), with a timeout of 1 ns.
            s[16..20].copy_from_slice(&if tag == 1 { FD } else { 1 }.to_le_bytes());
            s[24..32].copy_from_slice(&1u64.to_le_bytes());
            subs.extend_from_slice(&s);
        }
        let (subs, _) = b.bytes(&subs);
        b.body(
            ok,
            "poll_oneoff",
            &[I(subs), I(BUF), I(MAX_SUBSCRIPTIONS), I(OUT)],
        );
        add(b, "poll_oneoff", what);
    }

    // ---- path resolution ----
    // The issue's chain: 40 links to a file, stat'ed through the chain (ELOOP after 32).
    let mut b = Bot::new();
    b.open_setup(b"f", CREAT);
    for i in 0..40 {
        let target = if i == 39 {
            "f".to_string()
        } else {
            format!("s{:02}", i + 1)
        };
        let (t, tl) = b.bytes(target.as_bytes());
        let (p, pl) = b.bytes(format!("s{i:02}").as_bytes());
        b.setup(ok, "path_symlink", &[I(t), I(tl), I(3), I(p), I(pl)]);
    }
    let (p, l) = b.bytes(b"s00");
    b.body(
        Errno::Loop,
        "path_filestat_get",
        &[I(3), I(1), I(p), I(l), I(STAT)],
    );
    add(b, "path_filestat_get", "40-symlink chain");

    for (unit, what) in [
        (&b"./"[..], "32 links of 4 KiB of ./"),
        (&b"d/../"[..], "32 links of 4 KiB of d/../"),
    ] {
        let mut b = Bot::new();
        let deep = deep_paths(&mut b, unit);
        let (x, xl) = b.bytes(b"d/x");
        b.setup(ok, "path_create_directory", &[I(3), I(x), I(xl)]);
        let (p, l) = b.bytes(&deep(b"x"));
        b.body(ok, "path_filestat_get", &[I(3), I(1), I(p), I(l), I(STAT)]);
        add(b, "path_filestat_get", what);
    }

    let what = "through 32 links of 4 KiB of ./";
    // mkdir + rmdir.
    for f in ["path_create_directory", "path_remove_directory"] {
        let mut b = Bot::new();
        let deep = deep_paths(&mut b, b"./");
        let (p, l) = b.bytes(&deep(b"x"));
        b.body(ok, "path_create_directory", &[I(3), I(p), I(l)]);
        b.body(ok, "path_remove_directory", &[I(3), I(p), I(l)]);
        add(b, f, what);
    }
    // Set times.
    let mut b = Bot::new();
    let deep = deep_paths(&mut b, b"./");
    let (p, l) = b.bytes(&deep(b""));
    b.body(
        ok,
        "path_filestat_set_times",
        &[I(3), I(1), I(p), I(l), L(1), L(2), I(5)],
    );
    add(b, "path_filestat_set_times", what);
    // Hard links are refused without resolving anything.
    let mut b = Bot::new();
    let deep = deep_paths(&mut b, b"./");
    let (p, l) = b.bytes(&deep(b"x"));
    b.body(
        Errno::Notsup,
        "path_link",
        &[I(3), I(1), I(p), I(l), I(3), I(p), I(l)],
    );
    add(b, "path_link", what);
    // Open (creating) and close; unlink.
    for f in ["path_open", "path_unlink_file"] {
        let mut b = Bot::new();
        let deep = deep_paths(&mut b, b"./");
        let (p, l) = b.bytes(&deep(b"x"));
        b.body(
            ok,
            "path_open",
            &[
                I(3),
                I(1),
                I(p),
                I(l),
                I(CREAT | TRUNC),
                L(ALL_RIGHTS),
                L(ALL_RIGHTS),
                I(0),
                I(OUT),
            ],
        );
        b.body(ok, "fd_close", &[I(FD)]);
        b.body(ok, "path_unlink_file", &[I(3), I(p), I(l)]);
        add(b, f, what);
    }
    // Open a directory through the chain.
    let mut b = Bot::new();
    let deep = deep_paths(&mut b, b"./");
    let (p, l) = b.bytes(&deep(b"."));
    b.body(
        ok,
        "path_open",
        &[
            I(3),
            I(1),
            I(p),
            I(l),
            I(DIRECTORY),
            // Every right but FD_WRITE: a directory asked for with it is EISDIR.
            L(ALL_RIGHTS & !FD_WRITE),
            L(ALL_RIGHTS),
            I(0),
            I(OUT),
        ],
    );
    b.body(ok, "fd_close", &[I(FD)]);
    add(
        b,
        "path_open",
        "a directory through 32 links of 4 KiB of ./",
    );
    // Symlink with a 4 KiB target, then unlink it.
    let mut b = Bot::new();
    let deep = deep_paths(&mut b, b"./");
    let (p, l) = b.bytes(&deep(b"s"));
    let (t, tl) = b.bytes(&filler(b"./", PATH_MAX));
    b.body(ok, "path_symlink", &[I(t), I(tl), I(3), I(p), I(l)]);
    b.body(ok, "path_unlink_file", &[I(3), I(p), I(l)]);
    add(
        b,
        "path_symlink",
        "a 4 KiB target, through 32 links of 4 KiB of ./",
    );
    // Readlink of a 4 KiB target.
    let mut b = Bot::new();
    let deep = deep_paths(&mut b, b"./");
    let (t, tl) = b.bytes(&filler(b"./", PATH_MAX));
    let (r, rl) = b.bytes(b"d/r");
    b.setup(ok, "path_symlink", &[I(t), I(tl), I(3), I(r), I(rl)]);
    let (p, l) = b.bytes(&deep(b"r"));
    b.body(
        ok,
        "path_readlink",
        &[I(3), I(p), I(l), I(BUF), I(PATH_MAX as u32), I(OUT)],
    );
    add(
        b,
        "path_readlink",
        "a 4 KiB target, through 32 links of 4 KiB of ./",
    );
    // Rename there and back, both paths through the chain.
    let mut b = Bot::new();
    let deep = deep_paths(&mut b, b"./");
    let (x, xl) = b.bytes(b"d/x");
    b.setup(ok, "path_create_directory", &[I(3), I(x), I(xl)]);
    let (p, l) = b.bytes(&deep(b"x"));
    let (q, ql) = b.bytes(&deep(b"y"));
    b.body(ok, "path_rename", &[I(3), I(p), I(l), I(3), I(q), I(ql)]);
    b.body(ok, "path_rename", &[I(3), I(q), I(ql), I(3), I(p), I(l)]);
    add(b, "path_rename", what);
    // Rename a subtree of 62 nodes up and down one level: every node's depth changes.
    let mut b = Bot::new();
    let mut path = b"t".to_vec();
    let (p, l) = b.bytes(&path);
    b.setup(ok, "path_create_directory", &[I(3), I(p), I(l)]);
    for i in 0..14 {
        path.extend_from_slice(format!("/{i:x}").as_bytes());
        let (p, l) = b.bytes(&path);
        b.setup(ok, "path_create_directory", &[I(3), I(p), I(l)]);
    }
    for i in 0..46 {
        let (p, l) = b.bytes(format!("t/s{i}").as_bytes());
        b.setup(ok, "path_create_directory", &[I(3), I(p), I(l)]);
    }
    let (u, ul) = b.bytes(b"u");
    b.setup(ok, "path_create_directory", &[I(3), I(u), I(ul)]);
    let (t, tl) = b.bytes(b"t");
    let (ut, utl) = b.bytes(b"u/t");
    b.body(ok, "path_rename", &[I(3), I(t), I(tl), I(3), I(ut), I(utl)]);
    b.body(ok, "path_rename", &[I(3), I(ut), I(utl), I(3), I(t), I(tl)]);
    add(
        b,
        "path_rename",
        "a subtree of 61 folders, one level down and back",
    );

    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_has_a_loop_and_every_module_parses() {
        let loops = loops();
        for f in FUNCTIONS {
            assert!(loops.iter().any(|l| l.function == *f), "no loop for {f}");
        }
        for l in &loops {
            l.module().unwrap_or_else(|e| panic!("{}: {e}", l.label()));
        }
        wat::parse_str(pure_loop()).expect("the pure loop parses");
        wat::parse_str(counter_loop()).expect("the counter loop parses");
    }
}
