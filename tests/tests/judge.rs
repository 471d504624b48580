//! `koth invoke --game` reads an answer from what the bot got alone. These tests hold that
//! reading to the games' own: every decision of real runs of Coup, Bank Heist and Euchre is
//! judged from its recorded input and output, and must come out as the game read it (legal
//! or refused, the same bet, answer or card), with no note against the input the game gave.
//! Then the command itself, on one decision of each game.

use koth::games::judge::{judge, Answered};
use koth_tests::{koth_bin, wasm};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Run `koth GAME BOTS... OPTIONS --out DIR/out` and return its invocation lines.
fn run(dir: &Path, game: &str, bots: &[&Path], options: &[&str]) -> Vec<Value> {
    let out = dir.join("out");
    let status = Command::new(koth_bin())
        .arg(game)
        .args(bots)
        .args(options)
        .args(["--seed", "9", "--out"])
        .arg(&out)
        .output()
        .expect("koth");
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let results: Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results"))
            .expect("json");
    std::fs::write(dir.join("results.json"), results.to_string()).expect("keep");
    koth_tests::invocations(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("line"))
        .collect()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

#[test]
fn every_coup_decision_is_judged_as_the_game_judged_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    // A bot that appends `Z` at its first decision: its games end there, forfeited.
    let cheat = tmp.path().join("cheat_illegal.wasm");
    std::fs::copy(wasm("coup_cheater"), &cheat).expect("copy");
    let exchange = tmp.path().join("cheat_exchange.wasm");
    std::fs::copy(wasm("coup_cheater"), &exchange).expect("copy");
    let bots = [
        wasm("calculator"),
        wasm("taxman"),
        wasm("random"),
        wasm("coup_c"),
    ];
    let mut all: Vec<&Path> = bots.iter().map(|b| b.as_path()).collect();
    all.extend([cheat.as_path(), exchange.as_path()]);
    let lines = run(tmp.path(), "coup", &all, &["--rounds", "2"]);
    let results: Value =
        serde_json::from_slice(&std::fs::read(tmp.path().join("results.json")).expect("results"))
            .expect("json");
    let matches = results["detail"]["matches"].as_array().expect("matches");
    let (mut judged, mut refused) = (0, 0);
    let mut history: Vec<u8> = Vec::new();
    let mut game = u64::MAX;
    for (i, l) in lines.iter().enumerate() {
        if l["match"].as_u64() != Some(game) {
            game = l["match"].as_u64().expect("match");
            history.clear();
        }
        if l["outcome"]["kind"] != "ok" {
            continue;
        }
        let argv: Vec<String> = l["args"]
            .as_array()
            .expect("args")
            .iter()
            .map(text)
            .collect();
        // The referee's answer is what the bot appended.
        let before = history.clone();
        let after = [before.clone(), text(&l["answer"]).into_bytes()].concat();
        let j = judge(
            "coup",
            &Answered {
                args: &argv,
                stdin: b"",
                file_before: Some(&before),
                file_after: Some(&after),
                stdout: text(&l["stdout"]).as_bytes(),
            },
        )
        .expect("coup is judged");
        assert!(
            j.input_notes.is_empty(),
            "line {}: the game's own arguments drew notes: {:?}",
            i + 1,
            j.input_notes
        );
        let last = lines.get(i + 1).is_none_or(|n| n["match"] != l["match"]);
        let forfeit = &matches[game as usize]["result"]["forfeit"];
        let forfeited_here = last && !forfeit.is_null();
        assert_eq!(l.get("failure").is_some(), forfeited_here, "line {}", i + 1);
        assert_eq!(
            j.refused.is_some(),
            forfeited_here,
            "line {}: judged {j:?}; the game's forfeit: {forfeit}",
            i + 1
        );
        refused += usize::from(j.refused.is_some());
        judged += 1;
        history = after;
    }
    assert!(judged > 200, "{judged} decisions");
    assert!(refused >= 5, "the cheats' forfeits were judged: {refused}");
}

#[test]
fn every_bank_heist_decision_is_judged_as_the_game_judged_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    // `random`, a Coup bot, exits at every Bank Heist decision: those are not judged.
    let bots = [
        wasm("lurker"),
        wasm("gun_heck"),
        wasm("heist_master"),
        wasm("random"),
    ];
    let all: Vec<&Path> = bots.iter().map(|b| b.as_path()).collect();
    let lines = run(
        tmp.path(),
        "bank-heist",
        &all,
        &["--tournaments", "1", "--games", "80"],
    );
    let (mut judged, mut refused) = (0, 0);
    for (i, l) in lines.iter().enumerate() {
        if l["outcome"]["kind"] != "ok" {
            continue;
        }
        // The referee's record: the 31 arguments as a list, the decision as its answer.
        let args: Vec<String> = l["args"].as_array().unwrap().iter().map(text).collect();
        let j = judge(
            "bank-heist",
            &Answered {
                args: &args,
                stdin: b"",
                file_before: None,
                file_after: None,
                stdout: text(&l["stdout"]).as_bytes(),
            },
        )
        .expect("bank-heist is judged");
        assert!(
            j.input_notes.is_empty(),
            "line {}: {:?}",
            i + 1,
            j.input_notes
        );
        let decision = text(&l["answer"]);
        assert!(
            j.reading == decision || j.reading.starts_with(&format!("{decision} (")),
            "line {}: judged {:?}, the game read {decision:?}",
            i + 1,
            j.reading
        );
        // A failure in the log is a bet that was no number; a round-2 word the game does not
        // know keeps the bet without one, and the judge says so.
        if l.get("failure").is_some() {
            assert!(j.refused.is_some(), "line {}: {j:?}", i + 1);
        }
        refused += usize::from(j.refused.is_some());
        judged += 1;
    }
    assert!(judged > 200, "{judged} decisions");
    let _ = refused;
}

#[test]
fn every_euchre_decision_is_judged_as_the_game_judged_it() {
    let tmp = tempfile::tempdir().expect("tmp");
    // random_8020 answers at random (naming the turned card's suit too, which the input
    // does not show, so only the game can refuse it); `exit0` answers nothing, and gets
    // every default.
    let silent = tmp.path().join("exit0.wasm");
    std::fs::write(&silent, koth_tests::hostile_module("exit0")).expect("write");
    let bots = [
        wasm("marius"),
        wasm("card_counter"),
        wasm("random_8020"),
        silent,
    ];
    let all: Vec<&Path> = bots.iter().map(|b| b.as_path()).collect();
    let lines = run(tmp.path(), "euchre", &all, &["--games", "2"]);
    let (mut judged, mut refused, mut turned_suit) = (0, 0, 0);
    for (i, l) in lines.iter().enumerate() {
        if l["outcome"]["kind"] != "ok" || l["phase"] == "trick" {
            continue;
        }
        let j = judge(
            "euchre",
            &Answered {
                args: &[],
                stdin: text(&l["stdin"]).as_bytes(),
                file_before: None,
                file_after: None,
                stdout: text(&l["stdout"]).as_bytes(),
            },
        )
        .expect("euchre is judged");
        let game_refused = l.get("failure").is_some_and(|f| !f.is_null());
        let answer = text(&l["answer"]);
        let reading = j.reading.trim_end_matches(" (the default)");
        if l["phase"] == "naming" && game_refused && j.refused.is_none() {
            turned_suit += 1;
            continue;
        }
        assert_eq!(
            (reading, j.refused.is_some()),
            (answer.as_str(), game_refused),
            "line {}: judged {j:?}; the game: {l}",
            i + 1
        );
        assert!(
            j.input_notes.iter().all(|n| n.starts_with("naming:")),
            "line {}: {:?}",
            i + 1,
            j.input_notes
        );
        refused += usize::from(j.refused.is_some());
        judged += 1;
    }
    assert!(judged > 200, "{judged} decisions");
    assert!(refused > 20, "exit0's empty answers were judged: {refused}");
    eprintln!("{judged} judged, {refused} refused, {turned_suit} namings of the turned suit");
}

#[test]
fn invoke_with_a_game_prints_its_reading_and_fails_an_illegal_answer() {
    let tmp = tempfile::tempdir().expect("tmp");
    let dir = tmp.path().join("game");
    std::fs::create_dir(&dir).expect("dir");
    std::fs::write(dir.join("h.txt"), "").expect("history");
    let cheat = tmp.path().join("cheat_illegal.wasm");
    std::fs::copy(wasm("coup_cheater"), &cheat).expect("copy");
    let invoke = |bot: &Path, extra: &[&str]| {
        let out = Command::new(koth_bin())
            .arg("invoke")
            .arg(bot)
            .args(extra)
            .output()
            .expect("koth invoke");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let opening = ["h.txt", "1", "1", "$^", "I\n", "F", "E", "S", "T"];
    let mut args = vec![
        "--dir",
        dir.to_str().expect("utf-8"),
        "--game",
        "coup",
        "--",
    ];
    args.extend(opening);
    let (ok, said) = invoke(&wasm("taxman"), &args);
    assert!(ok, "{said}");
    assert!(
        said.contains("coup reads it:\n  appended \"T\"\n  legal\n"),
        "{said}"
    );
    assert!(
        said.contains("the legal answers: \"I\\n\" \"F\" \"E\" \"S\" \"T\""),
        "{said}"
    );
    std::fs::write(dir.join("h.txt"), "").expect("history");
    let (ok, said) = invoke(&cheat, &args);
    assert!(!ok, "an illegal answer fails the command");
    assert!(said.contains("refused: an illegal move"), "{said}");
    // Bank Heist, round 2, from its 31 arguments.
    let mut heist: Vec<String> = (0..31).map(|_| "0".to_string()).collect();
    heist[1] = "1".into();
    heist[8] = "240".into();
    let mut args: Vec<&str> = vec!["--no-dir", "--game", "bank-heist", "--"];
    args.extend(heist.iter().map(String::as_str));
    let (ok, said) = invoke(&wasm("lurker"), &args);
    assert!(ok, "{said}");
    assert!(said.contains("bank-heist reads it:\n  bet "), "{said}");
    assert!(said.contains("an integer from 0 to 240"), "{said}");
    let (ok, said) = invoke(&wasm("taxman"), &["--game", "chess"]);
    assert!(!ok && said.is_empty());
}
