//! `koth check`: load every bot and say, per bot, OK or why not.

use super::EngineArgs;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Bot modules (.wasm).
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    #[command(flatten)]
    engine: EngineArgs,
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
                "OK    {} ({}, sha256 {}, loaded in {} ms)",
                bot.name(),
                path.display(),
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
