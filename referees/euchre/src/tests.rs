//! The referee against a scripted host: what it records for crashes, bad answers and good
//! ones, how it seats and deals, and what it returns. Real wasm bots play it in
//! `tests/tests/euchre.rs`.

use super::*;
use koth_referee::{DecisionReport, Outcome as Ended, Seat};

/// A host whose bots answer through `answer`; it keeps what the referee recorded.
struct Scripted<F> {
    answer: F,
    asked: Vec<DecisionRequest>,
    verdicts: Vec<Verdict>,
    /// Each state shown, with the decision (its index) it follows.
    states: Vec<(usize, String)>,
    log: Vec<String>,
}

impl<F: FnMut(&DecisionRequest) -> (Ended, &'static str)> Scripted<F> {
    fn new(answer: F) -> Self {
        Scripted {
            answer,
            asked: Vec::new(),
            verdicts: Vec::new(),
            states: Vec::new(),
            log: Vec::new(),
        }
    }
}

impl<F: FnMut(&DecisionRequest) -> (Ended, &'static str)> Host for Scripted<F> {
    fn decide(&mut self, request: DecisionRequest) -> Result<DecisionReport, Abort> {
        assert_eq!(
            self.asked.len(),
            self.verdicts.len(),
            "each decision is judged before the next"
        );
        let (outcome, stdout) = (self.answer)(&request);
        self.asked.push(request);
        Ok(DecisionReport {
            outcome,
            stdout: stdout.as_bytes().to_vec(),
            stderr_tail: String::new(),
            fuel: 1,
        })
    }
    fn judge(&mut self, verdict: Verdict) -> Result<(), Abort> {
        self.verdicts.push(verdict);
        Ok(())
    }
    fn show(&mut self, state: &str) -> Result<(), Abort> {
        let decision = self.verdicts.len() - 1;
        assert!(
            self.states.last().is_none_or(|(d, _)| *d < decision),
            "at most one state per judged decision"
        );
        self.states.push((decision, state.to_string()));
        Ok(())
    }
    fn log(&mut self, line: &str) -> Result<(), Abort> {
        // koth's log joins entries with line breaks: one entry of several lines is several.
        self.log.extend(line.split('\n').map(str::to_string));
        Ok(())
    }
    fn read_file(&mut self, _: u32, _: &str) -> Result<Option<Vec<u8>>, Abort> {
        panic!("Euchre's referee never reads a seat's memory")
    }
    fn write_file(&mut self, _: u32, _: &str, _: &[u8]) -> Result<(), Abort> {
        panic!("Euchre's referee never writes a seat's memory")
    }
    fn remove_file(&mut self, _: u32, _: &str) -> Result<bool, Abort> {
        panic!("Euchre's referee never removes a seat's memory")
    }
    fn list_files(&mut self, _: u32) -> Result<Vec<(String, u64)>, Abort> {
        panic!("Euchre's referee never lists a seat's memory")
    }
    fn random(&mut self, _: u32) -> Result<Vec<u8>, Abort> {
        panic!("the deal comes from the match's seed")
    }
}

fn setup(bots: [&str; 4], round: u32, paired: bool, seed: u64) -> MatchSetup {
    MatchSetup {
        round,
        paired,
        seats: bots
            .iter()
            .enumerate()
            .map(|(s, b)| Seat {
                bot: b.to_string(),
                team: (s % 2) as u32,
            })
            .collect(),
        options: vec![(TARGET.into(), Value::Integer(5))],
        seed,
    }
}

const COPIES: [&str; 4] = ["a", "b", "a", "b"];

/// A game where every seat orders up (or the defaults would pass every deal in), then
/// crashes at every other decision, so that the defaults play whole deals.
fn orders_up_then_crashes() -> (
    Scripted<impl FnMut(&DecisionRequest) -> (Ended, &'static str)>,
    MatchResult,
) {
    let mut host = Scripted::new(|r: &DecisionRequest| match r.phase.as_str() {
        "ordering" => (Ended::Ok, "o"),
        _ => (Ended::Trap("unreachable".into()), ""),
    });
    let r = EuchreReferee
        .play(&setup(COPIES, 0, false, 3), &mut host)
        .unwrap();
    (host, r)
}

#[test]
fn crashed_decisions_get_the_defaults_and_the_game_ends() {
    let (host, r) = orders_up_then_crashes();
    assert!(!host.asked.is_empty());
    for (req, v) in host.asked.iter().zip(&host.verdicts) {
        if req.phase == "ordering" {
            assert!(v.failure.is_none() && v.answer == "o", "{v:?}");
            continue;
        }
        let f = v.failure.as_ref().expect("a crash is a failure");
        assert_eq!(f.kind, "trap");
        assert_eq!(f.detail, "the invocation ended with trap(unreachable)");
        assert!(req.args.is_empty() && !req.stdin.is_empty());
    }
    // Five points win: someone reached them, and each seat has its team's points.
    let pts = |s: usize| (r.seats[s].points_for, r.seats[s].points_against);
    assert_eq!(pts(0), pts(2));
    assert_eq!(pts(1), pts(3));
    assert_eq!(pts(0), (pts(1).1, pts(1).0));
    assert!(pts(0).0 >= 5 || pts(1).0 >= 5, "{:?}", r.seats);
    let team = (r.winners[0] % 2) as usize;
    assert_eq!(r.winners, vec![team as u32, team as u32 + 2]);
    assert_eq!(r.seats[team].score, 1);
    assert_eq!(r.seats[1 - team].score, 0);
    assert!(r.detail.starts_with(&format!(
        "{{\"first_dealer\":\"N\",\"result\":\"won\",\"team\":{team},"
    )));
    assert!(host
        .log
        .iter()
        .any(|l| l.contains("'s trick report ended with trap(unreachable)")));
    assert_eq!(
        host.log[0],
        "--- a (N) & a (S) against b (E) & b (W), first to 5"
    );
}

#[test]
fn a_bad_answer_is_named_and_a_trick_report_is_never_one() {
    let mut host = Scripted::new(|r: &DecisionRequest| match r.phase.as_str() {
        "ordering" => (Ended::Ok, "o"),
        _ => (Ended::Ok, "zz"),
    });
    EuchreReferee
        .play(&setup(COPIES, 1, false, 4), &mut host)
        .unwrap();
    let mut tricks = 0;
    for (req, v) in host.asked.iter().zip(&host.verdicts) {
        if req.phase == "ordering" {
            continue;
        }
        if req.phase == "trick" {
            tricks += 1;
            assert!(v.failure.is_none(), "{v:?}");
            assert_eq!(v.answer, "");
        } else {
            let f = v.failure.as_ref().expect("zz answers nothing");
            assert_eq!(f.kind, "bad answer");
            assert!(f.detail.contains("\"zz\" is not an answer"), "{}", f.detail);
            // The default is applied and told first.
            assert!(
                v.events[0].contains("replaced by the default"),
                "{:?}",
                v.events
            );
        }
        // Every event of the verdict is in the human log too.
        for e in &v.events {
            assert!(host.log.contains(e));
        }
    }
    assert!(tricks > 0);
}

#[test]
fn the_first_dealer_alternates_and_paired_twins_deal_alike() {
    let dealer = |bots, round, paired| first_dealer(&setup(bots, round, paired, 1));
    assert_eq!(
        (0..4).map(|r| dealer(COPIES, r, false)).collect::<Vec<_>>(),
        [0, 1, 0, 1]
    );
    assert_eq!(
        (0..4).map(|r| dealer(COPIES, r, true)).collect::<Vec<_>>(),
        [0, 0, 1, 1]
    );
    let four = ["a", "b", "c", "d"];
    assert_eq!(
        (0..5).map(|r| dealer(four, r, false)).collect::<Vec<_>>(),
        [0, 1, 2, 3, 0]
    );
    // Twins: the same seed and dealer, the teams' seats swapped; the first deal line
    // gives each seat the same cards.
    let deal = |bots, round, seed| {
        let mut host = Scripted::new(|_: &DecisionRequest| (Ended::Ok, "p"));
        EuchreReferee
            .play(&setup(bots, round, true, seed), &mut host)
            .unwrap();
        let line = host.log[1].clone();
        assert!(line.starts_with("deal 1:"), "{line}");
        line.split([';', '.'])
            .filter_map(|part| part.trim().rsplit(' ').next().map(str::to_string))
            .collect::<Vec<_>>()
    };
    assert_eq!(deal(COPIES, 0, 9), deal(["b", "a", "b", "a"], 1, 9));
    assert_ne!(deal(COPIES, 0, 9), deal(COPIES, 0, 10));
}

#[test]
fn the_same_setup_plays_the_same_game() {
    let play = || {
        let mut host = Scripted::new(|r: &DecisionRequest| {
            (Ended::Ok, if r.seat % 2 == 0 { "o" } else { "p" })
        });
        let r = EuchreReferee
            .play(&setup(COPIES, 2, false, 77), &mut host)
            .unwrap();
        (r, host.log, host.verdicts)
    };
    assert_eq!(play(), play());
}

#[test]
fn a_table_of_other_than_four_seats_is_refused() {
    let mut s = setup(COPIES, 0, false, 1);
    s.seats.pop();
    let mut host = Scripted::new(|_: &DecisionRequest| (Ended::Ok, "p"));
    let e = EuchreReferee.play(&s, &mut host).unwrap_err();
    assert!(e.reason().contains("not 3"), "{e}");
    assert!(host.asked.is_empty());
}

#[test]
fn the_description_is_euchre() {
    let d = EuchreReferee.describe();
    assert_eq!(d.name, NAME);
    assert_eq!(d.seating, Seating::Fixed(4));
    assert_eq!(d.teams, vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(d.partners, vec![Partners::Copies, Partners::Random]);
    assert_eq!(d.formats, vec![Format::Tables, Format::AllPlayAll]);
    assert_eq!(
        d.directory,
        Some(Directory {
            bytes: 1024,
            nodes: 64
        })
    );
    assert_eq!(d.options[0].default, Value::Integer(10));
}

#[test]
fn every_decision_shows_the_table_after_it() {
    let (host, r) = orders_up_then_crashes();
    // A decision shows the table when it changed: a trick's first reports never do.
    let reports = host.asked.iter().filter(|r| r.phase == "trick").count();
    assert!(host.states.len() <= host.verdicts.len() - reports / 2);
    for w in host.states.windows(2) {
        assert_ne!(w[0].1, w[1].1, "a state is shown only when it changes");
    }
    let states: Vec<(usize, serde_json::Value)> = host
        .states
        .iter()
        .map(|(d, s)| (*d, serde_json::from_str(s).expect("a state is JSON")))
        .collect();
    // A card played always changes the table (a pass or a trick's first reports need not).
    for (d, req) in host.asked.iter().enumerate() {
        assert!(
            req.phase != "turn" || states.iter().any(|(e, _)| *e == d),
            "decision {d} plays a card and shows no state"
        );
    }
    let mut plays = 0;
    for (d, st) in &states {
        let (req, v) = (&host.asked[*d], &host.verdicts[*d]);
        let hands = st["hands"].as_array().expect("four hands");
        assert_eq!(hands.len(), 4);
        let held: usize = hands.iter().map(|h| h.as_array().unwrap().len()).sum();
        assert!(held <= 21, "{st}");
        assert_eq!(st["target"], 5);
        if req.phase == "turn" {
            // The card just played lies on the table and left its hand.
            let card = serde_json::Value::from(v.answer.as_str());
            assert!(
                st["trick"].as_array().unwrap().contains(&card),
                "{v:?} {st}"
            );
            assert!(!hands[req.seat as usize].as_array().unwrap().contains(&card));
            assert!(st["trump"].is_string());
            plays += 1;
        }
    }
    assert!(plays >= 5, "a whole deal was played");
    // The last state holds the game's final points.
    let last = &states.last().unwrap().1;
    assert_eq!(last["points"][0], r.seats[0].points_for);
    assert_eq!(last["points"][1], r.seats[1].points_for);
}
