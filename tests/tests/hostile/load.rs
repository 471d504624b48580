//! Attacks at load time: files that are not wasm, broken or truncated modules, imports the
//! sandbox does not provide, missing or malformed exports, a huge file, a compile bomb.
//! Every one is rejected before any tournament starts, with a message that names the bot and
//! the reason.

use crate::common::*;
use koth::sandbox::{BotError, LoadError, LoadLimits, Outcome, Sandbox, SandboxOptions};
use std::time::{Duration, Instant};

/// Load `bytes` as bot `name`: it must fail; the message names the bot and says `words`.
fn rejected(sb: &Sandbox, name: &str, bytes: &[u8], words: &[&str]) -> BotError {
    let err = sb
        .load_bytes(name, bytes)
        .expect_err("the module must be rejected");
    assert_eq!(err.bot, name);
    let shown = err.to_string();
    assert!(
        shown.starts_with(&format!("bot `{name}` (in memory): ")),
        "{shown}"
    );
    for w in words {
        assert!(shown.contains(w), "{shown:?} does not say {w:?}");
    }
    err
}

#[test]
fn garbage_bytes_are_not_wasm() {
    let sb = sandbox();
    for bytes in [
        &b"MZ\x90\x00\x03\x00\x00\x00 this is a PE file"[..],
        b"",
        b"\0asm",
        b"#!/bin/sh\nrm -rf /\n",
    ] {
        let e = rejected(&sb, "garbage", bytes, &["not a WebAssembly module"]);
        assert_eq!(e.error, LoadError::NotWasm);
    }
    assert_host_unharmed(&sb);
}

/// Components load (see `tests/components.rs`), but one that implements no world (here: an
/// empty component) is refused, naming what it should export.
#[test]
fn a_component_without_a_world_is_refused_by_name() {
    let sb = sandbox();
    let e = rejected(
        &sb,
        "component",
        b"\0asm\x0d\x00\x01\x00",
        &["does not export", "wasi:cli/run", "koth:bots"],
    );
    assert!(matches!(e.error, LoadError::MissingExport(_)), "{e}");
    assert_host_unharmed(&sb);
}

/// The offsets at which the sections of a module end, with each section's id.
fn section_ends(module: &[u8]) -> Vec<(usize, u8)> {
    let mut at = 8;
    let mut ends = Vec::new();
    while at < module.len() {
        let id = module[at];
        let (mut size, mut shift) = (0usize, 0);
        at += 1;
        loop {
            let b = module[at];
            at += 1;
            size |= ((b & 0x7f) as usize) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        at += size;
        ends.push((at, id));
    }
    ends
}

#[test]
fn truncated_modules_are_invalid() {
    let sb = sandbox();
    let good = wat("well_behaved");
    let e = rejected(
        &sb,
        "truncated",
        &good[..good.len() / 2],
        &["invalid module"],
    );
    assert!(matches!(e.error, LoadError::Invalid(_)), "{:?}", e.error);
    // Every prefix that cuts a section is rejected (never a panic, never a bot). One that
    // ends between two sections is a whole module, valid or not (without its data section,
    // or its names, well_behaved is still valid).
    let ends = section_ends(&good);
    assert_eq!(ends.last().map(|e| e.0), Some(good.len()));
    for n in 0..good.len() {
        if !ends.iter().any(|&(end, _)| end == n) {
            assert!(
                sb.load_bytes("truncated", &good[..n]).is_err(),
                "prefix of {n} bytes loaded"
            );
        }
    }
    assert_host_unharmed(&sb);
}

/// Every single-byte corruption of a valid module is either rejected at load or, if it still
/// loads, runs to some outcome: never a panic or a hang of the host.
#[test]
fn corrupted_modules_are_rejected_or_contained() {
    let sb = sandbox();
    let good = wat("well_behaved");
    // Hundreds of compiles: keep them out of the other attacks' resident-size checks.
    let _quiet = heavy();
    let limits = koth::sandbox::Limits {
        fuel: 10_000_000,
        ..Default::default()
    };
    let (mut loaded, mut refused) = (0, 0);
    for i in 8..good.len() {
        let mut bad = good.clone();
        bad[i] ^= 0xff;
        match sb.load_bytes("corrupt", &bad) {
            Err(e) => {
                refused += 1;
                assert!(e.to_string().starts_with("bot `corrupt` (in memory): "));
            }
            Ok(bot) => {
                loaded += 1;
                let mut d = coup_dir();
                let r = bot.invoke(&invocation_with(limits), Some(&mut d));
                assert!(
                    !matches!(r.outcome, Outcome::HostFault(_)),
                    "byte {i}: {r:?}"
                );
                assert!(r.fuel_used <= limits.fuel);
            }
        }
    }
    assert!(
        refused > 0 && loaded > 0,
        "refused {refused}, loaded {loaded}"
    );
    assert_host_unharmed(&sb);
}

#[test]
fn unknown_import_is_named() {
    let sb = sandbox();
    let e = rejected(
        &sb,
        "unknown_import",
        &wat("unknown_import"),
        &["imports a function `env::system`"],
    );
    assert_eq!(
        e.error,
        LoadError::UnknownImport("a function `env::system`".into())
    );
    let e = rejected(
        &sb,
        "unknown_wasi_import",
        &wat("unknown_wasi_import"),
        &["`wasi_snapshot_preview1::path_chroot_escape`"],
    );
    assert!(matches!(e.error, LoadError::UnknownImport(_)));
    let e = rejected(
        &sb,
        "memory_import",
        &wat("memory_import"),
        &["a memory `wasi_snapshot_preview1::memory`"],
    );
    assert!(matches!(e.error, LoadError::UnknownImport(_)));
    assert_host_unharmed(&sb);
}

#[test]
fn wasi_import_with_the_wrong_signature_is_refused() {
    let sb = sandbox();
    let e = rejected(
        &sb,
        "wrong_import_type",
        &wat("wrong_import_type"),
        &["fd_write"],
    );
    assert!(matches!(e.error, LoadError::Invalid(_)), "{:?}", e.error);
    assert_host_unharmed(&sb);
}

#[test]
fn missing_start_is_refused() {
    let sb = sandbox();
    let e = rejected(
        &sb,
        "no_start",
        &wat("no_start"),
        &["does not export a `_start` function"],
    );
    assert!(matches!(e.error, LoadError::MissingExport(_)));
    let e = rejected(
        &sb,
        "start_not_a_function",
        &wat("start_not_a_function"),
        &["`_start`"],
    );
    assert!(matches!(e.error, LoadError::MissingExport(_)));
    let e = rejected(
        &sb,
        "no_memory_export",
        &wat("no_memory_export"),
        &["does not export its linear memory as `memory`"],
    );
    assert!(matches!(e.error, LoadError::MissingExport(_)));
    assert_host_unharmed(&sb);
}

/// A `_start` that takes parameters can never run as a WASI command: the contract says such a
/// bot is rejected when loaded ("a tournament never discovers a broken bot in game 900"),
/// not at its first invocation as a host fault.
#[test]
fn start_with_the_wrong_type_is_refused_at_load() {
    let sb = sandbox();
    match sb.load_bytes("start_with_params", &wat("start_with_params")) {
        Err(e) => {
            let shown = e.to_string();
            assert!(
                shown.contains("`start_with_params`") && shown.contains("_start"),
                "{shown}"
            );
        }
        Ok(bot) => {
            let r = bot.invoke(&invocation(), Some(&mut coup_dir()));
            panic!(
                "a `_start` of type (i32) -> i32 was accepted at load; invoking it gives {:?}",
                r.outcome
            );
        }
    }
    assert_host_unharmed(&sb);
}

/// 100 MB is refused by its size alone, before anything is parsed or compiled (so quickly;
/// the bound is generous, a compile of 100 MB would take minutes).
#[test]
fn a_100_mb_module_is_too_large_and_refused_fast() {
    let sb = sandbox();
    let guard = heavy();
    let started = Instant::now();
    let mut bytes = vec![0u8; 100_000_000];
    bytes[..8].copy_from_slice(b"\0asm\x01\x00\x00\x00");
    let e = rejected(
        &sb,
        "huge",
        &bytes,
        &["100000000 bytes, above the 67108864-byte limit"],
    );
    assert_eq!(
        e.error,
        LoadError::TooLarge {
            size: 100_000_000,
            limit: 64 << 20
        }
    );
    drop(bytes);
    // From a file: refused from its size on disk, without reading it (a sparse file).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.wasm");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(100_000_000)
        .unwrap();
    let e = sb.load_file(&path, None).expect_err("too large");
    assert_eq!(
        (e.bot.as_str(), e.file.as_deref()),
        ("huge", Some(path.as_path()))
    );
    assert_eq!(
        e.error,
        LoadError::TooLarge {
            size: 100_000_000,
            limit: 64 << 20
        }
    );
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!("bot `huge` ({}): ", path.display())),
        "{shown}"
    );
    drop(dir);
    assert!(
        // Generous for a loaded machine; what it rules out (a compile) takes minutes.
        started.elapsed() < Duration::from_secs(60),
        "took {:?}",
        started.elapsed()
    );
    guard.assert_grew_less_than(32 * MIB);
    drop(guard);
    assert_host_unharmed(&sb);
}

/// A module that takes longer to compile than allowed is rejected (CompileTimeout) instead of
/// holding the host: here a 1 ms bound against 60,000 instructions (about a quarter of a
/// second of compiling). The abandoned compile finishes in the background.
#[test]
fn a_compile_bomb_is_refused_after_the_time_bound() {
    let sb = Sandbox::new(SandboxOptions {
        load: LoadLimits {
            compile_ms: 1,
            ..LoadLimits::default()
        },
        ..SandboxOptions::default()
    })
    .unwrap();
    let mut text =
        String::from("(module (memory (export \"memory\") 1) (func (export \"_start\"))\n");
    for f in 0..40 {
        text.push_str(&format!(
            "(func $f{f} (param $x i32) (result i32) (local.get $x)"
        ));
        for i in 0..500 {
            text.push_str(&format!(
                " (i32.mul (i32.const {i})) (i32.add (local.get $x)) (i32.rotl (i32.const {f}))"
            ));
        }
        text.push_str(")\n");
    }
    text.push(')');
    let bytes = wat::parse_str(&text).unwrap();
    let guard = heavy();
    for _ in 0..2 {
        let e = rejected(
            &sb,
            "bomb",
            &bytes,
            &["compiling took longer than 1 ms", "--compile-timeout"],
        );
        assert_eq!(e.error, LoadError::CompileTimeout(1));
    }
    // The second load was refused from memory, not compiled again.
    assert_eq!((sb.failed_compiles(), sb.compile_attempts()), (1, 1));
    drop(guard);
    // This sandbox refuses anything that takes a millisecond to compile, the well-behaved bot
    // included, so the check of the host runs on a sandbox with the default bound.
    assert_host_unharmed(&sandbox());
}

/// LEB128 of `v`, appended to `out`.
fn leb(mut v: u32, out: &mut Vec<u8>) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

/// A binary module whose `_start` body is `open` `depth` times then `close` `depth` times
/// (built as bytes: a text parser would itself recurse on the nesting).
fn nested_module(depth: usize, open: &[u8], close: &[u8]) -> Vec<u8> {
    let section = |id: u8, body: &[u8], out: &mut Vec<u8>| {
        out.push(id);
        leb(body.len() as u32, out);
        out.extend_from_slice(body);
    };
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    section(1, &[1, 0x60, 0, 0], &mut m); // one type: () -> ()
    section(3, &[1, 0], &mut m); // one function of that type
    section(5, &[1, 0, 1], &mut m); // one memory of one page
    let mut exports = vec![2, 6];
    exports.extend_from_slice(b"_start\x00\x00\x06memory\x02\x00");
    section(7, &exports, &mut m);
    let mut body = vec![0]; // no locals
    for _ in 0..depth {
        body.extend_from_slice(open);
    }
    for _ in 0..depth {
        body.extend_from_slice(close);
    }
    body.push(0x0b);
    let mut code = vec![1];
    leb(body.len() as u32, &mut code);
    code.extend(body);
    section(10, &code, &mut m);
    m
}

/// Deep nesting is handled without recursion on the host's stack (a stack overflow there
/// would abort the whole tournament): 100,000 values on the operand stack load and run, and
/// 1,000 nested blocks (the limit) too; 100,000 nested blocks are refused at load, before the
/// compiler sees them (150,000 nested loops once took 71 s and 3.1 GB to compile).
#[test]
fn deeply_nested_code_does_not_overflow_the_hosts_stack() {
    let sb = sandbox();
    // Compiling this takes memory: keep it out of the other attacks' resident-size checks.
    let _quiet = heavy();
    let blocks = nested_module(1_000, &[0x02, 0x40], &[0x0b]); // block ... end
    let values = nested_module(100_000, &[0x41, 0x01], &[0x1a]); // i32.const 1 ... drop
    for (name, module) in [("blocks", blocks), ("values", values)] {
        let bot = sb
            .load_bytes(name, &module)
            .unwrap_or_else(|e| panic!("{e}"));
        let r = bot.invoke(&invocation(), None);
        assert_eq!(r.outcome, Outcome::Ok, "{name}: {r:?}");
    }
    for (depth, open) in [(1_001, [0x02, 0x40]), (100_000, [0x03, 0x40])] {
        let module = nested_module(depth, &open, &[0x0b]);
        let e = rejected(
            &sb,
            "nested",
            &module,
            &[&format!("nests blocks {depth} deep"), "1000-level limit"],
        );
        assert!(matches!(e.error, LoadError::TooComplex(_)), "{e}");
    }
    assert_host_unharmed(&sb);
}

/// A module of `n` empty functions (built as bytes, fast).
fn many_functions(n: u32) -> Vec<u8> {
    let section = |id: u8, body: &[u8], out: &mut Vec<u8>| {
        out.push(id);
        leb(body.len() as u32, out);
        out.extend_from_slice(body);
    };
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    section(1, &[1, 0x60, 0, 0], &mut m);
    let mut funcs = Vec::new();
    leb(n, &mut funcs);
    funcs.extend(std::iter::repeat_n(0u8, n as usize));
    section(3, &funcs, &mut m);
    section(5, &[1, 0, 1], &mut m);
    let mut exports = vec![2, 6];
    exports.extend_from_slice(b"_start\x00\x00\x06memory\x02\x00");
    section(7, &exports, &mut m);
    let mut code = Vec::new();
    leb(n, &mut code);
    for _ in 0..n {
        code.extend_from_slice(&[2, 0, 0x0b]);
    }
    section(10, &code, &mut m);
    m
}

/// A module of a million empty functions (4 MB; it once took 77 s and 5.6 GB to compile) is
/// refused at load, by count, in no time; so is one just past the 50,000-function limit.
#[test]
fn a_million_functions_are_refused_at_load() {
    let sb = sandbox();
    for n in [1_000_000, 50_001] {
        let e = rejected(
            &sb,
            "functions",
            &many_functions(n),
            &[&format!("defines {n} functions"), "50000-function limit"],
        );
        assert!(matches!(e.error, LoadError::TooComplex(_)), "{e}");
    }
    assert_host_unharmed(&sb);
}

/// Two tables are refused at load whichever allocator is in use (the on-demand one once
/// accepted them and then failed every invocation).
#[test]
fn a_second_table_is_refused_at_load_with_and_without_pooling() {
    let module = wat::parse_str(
        r#"(module (memory (export "memory") 1) (table 1 funcref) (table 1 funcref)
             (func (export "_start")))"#,
    )
    .unwrap();
    for pooling in [true, false] {
        let sb = Sandbox::new(SandboxOptions {
            engine: koth::sandbox::EngineOptions {
                pooling,
                ..Default::default()
            },
            ..SandboxOptions::default()
        })
        .unwrap();
        let e = rejected(&sb, "tables", &module, &["declares a second table"]);
        assert!(matches!(e.error, LoadError::Table(_)), "{e}");
    }
}

/// The compiled-code cache is native code the host runs: a folder its group or other users
/// can write to is refused, saying why; a missing one is created private, and works.
#[test]
fn a_cache_folder_others_can_write_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().expect("a temp dir");
    let open = tmp.path().join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let options = |dir: &std::path::Path| SandboxOptions {
        cache_dir: Some(dir.to_path_buf()),
        ..SandboxOptions::default()
    };
    let e = Sandbox::new(options(&open))
        .err()
        .expect("a world-writable cache must be refused");
    let shown = e.to_string();
    assert!(
        shown.contains("refusing the compiled-code cache")
            && shown.contains("may write to it (mode 777)")
            && shown.contains("--no-cache"),
        "{shown}"
    );
    let private = tmp.path().join("private");
    for _ in 0..2 {
        // The second time, from the cache.
        let sb = Sandbox::new(options(&private)).expect("a fresh cache folder");
        load(&sb, "well_behaved");
    }
    let mode = std::fs::metadata(&private).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    let files: Vec<_> = std::fs::read_dir(&private).unwrap().collect();
    assert_eq!(files.len(), 1);
}

/// A module past 10,000 globals (a million took 16 MB in every instance) is refused at load,
/// with and without pooling (the pooling allocator alone used to refuse it, by instance size).
#[test]
fn too_many_globals_are_refused_on_every_allocator() {
    let mut text =
        String::from("(module (memory (export \"memory\") 1) (func (export \"_start\"))");
    text.push_str(&"(global i32 (i32.const 0))".repeat(10_001));
    text.push(')');
    let module = wat::parse_str(&text).unwrap();
    for pooling in [true, false] {
        let sb = Sandbox::new(SandboxOptions {
            engine: koth::sandbox::EngineOptions {
                pooling,
                ..Default::default()
            },
            ..SandboxOptions::default()
        })
        .unwrap();
        let e = rejected(
            &sb,
            "globals",
            &module,
            &["defines 10001 globals", "10000-global limit"],
        );
        assert!(matches!(e.error, LoadError::TooComplex(_)), "{e}");
    }
}
