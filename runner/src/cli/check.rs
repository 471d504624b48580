//! `koth check`: load every bot and say, per bot, OK or why not.

use super::EngineArgs;
use clap::Args;
use koth::sandbox::BotKind;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Bots (.wasm): core modules or components.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The kind of a bot and the world it implements, for a bot author.
fn describe(kind: &BotKind) -> String {
    match kind {
        BotKind::Module => "core module, WASI preview 1".into(),
        BotKind::PythonScript => "Python script, run by CPython 3.12 for WASI".into(),
        BotKind::Command => "command component, world wasi:cli/command".into(),
        BotKind::World(interface) => match koth::worlds::world_of(interface) {
            Some((world, game)) => {
                format!("typed-world component, world koth:bots/{world} ({game})")
            }
            None => format!("component exporting {interface}, not a koth world"),
        },
    }
}

pub(crate) fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let sandbox = args
        .engine
        .sandbox(1, koth::sandbox::Limits::default().memory_bytes)?;
    let mut failed = 0;
    for path in &args.bots {
        let t = Instant::now();
        match sandbox.load_file(path, None) {
            Ok(bot) => println!(
                "OK    {} ({}, {}, sha256 {}, loaded in {} ms)",
                bot.name(),
                path.display(),
                describe(&bot.kind()),
                &bot.sha256_hex()[..16],
                t.elapsed().as_millis()
            ),
            Err(e) => {
                failed += 1;
                println!("FAIL  {e}");
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} bots failed the check", args.bots.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
