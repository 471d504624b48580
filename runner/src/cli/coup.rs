//! `koth coup`: a Coup round robin between wasm bots.

use anyhow::{anyhow, bail};
use clap::Args;
use koth::command::play::{self as common, TournamentArgs};
use koth::games::coup::tournament::{self, Coup, CoupOptions, ScratchScope};
use koth::sandbox::VfsLimits;
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
    /// Paired (duplicate) deals: both games of a pair in a round start from the same deck
    /// with the seats swapped, so the luck of the deal cancels (narrower rating intervals).
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
    let setup = args.common.setup(args.bots.len())?;
    let bots = common::load_bots(&setup.sandbox, &args.bots, "coup")?;
    let opts = CoupOptions {
        rounds: args.rounds,
        seed: args.common.seed,
        limits: setup.limits,
        vfs: VfsLimits::default(),
        scratch: args.scratch,
        paired: args.paired,
        opponents: args.opponents,
    };
    let out = args.common.out(&format!("coup-seed{}", opts.seed));
    let total = tournament::game_count(bots.len(), &opts);
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
            game: &Coup,
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
