//! `koth play REFEREE.wasm BOT...`: a tournament of a game whose referee is a plugin; or
//! `koth play GAME BOT...`, a game built into koth as a referee (`coup`, `euchre`).

use anyhow::{bail, Context};
use clap::Args;
use koth::command::play::{self as common, TournamentArgs};
use koth::games::registry;
use koth::referee::component::{ComponentReferee, RefereeLimits, RefereeLoadError};
use koth::referee::game::RefereeGame;
use koth::referee::options::resolve;
use koth::referee::schedule;
use koth::referee::shape::{FormatName, PartnersName, RefereeOptions};
use koth::referee::Referee;
use koth::sandbox::{Sandbox, VfsLimits};
use koth::tournament::{RefereeEntry, ScratchScope};
use koth_referee::Description;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args)]
pub(crate) struct PlayArgs {
    /// The referee: a component of the koth:game/referee world (wit/referee.wit), or the
    /// name of a game built into koth as a referee (coup, euchre).
    #[arg(value_name = "REFEREE.wasm|GAME")]
    referee: PathBuf,
    /// Bots: .wasm modules or components, or .py scripts; each bot's name is its file stem.
    #[arg(required = true, value_name = "BOT")]
    bots: Vec<PathBuf>,
    /// How matches are drawn: ordered-pairs, tables or all-play-all [default: the referee's
    /// first].
    #[arg(long, value_name = "FORMAT")]
    format: Option<String>,
    /// Rounds: how many times each pairing plays [default: the referee's].
    #[arg(long)]
    rounds: Option<u32>,
    /// How teams are filled: copies or random [default: the referee's first].
    #[arg(long, value_name = "MODE")]
    partners: Option<String>,
    /// Paired (duplicate) matches: rounds in groups that deal alike and rotate the seats,
    /// so the luck of the deal cancels out (where the referee supports it).
    #[arg(long)]
    paired: bool,
    /// A sampled ladder (ordered pairs only): in each round every bot meets M opponents (an
    /// even number), both seats against each, drawn from the seed and the bots' names.
    #[arg(long, value_name = "M")]
    opponents: Option<u32>,
    /// Scratch lifetime: a fresh directory per match, or one per bot for the whole run,
    /// where the referee allows it (its matches sharing a bot then run in order).
    #[arg(long, value_enum, default_value = "game")]
    scratch: ScratchScope,
    /// One of the referee's options, NAME=VALUE (repeat it; `koth check REFEREE.wasm` lists
    /// them).
    #[arg(long = "opt", value_name = "NAME=VALUE")]
    opts: Vec<String>,
    /// Fuel a plugin referee may use per match: its own code and the host's work it asks
    /// for (a built-in referee runs natively, unmetered).
    #[arg(long, default_value_t = RefereeLimits::default().fuel)]
    referee_fuel: u64,
    /// Memory a plugin referee may use, in MiB.
    #[arg(long, default_value_t = RefereeLimits::default().memory_bytes >> 20)]
    referee_memory: u64,
    #[command(flatten)]
    common: TournamentArgs,
}

/// Load a referee and check it is the one a manifest names.
pub(crate) fn load_referee(
    sandbox: &Sandbox,
    path: &Path,
    entry: &RefereeEntry,
) -> anyhow::Result<ComponentReferee> {
    ComponentReferee::load_pinned(sandbox, path, entry).map_err(|e| match e {
        RefereeLoadError::NotTheOne { .. } => anyhow::Error::new(e),
        e => anyhow::Error::new(e).context(format!(
            "the referee (give its folder with --bots): {}",
            path.display()
        )),
    })
}

/// The built-in referee `arg` names: a bare name (no folder, no extension) that is not a
/// file here. `None` for anything else, which is a plugin's file.
fn built_in(arg: &Path) -> anyhow::Result<Option<Arc<dyn Referee>>> {
    let Some(name) = arg.to_str().filter(|s| !s.contains(['/', '\\', '.'])) else {
        return Ok(None);
    };
    if arg.exists() {
        return Ok(None);
    }
    match registry::referee(name) {
        Some(referee) => Ok(Some(referee)),
        None => bail!(
            "{name}: no such file, and koth has no built-in game of that name (it has {}; \
             a plugin is a .wasm file)",
            registry::names().join(", ")
        ),
    }
}

/// The run's options from the referee's description and the command line.
pub(crate) fn options(
    d: &Description,
    format: Option<&str>,
    rounds: Option<u32>,
    partners: Option<&str>,
    paired: bool,
    opts: &[String],
) -> anyhow::Result<(
    FormatName,
    u32,
    Option<PartnersName>,
    koth::referee::options::OptionValues,
)> {
    let formats: Vec<FormatName> = d.formats.iter().map(|&f| f.into()).collect();
    let format = match format {
        None => formats[0],
        Some(f) => *formats
            .iter()
            .find(|x| x.to_string() == f)
            .with_context(|| {
                format!(
                    "--format {f}: the referee plays {}",
                    formats
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })?,
    };
    let modes: Vec<PartnersName> = d.partners.iter().map(|&p| p.into()).collect();
    let partners = match (partners, modes.first()) {
        (None, first) => first.copied(),
        (Some(p), None) => bail!("--partners {p}: the game has no teams"),
        (Some(p), Some(_)) => {
            Some(*modes.iter().find(|m| m.to_string() == p).with_context(|| {
                format!(
                    "--partners {p}: the referee fills teams as {}",
                    modes
                        .iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(" or ")
                )
            })?)
        }
    };
    if paired && !d.paired {
        bail!("--paired: the referee does not support paired matches");
    }
    let rounds = rounds.unwrap_or(d.rounds);
    if rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let values = resolve(&d.options, opts)?;
    Ok((format, rounds, partners, values))
}

pub(crate) fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let setup = args.common.setup(args.bots.len())?;
    if args.referee_fuel == 0 {
        bail!("--referee-fuel must be positive");
    }
    if args.referee_memory == 0 || args.referee_memory > 4096 {
        bail!(
            "--referee-memory {} is out of range (1..=4096 MiB)",
            args.referee_memory
        );
    }
    let limits = RefereeLimits {
        fuel: args.referee_fuel,
        memory_bytes: args.referee_memory << 20,
    };
    // A built-in game by name, or a plugin: the plugin's file is recorded in the manifest
    // (verify loads it again); a built-in referee is found again by the game's name.
    let (referee, entry, label) = match built_in(&args.referee)? {
        Some(referee) => (referee, None, "built in".to_string()),
        None => {
            let c = ComponentReferee::load(
                &setup.sandbox,
                &args.referee,
                limits,
                &VfsLimits::default(),
            )?;
            let entry = c.manifest_entry(&args.referee);
            let label = format!("referee {}", args.referee.display());
            (Arc::new(c) as Arc<dyn Referee>, Some(entry), label)
        }
    };
    let d = referee.description().clone();
    let (format, rounds, partners, values) = options(
        &d,
        args.format.as_deref(),
        args.rounds,
        args.partners.as_deref(),
        args.paired,
        &args.opts,
    )?;
    if args.scratch == ScratchScope::Tournament && !referee.per_bot_scratch() {
        bail!(
            "--scratch tournament: the referee of {} keeps no directory beyond a match \
             (its scratch export says so, or it has none)",
            d.name
        );
    }
    let opts = RefereeOptions {
        opponents: args.opponents,
        scratch: args.scratch,
        ..RefereeOptions::new(
            &d,
            format,
            rounds,
            partners,
            args.paired,
            values,
            args.common.seed,
            setup.limits,
        )
    };
    let total = schedule::count(&opts, args.bots.len())
        .with_context(|| format!("{} cannot be played with these bots", d.name))?;
    let bots = common::load_bots(&setup.sandbox, &args.bots, &d.name)?;
    let out = args.common.out(&format!("{}-seed{}", d.name, opts.seed));
    eprintln!(
        "{} ({label}): {} bots, {total} {} ({}), seed {}, {} worker(s)",
        d.name,
        bots.len(),
        d.scoring.matches,
        opts.format,
        opts.seed,
        setup.jobs
    );
    let game = RefereeGame::new(referee);
    common::play(
        common::Run {
            then_exits: true,
            game: &game,
            referee: entry,
            unit: &d.scoring.matches,
        },
        &args.common,
        &setup,
        &bots,
        &args.bots,
        opts,
        &out,
    )
}
