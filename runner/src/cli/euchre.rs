//! `koth euchre`: every bot against every other, each partnered with a copy of itself; or
//! four bots with partners drawn at random. Euchre's referee plays it, built in.

use anyhow::bail;
use clap::{Args, ValueEnum};
use koth::command::play::{self as common, TournamentArgs};
use koth::games::euchre::{self, Partners};
use koth::referee::schedule;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
enum PartnersArg {
    /// Each bot partnered with a copy of itself.
    Copies,
    /// Exactly four bots, partners drawn at random for each game (the seed's mode).
    Random,
}

#[derive(Args)]
pub(crate) struct EuchreArgs {
    /// Bot modules (.wasm); each bot's name is its file stem. At least two.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Games per pair of bots (with random partners: games in all). (`--rounds` too: the
    /// referee's rounds, as `koth play euchre` counts them.)
    #[arg(long, default_value_t = 10, visible_alias = "rounds")]
    games: u32,
    /// Points that win a game.
    #[arg(long, default_value_t = 10)]
    target: u32,
    /// How teams are formed.
    #[arg(long, value_enum, default_value = "copies")]
    partners: PartnersArg,
    /// Paired (duplicate) deals: games come in twos dealing the same cards with the teams'
    /// seats swapped, so the luck of the deal cancels (needs copies as partners).
    #[arg(long)]
    paired: bool,
    #[command(flatten)]
    common: TournamentArgs,
}

pub(crate) fn run(args: EuchreArgs) -> anyhow::Result<ExitCode> {
    if args.bots.len() < 2 {
        bail!("a Euchre tournament needs at least two bots");
    }
    if matches!(args.partners, PartnersArg::Random) && args.bots.len() != 4 {
        bail!(
            "--partners random needs exactly four bots ({} given)",
            args.bots.len()
        );
    }
    if args.paired && matches!(args.partners, PartnersArg::Random) {
        bail!("--paired needs --partners copies");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.target == 0 || i64::from(args.target) > euchre::MAX_TARGET {
        bail!("--target must be 1 to {}", euchre::MAX_TARGET);
    }
    let setup = args.common.setup(args.bots.len())?;
    let bots = common::load_bots(&setup.sandbox, &args.bots, euchre::NAME)?;
    let opts = euchre::options(
        args.games,
        args.target,
        match args.partners {
            PartnersArg::Copies => Partners::Copies,
            PartnersArg::Random => Partners::Random,
        },
        args.paired,
        args.common.seed,
        setup.limits,
    )?;
    let out = args
        .common
        .out(&format!("{}-seed{}", euchre::NAME, opts.seed));
    let total = schedule::count(&opts, bots.len())?;
    eprintln!(
        "Euchre: {} bots, {} games to {}, seed {}, {} worker(s)",
        bots.len(),
        total,
        args.target,
        opts.seed,
        setup.jobs
    );
    common::play(
        common::Run {
            then_exits: true,
            game: &euchre::game(),
            referee: None,
            unit: "games",
        },
        &args.common,
        &setup,
        &bots,
        &args.bots,
        opts,
        &out,
    )
}
