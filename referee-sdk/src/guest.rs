//! The component glue: a [`Referee`] as a component of the `koth:game/referee` world.
//!
//! Build the referee's crate as a `cdylib` for `wasm32-wasip2` with this crate's `guest`
//! feature, and call [`export_referee!`](crate::export_referee) once with the referee.

use crate::{
    Abort, DecisionReport, DecisionRequest, Description, Directory, Failure, Format, Host,
    MatchResult, MatchSetup, OptionSpec, Outcome, Partners, Referee, Scoring, Seat, Seating, Value,
    Verdict,
};

/// The wit-bindgen bindings of `wit/referee.wit`.
#[allow(missing_docs)]
pub mod bindings {
    wit_bindgen::generate!({
        world: "koth:game/referee-with-scratch@0.1.0",
        path: "../wit",
        pub_export_macro: true,
        export_macro_name: "__export_referee_world",
        default_bindings_module: "koth_referee::guest::bindings",
    });
}

use bindings::koth::game::host as wit_host;
use bindings::koth::game::types as wit;

/// Export `$referee` (an expression of a type implementing [`Referee`], such as a unit
/// struct) as the component's `koth:game/game`, `koth:game/pages` and `koth:game/scratch`
/// interfaces.
#[macro_export]
macro_rules! export_referee {
    ($referee:expr) => {
        struct __KothReferee;
        impl $crate::guest::bindings::exports::koth::game::game::Guest for __KothReferee {
            fn describe() -> $crate::guest::bindings::koth::game::types::Description {
                $crate::guest::describe(&$referee)
            }
            fn play(
                setup: $crate::guest::bindings::koth::game::types::MatchSetup,
            ) -> $crate::guest::bindings::koth::game::types::MatchResult {
                $crate::guest::play(&$referee, setup)
            }
        }
        impl $crate::guest::bindings::exports::koth::game::pages::Guest for __KothReferee {
            fn protocol() -> String {
                $crate::Referee::protocol(&$referee)
            }
            fn viewer() -> String {
                $crate::Referee::viewer(&$referee)
            }
        }
        impl $crate::guest::bindings::exports::koth::game::scratch::Guest for __KothReferee {
            fn per_bot() -> bool {
                $crate::Referee::per_bot_scratch(&$referee)
            }
        }
        $crate::guest::bindings::__export_referee_world!(__KothReferee with_types_in $crate::guest::bindings);
    };
}

/// The `describe` export: the referee's description in the world's types.
pub fn describe(referee: &impl Referee) -> wit::Description {
    description_to_wit(referee.describe())
}

/// The `play` export: play the match through the imported host. A referee that returns
/// `Err` has seen the host end the match (which a component never does: koth stops it
/// first), so this traps rather than invent a result.
pub fn play(referee: &impl Referee, setup: wit::MatchSetup) -> wit::MatchResult {
    let setup = setup_from_wit(setup);
    match referee.play(&setup, &mut WitHost) {
        Ok(r) => r.into(),
        Err(abort) => panic!("{abort}"),
    }
}

/// The imported host, behind the [`Host`] trait.
struct WitHost;

impl Host for WitHost {
    fn decide(&mut self, request: DecisionRequest) -> Result<DecisionReport, Abort> {
        let r = wit_host::decide(&wit::DecisionRequest {
            seat: request.seat,
            phase: request.phase,
            args: request.args,
            stdin: request.stdin,
        });
        Ok(DecisionReport {
            outcome: match r.outcome {
                wit::Outcome::Ok => Outcome::Ok,
                wit::Outcome::Exit(n) => Outcome::Exit(n),
                wit::Outcome::Trap(k) => Outcome::Trap(k),
                wit::Outcome::OutOfFuel => Outcome::OutOfFuel,
                wit::Outcome::OutOfMemory => Outcome::OutOfMemory,
                wit::Outcome::OutputLimit => Outcome::OutputLimit,
                wit::Outcome::LimitExceeded => Outcome::LimitExceeded,
            },
            stdout: r.stdout,
            stderr_tail: r.stderr_tail,
            fuel: r.fuel,
        })
    }

    fn judge(&mut self, verdict: Verdict) -> Result<(), Abort> {
        wit_host::judge(&wit::Verdict {
            answer: verdict.answer,
            failure: verdict
                .failure
                .map(|Failure { kind, detail }| wit::Failure { kind, detail }),
            events: verdict.events,
        });
        Ok(())
    }

    fn show(&mut self, state: &str) -> Result<(), Abort> {
        wit_host::show(state);
        Ok(())
    }

    fn log(&mut self, line: &str) -> Result<(), Abort> {
        wit_host::log(line);
        Ok(())
    }

    fn read_file(&mut self, seat: u32, path: &str) -> Result<Option<Vec<u8>>, Abort> {
        Ok(wit_host::read_file(seat, path))
    }

    fn write_file(&mut self, seat: u32, path: &str, data: &[u8]) -> Result<(), Abort> {
        wit_host::write_file(seat, path, data);
        Ok(())
    }

    fn remove_file(&mut self, seat: u32, path: &str) -> Result<bool, Abort> {
        Ok(wit_host::remove_file(seat, path))
    }

    fn list_files(&mut self, seat: u32) -> Result<Vec<(String, u64)>, Abort> {
        Ok(wit_host::list_files(seat))
    }

    fn random(&mut self, len: u32) -> Result<Vec<u8>, Abort> {
        Ok(wit_host::random(len))
    }
}

fn value_to_wit(v: Value) -> wit::Value {
    match v {
        Value::Flag(b) => wit::Value::Flag(b),
        Value::Integer(i) => wit::Value::Integer(i),
        Value::Text(t) => wit::Value::Text(t),
    }
}

fn value_from_wit(v: wit::Value) -> Value {
    match v {
        wit::Value::Flag(b) => Value::Flag(b),
        wit::Value::Integer(i) => Value::Integer(i),
        wit::Value::Text(t) => Value::Text(t),
    }
}

fn description_to_wit(d: Description) -> wit::Description {
    wit::Description {
        name: d.name,
        summary: d.summary,
        seating: match d.seating {
            Seating::Fixed(n) => wit::Seating::Fixed(n),
            Seating::Everyone => wit::Seating::Everyone,
        },
        seat_names: d.seat_names,
        teams: d.teams,
        partners: d
            .partners
            .into_iter()
            .map(|p| match p {
                Partners::Copies => wit::Partners::Copies,
                Partners::Random => wit::Partners::Random,
            })
            .collect(),
        formats: d
            .formats
            .into_iter()
            .map(|f| match f {
                Format::OrderedPairs => wit::Format::OrderedPairs,
                Format::Tables => wit::Format::Tables,
                Format::AllPlayAll => wit::Format::AllPlayAll,
            })
            .collect(),
        rounds: d.rounds,
        paired: d.paired,
        directory: d
            .directory
            .map(|Directory { bytes, nodes }| wit::Directory { bytes, nodes }),
        options: d
            .options
            .into_iter()
            .map(|o: OptionSpec| wit::OptionSpec {
                name: o.name,
                description: o.description,
                default: value_to_wit(o.default),
                min: o.min,
                max: o.max,
                choices: o.choices,
            })
            .collect(),
        scoring: {
            let Scoring {
                score_name,
                matches,
                spread,
                points,
            } = d.scoring;
            wit::Scoring {
                score_name,
                matches,
                spread,
                points,
            }
        },
    }
}

fn setup_from_wit(s: wit::MatchSetup) -> MatchSetup {
    MatchSetup {
        round: s.round,
        paired: s.paired,
        seats: s
            .seats
            .into_iter()
            .map(|x| Seat {
                bot: x.bot,
                team: x.team,
            })
            .collect(),
        options: s
            .options
            .into_iter()
            .map(|(n, v)| (n, value_from_wit(v)))
            .collect(),
        seed: s.seed,
    }
}

impl From<MatchResult> for wit::MatchResult {
    fn from(r: MatchResult) -> Self {
        wit::MatchResult {
            seats: r
                .seats
                .iter()
                .map(|s| wit::SeatResult {
                    score: s.score,
                    points_for: s.points_for,
                    points_against: s.points_against,
                })
                .collect(),
            winners: r.winners,
            detail: r.detail,
        }
    }
}
