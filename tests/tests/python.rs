//! Plain Python bots (`.py` files run by CPython for WASI): the seed's twelve Bank Heist bots,
//! ported to Python 3, play a tournament without a failure; a Python Coup player answers
//! every protocol situation legally and plays tournaments without a forfeit, the archive the
//! same at any `--jobs`; a hostile script's every escape is contained.
//!
//! The interpreter comes from `koth setup python` (run by `scripts/setup`). When the
//! setup could not install it, it is recorded in `target/koth-skip-languages` and every test
//! here is reported ignored by name (`cfg(koth_skip_python)`); never passed silently.

use koth::games::bank_heist::{self, rules::Variant};
use koth::games::coup::tournament::{self, CoupOptions};
use koth::games::Game as _;
use koth::sandbox::python::PythonStart;
use koth::sandbox::{
    Bot, CodeCache, Invocation, Limits, Outcome, Sandbox, SandboxOptions, Vfs, VfsLimits,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The seed's twelve Bank Heist bots, as Python 3 scripts.
const BANK_HEIST: [&str; 12] = [
    "lurker",
    "passive_panga",
    "kaylorr_criterion",
    "gun_heck",
    "monis_addiction",
    "heckusumer",
    "oc_random_tpyos",
    "hard_hat_umar",
    "limeade_sneaktar",
    "snitcher_king",
    "rays_five01k",
    "lonely_john",
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace")
        .to_path_buf()
}

/// One sandbox for every test: the interpreter is compiled (or read from the machine's
/// compiled-code cache) once.
fn sandbox() -> &'static Sandbox {
    static SB: OnceLock<Sandbox> = OnceLock::new();
    SB.get_or_init(|| {
        Sandbox::new(SandboxOptions {
            cache_dir: CodeCache::default_dir(),
            ..SandboxOptions::default()
        })
        .expect("sandbox")
    })
}

fn load(path: &Path) -> Bot {
    sandbox()
        .load_file(path, None)
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn the_twelve_seed_bank_heist_scripts_play_without_a_failure() {
    let dir = workspace().join("example-bots/python/bank-heist");
    let bots: Vec<Bot> = BANK_HEIST
        .iter()
        .map(|n| load(&dir.join(format!("{n}.py"))))
        .collect();
    for (bot, name) in bots.iter().zip(BANK_HEIST) {
        assert_eq!(bot.name(), name, "a script's bot is named by its file stem");
    }
    let players = koth_tests::players(&bots);
    // A tenth of a tournament: about 2,000 decisions, each resuming the interpreter's snapshot.
    // `koth bank-heist --games 100 --seed 5`: Bank Heist's referee.
    let opts = bank_heist::options(1, Some(100), Variant::Text, 5, Limits::default()).unwrap();
    let run = bank_heist::game()
        .play_whole(&players, &opts, 2, &|_, _| {})
        .unwrap();
    let rec = &run.records[0];
    assert_eq!(rec.void, None);
    for (name, failures) in rec.seats.iter().zip(&rec.failures) {
        assert!(failures.is_empty(), "{name} failed: {failures:?}");
    }
    assert!(rec.invocations.iter().all(|&n| n >= 100));
    // Lurker never bets: 240 to start, 240 per game (its seat is drawn).
    let lurker = rec.seats.iter().position(|s| s == "lurker").unwrap();
    assert_eq!(rec.scores[lurker], 240 * 101);
}

/// A Coup tournament of the Python player against two Rust example bots.
fn coup_archive(py: &Path, jobs: usize) -> (BTreeMap<String, Vec<u8>>, tournament::CoupTournament) {
    let sb = sandbox();
    let bots: Vec<(Bot, PathBuf)> = [
        py.to_path_buf(),
        koth_tests::wasm("random"),
        koth_tests::wasm("lawyer"),
    ]
    .into_iter()
    .map(|p| (load(&p), p))
    .collect();
    let players = koth_tests::players(bots.iter().map(|(b, _)| b));
    let opts = CoupOptions {
        rounds: 1,
        seed: 4,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, jobs, &|_, _| {}).unwrap();
    let archive = koth_tests::coup_archive(&t, &bots, opts, sb);
    (archive, t)
}

#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn the_python_coup_player_plays_legally_and_deterministically() {
    let py = workspace().join("example-bots/python/coup/coup_py.py");
    let bot = load(&py);
    assert_eq!(bot.name(), "coup_py");
    let mut failures = Vec::new();
    for s in koth_tests::coup::situations() {
        if let Err(e) = s.run(&bot, 0) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "coup_py:\n{}", failures.join("\n"));

    let (one, t) = coup_archive(&py, 1);
    assert_eq!(t.void_games(), 0);
    for row in &t.leaderboard.rows {
        assert!(
            row.forfeits.is_empty(),
            "{} forfeited {:?}",
            row.bot,
            row.forfeits
        );
    }
    let row = t
        .leaderboard
        .rows
        .iter()
        .find(|r| r.bot == "coup_py")
        .unwrap();
    assert_eq!(row.games, 4, "{row:?}");
    let (two, _) = coup_archive(&py, 2);
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        two.keys().collect::<Vec<_>>()
    );
    for (k, v) in &one {
        assert!(v == &two[k], "{k} differs between --jobs 1 and --jobs 2");
    }
}

#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn a_hostile_script_is_contained() {
    let path = workspace().join("tests/bots/python/escape.py");
    let script = std::fs::read(&path).unwrap();
    let bot = load(&path);
    let mut dir = Vfs::new(VfsLimits::default());
    dir.put_host_file("history.txt", b"I\n");
    let inv = Invocation {
        args: vec![b"history.txt".to_vec()],
        stdin: Vec::new(),
        seed: [3; 32],
        clock_start_ns: 0,
        // A backstop with room for a slow machine: fuel must end its endless loop.
        limits: koth_tests::attack_limits(),
    };
    let r = bot.invoke(&inv, Some(&mut dir));
    let out = String::from_utf8_lossy(&r.stdout);
    let stderr = String::from_utf8_lossy(&r.stderr);
    // The endless loop of host calls on the layer at the end is stopped by fuel, not by the
    // wall-clock backstop (a host fault): the host's work is paid for.
    assert_eq!(
        r.outcome,
        Outcome::OutOfFuel,
        "stdout:\n{out}\nstderr:\n{stderr}"
    );
    let lines: BTreeMap<&str, &str> = out.lines().filter_map(|l| l.split_once(": ")).collect();
    // (attempt, expected outcome): WASI errno 44 is ENOENT, 76 ENOTCAPABLE, 69 EROFS, 58 ENOTSUP.
    let expected = [
        // No host path exists inside: /etc is not in the virtual directory.
        ("passwd", "FileNotFoundError errno=44"),
        // CPython for WASI has sockets only as stubs: making one is refused (ENOTSUP).
        ("socket", "OSError errno=58"),
        // No processes: `os.fork` and `os.system` do not exist on WASI.
        ("fork", "AttributeError errno=None"),
        ("system", "AttributeError errno=None"),
        // `..` above the root and absolute paths resolve inside the directory or fail.
        ("parent", "PermissionError errno=76"),
        ("absolute", "FileNotFoundError errno=44"),
        // The script is in the read-only layer.
        ("script-write", "OSError errno=69"),
        ("script-truncate", "OSError errno=69"),
        ("script-unlink", "OSError errno=69"),
        ("script-rename", "OSError errno=69"),
        ("script-utime", "OSError errno=69"),
        // The standard library is packed inside the interpreter module, whose own file layer
        // refuses writes (ENOTSUP).
        ("stdlib-write", "OSError errno=58"),
        ("scratch", "done 'scratch.txt'"),
        (
            "listing",
            "done ['escape.py', 'history.txt', 'scratch.txt']",
        ),
        ("script-read", "done True"),
    ];
    let mut wrong = Vec::new();
    for (name, want) in expected {
        let got = lines.get(name).copied().unwrap_or("<missing>");
        if got != want {
            wrong.push(format!("{name}: expected {want}, got {got}"));
        }
    }
    assert!(wrong.is_empty(), "{}\nstdout:\n{out}", wrong.join("\n"));
    // The bot's own file is there; nothing escaped; the layer is not in the archive view.
    let names: Vec<String> = dir
        .snapshot()
        .into_iter()
        .map(|e| format!("{e:?}"))
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names[0].contains("history.txt") && names[1].contains("scratch.txt"));
    assert_eq!(dir.host_file("history.txt"), Some(&b"I\n"[..]));
    // A second run sees the same script and a pristine standard library.
    let check = workspace().join("tests/bots/python/escape.py");
    assert_eq!(
        std::fs::read(&check).unwrap(),
        script,
        "the script file on disk changed"
    );
    let r2 = bot.invoke(&inv, Some(&mut dir));
    assert_eq!(r2.outcome, Outcome::OutOfFuel);
    let out2 = String::from_utf8_lossy(&r2.stdout);
    assert!(out2.contains("script-read: done True"), "{out2}");
}

#[test]
fn a_missing_interpreter_names_the_bot_and_the_install() {
    let mut sb = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    let missing = std::env::temp_dir().join("koth-no-such-python.wasm");
    sb.set_python_interpreter(missing.clone());
    let script = workspace().join("example-bots/python/bank-heist/lurker.py");
    let e = sb.load_file(&script, None).expect_err("no interpreter");
    let msg = e.to_string();
    assert!(msg.contains("bot `lurker`"), "{msg}");
    assert!(msg.contains("lurker.py"), "{msg}");
    assert!(msg.contains(&missing.display().to_string()), "{msg}");
    assert!(msg.contains("koth setup python"), "{msg}");
}

/// Write `source` as a script in a fresh temporary folder and load it, started `start`.
fn script_bot(sb: &Sandbox, source: &str, start: PythonStart) -> (Bot, tempfile::TempDir) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join("probe.py");
    std::fs::write(&path, source).expect("script");
    let bot = sb
        .load_python(&path, None, start)
        .unwrap_or_else(|e| panic!("{e}"));
    (bot, tmp)
}

fn run_py(bot: &Bot, args: &[&str], stdin: &str, seed: u8) -> koth::sandbox::Report {
    let args: Vec<&[u8]> = args.iter().map(|a| a.as_bytes()).collect();
    run_in(bot, &args, stdin, seed, &[])
}

/// One invocation of `bot` with these arguments, stdin and seed, in a directory holding
/// `files` (name, text).
fn run_in(
    bot: &Bot,
    args: &[&[u8]],
    stdin: &str,
    seed: u8,
    files: &[(&str, &str)],
) -> koth::sandbox::Report {
    let inv = Invocation {
        args: args.iter().map(|a| a.to_vec()).collect(),
        stdin: stdin.as_bytes().to_vec(),
        seed: [seed; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    let mut dir = Vfs::new(VfsLimits::default());
    for (name, text) in files {
        dir.put_host_file(name, text.as_bytes());
    }
    bot.invoke(&inv, Some(&mut dir))
}

/// A script that shows what `python -S -B SCRIPT ARGS` gives it, and ends as its first
/// argument says.
const PROBE: &str = r#"import sys, os
print(sys.argv, __name__, __file__, sys.path[0], sys.flags.no_site, sys.dont_write_bytecode)
print(repr(sys.stdin.read()))
print(sorted(os.listdir(".")), os.getcwd())
how = sys.argv[1]
if how == "exit":
    sys.exit(7)
if how == "message":
    sys.exit("bye")
if how == "raise":
    def deep(n):
        return deep(n + 1) if n < 3 else 1 / 0
    deep(0)
if how == "syntax":
    exec("x = (")
print("end", end="")
"#;

/// A snapshot-started script sees and does what the same script started cold does: the same
/// argv, `__main__`, flags, stdin, directory, exit codes, tracebacks (starting at the script,
/// as under `python SCRIPT`) and syntax errors; only the fuel differs, and it is far less.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn a_script_from_the_snapshot_behaves_as_started_cold() {
    let sb = sandbox();
    let (warm, _t1) = script_bot(sb, PROBE, PythonStart::Snapshot);
    let (cold, _t2) = script_bot(sb, PROBE, PythonStart::Cold);
    let want_stdout = |tail: &str| {
        format!(
            "['/probe.py', '{tail}', 'x y'] __main__ /probe.py / 1 True\n'line 1\\nline 2\\n'\n['probe.py'] /\n"
        )
    };
    let cases: [(&str, Outcome, &str); 5] = [
        ("exit", Outcome::Exit(7), ""),
        ("message", Outcome::Exit(1), "bye\n"),
        (
            "raise",
            Outcome::Exit(1),
            "Traceback (most recent call last):\n  File \"/probe.py\", line 13, in <module>\n",
        ),
        (
            "syntax",
            Outcome::Exit(1),
            "Traceback (most recent call last):\n  File \"/probe.py\", line 15, in <module>\n",
        ),
        ("none", Outcome::Ok, ""),
    ];
    for (how, outcome, stderr_start) in cases {
        let w = run_py(&warm, &[how, "x y"], "line 1\nline 2\n", 1);
        let c = run_py(&cold, &[how, "x y"], "line 1\nline 2\n", 1);
        let (wout, werr) = (
            String::from_utf8_lossy(&w.stdout),
            String::from_utf8_lossy(&w.stderr),
        );
        let mut stdout = want_stdout(how);
        if how == "none" {
            stdout.push_str("end");
        }
        assert_eq!(w.outcome, outcome, "{how}: stderr {werr}");
        assert_eq!(wout, stdout, "{how}");
        assert!(werr.starts_with(stderr_start), "{how}: {werr}");
        assert!(!werr.contains("koth_launcher"), "{how}: {werr}");
        assert_eq!(
            (&w.outcome, &w.stdout, &w.stderr),
            (&c.outcome, &c.stdout, &c.stderr),
            "{how}: snapshot and cold start differ"
        );
        assert!(
            w.fuel_used * 5 < c.fuel_used,
            "{how}: {} fuel from the snapshot, {} cold",
            w.fuel_used,
            c.fuel_used
        );
    }
    let e = run_py(&warm, &["syntax"], "", 1);
    assert!(String::from_utf8_lossy(&e.stderr).ends_with("SyntaxError: '(' was never closed\n"));
    // A script that does not compile is refused when it is loaded, with the interpreter's
    // message, as `python SCRIPT` would print it.
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = tmp.path().join("broken.py");
    std::fs::write(&path, "x = (\n").expect("script");
    let e = sb.load_file(&path, None).expect_err("a syntax error");
    let msg = e.to_string();
    assert!(msg.contains("bot `broken`"), "{msg}");
    assert!(msg.contains(&path.display().to_string()), "{msg}");
    assert!(
        msg.ends_with("the script does not compile:\n  File \"/broken.py\", line 1\n    x = (\n        ^\nSyntaxError: '(' was never closed"),
        "{msg}"
    );
}

/// Run `source` from the snapshot and cold, with `files` in its directory, and check that
/// both end the same way (outcome, stdout, stderr) and as `want` says.
fn same_as_cold(source: &str, args: &[&[u8]], files: &[(&str, &str)], want: Outcome) -> String {
    let sb = sandbox();
    let (warm, _t1) = script_bot(sb, source, PythonStart::Snapshot);
    let (cold, _t2) = script_bot(sb, source, PythonStart::Cold);
    let (w, c) = (
        run_in(&warm, args, "", 1, files),
        run_in(&cold, args, "", 1, files),
    );
    // Object addresses (`<X object at 0x8bebe0>`) are not the same in the two heaps.
    let text = |b: &[u8]| {
        let t = String::from_utf8_lossy(b).into_owned();
        let mut out = String::new();
        for (i, part) in t.split(" at 0x").enumerate() {
            if i > 0 {
                out.push_str(" at 0x…");
                out.push_str(part.trim_start_matches(|c: char| c.is_ascii_hexdigit()));
            } else {
                out.push_str(part);
            }
        }
        out
    };
    assert_eq!(
        (&w.outcome, text(&w.stdout), text(&w.stderr)),
        (&c.outcome, text(&c.stdout), text(&c.stderr)),
        "snapshot (left) and cold start (right) differ for:\n{source}"
    );
    assert_eq!(w.outcome, want, "{source}\nstderr: {}", text(&w.stderr));
    text(&w.stdout) + &text(&w.stderr)
}

/// What a script can see of how `python SCRIPT` ends, the same from the snapshot as cold: exit
/// statuses out of C's range, `KeyboardInterrupt`, a replaced `os._exit`, output left in a
/// replaced `sys.stdout`'s original, `__del__` of globals, a failing flush; and what it sees
/// of its start: `sys.orig_argv`, an argument with a NUL, a module of its own that shadows
/// one the snapshot had imported.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn a_script_ends_and_starts_as_under_python() {
    let overflow = same_as_cold(
        "import sys\nsys.exit(2**32 + 5)\n",
        &[],
        &[],
        Outcome::Exit(u32::MAX),
    );
    assert_eq!(
        overflow,
        "OverflowError: Python int too large to convert to C long\n"
    );
    same_as_cold(
        "import sys\nsys.exit(-2**31)\n",
        &[],
        &[],
        Outcome::Exit(1 << 31),
    );
    let ki = same_as_cold("raise KeyboardInterrupt\n", &[], &[], Outcome::Exit(130));
    assert!(ki.ends_with("KeyboardInterrupt\n"), "{ki}");
    same_as_cold(
        "import os, sys\nos._exit = lambda c: None\nsys.exit(3)\n",
        &[],
        &[],
        Outcome::Exit(3),
    );
    let kept = same_as_cold(
        "import io, sys\nprint('hello')\nsys.stdout = io.StringIO()\nprint('lost')\n",
        &[],
        &[],
        Outcome::Ok,
    );
    assert_eq!(kept, "hello\n");
    let del = same_as_cold(
        "class D:\n    def __del__(self):\n        print('del ran')\nd = D()\n",
        &[],
        &[],
        Outcome::Ok,
    );
    assert_eq!(del, "del ran\n");
    let unflushed = same_as_cold(
        "import sys\nclass Bad:\n    def write(self, s): return len(s)\n    def flush(self): raise OSError('no')\nsys.stdout = Bad()\n",
        &[],
        &[],
        Outcome::Exit(120),
    );
    assert!(
        unflushed.starts_with("Exception ignored in: <__main__.Bad object at 0x…>"),
        "{unflushed}"
    );
    let argv = same_as_cold(
        "import sys\nprint(sys.orig_argv[0], sys.argv)\n",
        &[b"a\0b", b"c"],
        &[],
        Outcome::Ok,
    );
    assert_eq!(argv, "probe ['/probe.py', 'a', 'c']\n");
    let own = same_as_cold(
        "import json, string\nprint(json.MINE, hasattr(string, 'ascii_letters'))\n",
        &[],
        &[("json.py", "MINE = 42\n")],
        Outcome::Ok,
    );
    assert_eq!(own, "42 True\n");
    // A standard module that imports the shadowed name gets the script's, as under python.
    same_as_cold(
        "import json\n",
        &[],
        &[("re.py", "X = 1\n")],
        Outcome::Exit(1),
    );
    // A file without `.py`, or a folder that is no package, shadows nothing.
    let plain = same_as_cold(
        "import json\nprint(json.dumps([1]))\n",
        &[],
        &[("json", ""), ("re", "")],
        Outcome::Ok,
    );
    assert_eq!(plain, "[1]\n");
}

/// Finalisation as `python SCRIPT` does it, where a script can see it: `__del__` with the
/// script's globals still there, streams closed, replaced or deleted, a failing flush
/// overriding `sys.exit`, a failing `sys.excepthook`, a `SystemExit` whose message cannot be
/// printed, no `sys.stderr`, an `int` subclass as the status.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn a_script_is_finalised_as_under_python() {
    let saved = same_as_cold(
        "import json\nclass Bot:\n    def __del__(self):\n        print('saving', json.dumps({}))\nbot = Bot()\n",
        &[],
        &[],
        Outcome::Ok,
    );
    assert_eq!(saved, "saving {}\n");
    same_as_cold(
        "print('hi')\nimport sys\nsys.stdout.close()\n",
        &[],
        &[],
        Outcome::Ok,
    );
    same_as_cold("import sys\nsys.stdout = None\n", &[], &[], Outcome::Ok);
    let deleted = same_as_cold(
        "print('hi')\nimport sys\ndel sys.stdout\n",
        &[],
        &[],
        Outcome::Ok,
    );
    assert_eq!(deleted, "hi\n");
    same_as_cold(
        "import sys\nclass Bad:\n    def write(self, s): return len(s)\n    def flush(self): raise OSError('no')\nsys.stdout = Bad()\nsys.exit(3)\n",
        &[],
        &[],
        Outcome::Exit(120),
    );
    let hook = same_as_cold(
        "print('hi')\nimport sys\nsys.excepthook = lambda *a: 1/0\nraise ValueError('v')\n",
        &[],
        &[],
        Outcome::Exit(1),
    );
    assert!(
        hook.starts_with("hi\nError in sys.excepthook:")
            && hook.contains("Original exception was:"),
        "{hook}"
    );
    let unprintable = same_as_cold(
        "import sys, atexit\nprint('hi')\natexit.register(print, 'atexit ran')\nclass B:\n    def __str__(self): raise RuntimeError('no str')\nsys.exit(B())\n",
        &[],
        &[],
        Outcome::Exit(1),
    );
    assert!(
        unprintable.starts_with("hi\natexit ran\n\nTraceback")
            && unprintable.ends_with("RuntimeError: no str\n"),
        "{unprintable}"
    );
    same_as_cold(
        "import sys\nsys.stderr = None\nsys.exit('msg')\n",
        &[],
        &[],
        Outcome::Exit(1),
    );
    same_as_cold(
        "import sys\nclass I(int):\n    def __lt__(s, o): return True\n    def __ge__(s, o): return True\n    def __le__(s, o): return True\nsys.exit(I(2**40))\n",
        &[],
        &[],
        Outcome::Exit(u32::MAX),
    );
}

/// Every invocation starts from a fresh copy of the snapshot: what one invocation changes in
/// modules the snapshot had imported is gone in the next; `random` is seeded from each
/// invocation's own seed, so the same seed gives the same numbers and another seed others.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn every_invocation_starts_from_a_fresh_snapshot() {
    let sb = sandbox();
    let source = r#"import json, random, sys
seen = getattr(json, "koth_seen", 0)
json.koth_seen = seen + 1
sys.modules["koth_left_behind"] = json
print(seen, random.random(), random.getrandbits(64))
"#;
    let (bot, _t) = script_bot(sb, source, PythonStart::Snapshot);
    let a = run_py(&bot, &[], "", 1);
    let b = run_py(&bot, &[], "", 1);
    let c = run_py(&bot, &[], "", 2);
    assert_eq!(
        a.outcome,
        Outcome::Ok,
        "{}",
        String::from_utf8_lossy(&a.stderr)
    );
    let out = |r: &koth::sandbox::Report| String::from_utf8_lossy(&r.stdout).into_owned();
    assert!(out(&a).starts_with("0 "), "{}", out(&a));
    assert_eq!(out(&a), out(&b), "same seed, same invocation");
    assert!(out(&c).starts_with("0 "), "{}", out(&c));
    assert_ne!(out(&a), out(&c), "another seed, other random numbers");
}

/// The snapshot is a function of the interpreter, the launcher and koth: made again from
/// nothing (no code cache) it is byte for byte the one every other test used.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn the_snapshot_is_the_same_when_made_again() {
    let shared = sandbox().python_snapshot_sha256().expect("snapshot");
    let fresh = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    assert_eq!(
        fresh.python_snapshot_sha256().expect("snapshot"),
        shared,
        "a snapshot made afresh differs from the cached one (if koth's WASI host changed, bump SNAPSHOT_FORMAT in runner/src/sandbox/python/snapshot.rs)"
    );
}

/// Arguments that do not fit the snapshot's argument buffer are a host fault naming the
/// buffer, never a write past it.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn arguments_too_long_for_the_snapshot_are_refused() {
    let (bot, _t) = script_bot(sandbox(), "print('ran')\n", PythonStart::Snapshot);
    let long = "a".repeat(2 << 20);
    let r = run_py(&bot, &[&long], "", 1);
    match &r.outcome {
        Outcome::HostFault(m) => assert!(m.contains("argument buffer"), "{m}"),
        other => panic!("{other:?}"),
    }
    assert!(r.stdout.is_empty());
    let fits = "a".repeat(200 << 10);
    let r = run_py(&bot, &[&fits], "", 1);
    assert_eq!(r.outcome, Outcome::Ok);
    assert_eq!(r.stdout, b"ran\n");
}
