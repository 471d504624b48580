//! The referee against a scripted host: what it asks, how it reads bets, answers, crashes
//! and babble, what it logs and what it returns. koth's own tests play it with real wasm
//! bots (`tests/tests/bank_heist.rs`), and re-play through it archives its old built-in
//! driver wrote (`tests/tests/legacy_archives.rs`).

use super::*;
use koth_referee::{DecisionReport, Outcome, Seat};

/// A host whose bots answer through `answer` (their stdout, or how their invocation ended).
struct Scripted<F> {
    answer: F,
    asked: Vec<DecisionRequest>,
    verdicts: Vec<Verdict>,
    log: Vec<String>,
}

impl<F: FnMut(&DecisionRequest) -> Result<String, Outcome>> Scripted<F> {
    fn new(answer: F) -> Self {
        Scripted {
            answer,
            asked: Vec::new(),
            verdicts: Vec::new(),
            log: Vec::new(),
        }
    }

    fn log_text(&self) -> String {
        let mut s = self.log.join("\n");
        s.push('\n');
        s
    }
}

impl<F: FnMut(&DecisionRequest) -> Result<String, Outcome>> Host for Scripted<F> {
    fn decide(&mut self, request: DecisionRequest) -> Result<DecisionReport, Abort> {
        assert_eq!(
            self.asked.len(),
            self.verdicts.len(),
            "each decision judged"
        );
        let (outcome, stdout) = match (self.answer)(&request) {
            Ok(out) => (Outcome::Ok, out.into_bytes()),
            Err(o) => (o, b"1000".to_vec()),
        };
        self.asked.push(request);
        Ok(DecisionReport {
            outcome,
            stdout,
            stderr_tail: String::new(),
            fuel: 7,
        })
    }
    fn judge(&mut self, verdict: Verdict) -> Result<(), Abort> {
        self.verdicts.push(verdict);
        Ok(())
    }
    fn log(&mut self, line: &str) -> Result<(), Abort> {
        self.log.push(line.to_string());
        Ok(())
    }
    fn read_file(&mut self, _: u32, _: &str) -> Result<Option<Vec<u8>>, Abort> {
        panic!("Bank Heist has no files")
    }
    fn write_file(&mut self, _: u32, _: &str, _: &[u8]) -> Result<(), Abort> {
        panic!("Bank Heist has no files")
    }
    fn remove_file(&mut self, _: u32, _: &str) -> Result<bool, Abort> {
        panic!("Bank Heist has no files")
    }
    fn list_files(&mut self, _: u32) -> Result<Vec<(String, u64)>, Abort> {
        panic!("Bank Heist has no files")
    }
    fn random(&mut self, _: u32) -> Result<Vec<u8>, Abort> {
        panic!("the referee draws from its own seed")
    }
}

fn setup(bots: &[&str], games: i64) -> MatchSetup {
    MatchSetup {
        round: 0,
        paired: false,
        seats: bots
            .iter()
            .enumerate()
            .map(|(i, b)| Seat {
                bot: b.to_string(),
                team: i as u32,
            })
            .collect(),
        options: vec![
            (GAMES.into(), Value::Integer(games)),
            (RULES.into(), Value::Text("text".into())),
        ],
        seed: 3,
    }
}

/// Bots that never bet end with 240 × (G + 1), the spec's sanity figure; crashes and
/// babble cost a bet of 0 and are recorded with their kind and logged.
#[test]
fn failures_cost_a_zero_bet_and_are_recorded_and_logged() {
    let mut host = Scripted::new(|r: &DecisionRequest| match r.seat {
        0 => Ok("0\n".into()),
        1 => Err(Outcome::OutOfFuel),
        _ => Ok(if r.args[1] == "1" { "lots" } else { "all in" }.into()),
    });
    let result = BankHeistReferee
        .play(&setup(&["lurker", "crasher", "babbler"], 20), &mut host)
        .unwrap();
    assert_eq!(
        result.seats.iter().map(|s| s.score).collect::<Vec<_>>(),
        vec![240 * 21; 3]
    );
    assert_eq!(result.winners, vec![0, 1, 2]);
    assert_eq!(host.asked.len(), 60);
    assert!(host
        .asked
        .iter()
        .all(|a| a.args.len() == 31 && a.phase == "bet" && a.stdin.is_empty()));
    let kinds = |seat: u32| {
        host.asked
            .iter()
            .zip(&host.verdicts)
            .filter(|(a, _)| a.seat == seat)
            .filter_map(|(_, v)| v.failure.as_ref().map(|f| f.kind.clone()))
            .collect::<Vec<_>>()
    };
    assert!(kinds(0).is_empty());
    assert_eq!(kinds(1), vec!["fuel"; 20]);
    assert_eq!(kinds(2), vec![NOT_A_BET; 20]);
    assert!(host.verdicts.iter().all(|v| v.answer == "bet 0"));
    let log = host.log_text();
    assert!(log.contains("(crasher: the invocation ended with out of fuel; counted as bet 0)"));
    assert!(log.contains("(babbler: printed \"lots\", not an integer; counted as bet 0)"));
    assert!(log.contains("#####GAME 19: "));
    assert!(log.contains("\nResults:\n0. babbler: 5040\n1. crasher: 5040\n2. lurker: 5040\n"));
    let detail: serde_json::Value = serde_json::from_str(&result.detail).unwrap();
    assert_eq!(detail["games"], 20);
    assert_eq!(detail["rules"], "text");
    assert_eq!(detail["bots"][1]["bot"], "crasher");
    assert_eq!(detail["bots"][1]["credits"], 5040);
    assert_eq!(detail["bots"][1]["paycheck"], 240);
    assert_eq!(detail["bots"][1]["probability"][0], 0.54);
}

/// Round 2 asks the heisters with phase `heist`; its answers are read exactly, anything else
/// (and a crash) keeps the bet.
#[test]
fn round_two_reads_the_answer_and_a_crash_keeps_the_bet() {
    let mut host = Scripted::new(|r: &DecisionRequest| match (r.seat, r.args[1].as_str()) {
        (_, "1") => Ok("100".into()),
        (0, _) => Ok(" back out \n".into()),
        _ => Err(Outcome::Exit(3)),
    });
    BankHeistReferee
        .play(&setup(&["bettor", "keeper"], 3), &mut host)
        .unwrap();
    let answers: Vec<(&str, &str)> = host
        .asked
        .iter()
        .zip(&host.verdicts)
        .filter(|(a, _)| a.phase == "heist")
        .map(|(a, v)| (a.args[1].as_str(), v.answer.as_str()))
        .collect();
    assert_eq!(answers.len(), 6);
    assert_eq!(answers.iter().filter(|a| a.1 == "back out").count(), 3);
    assert_eq!(answers.iter().filter(|a| a.1 == "!guncheck").count(), 3);
    assert!(answers.iter().all(|a| a.0 == "2"));
    let log = host.log_text();
    assert!(log.contains("bettor decided to back out."));
    assert!(log.contains("keeper decided to !guncheck."));
    assert!(log.contains("(keeper: the invocation ended with exit(3); counted as !guncheck)"));
}

/// G is fixed by the option or drawn from 1000..=1100 by the match's seed, and the same seed
/// with a fixed G keeps the rules' seed.
#[test]
fn the_games_are_the_option_or_drawn_from_the_seed() {
    let (drawn, rules) = tournament_seeds(5, Some(0));
    assert!((1000..=1100).contains(&drawn));
    assert_eq!(tournament_seeds(5, None), (drawn, rules));
    assert_eq!(tournament_seeds(5, Some(7)), (7, rules));
    assert_ne!(tournament_seeds(6, None).1, rules);
}

/// The original controller's rules read a signed bet; an unknown rules name ends the match.
#[test]
fn the_rules_option_is_read() {
    let (r, f) = read(Variant::Original, Round::One, " -5 ", 100);
    assert_eq!((r, f), (Response::Bet(0), None));
    assert_eq!(
        read(Variant::Text, Round::One, "-5", 100).0,
        Response::Bet(0)
    );
    assert!(read(Variant::Text, Round::One, "-5", 100).1.is_some());
    assert_eq!(
        read(Variant::Text, Round::One, "900", 100).0,
        Response::Bet(100)
    );
    let mut s = setup(&["a"], 2);
    s.options[1].1 = Value::Text("prose".into());
    let mut host = Scripted::new(|_: &DecisionRequest| Ok("0".into()));
    let err = BankHeistReferee.play(&s, &mut host).unwrap_err();
    assert!(err.reason().contains("prose"), "{err}");
}

/// The description: every bot in every match, no directory, credits summed.
#[test]
fn it_describes_a_free_for_all_without_files() {
    let d = BankHeistReferee.describe();
    assert_eq!(d.name, NAME);
    assert_eq!(d.seating, Seating::Everyone);
    assert_eq!(d.formats, vec![Format::AllPlayAll]);
    assert_eq!(d.directory, None);
    assert_eq!(d.scoring.score_name.as_deref(), Some("credits"));
    assert_eq!(d.options.len(), 2);
    assert!(BankHeistReferee.protocol().contains("31"));
}

/// Bot output is arbitrary bytes: it always comes to a bet within the credits or an answer,
/// never a panic, and only exact protocol text counts as a named answer.
#[test]
fn arbitrary_output_always_comes_to_a_decision() {
    use rand_chacha::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let mut below = |n: u64| rng.next_u64() % n;
    for _ in 0..20_000 {
        let len = below(24);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if below(2) == 0 {
                    let alphabet = b"0123456789 \n-+.ealuoi";
                    alphabet[below(alphabet.len() as u64) as usize]
                } else {
                    below(256) as u8
                }
            })
            .collect();
        let text = String::from_utf8_lossy(&bytes);
        let credits = below(1_000_000);
        match read(Variant::Text, Round::One, &text, credits) {
            (Response::Bet(b), None) => {
                assert!(b <= credits);
                assert!(text.trim().bytes().all(|c| c.is_ascii_digit()));
            }
            (Response::Bet(0), Some(f)) => assert_eq!(f.kind, NOT_A_BET),
            other => panic!("{text:?} -> {other:?}"),
        }
        match read(Variant::Original, Round::One, &text, credits) {
            (Response::Bet(b), None) => {
                assert!(b <= credits);
                let t = text.trim();
                let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
                assert!(!digits.is_empty() && digits.bytes().all(|c| c.is_ascii_digit()));
            }
            (Response::Bet(0), Some(f)) => assert_eq!(f.kind, NOT_A_BET),
            other => panic!("{text:?} -> {other:?}"),
        }
        match read(Variant::Text, Round::Two, &text, credits) {
            (Response::Answer(Answer::Keep), None) => {}
            (Response::Answer(a), None) => assert_eq!(a.as_str(), text.trim()),
            other => panic!("{text:?} -> {other:?}"),
        }
    }
    assert_eq!(default(Round::Two), Response::Answer(Answer::Keep));
    assert_eq!(default(Round::One), Response::Bet(0));
}
