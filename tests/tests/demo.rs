//! The demo's koth (`scripts/demo` builds it with the `demo` profile: unoptimised for a fast
//! first build, but for the code generator) loads every kind of bot the guide describes,
//! plain Python scripts (run once in Coup) and Python referees included: with all of koth unoptimised, compiling
//! the CPython interpreter ran past the 120 s compile timeout and every `.py` was refused.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: python: CPython for WASI unavailable (see PYTHON_SKIPPED)"
)]
fn the_demos_koth_loads_a_python_bot_and_a_python_referee() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = vec![repo.join("example-bots/python/coup/coup_py.py")];
    if koth_tests::LANGUAGE_REFEREES.contains(&"liars_dice_referee") {
        files.push(koth_tests::wasm("liars_dice_referee"));
    } else {
        eprintln!("SKIPPED: liars_dice_referee: not built (see SKIPPED_LANGUAGE_REFEREES)");
    }
    let mut child = Command::new(koth_tests::demo_koth_bin())
        .arg("check")
        // The script is run in Coup, against copies of itself; the referee is loaded.
        .args(["--game", "coup"])
        // A cache of its own: the interpreter's snapshot and the referee are compiled here.
        .arg("--cache-dir")
        .arg(tmp.path())
        .args(&files)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(600) {
            let _ = child.kill();
            panic!("the demo's koth check ran past 10 minutes");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert_eq!(text.matches("OK ").count(), files.len(), "{text}");
    assert!(
        text.contains("ran in coup against a copy of itself: ")
            && text.contains("no decision failed"),
        "{text}"
    );
    eprintln!(
        "the demo's koth checked {} files in {:?}",
        files.len(),
        started.elapsed()
    );
}
