//! The records of Bank Heist's built-in driver, which played `koth bank-heist` before its
//! referee (archives without the game's shape in their manifest), and its tournaments played
//! again.
//!
//! Those archives hold the driver's records: `koth report` and `replay` read them, and `koth
//! verify` re-plays them. The referee plays the driver's tournaments decision for decision
//! once given their G and rules' seed, so [`play`] plays one through it
//! ([`koth_referee_bank_heist::play_tournament`]), with the driver's seeds (a
//! [`crate::games::witness::Witness`] in front of each bot), and writes the driver's record.
//! As the driver did, it asks the bots in the order given, every decision an invocation with
//! the spec's 31 arguments and no directory.

use super::rules::{Person, Variant};
use crate::games::witness::{Seen, Sightings, Witness};
use crate::games::{stderr_tail, Player};
use crate::referee::host::MatchHost;
use crate::referee::record::MatchRecord;
use crate::referee::shape::GameShape;
use crate::sandbox::{Limits, Outcome};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bytes of stderr kept per failed invocation in the structured log.
const STDERR_TAIL: usize = 512;

/// What identifies one tournament and seeds it.
#[derive(Debug, Clone, Copy)]
pub struct TournamentSetup {
    /// Its index in the run.
    pub index: u32,
    /// Games G.
    pub games: u32,
    /// Seed of the rules' generator (rabble, orders, dice).
    pub rules_seed: u64,
    /// The run's seed, for the bots' `random_get` streams.
    pub root_seed: u64,
    /// Limits of every invocation.
    pub limits: Limits,
    /// The rules the tournament follows.
    pub variant: Variant,
}

/// Why a decision fell back to the default.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Failure {
    /// The invocation did not end `ok`.
    Crash(Outcome),
    /// Round 1: the output is not an integer (as the rules' variant reads one).
    NotABet(String),
}

impl Failure {
    /// A short stable name of the kind, for the leaderboard's counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Crash(o) => crate::games::crash_kind(o),
            Failure::NotABet(_) => koth_referee_bank_heist::NOT_A_BET,
        }
    }

    /// Why, in the words of the human log (the referee's failure detail).
    pub fn why(&self) -> String {
        match self {
            Failure::Crash(o) => format!("the invocation ended with {o}"),
            Failure::NotABet(text) => format!("printed {text:?}, not an integer"),
        }
    }
}

/// One invocation, as the structured log records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InvocationRecord {
    /// Tournament index.
    pub tournament: u32,
    /// Game number.
    pub game: u32,
    /// Round (1 or 2).
    pub round: u8,
    /// Bot name.
    pub bot: String,
    /// The 31 arguments, space-separated.
    pub args: String,
    /// How the invocation ended.
    pub outcome: Outcome,
    /// What it printed on stdout (lossy UTF-8).
    pub stdout: String,
    /// The decision taken: `bet N` or the answer.
    pub decision: String,
    /// Why the default was taken, if it was.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub failure: Option<Failure>,
    /// Fuel used.
    pub fuel_used: u64,
    /// The end of its stderr, for failed invocations.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub stderr_tail: String,
}

/// A bot's state at the end of a tournament, beside its credits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinalState {
    /// Credits (the score).
    pub credits: u64,
    /// Account balances at banks 0–4 (not counted in the score).
    pub balance: [u64; 5],
    /// Paycheck.
    pub paycheck: u64,
    /// Employed at the end.
    pub employed: bool,
    /// Guards it pays.
    pub guards: usize,
    /// Victory probabilities at banks 0–4.
    pub probability: [f64; 5],
    /// Odds at banks 0–4.
    pub odds: [f64; 5],
}

impl From<&Person> for FinalState {
    fn from(p: &Person) -> Self {
        FinalState {
            credits: p.credits,
            balance: p.balance,
            paycheck: p.paycheck(),
            employed: p.employed,
            guards: p.guards(),
            probability: p.probability,
            odds: p.odds,
        }
    }
}

/// Everything about one played tournament.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentRecord {
    /// Its index in the run.
    pub index: u32,
    /// Games G.
    pub games: u32,
    /// Bot names, in seat order.
    pub names: Vec<String>,
    /// Each bot's state at the end.
    pub bots: Vec<FinalState>,
    /// Fuel used by each bot.
    pub fuel: Vec<u64>,
    /// Invocations of each bot.
    pub invocations: Vec<u64>,
    /// Failures of each bot, by kind.
    pub failures: Vec<BTreeMap<String, u64>>,
    /// `Some(reason)` if a host fault stopped the tournament.
    pub void: Option<String>,
    /// Every invocation.
    pub log: Vec<InvocationRecord>,
    /// The seed's human log.
    pub human_log: String,
}

/// Play one tournament between `players` (every bot in every game) as the driver did,
/// through Bank Heist's referee (which plays the driver's tournaments decision for decision),
/// and write the driver's record of it.
pub fn play(setup: &TournamentSetup, players: &[Arc<dyn Player>]) -> TournamentRecord {
    let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
    let (root, index) = (setup.root_seed, setup.index);
    let seen = Sightings::default();
    let seats = Witness::seats(
        players,
        Arc::new(move |seat, _, args| {
            // The driver's seed names the game and the round, the first two arguments.
            let arg = |i: usize| {
                args.get(i)
                    .and_then(|a| std::str::from_utf8(a).ok()?.parse::<u64>().ok())
                    .unwrap_or_default()
            };
            crate::seed::derive(
                root,
                "bank-heist/invocation",
                &[u64::from(index), arg(0), arg(1), seat as u64],
            )
        }),
        &seen,
    );
    let referee = super::referee();
    let mut host = MatchHost::new(
        Arc::new(GameShape::of(referee.description())),
        seats,
        (0..players.len()).map(|s| vec![s]).collect(),
        None,
        setup.limits,
        setup.rules_seed,
    );
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let played = koth_referee_bank_heist::play_tournament(
        setup.games,
        setup.rules_seed,
        setup.variant,
        &refs,
        &mut host,
    );
    let (result, bots) = match played {
        Ok((result, t)) => (Ok(result), t.bots().iter().map(FinalState::from).collect()),
        Err(abort) => (Err(abort), Vec::new()),
    };
    let m = host.finish(result);
    record(setup, names, bots, &m, &seen.take())
}

/// The driver's record of a tournament its referee played: `bots` are their states at the
/// end, `seen` what the witnesses saw of each decision.
fn record(
    setup: &TournamentSetup,
    names: Vec<String>,
    bots: Vec<FinalState>,
    m: &MatchRecord,
    seen: &[Seen],
) -> TournamentRecord {
    let mut failures = vec![BTreeMap::new(); names.len()];
    let mut log: Vec<InvocationRecord> = Vec::with_capacity(m.log.len());
    for (k, r) in m.log.iter().enumerate() {
        let arg = |i: usize| {
            r.args
                .get(i)
                .and_then(|a| a.parse().ok())
                .unwrap_or_default()
        };
        let failure = r.failure.as_ref().map(|_| match &r.outcome {
            Outcome::Ok => Failure::NotABet(koth_referee_bank_heist::shown(&r.stdout)),
            crashed => Failure::Crash(crashed.clone()),
        });
        if let (Some(f), Some(counts)) = (&failure, failures.get_mut(r.seat as usize)) {
            *counts.entry(f.kind().to_string()).or_insert(0) += 1;
        }
        let fault = matches!(r.outcome, Outcome::HostFault(_));
        log.push(InvocationRecord {
            tournament: setup.index,
            game: arg(0),
            round: arg(1) as u8,
            bot: r.bot.clone(),
            args: r.args.join(" "),
            outcome: r.outcome.clone(),
            stdout: r.stdout.clone(),
            decision: if fault {
                "none".into()
            } else {
                r.answer.clone()
            },
            stderr_tail: if failure.is_some() || fault {
                stderr_tail(&Seen::at(seen, k).stderr, STDERR_TAIL)
            } else {
                String::new()
            },
            failure,
            fuel_used: r.fuel_used,
        });
    }
    let mut human_log = String::from_utf8_lossy(m.human_log.as_log()).into_owned();
    let void = m.void.as_ref().map(|void| match log.last() {
        Some(InvocationRecord {
            outcome: Outcome::HostFault(why),
            bot,
            game,
            round,
            ..
        }) => {
            let reason = format!("{bot} (game {game}, round {round}): {why}");
            human_log.push_str(&format!(
                "host fault: {reason}; the tournament is void and counts for nobody\n"
            ));
            reason
        }
        _ => void.clone(),
    });
    TournamentRecord {
        index: setup.index,
        games: setup.games,
        names,
        bots,
        fuel: m.fuel.clone(),
        invocations: m.invocations.iter().map(|&n| u64::from(n)).collect(),
        failures,
        void,
        log,
        human_log,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::{Invocation, Report, Vfs};

    /// A scripted player: answers from a function of argv; `Err` outcomes stand for crashes.
    struct Scripted<F>(&'static str, F);

    impl<F: Fn(&[String]) -> Result<String, Outcome> + Send + Sync> Player for Scripted<F> {
        fn name(&self) -> &str {
            self.0
        }

        fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
            assert!(dir.is_none(), "a Bank Heist bot gets no directory");
            let args: Vec<String> = inv
                .args
                .iter()
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            let (outcome, stdout) = match (self.1)(&args) {
                Ok(s) => (Outcome::Ok, s.into_bytes()),
                Err(o) => (o, b"1000".to_vec()),
            };
            Report {
                outcome,
                fuel_used: 7,
                stdout,
                stderr: b"oops".to_vec(),
                stderr_dropped: 0,
            }
        }
    }

    fn setup(games: u32) -> TournamentSetup {
        TournamentSetup {
            index: 0,
            games,
            rules_seed: 3,
            root_seed: 1,
            limits: Limits::default(),
            variant: Variant::Text,
        }
    }

    #[test]
    fn failures_cost_a_zero_bet_or_keep_and_are_logged() {
        let lurker = Scripted("lurker", |_: &[String]| Ok("0\n".to_string()));
        let crasher = Scripted("crasher", |_: &[String]| Err(Outcome::OutOfFuel));
        let babbler = Scripted("babbler", |a: &[String]| {
            Ok(if a[1] == "1" {
                "lots".into()
            } else {
                "all in".into()
            })
        });
        let players: Vec<Arc<dyn Player>> =
            vec![Arc::new(lurker), Arc::new(crasher), Arc::new(babbler)];
        let rec = play(&setup(20), &players);
        assert_eq!(rec.void, None);
        // Nobody ever bets, so everyone ends with 240 * (G + 1).
        assert!(rec.bots.iter().all(|b| b.credits == 240 * 21));
        assert_eq!(rec.invocations, vec![20, 20, 20]);
        assert_eq!(rec.fuel, vec![140, 140, 140]);
        assert_eq!(rec.failures[1].get("fuel"), Some(&20));
        assert_eq!(rec.failures[2].get("not a bet"), Some(&20));
        assert!(rec.failures[0].is_empty());
        let crash = rec.log.iter().find(|l| l.bot == "crasher").unwrap();
        assert_eq!(crash.decision, "bet 0");
        assert_eq!(crash.stderr_tail, "oops");
        assert!(rec
            .human_log
            .contains("(crasher: the invocation ended with out of fuel; counted as bet 0)"));
        assert!(rec.human_log.contains("#####GAME 19: "));
        assert!(rec
            .human_log
            .contains("\nResults:\n0. babbler: 5040\n1. crasher: 5040\n2. lurker: 5040\n"));
    }

    #[test]
    fn round_two_reads_the_answer_and_a_crash_keeps_the_bet() {
        let bettor = Scripted("bettor", |a: &[String]| {
            Ok(if a[1] == "1" {
                "100".into()
            } else {
                " back out \n".into()
            })
        });
        let keeper = Scripted("keeper", |a: &[String]| {
            if a[1] == "1" {
                Ok("100".into())
            } else {
                Err(Outcome::Exit(3))
            }
        });
        let players: Vec<Arc<dyn Player>> = vec![Arc::new(bettor), Arc::new(keeper)];
        let rec = play(&setup(3), &players);
        let answers: Vec<&str> = rec
            .log
            .iter()
            .filter(|l| l.round == 2)
            .map(|l| l.decision.as_str())
            .collect();
        assert_eq!(answers.iter().filter(|a| **a == "back out").count(), 3);
        assert_eq!(answers.iter().filter(|a| **a == "!guncheck").count(), 3);
        assert_eq!(rec.failures[1].get("exit"), Some(&3));
        assert!(rec.human_log.contains("bettor decided to back out."));
        assert!(rec.human_log.contains("keeper decided to !guncheck."));
    }

    #[test]
    fn a_host_fault_voids_the_tournament_loudly() {
        let faulty = Scripted("faulty", |a: &[String]| {
            if a[0] == "2" {
                Err(Outcome::HostFault("backstop".into()))
            } else {
                Ok("0".into())
            }
        });
        let players: Vec<Arc<dyn Player>> = vec![Arc::new(faulty)];
        let rec = play(&setup(10), &players);
        assert_eq!(
            rec.void.as_deref(),
            Some("faulty (game 2, round 1): backstop")
        );
        assert_eq!(rec.invocations, vec![3]);
        assert!(rec.human_log.contains("the tournament is void"));
    }
}
