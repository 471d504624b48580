//! The Coup round robin, as the original: R rounds; in each, every ordered pair of distinct
//! bots plays one game (each goes first once against each opponent); a win scores 1.

use super::driver::{play, Forfeit, GameRecord, GameResult, GameSetup};
use crate::games::Game;
use crate::games::Player;
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::{Limits, Vfs, VfsLimits};
use crate::tournament::archive::{json_lines_into, Archive, ArchiveError, MatchFiles};
use crate::tournament::leaderboard::{Columns, Leaderboard};
use crate::tournament::ratings::MIN_MATCHES;
use crate::tournament::results::{head_to_head, rate, standings, write_run, MatchUnit, Results};
use crate::tournament::store::Identity;
use crate::tournament::{self, MatchFormat, MatchSummary, RunError, RunPlan};
use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex};

pub use crate::tournament::{BotEntry, ScratchScope};

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
    /// Paired (duplicate) deals: in each round, the two games of a pair of bots start from
    /// the same deck with the seats swapped, so the luck of the deal cancels out.
    #[serde(default)]
    pub paired: bool,
    /// A sampled ladder: each bot meets this many opponents a round (even; both seats against
    /// each), drawn by [`crate::tournament::sample`]; `None` is the round robin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponents: Option<u32>,
}

impl Default for CoupOptions {
    fn default() -> Self {
        CoupOptions {
            rounds: 10,
            seed: 0,
            limits: Limits::default(),
            vfs: VfsLimits::default(),
            scratch: ScratchScope::Game,
            paired: false,
            opponents: None,
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
    pairings(rounds, |_| {
        (0..bots)
            .map(|a| (0..bots).filter(|&b| b != a).collect())
            .collect()
    })
}

/// The schedule of `opts`: the round robin, or with `opts.opponents` the sampled ladder's
/// pairs of each round, both seats of each, in the round robin's order.
pub fn schedule_for(names: &[String], opts: &CoupOptions) -> Vec<Pairing> {
    let Some(m) = opts.opponents else {
        return schedule(names.len(), opts.rounds);
    };
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    pairings(opts.rounds, |round| {
        crate::tournament::sample::partners(opts.seed, round, &refs, m)
    })
}

/// Every round's games: each bot `a`, in order, first against each of `opponents(round)[a]`.
fn pairings(rounds: u32, opponents: impl Fn(u32) -> Vec<Vec<usize>>) -> Vec<Pairing> {
    let mut out = Vec::new();
    for round in 0..rounds {
        let mut game = 0;
        for (a, list) in opponents(round).iter().enumerate() {
            for &b in list {
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
    out
}

/// Games in the schedule of `opts` for `bots` bots.
pub fn game_count(bots: usize, opts: &CoupOptions) -> usize {
    let per_round = match opts.opponents {
        None => bots * bots.saturating_sub(1),
        Some(m) => crate::tournament::sample::ordered_pairs(bots, m),
    };
    per_round * opts.rounds as usize
}

/// A finished tournament.
pub struct CoupTournament {
    /// The games, in schedule order.
    pub pairings: Vec<Pairing>,
    /// What happened in each.
    pub records: Vec<GameRecord>,
    /// Each game in the shared results schema.
    pub summaries: Vec<MatchSummary>,
    /// Each game's digest (of its [`Played`]), for the receipt.
    pub digests: Vec<String>,
    /// Scratch left by bots: per game (game scope, non-empty only) or per bot at the end.
    pub scratch: Vec<(String, Vec<SnapshotEntry>)>,
    /// The standings.
    pub leaderboard: Leaderboard,
    /// The bots' names, in the order given.
    pub names: Vec<String>,
}

impl CoupTournament {
    /// Games the host could not complete (they count for nobody).
    pub fn void_games(&self) -> usize {
        self.summaries.iter().filter(|s| s.void.is_some()).count()
    }

    /// Total invocations.
    pub fn invocations(&self) -> u64 {
        self.records
            .iter()
            .map(|r| (r.invocations[0] + r.invocations[1]) as u64)
            .sum()
    }
}

impl crate::games::Finished for CoupTournament {
    fn names(&self) -> &[String] {
        &self.names
    }
    fn summaries(&self) -> &[MatchSummary] {
        &self.summaries
    }
    fn leaderboard(&self) -> &Leaderboard {
        &self.leaderboard
    }
    fn invocations(&self) -> u64 {
        CoupTournament::invocations(self)
    }
}

/// What one played game leaves, as the journal keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Played {
    /// The game.
    pub record: GameRecord,
    /// Scratch to archive under the game's name (game scope: what each bot left).
    pub scratch: Vec<(String, Vec<SnapshotEntry>)>,
    /// Tournament-wide scratch of the bots that played their last game here, to archive
    /// under the bot's name.
    pub final_scratch: Vec<(String, Vec<SnapshotEntry>)>,
}

/// The round robin as a match format: a match is one game; with tournament-wide scratch,
/// games sharing a bot run in game order.
struct RoundRobin<'a> {
    players: &'a [Arc<dyn Player>],
    opts: &'a CoupOptions,
    pairings: Vec<Pairing>,
    shared: Vec<Mutex<Vfs>>,
    /// Each bot's last game (tournament-wide scratch is archived after it).
    last_game: Vec<usize>,
}

impl MatchFormat for RoundRobin<'_> {
    type Match = Pairing;
    type Record = Played;

    fn matches(&self) -> &[Pairing] {
        &self.pairings
    }

    fn shared_state(&self, p: &Pairing) -> Vec<usize> {
        match self.opts.scratch {
            ScratchScope::Game => Vec::new(),
            ScratchScope::Tournament => p.seats.to_vec(),
        }
    }

    fn identity(&self, p: &Pairing) -> Option<Identity> {
        (self.opts.scratch == ScratchScope::Game).then(|| Identity {
            round: p.round,
            seats: p.seats.to_vec(),
        })
    }

    fn play(&self, i: usize, p: &Pairing) -> Played {
        let (players, opts) = (self.players, self.opts);
        let [a, b] = p.seats;
        let (na, nb) = (players[a].name(), players[b].name());
        let round = p.round.to_le_bytes();
        let setup = GameSetup {
            round: p.round,
            deck_seed: deck_seed(opts.seed, opts.paired, p.round, na, nb),
            game_seed: crate::seed::derive_named(
                opts.seed,
                "coup/game",
                &[&round, na.as_bytes(), nb.as_bytes()],
            ),
            clock_base_ns: match opts.scratch {
                ScratchScope::Game => 0,
                // One folder per bot for the whole tournament: time goes on from game to game.
                ScratchScope::Tournament => (i as u64).saturating_mul(1_000_000_000_000),
            },
            limits: opts.limits,
        };
        let seat_players = [&players[a], &players[b]];
        match opts.scratch {
            ScratchScope::Game => {
                let (mut da, mut db) = (Vfs::new(opts.vfs), Vfs::new(opts.vfs));
                let record = play(&setup, seat_players, [&mut da, &mut db]);
                let scratch = [(a, da), (b, db)]
                    .into_iter()
                    .filter(|(_, d)| d.used_nodes() > 0)
                    .map(|(bot, d)| {
                        (
                            format!(
                                "{}/{}",
                                record.file_name.trim_end_matches(".txt"),
                                players[bot].name()
                            ),
                            d.snapshot(),
                        )
                    })
                    .collect::<Vec<_>>();
                Played {
                    record,
                    scratch,
                    final_scratch: Vec::new(),
                }
            }
            ScratchScope::Tournament => {
                // The scheduler guarantees no other game holds these two directories now.
                let mut ga = self.shared[a].lock().unwrap_or_else(|e| e.into_inner());
                let mut gb = self.shared[b].lock().unwrap_or_else(|e| e.into_inner());
                let record = play(&setup, seat_players, [&mut ga, &mut gb]);
                let final_scratch = [(a, &*ga), (b, &*gb)]
                    .into_iter()
                    .filter(|(bot, d)| self.last_game[*bot] == i && d.used_nodes() > 0)
                    .map(|(bot, d)| (players[bot].name().to_string(), d.snapshot()))
                    .collect();
                Played {
                    record,
                    scratch: Vec::new(),
                    final_scratch,
                }
            }
        }
    }
}

/// A game in the shared results schema.
fn summarize(p: &Pairing, r: &GameRecord) -> MatchSummary {
    let mut m = MatchSummary {
        label: r.file_name.clone(),
        participants: p.seats.to_vec(),
        scores: vec![0, 0],
        winners: Vec::new(),
        void: None,
        fuel: r.fuel.to_vec(),
        invocations: r.invocations.map(u64::from).to_vec(),
        forfeits: Vec::new(),
        points: Vec::new(),
    };
    match &r.result {
        GameResult::Void { reason } => m.void = Some(reason.clone()),
        GameResult::Draw => {}
        GameResult::Won {
            winner, forfeit, ..
        } => {
            m.scores[*winner] = 1;
            m.winners.push(*winner);
            if let Some(f) = forfeit {
                m.forfeits.push((1 - winner, f.kind().to_string(), 1));
            }
        }
    }
    m
}

/// Coup, as the tournament commands run, resume, shard, merge and verify it.
pub struct Coup;

/// The seed of the deck of the game `first` against `second` in `round` (the report's
/// viewer deals it again to show each move's state).
pub fn deck_seed(seed: u64, paired: bool, round: u32, first: &str, second: &str) -> u64 {
    let round = round.to_le_bytes();
    if paired {
        // Both orders of the pair get the same deck.
        let (x, y) = if first <= second {
            (first, second)
        } else {
            (second, first)
        };
        crate::seed::derive_named(
            seed,
            "coup/paired-deck",
            &[&round, x.as_bytes(), y.as_bytes()],
        )
    } else {
        crate::seed::derive_named(
            seed,
            "coup/deck",
            &[&round, first.as_bytes(), second.as_bytes()],
        )
    }
}

/// The game's name in manifests and on the command line.
pub const NAME: &str = "coup";

impl crate::games::Game for Coup {
    type Options = CoupOptions;
    type Record = Played;
    type Run = CoupTournament;

    fn name(&self) -> &str {
        NAME
    }

    fn match_count(&self, bots: usize, opts: &CoupOptions) -> usize {
        game_count(bots, opts)
    }

    fn reuse_note(&self, opts: &CoupOptions) -> Option<String> {
        (opts.scratch == ScratchScope::Tournament).then(|| {
            "with --scratch tournament every game depends on the bots' earlier games, so none \
             is kept or reused"
                .into()
        })
    }

    fn play(
        &self,
        players: &[Arc<dyn Player>],
        opts: &CoupOptions,
        workers: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        plan: RunPlan<'_, Played>,
    ) -> Result<Vec<Option<Played>>, RunError> {
        let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
        let pairings = schedule_for(&names, opts);
        let mut last_game = vec![0; players.len()];
        for p in &pairings {
            for &b in &p.seats {
                last_game[b] = p.index;
            }
        }
        let format = RoundRobin {
            players,
            opts,
            pairings,
            shared: (0..players.len())
                .map(|_| Mutex::new(Vfs::new(opts.vfs)))
                .collect(),
            last_game,
        };
        tournament::run(&format, workers, progress, plan)
    }

    fn finish(
        &self,
        names: Vec<String>,
        opts: &CoupOptions,
        played: Vec<Played>,
        digests: Vec<String>,
    ) -> Result<CoupTournament, RunError> {
        let pairings = schedule_for(&names, opts);
        RunError::check_records(pairings.len(), played.len(), digests.len())?;
        let summaries: Vec<MatchSummary> = pairings
            .iter()
            .zip(&played)
            .map(|(p, r)| summarize(p, &r.record))
            .collect();
        let mut records = Vec::with_capacity(played.len());
        let mut scratch = Vec::new();
        let mut final_scratch = Vec::new();
        for p in played {
            records.push(p.record);
            scratch.extend(p.scratch);
            final_scratch.extend(p.final_scratch);
        }
        // Tournament-wide scratch goes after the games', in bot order.
        final_scratch.sort_by_key(|(bot, _)| names.iter().position(|n| n == bot));
        scratch.extend(final_scratch);
        let mut leaderboard = standings(&names, &summaries, Columns::wins());
        // Each round plays every ordered pair once, or each bot's sampled opponents.
        let per_round = (game_count(names.len(), opts) / opts.rounds.max(1) as usize).max(1);
        let unit = MatchUnit {
            one: "game".into(),
            many: "games".into(),
            advice: format!(
                "run with --rounds {} or more",
                MIN_MATCHES.div_ceil(per_round)
            ),
        };
        rate(&mut leaderboard, &names, &summaries, opts.seed, &unit);
        Ok(CoupTournament {
            pairings,
            records,
            summaries,
            digests,
            scratch,
            leaderboard,
            names,
        })
    }

    fn invocation_lines(&self, index: usize, played: &Played) -> Vec<serde_json::Value> {
        let r = &played.record;
        r.log
            .iter()
            .filter_map(|inv| {
                serde_json::to_value(LogLine {
                    game: index,
                    file: &r.file_name,
                    invocation: inv,
                })
                .ok()
            })
            .collect()
    }

    fn match_field(&self) -> &'static str {
        "game"
    }

    /// The human log's lines between the decision's own (its argv) and the next one's.
    fn decision_reading(&self, played: &Played, k: usize) -> Vec<String> {
        let r = &played.record;
        let marks = r
            .log
            .iter()
            .map(|inv| super::driver::argv_line(&inv.bot, inv.argv.iter()));
        crate::referee::game::lines_after_mark(r.human_log.iter(), marks, k)
    }

    fn write_archive(
        &self,
        t: &CoupTournament,
        manifest: &Manifest,
        archive: &Archive,
    ) -> Result<(), ArchiveError> {
        write_archive(t, manifest, archive)
    }
}

/// Play the whole tournament with `workers` threads. `progress(done, total)` is called after
/// each game.
pub fn run(
    players: &[Arc<dyn Player>],
    opts: &CoupOptions,
    workers: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<CoupTournament, RunError> {
    Coup.play_whole(players, opts, workers, progress)
}

/// The manifest of a Coup tournament.
pub type Manifest = crate::tournament::Manifest<CoupOptions>;

/// What only Coup reports in `results.json`, beside the shared part.
#[derive(Serialize)]
struct Detail<'a> {
    games: Vec<GameSummary<'a>>,
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
struct LogLine<'a> {
    game: usize,
    file: &'a str,
    #[serde(flatten)]
    invocation: &'a super::driver::InvocationRecord,
}

/// Write the archive: manifest, results, leaderboard, the structured log, and in
/// `matches.zip.zst` each game's human log and history (`logs/<game>.log`, `histories/<game>.txt`,
/// in game order) then the scratch bots left. Byte-identical for identical tournaments.
pub fn write_archive(
    t: &CoupTournament,
    manifest: &Manifest,
    archive: &Archive,
) -> Result<(), ArchiveError> {
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
    let results = Results::new(
        "coup",
        &t.names,
        &t.leaderboard,
        &t.summaries,
        &t.digests,
        "games",
        Detail { games },
    );
    let games: Vec<(usize, &GameRecord)> = t.records.iter().enumerate().collect();
    write_run(
        archive,
        manifest,
        &t.leaderboard,
        results,
        head_to_head(&t.names, &t.summaries),
        &games,
        |&(g, r), buf| {
            let lines = r.log.iter().map(|inv| LogLine {
                game: g,
                file: &r.file_name,
                invocation: inv,
            });
            json_lines_into(lines, buf)
        },
        || {
            let mut files = MatchFiles::with_capacity(2 * t.records.len());
            for r in &t.records {
                let stem = r.file_name.trim_end_matches(".txt");
                files.file(format!("logs/{stem}.log"), r.human_log.as_log())?;
                files.file(format!("histories/{}", r.file_name), r.history.as_bytes())?;
            }
            for (owner, entries) in &t.scratch {
                files.scratch(owner, entries)?;
            }
            Ok(files)
        },
    )
}

/// Convenience for callers that only need the forfeit kinds.
pub fn forfeit_of(r: &GameRecord) -> Option<&Forfeit> {
    match &r.result {
        GameResult::Won { forfeit, .. } => forfeit.as_ref(),
        _ => None,
    }
}
