//! `koth contest init | add-author | export`: create a contest folder, give an author a
//! token, write the newest run as an ordinary archive.

use anyhow::{bail, Context};
use clap::{Args, Subcommand, ValueEnum};
use koth::contest::config::check_name;
use koth::contest::{auth, db, Contest, ContestConfig};
use koth::sandbox::Limits;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args)]
pub(crate) struct ContestArgs {
    #[command(subcommand)]
    command: ContestCommand,
}

#[derive(Clone, Copy, ValueEnum)]
enum GameName {
    Coup,
}

#[derive(Subcommand)]
enum ContestCommand {
    /// Create a contest folder (new or empty) for one game.
    Init {
        /// The contest folder.
        dir: PathBuf,
        /// The game the contest plays.
        #[arg(long, value_enum)]
        game: GameName,
        /// Rounds of each run (in each, every ordered pair of bots plays once).
        #[arg(long, default_value_t = 10)]
        rounds: u32,
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
    },
    /// Add an author and print their token (shown once; only its hash is kept).
    AddAuthor {
        /// The contest folder.
        dir: PathBuf,
        /// The author's name.
        name: String,
    },
    /// Write the newest finished run as an ordinary archive (the bots' files in its `bots/`),
    /// which `koth verify ARCHIVE --bots ARCHIVE/bots` checks.
    Export {
        /// The contest folder.
        dir: PathBuf,
        /// The archive folder to write (new or empty).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
    },
}

pub(crate) fn run(args: ContestArgs) -> anyhow::Result<ExitCode> {
    match args.command {
        ContestCommand::Init {
            dir,
            game: GameName::Coup,
            rounds,
            seed,
            fuel,
            memory,
            jobs,
            max_upload_bytes,
            max_bots,
        } => {
            let config = ContestConfig {
                fuel,
                memory_mib: memory,
                jobs: jobs.unwrap_or(0),
                max_upload_bytes,
                max_bots,
                ..ContestConfig::coup(rounds, seed)
            };
            Contest::init(&dir, config)?;
            println!(
                "Contest created in {}. Next: koth contest add-author {} NAME, then koth serve {}",
                dir.display(),
                dir.display(),
                dir.display()
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
        ContestCommand::Export { dir, out } => export(&dir, &out)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn export(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let contest = Contest::open(dir)?;
    let conn = contest.db()?;
    let Some(run) = db::latest_done(&conn)? else {
        bail!(
            "{}: no run has finished yet: nothing to export",
            dir.display()
        );
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
    copy_tree(&contest.run_dir(run.id), out)?;
    let bots = out.join("bots");
    std::fs::create_dir_all(&bots).with_context(|| format!("creating {}", bots.display()))?;
    for v in db::versions_by_id(&conn, &run.versions)? {
        let from = contest.version_file(v.id, &v.file);
        std::fs::copy(&from, bots.join(&v.file))
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
