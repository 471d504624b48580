//! `koth check`: load every bot and say, per bot, OK or why not.

use super::EngineArgs;
use clap::Args;
use koth::referee::component::{is_referee, ComponentReferee, RefereeLimits};
use koth::referee::options::OptValue;
use koth::referee::shape::FormatName;
use koth::referee::Referee;
use koth::sandbox::{BotKind, VfsLimits};
use koth_referee::{Description, Seating};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Bots (.wasm modules or components, .py scripts) and referees (components of the
    /// koth:game/referee world).
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

/// What a referee's game is, in one line: seats, teams, formats, options.
fn describe_game(d: &Description) -> String {
    let seats = match d.seating {
        Seating::Fixed(n) => format!("{n} seats"),
        Seating::Everyone => "every bot in every match".into(),
    };
    let teams = if d.teams.is_empty() {
        String::new()
    } else {
        format!(" in teams {:?}", d.teams)
    };
    let formats: Vec<String> = d
        .formats
        .iter()
        .map(|&f| FormatName::from(f).to_string())
        .collect();
    let options: Vec<String> = d
        .options
        .iter()
        .map(|o| format!("{}={}", o.name, OptValue::from(&o.default)))
        .collect();
    format!(
        "game `{}`: {seats}{teams}; formats {}; options {}",
        d.name,
        formats.join(", "),
        if options.is_empty() {
            "none".into()
        } else {
            options.join(" ")
        }
    )
}

pub(crate) fn run(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let sandbox = args
        .engine
        .sandbox(1, koth::sandbox::Limits::default().memory_bytes)?;
    let mut failed = 0;
    for path in &args.bots {
        let t = Instant::now();
        let referee = std::fs::read(path).is_ok_and(|b| is_referee(&b));
        if referee {
            match ComponentReferee::load(
                &sandbox,
                path,
                RefereeLimits::default(),
                &VfsLimits::default(),
            ) {
                Ok(r) => println!(
                    "OK    referee {} ({}, {}, sha256 {}, loaded in {} ms)",
                    r.name(),
                    path.display(),
                    describe_game(r.description()),
                    &r.sha256_hex()[..16],
                    t.elapsed().as_millis()
                ),
                Err(e) => {
                    failed += 1;
                    println!("FAIL  {e}");
                }
            }
            continue;
        }
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
