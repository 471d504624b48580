//! One run of the contest: an ordinary tournament of the given versions, with `--reuse` on the
//! contest's store and its journal in the run's archive folder, so a run stopped by a crash or
//! a kill carries on from its journal. The archive is what `koth <game> ... --reuse` writes.

use super::config::Executor;
use super::db::{self, MatchRow, Version};
use super::{slurm, Contest, ContestError, GameConfig};
use crate::games::coup;
use crate::games::run::{self, Folder, Resume};
use crate::games::{Finished, Game, Player};
use crate::referee::component::ComponentReferee;
use crate::referee::game::RefereeGame;
use crate::referee::shape::RefereeOptions;
use crate::referee::Referee;
use crate::sandbox::{Bot, EngineOptions, LoadLimits, Sandbox, SandboxOptions};
use crate::tournament::journal::Header;
use crate::tournament::store::Store;
use crate::tournament::{RefereeEntry, RunPlan};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// What a finished run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// Matches played now.
    pub played: usize,
    /// Matches taken from the store.
    pub reused: usize,
    /// Matches carried over from the journal of an interrupted attempt.
    pub resumed: usize,
}

fn failed(what: impl std::fmt::Display) -> ContestError {
    ContestError::Refused(what.to_string())
}

/// The sandbox of a run of `bots` bots (or of upload checks), as `koth <game>` builds it,
/// with the contest's code cache.
pub fn sandbox(contest: &Contest, bots: usize) -> Result<Sandbox, ContestError> {
    let memory_bytes = contest.config.memory_mib << 20;
    let workers = contest.config.workers();
    let engine = EngineOptions {
        pooling: true,
        pool_slots: (workers.saturating_add(bots).saturating_add(1)).min(512) as u32,
        max_memory_bytes: memory_bytes.max(EngineOptions::default().max_memory_bytes),
        ..EngineOptions::default()
    };
    let cache = contest.cache_dir();
    let opts = SandboxOptions {
        engine,
        load: LoadLimits {
            memory_bytes,
            ..LoadLimits::default()
        },
        cache_dir: Some(cache),
    };
    Sandbox::new(opts).map_err(failed)
}

/// How many matches a run of `bots` bots plays.
pub fn match_count(contest: &Contest, bots: usize) -> usize {
    let opts = match &contest.config.game {
        GameConfig::Coup {
            rounds,
            paired,
            opponents,
        } => coup_options(contest, *rounds, *paired, *opponents),
        GameConfig::BuiltIn { referee_options: o }
        | GameConfig::Referee {
            referee_options: o, ..
        } => referee_options(contest, o),
    };
    crate::referee::schedule::count(&opts, bots).unwrap_or(0)
}

/// A referee contest's run options: those `init` fixed, with the contest's seed and limits.
fn referee_options(contest: &Contest, fixed: &RefereeOptions) -> RefereeOptions {
    RefereeOptions {
        seed: contest.config.seed,
        limits: contest.config.limits(),
        ..fixed.clone()
    }
}

/// A built-in game's referee, run natively, as `koth play GAME` plays it.
fn built_in(o: &RefereeOptions) -> Result<RefereeGame, ContestError> {
    crate::games::registry::referee(&o.game.name)
        .map(RefereeGame::new)
        .ok_or_else(|| failed(format!("koth has no built-in game `{}`", o.game.name)))
}

/// Load a referee contest's referee from its folder, checking it is the one `init` took.
pub fn load_referee(
    contest: &Contest,
    sandbox: &Sandbox,
) -> Result<(RefereeGame, RefereeEntry), ContestError> {
    let GameConfig::Referee {
        referee_file,
        referee,
        ..
    } = &contest.config.game
    else {
        return Err(failed("this contest's game has no referee"));
    };
    let path = contest.root().join(referee_file);
    let loaded = ComponentReferee::load_pinned(sandbox, &path, referee).map_err(failed)?;
    Ok((
        RefereeGame::new(Arc::new(loaded) as Arc<dyn Referee>),
        referee.clone(),
    ))
}

/// A Coup contest's run options: its game's fields with the contest's seed and limits, as
/// `koth coup` gives them (each bot's folder lasts a game: the runs re-play only new
/// matches, which needs every match to stand alone).
fn coup_options(
    contest: &Contest,
    rounds: u32,
    paired: bool,
    opponents: Option<u32>,
) -> RefereeOptions {
    coup::options(
        rounds,
        crate::tournament::ScratchScope::Game,
        paired,
        opponents,
        contest.config.seed,
        contest.config.limits(),
    )
}

/// Play run `id` of these versions (in bot-name order) into `runs/<id>/`, reporting
/// `progress(done, total)` after each match.
pub fn execute(
    contest: &Contest,
    id: i64,
    versions: &[Version],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Outcome, Vec<MatchRow>), ContestError> {
    let out = contest.run_dir(id);
    execute_into(
        contest,
        id,
        versions,
        &out,
        &contest.config.executor,
        progress,
    )
}

/// Rebuild the whole archive of run `id` (of these versions), condensed since, into `out`
/// (new or empty): its matches come from the contest's store (any the store lost are played
/// again, here), and the archive's receipt must be the one the run kept, or it is an error
/// that says so (the rebuilt archive is left in `out` to look at). Only the koth version
/// that played the run can rebuild it; another is refused at once.
pub fn rebuild(
    contest: &Contest,
    id: i64,
    versions: &[Version],
    out: &Path,
) -> Result<Outcome, ContestError> {
    let dir = contest.run_dir(id);
    // The matches' keys and the receipt hold koth's version: another koth finds none of the
    // run's matches in the store and cannot give its receipt.
    let by = super::disk::played_by(&dir);
    if by.as_deref() != Some(crate::VERSION) {
        return Err(failed(format!(
            "run {id} was played by koth {}: only that version can rebuild it from the store \
             (this is koth {})",
            by.as_deref()
                .unwrap_or("(unknown: its manifest cannot be read)"),
            crate::VERSION
        )));
    }
    let kept = receipt_in(&super::disk::results_file(&dir))?;
    let (outcome, _) = execute_into(contest, id, versions, out, &Executor::Local, &|_, _| {})?;
    let rebuilt = receipt_in(&out.join("results.json"))?;
    if rebuilt != kept {
        return Err(failed(format!(
            "the archive rebuilt in {} has the receipt {rebuilt}, but run {id} kept {kept}: \
             the contest's store, its versions or koth itself changed since the run",
            out.display()
        )));
    }
    Ok(outcome)
}

/// The receipt a `results.json` (or a condensed run's standings) holds.
fn receipt_in(path: &Path) -> Result<String, ContestError> {
    #[derive(serde::Deserialize)]
    struct Receipt {
        receipt: String,
    }
    let bytes = std::fs::read(path).map_err(super::io(path))?;
    let r: Receipt = serde_json::from_slice(&bytes).map_err(|e| ContestError::Config {
        path: path.to_path_buf(),
        what: e.to_string(),
    })?;
    Ok(r.receipt)
}

/// [`execute`] into `out`, played by `executor`.
fn execute_into(
    contest: &Contest,
    id: i64,
    versions: &[Version],
    out: &Path,
    executor: &Executor,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Outcome, Vec<MatchRow>), ContestError> {
    let mut versions = versions.to_vec();
    versions.sort_by(|a, b| a.bot.cmp(&b.bot));
    let sandbox = sandbox(contest, versions.len())?;
    let mut bots = Vec::new();
    for v in &versions {
        let path = contest.version_file(v.id, &v.file);
        let bot = sandbox.load_file(&path, Some(&v.bot)).map_err(failed)?;
        bots.push(Arc::new(bot));
    }
    let at = Target {
        contest,
        id,
        out,
        executor,
        progress,
    };
    let played = match &contest.config.game {
        GameConfig::Coup {
            rounds,
            paired,
            opponents,
        } => play(
            &coup::game(),
            coup_options(contest, *rounds, *paired, *opponents),
            None,
            &bots,
            &versions,
            &sandbox,
            &at,
        ),
        GameConfig::BuiltIn { referee_options: o } => built_in(o).and_then(|game| {
            play(
                &game,
                referee_options(contest, o),
                None,
                &bots,
                &versions,
                &sandbox,
                &at,
            )
        }),
        GameConfig::Referee {
            referee_options: o, ..
        } => load_referee(contest, &sandbox).and_then(|(game, entry)| {
            play(
                &game,
                referee_options(contest, o),
                Some(entry),
                &bots,
                &versions,
                &sandbox,
                &at,
            )
        }),
    };
    if played.is_err() && !executor.is_local() {
        // The run is marked failed and never taken up again: nothing of its job may go on.
        slurm::abandon(contest, id);
    }
    played
}

/// The `koth` command of a run's game with its options, as a Slurm task runs it (without the
/// bots, the store, the cache, the shard and the output folder): built from the run's
/// manifest as the report's re-run command is, with the contest's referee by its path.
fn command_line<O: serde::Serialize>(
    contest: &Contest,
    manifest: &crate::tournament::Manifest<O>,
) -> Result<Vec<String>, ContestError> {
    let json = serde_json::to_value(manifest).map_err(failed)?;
    let referee = match &contest.config.game {
        GameConfig::Coup { .. } | GameConfig::BuiltIn { .. } => None,
        GameConfig::Referee { referee_file, .. } => {
            let path = contest.root().join(referee_file);
            Some(
                path.to_str()
                    .ok_or_else(|| failed(format!("{}: not a UTF-8 path", path.display())))?
                    .to_string(),
            )
        }
    };
    Ok(crate::report::rerun::game_command(&json, referee))
}

/// Where a run is played: the contest, the run, its archive folder, who plays it, and whom
/// it tells of each match done.
#[derive(Clone, Copy)]
struct Target<'a> {
    contest: &'a Contest,
    id: i64,
    out: &'a Path,
    executor: &'a Executor,
    progress: &'a (dyn Fn(usize, usize) + Sync),
}

/// The tournament itself, for any game: what `koth <game> --out OUT --reuse STORE [--resume]`
/// does, without its printing.
fn play<G: Game>(
    game: &G,
    opts: G::Options,
    referee: Option<RefereeEntry>,
    bots: &[Arc<Bot>],
    versions: &[Version],
    sandbox: &Sandbox,
    at: &Target<'_>,
) -> Result<(Outcome, Vec<MatchRow>), ContestError> {
    let Target {
        contest,
        id,
        out,
        executor,
        progress,
    } = *at;
    let files = versions.iter().map(|v| v.file.clone());
    let manifest = run::manifest(game.name(), referee, bots, files, opts, sandbox);
    let total = game.match_count(bots.len(), &manifest.options);
    let header = Header::new(total, None);
    let Folder {
        archive,
        journal,
        done,
    } = Folder::prepare(out, &manifest, &header, Resume::IfSame).map_err(failed)?;
    let (records, known, outcome) = match executor {
        Executor::Local => {
            let resumed = done.len();
            let store = Store::open(&contest.store_dir()).map_err(failed)?;
            let reuse = run::reuse(game, &store, &manifest);
            let plan = RunPlan {
                done,
                select: None,
                journal: Some(&journal),
                reuse: Some(&reuse),
            };
            let players: Vec<Arc<dyn Player>> = bots
                .iter()
                .map(|b| Arc::clone(b) as Arc<dyn Player>)
                .collect();
            let workers = contest.config.workers();
            let records = game
                .play(&players, &manifest.options, workers, progress, plan)
                .map_err(failed)?;
            let known = journal.finish().map_err(failed)?;
            let outcome = Outcome {
                played: reuse.stored.load(Ordering::Relaxed),
                reused: reuse.reused.load(Ordering::Relaxed),
                resumed,
            };
            (records, known, outcome)
        }
        Executor::Slurm {
            shards,
            sbatch_args,
        } => {
            // The tasks keep their own journals; this run's stays empty.
            journal.finish().map_err(failed)?;
            let played = slurm::play::<G::Record>(
                contest,
                id,
                versions,
                &command_line(contest, &manifest)?,
                total,
                *shards,
                sbatch_args,
                progress,
            )?;
            let outcome = Outcome {
                played: played.played,
                reused: played.reused,
                resumed: 0,
            };
            (played.records, Default::default(), outcome)
        }
    };
    let names: Vec<String> = bots.iter().map(|b| b.name().to_string()).collect();
    let run = run::conclude(
        game,
        &manifest,
        names.clone(),
        records,
        &known,
        &archive,
        out,
        &mut |_| {},
    )
    .map_err(failed)?;
    let name = |i: &usize| names.get(*i).cloned().unwrap_or_default();
    let rows = run
        .summaries()
        .iter()
        .enumerate()
        .map(|(i, m)| MatchRow {
            idx: i as i64,
            label: m.label.clone(),
            participants: m.participants.iter().map(name).collect(),
            scores: m.scores.clone(),
            // Winners are positions in `participants`, as forfeits are.
            winners: m
                .winners
                .iter()
                .filter_map(|w| m.participants.get(*w))
                .map(name)
                .collect(),
            void: m.void.clone(),
            forfeits: m
                .forfeits
                .iter()
                .map(|(seat, kind, _)| {
                    let bot = m.participants.get(*seat).map(name).unwrap_or_default();
                    (bot, kind.clone())
                })
                .collect(),
        })
        .collect();
    if !executor.is_local() {
        slurm::clean(contest, id);
    }
    Ok((outcome, rows))
}

/// Mark a finished run in the database.
pub fn record(
    conn: &mut rusqlite::Connection,
    id: i64,
    outcome: &Outcome,
    rows: &[MatchRow],
) -> Result<(), ContestError> {
    db::finish_run(
        conn,
        id,
        outcome.played + outcome.resumed,
        outcome.reused,
        rows,
    )
}

/// Why a validation match was not passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Validation {
    /// The candidate forfeited a game: the upload's fault.
    Forfeited(String),
    /// A match could not be completed (a host fault): nobody's verdict.
    Void(String),
}

/// Play a new version's validation match: one round of the contest's game, with its limits,
/// against `opponent`. Ok, or why `candidate` did not pass it.
pub fn validation_match(
    contest: &Contest,
    sandbox: &Sandbox,
    candidate: Arc<Bot>,
    opponent: Arc<Bot>,
) -> Result<(), Validation> {
    match &contest.config.game {
        // Both games of the pair, once: one round of the round robin of two.
        GameConfig::Coup { .. } => judge(
            &coup::game(),
            &coup_options(contest, 1, false, None),
            candidate,
            opponent,
        ),
        GameConfig::BuiltIn { referee_options: o } => {
            let game = built_in(o).map_err(|e| Validation::Void(e.to_string()))?;
            let opts = RefereeOptions {
                rounds: 1,
                paired: false,
                ..referee_options(contest, o)
            };
            judge(&game, &opts, candidate, opponent)
        }
        GameConfig::Referee {
            referee_options: o, ..
        } => {
            // The referee is the host's: failing to load it is no verdict on the upload.
            let (game, _) = load_referee(contest, sandbox).map_err(|e| {
                Validation::Void(format!("the contest's referee cannot be loaded: {e}"))
            })?;
            let opts = RefereeOptions {
                rounds: 1,
                paired: false,
                ..referee_options(contest, o)
            };
            judge(&game, &opts, candidate, opponent)
        }
    }
}

/// Play `candidate` (bot 0) against `opponent` (bot 1), game-blind: the first forfeit of
/// the candidate's, or void match, is the reason it fails.
fn judge<G: Game>(
    game: &G,
    opts: &G::Options,
    candidate: Arc<Bot>,
    opponent: Arc<Bot>,
) -> Result<(), Validation> {
    let against = opponent.name().to_string();
    let players: Vec<Arc<dyn Player>> = vec![candidate, opponent];
    // A run that cannot be played or summed up is the host's fault, not the candidate's.
    let run = game
        .play_whole(&players, opts, 1, &|_, _| {})
        .map_err(|e| {
            Validation::Void(format!(
                "its validation match against `{against}` could not be played: {e}"
            ))
        })?;
    for m in run.summaries() {
        if let Some(why) = &m.void {
            return Err(Validation::Void(format!(
                "its validation match against `{against}` ({}) could not be completed: {why}",
                m.label
            )));
        }
        let own = m
            .forfeits
            .iter()
            .find(|(seat, _, _)| m.participants.get(*seat) == Some(&0));
        if let Some((_, kind, _)) = own {
            return Err(Validation::Forfeited(format!(
                "it forfeited its validation match against `{against}` ({}): {kind}",
                m.label
            )));
        }
    }
    Ok(())
}
