//! First Legal: appends the first legal action. The trivial benchmark bot.
//!
//! Raw std on purpose, no SDK: it measures the floor of what a bot costs (read argv, read
//! the history, one append). Finishing an Exchange it keeps the first n offered cards.

use std::fs::OpenOptions;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    match play() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("first_legal: {e}");
            ExitCode::FAILURE
        }
    }
}

fn play() -> Result<(), String> {
    let args: Vec<String> = std::env::args_os()
        .map(|a| {
            a.into_string()
                .map_err(|a| format!("non-UTF-8 argument {a:?}"))
        })
        .collect::<Result<_, _>>()?;
    let [_, history, _, _, cards, first, ..] = args.as_slice() else {
        return Err(format!(
            "expected at least 5 arguments, got {}",
            args.len().saturating_sub(1)
        ));
    };
    // Read the history as every real bot does, even though the choice ignores it.
    std::fs::read(history).map_err(|e| format!("reading {history}: {e}"))?;
    // A hand is one or two cards; three or four means an Exchange is being finished.
    if cards.chars().count() > 2 {
        let keep: String = cards.chars().take(cards.chars().count() - 2).collect();
        let mut out = std::io::stdout().lock();
        out.write_all(keep.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("stdout: {e}"))?;
    }
    OpenOptions::new()
        .append(true)
        .open(history)
        .and_then(|mut f| f.write_all(first.as_bytes()))
        .map_err(|e| format!("appending to {history}: {e}"))
}
