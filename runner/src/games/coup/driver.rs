//! One game of Coup between two players, through the original file protocol.
//!
//! Each player has its own virtual directory holding its own copy of the history file. Before
//! each invocation the host writes the canonical history into the mover's copy; afterwards it
//! checks that the copy is the old content plus exactly one legal action (the spec's stricter
//! rule), reads the Exchange choice from stdout, and applies the move to the rules.

use super::rules::{Foul, Game, Step, WinReason};
use crate::games::str_list::StrList;
use crate::games::{stderr_tail, Player};
use crate::sandbox::{Invocation, Limits, Outcome, Vfs};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Bytes of stderr kept per invocation in the structured log.
const STDERR_TAIL: usize = 2048;

/// Why a player forfeited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "detail")]
pub enum Forfeit {
    /// The invocation did not end `ok` (exit code, trap, fuel, memory, output limit...).
    Crash(Outcome),
    /// The history file was changed other than by appending (rewritten, truncated, deleted,
    /// renamed, replaced by a directory or symlink, or more than two characters appended).
    FileRule(String),
    /// The appended text is not exactly one of the legal actions.
    IllegalMove(String),
    /// The Exchange choice printed on stdout is not a legal choice.
    IllegalExchange(String),
}

impl Forfeit {
    /// A short stable name of the kind, for the leaderboard's counts.
    pub fn kind(&self) -> &'static str {
        match self {
            Forfeit::Crash(o) => crate::games::crash_kind(o),
            Forfeit::FileRule(_) => "file",
            Forfeit::IllegalMove(_) => "illegal move",
            Forfeit::IllegalExchange(_) => "illegal exchange",
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forfeit::Crash(o) => write!(f, "the invocation ended with {o}"),
            Forfeit::FileRule(w) => write!(f, "broke the file rule: {w}"),
            Forfeit::IllegalMove(w) => write!(f, "made an illegal move: {w}"),
            Forfeit::IllegalExchange(w) => write!(f, "made an illegal exchange: {w}"),
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "result")]
pub enum GameResult {
    /// A seat won.
    Won {
        /// The winning seat (0 = first player).
        winner: usize,
        /// How: `eliminated`, `both_cards_in_one_turn`, or `forfeit`.
        how: String,
        /// The loser's forfeit, if that is how the game ended.
        forfeit: Option<Forfeit>,
    },
    /// 200 invocations without a winner: nobody scores.
    Draw,
    /// The host failed (the wall-clock backstop fired): the game does not count, loudly.
    Void {
        /// The host fault.
        reason: String,
    },
}

/// One invocation, as the structured log records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvocationRecord {
    /// Invocation number within the game, from 0.
    pub n: u32,
    /// Seat that moved.
    pub seat: usize,
    /// Bot name.
    pub bot: String,
    /// argv after argv[0].
    pub argv: StrList,
    /// How the invocation ended.
    pub outcome: Outcome,
    /// What the bot appended to its history copy (lossy UTF-8), if it was read.
    pub appended: Option<String>,
    /// What it printed on stdout (lossy UTF-8).
    pub stdout: String,
    /// Fuel used.
    pub fuel_used: u64,
    /// The end of its stderr.
    pub stderr_tail: String,
}

/// Everything about one played game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The history file's name (`<first>_<second>_<round>.txt` in a tournament).
    pub file_name: String,
    /// Names of seat 0 and seat 1.
    pub names: [String; 2],
    /// The result.
    pub result: GameResult,
    /// The canonical history.
    pub history: String,
    /// Fuel used by each seat.
    pub fuel: [u64; 2],
    /// Invocations by each seat.
    pub invocations: [u32; 2],
    /// Every invocation.
    pub log: Vec<InvocationRecord>,
    /// The human log, in the spirit of the original arbiter's prints.
    pub human_log: StrList,
}

/// A decision's line in the human log: the bot's name and its arguments, quoted (the mark
/// a referee's log uses too).
pub use crate::referee::game::decision_mark as argv_line;

/// What identifies a game and seeds it.
#[derive(Debug, Clone, Copy)]
pub struct GameSetup<'a> {
    /// The history file's name.
    pub file_name: &'a str,
    /// Seed of the deck.
    pub deck_seed: u64,
    /// The game's own seed, for the bots' `random_get` streams: derived from what defines
    /// the game (round and players), never from its position in the tournament.
    pub game_seed: u64,
    /// Virtual time when the game starts: 0, or later for each game when the bots' folders
    /// live for the whole tournament (so their files' times never go back).
    pub clock_base_ns: u64,
    /// Limits of every invocation.
    pub limits: Limits,
}

/// Play one game. `dirs` are the two seats' virtual directories (fresh, or carried over
/// between games when scratch is tournament-wide). The history file is left out of them at
/// the end: the record holds it.
pub fn play(setup: &GameSetup, players: [&dyn Player; 2], dirs: [&mut Vfs; 2]) -> GameRecord {
    let mut dirs = dirs;
    let mut game = Game::new(ChaCha8Rng::seed_from_u64(setup.deck_seed));
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let name_refs = [names[0].as_str(), names[1].as_str()];
    let mut rec = GameRecord {
        file_name: setup.file_name.to_string(),
        names: names.clone(),
        result: GameResult::Draw,
        history: String::new(),
        fuel: [0; 2],
        invocations: [0; 2],
        log: Vec::new(),
        human_log: [format!(
            "--- {} vs. {} ({})",
            names[0], names[1], setup.file_name
        )]
        .into_iter()
        .collect(),
    };
    while !game.is_over() {
        let n = game.invocations();
        let prompt = game.prompt();
        let seat = prompt.seat;
        let before = game.history().to_string();
        let dir = &mut *dirs[seat];
        dir.put_host_file(setup.file_name, before.as_bytes());
        let mut argv = vec![
            setup.file_name.to_string(),
            prompt.opponent_coins.to_string(),
            prompt.own_coins.to_string(),
            prompt.cards.clone(),
        ];
        argv.extend(prompt.legal.iter().cloned());
        let inv = Invocation {
            args: argv.iter().map(|a| a.as_bytes().to_vec()).collect(),
            stdin: Vec::new(),
            seed: crate::seed::derive(setup.game_seed, "coup/invocation", &[seat as u64, n as u64]),
            // Each invocation starts a virtual second after the previous one in this game.
            clock_start_ns: setup.clock_base_ns.saturating_add(n as u64 * 1_000_000_000),
            limits: setup.limits,
        };
        rec.human_log.push(argv_line(&names[seat], &argv));
        let report = players[seat].invoke(&inv, Some(&mut *dir));
        rec.fuel[seat] += report.fuel_used;
        rec.invocations[seat] += 1;
        let stdout = String::from_utf8_lossy(&report.stdout).into_owned();
        let after = dir.host_file(setup.file_name).map(<[u8]>::to_vec);
        let appended = after
            .as_deref()
            .and_then(|a| a.strip_prefix(before.as_bytes()))
            .map(|a| String::from_utf8_lossy(a).into_owned());
        rec.log.push(InvocationRecord {
            n,
            seat,
            bot: names[seat].clone(),
            argv: argv.iter().collect(),
            outcome: report.outcome.clone(),
            appended: appended.clone(),
            stdout: stdout.clone(),
            fuel_used: report.fuel_used,
            stderr_tail: stderr_tail(&report.stderr, STDERR_TAIL),
        });
        let forfeit = match &report.outcome {
            Outcome::Ok => None,
            Outcome::HostFault(why) => {
                rec.human_log.push(format!(
                    "host fault while {} moved: {why}; the game is void",
                    names[seat]
                ));
                rec.result = GameResult::Void {
                    reason: format!("{}: {why}", names[seat]),
                };
                break;
            }
            other => Some(Forfeit::Crash(other.clone())),
        };
        let forfeit = forfeit.or_else(|| file_rule(&before, after.as_deref()).err());
        let forfeit = match forfeit {
            Some(f) => Some(f),
            None => {
                // The file rule passed, so the appended text is 1-2 bytes of UTF-8.
                let text = appended.unwrap_or_default();
                match game.apply(&text, &stdout) {
                    Ok(applied) => {
                        rec.human_log
                            .push(format!("{} played {text:?}", names[seat]));
                        rec.human_log
                            .extend(applied.events.iter().map(|e| e.describe(name_refs)));
                        match applied.step {
                            Step::Continue => None,
                            Step::Draw => {
                                rec.result = GameResult::Draw;
                                None
                            }
                            Step::Won { winner, reason } => {
                                let how = match reason {
                                    WinReason::Eliminated => "eliminated",
                                    WinReason::BothCardsInOneTurn => "both_cards_in_one_turn",
                                };
                                rec.result = GameResult::Won {
                                    winner,
                                    how: how.into(),
                                    forfeit: None,
                                };
                                None
                            }
                        }
                    }
                    Err(Foul::IllegalMove { appended, legal }) => Some(Forfeit::IllegalMove(
                        format!("appended {appended:?}; legal: {legal:?}"),
                    )),
                    Err(Foul::IllegalExchange { output, offered }) => {
                        Some(Forfeit::IllegalExchange(format!(
                            "printed {output:?}; offered {offered:?}"
                        )))
                    }
                }
            }
        };
        if let Some(f) = forfeit {
            let tail = stderr_tail(&report.stderr, 400);
            rec.human_log.push(format!("{} forfeits: {f}", names[seat]));
            if !tail.trim().is_empty() {
                rec.human_log.push(format!(
                    "{}'s stderr ends with: {}",
                    names[seat],
                    tail.trim_end()
                ));
            }
            rec.result = GameResult::Won {
                winner: 1 - seat,
                how: "forfeit".into(),
                forfeit: Some(f),
            };
            break;
        }
    }
    match &rec.result {
        GameResult::Won { winner, .. } => rec.human_log.push(format!("{} wins!", names[*winner])),
        GameResult::Draw => rec
            .human_log
            .push("draw: 100 actions each without a winner; nobody scores"),
        GameResult::Void { .. } => {}
    }
    rec.history = game.history().to_string();
    for d in dirs.iter_mut() {
        // The record keeps the history; scratch carried to the next game should not.
        let _ = d.unlink(Vfs::ROOT, setup.file_name.as_bytes());
    }
    rec
}

/// The file rule: the bot's copy must be the old history plus one or two appended characters.
fn file_rule(before: &str, after: Option<&[u8]>) -> Result<(), Forfeit> {
    let after = after.ok_or_else(|| {
        Forfeit::FileRule(
            "the history file was deleted, renamed or replaced by something that is not a file"
                .into(),
        )
    })?;
    let Some(appended) = after.strip_prefix(before.as_bytes()) else {
        let what = if after.len() < before.len() {
            "truncated or rewritten"
        } else {
            "rewritten"
        };
        return Err(Forfeit::FileRule(format!(
            "the history file was {what} ({} bytes before, {} after)",
            before.len(),
            after.len()
        )));
    };
    match std::str::from_utf8(appended) {
        Ok(s) if (1..=2).contains(&s.chars().count()) => Ok(()),
        Ok("") => Err(Forfeit::FileRule("nothing was appended".into())),
        Ok(s) => Err(Forfeit::FileRule(format!(
            "{} characters were appended ({s:?}); one action is 1 or 2",
            s.chars().count()
        ))),
        Err(_) => Err(Forfeit::FileRule(format!(
            "the appended bytes are not text ({appended:?})"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::vfs::OpenOptions;
    use crate::sandbox::{Report, VfsLimits};

    /// A player in plain Rust: `decide(argv)` returns what to append and what to print.
    struct Scripted<F: Fn(&[String]) -> (String, String) + Sync> {
        name: &'static str,
        decide: F,
    }

    impl<F: Fn(&[String]) -> (String, String) + Send + Sync> Player for Scripted<F> {
        fn name(&self) -> &str {
            self.name
        }

        fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
            let argv: Vec<String> = inv
                .args
                .iter()
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            let (append, print) = (self.decide)(&argv);
            let dir = dir.expect("coup gives a directory");
            let node = dir
                .open(Vfs::ROOT, argv[0].as_bytes(), OpenOptions::default())
                .expect("history exists");
            let len = dir.file_len(node).expect("len");
            dir.write_at(node, len, append.as_bytes()).expect("append");
            Report {
                outcome: Outcome::Ok,
                fuel_used: 10,
                stdout: print.into_bytes(),
                stderr: Vec::new(),
                stderr_dropped: 0,
            }
        }
    }

    fn first_legal(argv: &[String]) -> (String, String) {
        let cards = &argv[3];
        let keep = if argv[4] == "\n" && cards.len() >= 3 {
            cards[..cards.len() - 2].to_string()
        } else {
            String::new()
        };
        (argv[4].clone(), keep)
    }

    fn setup(limits: Limits) -> GameSetup<'static> {
        GameSetup {
            file_name: "a_b_0.txt",
            deck_seed: 9,
            game_seed: 1,
            clock_base_ns: 0,
            limits,
        }
    }

    fn run(a: &dyn Player, b: &dyn Player) -> GameRecord {
        let (mut da, mut db) = (
            Vfs::new(VfsLimits::default()),
            Vfs::new(VfsLimits::default()),
        );
        let rec = play(&setup(Limits::default()), [a, b], [&mut da, &mut db]);
        // The history never stays behind in a bot's directory.
        assert!(da.host_file("a_b_0.txt").is_none() && db.host_file("a_b_0.txt").is_none());
        rec
    }

    #[test]
    fn two_honest_scripted_players_finish_a_game() {
        let a = Scripted {
            name: "a",
            decide: first_legal,
        };
        let b = Scripted {
            name: "b",
            decide: first_legal,
        };
        let rec = run(&a, &b);
        assert!(
            matches!(
                rec.result,
                GameResult::Won { forfeit: None, .. } | GameResult::Draw
            ),
            "{:?}",
            rec.result
        );
        assert_eq!(
            rec.log.len() as u32,
            rec.invocations[0] + rec.invocations[1]
        );
        assert_eq!(
            rec.fuel,
            [
                10 * rec.invocations[0] as u64,
                10 * rec.invocations[1] as u64
            ]
        );
        // What each bot appended, concatenated, is the history.
        let appended: String = rec.log.iter().filter_map(|l| l.appended.clone()).collect();
        assert_eq!(appended, rec.history);
    }

    #[test]
    fn the_first_argument_is_the_history_file_and_the_rest_follow_the_protocol() {
        let a = Scripted {
            name: "a",
            decide: |argv: &[String]| {
                assert_eq!(argv[0], "a_b_0.txt");
                assert!(argv[1].parse::<u32>().is_ok() && argv[2].parse::<u32>().is_ok());
                assert!(argv[3].chars().all(|c| "~^*!$".contains(c)));
                first_legal(argv)
            },
        };
        let rec = run(&a, &a);
        assert_eq!(
            rec.log[0].argv.iter().skip(1).collect::<Vec<_>>(),
            ["1", "1", &rec.log[0].argv[3], "I\n", "F", "E", "S", "T"]
        );
    }

    #[test]
    fn a_move_that_is_not_exactly_legal_forfeits_with_the_reason() {
        let cheat = Scripted {
            name: "cheat",
            decide: |_: &[String]| ("XF".to_string(), String::new()),
        };
        let honest = Scripted {
            name: "honest",
            decide: first_legal,
        };
        let rec = run(&cheat, &honest);
        match &rec.result {
            GameResult::Won {
                winner: 1,
                forfeit: Some(Forfeit::IllegalMove(w)),
                ..
            } => assert!(w.contains("XF")),
            other => panic!("{other:?}"),
        }
        assert!(rec
            .human_log
            .iter()
            .any(|l| l.contains("cheat forfeits: made an illegal move")));
    }

    #[test]
    fn file_rule_catches_rewrites_and_long_appends() {
        assert!(file_rule("I\n", Some(b"I\nF")).is_ok());
        assert!(file_rule("I\n", Some(b"I\nI\n")).is_ok());
        assert!(
            matches!(file_rule("I\n", Some(b"I\nFp\n")), Err(Forfeit::FileRule(w)) if w.contains("3 characters"))
        );
        assert!(
            matches!(file_rule("I\n", Some(b"F\nF")), Err(Forfeit::FileRule(w)) if w.contains("rewritten"))
        );
        assert!(
            matches!(file_rule("I\n", Some(b"I")), Err(Forfeit::FileRule(w)) if w.contains("truncated"))
        );
        assert!(
            matches!(file_rule("I\n", None), Err(Forfeit::FileRule(w)) if w.contains("deleted"))
        );
        assert!(
            matches!(file_rule("I\n", Some(b"I\n")), Err(Forfeit::FileRule(w)) if w.contains("nothing"))
        );
        assert!(
            matches!(file_rule("", Some(&[0xff])), Err(Forfeit::FileRule(w)) if w.contains("not text"))
        );
    }

    #[test]
    fn a_host_fault_voids_the_game_instead_of_deciding_it() {
        struct Faulty;
        impl Player for Faulty {
            fn name(&self) -> &str {
                "faulty"
            }
            fn invoke(&self, _: &Invocation, _: Option<&mut Vfs>) -> Report {
                Report {
                    outcome: Outcome::HostFault("backstop".into()),
                    fuel_used: 0,
                    stdout: vec![],
                    stderr: vec![],
                    stderr_dropped: 0,
                }
            }
        }
        let honest = Scripted {
            name: "honest",
            decide: first_legal,
        };
        let rec = run(&Faulty, &honest);
        assert!(matches!(&rec.result, GameResult::Void { reason } if reason.contains("backstop")));
    }
}
