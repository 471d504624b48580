//! The records of Coup's built-in driver, which played `koth coup` before its referee
//! (`koth-results/3` and earlier), and its games played again.
//!
//! Those archives hold the driver's records: `koth report` and `replay` read them, and `koth
//! verify` re-plays them. The referee plays the driver's games move for move, so [`play`]
//! plays a game through it, with the driver's seeds and clocks (a
//! [`crate::games::witness::Witness`] in front of each bot), and writes the driver's record.

use crate::games::str_list::StrList;
use crate::games::witness::{Seen, Sightings, Witness};
use crate::games::{stderr_tail, Player};
use crate::referee::host::MatchHost;
use crate::referee::record::MatchRecord;
use crate::referee::shape::GameShape;
use crate::sandbox::{Limits, Outcome, Vfs};
use koth_referee::{MatchSetup, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// Bytes of stderr kept per invocation in the structured log.
const STDERR_TAIL: usize = crate::games::witness::KEPT_STDERR;

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
pub struct GameSetup {
    /// The round: the history file is `<first>_<second>_<round>.txt` (the original's
    /// `<first>_<second>_<round>_<game>.txt` numbered the game within the round, a number
    /// that moves when a bot is added; a pair plays once a round, so the name is unique).
    pub round: u32,
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

/// Play one game as the driver did, through Coup's referee (which plays the driver's games
/// move for move), and write the driver's record of it. `dirs` are the two seats' virtual
/// directories (fresh, or carried over between games when scratch is tournament-wide). The
/// history file is left out of them at the end: the record holds it.
pub fn play(setup: &GameSetup, players: [&Arc<dyn Player>; 2], dirs: [&mut Vfs; 2]) -> GameRecord {
    let names = [players[0].name().to_string(), players[1].name().to_string()];
    let game_seed = setup.game_seed;
    let seen = Sightings::default();
    let seats = Witness::seats(
        &[Arc::clone(players[0]), Arc::clone(players[1])],
        Arc::new(move |seat, n, _| {
            crate::seed::derive(game_seed, "coup/invocation", &[seat as u64, n])
        }),
        &seen,
    );
    let referee = super::referee();
    let quota = dirs[0].limits();
    let [da, db] = dirs;
    let lent = vec![
        std::mem::replace(da, Vfs::new(quota)),
        std::mem::replace(db, Vfs::new(quota)),
    ];
    let host = MatchHost::new(
        Arc::new(GameShape::of(referee.description())),
        seats,
        vec![vec![0], vec![1]],
        Some(quota),
        setup.limits,
        setup.deck_seed,
    )
    .with_directories(lent, setup.clock_base_ns);
    let match_setup = MatchSetup {
        round: setup.round,
        paired: false,
        seats: names
            .iter()
            .enumerate()
            .map(|(s, n)| Seat {
                bot: n.clone(),
                team: s as u32,
            })
            .collect(),
        options: Vec::new(),
        seed: setup.deck_seed,
    };
    let (host, result) = referee.play(&match_setup, host);
    let (m, back) = host.close(result);
    let file = koth_referee_coup::history_file([&names[0], &names[1]], setup.round);
    for (dir, back) in [da, db].into_iter().zip(back) {
        if let Some(back) = back {
            *dir = back;
        }
        // The record keeps the history; scratch carried to the next game should not (the
        // referee takes it out itself unless a host fault stopped the game).
        if m.void.is_some() {
            let _ = dir.unlink(Vfs::ROOT, file.as_bytes());
        }
    }
    record(file, names, &m, &seen.take())
}

/// The driver's record of a game its referee played with the history file `file`: `seen` is
/// what the witnesses saw of each decision.
fn record(file: String, names: [String; 2], m: &MatchRecord, seen: &[Seen]) -> GameRecord {
    let log: Vec<InvocationRecord> = m
        .log
        .iter()
        .enumerate()
        .map(|(k, r)| InvocationRecord {
            n: r.n,
            seat: r.seat as usize,
            bot: r.bot.clone(),
            argv: r.args.clone(),
            outcome: r.outcome.clone(),
            appended: Seen::at(seen, k).appended.clone(),
            stdout: r.stdout.clone(),
            fuel_used: r.fuel_used,
            stderr_tail: stderr_tail(&Seen::at(seen, k).stderr, STDERR_TAIL),
        })
        .collect();
    let last = m.log.last();
    let pieces: Vec<&str> = m.human_log.iter().collect();
    let mut human_log = StrList::new();
    let split = |upto: usize, into: &mut StrList| {
        // The referee passes its lines in fewer pieces; each of these lines was a piece of
        // the driver's log (names, arguments and events hold no line break).
        for piece in &pieces[..upto] {
            for line in piece.split('\n') {
                into.push(line);
            }
        }
    };
    let (result, history) = match &m.void {
        Some(void) => {
            split(pieces.len(), &mut human_log);
            let reason = match last.map(|r| (&r.outcome, r.seat as usize)) {
                Some((Outcome::HostFault(why), seat)) => {
                    human_log.push(format!(
                        "host fault while {} moved: {why}; the game is void",
                        names[seat]
                    ));
                    format!("{}: {why}", names[seat])
                }
                _ => void.clone(),
            };
            // The moves before the fault: each appended its action to the history.
            let history = log[..log.len().saturating_sub(1)]
                .iter()
                .filter_map(|r| r.appended.as_deref())
                .collect();
            (GameResult::Void { reason }, history)
        }
        None => {
            let history = m.detail["history"].as_str().unwrap_or_default().to_string();
            let how = m.detail["how"].as_str().unwrap_or_default().to_string();
            match (
                m.winners.first(),
                last.and_then(|r| r.failure.as_ref().map(|f| (r, f))),
            ) {
                (Some(&winner), Some((r, f))) if how == "forfeit" => {
                    let loser = &names[r.seat as usize];
                    let forfeit = forfeit(&f.kind, &f.detail, &r.outcome);
                    // The last piece is the forfeit's lines and the winner's: the driver's
                    // pieces are written again, a stderr quote being one piece however many
                    // lines it has.
                    split(pieces.len().saturating_sub(1), &mut human_log);
                    human_log.push(format!("{loser} forfeits: {forfeit}"));
                    let tail = stderr_tail(&Seen::at(seen, log.len() - 1).stderr, 400);
                    if !tail.trim().is_empty() {
                        human_log.push(format!("{loser}'s stderr ends with: {}", tail.trim_end()));
                    }
                    human_log.push(format!("{} wins!", names[winner as usize]));
                    let won = GameResult::Won {
                        winner: winner as usize,
                        how,
                        forfeit: Some(forfeit),
                    };
                    (won, history)
                }
                (Some(&winner), _) => {
                    split(pieces.len(), &mut human_log);
                    let won = GameResult::Won {
                        winner: winner as usize,
                        how,
                        forfeit: None,
                    };
                    (won, history)
                }
                (None, _) => {
                    split(pieces.len(), &mut human_log);
                    (GameResult::Draw, history)
                }
            }
        }
    };
    GameRecord {
        file_name: file,
        names,
        result,
        history,
        fuel: [0, 1].map(|s| m.fuel.get(s).copied().unwrap_or_default()),
        invocations: [0, 1].map(|s| m.invocations.get(s).copied().unwrap_or_default()),
        log,
        human_log,
    }
}

/// The driver's forfeit for a referee's failure (the same kinds, and words under a prefix).
fn forfeit(kind: &str, detail: &str, outcome: &Outcome) -> Forfeit {
    let after = |prefix: &str| detail.strip_prefix(prefix).unwrap_or(detail).to_string();
    match kind {
        "file" => Forfeit::FileRule(after("broke the file rule: ")),
        "illegal move" => Forfeit::IllegalMove(after("made an illegal move: ")),
        "illegal exchange" => Forfeit::IllegalExchange(after("made an illegal exchange: ")),
        _ => Forfeit::Crash(outcome.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::vfs::OpenOptions;
    use crate::sandbox::{Invocation, Report, VfsLimits};

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

    fn setup(limits: Limits) -> GameSetup {
        GameSetup {
            round: 0,
            deck_seed: 9,
            game_seed: 1,
            clock_base_ns: 0,
            limits,
        }
    }

    fn run(a: impl Player + 'static, b: impl Player + 'static) -> GameRecord {
        let (a, b): (Arc<dyn Player>, Arc<dyn Player>) = (Arc::new(a), Arc::new(b));
        let (mut da, mut db) = (
            Vfs::new(VfsLimits::default()),
            Vfs::new(VfsLimits::default()),
        );
        let rec = play(&setup(Limits::default()), [&a, &b], [&mut da, &mut db]);
        // The history never stays behind in a bot's directory.
        let file = &rec.file_name;
        assert!(da.host_file(file).is_none() && db.host_file(file).is_none());
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
        let rec = run(a, b);
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
        fn checked(argv: &[String]) -> (String, String) {
            assert_eq!(argv[0], "a_b_0.txt");
            assert!(argv[1].parse::<u32>().is_ok() && argv[2].parse::<u32>().is_ok());
            assert!(argv[3].chars().all(|c| "~^*!$".contains(c)));
            first_legal(argv)
        }
        let (a, b) = (
            Scripted {
                name: "a",
                decide: checked,
            },
            Scripted {
                name: "b",
                decide: checked,
            },
        );
        let rec = run(a, b);
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
        let rec = run(cheat, honest);
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
        let rec = run(Faulty, honest);
        assert!(matches!(&rec.result, GameResult::Void { reason } if reason.contains("backstop")));
    }
}
