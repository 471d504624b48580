//! `koth check`: load every bot and say, per bot, OK or why not.

use anyhow::{bail, Context};
use clap::Args;
use koth::command::engine::EngineArgs;
use koth::games::bank_heist::{self, rules::Variant};
use koth::games::coup;
use koth::games::euchre::{self, Partners};
use koth::games::trial::trial;
use koth::games::{self, Player};
use koth::referee::component::{is_referee, ComponentReferee, RefereeLimits};
use koth::referee::game::RefereeGame;
use koth::referee::options::OptValue;
use koth::referee::pages::Pages;
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

/// The formats a referee's game plays, by their command-line names, the default first.
fn format_names(d: &Description) -> Vec<String> {
    d.formats
        .iter()
        .map(|&f| FormatName::from(f).to_string())
        .collect()
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
    let formats = format_names(d);
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

/// A referee's text as a terminal may show it: the referee is untrusted, so control
/// characters (an escape sequence that would rewrite the screen) are shown escaped.
fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The game's page for a bot author and a host: what the referee declares about its game,
/// each line indented under the referee's OK line.
fn game_page(d: &Description) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "      {}: {}", d.name, printable(&d.summary));
    let seat_name = |s: usize| {
        d.seat_names
            .get(s)
            .map_or_else(|| s.to_string(), |n| printable(n))
    };
    let seats = match d.seating {
        Seating::Fixed(n) => {
            let names: Vec<String> = (0..n as usize).map(seat_name).collect();
            format!("{n} per match ({})", names.join(" "))
        }
        Seating::Everyone => "every bot in every match".into(),
    };
    let _ = writeln!(out, "      seats: {seats}");
    if !d.teams.is_empty() {
        let teams: Vec<String> = d
            .teams
            .iter()
            .map(|t| {
                t.iter()
                    .map(|&s| seat_name(s as usize))
                    .collect::<Vec<_>>()
                    .join(" & ")
            })
            .collect();
        let partners: Vec<&str> = d
            .partners
            .iter()
            .map(|p| match p {
                koth_referee::Partners::Copies => "copies of one bot",
                koth_referee::Partners::Random => "bots drawn at random",
            })
            .collect();
        let _ = writeln!(
            out,
            "      teams: {}, filled by {}",
            teams.join(" against "),
            partners.join(" or ")
        );
    }
    let formats = format_names(d);
    let _ = writeln!(
        out,
        "      formats: {} (the first is the default); {} round(s) by default; --paired {}",
        formats.join(", "),
        d.rounds,
        if d.paired { "allowed" } else { "not offered" }
    );
    let folder = match d.directory {
        Some(q) => format!(
            "its own folder of at most {} bytes and {} files and folders, for the whole match",
            q.bytes, q.nodes
        ),
        None => "no files at all".into(),
    };
    let _ = writeln!(out, "      each seat's bot gets {folder}");
    let score = match &d.scoring.score_name {
        Some(name) => format!(
            "by {} (each bot's mean per match, with its 95% interval)",
            printable(name)
        ),
        None => format!(
            "by {} won (a Bradley–Terry rating)",
            printable(&d.scoring.matches)
        ),
    };
    let _ = writeln!(out, "      ranked {score}");
    if d.options.is_empty() {
        let _ = writeln!(out, "      options: none");
    } else {
        let _ = writeln!(out, "      options (--opt NAME=VALUE):");
        let width = d.options.iter().map(|o| o.name.len()).max().unwrap_or(0);
        for o in &d.options {
            let kind = match (&o.default, o.min, o.max) {
                (koth_referee::Value::Flag(_), _, _) => "true or false".to_string(),
                (koth_referee::Value::Integer(_), lo, hi) => match (lo, hi) {
                    (Some(lo), Some(hi)) => format!("an integer from {lo} to {hi}"),
                    (Some(lo), None) => format!("an integer from {lo}"),
                    (None, Some(hi)) => format!("an integer up to {hi}"),
                    (None, None) => "an integer".to_string(),
                },
                (koth_referee::Value::Text(_), _, _) if o.choices.is_empty() => "any text".into(),
                (koth_referee::Value::Text(_), _, _) => {
                    let choices: Vec<String> = o.choices.iter().map(|c| printable(c)).collect();
                    format!("one of {}", choices.join(", "))
                }
            };
            let _ = writeln!(
                out,
                "        {:<width$}  {}; {kind}, default {}",
                o.name,
                printable(&o.description),
                printable(&OptValue::from(&o.default).to_string())
            );
        }
    }
    out
}

/// The referee's pages, under its game's page: the protocol for bot authors, line by line,
/// and whether it draws its own replays.
fn pages_note(p: &Pages) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    if p.protocol.is_empty() {
        let _ = writeln!(
            out,
            "      protocol: the referee gives none (`pages` in wit/referee.wit)"
        );
    } else {
        let _ = writeln!(out, "      protocol:");
        for line in p.protocol.lines() {
            match line {
                "" => out.push('\n'),
                line => {
                    let _ = writeln!(out, "        {}", printable(line));
                }
            }
        }
    }
    if !p.viewer.is_empty() {
        let _ = writeln!(
            out,
            "      viewer: its own ({} bytes of script), drawing the replays of `koth report` and the contest server",
            p.viewer.len()
        );
    }
    out
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
                print!("{}", game_page(r.description()));
                print!("{}", pages_note(r.pages()));
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
        TrialGame::Named(g) if g == coup::NAME => {
            let opts = coup::options(1, Default::default(), false, None, 1, limits);
            trial(&coup::game(), &opts, bot, 2)
        }
        TrialGame::Named(g) if g == bank_heist::NAME => {
            let opts = bank_heist::options(1, Some(2), Variant::Text, 1, limits)?;
            trial(&bank_heist::game(), &opts, bot, 2)
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

#[cfg(test)]
mod tests {
    use super::*;
    use koth_referee::{Directory, Format, OptionSpec, Partners, Scoring, Value};

    #[test]
    fn the_game_page_says_what_the_referee_declares_and_escapes_what_a_terminal_obeys() {
        let d = Description {
            name: "cards".into(),
            // A referee is untrusted: this would clear the screen of whoever runs check.
            summary: "four players\u{1b}[2J in two teams".into(),
            seating: Seating::Fixed(4),
            seat_names: ["N", "E", "S", "W"].map(String::from).to_vec(),
            teams: vec![vec![0, 2], vec![1, 3]],
            partners: vec![Partners::Copies, Partners::Random],
            formats: vec![Format::Tables, Format::AllPlayAll],
            rounds: 10,
            paired: true,
            directory: Some(Directory {
                bytes: 1024,
                nodes: 4,
            }),
            options: vec![
                OptionSpec {
                    name: "target".into(),
                    description: "points that win".into(),
                    default: Value::Integer(10),
                    min: Some(1),
                    max: Some(100),
                    choices: Vec::new(),
                },
                OptionSpec {
                    name: "deck".into(),
                    description: "which cards".into(),
                    default: Value::Text("short".into()),
                    min: None,
                    max: None,
                    choices: vec!["short".into(), "long\u{7}".into()],
                },
            ],
            scoring: Scoring {
                score_name: Some("points".into()),
                matches: "games".into(),
                spread: false,
                points: true,
            },
        };
        let page = game_page(&d);
        assert!(
            !page.contains('\u{1b}') && !page.contains('\u{7}'),
            "{page}"
        );
        assert!(
            page.contains("cards: four players\\u{1b}[2J in two teams"),
            "{page}"
        );
        assert!(page.contains("seats: 4 per match (N E S W)"), "{page}");
        assert!(
            page.contains(
                "teams: N & S against E & W, filled by copies of one bot or bots drawn at random"
            ),
            "{page}"
        );
        assert!(page.contains("formats: tables, all-play-all"), "{page}");
        assert!(page.contains("--paired allowed"), "{page}");
        assert!(page.contains("at most 1024 bytes and 4 files"), "{page}");
        assert!(
            page.contains("ranked by points (each bot's mean per match"),
            "{page}"
        );
        assert!(
            page.contains("target  points that win; an integer from 1 to 100, default 10"),
            "{page}"
        );
        assert!(
            page.contains("deck    which cards; one of short, long\\u{7}, default short"),
            "{page}"
        );
        // Every line sits under the referee's OK line.
        assert!(page.lines().all(|l| l.starts_with("      ")), "{page}");
    }
}
