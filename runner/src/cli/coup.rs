//! `koth coup`: a Coup round robin between wasm bots, played by Coup's referee, built in
//! (the same run as `koth play coup` with the same flags).

use anyhow::{anyhow, bail, Context};
use clap::Args;
use koth::command::play::{self as common, TournamentArgs};
use koth::games::coup;
use koth::referee::schedule;
use koth::tournament::ScratchScope;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct CoupArgs {
    /// Bot modules (.wasm); each bot's name is its file stem. At least two.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Rounds; in each, every ordered pair of bots plays once.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Scratch lifetime: a fresh directory per game, or one per bot for the whole tournament.
    #[arg(long, value_enum, default_value = "game")]
    scratch: ScratchScope,
    /// Paired (duplicate) deals: rounds come in twos, the second dealing each game of the
    /// first again with the seats swapped, so the luck of the deal cancels (narrower rating
    /// intervals).
    #[arg(long)]
    paired: bool,
    /// A sampled ladder, for ladders too big for a round robin: in each round every bot meets
    /// M opponents (an even number), both seats against each, drawn from the seed and the
    /// bots' names; a new bot adds only its own games, so `--reuse` replays little else.
    #[arg(long, value_name = "M")]
    opponents: Option<u32>,
    #[command(flatten)]
    common: TournamentArgs,
}

pub(crate) fn run(args: CoupArgs) -> anyhow::Result<ExitCode> {
    if args.bots.len() < 2 {
        bail!("a tournament needs at least two bots");
    }
    if let Some(m) = args.opponents {
        koth::tournament::sample::check_opponents(m).map_err(|why| anyhow!("--opponents {why}"))?;
    }
    if args.rounds == 0 {
        bail!("--rounds must be at least 1");
    }
    let setup = args.common.setup(args.bots.len())?;
    let opts = coup::options(
        args.rounds,
        args.scratch,
        args.paired,
        args.opponents,
        args.common.seed,
        setup.limits,
    );
    let total =
        schedule::count(&opts, args.bots.len()).context("Coup cannot be played with these bots")?;
    let bots = common::load_bots(&setup.sandbox, &args.bots, coup::NAME)?;
    let out = args
        .common
        .out(&format!("{}-seed{}", coup::NAME, opts.seed));
    eprintln!(
        "Coup: {} bots, {} rounds{}, {} games, seed {}, {} worker(s)",
        bots.len(),
        opts.rounds,
        match opts.opponents {
            Some(m) => format!(" of {m} opponents each"),
            None => String::new(),
        },
        total,
        opts.seed,
        setup.jobs
    );
    common::play(
        common::Run {
            then_exits: true,
            game: &coup::game(),
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
