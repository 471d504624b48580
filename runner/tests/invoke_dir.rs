//! `koth invoke --dir`: the whole tree is loaded inside the quotas with what is refused
//! listed, and nothing the bot leaves is written back through a host symlink at any depth.

use std::path::Path;
use std::process::{Command, Output};

/// The bot: makes `sub/` and `a/l/`, writes `pwned` into both (where the host has symlinks
/// leading out of DIR), then prints what `a/link` holds.
const ATTACKER: &str = r#"(module
  (import "wasi_snapshot_preview1" "path_open" (func $open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $mkdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $read (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 100) "sub")
  (data (i32.const 110) "sub/pwned")
  (data (i32.const 130) "a/l")
  (data (i32.const 140) "a/l/pwned")
  (data (i32.const 160) "a/link")
  (data (i32.const 200) "pwned")
  (func $put (param $p i32) (param $len i32)
    (drop (call $open (i32.const 3) (i32.const 0) (local.get $p) (local.get $len) (i32.const 1)
      (i64.const 0x40) (i64.const 0) (i32.const 0) (i32.const 0)))
    (i32.store (i32.const 8) (i32.const 200))
    (i32.store (i32.const 12) (i32.const 5))
    (drop (call $write (i32.load (i32.const 0)) (i32.const 8) (i32.const 1) (i32.const 16))))
  (func (export "_start")
    (drop (call $mkdir (i32.const 3) (i32.const 100) (i32.const 3)))
    (call $put (i32.const 110) (i32.const 9))
    (drop (call $mkdir (i32.const 3) (i32.const 130) (i32.const 3)))
    (call $put (i32.const 140) (i32.const 9))
    (drop (call $open (i32.const 3) (i32.const 1) (i32.const 160) (i32.const 6) (i32.const 0)
      (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 0)))
    (i32.store (i32.const 8) (i32.const 1024))
    (i32.store (i32.const 12) (i32.const 64))
    (drop (call $read (i32.load (i32.const 0)) (i32.const 8) (i32.const 1) (i32.const 16)))
    (i32.store (i32.const 12) (i32.load (i32.const 16)))
    (drop (call $write (i32.const 1) (i32.const 8) (i32.const 1) (i32.const 16)))))"#;

fn koth(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koth"))
        .args(args.iter().map(|a| a.as_ref()))
        .arg("--no-cache")
        .output()
        .expect("run koth")
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, bytes).expect("write");
}

#[test]
fn dir_loads_the_tree_and_writes_nothing_back_through_host_symlinks() {
    let tmp = tempfile::tempdir().expect("a temp dir");
    let root = tmp.path();
    let dir = root.join("dir");
    let victim = root.join("victim");
    write(&victim.join("existing.txt"), b"original");
    write(&dir.join("top.txt"), b"T");
    write(&dir.join("a/b/c.txt"), b"C-content");
    std::os::unix::fs::symlink("b/c.txt", dir.join("a/link")).expect("symlink");
    std::os::unix::fs::symlink("../victim", dir.join("sub")).expect("symlink");
    std::os::unix::fs::symlink("../../victim", dir.join("a/l")).expect("symlink");
    std::os::unix::fs::symlink("/etc/passwd", dir.join("abs")).expect("symlink");
    let bot = root.join("bot.wasm");
    write(&bot, &wat::parse_str(ATTACKER).expect("wat"));

    let o = koth(&[&"invoke", &bot, &"--dir", &dir]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{out}{err}");
    // The tree was loaded: the bot read a/b/c.txt through a/link.
    assert!(out.contains("C-content"), "{out}");
    for line in [
        "  a/b/c.txt (9 bytes)",
        "  a/link -> b/c.txt",
        "  top.txt (1 bytes)",
    ] {
        assert!(out.contains(line), "{line:?} missing from {out}");
    }
    // The symlinks that lead out were refused, each with its reason.
    for name in ["abs", "sub", "a/l"] {
        assert!(
            err.contains(&format!(
                "{} not loaded: symlink to",
                dir.join(name).display()
            )),
            "{name}: {err}"
        );
    }
    assert!(err.contains("3 entries of"), "{err}");
    // Nothing went through the host's symlinks, at the top or deeper.
    assert!(err.contains("sub/pwned not written back"), "{err}");
    assert!(err.contains("a/l/pwned not written back"), "{err}");
    assert_eq!(
        std::fs::read(victim.join("existing.txt")).expect("read"),
        b"original"
    );
    assert!(!victim.join("pwned").exists());
    let listed: Vec<_> = std::fs::read_dir(&victim).expect("victim").collect();
    assert_eq!(listed.len(), 1);
}

#[test]
fn memory_past_4_gib_is_refused() {
    let tmp = tempfile::tempdir().expect("a temp dir");
    let bot = tmp.path().join("bot.wasm");
    write(&bot, &wat::parse_str(ATTACKER).expect("wat"));
    for mib in ["17592186044416", "4097", "0"] {
        let o = koth(&[&"invoke", &bot, &"--memory", &mib]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_ne!(o.status.code(), Some(0), "--memory {mib}");
        assert!(err.contains("must be between 1 and 4096 MiB"), "{err}");
    }
}
