//! Plain Python bots (`.py` files run by CPython for WASI): the seed's twelve Bank Heist bots,
//! ported to Python 3, play a tournament without a failure; a Python Coup player answers
//! every protocol situation legally and plays tournaments without a forfeit, the archive the
//! same at any `--jobs`; a hostile script's every escape is contained.
//!
//! The interpreter comes from `scripts/install-python` (run by `scripts/setup`). When the
//! setup could not install it, it is recorded in `target/koth-skip-languages` and every test
//! here is reported ignored by name (`cfg(koth_skip_python)`); never passed silently.

use koth::games::bank_heist::format::{self as bank_heist, BankHeistOptions};
use koth::games::coup::tournament::{self, CoupOptions};
use koth::games::Player;
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
    let players: Vec<&dyn Player> = bots.iter().map(|b| b as &dyn Player).collect();
    // Few games: every decision starts a Python interpreter.
    let opts = BankHeistOptions {
        tournaments: 1,
        games: Some(4),
        seed: 5,
        limits: Limits::default(),
    };
    let run = bank_heist::run(&players, &opts, 2, &|_, _| {});
    let rec = &run.records[0];
    assert_eq!(rec.void, None);
    for (name, failures) in rec.names.iter().zip(&rec.failures) {
        assert!(failures.is_empty(), "{name} failed: {failures:?}");
    }
    assert!(rec.invocations.iter().all(|&n| n >= 4));
    // Lurker never bets: 240 to start, 240 per game.
    assert_eq!(rec.bots[0].credits, 240 * 5);
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
    let players: Vec<&dyn Player> = bots.iter().map(|(b, _)| b as &dyn Player).collect();
    let opts = CoupOptions {
        rounds: 1,
        seed: 4,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, jobs, &|_, _| {});
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
        limits: Limits::default(),
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
    assert!(msg.contains("bash scripts/install-python"), "{msg}");
}
