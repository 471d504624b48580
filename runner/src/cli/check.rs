//! `koth check`: load every bot and say, per bot, OK or why not.

use super::EngineArgs;
use anyhow::{bail, Context};
use clap::Args;
use koth::games::bank_heist::{
    self,
    format::{BankHeist, BankHeistOptions},
};
use koth::games::coup::{
    self,
    tournament::{Coup, CoupOptions},
};
use koth::games::euchre::{self, Partners};
use koth::games::trial::trial;
use koth::games::{self, Player};
use koth::referee::component::{is_referee, ComponentReferee, RefereeLimits};
use koth::referee::game::RefereeGame;
use koth::referee::options::OptValue;
use koth::referee::schedule;
use koth::referee::shape::FormatName;
use koth::referee::shape::RefereeOptions;
use koth::referee::Referee;
use koth::sandbox::{Bot, BotKind, Invocation, Limits, Vfs, VfsLimits};
use koth_referee::{Description, Seating};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// Bots (.wasm modules or components, .py scripts) and referees (components of the
    /// koth:game/referee world).
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// The game to run each bot in once, against copies of itself (coup, bank-heist,
    /// euchre) [default: the game of a referee given among the files, else the bot's own
    /// world's game; a bot with neither is only loaded].
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Only load the bots; run none of them.
    #[arg(long)]
    no_run: bool,
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
    if let Some(g) = &args.game {
        if !games::GAMES.contains(&g.as_str()) {
            bail!(
                "--game {g}: koth's games are {} (a referee's game: give the referee among the files)",
                games::GAMES.join(", ")
            );
        }
    }
    let sandbox = args
        .engine
        .sandbox(1, koth::sandbox::Limits::default().memory_bytes)?;
    let mut failed = 0;
    // Referees first: a bot given beside one is run in its game.
    let mut referee_game: Option<Arc<ComponentReferee>> = None;
    let mut is_ref = Vec::with_capacity(args.bots.len());
    for path in &args.bots {
        let t = Instant::now();
        let referee = std::fs::read(path).is_ok_and(|b| is_referee(&b));
        is_ref.push(referee);
        if !referee {
            continue;
        }
        match ComponentReferee::load(
            &sandbox,
            path,
            RefereeLimits::default(),
            &VfsLimits::default(),
        ) {
            Ok(r) => {
                println!(
                    "OK    referee {} ({}, {}, sha256 {}, loaded in {} ms)",
                    r.name(),
                    path.display(),
                    describe_game(r.description()),
                    &r.sha256_hex()[..16],
                    t.elapsed().as_millis()
                );
                referee_game.get_or_insert(Arc::new(r));
            }
            Err(e) => {
                failed += 1;
                println!("FAIL  {e}");
            }
        }
    }
    for (path, _) in args.bots.iter().zip(&is_ref).filter(|(_, r)| !**r) {
        let t = Instant::now();
        let bot = match sandbox.load_file(path, None) {
            Ok(bot) => bot,
            Err(e) => {
                failed += 1;
                println!("FAIL  {e}");
                continue;
            }
        };
        let loaded = format!(
            "{} ({}, {}, sha256 {}, loaded in {} ms)",
            bot.name(),
            path.display(),
            describe(&bot.kind()),
            &bot.sha256_hex()[..16],
            t.elapsed().as_millis()
        );
        let game = match (&args.game, &referee_game, bot.kind()) {
            _ if args.no_run => None,
            (Some(g), _, _) => Some(TrialGame::Named(g.clone())),
            (None, Some(r), _) => Some(TrialGame::Referee(r.clone())),
            (None, None, BotKind::World(interface)) => {
                koth::worlds::world_of(&interface).map(|(_, g)| TrialGame::Named(g.to_string()))
            }
            _ => None,
        };
        let verdict = match game {
            Some(game) => run_trial(&game, bot),
            None if args.no_run => Ok(Verdict::Pass(Vec::new())),
            None if bot.kind() == BotKind::PythonScript => import_check(&bot),
            None => Ok(Verdict::Pass(vec![
                "not run: give --game (coup, bank-heist, euchre) or a referee to run it once"
                    .into(),
            ])),
        }?;
        match verdict {
            Verdict::Pass(notes) => {
                println!("OK    {loaded}");
                for n in notes {
                    println!("      {n}");
                }
            }
            Verdict::Fail(why, notes) => {
                failed += 1;
                println!("FAIL  {loaded}: {why}");
                for n in notes {
                    println!("      {n}");
                }
            }
        }
    }
    if failed > 0 {
        eprintln!("{failed} of {} bots failed the check", args.bots.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The game a bot is run in once.
enum TrialGame {
    /// A built-in game, by name.
    Named(String),
    /// A referee's game.
    Referee(Arc<ComponentReferee>),
}

/// What a check found, with lines to print under the bot.
enum Verdict {
    Pass(Vec<String>),
    Fail(String, Vec<String>),
}

/// Run `bot` once in `game`: every match of a short run against copies of itself.
fn run_trial(game: &TrialGame, bot: Bot) -> anyhow::Result<Verdict> {
    let name = match game {
        TrialGame::Named(g) => g.clone(),
        TrialGame::Referee(r) => r.description().name.clone(),
    };
    if let TrialGame::Named(g) = game {
        if let Err(why) = koth::worlds::check_game(&bot, g) {
            return Ok(Verdict::Fail(format!("this bot {why}"), Vec::new()));
        }
    }
    let python = bot.kind() == BotKind::PythonScript;
    let bot: Arc<dyn Player> = Arc::new(bot);
    let limits = Limits::default();
    let result = match game {
        TrialGame::Named(g) if g == coup::tournament::NAME => {
            let opts = CoupOptions {
                rounds: 1,
                seed: 1,
                limits,
                ..CoupOptions::default()
            };
            trial(&Coup, &opts, bot, 2)
        }
        TrialGame::Named(g) if g == bank_heist::format::NAME => {
            let opts = BankHeistOptions {
                tournaments: 1,
                games: Some(2),
                seed: 1,
                limits,
                ..BankHeistOptions::default()
            };
            trial(&BankHeist, &opts, bot, 2)
        }
        TrialGame::Named(g) if g == euchre::NAME => {
            let opts = euchre::options(1, 10, Partners::Copies, false, 1, limits)?;
            trial(&euchre::game(), &opts, bot, 2)
        }
        TrialGame::Named(g) => {
            return Ok(Verdict::Pass(vec![format!(
                "not run: koth has no built-in game `{g}` (give its referee among the files)"
            )]))
        }
        TrialGame::Referee(r) => {
            let d = r.description();
            let (format, rounds, partners, values) =
                super::play::options(d, None, Some(1), None, false, &[])?;
            let opts = RefereeOptions::new(d, format, rounds, partners, false, values, 1, limits);
            // The fewest copies the game seats.
            let copies = (2..=16)
                .find(|&n| schedule::count(&opts, n).is_ok_and(|c| c > 0))
                .with_context(|| {
                    format!("{}: no number of players up to 16 makes a match", d.name)
                })?;
            let referee: Arc<dyn Referee> = r.clone();
            trial(&RefereeGame::new(referee), &opts, bot, copies)
        }
    };
    let t = match result {
        Ok(t) => t,
        Err(e) => {
            return Ok(Verdict::Fail(
                format!("its run in {name} failed: {e}"),
                Vec::new(),
            ))
        }
    };
    let first = &t.first;
    let copies = t.copies - 1;
    let mut notes = vec![format!(
        "ran in {name} against {}: {} match{}, {} decisions",
        if copies == 1 {
            "a copy of itself".to_string()
        } else {
            format!("{copies} copies of itself")
        },
        t.matches,
        if t.matches == 1 { "" } else { "es" },
        t.decisions
    )];
    notes.push(format!(
        "first decision: {} argument(s), {} bytes of stdin; {}, fuel {}",
        first.invocation.args.len(),
        first.invocation.stdin.len(),
        first.report.outcome,
        first.report.fuel_used
    ));
    notes.extend(indented(&t.first_reading));
    let Some(p) = t.problem else {
        notes.push("no decision failed".into());
        return Ok(Verdict::Pass(notes));
    };
    if !p.first {
        notes.push(format!("{}:", p.at));
        notes.extend(indented(&p.reading));
    }
    let mut why = format!("in {name}, {}: {}", p.at, p.what);
    if python {
        if let Some(module) = missing_module(&p.stderr_tail) {
            why = missing_module_words(&module);
        }
    }
    if !p.stderr_tail.trim().is_empty() {
        notes.push("its stderr ends with:".into());
        notes.extend(tail_lines(&p.stderr_tail, 12).map(|l| format!("  | {l}")));
    }
    Ok(Verdict::Fail(why, notes))
}

/// A Python script given without a game: run once with no arguments and an empty folder,
/// to see that its imports load (any other error is its input's, which it did not get).
fn import_check(bot: &Bot) -> anyhow::Result<Verdict> {
    let inv = Invocation {
        args: Vec::new(),
        stdin: Vec::new(),
        seed: koth::seed::derive(0, "check", &[]),
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    let mut dir = Vfs::new(VfsLimits::default());
    let report = bot.invoke(&inv, Some(&mut dir));
    let stderr = String::from_utf8_lossy(&report.stderr);
    Ok(match missing_module(&stderr) {
        Some(module) => Verdict::Fail(
            missing_module_words(&module),
            tail_lines(&stderr, 12).map(|l| format!("| {l}")).collect(),
        ),
        None => Verdict::Pass(vec![
            "its imports load (not run in a game: give --game or a referee to run it once)".into(),
        ]),
    })
}

/// The module a Python traceback says could not be found.
fn missing_module(stderr: &str) -> Option<String> {
    let at = stderr.rfind("ModuleNotFoundError: No module named ")?;
    let rest = &stderr[at + "ModuleNotFoundError: No module named ".len()..];
    let name = rest
        .lines()
        .next()?
        .trim()
        .trim_matches(|c| c == '\'' || c == '"');
    (!name.is_empty()).then(|| name.to_string())
}

fn missing_module_words(module: &str) -> String {
    format!(
        "it imports `{module}`, a module the sandbox does not have: a bot gets CPython's \
         standard library and nothing else (no packages such as numpy, no files beside the \
         script: put a helper's code in the script itself)"
    )
}

/// A reading's lines, indented (a line of the game's log may hold several: a bot's stderr).
fn indented(reading: &[String]) -> Vec<String> {
    reading
        .iter()
        .flat_map(|l| l.lines())
        .map(|l| format!("  {l}"))
        .collect()
}

/// The last `n` lines of `text`.
fn tail_lines(text: &str, n: usize) -> impl Iterator<Item = &str> {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let skip = lines.len().saturating_sub(n);
    lines.into_iter().skip(skip)
}
