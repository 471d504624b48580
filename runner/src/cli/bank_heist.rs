//! `koth bank-heist`: T Bank Heist tournaments of every bot, credits summed.

use super::common::{self, TournamentArgs};
use anyhow::bail;
use clap::Args;
use koth::games::bank_heist::format::{self, BankHeist, BankHeistOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct BankHeistArgs {
    /// Bot modules (.wasm); each bot's name is its file stem. At least one.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Tournaments; each bot's score is its credits summed over them. They run in parallel.
    #[arg(long, default_value_t = 1)]
    tournaments: u32,
    /// Games per tournament [default: drawn per tournament from 1000..=1100].
    #[arg(long)]
    games: Option<u32>,
    #[command(flatten)]
    common: TournamentArgs,
}

pub(crate) fn run(args: BankHeistArgs) -> anyhow::Result<ExitCode> {
    if args.tournaments == 0 {
        bail!("--tournaments must be at least 1");
    }
    if args.games == Some(0) {
        bail!("--games must be at least 1");
    }
    let setup = args.common.setup(args.bots.len())?;
    let bots = common::load_bots(&setup.sandbox, &args.bots, "bank-heist")?;
    let opts = BankHeistOptions {
        tournaments: args.tournaments,
        games: args.games,
        seed: args.common.seed,
        limits: setup.limits,
    };
    let out = args.common.out(&format!("bank-heist-seed{}", opts.seed));
    let games: u64 = format::plan(&opts).iter().map(|p| p.games as u64).sum();
    eprintln!(
        "Bank Heist: {} bots, {} tournament(s), {} games in all, 500 rabble, seed {}, {} worker(s)",
        bots.len(),
        opts.tournaments,
        games,
        opts.seed,
        setup.jobs
    );
    common::play(
        common::Run {
            game: &BankHeist,
            referee: None,
            unit: "tournaments",
        },
        &args.common,
        &setup,
        &bots,
        &args.bots,
        opts,
        &out,
    )
}
