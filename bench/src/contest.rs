//! `koth bench ladder --contest`: the same ladder as a contest's runs (what `koth serve` plays
//! after each upload), in this process: the ladder's first run, then two new entries one after
//! the other, each timed from the queued run to its settled folder (the play, the archive, the
//! match index, the older runs condensed), the leaderboard and the new bot's page read as the
//! server reads them, and the contest's disk by part after each run, so that what a new entry
//! adds to the disk is measured, not assumed.

use crate::scale::mb;
use anyhow::{bail, Context};
use koth::contest::disk::usage;
use koth::contest::{db, worker, Contest, ContestConfig, ContestError, GameConfig};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The contest's disk, by part.
#[derive(Debug, Clone, Copy, Default)]
struct Disk {
    store: u64,
    runs: u64,
    db: u64,
    versions: u64,
    cache: u64,
}

impl Disk {
    fn of(contest: &Contest) -> Disk {
        let root = contest.root();
        let db = ["contest.db", "contest.db-wal", "contest.db-shm"]
            .iter()
            .map(|f| std::fs::metadata(root.join(f)).map_or(0, |m| m.len()))
            .sum();
        Disk {
            store: usage(&contest.store_dir()),
            runs: usage(&root.join("runs")),
            db,
            versions: usage(&root.join("versions")),
            cache: usage(&contest.cache_dir()),
        }
    }

    /// Everything but the compiled-code cache (which a host may clear at any time).
    fn kept(&self) -> u64 {
        self.store + self.runs + self.db + self.versions
    }
}

fn signed_mb(now: u64, before: u64) -> String {
    if now >= before {
        format!("+{:.1} MB", (now - before) as f64 / 1e6)
    } else {
        format!("-{:.1} MB", (before - now) as f64 / 1e6)
    }
}

/// Play the ladder of `files[..entries]` as a contest in `root/contest`, then add
/// `files[entries]` and `files[entries + 1]` one at a time, printing each run's figures.
pub(crate) fn contest_ladder(
    files: &[PathBuf],
    entries: usize,
    rounds: u32,
    opponents: Option<u32>,
    jobs: usize,
    root: &Path,
) -> anyhow::Result<()> {
    if files.len() < entries + 2 {
        bail!("the contest ladder needs two new entries after the ladder");
    }
    let config = ContestConfig {
        game: GameConfig::Coup {
            rounds,
            paired: false,
            opponents,
        },
        jobs,
        max_bots: entries + 2,
        // The quota is not what this measures: nothing is condensed for it.
        max_disk_mib: 1 << 30,
        ..ContestConfig::coup(rounds, 1)
    };
    let contest = Contest::init(&root.join("contest"), config)?;
    let mut conn = contest.db()?;
    let author = db::add_author(&conn, "bench", &Sha256::digest(b"bench"))?;
    let quotas = db::Quotas {
        bots: entries + 2,
        bots_per_author: entries + 2,
        versions_per_hour: entries + 2,
    };
    let add = |conn: &mut rusqlite::Connection, file: &Path| -> anyhow::Result<String> {
        let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
        let bot = file
            .file_stem()
            .and_then(|s| s.to_str())
            .with_context(|| format!("{}: no usable file name", file.display()))?
            .to_string();
        let sha = hex::encode(Sha256::digest(&bytes));
        let added = db::add_version(
            conn,
            author,
            &bot,
            "wasm",
            &sha,
            bytes.len() as i64,
            quotas,
            |id, stored| {
                let dest = contest.version_file(id, stored);
                let io = |source| ContestError::Io {
                    path: dest.clone(),
                    source,
                };
                if let Some(dir) = dest.parent() {
                    std::fs::create_dir_all(dir).map_err(io)?;
                }
                std::fs::write(&dest, &bytes).map_err(io)
            },
        )?;
        if let Err(refused) = added {
            bail!("{}: refused: {refused:?}", file.display());
        }
        Ok(bot)
    };
    for f in &files[..entries] {
        add(&mut conn, f)?;
    }
    let live = Arc::new(worker::Live::default());
    let mut before = Disk::of(&contest);
    let mut run_once = |conn: &mut rusqlite::Connection, label: &str, bot: Option<&str>| {
        let Some(run) = worker::next_run(&contest, conn)? else {
            bail!("no run was queued");
        };
        let t = Instant::now();
        worker::play_run(&contest, conn, &run, &live)?;
        let took = t.elapsed();
        let done = db::get_run(conn, run.id)?.context("the run vanished")?;
        if done.state != "done" {
            bail!("run {} {}: {:?}", run.id, done.state, done.error);
        }
        println!(
            "{label} (run {}): {:.2} s from queued to settled; {} matches, {} played, {} from the store",
            run.id,
            took.as_secs_f64(),
            done.total,
            done.played.unwrap_or(0),
            done.reused.unwrap_or(0)
        );
        pages(&contest, bot)?;
        let now = Disk::of(&contest);
        println!(
            "  contest disk {} ({} since the last run): store {} ({}), runs {} ({}), database {} ({}), versions {}; compiled code {} besides",
            mb(now.kept()),
            signed_mb(now.kept(), before.kept()),
            mb(now.store),
            signed_mb(now.store, before.store),
            mb(now.runs),
            signed_mb(now.runs, before.runs),
            mb(now.db),
            signed_mb(now.db, before.db),
            mb(now.versions),
            mb(now.cache),
        );
        before = now;
        anyhow::Ok(())
    };
    println!("As a contest (koth serve's runs, in this process):");
    run_once(&mut conn, &format!("the ladder ({entries} entries)"), None)?;
    for (i, f) in files[entries..entries + 2].iter().enumerate() {
        let bot = add(&mut conn, f)?;
        run_once(
            &mut conn,
            &format!("new entry {} ({} entries)", i + 1, entries + i + 1),
            Some(&bot),
        )?;
    }
    Ok(())
}

/// Read the leaderboard and `bot`'s page as the server does, from a fresh state (so the
/// leaderboard's results are parsed, not cached), and print how long each took.
fn pages(contest: &Contest, bot: Option<&str>) -> anyhow::Result<()> {
    use koth::serve::{api, state::AppState};
    let (_ready_tx, ready) = tokio::sync::watch::channel(true);
    let st = AppState::new(
        contest.clone(),
        Arc::new(worker::Live::default()),
        Arc::new(worker::Wake::default()),
        &koth::serve::limits::ServeLimits::default(),
        koth::contest::check::Checker::Child(crate::koth_exe()?),
        ready,
    )?;
    let t = Instant::now();
    let board = api::leaderboard_data(&st)?;
    let board_took = t.elapsed();
    let mut line = format!(
        "  pages: leaderboard {:.2} s ({} rows)",
        board_took.as_secs_f64(),
        board.bots.len()
    );
    if let Some(bot) = bot {
        let t = Instant::now();
        let data = api::bot_data(&st, bot)?.context("the new bot has no page")?;
        line.push_str(&format!(
            ", the new bot's page {:.2} s ({} matches, ranked {})",
            t.elapsed().as_secs_f64(),
            data.matches.len(),
            data.standing.as_ref().map_or(0, |s| s.rank)
        ));
    }
    println!("{line}");
    Ok(())
}
