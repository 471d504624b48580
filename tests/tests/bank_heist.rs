//! Bank Heist with real wasm bots: the thirteen example bots play whole tournaments without a
//! failure, misbehaving bots cost only themselves, a run's archive is byte-identical
//! whatever the number of workers, and under the original controller's rules the seed's
//! twelve bots come out as the contest's published standings did.

use koth::games::bank_heist::format::{self, BankHeistOptions};
use koth::games::bank_heist::rules::Variant;
use koth::sandbox::{Bot, Limits, Sandbox, SandboxOptions};
use std::collections::BTreeMap;

/// The seed's twelve bots, ported, and ours.
const BOTS: [&str; 13] = [
    "lurker",
    "passive_panga",
    "kaylorr_criterion",
    "gun_heck",
    "monis_addiction",
    "heckusumer",
    "oc_random_tpyos",
    "hard_hat_umar",
    "limeade_sneaktar",
    "snitcher_king",
    "rays_five01k",
    "lonely_john",
    "heist_master",
];

fn sandbox() -> Sandbox {
    Sandbox::new(SandboxOptions::default()).expect("sandbox")
}

fn load_all(sb: &Sandbox) -> Vec<Bot> {
    BOTS.iter()
        .map(|n| sb.load_file(&koth_tests::wasm(n), None).expect(n))
        .collect()
}

fn archive_of(
    bots: &[Bot],
    opts: &BankHeistOptions,
    jobs: usize,
    sb: &Sandbox,
) -> BTreeMap<String, Vec<u8>> {
    let players = koth_tests::players(bots);
    let run = format::run(&players, opts, jobs, &|_, _| {}).unwrap();
    assert_eq!(run.void_tournaments(), 0);
    let manifest = koth_tests::manifest("bank-heist", bots, opts.clone(), sb);
    koth_tests::archive_tree(|archive| format::write_archive(&run, &manifest, archive))
}

#[test]
fn archives_are_identical_for_any_worker_count() {
    let sb = sandbox();
    let bots = load_all(&sb);
    let opts = BankHeistOptions {
        tournaments: 3,
        games: Some(40),
        seed: 11,
        limits: Limits::default(),
        rules: Variant::Text,
    };
    let one = archive_of(&bots, &opts, 1, &sb);
    let two = archive_of(&bots, &opts, 2, &sb);
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        [
            "invocations.jsonl.zst",
            "leaderboard.txt",
            "manifest.json",
            "matches.zip.zst",
            "matches.zip.zst/logs/tournament-0.log",
            "matches.zip.zst/logs/tournament-1.log",
            "matches.zip.zst/logs/tournament-2.log",
            "results.json"
        ]
    );
    for (k, v) in &one {
        assert!(v == &two[k], "{k} differs between --jobs 1 and --jobs 2");
    }
    let results: serde_json::Value = serde_json::from_slice(&one["results.json"]).unwrap();
    assert_eq!(results["schema"], "koth-results/4");
    assert_eq!(results["ranked_by"], "score");
    assert_eq!(results["score"], "credits");
    assert_eq!(results["game"], "bank-heist");
    assert_eq!(results["matches"].as_array().unwrap().len(), 3);
    assert_eq!(results["bots"].as_array().unwrap().len(), 13);
    // Each bot's total is the sum of its credits per tournament.
    for c in results["detail"]["credits"].as_array().unwrap() {
        let per: u64 = c["per_tournament"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(c["total"].as_u64().unwrap(), per);
        let row = results["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["bot"] == c["bot"])
            .unwrap();
        assert_eq!(row["score"].as_u64().unwrap(), per);
        // Ranked by credits, so rated on them: the rating is the mean a tournament.
        let mean = per as f64 / row["games"].as_u64().unwrap() as f64;
        assert_eq!(row["rating"]["rating"].as_f64().unwrap(), mean);
    }
    // The rows are in the order of their ratings, which is the order of their totals here
    // (every bot plays every tournament).
    let rows = results["bots"].as_array().unwrap();
    for w in rows.windows(2) {
        assert!(w[0]["rating"]["rating"].as_f64() >= w[1]["rating"]["rating"].as_f64());
        assert!(w[0]["score"].as_u64() >= w[1]["score"].as_u64());
    }
    let log = String::from_utf8(one["matches.zip.zst/logs/tournament-0.log"].clone()).unwrap();
    assert!(log.starts_with("#####GAME 0: "));
    assert!(log.contains("\nRound 1:\n") && log.contains("\nResults:\n0. "));
    // Another seed, another run.
    let other = archive_of(&bots, &BankHeistOptions { seed: 12, ..opts }, 2, &sb);
    assert_ne!(one["results.json"], other["results.json"]);
}

#[test]
fn the_example_bots_play_a_whole_tournament_without_a_failure() {
    let sb = sandbox();
    let bots = load_all(&sb);
    let players = koth_tests::players(&bots);
    let opts = BankHeistOptions {
        tournaments: 1,
        games: Some(300),
        seed: 3,
        limits: Limits::default(),
        rules: Variant::Text,
    };
    let run = format::run(&players, &opts, 2, &|_, _| {}).unwrap();
    let rec = &run.records[0];
    assert_eq!(rec.void, None);
    for (name, failures) in rec.names.iter().zip(&rec.failures) {
        assert!(failures.is_empty(), "{name} failed: {failures:?}");
    }
    // The sanity figure: Lurker never bets.
    assert_eq!(rec.bots[0].credits, 240 * 301);
    // Every bot decided in round 1 of every game.
    assert!(rec.invocations.iter().all(|&n| n >= 300));
}

/// A bot that loops forever: with a small fuel budget every decision runs out of fuel.
const SPINNER: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "_start") (loop (br 0))))"#;

#[test]
fn misbehaving_bots_cost_themselves_only() {
    let sb = sandbox();
    let spinner = sb
        .load_bytes("spinner", &wat::parse_str(SPINNER).unwrap())
        .unwrap();
    // A Coup bot: with Bank Heist's arguments and no directory it exits with an error.
    let confused = sb
        .load_file(&koth_tests::wasm("first_legal"), Some("confused"))
        .unwrap();
    let lurker = sb.load_file(&koth_tests::wasm("lurker"), None).unwrap();
    let players = koth_tests::players([&lurker, &spinner, &confused]);
    let opts = BankHeistOptions {
        tournaments: 2,
        games: Some(25),
        seed: 5,
        limits: Limits {
            fuel: 2_000_000,
            ..Limits::default()
        },
        rules: Variant::Text,
    };
    let run = format::run(&players, &opts, 2, &|_, _| {}).unwrap();
    assert_eq!(run.void_tournaments(), 0);
    for rec in &run.records {
        // Each failed decision counts as a bet of 0: everyone lives on its paycheck.
        assert!(rec.bots.iter().all(|b| b.credits == 240 * 26));
        assert_eq!(rec.failures[1].get("fuel"), Some(&25));
        assert_eq!(rec.failures[2].values().sum::<u64>(), 25);
        assert!(rec.failures[0].is_empty());
        assert!(rec
            .human_log
            .contains("(spinner: the invocation ended with out of fuel; counted as bet 0)"));
    }
    let forfeits = &run
        .leaderboard
        .rows
        .iter()
        .find(|r| r.bot == "spinner")
        .unwrap()
        .forfeits;
    assert_eq!(forfeits.get("fuel"), Some(&50));
}

/// The seed's twelve bots (the Rust ports) under `--rules original`, scored as the contest
/// scored them (credits summed over tournaments): its published standings' top three,
/// LimeadeSneaktar, SnitcherKing and RaysFive01K, and every bot that never bets (Lurker,
/// gunHeCK and KaylorrCriterion, as in the published table) at exactly 240 × (G + 1) in each
/// tournament.
///
/// One tournament alone does not always come out so: at seed 1, 29 of 40 tournaments have
/// that top three; in the others RaysFive01K never withdraws its fortune, or LimeadeSneaktar
/// has its loot fingered away, and HardHatUmar or a never-betting bot is third (the
/// controller's own results swing as much: the spec's two native runs give LimeadeSneaktar
/// 4.1M and 14.7M). The sum over a few tournaments has it every time.
#[test]
fn the_original_rules_give_the_published_top_three() {
    let sb = sandbox();
    let bots: Vec<Bot> = BOTS[..12]
        .iter()
        .map(|n| sb.load_file(&koth_tests::wasm(n), None).expect(n))
        .collect();
    let players = koth_tests::players(&bots);
    let opts = BankHeistOptions {
        tournaments: 4,
        games: None,
        seed: 1,
        limits: Limits::default(),
        rules: Variant::Original,
    };
    let run = format::run(&players, &opts, 2, &|_, _| {}).unwrap();
    assert_eq!(run.void_tournaments(), 0);
    let top: Vec<&str> = run.leaderboard.rows[..3]
        .iter()
        .map(|r| r.bot.as_str())
        .collect();
    let mut sorted = top.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        ["limeade_sneaktar", "rays_five01k", "snitcher_king"],
        "top three {top:?}"
    );
    let mut never_betting = Vec::new();
    for rec in &run.records {
        for (b, name) in rec.names.iter().enumerate() {
            let bets = rec
                .log
                .iter()
                .filter(|l| &l.bot == name && l.round == 1)
                .all(|l| l.decision == "bet 0");
            if bets {
                never_betting.push(name.as_str());
                assert_eq!(
                    rec.bots[b].credits,
                    240 * (u64::from(rec.games) + 1),
                    "{name} in tournament {}",
                    rec.index
                );
            }
        }
        assert!(rec.failures.iter().all(|f| f.is_empty()));
    }
    for name in ["lurker", "gun_heck", "kaylorr_criterion"] {
        assert_eq!(
            never_betting.iter().filter(|&&n| n == name).count(),
            4,
            "{name} bet in this run"
        );
    }
    // The other bots all bet, so the check above was not vacuous for them.
    assert_eq!(never_betting.len(), 3 * 4, "{never_betting:?}");
}
