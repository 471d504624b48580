//! The Euchre bots against the real rules, in process: every answer legal, the SDK agreeing
//! with the rules on every turn, some decisions checked by hand, the pair table, and the
//! binaries run once as processes with their memory file.

#[allow(dead_code)]
#[path = "../euchre/card_counter.rs"]
mod card_counter;
#[allow(dead_code)]
#[path = "../euchre/marius.rs"]
mod marius;
#[allow(dead_code)]
#[path = "../euchre/old_stager.rs"]
mod old_stager;
#[allow(dead_code)]
#[path = "../euchre/random_8020.rs"]
mod random_8020;

use koth::games::euchre::rules::{self, Config, Game, Kind, Outcome};
use koth_guest::euchre::{Answer, Card, Input, Memory, MEMORY_CAPACITY, MEMORY_LIMIT};
use koth_guest::Rng;
use rand_core::SeedableRng;

/// A bot's decision function: input, its own memory, a generator.
type Bot = fn(&Input, &mut Memory, &mut Rng) -> Answer;

fn random_bot(i: &Input, _: &mut Memory, r: &mut Rng) -> Answer {
    random_8020::decide(i, r)
}
fn marius_bot(i: &Input, m: &mut Memory, _: &mut Rng) -> Answer {
    marius::decide(i, m)
}
fn old_stager_bot(i: &Input, m: &mut Memory, _: &mut Rng) -> Answer {
    old_stager::decide(i, m)
}
fn card_counter_bot(i: &Input, m: &mut Memory, _: &mut Rng) -> Answer {
    card_counter::decide(i, m)
}

const BOTS: [(&str, Bot); 4] = [
    ("random_8020", random_bot),
    ("marius", marius_bot),
    ("old_stager", old_stager_bot),
    ("card_counter", card_counter_bot),
];

fn c(t: &str) -> Card {
    Card::parse(t).unwrap()
}

/// Plays one game, `a` in seats 0 and 2 and `b` in 1 and 3, each copy with its own memory.
/// Checks that the SDK parses every input and agrees with the rules on the legal answers,
/// and that no bot but Random 8020 (whose random names may hit the turned suit) is ever
/// corrected. Returns the outcome and the points.
fn play(a: (&str, Bot), b: (&str, Bot), seed: u64) -> (Outcome, [u32; 2]) {
    let config = Config {
        first_dealer: (seed % 4) as usize,
        ..Config::default()
    };
    let mut game = Game::new(config, rand_chacha::ChaCha8Rng::seed_from_u64(seed));
    let seats = [a, b, a, b];
    let mut memories: Vec<Memory> = (0..4).map(|_| Memory::in_memory(&[])).collect();
    let mut rng = Rng::from_seed(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    while let Some(d) = game.decision() {
        let text = game.input().unwrap();
        let input = Input::parse(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
        // The SDK and the rules agree on what is legal and on the default.
        if d.kind == Kind::Play {
            let sdk: Vec<String> = input.legal().iter().map(|a| a.token()).collect();
            let host: Vec<String> = game.legal().iter().map(|a| a.token()).collect();
            assert_eq!(sdk, host, "{text}");
        }
        if d.kind != Kind::Name {
            assert_eq!(
                input.default_answer().token(),
                game.default_answer().unwrap().token()
            );
        }
        let (name, bot) = seats[d.seat];
        let answer = bot(&input, &mut memories[d.seat], &mut rng);
        assert!(memories[d.seat].data().len() <= MEMORY_CAPACITY);
        let response = game.respond(answer.token().as_bytes()).unwrap();
        if let Some(bad) = response.rejected {
            assert!(
                name == "random_8020" && matches!(bad, rules::BadAnswer::TurnedSuit(_)),
                "{name} answered {answer:?} to {text:?}: {bad}"
            );
        }
    }
    (game.outcome().unwrap(), game.points())
}

#[test]
fn every_bot_answers_legally_in_whole_games() {
    for a in BOTS {
        for b in BOTS {
            for seed in 0..8 {
                let (outcome, points) = play(a, b, seed);
                assert!(matches!(outcome, Outcome::Won { .. }));
                assert!(points.iter().any(|&p| p >= rules::DEFAULT_TARGET));
            }
        }
    }
}

/// Games won by `a` (seats 0 and 2) over `games` games against `b`.
fn wins(a: (&str, Bot), b: (&str, Bot), games: u64) -> u64 {
    (0..games)
        .filter(|&seed| play(a, b, seed).0 == Outcome::Won { team: 0 })
        .count() as u64
}

#[test]
fn card_counter_beats_each_port_over_200_games() {
    let counter = BOTS[3];
    for port in &BOTS[..3] {
        let won = wins(counter, *port, 200);
        println!("card_counter vs {}: {won}-{}", port.0, 200 - won);
        assert!(
            won > 100,
            "card_counter won only {won} of 200 against {}",
            port.0
        );
    }
}

/// Prints the full pair table (run with `--ignored --nocapture`).
#[test]
#[ignore]
fn pair_table() {
    let games = std::env::var("EUCHRE_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    for a in BOTS {
        let row: Vec<String> = BOTS
            .iter()
            .map(|&b| format!("{:>5}", wins(a, b, games)))
            .collect();
        println!("{:>13} {}", a.0, row.join(" "));
    }
}

fn input(text: &str) -> Input {
    Input::parse(text).unwrap()
}

#[test]
fn random_8020_passes_most_of_the_time() {
    let mut rng = Rng::from_seed(1);
    let i = input("js,ah,qc,ts,jc\n2\n0\nordering\nth\np,p\n");
    let passes = (0..1000)
        .filter(|_| random_8020::decide(&i, &mut rng) == Answer::Pass)
        .count();
    // 80% plus half of the remaining 20%.
    assert!((850..950).contains(&passes), "{passes}");
    let i = input("9c,kd,as\n0\n0\nturn\nh\nqs,ks\n");
    for _ in 0..20 {
        assert_eq!(random_8020::decide(&i, &mut rng), Answer::Play(c("as")));
    }
    let i = input("\n0\n1\ntrick\n0\nh\njs,tc,p,ks\n");
    assert_eq!(random_8020::decide(&i, &mut rng), Answer::Nothing);
}

#[test]
fn marius_values_leads_and_follows() {
    assert_eq!(marius::value(c("jh"), koth_guest::euchre::Suit::Hearts), 7);
    assert_eq!(marius::value(c("jd"), koth_guest::euchre::Suit::Hearts), 6);
    let mut m = Memory::in_memory(&[]);
    // Right, left, ace of hearts and an off ace: 21, orders up.
    let i = input("jh,jd,ah,ac,9s\n0\n0\nordering\nth\n\n");
    assert_eq!(marius::decide(&i, &mut m), Answer::OrderUp);
    // It remembers the turned card and does not name its suit.
    let i = input("jh,jd,ah,ac,9s\n0\n0\nnaming\np,p\n");
    assert_eq!(
        marius::decide(&i, &mut m),
        Answer::Name(koth_guest::euchre::Suit::Diamonds)
    );
    // Leads an off-suit ace first.
    let i = input("jh,9s,ac\n0\n0\nturn\nh\n\n");
    assert_eq!(marius::decide(&i, &mut m), Answer::Play(c("ac")));
    // Follows higher when it can, else its lowest card.
    let i = input("9s,as,kc\n0\n0\nturn\nh\nks\n");
    assert_eq!(marius::decide(&i, &mut m), Answer::Play(c("as")));
    let i = input("9s,ts,kc\n0\n0\nturn\nh\nks\n");
    assert_eq!(marius::decide(&i, &mut m), Answer::Play(c("9s")));
}

#[test]
fn old_stager_bids_and_plays_by_its_rules() {
    let mut m = Memory::in_memory(&[]);
    // As dealer with the turned jack: right, left, ace after the pickup.
    let i = input("jd,ah,9c,ts,qc\n0\n0\nordering\njh\np,p,p\n");
    assert_eq!(old_stager::decide(&i, &mut m), Answer::OrderUp);
    // The discard keeps trumps and aces and voids a suit.
    let i = input("jd,ah,9c,ts,qc\n0\n0\ndiscard\njh\n");
    assert_eq!(old_stager::decide(&i, &mut m), Answer::Discard(c("ts")));
    // A weak hand passes.
    let i = input("9c,tc,9s,ts,qd\n0\n0\nordering\njh\n\n");
    assert_eq!(old_stager::decide(&i, &mut m), Answer::Pass);
    // Partner winning: play low.
    let i = input("as,9s,kc\n0\n0\nturn\nh\nks,qs\n");
    assert_eq!(old_stager::decide(&i, &mut m), Answer::Play(c("9s")));
    // Opponent winning: win as cheaply as possible.
    let i = input("as,ts,kc\n0\n0\nturn\nh\nqs\n");
    assert_eq!(old_stager::decide(&i, &mut m), Answer::Play(c("as")));
    let i = input("9h,jh,kc\n0\n0\nturn\nh\nas,9s\n");
    assert_eq!(old_stager::decide(&i, &mut m), Answer::Play(c("kc")));
}

#[test]
fn card_counter_remembers_the_cards_played() {
    let mut m = Memory::in_memory(&[]);
    let turn = |m: &mut Memory, t: &str| card_counter::decide(&input(t), m);
    turn(&mut m, "ks,qd,9c,th,9h\n0\n0\nordering\nah\n\n");
    // Trick 1 (this bot led): the ace of spades falls; the left opponent shows out of spades.
    turn(&mut m, "\n0\n0\ntrick\n0\nh\nts,9d,9s,as\n");
    let notes = card_counter::Notes::load(&m);
    assert!(notes.gone.contains(c("as")) && notes.gone.contains(c("9d")));
    assert_eq!(m.data().len(), 7);
    // The king of spades is now the boss spade: it is cashed... unless the left opponent,
    // known to be out of spades, could ruff while trumps are hidden: then it leads low.
    let a = turn(&mut m, "ks,qd,9c,th,9h\n0\n0\nturn\nh\n\n");
    assert_eq!(a, Answer::Play(c("9c")));
    // In a fresh deal with nobody shown out, the king is cashed once the ace is gone.
    turn(&mut m, "ks,qd,9c,th,9h\n0\n0\nordering\nah\n\n");
    turn(&mut m, "\n0\n0\ntrick\n3\nh\nas,ts,9s,qs\n");
    let a = turn(&mut m, "ks,qd,9c,th,9h\n0\n0\nturn\nh\n\n");
    assert_eq!(a, Answer::Play(c("ks")));
    // A partner's boss card is left alone.
    let a = turn(&mut m, "ks,9c,th,9h\n0\n1\nturn\nh\nad,9d\n");
    assert_eq!(a, Answer::Play(c("9c")));
}

#[test]
fn binaries_answer_on_stdout_and_keep_their_memory_small() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("koth-euchre-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |exe: &str, stdin: &str| -> String {
        let mut child = Command::new(exe)
            .current_dir(&dir)
            .env_clear()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(stdin.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{exe}");
        String::from_utf8(out.stdout).unwrap()
    };
    let exes = [
        env!("CARGO_BIN_EXE_random_8020"),
        env!("CARGO_BIN_EXE_marius"),
        env!("CARGO_BIN_EXE_old_stager"),
        env!("CARGO_BIN_EXE_card_counter"),
    ];
    for exe in exes {
        let out = run(exe, "js,ah,qc,ts,jc\n2\n0\nordering\nth\np,p\n");
        assert!(out == "o\n" || out == "p\n", "{exe}: {out:?}");
        assert_eq!(run(exe, "9c,kd,as\n0\n0\nturn\nh\nqs,ks\n"), "as\n");
        assert_eq!(run(exe, "\n0\n1\ntrick\n0\nh\njs,tc,p,ks\n"), "");
        if let Ok(meta) = std::fs::metadata(dir.join("euchre.mem")) {
            assert!(meta.len() <= MEMORY_LIMIT as u64);
        }
    }
    assert!(
        dir.join("euchre.mem").exists(),
        "the memory bots wrote their file"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
