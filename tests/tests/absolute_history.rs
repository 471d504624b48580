//! `/history.txt` keeps working through the language runtimes although absolute paths are
//! `ENOTCAPABLE` at the WASI level: wasi-libc (the C bot) and Rust's std (a Rust bot) resolve
//! an absolute name against the preopen named `/` and call WASI with a relative one.

use koth::sandbox::{Invocation, Limits, Outcome, Sandbox, SandboxOptions, Vfs, VfsLimits};
use koth_tests::coup::{situation, Answer};

/// Run `bot` in the situation `open-duke`, naming the history file with a leading `/`.
fn answer_with_absolute_name(bot: &str) -> Answer {
    let sandbox = Sandbox::new(SandboxOptions::default()).expect("sandbox");
    let bot = sandbox
        .load_file(&koth_tests::wasm(bot), None)
        .unwrap_or_else(|e| panic!("{e}"));
    let s = situation("open-duke");
    let file = s.history_file(bot.name());
    let mut args = s.args(bot.name());
    args[0] = format!("/{file}").into_bytes();
    let mut dir = Vfs::new(VfsLimits::default());
    dir.put_host_file(&file, s.history.as_bytes());
    let r = bot.invoke(
        &Invocation {
            args,
            stdin: Vec::new(),
            seed: [0; 32],
            clock_start_ns: 0,
            limits: Limits::default(),
        },
        Some(&mut dir),
    );
    assert_eq!(
        r.outcome,
        Outcome::Ok,
        "{}: {}",
        bot.name(),
        String::from_utf8_lossy(&r.stderr)
    );
    let after = dir
        .host_file(&file)
        .expect("the history file is still there");
    let appended = after
        .strip_prefix(s.history.as_bytes())
        .expect("the history was appended to");
    let answer = Answer {
        appended: String::from_utf8(appended.to_vec()).expect("UTF-8"),
        stdout: String::from_utf8_lossy(&r.stdout).into_owned(),
    };
    s.check(&answer)
        .unwrap_or_else(|e| panic!("{}: {e}", bot.name()));
    answer
}

#[test]
fn the_c_bot_reads_and_appends_slash_history() {
    assert!(!answer_with_absolute_name("coup_c").appended.is_empty());
}

#[test]
fn a_rust_bot_reads_and_appends_slash_history() {
    assert!(!answer_with_absolute_name("first_legal").appended.is_empty());
}
