//! Runs every example bot natively, as separate processes, the way the original arbiter
//! does: against each worked example of the seed (every prefix, several hands and coin
//! counts), and in whole games against each other with a port of the arbiter's game loop.
//! A bot must always append exactly one legal action, print a valid Exchange choice when
//! finishing an Exchange (and nothing otherwise), and exit 0.

use koth_guest::coup::{cards_to_string, legal_actions, parse_cards, Card};
use koth_guest::Rng;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Every bot binary, by name.
fn bots() -> Vec<(&'static str, PathBuf)> {
    vec![
        ("first_legal", env!("CARGO_BIN_EXE_first_legal").into()),
        ("random", env!("CARGO_BIN_EXE_random").into()),
        ("challenger", env!("CARGO_BIN_EXE_challenger").into()),
        ("lawyer", env!("CARGO_BIN_EXE_lawyer").into()),
        ("mask", env!("CARGO_BIN_EXE_mask").into()),
        ("taxman", env!("CARGO_BIN_EXE_taxman").into()),
        ("bandit", env!("CARGO_BIN_EXE_bandit").into()),
    ]
}

/// A fresh empty directory: the bot's own directory, as koth gives it. Deleted when dropped.
fn temp_dir(tag: &str) -> TempPath {
    let dir = tempfile::Builder::new()
        .prefix(&format!("koth-example-bots-{tag}-"))
        .tempdir()
        .unwrap();
    TempPath(dir)
}

/// A temporary directory, usable as a path, deleted when dropped.
struct TempPath(tempfile::TempDir);

impl std::ops::Deref for TempPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for TempPath {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// What one invocation did.
struct Outcome {
    appended: String,
    stdout: String,
}

/// Runs `exe` in `dir` on `history` with argv as the arbiter builds it; checks the file was
/// only appended to and the exit status, and returns what was appended and printed.
fn invoke(
    exe: &Path,
    dir: &Path,
    history: &str,
    opp_coins: i32,
    my_coins: i32,
    cards: &str,
    legal: &[String],
) -> Result<Outcome, String> {
    let file = dir.join("history.txt");
    std::fs::write(&file, history).unwrap();
    let output = Command::new(exe)
        .current_dir(dir)
        .env_clear()
        .arg("history.txt")
        .arg(opp_coins.to_string())
        .arg(my_coins.to_string())
        .arg(cards)
        .args(legal)
        .output()
        .map_err(|e| format!("spawn: {e}"))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        return Err(format!("exit {:?}, stderr: {stderr}", output.status));
    }
    let new = std::fs::read_to_string(&file).map_err(|e| format!("history: {e}"))?;
    let appended = new
        .strip_prefix(history)
        .ok_or_else(|| format!("history rewritten: {new:?}"))?
        .to_string();
    Ok(Outcome {
        appended,
        stdout: String::from_utf8(output.stdout).map_err(|e| format!("stdout: {e}"))?,
    })
}

/// The arbiter's test for "this invocation finishes an Exchange": the last line starts with
/// `E`, has an even length and ends in a pass or a card given up.
fn finishing_exchange(history: &str) -> bool {
    let line = history.rsplit('\n').next().unwrap_or("");
    line.starts_with('E') && line.len() % 2 == 0 && line.ends_with(['p', '_', '\'', '<', '=', '0'])
}

/// Checks an Exchange output: exactly `keep` cards, each one of the offered.
fn valid_exchange(offered: &str, keep: usize, output: &str) -> bool {
    let Some(mut available) = parse_cards(offered) else {
        return false;
    };
    let Some(kept) = parse_cards(output.trim()) else {
        return false;
    };
    kept.len() == keep
        && kept
            .iter()
            .all(|card| match available.iter().position(|c| c == card) {
                Some(i) => {
                    available.remove(i);
                    true
                }
                None => false,
            })
}

/// Runs one invocation and checks everything the arbiter (and koth, more strictly) checks.
fn check_invocation(
    name: &str,
    exe: &Path,
    dir: &Path,
    history: &str,
    (opp_coins, my_coins): (i32, i32),
    cards: &str,
    legal: &[String],
) -> Result<Outcome, String> {
    let context = format!("{name} on {history:?} cards {cards:?} legal {legal:?}");
    let out = invoke(exe, dir, history, opp_coins, my_coins, cards, legal)
        .map_err(|e| format!("{context}: {e}"))?;
    if !legal.contains(&out.appended) {
        return Err(format!("{context}: appended {:?}", out.appended));
    }
    if finishing_exchange(history) {
        let keep = cards.chars().count() - 2;
        if !valid_exchange(cards, keep, &out.stdout) {
            return Err(format!("{context}: exchange output {:?}", out.stdout));
        }
    } else if !out.stdout.is_empty() {
        return Err(format!("{context}: unexpected stdout {:?}", out.stdout));
    }
    Ok(out)
}

/// The seed's worked examples (plus the block and challenge lines), split into writes.
const EXAMPLES: &[&[&str]] = &[
    &["I\n"],
    &["F", "p", "\n"],
    &["C", "=", "\n"],
    &["E", "q", "~", "<", "\n"],
    &["T", "q", "'\n"],
    &["A", "s", "q", "!", "'\n"],
    &["S", "q", "*", "0", "\n"],
    &["S", "p", "\n"],
    &["A", "=", "\n"],
    &["E", "p", "\n"],
    &["F", "d", "q", "$", "<\n"],
    &["F", "d", "q", "<", "\n"],
    &["S", "a", "q", "~", "0\n"],
    &["S", "c", "\n"],
    &["A", "q", "^"],
    &["A", "s", "q"],
];

/// Hands to try: typical ones, a single card, duplicates.
const HANDS: &[&[Card]] = &[
    &[Card::Duke, Card::Captain],
    &[Card::Ambassador, Card::Contessa],
    &[Card::Assassin, Card::Assassin],
    &[Card::Contessa],
    &[Card::Captain],
];

/// Coin counts (opponent's, own) to pair with the hands: poor, rich, forced to Coup.
const COINS: &[(i32, i32)] = &[(1, 1), (0, 4), (2, 7), (5, 10)];

/// Every prefix of every example, from both seats, with each hand (and a coin count that
/// rotates with it), for one bot. Returns the number of invocations checked.
fn answer_examples(name: &str, exe: &Path) -> usize {
    let dir = temp_dir(name);
    let mut checked = 0;
    for example in EXAMPLES {
        for context in ["", "I\n", "I\nI\n"] {
            for k in 0..example.len() {
                let history = format!("{context}{}", example[..k].concat());
                for (h, hand) in HANDS.iter().enumerate() {
                    let coins = COINS[(h + k + context.len()) % COINS.len()];
                    let mut cards = hand.to_vec();
                    if finishing_exchange(&history) {
                        cards.splice(0..0, [Card::Duke, Card::Ambassador]);
                    }
                    let legal = legal_actions(&history, &cards, coins.1 as u32, coins.0 as u32);
                    assert!(!legal.is_empty(), "{history:?}");
                    let cards = cards_to_string(&cards);
                    check_invocation(name, exe, &dir, &history, coins, &cards, &legal)
                        .unwrap_or_else(|e| panic!("{e}"));
                    checked += 1;
                }
            }
        }
    }
    checked
}

#[test]
fn every_bot_answers_every_worked_example_legally() {
    // One thread per bot: each invocation is a process, and there are thousands.
    let handles: Vec<_> = bots()
        .into_iter()
        .map(|(name, exe)| std::thread::spawn(move || answer_examples(name, &exe)))
        .collect();
    let checked: usize = handles.into_iter().map(|h| h.join().unwrap()).sum();
    assert!(checked > 1000, "{checked}");
}

#[test]
fn first_legal_appends_argv5_and_keeps_the_first_cards() {
    let (_, exe) = &bots()[0];
    let dir = temp_dir("first");
    let legal = legal_actions("I\nS", &[Card::Duke, Card::Captain], 1, 1);
    let out = check_invocation("first_legal", exe, &dir, "I\nS", (1, 1), "$*", &legal).unwrap();
    assert_eq!(out.appended, "a");
    let out = check_invocation(
        "first_legal",
        exe,
        &dir,
        "Eq~<",
        (1, 1),
        "^*~$",
        &["\n".into()],
    )
    .unwrap();
    assert_eq!(out.stdout, "^*");
    let out = check_invocation(
        "first_legal",
        exe,
        &dir,
        "Ep",
        (1, 1),
        "^*~",
        &["\n".into()],
    )
    .unwrap();
    assert_eq!(out.stdout, "^");
}

#[test]
fn sdk_bots_fail_cleanly_on_bad_argv() {
    for (name, exe) in bots() {
        let dir = temp_dir("bad");
        let status = Command::new(&exe)
            .current_dir(&dir)
            .env_clear()
            .arg("history.txt")
            .status()
            .unwrap();
        assert!(!status.success(), "{name} accepted a bare argv");
        assert_eq!(status.code(), Some(1), "{name} must exit 1, not panic");
    }
}

/// One player in the arbiter's game loop.
struct Seat {
    name: &'static str,
    exe: PathBuf,
    dir: TempPath,
    coins: i32,
    cards: Vec<Card>,
}

/// How a game ended.
#[derive(Debug, PartialEq)]
enum End {
    Winner(&'static str),
    Draw,
}

fn remove_card(cards: &mut Vec<Card>, card: Card) {
    if let Some(i) = cards.iter().position(|&c| c == card) {
        cards.remove(i);
    }
}

/// A port of the original arbiter's `play_game` (with koth's stricter check that the
/// appended text equals a legal action). A forfeit is returned as an error: none of these
/// bots may ever forfeit.
fn play_game(a: (&'static str, &Path), b: (&'static str, &Path), seed: u64) -> Result<End, String> {
    let mut rng = Rng::from_seed(seed);
    let mut deck: Vec<Card> = Card::ALL.iter().flat_map(|&c| [c; 3]).collect();
    rng.shuffle(&mut deck);
    let deal = |deck: &mut Vec<Card>| vec![deck.pop().unwrap(), deck.pop().unwrap()];
    let mut seats = [
        Seat {
            name: a.0,
            exe: a.1.into(),
            dir: temp_dir(a.0),
            coins: 1,
            cards: deal(&mut deck),
        },
        Seat {
            name: b.0,
            exe: b.1.into(),
            dir: temp_dir(b.0),
            coins: 1,
            cards: deal(&mut deck),
        },
    ];
    let mut history = String::new();
    let mut current = 0;
    for _ in 0..200 {
        let other = 1 - current;
        let legal = legal_actions(
            &history,
            &seats[current].cards,
            seats[current].coins as u32,
            seats[other].coins as u32,
        );
        let mut offered = Vec::new();
        if finishing_exchange(&history) {
            offered.push(deck.pop().unwrap());
            offered.push(deck.pop().unwrap());
        }
        offered.extend(seats[current].cards.iter().copied());
        let cards = cards_to_string(&offered);
        let p = &seats[current];
        let out = check_invocation(
            p.name,
            &p.exe,
            &p.dir,
            &history,
            (seats[other].coins, p.coins),
            &cards,
            &legal,
        )?;
        let mv = out.appended;
        history.push_str(&mv);
        let line = history
            .strip_suffix('\n')
            .unwrap_or(&history)
            .rsplit('\n')
            .next()
            .unwrap_or("")
            .to_string();
        let line: Vec<char> = line.chars().collect();
        let first = mv.chars().next().unwrap();
        // The side effects, in the arbiter's order.
        if mv == "I\n" {
            seats[current].coins += 1;
        } else if mv.chars().count() == 2 {
            // A card given up on one's own turn (line includes the final newline here).
            remove_card(
                &mut seats[current].cards,
                Card::from_surrender_char(first).unwrap(),
            );
            let full: Vec<char> = history.rsplit('\n').nth(1).unwrap().chars().collect();
            if full.len() >= 2 && full[full.len() - 2] == '!' {
                seats[current].coins -= 3;
            }
        } else if let Some(card) = Card::from_surrender_char(first) {
            remove_card(&mut seats[current].cards, card);
            match line[0] {
                'C' => seats[other].coins -= 7,
                'A' => seats[other].coins -= 3,
                _ => {}
            }
            if line[0] == 'A' && (line[1] == 'q' || line[1] == 's') && line.len() == 4 {
                return Ok(End::Winner(seats[other].name));
            }
        } else if let Some(card) = Card::from_reveal_char(first) {
            // A revealed card is replaced, except an Ambassador proving an Exchange.
            if card != Card::Ambassador || line[0] == 'S' {
                remove_card(&mut seats[current].cards, card);
                seats[current].cards.push(deck.pop().unwrap());
                deck.push(card);
                rng.shuffle(&mut deck);
            }
        } else if mv == "\n" {
            let done: Vec<char> = history.rsplit('\n').nth(1).unwrap().chars().collect();
            let last_action = done[done.len() - 1];
            if "p_'<=0".contains(last_action) {
                match done[0] {
                    'F' => seats[current].coins += 2,
                    'T' => seats[current].coins += 3,
                    'S' => {
                        let stolen = if seats[other].coins == 1 { 1 } else { 2 };
                        seats[current].coins += stolen;
                        seats[other].coins -= stolen;
                    }
                    'E' => {
                        let kept = parse_cards(out.stdout.trim()).unwrap();
                        let mut rest = offered.clone();
                        for &c in &kept {
                            remove_card(&mut rest, c);
                        }
                        seats[current].cards = kept;
                        deck.extend(rest);
                        rng.shuffle(&mut deck);
                    }
                    _ => {}
                }
            } else if last_action == 's' {
                seats[current].coins -= 3;
            }
        }
        if seats[current].cards.is_empty() {
            return Ok(End::Winner(seats[other].name));
        }
        if seats.iter().any(|s| s.coins < 0) {
            return Err(format!("negative coins after {history:?}"));
        }
        current = other;
    }
    Ok(End::Draw)
}

#[test]
fn whole_games_between_all_bots_have_no_forfeits() {
    const ROUNDS: u64 = 3;
    let bots = bots();
    // Each bot's games as the first player run on their own thread.
    let handles: Vec<_> = (0..bots.len())
        .map(|i| {
            let bots = bots.clone();
            std::thread::spawn(move || {
                let a = &bots[i];
                let mut results = Vec::new();
                for (j, b) in bots.iter().enumerate().filter(|&(j, _)| j != i) {
                    for round in 0..ROUNDS {
                        let seed = (i as u64) << 32 | (j as u64) << 16 | round;
                        match play_game((a.0, &a.1), (b.0, &b.1), seed) {
                            Ok(end) => results.push(end),
                            Err(e) => panic!("{} vs {} (seed {seed}): {e}", a.0, b.0),
                        }
                    }
                }
                results
            })
        })
        .collect();
    let results: Vec<End> = handles
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    assert_eq!(results.len() as u64, 7 * 6 * ROUNDS);
    // A leaderboard on stderr, for the curious (`--nocapture`).
    let mut wins: Vec<(usize, &str)> = bots
        .iter()
        .map(|(name, _)| {
            let n = results.iter().filter(|e| **e == End::Winner(name)).count();
            (n, *name)
        })
        .collect();
    wins.sort_by(|a, b| b.cmp(a));
    let draws = results.iter().filter(|e| **e == End::Draw).count();
    eprintln!("wins: {wins:?}, draws: {draws}");
    assert!(draws < results.len(), "every game was a draw");
}
