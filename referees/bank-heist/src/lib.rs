//! Bank Heist as a koth referee (`docs/games/bank-heist.md`): one tournament of G games of
//! the `koth-rules` crate, every bot in every game beside the host's 500 rabble, played
//! through a [`koth_referee::Host`] with one invocation per decision.
//!
//! The same referee runs two ways: as a WebAssembly component
//! (`referees/bank-heist/component`, played by `koth play bank_heist_referee.wasm`), and
//! natively, as `koth bank-heist` plays it. Given a tournament's G and rules' seed
//! ([`play_tournament`]) it plays the tournaments of the built-in driver that came before it
//! decision for decision, and koth re-plays that driver's archives through it.
//!
//! A match is one tournament. Each decision gets the spec's 31 arguments and no directory
//! at all; the answer is read from stdout. A failure never costs more than that decision: in
//! round 1 it bets 0, in round 2 it keeps the bet, and the verdict records why. Each
//! verdict's answer is the decision taken (`bet N`, or the round-2 answer). The human log
//! is the seed contest's, a few lines per game; the match's detail keeps every bot's state at
//! the end (credits, balances, paycheck, job, guards, probabilities and odds).

#![warn(missing_docs)]

mod human_log;

pub use human_log::HumanLog;

use koth_referee::{
    json_string, Abort, DecisionRequest, Description, Failure, Format, Host, MatchResult,
    MatchSetup, OptionSpec, Referee, Scoring, SeatResult, Seating, Value, Verdict,
};
use koth_rules::bank_heist::{Answer, Event, Person, Response, Round, Tournament, Variant};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The game's name in manifests and on the command line.
pub const NAME: &str = "bank-heist";

/// The option that fixes the games of a tournament (0: drawn from 1000..=1100).
pub const GAMES: &str = "games";

/// The option that picks whose arithmetic the tournament follows (`text` or `original`).
pub const RULES: &str = "rules";

/// The most games a tournament may be asked to play.
pub const MAX_GAMES: i64 = 100_000;

/// Tournaments (rounds) unless `--rounds` says otherwise.
pub const ROUNDS: u32 = 1;

/// Characters of a bot's output a failure's detail quotes.
const QUOTED_OUTPUT: usize = 80;

/// Bank Heist's referee.
#[derive(Debug, Clone, Copy, Default)]
pub struct BankHeistReferee;

impl Referee for BankHeistReferee {
    fn protocol(&self) -> String {
        include_str!("protocol.txt").into()
    }

    fn describe(&self) -> Description {
        Description {
            name: NAME.into(),
            summary: "Bank Heist: every bot in every game of a 1000-game tournament, beside \
                      500 host-side rabble; 31 arguments in, a bet or an answer out"
                .into(),
            seating: Seating::Everyone,
            seat_names: Vec::new(),
            teams: Vec::new(),
            partners: Vec::new(),
            formats: vec![Format::AllPlayAll],
            rounds: ROUNDS,
            paired: false,
            directory: None,
            options: vec![
                OptionSpec {
                    name: GAMES.into(),
                    description: "games per tournament; 0 draws each tournament's from \
                                  1000..=1100"
                        .into(),
                    default: Value::Integer(0),
                    min: Some(0),
                    max: Some(MAX_GAMES),
                    choices: Vec::new(),
                },
                OptionSpec {
                    name: RULES.into(),
                    description: "whose arithmetic: the contest's text, or its author's \
                                  controller, which gave the published standings"
                        .into(),
                    default: Value::Text(Variant::Text.name().into()),
                    min: None,
                    max: None,
                    choices: Variant::ALL.iter().map(|v| v.name().to_string()).collect(),
                },
            ],
            scoring: Scoring {
                score_name: Some("credits".into()),
                matches: "tournaments".into(),
                spread: true,
                points: false,
            },
        }
    }

    fn play(&self, setup: &MatchSetup, host: &mut dyn Host) -> Result<MatchResult, Abort> {
        let variant = match setup.text(RULES) {
            None => Variant::Text,
            Some(name) => Variant::from_name(name)
                .ok_or_else(|| Abort::new(format!("no rules named {name:?}")))?,
        };
        let (games, rules_seed) = tournament_seeds(setup.seed, setup.integer(GAMES));
        let names: Vec<&str> = setup.seats.iter().map(|s| s.bot.as_str()).collect();
        play_tournament(games, rules_seed, variant, &names, host).map(|(result, _)| result)
    }
}

/// One tournament of `names`, in that order of seats, with G and the rules' seed given:
/// what [`BankHeistReferee`] plays once it has drawn them from the match's seed. It hands
/// back the tournament as it ended, with every bot's state. (koth re-plays through it the
/// tournaments of its old built-in driver, which drew G and the seed another way.)
pub fn play_tournament(
    games: u32,
    rules_seed: u64,
    variant: Variant,
    names: &[&str],
    host: &mut dyn Host,
) -> Result<(MatchResult, Tournament), Abort> {
    let mut t = Tournament::new(names.len(), games, rules_seed).with_variant(variant);
    let mut log = HumanLog::new(names);
    while let Some(ask) = t.pending() {
        let events = t.take_events();
        log.events(&events);
        // One host call per game for the log (a call per decision cost the component
        // a third of its host calls): the lines so far go when a game starts.
        if events.iter().any(|e| matches!(e, Event::GameStart { .. })) {
            if let Some(text) = log.take() {
                host.log(&text)?;
            }
        }
        let round = ask.args.round;
        let report = host.decide(DecisionRequest {
            seat: ask.bot as u32,
            phase: phase(round).into(),
            args: ask.args.to_argv(),
            stdin: Vec::new(),
        })?;
        let (response, failure) = if report.outcome.is_ok() {
            read(
                variant,
                round,
                &String::from_utf8_lossy(&report.stdout),
                ask.args.credits,
            )
        } else {
            (
                default(round),
                Some(Failure {
                    kind: report.outcome.kind().into(),
                    detail: format!("the invocation ended with {}", report.outcome),
                }),
            )
        };
        let answer = decision(response);
        if let Some(f) = &failure {
            log.failure(ask.bot, &f.detail, &answer);
        }
        host.judge(Verdict {
            answer,
            failure,
            events: Vec::new(),
        })?;
        t.respond(response);
    }
    log.events(&t.take_events());
    if let Some(text) = log.take() {
        host.log(&text)?;
    }
    Ok((result(games, variant, names, t.bots()), t))
}

/// A tournament's games (fixed by the option when it is above 0, else drawn from
/// 1000..=1100) and its rules' seed, both from the match's seed.
pub fn tournament_seeds(seed: u64, games: Option<i64>) -> (u32, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // Both are drawn whatever the option says, so that fixing G leaves the rabble and dice
    // of a tournament as they were.
    let drawn = Tournament::draw_games(rng.next_u64());
    let rules_seed = rng.next_u64();
    let games = match games.and_then(|g| u32::try_from(g).ok()) {
        Some(g) if g > 0 => g,
        _ => drawn,
    };
    (games, rules_seed)
}

/// A decision's phase: `bet` in round 1, `heist` in round 2.
pub fn phase(round: Round) -> &'static str {
    match round {
        Round::One => "bet",
        Round::Two => "heist",
    }
}

/// What a decision the rules cannot read counts as: a bet of 0 in round 1, keeping the bet
/// in round 2.
pub fn default(round: Round) -> Response {
    match round {
        Round::One => Response::Bet(0),
        Round::Two => Response::Answer(Answer::Keep),
    }
}

/// Read what a bot printed (an invocation that ended `ok`) under `variant`'s rules: the
/// response, and why the default was taken where it was (round 1's output not a bet). In
/// round 2 any text is an answer: what is not one of the named answers keeps the bet.
pub fn read(
    variant: Variant,
    round: Round,
    stdout: &str,
    credits: u64,
) -> (Response, Option<Failure>) {
    match round {
        Round::One => match variant.read_bet(stdout, credits) {
            Some(bet) => (Response::Bet(bet), None),
            None => (
                Response::Bet(0),
                Some(Failure {
                    kind: NOT_A_BET.into(),
                    detail: format!("printed {:?}, not an integer", shown(stdout)),
                }),
            ),
        },
        Round::Two => (Response::Answer(Answer::parse(stdout)), None),
    }
}

/// What a failure quotes of a bot's output: its first characters, trimmed.
pub fn shown(stdout: &str) -> String {
    stdout.trim().chars().take(QUOTED_OUTPUT).collect()
}

/// The failure kind of a round-1 output that is not an integer.
pub const NOT_A_BET: &str = "not a bet";

/// A response as a verdict's answer and the logs write it: `bet N`, or the answer.
pub fn decision(response: Response) -> String {
    match response {
        Response::Bet(b) => format!("bet {b}"),
        Response::Answer(a) => a.as_str().to_string(),
    }
}

/// The match's result: each seat's score is its credits at the end, the winners those with
/// the most; the detail keeps G, the rules and every bot's state at the end.
fn result(games: u32, variant: Variant, names: &[&str], bots: &[Person]) -> MatchResult {
    let best = bots.iter().map(|b| b.credits).max().unwrap_or(0);
    let mut detail = format!(
        "{{\"games\":{games},\"rules\":{},\"bots\":[",
        json_string(variant.name())
    );
    for (i, (name, b)) in names.iter().zip(bots).enumerate() {
        if i > 0 {
            detail.push(',');
        }
        let _ = write!(
            detail,
            "{{\"bot\":{},\"credits\":{},\"balance\":{},\"paycheck\":{},\"employed\":{},\
             \"guards\":{},\"probability\":{},\"odds\":{}}}",
            json_string(name),
            b.credits,
            list(b.balance.iter()),
            b.paycheck(),
            b.employed,
            b.guards(),
            list(b.probability.iter().map(|&p| finite(p))),
            list(b.odds.iter().map(|&o| finite(o))),
        );
    }
    detail.push_str("]}");
    MatchResult {
        seats: bots
            .iter()
            .map(|b| SeatResult {
                score: b.credits,
                points_for: 0,
                points_against: 0,
            })
            .collect(),
        winners: (0..bots.len() as u32)
            .filter(|&s| bots[s as usize].credits == best)
            .collect(),
        detail,
    }
}

/// A float as JSON can hold it (the rules never make one that is not finite).
fn finite(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// `[a,b,...]`.
fn list<T: std::fmt::Display>(items: impl Iterator<Item = T>) -> String {
    let mut s = String::from("[");
    for (i, x) in items.enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{x}");
    }
    s.push(']');
    s
}

#[cfg(test)]
mod tests;
