//! A Euchre run: every bot against every other, each partnered with a copy of itself, N games
//! per pair with the first dealer alternating; or, for four bots, partners drawn at random
//! for each game. A bot's score is the number of games it won.

use super::driver::{play, GameRecord, GameResult, GameSetup, SEATS};
use super::rules::{Config, DEFAULT_MAX_DEALS, DEFAULT_TARGET};
use crate::games::Game;
use crate::games::Player;
use crate::sandbox::{Limits, VfsLimits};
use crate::tournament::archive::{Archive, ArchiveError};
use crate::tournament::leaderboard::{Columns, Leaderboard};
use crate::tournament::ratings::MIN_MATCHES;
use crate::tournament::receipt::digest;
use crate::tournament::results::{head_to_head, rate, standings, write_common, MatchUnit, Results};
use crate::tournament::{self, MatchFormat, MatchSummary, RunError, RunPlan};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The memory file's quota: the seed allows one file of at most 1 KB.
pub const MEMORY_BYTES: u64 = 1024;

/// How teams are formed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Partners {
    /// Each bot partnered with a copy of itself; every pair of bots meets N times.
    #[default]
    Copies,
    /// Four bots, partners drawn at random for each of N games (the seed's mode).
    Random,
}

/// Options of a Euchre run. Everything here is recorded in the manifest.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EuchreOptions {
    /// Games per pair of bots (copies), or games in all (random partners).
    pub games: u32,
    /// Points that win a game.
    pub target: u32,
    /// The run's seed: decks, random partners and the bots' random streams derive from it.
    pub seed: u64,
    /// How teams are formed.
    pub partners: Partners,
    /// Limits of every invocation.
    pub limits: Limits,
    /// Quotas of each seat's directory (the memory file).
    pub vfs: VfsLimits,
    /// Paired (duplicate) deals, with copies as partners: games come in twos that deal the
    /// same cards with the teams' seats swapped, so the luck of the deal cancels out.
    #[serde(default)]
    pub paired: bool,
}

impl Default for EuchreOptions {
    fn default() -> Self {
        EuchreOptions {
            games: 10,
            target: DEFAULT_TARGET,
            seed: 1,
            partners: Partners::Copies,
            limits: Limits::default(),
            vfs: VfsLimits {
                max_bytes: MEMORY_BYTES,
                ..VfsLimits::default()
            },
            paired: false,
        }
    }
}

/// One scheduled game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Index in the run.
    pub index: usize,
    /// The bot in each seat (N, E, S, W): N & S against E & W.
    pub seats: [usize; 4],
    /// The seat dealing first.
    pub first_dealer: usize,
    /// Which deal sequence the game plays: its own index, or with paired deals the index of
    /// the first game of its pair.
    pub deal: usize,
}

/// The games of a run of `bots` bots.
pub fn schedule(bots: usize, opts: &EuchreOptions) -> Vec<Table> {
    let mut out = Vec::new();
    match opts.partners {
        Partners::Copies => {
            for a in 0..bots {
                for b in a + 1..bots {
                    for g in 0..opts.games {
                        let index = out.len();
                        let swapped = opts.paired && g % 2 == 1;
                        out.push(Table {
                            index,
                            seats: if swapped { [b, a, b, a] } else { [a, b, a, b] },
                            // Alternate which team deals first; a paired game keeps its
                            // twin's dealer seat, so the same cards reach the other team.
                            first_dealer: if opts.paired {
                                ((g / 2) % 2) as usize
                            } else {
                                (g % 2) as usize
                            },
                            deal: if swapped { index - 1 } else { index },
                        });
                    }
                }
            }
        }
        Partners::Random => {
            let mut rng = ChaCha8Rng::seed_from_u64(crate::seed::derive_u64(
                opts.seed,
                "euchre/partners",
                &[],
            ));
            for g in 0..opts.games {
                let mut seats: Vec<usize> = (0..bots.min(4)).collect();
                seats.shuffle(&mut rng);
                if let [n, e, s, w] = seats[..] {
                    out.push(Table {
                        index: out.len(),
                        seats: [n, e, s, w],
                        first_dealer: (g % 4) as usize,
                        deal: out.len(),
                    });
                }
            }
        }
    }
    out
}

/// The participants of a table in the shared schema: one per team with copies
/// (`[north, east]`), one per seat in team order (`[N, S, E, W]`) with random partners.
fn participants(t: &Table, partners: Partners) -> Vec<usize> {
    match partners {
        Partners::Copies => vec![t.seats[0], t.seats[1]],
        Partners::Random => vec![t.seats[0], t.seats[2], t.seats[1], t.seats[3]],
    }
}

struct Pairings<'a> {
    players: &'a [&'a dyn Player],
    opts: &'a EuchreOptions,
    tables: Vec<Table>,
}

impl MatchFormat for Pairings<'_> {
    type Match = Table;
    type Record = GameRecord;

    fn matches(&self) -> &[Table] {
        &self.tables
    }

    fn play(&self, i: usize, t: &Table) -> GameRecord {
        let setup = GameSetup {
            index: i as u64,
            deck_seed: crate::seed::derive_u64(self.opts.seed, "euchre/deck", &[t.deal as u64]),
            root_seed: self.opts.seed,
            config: Config {
                target: self.opts.target,
                first_dealer: t.first_dealer,
                max_deals: DEFAULT_MAX_DEALS,
            },
            limits: self.opts.limits,
            vfs: self.opts.vfs,
        };
        play(&setup, t.seats.map(|b| self.players[b]))
    }
}

/// A game in the shared results schema.
fn summarize(partners: Partners, t: &Table, r: &GameRecord) -> MatchSummary {
    let parts = participants(t, partners);
    // Seats of each participant, in the order of `parts`.
    let seats_of: Vec<Vec<usize>> = match partners {
        Partners::Copies => vec![vec![0, 2], vec![1, 3]],
        Partners::Random => vec![vec![0], vec![2], vec![1], vec![3]],
    };
    let team_of = |pos: usize| seats_of[pos][0] % 2;
    let winners = match &r.result {
        GameResult::Won { team } => (0..parts.len()).filter(|&p| team_of(p) == *team).collect(),
        _ => Vec::new(),
    };
    MatchSummary {
        label: format!(
            "game {}: {} & {} against {} & {}",
            t.index, r.seats[0], r.seats[2], r.seats[1], r.seats[3]
        ),
        scores: (0..parts.len())
            .map(|p| u64::from(winners.contains(&p)))
            .collect(),
        points: (0..parts.len())
            .map(|p| {
                let team = team_of(p);
                (u64::from(r.points[team]), u64::from(r.points[1 - team]))
            })
            .collect(),
        void: match &r.result {
            GameResult::Void { reason } => Some(reason.clone()),
            _ => None,
        },
        fuel: seats_of
            .iter()
            .map(|ss| ss.iter().map(|&s| r.fuel[s]).sum())
            .collect(),
        invocations: seats_of
            .iter()
            .map(|ss| ss.iter().map(|&s| u64::from(r.invocations[s])).sum())
            .collect(),
        forfeits: seats_of
            .iter()
            .enumerate()
            .flat_map(|(p, ss)| {
                ss.iter()
                    .flat_map(move |&s| r.failures[s].iter().map(move |(k, &n)| (p, k.clone(), n)))
            })
            .collect(),
        winners,
        participants: parts,
    }
}

/// A finished run.
pub struct EuchreRun {
    /// The games, in order.
    pub tables: Vec<Table>,
    /// What happened in each.
    pub records: Vec<GameRecord>,
    /// Each game in the shared results schema.
    pub summaries: Vec<MatchSummary>,
    /// Each game's record digest, for the receipt.
    pub digests: Vec<String>,
    /// Games won, points for and against, failures by kind.
    pub leaderboard: Leaderboard,
    /// The bots' names, in the order given.
    pub names: Vec<String>,
}

impl EuchreRun {
    /// Total invocations.
    pub fn invocations(&self) -> u64 {
        self.records
            .iter()
            .flat_map(|r| r.invocations)
            .map(u64::from)
            .sum()
    }
}

impl crate::games::Finished for EuchreRun {
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
        EuchreRun::invocations(self)
    }
}

/// Euchre, as the tournament commands run, resume, shard, merge and verify it.
pub struct Euchre;

impl crate::games::Game for Euchre {
    type Options = EuchreOptions;
    type Record = GameRecord;
    type Run = EuchreRun;

    fn name(&self) -> &str {
        super::NAME
    }

    fn match_count(&self, bots: usize, opts: &EuchreOptions) -> usize {
        schedule(bots, opts).len()
    }

    fn play(
        &self,
        players: &[Arc<dyn Player>],
        opts: &EuchreOptions,
        workers: usize,
        progress: &(dyn Fn(usize, usize) + Sync),
        plan: RunPlan<'_, GameRecord>,
    ) -> Result<Vec<Option<GameRecord>>, RunError> {
        let players: Vec<&dyn Player> = players.iter().map(|p| p.as_ref()).collect();
        let format = Pairings {
            players: &players,
            opts,
            tables: schedule(players.len(), opts),
        };
        tournament::run(&format, workers, progress, plan)
    }

    fn finish(
        &self,
        names: Vec<String>,
        opts: &EuchreOptions,
        records: Vec<GameRecord>,
    ) -> EuchreRun {
        let tables = schedule(names.len(), opts);
        let summaries: Vec<MatchSummary> = tables
            .iter()
            .zip(&records)
            .map(|(t, r)| summarize(opts.partners, t, r))
            .collect();
        let digests = records.iter().map(digest).collect();
        let mut leaderboard = standings(&names, &summaries, Columns::points());
        // `--games` counts games per pair of bots with copies as partners, games in all with
        // random partners.
        let per_game = match opts.partners {
            Partners::Copies => (names.len() * names.len().saturating_sub(1) / 2).max(1),
            Partners::Random => 1,
        };
        let unit = MatchUnit {
            one: "game".into(),
            many: "games".into(),
            advice: format!(
                "run with --games {} or more",
                MIN_MATCHES.div_ceil(per_game)
            ),
        };
        rate(&mut leaderboard, &names, &summaries, opts.seed, &unit);
        EuchreRun {
            tables,
            records,
            summaries,
            digests,
            leaderboard,
            names,
        }
    }

    fn write_archive(
        &self,
        r: &EuchreRun,
        manifest: &Manifest,
        archive: &Archive,
    ) -> Result<(), ArchiveError> {
        write_archive(r, manifest, archive)
    }
}

/// Play the whole run with `workers` threads. `progress(done, total)` is called after each
/// game.
pub fn run(
    players: &[Arc<dyn Player>],
    opts: &EuchreOptions,
    workers: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> EuchreRun {
    Euchre.play_whole(players, opts, workers, progress)
}

/// The manifest of a Euchre run.
pub type Manifest = crate::tournament::Manifest<EuchreOptions>;

#[derive(Serialize)]
struct Detail<'a> {
    games: Vec<GameDetail<'a>>,
}

#[derive(Serialize)]
struct GameDetail<'a> {
    index: usize,
    seats: &'a [String; 4],
    first_dealer: &'static str,
    #[serde(flatten)]
    result: &'a GameResult,
    points: [u32; 2],
    deals: u32,
}

#[derive(Serialize)]
struct LogLine<'a> {
    game: usize,
    #[serde(flatten)]
    invocation: &'a super::driver::InvocationRecord,
}

/// Write the archive: manifest, results, leaderboard, the structured log, a human log per
/// game (`logs/game-N.log`) and the memory files the bots left (`scratch/game-N/<seat>/`).
pub fn write_archive(
    r: &EuchreRun,
    manifest: &Manifest,
    archive: &Archive,
) -> Result<(), ArchiveError> {
    let games = r
        .tables
        .iter()
        .zip(&r.records)
        .map(|(t, rec)| GameDetail {
            index: t.index,
            seats: &rec.seats,
            first_dealer: SEATS[t.first_dealer],
            result: &rec.result,
            points: rec.points,
            deals: rec.deals,
        })
        .collect();
    let results = Results::new(
        "euchre",
        &r.names,
        &r.leaderboard,
        &r.summaries,
        &r.digests,
        Detail { games },
    );
    write_common(archive, manifest, &r.leaderboard, results)?;
    if let Some(table) = head_to_head(&r.names, &r.summaries) {
        archive.write("head-to-head.txt", table.as_bytes())?;
    }
    archive.write_jsonl(
        "invocations.jsonl",
        r.records.iter().enumerate().flat_map(|(g, rec)| {
            rec.log.iter().map(move |inv| LogLine {
                game: g,
                invocation: inv,
            })
        }),
    )?;
    let mut scratch = Vec::new();
    for (g, rec) in r.records.iter().enumerate() {
        let mut log = rec.human_log.join("\n");
        log.push('\n');
        archive.write(&format!("logs/game-{g}.log"), log.as_bytes())?;
        for (seat, entries) in &rec.scratch {
            scratch.push((format!("game-{g}/{}", SEATS[*seat]), entries.clone()));
        }
    }
    archive.write_scratch(&scratch)
}
