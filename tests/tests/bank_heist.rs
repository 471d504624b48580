//! Bank Heist with real wasm bots, played by its referee as `koth bank-heist` plays it: the
//! thirteen example bots play whole tournaments without a failure, misbehaving bots cost
//! only themselves, a run's archive is byte-identical whatever the number of workers, and
//! under the original controller's rules the seed's twelve bots come out as the contest's
//! published standings did.

use koth::games::bank_heist::{self, rules::Variant};
use koth::games::Game;
use koth::referee::game::RefereeRun;
use koth::referee::shape::RefereeOptions;
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

/// `koth bank-heist`'s options.
fn options(
    tournaments: u32,
    games: Option<u32>,
    seed: u64,
    limits: Limits,
    rules: Variant,
) -> RefereeOptions {
    bank_heist::options(tournaments, games, rules, seed, limits).unwrap()
}

/// Play a whole run; no tournament may be void.
fn run(players: &[std::sync::Arc<dyn koth::games::Player>], opts: &RefereeOptions) -> RefereeRun {
    let run = bank_heist::game()
        .play_whole(players, opts, 2, &|_, _| {})
        .unwrap();
    for r in &run.records {
        assert_eq!(r.void, None);
    }
    run
}

fn archive_of(
    bots: &[Bot],
    opts: &RefereeOptions,
    jobs: usize,
    sb: &Sandbox,
) -> BTreeMap<String, Vec<u8>> {
    let players = koth_tests::players(bots);
    let game = bank_heist::game();
    let run = game.play_whole(&players, opts, jobs, &|_, _| {}).unwrap();
    assert!(run.records.iter().all(|r| r.void.is_none()));
    let manifest = koth_tests::manifest("bank-heist", bots, opts.clone(), sb);
    koth_tests::archive_tree(|archive| game.write_archive(&run, &manifest, archive))
}

#[test]
fn archives_are_identical_for_any_worker_count() {
    let sb = sandbox();
    let bots = load_all(&sb);
    let opts = options(3, Some(40), 11, Limits::default(), Variant::Text);
    let one = archive_of(&bots, &opts, 1, &sb);
    let two = archive_of(&bots, &opts, 2, &sb);
    assert_eq!(
        one.keys().collect::<Vec<_>>(),
        [
            "invocations.jsonl.zst",
            "leaderboard.txt",
            "manifest.json",
            "matches.zip.zst",
            "matches.zip.zst/logs/match-0.log",
            "matches.zip.zst/logs/match-1.log",
            "matches.zip.zst/logs/match-2.log",
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
    assert_eq!(results["unit"], "tournaments");
    // Each bot's total is the sum of its credits per tournament, as each tournament's detail
    // gives them with its G and every bot's state at the end.
    let matches = results["detail"]["matches"].as_array().unwrap();
    for m in matches {
        assert_eq!(m["result"]["games"], 40);
        assert_eq!(m["result"]["rules"], "text");
        assert_eq!(m["result"]["bots"].as_array().unwrap().len(), 13);
    }
    for name in BOTS {
        // The seats are drawn for each tournament: each bot is found by its name.
        let per: u64 = matches
            .iter()
            .map(|m| {
                let bots = m["result"]["bots"].as_array().unwrap();
                let me = bots.iter().find(|b| b["bot"] == name).unwrap();
                me["credits"].as_u64().unwrap()
            })
            .sum();
        let row = results["bots"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["bot"] == name)
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
    let log = String::from_utf8(one["matches.zip.zst/logs/match-0.log"].clone()).unwrap();
    assert!(log.starts_with("#####GAME 0: "));
    assert!(log.contains("\nRound 1:\n") && log.contains("\nResults:\n0. "));
    // Another seed, another run.
    let other = archive_of(&bots, &RefereeOptions { seed: 12, ..opts }, 2, &sb);
    assert_ne!(one["results.json"], other["results.json"]);
}

#[test]
fn the_example_bots_play_a_whole_tournament_without_a_failure() {
    let sb = sandbox();
    let bots = load_all(&sb);
    let players = koth_tests::players(&bots);
    let opts = options(1, Some(300), 3, Limits::default(), Variant::Text);
    let run = run(&players, &opts);
    let rec = &run.records[0];
    for (name, failures) in rec.seats.iter().zip(&rec.failures) {
        assert!(failures.is_empty(), "{name} failed: {failures:?}");
    }
    // The sanity figure: Lurker never bets.
    let lurker = rec.seats.iter().position(|s| s == "lurker").unwrap();
    assert_eq!(rec.detail["bots"][lurker]["bot"], "lurker");
    assert_eq!(rec.detail["bots"][lurker]["credits"], 240 * 301);
    assert_eq!(rec.scores[lurker], 240 * 301);
    // Every bot decided in round 1 of every game.
    assert!(rec.invocations.iter().all(|&n| n >= 300));
    assert!(rec.log.iter().all(|l| l.args.len() == 31));
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
    let limits = Limits {
        fuel: 2_000_000,
        ..Limits::default()
    };
    let opts = options(2, Some(25), 5, limits, Variant::Text);
    let run = run(&players, &opts);
    for rec in &run.records {
        // Each failed decision counts as a bet of 0: everyone lives on its paycheck.
        assert!(rec.scores.iter().all(|&c| c == 240 * 26));
        let seat = |name: &str| rec.seats.iter().position(|s| s == name).unwrap();
        assert_eq!(rec.failures[seat("spinner")].get("fuel"), Some(&25));
        assert_eq!(rec.failures[seat("confused")].values().sum::<u64>(), 25);
        assert!(rec.failures[seat("lurker")].is_empty());
        assert!(rec
            .human_log
            .as_lines()
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
    let opts = options(4, None, 1, Limits::default(), Variant::Original);
    let run = run(&players, &opts);
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
    for (t, rec) in run.records.iter().enumerate() {
        let games = rec.detail["games"].as_u64().unwrap();
        assert!((1000..=1100).contains(&games), "G = {games}");
        for (b, name) in rec.seats.iter().enumerate() {
            let bets = rec
                .log
                .iter()
                .filter(|l| &l.bot == name && l.phase == "bet")
                .all(|l| l.answer == "bet 0");
            if bets {
                never_betting.push(name.as_str());
                assert_eq!(rec.scores[b], 240 * (games + 1), "{name} in tournament {t}");
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
