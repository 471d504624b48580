//! `koth contest init | add-author | export`: create a contest folder, give an author a
//! token, write the newest run as an ordinary archive; `revoke-author | rotate-token |
//! retire-bot | disqualify | log`: what a host does over a season, each logged with its time.

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use koth::contest::config::check_name;
use koth::contest::db::BotState;
use koth::contest::{auth, db, Contest, ContestConfig};
use koth::sandbox::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ContestArgs {
    #[command(subcommand)]
    command: ContestCommand,
}

/// The built-in games a contest can play (Coup with its own fields; the others through
/// their referees, built in, with `koth play`'s options).
#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Coup,
    BankHeist,
    Euchre,
}

impl GameName {
    fn name(self) -> &'static str {
        match self {
            GameName::Coup => koth::games::coup::NAME,
            GameName::BankHeist => koth::games::bank_heist::NAME,
            GameName::Euchre => koth::games::euchre::NAME,
        }
    }
}

// Parsed once per command: the size of `Init`'s many options costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum ContestCommand {
    /// Create a contest folder (new or empty) for one game.
    Init {
        /// The contest folder.
        dir: PathBuf,
        /// The game the contest plays (or give --referee for a game of your own).
        #[arg(
            long,
            value_enum,
            required_unless_present = "referee",
            conflicts_with = "referee"
        )]
        game: Option<GameName>,
        /// A game as a plugin: its referee (a component of the koth:game/referee world), copied
        /// into the contest folder; the runs are what `koth play REFEREE.wasm` plays.
        #[arg(long, value_name = "REFEREE.wasm")]
        referee: Option<PathBuf>,
        /// One of the referee's options, NAME=VALUE (repeat it; `koth check REFEREE.wasm`
        /// lists them; for Bank Heist `games` and `rules`, for Euchre `target`).
        #[arg(long = "opt", value_name = "NAME=VALUE")]
        opts: Vec<String>,
        /// How the referee's matches are drawn: ordered-pairs, tables or all-play-all
        /// [default: the referee's first].
        #[arg(long, value_name = "FORMAT")]
        format: Option<String>,
        /// How the referee's teams are filled: copies or random [default: its first].
        #[arg(long, value_name = "MODE")]
        partners: Option<String>,
        /// Rounds of each run (in each, every pairing plays once; a Bank Heist round is one
        /// tournament) [default: Coup 10, a referee's own].
        #[arg(long)]
        rounds: Option<u32>,
        /// A sampled ladder (as `koth coup --opponents M`): each bot meets M opponents a
        /// round instead of every other bot, for ladders too big for a round robin.
        #[arg(long, value_name = "M")]
        opponents: Option<u32>,
        /// Play each run as a Slurm job array of N tasks (`koth <game> --shard K/N` each,
        /// submitted with sbatch, merged by the server): for ladders that outgrow one
        /// machine. The contest folder must be on a filesystem every node shares.
        #[arg(long, value_name = "N")]
        slurm_shards: Option<u32>,
        /// More sbatch options for those jobs (a partition, an account, a time limit); repeat
        /// it for each.
        #[arg(
            long,
            value_name = "ARG",
            allow_hyphen_values = true,
            requires = "slurm_shards"
        )]
        sbatch_arg: Vec<String>,
        /// Seed of every run.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Fuel per invocation.
        #[arg(long, default_value_t = Limits::default().fuel)]
        fuel: u64,
        /// Linear memory per instance, in MiB.
        #[arg(long, default_value_t = 64)]
        memory: u64,
        /// Worker threads of a run [default: the number of cores].
        #[arg(long)]
        jobs: Option<usize>,
        /// The largest upload accepted, in bytes.
        #[arg(long, default_value_t = 16 << 20)]
        max_upload_bytes: u64,
        /// The most bots the contest takes.
        #[arg(long, default_value_t = 200)]
        max_bots: usize,
        /// The most bots one author may have in the ladder.
        #[arg(long, default_value_t = 3)]
        max_bots_per_author: usize,
        /// The most versions one author may upload in an hour.
        #[arg(long, default_value_t = 10)]
        max_versions_per_hour: usize,
        /// Take .wasm uploads only, no .py scripts (the server then makes no Python
        /// interpreter snapshot).
        #[arg(long)]
        no_python: bool,
        /// The bot (.wasm or .py) each new version plays a validation match against before
        /// it enters the ladder; copied into the contest folder. A version that forfeits it
        /// is refused.
        #[arg(long, value_name = "FILE")]
        validation_opponent: Option<PathBuf>,
        /// Seconds an upload's checks (compiling, then the validation match) may take.
        #[arg(long, value_name = "SECS", default_value_t = 180)]
        check_seconds: u64,
        /// The memory an upload's check may take, in MiB (compiling is not bounded by fuel).
        #[arg(long, value_name = "MIB", default_value_t = 1024)]
        check_memory_mib: u64,
        /// The disk the contest keeps, in MiB (past it, older runs are condensed to their
        /// standings, then uploads refused).
        #[arg(long, value_name = "MIB", default_value_t = 4096)]
        max_disk_mib: u64,
        /// How many of the newest finished runs keep their whole archives (match logs and
        /// replays); older ones are condensed to their standings, their matches kept in the
        /// store (`koth contest export --run N` rebuilds them).
        #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        whole_runs: u32,
    },
    /// Check one upload as `koth serve` does, in a process of its own (`koth serve` runs
    /// it): prints one JSON line, `{"refused": null}` or `{"refused": "why"}`.
    #[command(hide = true)]
    CheckUpload {
        /// The contest folder.
        dir: PathBuf,
        /// The uploaded file.
        file: PathBuf,
        /// The bot's name.
        #[arg(long)]
        name: String,
    },
    /// Add an author and print their token (shown once; only its hash is kept).
    AddAuthor {
        /// The contest folder.
        dir: PathBuf,
        /// The author's name.
        name: String,
    },
    /// Revoke an author: their token stops working at once (their bots stay in the ladder
    /// until retired).
    RevokeAuthor {
        /// The contest folder.
        dir: PathBuf,
        /// The author's name.
        name: String,
    },
    /// Give an author a new token and print it (the old one stops working; a revoked author
    /// is reinstated).
    RotateToken {
        /// The contest folder.
        dir: PathBuf,
        /// The author's name.
        name: String,
    },
    /// Take a bot out of the ladder: the next run leaves it out, its past runs stay.
    RetireBot {
        /// The contest folder.
        dir: PathBuf,
        /// The bot's name.
        bot: String,
        /// Why (kept in the host's log).
        #[arg(long, default_value = "retired by the host")]
        reason: String,
    },
    /// Disqualify a bot: it leaves the ladder, and the reason is shown on its page.
    Disqualify {
        /// The contest folder.
        dir: PathBuf,
        /// The bot's name.
        bot: String,
        /// Why, as its page shows it.
        #[arg(long)]
        reason: String,
    },
    /// Forget the files remembered as having failed their checks (each is refused at once
    /// when sent again): after raising a check limit or changing the validation opponent.
    ClearRefusals {
        /// The contest folder.
        dir: PathBuf,
    },
    /// Print the host's log: every revocation, new token, retirement and disqualification,
    /// with its time.
    Log {
        /// The contest folder.
        dir: PathBuf,
    },
    /// Write a finished run (the newest, or `--run ID`) as an ordinary archive (the bots'
    /// files in its `bots/`), which `koth verify ARCHIVE --bots ARCHIVE/bots` checks; a run
    /// condensed to its standings is rebuilt from the contest's store.
    Export {
        /// The contest folder.
        dir: PathBuf,
        /// The archive folder to write (new or empty).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// The run to export [default: the leaderboard's]. A condensed run is rebuilt from
        /// the contest's store and checked against its kept receipt.
        #[arg(long, value_name = "ID")]
        run: Option<i64>,
    },
}

pub(crate) fn run(args: ContestArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        ContestCommand::Init {
            dir,
            game,
            referee,
            opts,
            format,
            partners,
            rounds,
            opponents,
            slurm_shards,
            sbatch_arg,
            seed,
            fuel,
            memory,
            jobs,
            max_upload_bytes,
            max_bots,
            max_bots_per_author,
            max_versions_per_hour,
            no_python,
            validation_opponent,
            check_seconds,
            check_memory_mib,
            max_disk_mib,
            whole_runs,
        } => {
            let opponent = match &validation_opponent {
                Some(file) => Some(validation_file(file)?),
                None => None,
            };
            let config = ContestConfig {
                python: !no_python,
                validation_opponent: opponent.clone(),
                check_seconds,
                check_memory_mib,
                max_disk_mib,
                whole_runs: whole_runs as usize,
                fuel,
                memory_mib: memory,
                jobs: jobs.unwrap_or(0),
                max_upload_bytes,
                max_bots,
                max_bots_per_author,
                max_versions_per_author_per_hour: max_versions_per_hour,
                ..ContestConfig::coup(rounds.unwrap_or(10), seed)
            };
            let choice = RunChoice {
                rounds,
                format: format.as_deref(),
                partners: partners.as_deref(),
                opts: &opts,
            };
            let (game, referee_src) = match &referee {
                Some(path) => {
                    if opponents.is_some() {
                        bail!("--opponents: a referee's contest plays its format's every pairing");
                    }
                    let game = referee_game(path, &choice, &config)?;
                    (game, Some(path.clone()))
                }
                None => match game {
                    None | Some(GameName::Coup) => {
                        if !opts.is_empty() || format.is_some() || partners.is_some() {
                            bail!(
                                "--opt, --format and --partners are a referee's options; Coup \
                                 takes --rounds and --opponents"
                            );
                        }
                        (
                            koth::contest::config::GameConfig::Coup {
                                rounds: rounds.unwrap_or(10),
                                paired: false,
                                opponents,
                            },
                            None,
                        )
                    }
                    Some(built_in) => {
                        if opponents.is_some() {
                            bail!(
                                "--opponents: a {} contest plays its format's every pairing",
                                built_in.name()
                            );
                        }
                        let game = built_in_game(built_in.name(), &choice, &config)?;
                        (game, None)
                    }
                },
            };
            let config = ContestConfig {
                game,
                executor: match slurm_shards {
                    Some(shards) => koth::contest::config::Executor::Slurm {
                        shards,
                        sbatch_args: sbatch_arg,
                    },
                    None => koth::contest::config::Executor::Local,
                },
                ..config
            };
            let existed = dir.exists();
            let contest = Contest::init(&dir, config)?;
            let referee = match (&referee_src, &contest.config.game) {
                (Some(src), koth::contest::config::GameConfig::Referee { referee_file, .. }) => {
                    install_file(&contest, referee_file, src)
                }
                _ => Ok(()),
            };
            let installed = referee.and_then(|()| match (&opponent, &validation_opponent) {
                (Some(rel), Some(src)) => install_opponent(&contest, rel, src),
                _ => Ok(()),
            });
            if let Err(e) = installed {
                // Nothing half-made is left: the folder was new or empty.
                let _ = std::fs::remove_dir_all(&dir);
                if existed {
                    let _ = std::fs::create_dir(&dir);
                }
                return Err(e);
            }
            println!(
                "Contest created in {}. Next: koth contest add-author {} NAME, then koth serve {}",
                dir.display(),
                dir.display(),
                dir.display()
            );
        }
        ContestCommand::CheckUpload { dir, file, name } => {
            let contest = Contest::open(&dir)?;
            koth::contest::check::limit_self(contest.config.check_seconds);
            let sandbox = koth::contest::run::sandbox(&contest, 1)?;
            let refused = match koth::contest::check::run_checks(&contest, &sandbox, &file, &name) {
                Ok(()) => None,
                Err(koth::contest::check::CheckError::Refused(why)) => Some(why),
                Err(koth::contest::check::CheckError::Internal(why)) => bail!(why),
            };
            println!(
                "{}",
                serde_json::to_string(&koth::contest::check::ChildAnswer { refused })?
            );
        }
        ContestCommand::AddAuthor { dir, name } => {
            check_name("author", &name).map_err(anyhow::Error::msg)?;
            let contest = Contest::open(&dir)?;
            let token = auth::new_token().map_err(anyhow::Error::msg)?;
            db::add_author(&contest.db()?, &name, &auth::hash(&token))?;
            println!("{token}");
            eprintln!("The token of `{name}` (shown once; keep it: uploads need it).");
        }
        ContestCommand::RevokeAuthor { dir, name } => {
            db::revoke_author(&mut Contest::open(&dir)?.db()?, &name)?;
            println!("The author `{name}` is revoked: their token no longer works.");
        }
        ContestCommand::RotateToken { dir, name } => {
            let contest = Contest::open(&dir)?;
            let token = auth::new_token().map_err(anyhow::Error::msg)?;
            db::rotate_token(&mut contest.db()?, &name, &auth::hash(&token))?;
            println!("{token}");
            eprintln!("The new token of `{name}` (shown once; the old one no longer works).");
        }
        ContestCommand::RetireBot { dir, bot, reason } => {
            db::remove_bot(
                &mut Contest::open(&dir)?.db()?,
                &bot,
                BotState::Retired,
                &reason,
            )?;
            println!("The bot `{bot}` is retired: the next run leaves it out.");
        }
        ContestCommand::Disqualify { dir, bot, reason } => {
            if reason.trim().is_empty() {
                bail!("--reason is empty: a disqualification shows its reason on the bot's page");
            }
            db::remove_bot(
                &mut Contest::open(&dir)?.db()?,
                &bot,
                BotState::Disqualified,
                &reason,
            )?;
            println!("The bot `{bot}` is disqualified ({reason}): the next run leaves it out.");
        }
        ContestCommand::ClearRefusals { dir } => {
            let n = db::clear_refused(&mut Contest::open(&dir)?.db()?)?;
            println!("{n} refused file(s) forgotten: each is checked again if sent again.");
        }
        ContestCommand::Log { dir } => {
            for e in db::host_log(&Contest::open(&dir)?.db()?)? {
                let when = db::utc(e.time);
                println!("{when}  {:<14} {:<32} {}", e.action, e.subject, e.detail);
            }
        }
        ContestCommand::Export { dir, out, run } => export(&dir, &out, run)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn export(dir: &Path, out: &Path, id: Option<i64>) -> anyhow::Result<()> {
    let contest = Contest::open(dir)?;
    let conn = contest.db()?;
    let run = match id {
        None => db::latest_done(&conn)?.with_context(|| {
            format!(
                "{}: no run has finished yet: nothing to export",
                dir.display()
            )
        })?,
        Some(id) => match db::get_run(&conn, id)? {
            Some(r) if r.state == "done" => r,
            Some(r) => bail!("--run {id}: the run is {}, not finished", r.state),
            None => bail!("--run {id}: {} has no such run", dir.display()),
        },
    };
    if out.exists()
        && std::fs::read_dir(out)
            .with_context(|| format!("reading {}", out.display()))?
            .next()
            .is_some()
    {
        bail!(
            "{} is not empty: export into a new or empty folder",
            out.display()
        );
    }
    let versions = db::versions_by_id(&conn, &run.versions)?;
    let run_dir = contest.run_dir(run.id);
    // A run the server condenses while it is copied (a newer run finished), or one a crash
    // left half condensed, lacks its whole results: rebuilt, never exported in part.
    let whole = |pruned: Option<i64>| pruned.is_none() && run_dir.join("results.json").is_file();
    let mut copied = false;
    if whole(run.pruned) {
        copy_tree(&run_dir, out)?;
        let pruned = db::get_run(&conn, run.id)?.and_then(|r| r.pruned);
        copied = whole(pruned) && out.join("results.json").is_file();
        if !copied {
            std::fs::remove_dir_all(out)
                .with_context(|| format!("removing the partial copy in {}", out.display()))?;
        }
    }
    if !copied {
        println!(
            "Run #{} was condensed to its standings: rebuilding its archive from the store ({} matches)...",
            run.id, run.total
        );
        let outcome = koth::contest::run::rebuild(&contest, run.id, &versions, out)?;
        if outcome.played > 0 {
            println!(
                "{} match(es) were missing from the store and were played again.",
                outcome.played
            );
        }
        println!("The rebuilt archive's receipt is the one the run kept.");
    }
    let bots = out.join("bots");
    std::fs::create_dir_all(&bots).with_context(|| format!("creating {}", bots.display()))?;
    for v in &versions {
        let from = contest.version_file(v.id, &v.file);
        std::fs::copy(&from, bots.join(&v.file))
            .with_context(|| format!("copying {}", from.display()))?;
    }
    // `koth verify --bots DIR` finds a plugin game's referee among the bots, by the name the
    // manifest gives it.
    if let koth::contest::config::GameConfig::Referee {
        referee_file,
        referee,
        ..
    } = &contest.config.game
    {
        let from = contest.root().join(referee_file);
        std::fs::copy(&from, bots.join(&referee.file))
            .with_context(|| format!("copying {}", from.display()))?;
    }
    println!(
        "Run #{} written to {}; check it with: koth verify {} --bots {}",
        run.id,
        out.display(),
        out.display(),
        bots.display()
    );
    Ok(())
}

/// Copy a folder's regular files and folders (never following a symbolic link).
fn copy_tree(from: &Path, to: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(to).with_context(|| format!("creating {}", to.display()))?;
    for entry in std::fs::read_dir(from).with_context(|| format!("reading {}", from.display()))? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let dest = to.join(entry.file_name());
        if kind.is_dir() {
            copy_tree(&entry.path(), &dest)?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &dest)
                .with_context(|| format!("copying {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Where `koth contest init --validation-opponent FILE` keeps the opponent in the contest
/// folder (`validation/<file name>`), checked to be a `.wasm` or `.py` file.
fn validation_file(file: &Path) -> anyhow::Result<String> {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .with_context(|| format!("--validation-opponent {}: not a file name", file.display()))?;
    let ext = file
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    if !matches!(ext, "wasm" | "py") {
        bail!(
            "--validation-opponent {}: must be a .wasm module or component or a .py script",
            file.display()
        );
    }
    if !file.is_file() {
        bail!("--validation-opponent {}: no such file", file.display());
    }
    Ok(format!("validation/{name}"))
}

/// What `init` was told of a referee's run: `koth play`'s options.
struct RunChoice<'a> {
    rounds: Option<u32>,
    format: Option<&'a str>,
    partners: Option<&'a str>,
    opts: &'a [String],
}

impl RunChoice<'_> {
    /// The runs' options for the game `d` describes, resolved as `koth play` resolves them
    /// (a bad option is refused here, before the folder is made; `at` names the flag).
    fn options(
        &self,
        d: &koth_referee::Description,
        config: &ContestConfig,
        at: &str,
    ) -> anyhow::Result<koth::referee::shape::RefereeOptions> {
        let (format, rounds, partners, values) =
            super::play::options(d, self.format, self.rounds, self.partners, false, self.opts)
                .context(at.to_string())?;
        Ok(koth::referee::shape::RefereeOptions::new(
            d,
            format,
            rounds,
            partners,
            false,
            values,
            config.seed,
            config.limits(),
        ))
    }
}

/// A referee contest's game: the referee loaded and described, the run's options resolved.
fn referee_game(
    path: &Path,
    choice: &RunChoice<'_>,
    config: &ContestConfig,
) -> anyhow::Result<koth::contest::config::GameConfig> {
    use koth::referee::component::{ComponentReferee, RefereeLimits};
    use koth::referee::Referee;
    let at = format!("--referee {}", path.display());
    let sandbox = koth::sandbox::Sandbox::new(koth::sandbox::SandboxOptions::default())
        .context("starting the sandbox")?;
    let loaded = ComponentReferee::load(
        &sandbox,
        path,
        RefereeLimits::default(),
        &koth::sandbox::VfsLimits::default(),
    )
    .context(at.clone())?;
    let options = choice.options(loaded.description(), config, &at)?;
    let entry = loaded.manifest_entry(path);
    Ok(koth::contest::config::GameConfig::Referee {
        referee_file: format!("referee/{}", entry.file),
        referee: entry,
        referee_options: Box::new(options),
    })
}

/// A built-in game's contest: its referee, built in, described; the run's options resolved
/// as `koth play GAME` resolves them.
fn built_in_game(
    name: &str,
    choice: &RunChoice<'_>,
    config: &ContestConfig,
) -> anyhow::Result<koth::contest::config::GameConfig> {
    let at = format!("--game {name}");
    let referee = koth::games::registry::referee(name)
        .with_context(|| format!("{at}: not built in as a referee"))?;
    let options = choice.options(referee.description(), config, &at)?;
    Ok(koth::contest::config::GameConfig::BuiltIn {
        referee_options: Box::new(options),
    })
}

/// Copy `src` into the contest folder at `rel`.
fn install_file(contest: &Contest, rel: &str, src: &Path) -> anyhow::Result<()> {
    let dest = contest.root().join(rel);
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::copy(src, &dest)
        .with_context(|| format!("copying {} to {}", src.display(), dest.display()))?;
    Ok(())
}

/// Copy the validation opponent `src` to `rel` in the contest and check it as every upload
/// will be checked against it: it loads, and it plays the contest's game.
fn install_opponent(contest: &Contest, rel: &str, src: &Path) -> anyhow::Result<()> {
    install_file(contest, rel, src)?;
    let dest = contest.root().join(rel);
    let sandbox = koth::contest::run::sandbox(contest, 1)?;
    let bot = sandbox
        .load_file(&dest, None)
        .map_err(|e| anyhow::anyhow!("--validation-opponent {}: {}", src.display(), e.error))?;
    koth::worlds::check_game(&bot, contest.config.game.name())
        .map_err(|why| anyhow::anyhow!("--validation-opponent {}: this bot {why}", src.display()))
}
