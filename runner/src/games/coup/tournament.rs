//! The Coup round robin, as the original: R rounds; in each, every ordered pair of distinct
//! bots plays one game (each goes first once against each opponent); a win scores 1.

use super::driver::{play, Forfeit, GameRecord, GameResult, GameSetup};
use crate::games::Player;
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::{Limits, Vfs, VfsLimits};
use crate::tournament::archive::{Archive, ArchiveError};
use crate::tournament::leaderboard::{Leaderboard, Row};
use crate::tournament::scheduler::{chain_by_resource, run_jobs};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// How long a bot's scratch files live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ScratchScope {
    /// A fresh directory for every game (the default).
    #[default]
    Game,
    /// One directory per bot for the whole tournament, as the original arbiter's folders.
    /// Games sharing a bot then run in game order, whatever the number of workers.
    Tournament,
}

/// Options of a Coup tournament. Everything here is recorded in the manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CoupOptions {
    /// Rounds of the round robin.
    pub rounds: u32,
    /// Tournament seed: decks and the bots' random streams derive from it.
    pub seed: u64,
    /// Limits of every invocation.
    pub limits: Limits,
    /// Quotas of every bot's directory.
    pub vfs: VfsLimits,
    /// Scratch lifetime.
    pub scratch: ScratchScope,
}

impl Default for CoupOptions {
    fn default() -> Self {
        CoupOptions {
            rounds: 10,
            seed: 0,
            limits: Limits::default(),
            vfs: VfsLimits::default(),
            scratch: ScratchScope::Game,
        }
    }
}

/// One scheduled game.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pairing {
    /// Index in the tournament.
    pub index: usize,
    /// Round, from 0.
    pub round: u32,
    /// Game number within the round, from 0 (as the original's `j`).
    pub game: u32,
    /// Bot indices of seat 0 (moves first) and seat 1.
    pub seats: [usize; 2],
}

/// The schedule: `permutations(bots, 2)` for every round, in the original's order.
pub fn schedule(bots: usize, rounds: u32) -> Vec<Pairing> {
    let mut out = Vec::new();
    for round in 0..rounds {
        let mut game = 0;
        for a in 0..bots {
            for b in 0..bots {
                if a != b {
                    out.push(Pairing {
                        index: out.len(),
                        round,
                        game,
                        seats: [a, b],
                    });
                    game += 1;
                }
            }
        }
    }
    out
}

/// A finished tournament.
pub struct CoupTournament {
    /// The games, in schedule order.
    pub pairings: Vec<Pairing>,
    /// What happened in each.
    pub records: Vec<GameRecord>,
    /// Scratch left by bots: per game (game scope, non-empty only) or per bot at the end.
    pub scratch: Vec<(String, Vec<SnapshotEntry>)>,
    /// The standings.
    pub leaderboard: Leaderboard,
}

impl CoupTournament {
    /// Games the host could not complete (they count for nobody).
    pub fn void_games(&self) -> usize {
        self.records
            .iter()
            .filter(|r| matches!(r.result, GameResult::Void { .. }))
            .count()
    }

    /// Total invocations.
    pub fn invocations(&self) -> u64 {
        self.records
            .iter()
            .map(|r| (r.invocations[0] + r.invocations[1]) as u64)
            .sum()
    }
}

/// Play the tournament with `workers` threads. `progress(done, total)` is called after each game.
pub fn run(
    players: &[&dyn Player],
    opts: &CoupOptions,
    workers: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> CoupTournament {
    let pairings = schedule(players.len(), opts.rounds);
    let total = pairings.len();
    let shared: Vec<Mutex<Vfs>> = (0..players.len())
        .map(|_| Mutex::new(Vfs::new(opts.vfs)))
        .collect();
    let deps = match opts.scratch {
        ScratchScope::Game => Vec::new(),
        ScratchScope::Tournament => chain_by_resource(
            &pairings
                .iter()
                .map(|p| p.seats.to_vec())
                .collect::<Vec<_>>(),
        ),
    };
    let played = run_jobs(
        total,
        &deps,
        workers,
        |i| {
            let p = &pairings[i];
            let [a, b] = p.seats;
            let file_name = format!(
                "{}_{}_{}_{}.txt",
                players[a].name(),
                players[b].name(),
                p.round,
                p.game
            );
            let setup = GameSetup {
                file_name: &file_name,
                deck_seed: crate::seed::derive_u64(
                    opts.seed,
                    "coup/deck",
                    &[p.round as u64, p.game as u64],
                ),
                root_seed: opts.seed,
                game_index: i as u64,
                limits: opts.limits,
            };
            let seat_players = [players[a], players[b]];
            match opts.scratch {
                ScratchScope::Game => {
                    let (mut da, mut db) = (Vfs::new(opts.vfs), Vfs::new(opts.vfs));
                    let rec = play(&setup, seat_players, [&mut da, &mut db]);
                    let scratch = [(a, da), (b, db)]
                        .into_iter()
                        .filter(|(_, d)| d.used_nodes() > 0)
                        .map(|(bot, d)| {
                            (
                                format!(
                                    "{}/{}",
                                    file_name.trim_end_matches(".txt"),
                                    players[bot].name()
                                ),
                                d.snapshot(),
                            )
                        })
                        .collect::<Vec<_>>();
                    (rec, scratch)
                }
                ScratchScope::Tournament => {
                    // The scheduler guarantees no other game holds these two directories now.
                    let mut ga = shared[a].lock().unwrap_or_else(|e| e.into_inner());
                    let mut gb = shared[b].lock().unwrap_or_else(|e| e.into_inner());
                    (play(&setup, seat_players, [&mut ga, &mut gb]), Vec::new())
                }
            }
        },
        |done| progress(done, total),
    );
    let mut records = Vec::with_capacity(total);
    let mut scratch = Vec::new();
    for (rec, s) in played {
        records.push(rec);
        scratch.extend(s);
    }
    if opts.scratch == ScratchScope::Tournament {
        for (i, d) in shared.into_iter().enumerate() {
            let d = d.into_inner().unwrap_or_else(|e| e.into_inner());
            if d.used_nodes() > 0 {
                scratch.push((players[i].name().to_string(), d.snapshot()));
            }
        }
    }
    let leaderboard = standings(players, &pairings, &records);
    CoupTournament {
        pairings,
        records,
        scratch,
        leaderboard,
    }
}

fn standings(players: &[&dyn Player], pairings: &[Pairing], records: &[GameRecord]) -> Leaderboard {
    let mut rows: Vec<Row> = players
        .iter()
        .map(|p| Row {
            bot: p.name().to_string(),
            ..Row::default()
        })
        .collect();
    for (p, r) in pairings.iter().zip(records) {
        for seat in 0..2 {
            let row = &mut rows[p.seats[seat]];
            row.fuel += r.fuel[seat];
            row.invocations += r.invocations[seat] as u64;
        }
        match &r.result {
            GameResult::Void { .. } => continue,
            GameResult::Draw => {
                for s in p.seats {
                    rows[s].games += 1;
                    rows[s].draws += 1;
                }
            }
            GameResult::Won {
                winner, forfeit, ..
            } => {
                for s in p.seats {
                    rows[s].games += 1;
                }
                let w = p.seats[*winner];
                rows[w].wins += 1;
                rows[w].score += 1;
                if let Some(f) = forfeit {
                    *rows[p.seats[1 - winner]]
                        .forfeits
                        .entry(f.kind().to_string())
                        .or_default() += 1;
                }
            }
        }
    }
    Leaderboard::new(rows)
}

/// A bot as the manifest records it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BotEntry {
    /// Its name.
    pub name: String,
    /// Its module's file name.
    pub file: String,
    /// SHA-256 of the module.
    pub sha256: String,
}

/// The manifest: enough to re-run the tournament and check the result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    /// The game.
    pub game: String,
    /// koth's version.
    pub koth_version: String,
    /// The bots, in the order given (which fixes the schedule).
    pub bots: Vec<BotEntry>,
    /// Tournament options (seed, rounds, limits, scratch).
    pub options: CoupOptions,
    /// Engine settings.
    pub engine: crate::sandbox::EngineSettings,
}

#[derive(Serialize)]
struct GameSummary<'a> {
    index: usize,
    round: u32,
    game: u32,
    file: &'a str,
    players: &'a [String; 2],
    #[serde(flatten)]
    result: &'a GameResult,
    invocations: [u32; 2],
    fuel: [u64; 2],
}

#[derive(Serialize)]
struct Results<'a> {
    leaderboard: &'a Leaderboard,
    void_games: usize,
    games: Vec<GameSummary<'a>>,
}

#[derive(Serialize)]
struct LogLine<'a> {
    game: usize,
    file: &'a str,
    #[serde(flatten)]
    invocation: &'a super::driver::InvocationRecord,
}

/// Write the archive: manifest, results, leaderboard, histories, human logs, structured log,
/// and the scratch bots left. Byte-identical for identical tournaments.
pub fn write_archive(
    t: &CoupTournament,
    manifest: &Manifest,
    archive: &Archive,
) -> Result<(), ArchiveError> {
    archive.write_json("manifest.json", manifest)?;
    archive.write("leaderboard.txt", t.leaderboard.render().as_bytes())?;
    let games = t
        .pairings
        .iter()
        .zip(&t.records)
        .map(|(p, r)| GameSummary {
            index: p.index,
            round: p.round,
            game: p.game,
            file: &r.file_name,
            players: &r.names,
            result: &r.result,
            invocations: r.invocations,
            fuel: r.fuel,
        })
        .collect();
    archive.write_json(
        "results.json",
        &Results {
            leaderboard: &t.leaderboard,
            void_games: t.void_games(),
            games,
        },
    )?;
    archive.write_jsonl(
        "invocations.jsonl",
        t.records.iter().enumerate().flat_map(|(g, r)| {
            r.log.iter().map(move |inv| LogLine {
                game: g,
                file: &r.file_name,
                invocation: inv,
            })
        }),
    )?;
    for r in &t.records {
        archive.write(&format!("histories/{}", r.file_name), r.history.as_bytes())?;
        let mut log = r.human_log.join("\n");
        log.push('\n');
        archive.write(
            &format!("logs/{}.log", r.file_name.trim_end_matches(".txt")),
            log.as_bytes(),
        )?;
    }
    for (owner, entries) in &t.scratch {
        for e in entries {
            match e {
                SnapshotEntry::Dir(p) => archive.mkdir(&format!("scratch/{owner}/{p}"))?,
                SnapshotEntry::File(p, data) => {
                    archive.write(&format!("scratch/{owner}/{p}"), data)?
                }
                // Never recreated on the host: recorded as text.
                SnapshotEntry::Symlink(p, target) => {
                    archive.write(&format!("scratch/{owner}/{p}.symlink"), target.as_bytes())?
                }
            }
        }
    }
    Ok(())
}

/// Convenience for callers that only need the forfeit kinds.
pub fn forfeit_of(r: &GameRecord) -> Option<&Forfeit> {
    match &r.result {
        GameResult::Won { forfeit, .. } => forfeit.as_ref(),
        _ => None,
    }
}
