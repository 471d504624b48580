//! {{title}} as a koth referee, in Rust: a component of the world `koth:game/referee-with-pages@0.1.0`
//! (sdk/wit/referee.wit), built with the koth-referee SDK (see README.md).
//!
//! The game is the iterated Prisoner's Dilemma, a classic of King-of-the-Hill contests: two
//! players, 100 turns by default; each turn both choose at once to cooperate (C) or to defect
//! (D). Both cooperate: 3 points each. Both defect: 1 each. One defects: it takes 5, the other
//! 0. Before each decision a player finds `history.txt` in its folder, one line per turn
//! played so far, its own move first: `C D` means it cooperated and the other defected. With
//! `noise`, each move is flipped with that chance (in percent), drawn from the match's seeded
//! random stream.
//!
//! `describe` tells koth what the game is (seats, formats, options, scoring); `play` runs one
//! whole match through `host`, which is all a referee can do: ask a seat's bot for a decision,
//! say how it read the answer (`judge`), write the match's log, use each seat's folder, and
//! draw from the match's random stream.

use koth_referee::manager::Manager;
use koth_referee::{
    json_string, Abort, DecisionRequest, Description, Directory, Format, Host, MatchResult,
    MatchSetup, OptionSpec, Referee, Scoring, SeatResult, Seating, Value,
};

/// The file each player finds in its folder before each decision.
const HISTORY: &str = "history.txt";

/// A move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Move {
    Cooperate,
    Defect,
}

impl Move {
    fn letter(self) -> char {
        match self {
            Move::Cooperate => 'C',
            Move::Defect => 'D',
        }
    }

    fn flipped(self) -> Move {
        match self {
            Move::Cooperate => Move::Defect,
            Move::Defect => Move::Cooperate,
        }
    }
}

/// Points for my move against the other's.
fn payoff(mine: Move, theirs: Move) -> u64 {
    match (mine, theirs) {
        (Move::Cooperate, Move::Cooperate) => 3,
        (Move::Cooperate, Move::Defect) => 0,
        (Move::Defect, Move::Cooperate) => 5,
        (Move::Defect, Move::Defect) => 1,
    }
}

/// The move in a bot's stdout, with the answer to record: its first line, surrounding
/// whitespace ignored, `C` or `D`; otherwise why not, for the bot's author.
fn parse_answer(stdout: &[u8]) -> Result<(Move, String), String> {
    let text = std::str::from_utf8(stdout).map_err(|_| "stdout is not UTF-8 text".to_string())?;
    match text.lines().next().unwrap_or("").trim() {
        "C" => Ok((Move::Cooperate, "C".into())),
        "D" => Ok((Move::Defect, "D".into())),
        "" => Err("no answer: the first line of stdout is empty".into()),
        other => Err(format!(
            "{:?} is neither C nor D",
            other.chars().take(40).collect::<String>()
        )),
    }
}

/// An integer option.
fn integer(name: &str, description: &str, default: i64, min: i64, max: i64) -> OptionSpec {
    OptionSpec {
        name: name.into(),
        description: description.into(),
        default: Value::Integer(default),
        min: Some(min),
        max: Some(max),
        choices: Vec::new(),
    }
}

/// The game.
pub struct Game;

impl Referee for Game {
    /// What `koth check` prints for bot authors (the README's protocol, in short).
    fn protocol(&self) -> String {
        "One decision per invocation. Its stdin is `turn T of N`; its folder holds `history.txt`,\n\
         one line per turn played so far, its own move first (`C D`: it cooperated, the other\n\
         defected). It prints `C` or `D` on the first line of stdout and exits 0. Anything else\n\
         (a crash, running out of fuel, another answer) defects that turn and is counted\n\
         against it.\n"
            .into()
    }

    fn describe(&self) -> Description {
        Description {
            name: "{{game}}".into(),
            summary: "the iterated Prisoner's Dilemma: cooperate or defect, turn after turn".into(),
            seating: Seating::Fixed(2),
            seat_names: Vec::new(),
            teams: Vec::new(),
            partners: Vec::new(),
            // Every pair of bots once per round (the game is symmetric).
            formats: vec![Format::Tables],
            rounds: 1,
            paired: false,
            // Each seat's folder: room for the history file and the bot's own notes.
            directory: Some(Directory {
                bytes: 64 * 1024,
                nodes: 16,
            }),
            options: vec![
                integer("turns", "turns per match", 100, 1, 1000),
                integer("noise", "chance in percent that a move is flipped", 0, 0, 50),
            ],
            scoring: Scoring {
                score_name: Some("points".into()),
                matches: "matches".into(),
                spread: true,
                points: false,
            },
        }
    }

    fn play(&self, setup: &MatchSetup, host: &mut dyn Host) -> Result<MatchResult, Abort> {
        // koth checked both against the declared ranges before the run started.
        let turns = setup.integer("turns").unwrap_or(100).max(1) as u64;
        let noise = setup.integer("noise").unwrap_or(0).clamp(0, 100) as u64;
        let names: Vec<&str> = setup.seats.iter().map(|s| s.bot.as_str()).collect();
        host.log(&format!(
            "{} against {}: {turns} turns, noise {noise}%",
            names[0], names[1]
        ))?;
        // The game manager asks both seats before either move counts (simultaneous moves),
        // and a seat whose bot fails (a crash, a limit, another answer) defects that turn,
        // the failure counted against it: failing never gains a bot anything.
        let mut manager = Manager::new(2).default_note("it defects this turn");
        let mut history: Vec<[Move; 2]> = Vec::new();
        let mut scores = [0u64; 2];
        let mut cooperations = [0u64; 2];
        for turn in 1..=turns {
            // Each player's history, its own move first, in its folder before it decides.
            for seat in 0..2 {
                let lines: String = history
                    .iter()
                    .map(|h| format!("{} {}\n", h[seat].letter(), h[1 - seat].letter()))
                    .collect();
                host.write_file(seat as u32, HISTORY, lines.as_bytes())?;
            }
            let moves = manager.ask_all(
                host,
                |seat| DecisionRequest {
                    seat,
                    phase: "move".into(),
                    args: Vec::new(),
                    stdin: format!("turn {turn} of {turns}\n").into_bytes(),
                },
                |_, stdout| parse_answer(stdout),
                |_| Move::Defect,
                |host, moves| {
                    let mut events = Vec::new();
                    for seat in 0..2 {
                        if noise > 0 && u64::from(host.random(1)?[0]) % 100 < noise {
                            moves[seat] = moves[seat].flipped();
                            events.push(format!(
                                "noise: {}'s move is flipped to {}",
                                names[seat],
                                moves[seat].letter()
                            ));
                        }
                    }
                    let gained = [payoff(moves[0], moves[1]), payoff(moves[1], moves[0])];
                    for s in 0..2 {
                        scores[s] += gained[s];
                        cooperations[s] += u64::from(moves[s] == Move::Cooperate);
                    }
                    events.push(format!(
                        "turn {turn}: {} {}, {} {}: {}-{}, total {}-{}",
                        names[0],
                        moves[0].letter(),
                        names[1],
                        moves[1].letter(),
                        gained[0],
                        gained[1],
                        scores[0],
                        scores[1]
                    ));
                    for e in &events {
                        host.log(&format!("  {e}"))?;
                    }
                    Ok(events)
                },
            )?;
            history.push([moves[0], moves[1]]);
            // The board after the turn, for the replay's viewer (koth's built-in one for
            // this game, named by `viewer`): the moves, the running score and the last ten
            // turns.
            let recent: Vec<String> = history[history.len().saturating_sub(10)..]
                .iter()
                .map(|h| format!("[\"{}\",\"{}\"]", h[0].letter(), h[1].letter()))
                .collect();
            let fields = format!(
                "\"viewer\":\"prisoners-dilemma\",\"turn\":{turn},\"turns\":{turns},\"names\":[{},{}],\"moves\":[\"{}\",\"{}\"],\"scores\":[{},{}],\"recent\":[{}]",
                json_string(names[0]),
                json_string(names[1]),
                moves[0].letter(),
                moves[1].letter(),
                scores[0],
                scores[1],
                recent.join(",")
            );
            host.show(&["{", &fields, "}"].concat())?;
        }
        let failures = [manager.failures(0), manager.failures(1)];
        let winners = if scores[0] == scores[1] {
            host.log(&format!("a draw at {} points each", scores[0]))?;
            Vec::new()
        } else {
            let w = usize::from(scores[1] > scores[0]);
            host.log(&format!(
                "{} wins, {} points to {}",
                names[w],
                scores[w],
                scores[1 - w]
            ))?;
            vec![w as u32]
        };
        // Kept in results.json: any JSON object of the game's own.
        let detail = [
            "{".to_string(),
            format!("\"between\": {}, ", json_string(&names.join(" and "))),
            format!("\"cooperations\": [{}, {}], ", cooperations[0], cooperations[1]),
            format!("\"failures\": [{}, {}], ", failures[0], failures[1]),
            format!("\"turns\": {turns}"),
            "}".to_string(),
        ]
        .concat();
        Ok(MatchResult {
            seats: scores
                .iter()
                .map(|&score| SeatResult {
                    score,
                    ..SeatResult::default()
                })
                .collect(),
            winners,
            detail,
        })
    }
}

koth_referee::export_referee!(Game);
