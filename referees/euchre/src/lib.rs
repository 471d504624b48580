//! Euchre as a koth referee (`docs/games/euchre.md`): the game of the `koth-rules` crate
//! played through a [`koth_referee::Host`], one decision per invocation.
//!
//! The same referee runs two ways with the same archive: built into koth (`koth euchre`
//! wraps it natively) and as a WebAssembly component (`referees/euchre/component`, played
//! by `koth play euchre_referee.wasm`).
//!
//! What it does is what the rules say and nothing more: each decision's stdin is the rules'
//! exact input for that seat; a failed invocation or a bad answer gets the spec's default,
//! recorded with its reason; every answer's events go to the human log and to the
//! decision's verdict (the replay shows the table after each move). Each seat keeps its own
//! 1 KiB directory for the whole game, the bot's memory file: koth gives it, the referee
//! never touches it.

#![warn(missing_docs)]

use koth_referee::{
    Abort, DecisionRequest, Description, Directory, Failure, Format, Host, LogLines, MatchResult,
    MatchSetup, OptionSpec, Partners, Referee, Scoring, SeatResult, Seating, Value, Verdict,
};
use koth_rules::euchre::{team_of, Card, Config, Event, Game, Kind, Outcome, DEFAULT_MAX_DEALS};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// The game's name in manifests and on the command line.
pub const NAME: &str = "euchre";

/// The four seats' compass names: partners sit opposite (N & S against E & W).
pub const SEATS: [&str; 4] = ["N", "E", "S", "W"];

/// Each seat's memory: the seed allows one file of at most 1 KB.
pub const MEMORY_BYTES: u64 = 1024;

/// Files and folders a seat's directory may hold (koth's default cap).
pub const MEMORY_NODES: u32 = 64;

/// Games per pairing unless `--rounds` says otherwise.
pub const ROUNDS: u32 = 10;

/// The option that sets the points that win a game.
pub const TARGET: &str = "target";

/// Largest target accepted: far beyond any real game, small enough that a game ends.
pub const MAX_TARGET: i64 = 1000;

/// Euchre's referee.
#[derive(Debug, Clone, Copy, Default)]
pub struct EuchreReferee;

impl Referee for EuchreReferee {
    fn protocol(&self) -> String {
        include_str!("protocol.txt").into()
    }

    fn describe(&self) -> Description {
        Description {
            name: NAME.into(),
            summary: "Euchre: four seats in two partnerships, one stdin input per decision, \
                      a 1 KiB memory file per seat"
                .into(),
            seating: Seating::Fixed(4),
            seat_names: SEATS.iter().map(|s| s.to_string()).collect(),
            teams: vec![vec![0, 2], vec![1, 3]],
            // Copies first: every pair of bots, each partnered with a copy of itself.
            partners: vec![Partners::Copies, Partners::Random],
            // Tables of two teams (copies) by default; all-play-all for four bots drawn
            // at random into the seats, the seed contest's mode.
            formats: vec![Format::Tables, Format::AllPlayAll],
            rounds: ROUNDS,
            paired: true,
            directory: Some(Directory {
                bytes: MEMORY_BYTES,
                nodes: MEMORY_NODES,
            }),
            options: vec![OptionSpec {
                name: TARGET.into(),
                description: "points that win a game".into(),
                default: Value::Integer(i64::from(koth_rules::euchre::DEFAULT_TARGET)),
                min: Some(1),
                max: Some(MAX_TARGET),
                choices: Vec::new(),
            }],
            scoring: Scoring {
                score_name: None,
                matches: "games".into(),
                spread: false,
                points: true,
            },
        }
    }

    fn play(&self, setup: &MatchSetup, host: &mut dyn Host) -> Result<MatchResult, Abort> {
        let [n, e, s, w] = setup.seats.as_slice() else {
            return Err(Abort::new(format!(
                "Euchre seats four, not {}",
                setup.seats.len()
            )));
        };
        let names: [String; 4] =
            std::array::from_fn(|i| format!("{} ({})", [n, e, s, w][i].bot, SEATS[i]));
        let names: [&str; 4] = std::array::from_fn(|i| names[i].as_str());
        let config = Config {
            target: target(setup),
            first_dealer: first_dealer(setup),
            max_deals: DEFAULT_MAX_DEALS,
        };
        // The match's seed deals the cards: paired twins share it, so they share the deal.
        let mut game = Game::new(config, ChaCha8Rng::seed_from_u64(setup.seed));
        // The human log's lines go to the host together, once before the first decision and
        // once after each: a component referee's host calls are its cost.
        let mut log = LogLines::default();
        log.line(|l| {
            let _ = write!(
                l,
                "--- {} & {} against {} & {}, first to {}",
                names[0], names[2], names[1], names[3], config.target
            );
        });
        for event in game.events() {
            log.push(&event.describe(names));
        }
        log.flush(host)?;
        let mut shown = String::new();
        while let (Some(decision), Some(input)) = (game.decision(), game.input()) {
            let report = host.decide(DecisionRequest {
                seat: decision.seat as u32,
                phase: decision.kind.phase().into(),
                args: Vec::new(),
                stdin: input.into_bytes(),
            })?;
            let ok = report.outcome.is_ok();
            let response = if ok {
                game.respond(&report.stdout)
            } else {
                game.respond_default(format!("the invocation ended with {}", report.outcome))
            };
            let Some(response) = response else {
                // Not reachable: a decision was due. End the game rather than loop.
                break;
            };
            let failure = if !ok {
                Some(Failure {
                    kind: report.outcome.kind().into(),
                    detail: format!("the invocation ended with {}", report.outcome),
                })
            } else {
                response.rejected.as_ref().map(|bad| Failure {
                    kind: "bad answer".into(),
                    detail: bad.to_string(),
                })
            };
            // A trick report's output is ignored, but a crash there is still the bot's
            // failure, and the log says so (no default event tells it).
            if failure.is_some() && decision.kind == Kind::Trick {
                log.line(|l| {
                    let _ = write!(
                        l,
                        "{}'s trick report ended with {}",
                        names[decision.seat], report.outcome
                    );
                });
            }
            let events: Vec<String> = response
                .events
                .iter()
                .map(|e: &Event| e.describe(names))
                .collect();
            for line in &events {
                log.push(line);
            }
            log.flush(host)?;
            host.judge(Verdict {
                answer: response.answer.token(),
                failure,
                events,
            })?;
            // A trick's reports change nothing until the last: a decision that leaves the
            // table as it was shows no state (the viewer keeps the last one), which spares
            // the archive about a third of them.
            let table = state(&game);
            if table != shown {
                host.show(&table)?;
                shown = table;
            }
        }
        Ok(result(&game, config.first_dealer))
    }
}

/// The table after a decision, for the replay's viewer (`docs/games/euchre.md`, "The
/// replay"): every hand (a replay is watched after the game, so nothing is hidden), the
/// turned card, trump and who made it, the trick on the table, the deal's tricks and the
/// game's points.
fn state(game: &Game) -> String {
    // Written straight into one string: a state is made for every decision.
    fn cards(out: &mut String, cs: impl Iterator<Item = Option<Card>>) {
        out.push('[');
        for (i, c) in cs.enumerate() {
            if i > 0 {
                out.push(',');
            }
            match c {
                Some(c) => {
                    out.push('"');
                    c.push_to(out);
                    out.push('"');
                }
                None => out.push_str("null"),
            }
        }
        out.push(']');
    }
    fn seat(out: &mut String, key: &str, s: Option<usize>) {
        let _ = match s {
            Some(s) => write!(out, ",\"{key}\":{s}"),
            None => write!(out, ",\"{key}\":null"),
        };
    }
    let mut out = String::with_capacity(320);
    let _ = write!(
        out,
        "{{\"dealer\":{},\"deal\":{},\"hands\":[",
        game.dealer(),
        game.deals()
    );
    for s in 0..4 {
        if s > 0 {
            out.push(',');
        }
        cards(&mut out, game.hand(s).iter().map(|&c| Some(c)));
    }
    let _ = write!(out, "],\"turned\":\"{}\",\"trump\":", game.turned());
    match game.trump() {
        Some(t) => {
            let _ = write!(out, "\"{t}\"");
        }
        None => out.push_str("null"),
    }
    seat(&mut out, "maker", game.maker());
    seat(&mut out, "alone", game.alone());
    let (leader, trick) = game.table();
    let _ = write!(out, ",\"leader\":{leader},\"trick\":");
    cards(&mut out, trick.iter().copied());
    let (tricks, points) = (game.tricks(), game.points());
    let _ = write!(
        out,
        ",\"tricks\":[{},{}],\"points\":[{},{}],\"target\":{}}}",
        tricks[0],
        tricks[1],
        points[0],
        points[1],
        game.config().target
    );
    out
}

/// The target option (the rules' default if the host sent none, which koth never does).
fn target(setup: &MatchSetup) -> u32 {
    setup
        .integer(TARGET)
        .and_then(|t| u32::try_from(t).ok())
        .filter(|&t| t >= 1)
        .unwrap_or(koth_rules::euchre::DEFAULT_TARGET)
}

/// The seat dealing first. With copies as partners the teams take turns from round to
/// round (paired twins keep their twin's dealer seat, so the same cards reach the other
/// team); with partners drawn at random the deal goes round the table.
fn first_dealer(setup: &MatchSetup) -> usize {
    let copies =
        setup.seats[0].bot == setup.seats[2].bot && setup.seats[1].bot == setup.seats[3].bot;
    let (sides, round) = (if copies { 2 } else { 4 }, setup.round);
    let turn = if setup.paired { round / sides } else { round };
    (turn % sides) as usize
}

/// The match's result: the winning team's seats score 1; every seat has its team's points
/// for and against; the detail says how the game went.
fn result(game: &Game, first_dealer: usize) -> MatchResult {
    let points = game.points();
    let winner = match game.outcome() {
        Some(Outcome::Won { team }) => Some(team),
        _ => None,
    };
    let seats = (0..4)
        .map(|s| {
            let team = team_of(s);
            SeatResult {
                score: u64::from(winner == Some(team)),
                points_for: u64::from(points[team]),
                points_against: u64::from(points[1 - team]),
            }
        })
        .collect();
    let outcome = match winner {
        Some(team) => format!("\"result\":\"won\",\"team\":{team}"),
        None => "\"result\":\"drawn\"".to_string(),
    };
    MatchResult {
        seats,
        winners: (0..4u32)
            .filter(|&s| winner == Some(team_of(s as usize)))
            .collect(),
        detail: format!(
            "{{\"first_dealer\":\"{}\",{outcome},\"points\":[{},{}],\"deals\":{}}}",
            SEATS[first_dealer],
            points[0],
            points[1],
            game.deals()
        ),
    }
}

#[cfg(test)]
mod tests;
