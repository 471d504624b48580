//! `koth check` runs each bot once in its game (against copies of itself) and fails it there,
//! before a tournament counts on it:
//!
//! - honest bots of every game pass, each with its first decision and the game's reading;
//! - an illegal first answer (Coup's `Z`), a crash, an exit, and a bot run in a referee's
//!   game it does not speak are failed with the game's reading and the bot's stderr;
//! - a Python script that imports a module the sandbox lacks (`numpy`, a helper file beside
//!   it) is failed naming the module, with or without a game;
//! - `--no-run` only loads, and an unknown `--game` is refused naming it;
//! - a compile past `--compile-timeout` runs in a child process, killed at the deadline.

use koth_tests::{koth_bin, wasm};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn check(dir: &Path, args: &[&str], files: &[PathBuf]) -> (bool, String) {
    let out: Output = Command::new(koth_bin())
        .arg("check")
        .arg("--cache-dir")
        .arg(dir.join("cache"))
        .args(args)
        .args(files)
        .output()
        .expect("run koth check");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// `name.wasm` in `dir`, a copy of the built bot `built` (the coup_cheater picks its rule
/// to break by its name).
fn copy_as(dir: &Path, built: &str, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.wasm"));
    std::fs::copy(wasm(built), &path).expect("copy bot");
    path
}

/// The hostile module `name` (tests/hostile/NAME.wat), built into `dir`.
fn hostile(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(format!("{name}.wasm"));
    std::fs::write(&path, koth_tests::hostile_module(name)).expect("write");
    path
}

#[test]
fn honest_bots_of_every_game_pass_with_their_first_decision() {
    let tmp = tempfile::tempdir().expect("tmp");
    for (game, bot, reading) in [
        ("coup", "taxman", "taxman attempted Tax"),
        ("bank-heist", "lurker", "answer: \"bet 0\""),
        ("euchre", "card_counter", "answer: "),
    ] {
        let (ok, text) = check(tmp.path(), &["--game", game], &[wasm(bot)]);
        assert!(ok, "{bot} in {game}:\n{text}");
        assert!(text.contains(&format!("OK    {bot} (")), "{text}");
        assert!(
            text.contains(&format!("ran in {game} against a copy of itself: ")),
            "{bot} was not run in {game}:\n{text}"
        );
        assert!(text.contains("first decision: "), "{text}");
        assert!(text.contains(reading), "{bot}: no `{reading}`:\n{text}");
        assert!(text.contains("no decision failed"), "{text}");
    }
}

#[test]
fn an_illegal_first_answer_and_a_crash_fail_with_the_games_reading() {
    let tmp = tempfile::tempdir().expect("tmp");
    let illegal = copy_as(tmp.path(), "coup_cheater", "cheat_illegal");
    let (ok, text) = check(tmp.path(), &["--game", "coup"], &[illegal]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("FAIL  cheat_illegal (")
            && text.contains("in coup, match 0, decision 0: illegal move: made an illegal move"),
        "{text}"
    );
    assert!(
        text.contains("cheat_illegal forfeits: made an illegal move"),
        "the game's reading is missing:\n{text}"
    );

    let crash = copy_as(tmp.path(), "coup_cheater", "cheat_trap");
    let (ok, text) = check(tmp.path(), &["--game", "coup"], &[crash]);
    assert!(!ok, "{text}");
    assert!(text.contains("FAIL  cheat_trap ("), "{text}");
    assert!(
        text.contains("deliberate panic"),
        "its stderr is missing:\n{text}"
    );

    // Bank Heist replaces a failed answer by its default: still a failed check.
    let exit3 = hostile(tmp.path(), "exit3");
    let (ok, text) = check(tmp.path(), &["--game", "bank-heist"], &[exit3]);
    assert!(!ok, "{text}");
    assert!(
        text.contains(
            "in bank-heist, match 0, decision 0: exit: the invocation ended with exit(3)"
        ),
        "{text}"
    );
    assert!(text.contains("1 of 1 bots failed the check"), "{text}");
}

#[test]
fn a_bot_beside_a_referee_is_run_in_its_game() {
    let tmp = tempfile::tempdir().expect("tmp");
    let (ok, text) = check(
        tmp.path(),
        &[],
        &[
            wasm("hostile_referee"),
            hostile(tmp.path(), "exit0"),
            wasm("taxman"),
        ],
    );
    assert!(text.contains("OK    referee hostile_referee"), "{text}");
    // The test referee's honest game takes any answer, an empty one too.
    assert!(text.contains("OK    exit0 ("), "{text}");
    assert!(
        text.contains("ran in hostile against a copy of itself: "),
        "{text}"
    );
    // A Coup bot does not speak it: it exits 1 at its first decision, saying why.
    assert!(
        text.contains("FAIL  taxman (") && text.contains("in hostile, match 0, decision 0: exit"),
        "{text}"
    );
    assert!(
        text.contains("bad arguments"),
        "its stderr is missing:\n{text}"
    );
    assert!(!ok);
}

#[test]
fn no_run_only_loads_and_an_unknown_game_is_refused() {
    let tmp = tempfile::tempdir().expect("tmp");
    let illegal = copy_as(tmp.path(), "coup_cheater", "cheat_illegal");
    let (ok, text) = check(
        tmp.path(),
        &["--game", "coup", "--no-run"],
        std::slice::from_ref(&illegal),
    );
    assert!(ok, "{text}");
    assert!(!text.contains("ran in"), "{text}");
    let (ok, text) = check(tmp.path(), &[], std::slice::from_ref(&illegal));
    assert!(ok, "{text}");
    assert!(text.contains("not run: give --game"), "{text}");
    let (ok, text) = check(tmp.path(), &["--game", "chess"], &[illegal]);
    assert!(!ok);
    assert!(
        text.contains("--game chess: koth's games are coup"),
        "{text}"
    );
}

#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn a_python_script_importing_what_the_sandbox_lacks_is_failed_naming_the_module() {
    let tmp = tempfile::tempdir().expect("tmp");
    let numpy = tmp.path().join("np_bot.py");
    std::fs::write(
        &numpy,
        "import sys\nimport numpy\nwith open(sys.argv[1], 'a') as f:\n    f.write('I\\n')\n",
    )
    .expect("write");
    std::fs::write(tmp.path().join("helper.py"), "X = 1\n").expect("write");
    let helper = tmp.path().join("uses_helper.py");
    std::fs::write(&helper, "import helper\n").expect("write");
    let (ok, text) = check(tmp.path(), &[], &[numpy.clone(), helper]);
    assert!(!ok, "{text}");
    assert!(
        text.contains("FAIL  np_bot (")
            && text.contains("it imports `numpy`, a module the sandbox does not have"),
        "{text}"
    );
    assert!(text.contains("it imports `helper`"), "{text}");
    // In a game, the same.
    let (ok, text) = check(tmp.path(), &["--game", "coup"], &[numpy]);
    assert!(!ok, "{text}");
    assert!(text.contains("it imports `numpy`"), "{text}");
    // The example Python bot passes, run in its game.
    let example =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-bots/python/coup/coup_py.py");
    let (ok, text) = check(tmp.path(), &["--game", "coup"], &[example]);
    assert!(ok, "{text}");
    assert!(text.contains("no decision failed"), "{text}");
}

/// The compile workers `parent` runs (from `/proc`).
fn compile_workers(parent: u32) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .flatten()
        .filter(|e| {
            let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
            // `pid (comm) state ppid ...`: the fields after the command's closing parenthesis.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse::<u32>().ok());
            let cmdline = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
            ppid == Some(parent) && String::from_utf8_lossy(&cmdline).contains("compile-worker")
        })
        .count()
}

#[test]
#[cfg(target_os = "linux")]
fn a_compile_past_its_deadline_is_killed_with_its_process() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().expect("tmp");
    let bomb = tmp.path().join("bomb.wasm");
    std::fs::write(&bomb, koth_tests::compile_bomb()).expect("write");
    // taxman's code is cached first, so that the only compile below is the bomb's.
    let (ok, text) = check(tmp.path(), &["--no-run"], &[wasm("taxman")]);
    assert!(ok, "{text}");
    let mut child = Command::new(koth_bin())
        .args(["check", "--no-run", "--compile-timeout", "2", "--cache-dir"])
        .arg(tmp.path().join("cache"))
        .arg(&bomb)
        .arg(wasm("taxman"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("koth check");
    let pid = child.id();
    let started = Instant::now();
    // The compile runs in a child process of koth.
    let mut seen_worker = false;
    while started.elapsed() < Duration::from_millis(1500) {
        seen_worker |= compile_workers(pid) > 0;
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(seen_worker, "no compile worker ran under koth {pid}");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a line").expect("utf-8");
    // At the deadline the worker is gone, with its CPU and memory, as the check goes on.
    assert_eq!(
        compile_workers(pid),
        0,
        "the bomb's compile outlived its deadline"
    );
    assert!(
        first.starts_with("FAIL  bot `bomb`") && first.contains("2000 ms"),
        "{first}"
    );
    assert!(first.contains("--compile-timeout"), "{first}");
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    assert!(
        rest.iter().any(|l| l.starts_with("OK    taxman (")),
        "{rest:?}"
    );
    let status = child.wait().expect("wait");
    assert!(!status.success());
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "the check took {:?}",
        started.elapsed()
    );
}
