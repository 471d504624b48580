//! One Euchre game through the sandbox: every decision is an invocation whose stdin is the
//! rules' input for that seat, and whose stdout is the answer.
//!
//! Each of the four seats is its own instance of its bot with its own virtual directory (the
//! memory file, 1 KiB by default), kept for the whole game. A failed invocation or a bad
//! answer gets the spec's default, logged with the reason; the game goes on. Only a host
//! fault stops it, and the game is then void.

use super::rules::{Config, Game, Kind, Outcome as GameOutcome};
use crate::games::{stderr_tail, Player};
use crate::sandbox::vfs::SnapshotEntry;
use crate::sandbox::{Invocation, Limits, Outcome, Vfs, VfsLimits};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Bytes of stderr kept per invocation in the structured log.
const STDERR_TAIL: usize = 512;

/// The four seats' compass names: partners sit opposite (N & S against E & W).
pub const SEATS: [&str; 4] = ["N", "E", "S", "W"];

/// What identifies one game and seeds it.
#[derive(Debug, Clone, Copy)]
pub struct GameSetup {
    /// The game's index in the run (seeds and virtual clocks).
    pub index: u64,
    /// Seed of the decks.
    pub deck_seed: u64,
    /// The run's seed, for the bots' `random_get` streams.
    pub root_seed: u64,
    /// Target and first dealer.
    pub config: Config,
    /// Limits of every invocation.
    pub limits: Limits,
    /// Quotas of each seat's directory (the memory file: 1 KiB).
    pub vfs: VfsLimits,
}

/// Why a decision got the default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Failure {
    /// The invocation did not end `ok`.
    Crash(Outcome),
    /// The output was not a legal answer.
    BadAnswer(String),
}

impl Failure {
    /// A short stable name of the kind, for the leaderboard's counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Crash(o) => crate::games::crash_kind(o),
            Failure::BadAnswer(_) => "bad answer",
        }
    }
}

/// One invocation, as the structured log records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvocationRecord {
    /// Invocation number within the game, from 0.
    pub n: u32,
    /// Seat (0–3: N, E, S, W).
    pub seat: usize,
    /// Bot name.
    pub bot: String,
    /// The phase.
    pub phase: String,
    /// What the bot got on stdin.
    pub stdin: String,
    /// How the invocation ended.
    pub outcome: Outcome,
    /// What it printed (lossy UTF-8).
    pub stdout: String,
    /// The answer applied (empty for a trick report).
    pub answer: String,
    /// Why the default was applied, if it was.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub failure: Option<Failure>,
    /// Fuel used.
    pub fuel_used: u64,
    /// The end of its stderr.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub stderr_tail: String,
    /// What happened at the table after this answer (the human log's lines for it: the
    /// answer itself, a trick taken, a hand scored, the next deal), so a replay can show the
    /// state after each move without re-running the rules.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub events: Vec<String>,
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum GameResult {
    /// A team reached the target.
    Won {
        /// 0 (N & S) or 1 (E & W).
        team: usize,
    },
    /// Too many deals without a winner.
    Drawn,
    /// The host failed: the game counts for nobody, loudly.
    Void {
        /// The host fault.
        reason: String,
    },
}

/// Everything about one played game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Each seat's name in the logs (`bot (N)`).
    pub seats: [String; 4],
    /// The result.
    pub result: GameResult,
    /// Both teams' points.
    pub points: [u32; 2],
    /// Deals played (thrown-in ones included).
    pub deals: u32,
    /// Fuel used by each seat.
    pub fuel: [u64; 4],
    /// Invocations of each seat.
    pub invocations: [u32; 4],
    /// Failures of each seat, by kind.
    pub failures: [BTreeMap<String, u64>; 4],
    /// Every invocation.
    pub log: Vec<InvocationRecord>,
    /// The human log: deals, bids, tricks, scores.
    pub human_log: Vec<String>,
    /// What each seat left in its directory (its memory file).
    pub scratch: Vec<(usize, Vec<SnapshotEntry>)>,
}

/// Play one game; `players[seat]` plays each seat (partners are seats 0 & 2 and 1 & 3).
pub fn play(setup: &GameSetup, players: [&dyn Player; 4]) -> GameRecord {
    let seats: [String; 4] =
        std::array::from_fn(|s| format!("{} ({})", players[s].name(), SEATS[s]));
    let names: [&str; 4] = std::array::from_fn(|s| seats[s].as_str());
    let mut dirs: [Vfs; 4] = std::array::from_fn(|_| Vfs::new(setup.vfs));
    let mut game = Game::new(setup.config, ChaCha8Rng::seed_from_u64(setup.deck_seed));
    let mut rec = GameRecord {
        seats: seats.clone(),
        result: GameResult::Drawn,
        points: [0; 2],
        deals: 0,
        fuel: [0; 4],
        invocations: [0; 4],
        failures: Default::default(),
        log: Vec::new(),
        human_log: vec![format!(
            "--- {} & {} against {} & {}, first to {}",
            names[0], names[2], names[1], names[3], setup.config.target
        )],
        scratch: Vec::new(),
    };
    rec.human_log
        .extend(game.events().iter().map(|e| e.describe(names)));
    let mut n: u32 = 0;
    while let (Some(decision), Some(input)) = (game.decision(), game.input()) {
        let seat = decision.seat;
        let inv = Invocation {
            args: Vec::new(),
            stdin: input.clone().into_bytes(),
            seed: crate::seed::derive(
                setup.root_seed,
                "euchre/invocation",
                &[setup.index, seat as u64, n as u64],
            ),
            // Each invocation starts a virtual second after the previous one in this game.
            clock_start_ns: (setup.index * 100_000 + n as u64) * 1_000_000_000,
            limits: setup.limits,
        };
        let report = players[seat].invoke(&inv, Some(&mut dirs[seat]));
        rec.fuel[seat] += report.fuel_used;
        rec.invocations[seat] += 1;
        let stdout = String::from_utf8_lossy(&report.stdout).into_owned();
        let mut entry = InvocationRecord {
            n,
            seat,
            bot: players[seat].name().to_string(),
            phase: decision.kind.phase().to_string(),
            stdin: input,
            outcome: report.outcome.clone(),
            stdout,
            answer: String::new(),
            failure: None,
            fuel_used: report.fuel_used,
            // Kept whenever there is any: it is how a bot author sees what the bot saw.
            stderr_tail: stderr_tail(&report.stderr, STDERR_TAIL),
            events: Vec::new(),
        };
        n += 1;
        if let Outcome::HostFault(why) = &report.outcome {
            rec.human_log.push(format!(
                "host fault while {} decided: {why}; the game is void",
                names[seat]
            ));
            rec.result = GameResult::Void {
                reason: format!("{}: {why}", names[seat]),
            };
            rec.log.push(entry);
            break;
        }
        let response = if report.outcome.is_ok() {
            game.respond(&report.stdout)
        } else {
            game.respond_default(format!("the invocation ended with {}", report.outcome))
        };
        let Some(response) = response else {
            // Not reachable: a decision was due. Stop rather than loop.
            break;
        };
        let failure = if !report.outcome.is_ok() {
            Some(Failure::Crash(report.outcome.clone()))
        } else {
            response
                .rejected
                .as_ref()
                .map(|bad| Failure::BadAnswer(bad.to_string()))
        };
        // A trick report's output is ignored, but a crash there is still the bot's failure.
        if let Some(f) = &failure {
            *rec.failures[seat].entry(f.kind().to_string()).or_default() += 1;
            if decision.kind == Kind::Trick {
                rec.human_log.push(format!(
                    "{}'s trick report ended with {}",
                    names[seat], report.outcome
                ));
            }
        }
        entry.answer = response.answer.token();
        entry.failure = failure;
        entry.events = response.events.iter().map(|e| e.describe(names)).collect();
        rec.human_log.extend(entry.events.iter().cloned());
        rec.log.push(entry);
    }
    rec.points = game.points();
    rec.deals = game.deals();
    match (&rec.result, game.outcome()) {
        (GameResult::Void { .. }, _) => {}
        (_, Some(GameOutcome::Won { team })) => rec.result = GameResult::Won { team },
        (_, _) => rec.result = GameResult::Drawn,
    }
    rec.scratch = dirs
        .iter()
        .enumerate()
        .filter(|(_, d)| d.used_nodes() > 0)
        .map(|(s, d)| (s, d.snapshot()))
        .collect();
    rec
}
