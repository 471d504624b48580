//! Answering: printing the answer, and `run`.

use super::input::Input;
use super::memory::Memory;
use super::Answer;
use super::Error;
use std::io::{Read, Write};

/// Prints `answer` for `input`: its token and a newline, or nothing at a trick report. An
/// answer that is not legal is replaced by the host's default (which the host would apply
/// anyway), with a note on stderr.
pub fn print_answer<W: Write>(input: &Input, answer: Answer, stdout: &mut W) -> Result<(), Error> {
    let answer = if input.is_legal(answer) {
        answer
    } else {
        let default = input.default_answer();
        eprintln!("koth-guest: {answer:?} is not legal here; answering {default:?}");
        default
    };
    if answer != Answer::Nothing {
        writeln!(stdout, "{}", answer.token())?;
        stdout.flush()?;
    }
    Ok(())
}

/// One invocation with explicit streams and memory: parses `stdin`, asks `bot`, prints its
/// answer, then saves the memory. A full quota is reported on stderr and otherwise ignored:
/// the answer is already out.
pub fn run_with<R, W, F>(stdin: R, stdout: &mut W, memory: &mut Memory, bot: F) -> Result<(), Error>
where
    R: Read,
    W: Write,
    F: FnOnce(&Input, &mut Memory) -> Answer,
{
    let mut text = String::new();
    let mut stdin = stdin;
    stdin.read_to_string(&mut text)?;
    let input = Input::parse(&text)?;
    let answer = bot(&input, memory);
    print_answer(&input, answer, stdout)?;
    match memory.save() {
        Err(Error::NoSpace) => {
            eprintln!("koth-guest: memory not saved: no space left");
            Ok(())
        }
        other => other,
    }
}

/// A bot's whole `main` for a bot without memory: reads stdin, asks `bot`, prints the answer.
/// On a malformed input it reports on stderr and exits with status 1 (the host then applies
/// its default).
pub fn run<F: FnOnce(&Input) -> Answer>(bot: F) {
    let mut memory = Memory::in_memory(&[]);
    finish(run_with(
        std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut memory,
        |input, _| bot(input),
    ));
}

/// A bot's whole `main` with memory kept in [`MEMORY_FILE`](super::MEMORY_FILE): loaded
/// before `bot` runs and saved after its answer is printed.
pub fn run_with_memory<F: FnOnce(&Input, &mut Memory) -> Answer>(bot: F) {
    let mut memory = Memory::open_default();
    finish(run_with(
        std::io::stdin().lock(),
        &mut std::io::stdout().lock(),
        &mut memory,
        bot,
    ));
}

fn finish(result: Result<(), Error>) {
    if let Err(e) = result {
        eprintln!("koth-guest: {e}");
        std::process::exit(1);
    }
}
