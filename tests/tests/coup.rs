//! Coup with real wasm bots: every broken rule costs the game with the reason logged, and a
//! tournament's archive is byte-identical whatever the number of workers.

use koth::games::coup::driver::{play, Forfeit, GameResult, GameSetup};
use koth::games::coup::tournament::{self, CoupOptions, ScratchScope};
use koth::games::Player;
use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Bot, Limits, Outcome, Sandbox, SandboxOptions, TrapKind, Vfs, VfsLimits};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

fn sandbox() -> Sandbox {
    Sandbox::new(SandboxOptions::default()).expect("sandbox")
}

fn cheater(sb: &Sandbox, mode: &str) -> Bot {
    sb.load_file(
        &koth_tests::wasm("coup_cheater"),
        Some(&format!("cheat_{mode}")),
    )
    .expect("load cheater")
}

/// A bot as a game's player.
fn player(bot: &Bot) -> Arc<dyn Player> {
    Arc::new(bot.clone())
}

/// Play one game, the cheater first, against an honest opponent.
fn game_against(
    sb: &Sandbox,
    cheat: &Bot,
    limits: Limits,
) -> koth::games::coup::driver::GameRecord {
    let honest = sb
        .load_file(&koth_tests::wasm("first_legal"), None)
        .expect("load first_legal");
    let setup = GameSetup {
        round: 0,
        deck_seed: 42,
        game_seed: 1,
        clock_base_ns: 0,
        limits,
    };
    let (mut a, mut b) = (
        Vfs::new(VfsLimits::default()),
        Vfs::new(VfsLimits::default()),
    );
    play(&setup, [&player(cheat), &player(&honest)], [&mut a, &mut b])
}

/// The cheater (seat 0) must lose by this forfeit, with the reason in the human log.
fn assert_forfeit(mode: &str, expect: impl Fn(&Forfeit) -> bool, log_words: &str) {
    let sb = sandbox();
    let bot = cheater(&sb, mode);
    let rec = game_against(
        &sb,
        &bot,
        Limits {
            fuel: 200_000_000,
            ..Limits::default()
        },
    );
    let GameResult::Won {
        winner,
        how,
        forfeit: Some(f),
    } = &rec.result
    else {
        panic!(
            "{mode}: expected a forfeit, got {:?}\n{}",
            rec.result,
            rec.human_log.join("\n")
        );
    };
    assert_eq!((*winner, how.as_str()), (1, "forfeit"), "{mode}");
    assert!(expect(f), "{mode}: unexpected forfeit {f:?}");
    let log = rec.human_log.join("\n");
    assert!(
        log.contains("cheat_") && log.contains("forfeits") && log.contains(log_words),
        "{mode}: log lacks {log_words:?}:\n{log}"
    );
    // The game stopped at the cheater's first invocation, and the structured log has it.
    assert_eq!(rec.log.len(), 1, "{mode}");
    assert_eq!(
        rec.history, "",
        "{mode}: a forfeited move never reaches the history"
    );
}

#[test]
fn deleting_renaming_or_replacing_the_history_forfeits() {
    for mode in ["delete", "rename", "directory", "symlink"] {
        assert_forfeit(
            mode,
            |f| matches!(f, Forfeit::FileRule(w) if w.contains("deleted, renamed or replaced")),
            "file rule",
        );
    }
}

#[test]
fn appending_three_characters_or_nothing_forfeits() {
    assert_forfeit(
        "append3",
        |f| matches!(f, Forfeit::FileRule(w) if w.contains("characters were appended")),
        "characters were appended",
    );
    assert_forfeit(
        "nothing",
        |f| matches!(f, Forfeit::FileRule(w) if w.contains("nothing was appended")),
        "nothing was appended",
    );
}

#[test]
fn an_illegal_action_forfeits() {
    assert_forfeit(
        "illegal",
        |f| matches!(f, Forfeit::IllegalMove(w) if w.contains("\"Z\"")),
        "illegal move",
    );
}

#[test]
fn every_sandbox_outcome_forfeits() {
    assert_forfeit(
        "trap",
        |f| *f == Forfeit::Crash(Outcome::Trap(TrapKind::Unreachable)),
        "trap(unreachable executed)",
    );
    assert_forfeit(
        "exit",
        |f| *f == Forfeit::Crash(Outcome::Exit(1)),
        "exit(1)",
    );
    assert_forfeit(
        "spin",
        |f| *f == Forfeit::Crash(Outcome::OutOfFuel),
        "out of fuel",
    );
    assert_forfeit(
        "stdout",
        |f| *f == Forfeit::Crash(Outcome::OutputLimit),
        "output limit",
    );
}

#[test]
fn a_panicking_bot_has_its_stderr_in_the_log() {
    let sb = sandbox();
    let bot = cheater(&sb, "trap");
    let rec = game_against(&sb, &bot, Limits::default());
    assert!(
        rec.log[0].stderr_tail.contains("deliberate panic"),
        "{:?}",
        rec.log[0]
    );
    assert!(rec.human_log.join("\n").contains("deliberate panic"));
}

#[test]
fn rewriting_a_nonempty_history_forfeits() {
    // Seat 1 sees a non-empty history on its first move: put the cheater second.
    let sb = sandbox();
    let honest = sb
        .load_file(&koth_tests::wasm("first_legal"), None)
        .unwrap();
    for mode in ["rewrite", "truncate"] {
        let bot = cheater(&sb, mode);
        let setup = GameSetup {
            round: 0,
            deck_seed: 3,
            game_seed: 1,
            clock_base_ns: 0,
            limits: Limits::default(),
        };
        let (mut a, mut b) = (
            Vfs::new(VfsLimits::default()),
            Vfs::new(VfsLimits::default()),
        );
        let rec = play(&setup, [&player(&honest), &player(&bot)], [&mut a, &mut b]);
        match &rec.result {
            GameResult::Won {
                winner: 0,
                forfeit: Some(Forfeit::FileRule(w)),
                ..
            } => {
                let expect = if mode == "truncate" {
                    "truncated"
                } else {
                    "rewritten"
                };
                assert!(w.contains(expect), "{mode}: {w}");
                assert!(rec.human_log.join("\n").contains(expect));
            }
            other => panic!("{mode}: {other:?}\n{}", rec.human_log.join("\n")),
        }
    }
}

#[test]
fn an_illegal_exchange_forfeits() {
    // The cheater exchanges as soon as it can; unchallenged by first_legal (who passes or
    // challenges first-legal-wise), it must then print a choice; it prints cards never offered.
    let sb = sandbox();
    let bot = cheater(&sb, "exchange");
    let honest = sb
        .load_file(&koth_tests::wasm("first_legal"), None)
        .unwrap();
    let mut seen = false;
    for seed in 0..20 {
        let setup = GameSetup {
            round: 0,
            deck_seed: seed,
            game_seed: 1,
            clock_base_ns: 0,
            limits: Limits::default(),
        };
        let (mut a, mut b) = (
            Vfs::new(VfsLimits::default()),
            Vfs::new(VfsLimits::default()),
        );
        let rec = play(&setup, [&player(&bot), &player(&honest)], [&mut a, &mut b]);
        if let GameResult::Won {
            winner: 1,
            forfeit: Some(Forfeit::IllegalExchange(w)),
            ..
        } = &rec.result
        {
            assert!(w.contains("offered"), "{w}");
            assert!(rec.human_log.join("\n").contains("illegal exchange"));
            seen = true;
            break;
        }
    }
    assert!(seen, "no game reached an exchange completion");
}

fn run_archive(
    bots: &[(Bot, PathBuf)],
    sb: &Sandbox,
    scratch: ScratchScope,
    jobs: usize,
    seed: u64,
) -> BTreeMap<String, Vec<u8>> {
    let players = koth_tests::players(bots.iter().map(|(b, _)| b));
    let opts = CoupOptions {
        rounds: 2,
        seed,
        scratch,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, jobs, &|_, _| {}).unwrap();
    assert_eq!(t.records.len(), 2 * bots.len() * (bots.len() - 1));
    assert_eq!(t.void_games(), 0);
    koth_tests::coup_archive(&t, bots, opts, sb)
}

/// The example bots `names`, then `coup_cheater` as `cheat_counter`: a bot that keeps state in
/// scratch, which makes the scratch scope observable.
fn with_cheat_counter(sb: &Sandbox, names: &[&str]) -> Vec<(Bot, PathBuf)> {
    let mut bots: Vec<(Bot, PathBuf)> = names
        .iter()
        .map(|n| {
            let p = koth_tests::wasm(n);
            (sb.load_file(&p, None).unwrap(), p)
        })
        .collect();
    let p = koth_tests::wasm("coup_cheater");
    bots.push((sb.load_file(&p, Some("cheat_counter")).unwrap(), p));
    bots
}

#[test]
fn archives_are_identical_for_any_worker_count_in_both_scratch_scopes() {
    let sb = sandbox();
    let bots = with_cheat_counter(&sb, &["random", "challenger", "lawyer", "taxman"]);
    for scope in [ScratchScope::Game, ScratchScope::Tournament] {
        let one = run_archive(&bots, &sb, scope, 1, 7);
        let three = run_archive(&bots, &sb, scope, 3, 7);
        assert_eq!(
            one.keys().collect::<Vec<_>>(),
            three.keys().collect::<Vec<_>>(),
            "{scope:?}: file lists differ"
        );
        for (k, v) in &one {
            assert!(
                v == &three[k],
                "{scope:?}: {k} differs between --jobs 1 and --jobs 3"
            );
        }
        assert!(
            one.contains_key("manifest.json")
                && one.contains_key("results.json")
                && one.contains_key("invocations.jsonl.zst")
        );
        // The per-game files are in the container only: no folder of them on disk.
        assert!(!one
            .keys()
            .any(|k| k.starts_with("histories/") || k.starts_with("logs/")));
        assert_eq!(
            one.keys()
                .filter(|k| k.starts_with("matches.zip.zst/histories/"))
                .count(),
            40
        );
        assert_eq!(
            one.keys()
                .filter(|k| k.starts_with("matches.zip.zst/logs/"))
                .count(),
            40
        );
        if scope == ScratchScope::Tournament {
            // One counter for the whole tournament: it counted every invocation of the bot.
            let counter =
                String::from_utf8(one["matches.zip.zst/scratch/cheat_counter/counter"].clone())
                    .unwrap();
            let n: u64 = counter.trim().parse().unwrap();
            let results: serde_json::Value = serde_json::from_slice(&one["results.json"]).unwrap();
            let row = results["bots"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["bot"] == "cheat_counter")
                .unwrap();
            assert_eq!(n, row["invocations"].as_u64().unwrap());
        } else {
            assert!(one.keys().any(|k| k.starts_with("matches.zip.zst/scratch/")
                && k.ends_with("/cheat_counter/counter")));
        }
        // Another seed gives another tournament.
        let other = run_archive(&bots, &sb, scope, 2, 8);
        assert_ne!(one["results.json"], other["results.json"]);
    }
}

#[test]
fn the_matches_container_holds_each_games_log_and_history_then_the_scratch_stored_and_dated_alike()
{
    let sb = sandbox();
    let bots = with_cheat_counter(&sb, &["random", "taxman"]);
    let players = koth_tests::players(bots.iter().map(|(b, _)| b));
    let opts = CoupOptions {
        rounds: 1,
        seed: 4,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, 2, &|_, _| {}).unwrap();
    let archive = koth_tests::coup_archive(&t, &bots, opts, &sb);
    // Nothing per game on disk: the folder holds the container and the summing up.
    let on_disk: Vec<&str> = archive
        .keys()
        .filter(|k| !k.starts_with("matches.zip.zst/"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        on_disk,
        [
            "head-to-head.txt",
            "invocations.jsonl.zst",
            "leaderboard.txt",
            "manifest.json",
            "matches.zip.zst",
            "results.json"
        ]
    );
    // The entries, in order: each game's log and history, then what bots left.
    let tmp = tempfile::tempdir().unwrap();
    let packed = tmp.path().join("matches.zip.zst");
    std::fs::write(&packed, &archive["matches.zip.zst"]).unwrap();
    let zip = koth::tournament::seekable::read_file(&packed).unwrap();
    std::fs::write(tmp.path().join("matches.zip"), &zip).unwrap();
    let entries = koth_tests::container_entries(&tmp.path().join("matches.zip"));
    assert_eq!(koth_tests::container_entries(&packed), entries);
    // Any zstd tool restores the zip (the zstd command's, where installed).
    if let Ok(o) = std::process::Command::new("zstd")
        .arg("-dc")
        .arg(&packed)
        .output()
    {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(o.stdout == zip, "zstd -d gives the zip");
    }
    let mut expected: Vec<(String, Vec<u8>)> = Vec::new();
    for r in &t.records {
        let mut log = r.human_log.join("\n");
        log.push('\n');
        let stem = r.file_name.trim_end_matches(".txt");
        expected.push((format!("logs/{stem}.log"), log.into_bytes()));
        expected.push((
            format!("histories/{}", r.file_name),
            r.history.clone().into_bytes(),
        ));
    }
    for (owner, left) in &t.scratch {
        for e in left {
            match e {
                SnapshotEntry::Dir(p) => expected.push((format!("scratch/{owner}/{p}/"), vec![])),
                SnapshotEntry::File(p, d) => {
                    expected.push((format!("scratch/{owner}/{p}"), d.clone()))
                }
                SnapshotEntry::Symlink(..) => {}
            }
        }
    }
    assert_eq!(t.records.len(), 6);
    assert!(
        expected
            .iter()
            .any(|(n, _)| n.ends_with("/cheat_counter/counter")),
        "the counting bot left its counter"
    );
    assert_eq!(entries, expected);
    // Every entry stored (method 0) and dated 1980-01-01 00:00: walk the local headers.
    let u16_at = |at: usize| u16::from_le_bytes([zip[at], zip[at + 1]]);
    let u32_at = |at: usize| u32::from_le_bytes([zip[at], zip[at + 1], zip[at + 2], zip[at + 3]]);
    let mut at = 0;
    for (name, data) in &entries {
        assert_eq!(u32_at(at), 0x0403_4b50, "{name}: a local header");
        assert_eq!(u16_at(at + 8), 0, "{name}: stored");
        assert_eq!(
            (u16_at(at + 10), u16_at(at + 12)),
            (0, 0x21),
            "{name}: dated"
        );
        assert_eq!(u32_at(at + 22) as usize, data.len(), "{name}: size");
        let (name_len, extra_len) = (u16_at(at + 26) as usize, u16_at(at + 28) as usize);
        assert_eq!(&zip[at + 30..at + 30 + name_len], name.as_bytes());
        at += 30 + name_len + extra_len;
        assert_eq!(
            &zip[at..at + data.len()],
            &data[..],
            "{name}: its bytes as they are"
        );
        at += data.len();
    }
    assert_eq!(u32_at(at), 0x0201_4b50, "the central directory follows");
    // Any unzip tool reads it (Info-ZIP's, where installed).
    if let Ok(o) = std::process::Command::new("unzip")
        .arg("-tq")
        .arg(tmp.path().join("matches.zip"))
        .output()
    {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    }
}

#[test]
fn the_leaderboard_adds_up() {
    let sb = sandbox();
    let bots: Vec<Bot> = ["random", "lawyer", "first_legal"]
        .iter()
        .map(|n| sb.load_file(&koth_tests::wasm(n), None).unwrap())
        .collect();
    let players = koth_tests::players(&bots);
    let t = tournament::run(
        &players,
        &CoupOptions {
            rounds: 3,
            seed: 5,
            ..CoupOptions::default()
        },
        2,
        &|_, _| {},
    )
    .unwrap();
    let games = t.records.len() as u64;
    assert_eq!(games, 18);
    let rows = &t.leaderboard.rows;
    let wins: u64 = rows.iter().map(|r| r.wins).sum();
    let draws: u64 = rows.iter().map(|r| r.draws).sum::<u64>() / 2;
    assert_eq!(wins + draws, games);
    assert!(rows.iter().all(|r| r.games == 12 && r.forfeits.is_empty()));
    assert!(rows.windows(2).all(|w| w[0].score >= w[1].score));
    // Each history in the records replays under the rules to the recorded result.
    for r in &t.records {
        assert!(!r.history.is_empty());
        assert_eq!(r.log.len() as u32, r.invocations[0] + r.invocations[1]);
    }
}

#[test]
fn paired_deals_deal_both_orders_of_a_pair_the_same_cards() {
    let sb = sandbox();
    let bots: Vec<Bot> = ["random", "lawyer", "taxman"]
        .iter()
        .map(|n| sb.load_file(&koth_tests::wasm(n), None).unwrap())
        .collect();
    let players = koth_tests::players(&bots);
    let opts = CoupOptions {
        rounds: 2,
        seed: 3,
        paired: true,
        ..CoupOptions::default()
    };
    let t = tournament::run(&players, &opts, 2, &|_, _| {}).unwrap();
    // The first mover's cards (argv[3] of the first invocation) come from the deck's top.
    let first_cards = |i: usize| t.records[i].log[0].argv[3].to_string();
    let mut pairs = 0;
    for (i, p) in t.pairings.iter().enumerate() {
        for (j, q) in t.pairings.iter().enumerate() {
            if p.round == q.round && p.seats == [q.seats[1], q.seats[0]] {
                assert_eq!(first_cards(i), first_cards(j), "{p:?} vs {q:?}");
                pairs += 1;
            }
        }
    }
    assert_eq!(pairs, 12);
    // Unpaired, the two orders get different decks (in this seed at least once).
    let unpaired = tournament::run(
        &players,
        &CoupOptions {
            paired: false,
            ..opts
        },
        2,
        &|_, _| {},
    )
    .unwrap();
    assert!(
        (0..unpaired.records.len()).any(|i| unpaired.records[i].log[0].argv[3] != first_cards(i))
    );
}
