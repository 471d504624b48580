//! `koth bank-heist`: T Bank Heist tournaments of every bot, credits summed.

use super::common::{self, TournamentArgs};
use anyhow::{bail, Context};
use clap::Args;
use koth::games::bank_heist::format::{self, BankHeistOptions};
use koth::games::Player;
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
    let archive = common::archive(&out)?;
    let players: Vec<&dyn Player> = bots.iter().map(|b| b as &dyn Player).collect();
    let games: u64 = format::plan(&opts).iter().map(|p| p.games as u64).sum();
    eprintln!(
        "Bank Heist: {} bots, {} tournament(s), {} games in all, 500 rabble, seed {}, {} worker(s)",
        bots.len(),
        opts.tournaments,
        games,
        opts.seed,
        setup.jobs
    );
    let (result, elapsed) =
        common::with_progress(opts.tournaments as usize, "tournaments", |progress| {
            format::run(&players, &opts, setup.jobs, progress)
        });
    let manifest = common::manifest("bank-heist", &bots, &args.bots, opts, &setup.sandbox);
    format::write_archive(&result, &manifest, &archive)
        .with_context(|| format!("writing the archive in {}", out.display()))?;
    Ok(common::report(
        &result.leaderboard,
        &result.names,
        &result.summaries,
        "tournaments",
        result.invocations(),
        elapsed,
        &out,
    ))
}
