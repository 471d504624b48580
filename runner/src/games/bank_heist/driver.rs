//! One Bank Heist tournament through the sandbox: every decision is an invocation with the
//! spec's 31 arguments, no directory at all, and the answer read from stdout.
//!
//! A failure never stops the tournament: in round 1 it counts as a bet of 0, in round 2 as
//! "keep the bet", and it is logged with its outcome. Only a host fault (the wall-clock
//! backstop, which fuel should make impossible) stops it, and the tournament is then void.

use super::rules::{Person, Response, Round, Tournament, Variant};
use crate::games::{stderr_tail, Player};
use crate::sandbox::{Invocation, Limits, Outcome};
use koth_referee_bank_heist::HumanLog;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// Play one tournament between `players` (every bot in every game).
pub fn play(setup: &TournamentSetup, players: &[&dyn Player]) -> TournamentRecord {
    let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
    let n = players.len();
    let mut t = Tournament::new(n, setup.games, setup.rules_seed).with_variant(setup.variant);
    let mut rec = TournamentRecord {
        index: setup.index,
        games: setup.games,
        names: names.clone(),
        bots: Vec::new(),
        fuel: vec![0; n],
        invocations: vec![0; n],
        failures: vec![BTreeMap::new(); n],
        void: None,
        log: Vec::new(),
        human_log: String::new(),
    };
    let name_refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut human = HumanLog::new(&name_refs);
    let mut count: u64 = 0;
    while let Some(ask) = t.pending() {
        human.events(&t.take_events());
        let args = ask.args.to_argv();
        let round = ask.args.round;
        let inv = Invocation {
            args: args.iter().map(|a| a.as_bytes().to_vec()).collect(),
            stdin: Vec::new(),
            seed: crate::seed::derive(
                setup.root_seed,
                "bank-heist/invocation",
                &[
                    setup.index as u64,
                    ask.args.game as u64,
                    round.number() as u64,
                    ask.bot as u64,
                ],
            ),
            // Each invocation starts a virtual second after the previous one.
            clock_start_ns: count.saturating_mul(1_000_000_000),
            limits: setup.limits,
        };
        count += 1;
        // No directory at all: the rules forbid files.
        let report = players[ask.bot].invoke(&inv, None);
        rec.fuel[ask.bot] += report.fuel_used;
        rec.invocations[ask.bot] += 1;
        let stdout = String::from_utf8_lossy(&report.stdout).into_owned();
        if let Outcome::HostFault(why) = &report.outcome {
            let reason = format!(
                "{} (game {}, round {}): {why}",
                names[ask.bot],
                ask.args.game,
                round.number()
            );
            human.line(&format!(
                "host fault: {reason}; the tournament is void and counts for nobody"
            ));
            rec.void = Some(reason);
            rec.log.push(InvocationRecord {
                tournament: setup.index,
                game: ask.args.game,
                round: round.number(),
                bot: names[ask.bot].clone(),
                args: args.join(" "),
                outcome: report.outcome.clone(),
                stdout,
                decision: "none".into(),
                failure: None,
                fuel_used: report.fuel_used,
                stderr_tail: stderr_tail(&report.stderr, STDERR_TAIL),
            });
            break;
        }
        let (response, failure) = decide(
            setup.variant,
            round,
            &report.outcome,
            &stdout,
            ask.args.credits,
        );
        let decision = match response {
            Response::Bet(b) => format!("bet {b}"),
            Response::Answer(a) => a.as_str().to_string(),
        };
        if let Some(f) = &failure {
            *rec.failures[ask.bot]
                .entry(f.kind().to_string())
                .or_default() += 1;
            human.failure(ask.bot, &f.why(), &decision);
        }
        rec.log.push(InvocationRecord {
            tournament: setup.index,
            game: ask.args.game,
            round: round.number(),
            bot: names[ask.bot].clone(),
            args: args.join(" "),
            outcome: report.outcome.clone(),
            stdout,
            decision,
            stderr_tail: if failure.is_some() {
                stderr_tail(&report.stderr, STDERR_TAIL)
            } else {
                String::new()
            },
            failure,
            fuel_used: report.fuel_used,
        });
        t.respond(response);
    }
    human.events(&t.take_events());
    rec.bots = t.bots().iter().map(FinalState::from).collect();
    rec.human_log = human.into_text();
    rec
}

/// The decision a bot's invocation comes to under `variant`'s rules: its answer, or the
/// default (bet 0, keep the bet) with the reason. `stdout` is whatever the bot printed, as
/// lossy UTF-8.
pub fn decide(
    variant: Variant,
    round: Round,
    outcome: &Outcome,
    stdout: &str,
    credits: u64,
) -> (Response, Option<Failure>) {
    if !outcome.is_ok() {
        let default = koth_referee_bank_heist::default(round);
        return (default, Some(Failure::Crash(outcome.clone())));
    }
    // The referee reads an answer for both: only the driver's failure type is its own.
    let (response, failure) = koth_referee_bank_heist::read(variant, round, stdout, credits);
    let failure = failure.map(|_| Failure::NotABet(koth_referee_bank_heist::shown(stdout)));
    (response, failure)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::bank_heist::rules::Answer;
    use crate::sandbox::{Report, Vfs};

    /// Bot output is arbitrary bytes: it always comes to a bet within the credits or an
    /// answer, never a panic, and only exact protocol text counts as a named answer.
    #[test]
    fn arbitrary_output_always_comes_to_a_decision() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for _ in 0..20_000 {
            let len = rng.random_range(0..24);
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.random_bool(0.5) {
                        let alphabet = b"0123456789 \n-+.ealuoi";
                        alphabet[rng.random_range(0..alphabet.len())]
                    } else {
                        rng.random()
                    }
                })
                .collect();
            let text = String::from_utf8_lossy(&bytes);
            let credits = rng.random_range(0..1_000_000);
            match decide(Variant::Text, Round::One, &Outcome::Ok, &text, credits) {
                (Response::Bet(b), None) => {
                    assert!(b <= credits);
                    assert!(text.trim().bytes().all(|c| c.is_ascii_digit()));
                }
                (Response::Bet(0), Some(Failure::NotABet(_))) => {}
                other => panic!("{text:?} -> {other:?}"),
            }
            match decide(Variant::Original, Round::One, &Outcome::Ok, &text, credits) {
                (Response::Bet(b), None) => {
                    assert!(b <= credits);
                    let t = text.trim();
                    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
                    assert!(!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()));
                }
                (Response::Bet(0), Some(Failure::NotABet(_))) => {}
                other => panic!("{text:?} -> {other:?}"),
            }
            match decide(Variant::Text, Round::Two, &Outcome::Ok, &text, credits) {
                (Response::Answer(Answer::Keep), None) => {}
                (Response::Answer(a), None) => assert_eq!(a.as_str(), text.trim()),
                other => panic!("{text:?} -> {other:?}"),
            }
        }
        assert_eq!(
            decide(
                Variant::Text,
                Round::Two,
                &Outcome::Trap(crate::sandbox::TrapKind::Unreachable),
                "all in",
                5
            )
            .0,
            Response::Answer(Answer::Keep)
        );
    }

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
        let players: Vec<&dyn Player> = vec![&lurker, &crasher, &babbler];
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
        let players: Vec<&dyn Player> = vec![&bettor, &keeper];
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
        let players: Vec<&dyn Player> = vec![&faulty];
        let rec = play(&setup(10), &players);
        assert_eq!(
            rec.void.as_deref(),
            Some("faulty (game 2, round 1): backstop")
        );
        assert_eq!(rec.invocations, vec![3]);
        assert!(rec.human_log.contains("the tournament is void"));
    }
}
