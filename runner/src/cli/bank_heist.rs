//! `koth bank-heist`: T Bank Heist tournaments of every bot, credits summed, played by Bank
//! Heist's referee, built in (the same run as `koth play bank-heist` with the same flags).

use anyhow::bail;
use clap::{Args, ValueEnum};
use koth::command::play::{self as common, TournamentArgs};
use koth::games::bank_heist::{self, rules::Variant};
use koth::referee::schedule;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct BankHeistArgs {
    /// Bot modules (.wasm); each bot's name is its file stem. At least one.
    #[arg(required = true, value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Tournaments; each bot's score is its credits summed over them. They run in parallel.
    /// (`--rounds` too: one round is one tournament, as `koth play bank-heist` counts them.)
    #[arg(long, default_value_t = 1, visible_alias = "rounds")]
    tournaments: u32,
    /// Games per tournament [default: drawn per tournament from 1000..=1100].
    #[arg(long)]
    games: Option<u32>,
    /// Whose arithmetic: the contest's text as koth's spec settles it, or its author's
    /// Python 2 controller, which gave the published standings (integer division, a single
    /// back out fails every other heist, the rabble back out 55% of the time, a finger
    /// takes a sixth, ...; recorded in the manifest).
    #[arg(long, value_enum, default_value_t = RulesArg::Text)]
    rules: RulesArg,
    #[command(flatten)]
    common: TournamentArgs,
}

/// `--rules`: the rules crate's [`Variant`], as the command line names it.
#[derive(Clone, Copy, ValueEnum)]
enum RulesArg {
    /// The contest's text (the default).
    Text,
    /// The contest author's controller.
    Original,
}

impl From<RulesArg> for Variant {
    fn from(r: RulesArg) -> Variant {
        match r {
            RulesArg::Text => Variant::Text,
            RulesArg::Original => Variant::Original,
        }
    }
}

pub(crate) fn run(args: BankHeistArgs) -> anyhow::Result<ExitCode> {
    if args.tournaments == 0 {
        bail!("--tournaments must be at least 1");
    }
    if args.games == Some(0) {
        bail!("--games must be at least 1");
    }
    let setup = args.common.setup(args.bots.len())?;
    let rules: Variant = args.rules.into();
    let opts = bank_heist::options(
        args.tournaments,
        args.games,
        rules,
        args.common.seed,
        setup.limits,
    )?;
    let bots = common::load_bots(&setup.sandbox, &args.bots, bank_heist::NAME)?;
    let out = args
        .common
        .out(&format!("{}-seed{}", bank_heist::NAME, opts.seed));
    // Each tournament's G comes from its match's seed, as the referee draws it.
    let names: Vec<String> = bots.iter().map(|b| b.name().to_string()).collect();
    let games: u64 = schedule::schedule(&opts, &names)?
        .iter()
        .map(|f| {
            let fixed = args.games.map(i64::from);
            u64::from(koth_referee_bank_heist::tournament_seeds(f.seed, fixed).0)
        })
        .sum();
    let rules = match rules {
        Variant::Text => "",
        Variant::Original => ", the original controller's rules",
    };
    eprintln!(
        "Bank Heist: {} bots, {} tournament(s), {games} games in all, 500 rabble{rules}, seed {}, {} worker(s)",
        bots.len(),
        opts.rounds,
        opts.seed,
        setup.jobs
    );
    common::play(
        common::Run {
            then_exits: true,
            game: &bank_heist::game(),
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
