//! The referee against a scripted host that keeps the seats' files: what it asks, what it
//! records for honest moves, crashes, cheats and file-rule breaks, and what it returns.
//! koth's own tests play it with real wasm bots (`tests/tests/coup_referee.rs`, `coup.rs`),
//! and re-play through it archives its old built-in driver wrote (`legacy_archives.rs`).

use super::*;
use koth_referee::{Outcome, Seat};
use std::collections::BTreeMap;

/// What a scripted bot does with a decision: what it appends (or `None`: it writes the
/// whole file itself), what it prints, and how its invocation ends.
struct Answer {
    file: Option<Vec<u8>>,
    append: String,
    stdout: String,
    outcome: Outcome,
}

/// A host whose two bots answer through `answer`, with a file store per seat.
struct Scripted<F> {
    answer: F,
    files: [BTreeMap<String, Vec<u8>>; 2],
    asked: Vec<DecisionRequest>,
    verdicts: Vec<Verdict>,
    states: Vec<String>,
    log: Vec<String>,
}

impl<F: FnMut(&DecisionRequest) -> Answer> Scripted<F> {
    fn new(answer: F) -> Self {
        Scripted {
            answer,
            files: [BTreeMap::new(), BTreeMap::new()],
            asked: Vec::new(),
            verdicts: Vec::new(),
            states: Vec::new(),
            log: Vec::new(),
        }
    }
}

impl<F: FnMut(&DecisionRequest) -> Answer> Host for Scripted<F> {
    fn decide(&mut self, request: DecisionRequest) -> Result<DecisionReport, Abort> {
        assert_eq!(
            self.asked.len(),
            self.verdicts.len(),
            "judged before the next"
        );
        let a = (self.answer)(&request);
        let files = &mut self.files[request.seat as usize];
        match a.file {
            Some(whole) => {
                files.insert(request.args[0].clone(), whole);
            }
            None => files
                .get_mut(&request.args[0])
                .expect("the history file is there")
                .extend_from_slice(a.append.as_bytes()),
        }
        self.asked.push(request);
        Ok(DecisionReport {
            outcome: a.outcome,
            stdout: a.stdout.into_bytes(),
            stderr_tail: "thinking...\n".into(),
            fuel: 1,
        })
    }
    fn judge(&mut self, verdict: Verdict) -> Result<(), Abort> {
        self.verdicts.push(verdict);
        Ok(())
    }
    fn show(&mut self, state: &str) -> Result<(), Abort> {
        assert_eq!(
            self.states.len() + 1,
            self.verdicts.len(),
            "one per decision"
        );
        self.states.push(state.to_string());
        Ok(())
    }
    /// The referee passes several lines at once: kept line by line, as the log file reads.
    fn log(&mut self, line: &str) -> Result<(), Abort> {
        self.log.extend(line.split('\n').map(str::to_string));
        Ok(())
    }
    fn read_file(&mut self, seat: u32, path: &str) -> Result<Option<Vec<u8>>, Abort> {
        Ok(self.files[seat as usize].get(path).cloned())
    }
    fn write_file(&mut self, seat: u32, path: &str, data: &[u8]) -> Result<(), Abort> {
        self.files[seat as usize].insert(path.into(), data.to_vec());
        Ok(())
    }
    fn remove_file(&mut self, seat: u32, path: &str) -> Result<bool, Abort> {
        Ok(self.files[seat as usize].remove(path).is_some())
    }
    fn list_files(&mut self, _: u32) -> Result<Vec<(String, u64)>, Abort> {
        panic!("Coup's referee never lists a directory")
    }
    fn random(&mut self, _: u32) -> Result<Vec<u8>, Abort> {
        panic!("the deck comes from the match's seed")
    }
}

fn setup(round: u32, seed: u64) -> MatchSetup {
    MatchSetup {
        round,
        paired: false,
        seats: ["alice", "bob"]
            .iter()
            .enumerate()
            .map(|(s, b)| Seat {
                bot: b.to_string(),
                team: s as u32,
            })
            .collect(),
        options: Vec::new(),
        seed,
    }
}

/// The first legal move; after an Exchange, the first n of the offered cards.
fn first_legal(r: &DecisionRequest) -> Answer {
    let cards = &r.args[3];
    let keep = if r.phase == "exchange" {
        cards[..cards.len() - 2].to_string()
    } else {
        String::new()
    };
    Answer {
        file: None,
        append: r.args[4].clone(),
        stdout: keep,
        outcome: Outcome::Ok,
    }
}

fn detail(r: &MatchResult) -> serde_json::Value {
    serde_json::from_str(&r.detail).expect("the detail is JSON")
}

#[test]
fn honest_players_finish_and_the_history_is_what_they_appended() {
    for seed in 0..20 {
        let mut host = Scripted::new(first_legal);
        let r = CoupReferee.play(&setup(3, seed), &mut host).unwrap();
        let d = detail(&r);
        assert_eq!(d["file"], "alice_bob_3.txt");
        let appended: String = host.verdicts.iter().map(|v| v.answer.as_str()).collect();
        assert_eq!(d["history"], appended.as_str(), "seed {seed}");
        assert_eq!(d["invocations"], host.asked.len());
        assert!(host.verdicts.iter().all(|v| v.failure.is_none()));
        match d["result"].as_str() {
            Some("won") => {
                let w = d["winner"].as_u64().unwrap() as u32;
                assert_eq!(r.winners, [w]);
                assert_eq!(r.seats[w as usize].score, 1);
                assert_eq!(r.seats[1 - w as usize].score, 0);
                assert_ne!(d["how"], "forfeit");
                assert_eq!(
                    host.log.last().unwrap(),
                    &format!("{} wins!", ["alice", "bob"][w as usize])
                );
            }
            Some("draw") => assert!(r.winners.is_empty()),
            other => panic!("{other:?}"),
        }
        // The history never stays behind in a bot's directory.
        assert!(host.files.iter().all(BTreeMap::is_empty));
        // No board and no events in the records: the report deals the board again, and
        // the log holds the events.
        assert!(host.states.is_empty());
        assert!(host.verdicts.iter().all(|v| v.events.is_empty()));
    }
}

#[test]
fn the_arguments_follow_the_protocol_and_the_file_holds_the_history() {
    let mut host = Scripted::new(first_legal);
    CoupReferee.play(&setup(0, 7), &mut host).unwrap();
    let first = &host.asked[0];
    assert_eq!(first.seat, 0);
    assert_eq!(first.args[0], "alice_bob_0.txt");
    assert_eq!(first.args[1..3], ["1", "1"]);
    assert!(first.args[3].chars().all(|c| "~^*!$".contains(c)));
    assert_eq!(first.args[3].chars().count(), 2);
    assert_eq!(first.args[4..], ["I\n", "F", "E", "S", "T"]);
    assert_eq!(host.log[0], "--- alice vs. bob (alice_bob_0.txt)");
    assert_eq!(host.log[1], argv_line("alice", &first.args));
    assert_eq!(host.log[2], "alice played \"I\\n\"");
    // Each verdict's answer is the move; what it did is the log's line after it.
    assert_eq!(host.verdicts[0].answer, "I\n");
    assert_eq!(host.log[3], "alice received 1 coin of Income");
    assert!(host.asked.iter().all(|r| r.stdin.is_empty()));
}

#[test]
fn a_cheat_forfeits_with_the_reason() {
    let mut host = Scripted::new(|r: &DecisionRequest| {
        if r.seat == 1 {
            Answer {
                append: "XF".into(),
                ..first_legal(r)
            }
        } else {
            first_legal(r)
        }
    });
    let r = CoupReferee.play(&setup(0, 1), &mut host).unwrap();
    let d = detail(&r);
    assert_eq!(
        (d["winner"].as_u64(), d["how"].as_str()),
        (Some(0), Some("forfeit"))
    );
    assert_eq!(d["forfeit"]["kind"], "illegal move");
    let last = host.verdicts.last().unwrap();
    assert_eq!(last.answer, "XF");
    let failure = last.failure.as_ref().unwrap();
    assert_eq!(failure.kind, "illegal move");
    assert!(
        failure.detail.contains("appended \"XF\""),
        "{}",
        failure.detail
    );
    assert!(host
        .log
        .iter()
        .any(|l| l.starts_with("bob forfeits: made an illegal move")));
    assert!(host
        .log
        .iter()
        .any(|l| l == "bob's stderr ends with: thinking..."));
    assert_eq!(r.winners, [0]);
}

#[test]
fn a_crash_forfeits_before_the_file_is_judged() {
    let mut host = Scripted::new(|r: &DecisionRequest| Answer {
        outcome: Outcome::OutOfFuel,
        ..first_legal(r)
    });
    let r = CoupReferee.play(&setup(0, 1), &mut host).unwrap();
    assert_eq!(host.asked.len(), 1);
    let f = host.verdicts[0].failure.as_ref().unwrap();
    assert_eq!(
        (f.kind.as_str(), f.detail.as_str()),
        ("fuel", "the invocation ended with out of fuel")
    );
    // What it appended before it ran out is still recorded.
    assert_eq!(host.verdicts[0].answer, "I\n");
    assert_eq!(r.winners, [1]);
}

#[test]
fn the_file_rule_holds_and_each_break_is_named() {
    // Alice opens with Income (`I` and a newline); Bob then writes the whole file.
    let breaks: [(&[u8], &str); 4] = [
        (b"I\n", "nothing was appended"),
        (b"XY", "rewritten"),
        (b"I", "truncated"),
        (b"I\nI\nF", "3 characters"),
    ];
    for (whole, why) in breaks {
        let mut host = Scripted::new(|r: &DecisionRequest| match r.seat {
            0 => first_legal(r),
            _ => Answer {
                file: Some(whole.to_vec()),
                ..first_legal(r)
            },
        });
        let r = CoupReferee.play(&setup(0, 1), &mut host).unwrap();
        assert_eq!(host.asked.len(), 2);
        let f = host.verdicts[1].failure.as_ref().unwrap();
        assert_eq!(f.kind, "file");
        assert!(f.detail.contains(why), "{why}: {}", f.detail);
        assert_eq!(r.winners, [0]);
    }
    assert!(file_rule("I\n", Some(b"I\nI\n")).is_ok());
    assert!(
        matches!(file_rule("I\n", Some(b"I")), Err(Forfeit::FileRule(w)) if w.contains("truncated"))
    );
    assert!(matches!(file_rule("I\n", None), Err(Forfeit::FileRule(w)) if w.contains("deleted")));
    assert!(
        matches!(file_rule("", Some(&[0xff])), Err(Forfeit::FileRule(w)) if w.contains("not text"))
    );
}

#[test]
fn the_seed_deals_and_the_same_seed_gives_the_same_game() {
    let play = |seed| {
        let mut host = Scripted::new(first_legal);
        let r = CoupReferee.play(&setup(0, seed), &mut host).unwrap();
        (r.detail, host.asked[0].args[3].clone())
    };
    assert_eq!(play(11), play(11));
    let hands: std::collections::BTreeSet<String> = (0..20).map(|s| play(s).1).collect();
    assert!(hands.len() > 3, "the seed changes the deal: {hands:?}");
}

#[test]
fn the_description_is_two_seats_in_ordered_pairs_with_a_directory() {
    let d = CoupReferee.describe();
    assert_eq!(d.name, NAME);
    assert_eq!(d.seating, Seating::Fixed(2));
    assert_eq!(d.formats, [Format::OrderedPairs]);
    assert!(d.directory.is_some() && d.options.is_empty());
    assert!(CoupReferee.protocol().contains("history file"));
    assert!(tail("ééé", 3).len() <= 3 && tail("abc", 10) == "abc");
}

#[test]
fn argv_line_quotes_as_debug_does() {
    let args: Vec<String> = [
        "alice_bob_0.txt",
        "I\n",
        "say \"hi\"\\ \t\r",
        "",
        "caf\u{e9} \u{301}",
        "\0\u{7f}\u{1b}",
        "~^*!$",
    ]
    .map(String::from)
    .into();
    let debug: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    assert_eq!(
        argv_line("alice", &args),
        format!("alice {}", debug.join(" "))
    );
    assert_eq!(argv_line("bob", &[]), "bob ");
}
