//! Euchre with real wasm bots, played by its referee built into koth: whole tournaments in
//! both partner modes, byte-identical archives whatever the number of workers, a bot writing
//! past its 1 KiB memory file sees the write fail and plays on, and a bot that fails gets
//! the spec's defaults.

use koth::games::euchre::{self, Partners, MEMORY_BYTES};
use koth::games::{Game, Player};
use koth::referee::host::MatchHost;
use koth::referee::record::MatchRecord;
use koth::referee::shape::RefereeOptions;
use koth::sandbox::vfs::SnapshotEntry;
use koth::sandbox::{Bot, Limits, Sandbox, SandboxOptions, VfsLimits};
use koth_referee::{MatchSetup, Seat};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A run's options as `koth euchre` builds them.
struct EuchreOptions {
    games: u32,
    target: u32,
    seed: u64,
    partners: Partners,
    paired: bool,
}

impl Default for EuchreOptions {
    fn default() -> Self {
        EuchreOptions {
            games: 10,
            target: 10,
            seed: 1,
            partners: Partners::Copies,
            paired: false,
        }
    }
}

impl EuchreOptions {
    fn resolve(&self) -> RefereeOptions {
        euchre::options(
            self.games,
            self.target,
            self.partners,
            self.paired,
            self.seed,
            Limits::default(),
        )
        .expect("valid options")
    }
}

const BOTS: [&str; 4] = ["random_8020", "marius", "old_stager", "card_counter"];

fn sandbox() -> Sandbox {
    Sandbox::new(SandboxOptions::default()).expect("sandbox")
}

fn load(sb: &Sandbox, names: &[&str]) -> Vec<Bot> {
    names
        .iter()
        .map(|n| sb.load_file(&koth_tests::wasm(n), None).expect(n))
        .collect()
}

fn archive_of(
    bots: &[Bot],
    opts: &EuchreOptions,
    jobs: usize,
    sb: &Sandbox,
) -> BTreeMap<String, Vec<u8>> {
    let players = koth_tests::players(bots);
    let game = euchre::game();
    let opts = opts.resolve();
    let run = game.play_whole(&players, &opts, jobs, &|_, _| {}).unwrap();
    assert!(run.summaries.iter().all(|m| m.void.is_none()));
    let manifest = koth_tests::manifest("euchre", bots, opts, sb);
    koth_tests::archive_tree(|archive| game.write_archive(&run, &manifest, archive))
}

#[test]
fn archives_are_identical_for_any_worker_count_in_both_partner_modes() {
    let sb = sandbox();
    let bots = load(&sb, &BOTS);
    for (partners, games, matches) in [(Partners::Copies, 2, 12), (Partners::Random, 6, 6)] {
        let opts = EuchreOptions {
            games,
            target: 5,
            seed: 21,
            partners,
            ..EuchreOptions::default()
        };
        let one = archive_of(&bots, &opts, 1, &sb);
        let two = archive_of(&bots, &opts, 2, &sb);
        assert_eq!(
            one.keys().collect::<Vec<_>>(),
            two.keys().collect::<Vec<_>>()
        );
        for (k, v) in &one {
            assert!(
                v == &two[k],
                "{partners:?}: {k} differs between --jobs 1 and 2"
            );
        }
        assert_eq!(
            one.keys()
                .filter(|k| k.starts_with("matches.zip.zst/logs/match-"))
                .count(),
            matches
        );
        let results: serde_json::Value = serde_json::from_slice(&one["results.json"]).unwrap();
        assert_eq!(results["game"], "euchre");
        let entries = results["matches"].as_array().unwrap();
        assert_eq!(entries.len(), matches);
        let per_match = if partners == Partners::Copies { 2 } else { 4 };
        for m in entries {
            assert_eq!(m["participants"].as_array().unwrap().len(), per_match);
            // Games to 5 always end with a winning team.
            assert_eq!(m["winners"].as_array().unwrap().len(), per_match / 2);
        }
        // Games won and points add up across the leaderboard.
        let rows = results["bots"].as_array().unwrap();
        let wins: u64 = rows.iter().map(|r| r["wins"].as_u64().unwrap()).sum();
        let expected = if partners == Partners::Copies {
            matches
        } else {
            2 * matches
        };
        assert_eq!(wins as usize, expected);
        let pts_for: u64 = rows
            .iter()
            .map(|r| r["points_for"].as_u64().unwrap_or(0))
            .sum();
        let pts_against: u64 = rows
            .iter()
            .map(|r| r["points_against"].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(pts_for, pts_against);
        let other = archive_of(&bots, &EuchreOptions { seed: 22, ..opts }, 2, &sb);
        assert_ne!(one["results.json"], other["results.json"]);
    }
}

#[test]
fn the_example_bots_play_without_a_failure() {
    let sb = sandbox();
    let bots = load(&sb, &BOTS[1..]);
    let players = koth_tests::players(&bots);
    let opts = EuchreOptions {
        games: 4,
        ..EuchreOptions::default()
    }
    .resolve();
    let run = euchre::game()
        .play_whole(&players, &opts, 2, &|_, _| {})
        .unwrap();
    assert_eq!(run.records.len(), 12);
    for r in &run.leaderboard.rows {
        assert!(r.forfeits.is_empty(), "{}: {:?}", r.bot, r.forfeits);
        assert_eq!(r.games, 8);
    }
    for rec in &run.records {
        assert_eq!(rec.winners.len(), 2, "{:?}", rec.detail);
        assert_eq!(rec.detail["result"], "won");
        assert!(rec.points.iter().any(|&(f, _)| f >= 10));
    }
}

/// One game to 10 through the built-in referee, `players[seat]` in each seat (N & S against
/// E & W), the deck seeded by 5.
fn one_game(players: [&Arc<dyn Player>; 4], limits: Limits) -> MatchRecord {
    let referee = euchre::referee();
    let opts = euchre::options(1, 10, Partners::Copies, false, 1, limits).expect("options");
    let setup = MatchSetup {
        round: 0,
        paired: false,
        seats: players
            .iter()
            .enumerate()
            .map(|(s, p)| Seat {
                bot: p.name().to_string(),
                team: (s % 2) as u32,
            })
            .collect(),
        options: opts.options.to_values(),
        seed: 5,
    };
    let host = MatchHost::new(
        Arc::new(opts.game.clone()),
        players.iter().map(|p| Arc::clone(p)).collect(),
        vec![vec![0, 2], vec![1, 3]],
        opts.directory,
        limits,
        setup.seed,
    );
    let (host, result) = referee.play(&setup, host);
    host.finish(result)
}

fn arc(bot: Bot) -> Arc<dyn Player> {
    Arc::new(bot)
}

#[test]
fn a_write_past_the_1_kib_memory_fails_and_the_game_goes_on() {
    let sb = sandbox();
    let hog = arc(sb.load_file(&koth_tests::wasm("euchre_hog"), None).unwrap());
    let marius = arc(sb.load_file(&koth_tests::wasm("marius"), None).unwrap());
    let rec = one_game([&hog, &marius, &hog, &marius], Limits::default());
    assert_eq!(rec.void, None);
    assert_eq!(rec.detail["result"], "won", "{:?}", rec.detail);
    // The hog answered every decision itself: no failure, no default.
    assert!(
        rec.failures[0].is_empty() && rec.failures[2].is_empty(),
        "{:?}",
        rec.failures
    );
    let hog_logs: Vec<_> = rec.log.iter().filter(|l| l.bot == "euchre_hog").collect();
    assert!(hog_logs.len() > 20);
    // Every oversized write failed with ENOSPC (WASI errno 51), seen by the bot, which
    // then answered as usual.
    for l in &hog_logs {
        assert!(l.failure.is_none());
        assert!(
            l.stderr_tail.contains("the 2000-byte write failed")
                && l.stderr_tail.contains("Some(51)"),
            "{}",
            l.stderr_tail
        );
        assert!(!l.stderr_tail.contains("even 100 bytes failed"));
    }
    // Its directories hold the 100-byte file that fits, never more than the quota.
    for seat in [0, 2] {
        let (_, entries) = rec
            .scratch
            .iter()
            .find(|(s, _)| *s == seat)
            .expect("the hog's memory file");
        let bytes: usize = entries
            .iter()
            .map(|e| match e {
                SnapshotEntry::File(_, d) => d.len(),
                _ => 0,
            })
            .sum();
        assert_eq!(bytes, 100);
    }
    assert!(!rec
        .human_log
        .iter()
        .any(|l| l.contains("replaced by the default")));
}

#[test]
fn the_hog_sees_enospc() {
    // The stderr tail is logged only for failed invocations; ask the sandbox directly.
    let sb = sandbox();
    let hog = sb.load_file(&koth_tests::wasm("euchre_hog"), None).unwrap();
    let mut dir = koth::sandbox::Vfs::new(VfsLimits {
        max_bytes: MEMORY_BYTES,
        ..VfsLimits::default()
    });
    let inv = koth::sandbox::Invocation {
        args: Vec::new(),
        stdin: b"9c,tc,jc,qc,kc\n0\n0\nordering\nac\n\n".to_vec(),
        seed: [0; 32],
        clock_start_ns: 0,
        limits: Limits::default(),
    };
    let report = hog.invoke(&inv, Some(&mut dir));
    assert!(report.outcome.is_ok(), "{:?}", report.outcome);
    let stderr = String::from_utf8_lossy(&report.stderr);
    assert!(stderr.contains("the 2000-byte write failed"), "{stderr}");
    assert!(
        stderr.contains("Some(51)"),
        "ENOSPC is WASI errno 51: {stderr}"
    );
    assert_eq!(String::from_utf8_lossy(&report.stdout).trim(), "p");
}

/// A bot that loops forever: with a small fuel budget every decision runs out of fuel.
const SPINNER: &str = r#"(module
  (memory (export "memory") 1)
  (func (export "_start") (loop (br 0))))"#;

#[test]
fn a_failing_bot_gets_the_defaults_and_the_game_ends() {
    let sb = sandbox();
    let spinner = arc(sb
        .load_bytes("spinner", &wat::parse_str(SPINNER).unwrap())
        .unwrap());
    let marius = arc(sb.load_file(&koth_tests::wasm("marius"), None).unwrap());
    let limits = Limits {
        fuel: 5_000_000,
        ..Limits::default()
    };
    let rec = one_game([&spinner, &marius, &spinner, &marius], limits);
    assert_eq!(rec.winners, vec![1, 3], "{:?}", rec.points);
    let fuel_failures: u64 = [0, 2]
        .iter()
        .filter_map(|&seat| rec.failures[seat].get("fuel"))
        .sum();
    assert_eq!(
        fuel_failures,
        u64::from(rec.invocations[0] + rec.invocations[2])
    );
    assert!(rec
        .human_log
        .iter()
        .any(|l| l.contains("spinner (N)'s ordering answer was replaced by the default p")));
}

#[test]
fn paired_deals_give_the_same_cards_to_the_other_team() {
    let sb = sandbox();
    let bots = load(&sb, &BOTS[1..3]);
    let players = koth_tests::players(&bots);
    let opts = EuchreOptions {
        games: 4,
        paired: true,
        ..EuchreOptions::default()
    }
    .resolve();
    let run = euchre::game()
        .play_whole(&players, &opts, 2, &|_, _| {})
        .unwrap();
    // The first deal line lists each seat's name and cards; twins differ only in names.
    let cards_of_first_deal = |g: usize| -> Vec<String> {
        // An entry of the log may hold several lines (the referee passes them together).
        let mut lines = run.records[g].human_log.iter().flat_map(|e| e.split('\n'));
        let line = lines.nth(1).unwrap_or_default();
        assert!(line.starts_with("deal 1:"), "{line}");
        line.split([';', '.'])
            .filter_map(|part| part.trim().rsplit(' ').next().map(str::to_string))
            .collect()
    };
    for twin in [0, 2] {
        let (a, b) = (&run.fixtures[twin], &run.fixtures[twin + 1]);
        assert_eq!(a.seats, [0, 1, 0, 1]);
        assert_eq!(b.seats, [1, 0, 1, 0]);
        let dealer = |g: usize| run.records[g].detail["first_dealer"].clone();
        assert_eq!(dealer(twin), dealer(twin + 1));
        assert_eq!(cards_of_first_deal(twin), cards_of_first_deal(twin + 1));
    }
    assert_ne!(cards_of_first_deal(0), cards_of_first_deal(2));
}
