//! Coup's referee (`koth-referee-coup`) against the built-in driver: the same deck, the same
//! players, the same game, move for move. Players here are plain Rust that choose from the
//! legal moves by a hash of what they see, and now and then cheat, crash, break the file
//! rule or keep cards they were not offered, so that every way a game ends is compared.

use super::driver::{self, GameResult, GameSetup};
use crate::games::{fnv, Player};
use crate::referee::host::MatchHost;
use crate::referee::shape::GameShape;
use crate::referee::{Native, Referee};
use crate::sandbox::vfs::OpenOptions;
use crate::sandbox::{Invocation, Limits, Outcome, Report, Vfs, VfsLimits};
use koth_referee::{MatchSetup, Seat};
use koth_referee_coup::CoupReferee;
use std::sync::Arc;

/// A player that picks its moves by a hash of its argv and its history file; one in
/// `mischief` of its decisions (none when 0) does something a bad bot does instead.
struct Hashed {
    name: &'static str,
    mischief: u64,
}

impl Player for Hashed {
    fn name(&self) -> &str {
        self.name
    }

    fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        let dir = dir.expect("Coup gives a directory");
        let argv: Vec<String> = inv
            .args
            .iter()
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        let file = argv[0].as_str();
        let history = dir.host_file(file).unwrap_or_default().to_vec();
        let joined = argv.join("|");
        let h = fnv(&[self.name.as_bytes(), joined.as_bytes(), &history]);
        let legal = &argv[4..];
        let cards = &argv[3];
        let exchange = legal == ["\n"] && cards.chars().count() >= 3;
        let mut append = legal[(h % legal.len() as u64) as usize].clone();
        let mut stdout = String::new();
        if exchange {
            // Keep n of the n + 2 offered cards, starting at a hashed place.
            let offered: Vec<char> = cards.chars().collect();
            let n = offered.len() - 2;
            let start = (h >> 8) as usize % offered.len();
            stdout = (0..n)
                .map(|i| offered[(start + i) % offered.len()])
                .collect();
        }
        let mut outcome = Outcome::Ok;
        let mut stderr = Vec::new();
        let mut replace = None;
        if self.mischief > 0 && (h >> 16).is_multiple_of(self.mischief) {
            stderr = format!("{} misbehaves\n", self.name).into_bytes();
            match (h >> 32) % 5 {
                0 => append = "XF".into(),
                1 => outcome = Outcome::Exit(3),
                2 => replace = Some(b"rewritten".to_vec()),
                3 => stdout = "$$$$".into(),
                _ => outcome = Outcome::OutOfFuel,
            }
        }
        match replace {
            Some(whole) => dir.put_host_file(file, &whole),
            None => {
                let node = dir
                    .open(Vfs::ROOT, file.as_bytes(), OpenOptions::default())
                    .expect("the history file exists");
                let len = dir.file_len(node).expect("its length");
                dir.write_at(node, len, append.as_bytes()).expect("append");
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

/// Play one game both ways and compare everything the two record.
fn compare(a: &Arc<dyn Player>, b: &Arc<dyn Player>, seed: u64, round: u32) -> GameResult {
    let names = [a.name(), b.name()];
    let file = koth_referee_coup::history_file(names, round);
    let limits = Limits::default();
    let (mut da, mut db) = (
        Vfs::new(VfsLimits::default()),
        Vfs::new(VfsLimits::default()),
    );
    let setup = GameSetup {
        file_name: &file,
        deck_seed: seed,
        game_seed: 1,
        clock_base_ns: 0,
        limits,
    };
    let rec = driver::play(&setup, [&**a, &**b], [&mut da, &mut db]);

    let referee = Native::new(CoupReferee);
    let d = referee.description();
    let host = MatchHost::new(
        Arc::new(GameShape::of(d)),
        vec![Arc::clone(a), Arc::clone(b)],
        vec![vec![0], vec![1]],
        Some(VfsLimits::default()),
        limits,
        seed,
    );
    let setup = MatchSetup {
        round,
        paired: false,
        seats: names
            .iter()
            .enumerate()
            .map(|(s, n)| Seat {
                bot: n.to_string(),
                team: s as u32,
            })
            .collect(),
        options: Vec::new(),
        seed,
    };
    let (host, result) = referee.play(&setup, host);
    let m = host.finish(result);
    let at = format!("seed {seed}, {} vs {}", names[0], names[1]);

    assert_eq!(m.void, None, "{at}");
    assert_eq!(m.detail["file"], file.as_str(), "{at}");
    assert_eq!(m.detail["history"], rec.history.as_str(), "{at}");
    // The referee passes the log in fewer, longer pieces: the log's text is the same.
    assert_eq!(
        String::from_utf8_lossy(m.human_log.as_log()),
        String::from_utf8_lossy(rec.human_log.as_log()),
        "{at}"
    );
    assert_eq!(m.invocations, rec.invocations, "{at}");
    assert_eq!(m.fuel, rec.fuel, "{at}");
    assert_eq!(m.log.len(), rec.log.len(), "{at}");
    for (r, l) in m.log.iter().zip(&rec.log) {
        assert_eq!(r.seat as usize, l.seat, "{at}");
        assert_eq!(
            r.args.iter().collect::<Vec<_>>(),
            l.argv.iter().collect::<Vec<_>>(),
            "{at}"
        );
        assert_eq!(r.outcome, l.outcome, "{at}");
        assert_eq!(r.stdout, l.stdout, "{at}");
        assert_eq!(r.stderr_tail, l.stderr_tail, "{at}");
        assert_eq!(r.answer, l.appended.clone().unwrap_or_default(), "{at}");
    }
    match &rec.result {
        GameResult::Won {
            winner,
            how,
            forfeit,
        } => {
            assert_eq!(m.winners, [*winner as u32], "{at}");
            assert_eq!(m.detail["how"], how.as_str(), "{at}");
            let mut scores = vec![0, 0];
            scores[*winner] = 1;
            assert_eq!(m.scores, scores, "{at}");
            match forfeit {
                Some(f) => {
                    let last = m.log.last().and_then(|r| r.failure.as_ref());
                    let last = last.expect("a forfeit is the last decision's failure");
                    assert_eq!(last.kind, f.kind(), "{at}");
                    assert_eq!(last.detail, f.to_string(), "{at}");
                    assert_eq!(m.detail["forfeit"]["kind"], f.kind(), "{at}");
                    assert_eq!(m.failures[1 - winner].get(f.kind()), Some(&1), "{at}");
                }
                None => assert!(m.log.iter().all(|r| r.failure.is_none()), "{at}"),
            }
        }
        GameResult::Draw => {
            assert!(m.winners.is_empty(), "{at}");
            assert_eq!(m.scores, [0, 0], "{at}");
        }
        GameResult::Void { .. } => panic!("no host fault here: {at}"),
    }
    // The driver takes the history out of the directories at the end; so does the referee,
    // so a directory carried to the next game holds only what the bot wrote.
    assert!(da.host_file(&file).is_none() && db.host_file(&file).is_none());
    assert!(
        m.scratch.iter().all(|(_, entries)| entries.is_empty()),
        "{at}"
    );
    rec.result
}

#[test]
fn the_referee_plays_the_drivers_games_move_for_move() {
    let honest: [Arc<dyn Player>; 2] = [
        Arc::new(Hashed {
            name: "ada",
            mischief: 0,
        }),
        Arc::new(Hashed {
            name: "bo",
            mischief: 0,
        }),
    ];
    let rogue: Arc<dyn Player> = Arc::new(Hashed {
        name: "rogue",
        mischief: 9,
    });
    let (mut won, mut forfeits) = (0, std::collections::BTreeSet::new());
    for seed in 0..120 {
        let (a, b) = match seed % 3 {
            0 => (&honest[0], &honest[1]),
            1 => (&honest[1], &rogue),
            _ => (&rogue, &honest[0]),
        };
        match compare(a, b, seed, (seed % 4) as u32) {
            GameResult::Won {
                forfeit: Some(f), ..
            } => {
                forfeits.insert(f.kind());
            }
            GameResult::Won { .. } => won += 1,
            GameResult::Draw | GameResult::Void { .. } => {}
        }
    }
    // Every way a game ends was compared at least once.
    assert!(won > 10, "{won} games won by the rules");
    let kinds: Vec<&str> = forfeits.into_iter().collect();
    assert_eq!(
        kinds,
        ["exit", "file", "fuel", "illegal exchange", "illegal move"],
        "forfeits seen"
    );
}
