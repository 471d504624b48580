//! Command-line interface: parse, dispatch, turn errors into messages and exit codes.

mod bank_heist;
mod bench;
mod cat;
mod check;
mod contest;
mod coup;
mod euchre;
mod invoke;
mod merge;
mod new;
mod play;
mod replay;
mod report;
mod serve;
mod setup;
mod verify;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use koth::sandbox::EngineOptions;
use std::path::PathBuf;
use std::process::ExitCode;

/// King-of-the-Hill bot tournaments with every bot sandboxed in WebAssembly.
#[derive(Parser)]
#[command(name = "koth", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check bots: valid wasm, only allowed imports, `_start` and `memory` exported.
    Check(check::CheckArgs),
    /// Run one invocation of a bot and print everything about it (for bot authors).
    Invoke(invoke::InvokeArgs),
    /// Run a Coup tournament (round robin) between bots.
    Coup(coup::CoupArgs),
    /// Run Bank Heist tournaments (every bot in every game, with 500 rabble).
    BankHeist(bank_heist::BankHeistArgs),
    /// Run a Euchre tournament (every pair of bots, each partnered with a copy of itself).
    Euchre(euchre::EuchreArgs),
    /// Run a tournament of a game whose referee is a plugin: a WebAssembly component of
    /// the koth:game/referee world (wit/referee.wit).
    Play(play::PlayArgs),
    /// Measure invocation and tournament speed against native processes (runs `koth-bench`,
    /// built apart: `cargo build --release -p koth-bench`).
    Bench(bench::BenchArgs),
    /// Join the folders of a sharded run (`--shard K/N`) into the whole run's archive.
    Merge(merge::MergeArgs),
    /// Check an archive: its receipt, then re-play matches from the bots and compare.
    Verify(verify::VerifyArgs),
    /// Re-run one recorded decision of an archive with exactly the inputs it had, and compare
    /// it with the record (`--bot FILE`: a new build takes it instead).
    Replay(replay::ReplayArgs),
    /// Write a run's archive as one self-contained HTML page (leaderboard, heatmap, fuel,
    /// forfeits, a replay viewer, the manifest).
    Report(report::ReportArgs),
    /// List an archive's files and the entries of its matches container, or print one of them
    /// decompressed: `koth cat ARCHIVE logs/<game>.log`, `koth cat ARCHIVE invocations.jsonl`.
    Cat(cat::CatArgs),
    /// Write a starter bot: `koth new GAME LANG DIR` (coup, bank-heist, euchre; rust, c,
    /// python, rust-component), with its README and one-line build.
    New(new::NewArgs),
    /// Install what some bots need beyond this binary: `koth setup python` fetches the
    /// CPython interpreter that runs `.py` bots.
    Setup(setup::SetupArgs),
    /// Keep a live contest: `koth contest init DIR --game coup`, `koth contest add-author DIR
    /// NAME` (prints the token), `koth contest export DIR --out ARCHIVE`.
    Contest(contest::ContestArgs),
    /// Serve a contest over HTTP: leaderboard, bot pages, replays, run history, uploads
    /// (form and JSON API); each accepted upload starts an incremental run.
    Serve(serve::ServeArgs),
    /// Compile one module or component and write its code to stdout: the child process
    /// koth compiles in, killed at the compile deadline (not for people).
    #[command(hide = true)]
    CompileWorker(CompileWorkerArgs),
}

/// `koth compile-worker --kind K --engine JSON FILE`.
#[derive(Args)]
pub(crate) struct CompileWorkerArgs {
    /// `module` or `component`.
    #[arg(long)]
    kind: String,
    /// The sandbox's engine options, as JSON.
    #[arg(long)]
    engine: String,
    /// The file to compile.
    file: PathBuf,
}

/// The compile worker: the code on stdout and exit 0, or the reason on stderr and exit
/// `WORKER_REFUSED`.
fn compile_worker(args: CompileWorkerArgs) -> anyhow::Result<ExitCode> {
    use koth::sandbox::compiler::{self, CodeKind};
    use std::io::Write;
    let kind = CodeKind::from_name(&args.kind)
        .with_context(|| format!("--kind {}: module or component", args.kind))?;
    let engine: EngineOptions =
        serde_json::from_str(&args.engine).context("--engine: not the sandbox's options")?;
    let bytes =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    match compiler::worker(kind, &engine, &bytes) {
        Ok(code) => {
            std::io::stdout().lock().write_all(&code)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(why) => {
            eprintln!("{why}");
            Ok(ExitCode::from(compiler::WORKER_REFUSED as u8))
        }
    }
}

/// Parse the command line and run it.
pub(crate) fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(a) => check::run(a),
        Command::CompileWorker(a) => compile_worker(a),
        Command::Invoke(a) => invoke::run(a),
        Command::Coup(a) => coup::run(a),
        Command::BankHeist(a) => bank_heist::run(a),
        Command::Euchre(a) => euchre::run(a),
        Command::Play(a) => play::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Verify(a) => verify::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Report(a) => report::run(a),
        Command::Cat(a) => cat::run(a),
        Command::New(a) => new::run(a),
        Command::Setup(a) => setup::run(a),
        Command::Contest(a) => contest::run(a),
        Command::Serve(a) => serve::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("koth: {e:#}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth::report::rerun::rerun_command;
    use serde_json::{json, Value};

    /// A manifest with `options` as the game writes them, and two bots.
    fn manifest(game: &str, options: Value, referee: Value) -> Value {
        json!({
            "game": game,
            "bots": [{"name": "a", "file": "a.wasm"}, {"name": "b", "file": "b.py"}],
            "options": options,
            "referee": referee,
            "engine": {"pooling": false},
        })
    }

    /// The report's re-run command is one this koth accepts, for every game and a referee's.
    #[test]
    fn the_reports_rerun_command_parses_for_every_game() {
        use koth::games::bank_heist::format::BankHeistOptions;
        use koth::games::bank_heist::rules::Variant;
        use koth::games::coup::{self, tournament::CoupOptions};
        use koth::games::euchre::{self, Partners};
        let limits = koth::sandbox::Limits::default();
        let scratch = koth::tournament::ScratchScope::Tournament;
        let coup = coup::options(4, scratch, true, Some(4), 5, limits);
        // An archive of the built-in driver, before Coup's referee played `koth coup`.
        let driver = CoupOptions {
            opponents: Some(4),
            paired: true,
            ..CoupOptions::default()
        };
        let heist_referee =
            koth::games::bank_heist::options(2, Some(30), Variant::Original, 3, limits).unwrap();
        // An archive of the built-in driver, before Bank Heist's referee.
        let heist = BankHeistOptions {
            tournaments: 2,
            games: Some(30),
            seed: 3,
            limits,
            rules: Variant::Original,
        };
        let cards = euchre::options(6, 5, Partners::Copies, true, 9, limits).unwrap();
        let mut dice = serde_json::to_value(&cards).unwrap();
        dice["options"] = json!({"target": 5, "name": "two words"});
        let referee =
            json!({"file": "ref.wasm", "sha256": "00", "fuel": 7, "memory_bytes": 1 << 28});
        for (m, starts) in [
            (
                manifest("coup", serde_json::to_value(&coup).unwrap(), Value::Null),
                "coup",
            ),
            (
                manifest("coup", serde_json::to_value(&driver).unwrap(), Value::Null),
                "coup",
            ),
            (
                manifest(
                    "bank-heist",
                    serde_json::to_value(&heist).unwrap(),
                    Value::Null,
                ),
                "bank-heist",
            ),
            (
                manifest(
                    "bank-heist",
                    serde_json::to_value(&heist_referee).unwrap(),
                    Value::Null,
                ),
                "bank-heist",
            ),
            (
                manifest("euchre", serde_json::to_value(&cards).unwrap(), Value::Null),
                "euchre",
            ),
            (manifest("liars-dice", dice, referee), "play"),
        ] {
            let args = rerun_command(&m);
            assert_eq!(args[1], starts);
            if let Err(e) = Cli::try_parse_from(&args) {
                panic!("{args:?}: {e}");
            }
        }
        // The referee's options under `koth bank-heist`'s own flags.
        let m = manifest(
            "bank-heist",
            serde_json::to_value(&heist_referee).unwrap(),
            Value::Null,
        );
        let line = rerun_command(&m).join(" ");
        assert!(
            line.starts_with(
                "koth bank-heist a.wasm b.py --tournaments 2 --games 30 --rules original --seed 3"
            ),
            "{line}"
        );
    }
}
