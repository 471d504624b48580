//! The `koth` command on bad input: every error names the file, the bot or the option at
//! fault, and a broken bot stops a tournament before any game is played.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HELLO: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $w (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 100) "hello\n")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 100)) (i32.store (i32.const 4) (i32.const 6))
    (drop (call $w (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))"#;

const UNKNOWN_IMPORT: &str = r#"(module
  (import "env" "launch_missiles" (func))
  (memory (export "memory") 1)
  (func (export "_start")))"#;

/// The per-match file `name` of the archive at `out`, read from its `matches.zip.zst`.
fn match_file(out: &Path, name: &str) -> String {
    let mut reader = koth::tournament::container::Reader::open(out).unwrap();
    let bytes = reader
        .read(name)
        .unwrap()
        .unwrap_or_else(|| panic!("{name} missing from {}", reader.source()));
    String::from_utf8(bytes).unwrap()
}

struct Dir(PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("koth-cli-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    fn wat(&self, name: &str, text: &str) -> PathBuf {
        self.file(name, &wat::parse_str(text).unwrap())
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn koth(args: &[&dyn AsRef<std::ffi::OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_koth"))
        .args(args.iter().map(|a| a.as_ref()))
        .arg("--no-cache")
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn check_names_each_bot_and_its_fault() {
    let d = Dir::new("check");
    let good = d.wat("good.wasm", HELLO);
    let garbage = d.file("garbage.wasm", b"definitely not wasm");
    let import = d.wat("importer.wasm", UNKNOWN_IMPORT);
    let missing = d.0.join("missing.wasm");
    let o = koth(&[&"check", &good, &garbage, &import, &missing]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("OK    good"), "{t}");
    assert!(
        t.contains("bot `garbage`")
            && t.contains("garbage.wasm")
            && t.contains("not a WebAssembly module"),
        "{t}"
    );
    assert!(
        t.contains("bot `importer`") && t.contains("`env::launch_missiles`"),
        "{t}"
    );
    assert!(
        t.contains("bot `missing`") && t.contains("cannot read the file"),
        "{t}"
    );
    assert!(t.contains("3 of 4 bots failed"), "{t}");
}

#[test]
fn a_broken_bot_stops_the_tournament_before_it_starts() {
    let d = Dir::new("coup");
    let good = d.wat("good.wasm", HELLO);
    let good2 = d.wat("good2.wasm", HELLO);
    let broken = d.file("broken.wasm", b"\0asm\x01\0\0\0\x01");
    let out = d.0.join("archive");
    let o = koth(&[&"coup", &good, &broken, &good2, &"--out", &out]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("bot `broken`") && t.contains("broken.wasm"),
        "{t}"
    );
    assert!(t.contains("nothing was played"), "{t}");
    assert!(
        !out.exists(),
        "no archive is written when nothing was played"
    );
}

#[test]
fn bad_options_are_named() {
    let d = Dir::new("opts");
    let a = d.wat("a.wasm", HELLO);
    let b = d.wat("b.wasm", HELLO);
    let o = koth(&[&"coup", &a, &b, &"--memory", &"0"]);
    assert!(text(&o).contains("--memory 0"), "{}", text(&o));
    let o = koth(&[&"coup", &a, &b, &"--jobs", &"0"]);
    assert!(text(&o).contains("--jobs"), "{}", text(&o));
    let o = koth(&[&"coup", &a, &a]);
    assert!(text(&o).contains("two bots are named `a`"), "{}", text(&o));
    let o = koth(&[&"coup", &a]);
    assert!(text(&o).contains("at least two bots"), "{}", text(&o));
    // An --out folder holding something else is never replaced.
    let keep = d.0.join("keep");
    std::fs::create_dir_all(&keep).unwrap();
    std::fs::write(keep.join("thesis.txt"), b"precious").unwrap();
    let o = koth(&[&"coup", &a, &b, &"--rounds", &"1", &"--out", &keep]);
    assert!(
        text(&o).contains("not an empty folder or a koth archive"),
        "{}",
        text(&o)
    );
    assert_eq!(std::fs::read(keep.join("thesis.txt")).unwrap(), b"precious");
}

#[test]
fn invoke_prints_the_outcome_stdout_and_the_directory() {
    let d = Dir::new("invoke");
    let bot = d.wat("hello.wasm", HELLO);
    let o = koth(&[&"invoke", &bot, &"--", &"x"]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("outcome:   ok") && t.contains("hello") && t.contains("fuel used:"),
        "{t}"
    );
    let missing = koth(&[&"invoke", &bot, &"--stdin", &Path::new("/no/such/file")]);
    assert!(
        text(&missing).contains("--stdin /no/such/file"),
        "{}",
        text(&missing)
    );
}

#[test]
fn bank_heist_runs_and_names_bad_options() {
    let d = Dir::new("bank-heist");
    // It prints `hello`, which is no bet: every decision falls back to a bet of 0.
    let bot = d.wat("hello.wasm", HELLO);
    let out = d.0.join("archive");
    let o = koth(&[&"bank-heist", &bot, &"--games", &"5", &"--out", &out]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("credits") && t.contains("mean credits") && t.contains(" sd "),
        "{t}"
    );
    assert!(t.contains("hello") && t.contains("not a bet: 5"), "{t}");
    // 240 to start, 240 a game.
    assert!(t.contains("1440"), "{t}");
    for f in [
        "manifest.json",
        "results.json",
        "leaderboard.txt",
        "invocations.jsonl.zst",
    ] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // One tournament is one match of the referee: its log is the contest's format.
    assert!(match_file(&out, "logs/match-0.log").starts_with("#####GAME 0: "));
    let o = koth(&[&"bank-heist", &bot, &"--tournaments", &"0"]);
    assert!(text(&o).contains("--tournaments"), "{}", text(&o));
    let o = koth(&[&"bank-heist", &bot, &"--games", &"0"]);
    assert!(text(&o).contains("--games"), "{}", text(&o));
    let broken = d.file("broken.wasm", b"\0asm");
    let o = koth(&[&"bank-heist", &bot, &broken, &"--out", &d.0.join("none")]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("bot `broken`"), "{}", text(&o));
    assert!(!d.0.join("none").exists());
}

#[test]
fn euchre_runs_and_names_bad_options() {
    let d = Dir::new("euchre");
    // Both print `hello`, never an answer: everyone passes, every hand is thrown in, and the
    // game is drawn after the maximum number of deals, every default logged.
    let a = d.wat("a.wasm", HELLO);
    let b = d.wat("b.wasm", HELLO);
    let out = d.0.join("archive");
    let o = koth(&[&"euchre", &a, &b, &"--games", &"1", &"--out", &out]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("pts for") && t.contains("bad answer: "), "{t}");
    let log = match_file(&out, "logs/match-0.log");
    assert!(
        log.contains("thrown in") || log.contains("throws"),
        "{log:.2000}"
    );
    assert!(
        log.contains("drawn"),
        "{}",
        &log[log.len().saturating_sub(500)..]
    );
    let c = d.wat("c.wasm", HELLO);
    let o = koth(&[&"euchre", &a, &b, &c, &"--partners", &"random"]);
    assert!(text(&o).contains("exactly four bots"), "{}", text(&o));
    let o = koth(&[&"euchre", &a, &b, &"--target", &"0"]);
    assert!(text(&o).contains("--target"), "{}", text(&o));
    let o = koth(&[&"euchre", &a]);
    assert!(text(&o).contains("at least two bots"), "{}", text(&o));
}
