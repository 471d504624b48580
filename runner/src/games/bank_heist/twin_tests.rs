//! Bank Heist's referee (`koth-referee-bank-heist`) against the built-in driver: the same
//! tournament (G, rabble and dice from the same seed), the same players, decision for
//! decision. Players here are plain Rust that bet and answer by a hash of their arguments,
//! and now and then crash or print something that is not a bet, so that every reading of a
//! decision is compared.

use super::driver::{self, TournamentSetup};
use super::rules::Variant;
use crate::games::{fnv, Player};
use crate::referee::host::MatchHost;
use crate::referee::shape::GameShape;
use crate::referee::{Native, Referee};
use crate::sandbox::{Invocation, Limits, Outcome, Report, Vfs};
use koth_referee::{MatchSetup, Seat, Value};
use koth_referee_bank_heist::{BankHeistReferee, GAMES, RULES};
use std::sync::Arc;

/// A player that decides by a hash of its arguments; one in `mischief` of its decisions
/// (none when 0) crashes or babbles instead.
struct Hashed {
    name: &'static str,
    mischief: u64,
}

impl Player for Hashed {
    fn name(&self) -> &str {
        self.name
    }

    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        assert!(dir.is_none(), "a Bank Heist bot gets no directory");
        let argv: Vec<String> = inv
            .args
            .iter()
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let h = fnv(&[self.name.as_bytes(), argv.join("|").as_bytes()]);
        let credits: u64 = argv[8].parse().unwrap_or(0);
        let mut stdout = if argv[1] == "1" {
            // Mostly small bets, now and then all of it or more.
            match h % 4 {
                0 => "0".to_string(),
                1 => (credits / 10).to_string(),
                2 => format!(" {}\n", credits / 3),
                _ => (credits + (h >> 8) % 500).to_string(),
            }
        } else {
            let answers = koth_rules::bank_heist::Answer::ALL;
            answers[((h >> 4) % answers.len() as u64) as usize]
                .as_str()
                .to_string()
        };
        let mut outcome = Outcome::Ok;
        let mut stderr = Vec::new();
        if self.mischief > 0 && (h >> 16).is_multiple_of(self.mischief) {
            stderr = format!("{} misbehaves\n", self.name).into_bytes();
            match (h >> 32) % 3 {
                0 => stdout = "lots".into(),
                1 => outcome = Outcome::Exit(3),
                _ => outcome = Outcome::OutOfFuel,
            }
        }
        Report {
            outcome,
            fuel_used: h % 1000,
            stdout: stdout.into_bytes(),
            stderr,
            stderr_dropped: 0,
        }
    }
}

/// Play one tournament both ways and compare everything the two record.
fn compare(players: &[Arc<dyn Player>], seed: u64, games: u32, variant: Variant) -> Vec<String> {
    // What it returns: every answer taken and every failure kind counted.
    let (games, rules_seed) =
        koth_referee_bank_heist::tournament_seeds(seed, Some(i64::from(games)));
    let limits = Limits::default();
    let setup = TournamentSetup {
        index: 0,
        games,
        rules_seed,
        root_seed: 1,
        limits,
        variant,
    };
    let refs: Vec<&dyn Player> = players.iter().map(|p| p.as_ref()).collect();
    let rec = driver::play(&setup, &refs);

    let referee = Native::new(BankHeistReferee);
    let host = MatchHost::new(
        Arc::new(GameShape::of(referee.description())),
        players.to_vec(),
        (0..players.len()).map(|s| vec![s]).collect(),
        None,
        limits,
        seed,
    );
    let setup = MatchSetup {
        round: 0,
        paired: false,
        seats: players
            .iter()
            .enumerate()
            .map(|(s, p)| Seat {
                bot: p.name().to_string(),
                team: s as u32,
            })
            .collect(),
        options: vec![
            (GAMES.into(), Value::Integer(i64::from(games))),
            (RULES.into(), Value::Text(variant.name().into())),
        ],
        seed,
    };
    let (host, result) = referee.play(&setup, host);
    let m = host.finish(result);
    let at = format!("seed {seed}, {variant:?}");

    assert_eq!(m.void, None, "{at}");
    assert_eq!(
        std::str::from_utf8(m.human_log.as_log()).unwrap(),
        rec.human_log,
        "{at}"
    );
    let invocations: Vec<u64> = m.invocations.iter().map(|&n| u64::from(n)).collect();
    assert_eq!(invocations, rec.invocations, "{at}");
    assert_eq!(m.fuel, rec.fuel, "{at}");
    assert_eq!(m.failures, rec.failures, "{at}");
    assert_eq!(m.log.len(), rec.log.len(), "{at}");
    for (r, l) in m.log.iter().zip(&rec.log) {
        assert_eq!(r.bot, l.bot, "{at}");
        assert_eq!(r.args.join(" "), l.args, "{at}");
        assert_eq!(
            r.phase,
            koth_referee_bank_heist::phase(round(l.round)),
            "{at}"
        );
        assert_eq!(r.outcome, l.outcome, "{at}");
        assert_eq!(r.stdout, l.stdout, "{at}");
        assert_eq!(r.answer, l.decision, "{at}");
        assert_eq!(
            r.failure
                .as_ref()
                .map(|f| (f.kind.as_str(), f.detail.clone())),
            l.failure.as_ref().map(|f| (f.kind(), f.why())),
            "{at}"
        );
    }
    let credits: Vec<u64> = rec.bots.iter().map(|b| b.credits).collect();
    assert_eq!(m.scores, credits, "{at}");
    assert_eq!(m.detail["games"], games, "{at}");
    for (b, state) in rec.bots.iter().enumerate() {
        let d = &m.detail["bots"][b];
        assert_eq!(d["bot"], players[b].name(), "{at}");
        assert_eq!(d["balance"], serde_json::json!(state.balance), "{at}");
        assert_eq!(d["paycheck"], state.paycheck, "{at}");
        assert_eq!(d["employed"], state.employed, "{at}");
        assert_eq!(d["guards"], state.guards, "{at}");
        assert_eq!(
            d["probability"],
            serde_json::json!(state.probability),
            "{at}"
        );
        assert_eq!(d["odds"], serde_json::json!(state.odds), "{at}");
    }
    m.log
        .iter()
        .map(|r| r.answer.clone())
        .chain(m.failures.iter().flat_map(|f| f.keys().cloned()))
        .collect()
}

fn round(n: u8) -> koth_rules::bank_heist::Round {
    if n == 1 {
        koth_rules::bank_heist::Round::One
    } else {
        koth_rules::bank_heist::Round::Two
    }
}

#[test]
fn the_referee_plays_the_drivers_tournaments_decision_for_decision() {
    let players: Vec<Arc<dyn Player>> = vec![
        Arc::new(Hashed {
            name: "ada",
            mischief: 0,
        }),
        Arc::new(Hashed {
            name: "bo",
            mischief: 0,
        }),
        Arc::new(Hashed {
            name: "rogue",
            mischief: 7,
        }),
    ];
    let mut answers = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let variant = Variant::ALL[(seed % 2) as usize];
        answers.extend(compare(&players, seed, 40, variant));
    }
    // Every round-2 answer was read both ways at least once, and bets of every size.
    for a in koth_rules::bank_heist::Answer::ALL {
        assert!(
            answers.contains(a.as_str()),
            "{} never answered",
            a.as_str()
        );
    }
    assert!(answers.iter().filter(|a| a.starts_with("bet ")).count() > 50);
    // The rogue's three kinds of mischief each happened.
    for kind in ["exit", "fuel", "not a bet"] {
        assert!(answers.contains(kind), "no {kind} failure");
    }
}
