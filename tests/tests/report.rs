//! The HTML report (`koth report`) of real archives: every game's archive, played by the
//! example bots (and a cheater, for forfeits), renders a self-contained page whose data holds
//! the leaderboard, heatmap, fuel, forfeits with links and replays with the state after each
//! move; and in a real headless Chromium the page loads without a console message, its
//! replay viewer steps, and a screenshot is kept in `target/artifacts/report-<game>.png`.

use koth::games::bank_heist::format::{self as heist, BankHeistOptions};
use koth::games::coup::tournament::{self as coup, CoupOptions};
use koth::games::euchre::{self, Partners};
use koth::games::Game as _;
use koth::report::{self, ReportOptions};
use koth::sandbox::{Bot, Sandbox, SandboxOptions};
use koth::tournament::archive::Archive;
use std::path::{Path, PathBuf};

fn sandbox() -> Sandbox {
    Sandbox::new(SandboxOptions::default()).expect("sandbox")
}

/// `(module, name)`: a built bot, under another name if given.
fn load(sb: &Sandbox, bots: &[(&str, Option<&str>)]) -> Vec<Bot> {
    bots.iter()
        .map(|(file, name)| sb.load_file(&koth_tests::wasm(file), *name).expect(file))
        .collect()
}

/// An archive on disk, in a folder that deletes itself.
struct ArchiveDir {
    _tmp: tempfile::TempDir,
    path: PathBuf,
}

fn archive_dir() -> (ArchiveDir, Archive) {
    let tmp = tempfile::Builder::new()
        .prefix("koth-report-test-")
        .tempdir()
        .expect("a temporary folder");
    let path = tmp.path().join("archive");
    let archive = Archive::create(&path).expect("create the archive");
    (ArchiveDir { _tmp: tmp, path }, archive)
}

/// A Coup round robin of three example bots and a cheater that makes an illegal move, in the
/// layout of the built-in driver, which wrote Coup archives before `koth-results/4` (the
/// report of an archive of Coup's referee, which `koth coup` writes now, is in
/// `coup_referee.rs`).
fn coup_archive(sb: &Sandbox) -> ArchiveDir {
    let bots = load(
        sb,
        &[
            ("calculator", None),
            ("taxman", None),
            ("random", None),
            ("coup_cheater", Some("cheat_illegal")),
        ],
    );
    let players = koth_tests::players(&bots);
    let opts = CoupOptions {
        rounds: 2,
        seed: 3,
        ..CoupOptions::default()
    };
    let t = coup::run(&players, &opts, 2, &|_, _| {}).unwrap();
    let (dir, archive) = archive_dir();
    coup::write_archive(&t, &koth_tests::manifest("coup", &bots, opts, sb), &archive)
        .expect("archive");
    dir
}

/// Bank Heist: two tournaments of four example bots.
fn bank_heist_archive(sb: &Sandbox) -> ArchiveDir {
    let bots = load(
        sb,
        &[
            ("lurker", None),
            ("gun_heck", None),
            ("snitcher_king", None),
            ("heist_master", None),
        ],
    );
    let players = koth_tests::players(&bots);
    let opts = BankHeistOptions {
        tournaments: 2,
        games: Some(30),
        seed: 5,
        limits: Default::default(),
        ..Default::default()
    };
    let run = heist::run(&players, &opts, 2, &|_, _| {}).unwrap();
    let (dir, archive) = archive_dir();
    heist::write_archive(
        &run,
        &koth_tests::manifest("bank-heist", &bots, opts, sb),
        &archive,
    )
    .expect("archive");
    dir
}

/// Euchre: every pair of three example bots, two games each, to 5 points.
fn euchre_archive(sb: &Sandbox) -> ArchiveDir {
    let bots = load(
        sb,
        &[
            ("random_8020", None),
            ("marius", None),
            ("card_counter", None),
        ],
    );
    let players = koth_tests::players(&bots);
    let opts =
        euchre::options(2, 5, Partners::Copies, false, 7, Default::default()).expect("options");
    let game = euchre::game();
    let run = game.play_whole(&players, &opts, 2, &|_, _| {}).unwrap();
    let (dir, archive) = archive_dir();
    game.write_archive(
        &run,
        &koth_tests::manifest("euchre", &bots, opts, sb),
        &archive,
    )
    .expect("archive");
    dir
}

fn archives() -> Vec<(&'static str, ArchiveDir)> {
    let sb = sandbox();
    vec![
        ("coup", coup_archive(&sb)),
        ("bank-heist", bank_heist_archive(&sb)),
        ("euchre", euchre_archive(&sb)),
    ]
}

/// The data the page embeds.
fn embedded(html: &str) -> serde_json::Value {
    let open = r#"<script type="application/json" id="data">"#;
    let start = html.find(open).expect("the data tag") + open.len();
    let len = html[start..].find("</script>").expect("the data tag's end");
    serde_json::from_str(&html[start..start + len]).expect("the embedded data is JSON")
}

#[test]
fn every_games_archive_renders_a_self_contained_page() {
    for (game, dir) in archives() {
        let html = report::build(&dir.path, &ReportOptions::default()).expect(game);
        // Nothing to fetch: no URL but the SVG namespace (an identifier), no src, no link.
        let bare = html.replace(report::html::SVG_NAMESPACE, "");
        for bad in [
            "http://", "https://", "src=", "<link", "@import", "url(", "fetch(",
        ] {
            assert!(!bare.contains(bad), "{game}: the page holds `{bad}`");
        }
        assert!(
            html.contains("<style>") && html.contains("<script>"),
            "{game}"
        );
        let d = embedded(&html);
        assert_eq!(d["game"], game);
        // The page counts the game's matches in its own word, from `results.json`, and an
        // archive of the layout before that word falls back to the same.
        let unit = if game == "bank-heist" {
            "tournaments"
        } else {
            "games"
        };
        assert_eq!(d["unit"], unit, "{game}");
        let results = dir.path.join("results.json");
        let mut v: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&results).unwrap()).unwrap();
        assert_eq!(v["unit"], unit, "{game}");
        v.as_object_mut().unwrap().remove("unit");
        let old = tempfile::tempdir().unwrap();
        for f in std::fs::read_dir(&dir.path).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, old.path().join(f.file_name().unwrap())).unwrap();
        }
        std::fs::write(old.path().join("results.json"), v.to_string()).unwrap();
        let before = embedded(&report::build(old.path(), &ReportOptions::default()).expect(game));
        assert_eq!(before["unit"], unit, "{game}: the fallback");
        // The rating column is named for what the game ranks by: Bank Heist's credits a
        // tournament (no Elo centre), the others' Bradley–Terry rating; an archive from before
        // `ranked_by` reads as the rating it held.
        let (heading, centre) = if game == "bank-heist" {
            ("mean credits", serde_json::Value::Null)
        } else {
            ("rating", serde_json::json!(1500.0))
        };
        assert_eq!(d["rating_heading"], heading, "{game}");
        assert_eq!(d["rating_centre"], centre, "{game}");
        assert_eq!(before["rating_heading"], heading, "{game}");
        v.as_object_mut().unwrap().remove("ranked_by");
        v.as_object_mut().unwrap().remove("score");
        std::fs::write(old.path().join("results.json"), v.to_string()).unwrap();
        let older = embedded(&report::build(old.path(), &ReportOptions::default()).expect(game));
        assert_eq!(older["rating_heading"], "rating", "{game}");
        let ratings: Vec<f64> = d["leaderboard"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r["rating"]["rating"].as_f64().expect("rating"))
            .collect();
        assert!(
            ratings.windows(2).all(|w| w[0] >= w[1]),
            "{game}: {ratings:?}"
        );
        let bots = d["manifest"]["bots"].as_array().expect("bots").len();
        assert_eq!(d["leaderboard"].as_array().expect("rows").len(), bots);
        // Bank Heist's two tournaments are below the minimum of independent matches: ratings
        // without intervals, and the note that says why; the others have intervals.
        let withheld = game == "bank-heist";
        assert_eq!(d["ratings_note"].is_string(), withheld, "{game}");
        for row in d["leaderboard"].as_array().expect("rows") {
            let r = &row["rating"];
            assert!(r["rating"].is_f64(), "{game}: {row}");
            if withheld {
                assert!(
                    r["low"].is_null() && r["high"].is_null() && r["above_next"].is_null(),
                    "{game}: {row}"
                );
            } else {
                assert!(
                    r["low"].as_f64() <= r["rating"].as_f64()
                        && r["rating"].as_f64() <= r["high"].as_f64()
                        && r["low"].is_f64(),
                    "{game}: rating and interval of {row}"
                );
            }
        }
        // The heatmap: every pair of distinct bots compared, win rates between 0 and 1.
        let played = d["heatmap"]["played"].as_array().expect("played");
        assert_eq!(played.len(), bots);
        for (r, row) in played.iter().enumerate() {
            for (c, n) in row.as_array().expect("row").iter().enumerate() {
                let n = n.as_u64().expect("count");
                assert_eq!(n == 0, r == c, "{game}: heatmap cell {r},{c}");
                let w = d["heatmap"]["wins"][r][c].as_f64().expect("wins");
                assert!(
                    w <= n as f64 && w + d["heatmap"]["wins"][c][r].as_f64().unwrap() == n as f64
                );
            }
        }
        // Fuel: every bot decided, and the figures are ordered.
        let mut decisions = 0;
        for f in d["fuel"].as_array().expect("fuel") {
            let (median, p90, max) = (f["median"].as_u64(), f["p90"].as_u64(), f["max"].as_u64());
            assert!(f["decisions"].as_u64() > Some(0), "{game}: {f}");
            assert!(
                median <= p90 && p90 <= max && median > Some(0),
                "{game}: {f}"
            );
            decisions += f["decisions"].as_u64().unwrap();
        }
        assert_eq!(d["decisions_total"].as_u64(), Some(decisions));
        // Replays: each step has a bot, what it saw, its fuel, and the state after.
        let replays = d["replays"].as_array().expect("replays");
        assert!(!replays.is_empty(), "{game}: no replay");
        for r in replays {
            let steps = r["steps"].as_array().expect("steps");
            assert!(!steps.is_empty(), "{game}: empty replay {}", r["label"]);
            for s in steps {
                assert!(s["bot"].as_str().is_some_and(|b| !b.is_empty()));
                assert!(
                    !s["view"][0]["text"].as_str().unwrap_or("").is_empty(),
                    "{game}: {s}"
                );
                assert!(s["fuel"].as_u64() > Some(0), "{game}: {s}");
            }
            // Every move leaves a state after it (Coup's history file at least; Euchre's
            // events; Bank Heist's log line for the bot's bet or answer).
            let with_after = steps
                .iter()
                .filter(|s| s["after"].as_array().is_some_and(|a| !a.is_empty()))
                .count();
            assert_eq!(with_after, steps.len(), "{game}: {}", r["label"]);
            let intro = r["intro"].as_array().expect("intro");
            assert!(!intro.is_empty(), "{game}: {}", r["label"]);
            // The human log was found in matches.zip.
            assert!(
                !intro
                    .iter()
                    .any(|l| l.as_str().is_some_and(|l| l.contains("no human log"))),
                "{game}: {}: {intro:?}",
                r["label"]
            );
        }
        for bot in d["manifest"]["bots"].as_array().unwrap() {
            assert!(html.contains(bot["name"].as_str().unwrap()));
        }
        if game == "coup" {
            // The cheater's illegal moves: each listed, linked to its replay's step, which
            // shows the forfeit.
            let listed = d["forfeits"]["listed"].as_array().expect("listed");
            assert_eq!(
                d["forfeits"]["totals"]["illegal move"]["cheat_illegal"].as_u64(),
                Some(listed.len() as u64)
            );
            assert!(!listed.is_empty());
            for f in listed {
                assert_eq!(f["bot"], "cheat_illegal");
                let id = f["replay"].as_str().expect("linked to an embedded replay");
                let replay = replays.iter().find(|r| r["id"] == id).expect("the replay");
                let step = &replay["steps"][f["step"].as_u64().unwrap() as usize];
                assert_eq!(step["failure"]["kind"], "illegal move", "{step}");
            }
            // The human log's lines land on the moves they follow.
            let first = &replays[0]["steps"][0];
            assert!(
                first["after"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|l| l.as_str().unwrap().contains("played")),
                "{first}"
            );
        }
    }
}

#[test]
fn only_the_first_games_and_those_with_forfeits_are_embedded() {
    let sb = sandbox();
    let dir = coup_archive(&sb);
    let opts = ReportOptions {
        first_games: 2,
        forfeit_games: 3,
        ..ReportOptions::default()
    };
    let d = embedded(&report::build(&dir.path, &opts).expect("report"));
    let replays = d["replays"].as_array().unwrap();
    assert_eq!(d["games_total"].as_u64(), Some(24));
    assert_eq!(replays.len(), 5);
    assert_eq!(
        (replays[0]["id"].as_str(), replays[1]["id"].as_str()),
        (Some("g0"), Some("g1"))
    );
    for r in &replays[2..] {
        assert!(r["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| !s["failure"].is_null()));
    }
    // Forfeits in games left out are still listed, marked as not embedded.
    let listed = d["forfeits"]["listed"].as_array().unwrap();
    assert!(listed.iter().any(|f| f["replay"].is_null()));
}

#[test]
fn the_replays_read_their_logs_from_the_container_or_from_an_older_archives_layout() {
    use koth::tournament::seekable;
    let sb = sandbox();
    let dir = coup_archive(&sb);
    let replays = |path: &Path| {
        let d = embedded(&report::build(path, &ReportOptions::default()).expect("report"));
        d["replays"].clone()
    };
    let from_zst = replays(&dir.path);
    // The same archive as koth 0.5.0 wrote it: the zip and the lines not compressed.
    let packed = dir.path.join("matches.zip.zst");
    let zip = dir.path.join("matches.zip");
    std::fs::write(&zip, seekable::read_file(&packed).unwrap()).unwrap();
    std::fs::remove_file(&packed).unwrap();
    let lines = dir.path.join("invocations.jsonl.zst");
    std::fs::write(
        dir.path.join("invocations.jsonl"),
        seekable::read_file(&lines).unwrap(),
    )
    .unwrap();
    std::fs::remove_file(&lines).unwrap();
    assert_eq!(replays(&dir.path), from_zst);
    // As koth 0.2.0 wrote it: the logs as files under `logs/`.
    for (name, data) in koth_tests::container_entries(&zip) {
        let path = dir.path.join(&name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, data).unwrap();
    }
    std::fs::remove_file(&zip).unwrap();
    assert_eq!(replays(&dir.path), from_zst);
    // Without any log, each replay says so, and still stands.
    std::fs::remove_dir_all(dir.path.join("logs")).unwrap();
    let bare = replays(&dir.path);
    let intro = bare[0]["intro"].to_string();
    assert!(intro.contains("no human log logs/"), "{intro}");
    assert_eq!(
        bare[0]["steps"].as_array().unwrap().len(),
        from_zst[0]["steps"].as_array().unwrap().len()
    );
    // A damaged container is an error naming it, not a page without logs.
    std::fs::write(&zip, b"PK not a zip").unwrap();
    let err = report::build(&dir.path, &ReportOptions::default()).expect_err("damaged");
    assert!(err.to_string().contains("matches.zip"), "{err}");
    std::fs::write(&packed, b"\x28\xb5\x2f\xfd not seekable").unwrap();
    let err = report::build(&dir.path, &ReportOptions::default()).expect_err("damaged");
    assert!(err.to_string().contains("matches.zip.zst"), "{err}");
    // So are damaged invocation lines.
    std::fs::remove_file(&packed).unwrap();
    std::fs::remove_file(&zip).unwrap();
    std::fs::write(&lines, b"not zstd").unwrap();
    let err = report::build(&dir.path, &ReportOptions::default()).expect_err("damaged");
    assert!(err.to_string().contains("invocations.jsonl.zst"), "{err}");
}

/// Run `koth cat ARGS...`: (success, stdout, stderr).
fn cat(args: &[&std::ffi::OsStr]) -> (bool, Vec<u8>, String) {
    let o = std::process::Command::new(koth_tests::koth_bin())
        .arg("cat")
        .args(args)
        .output()
        .expect("run koth cat");
    (
        o.status.success(),
        o.stdout,
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn koth_cat_lists_an_archive_and_prints_any_file_or_entry_decompressed() {
    use koth::tournament::seekable;
    let sb = sandbox();
    let dir = coup_archive(&sb);
    let a = dir.path.as_os_str();
    let entries = koth_tests::container_entries(&dir.path.join("matches.zip.zst"));
    // The listing: the archive's files, then every entry of the container.
    let (ok, list, err) = cat(&[a]);
    assert!(ok, "{err}");
    let list = String::from_utf8(list).unwrap();
    for f in [
        "manifest.json",
        "results.json",
        "invocations.jsonl.zst",
        "matches.zip.zst",
    ] {
        assert!(list.lines().any(|l| l.starts_with(f)), "{f}: {list}");
    }
    let listed: Vec<&str> = list
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let names: Vec<&str> = entries.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(listed, names);
    // An entry, the lines and the zip, each as `zstd -d` or `unzip -p` would give them.
    let (name, data) = &entries[2];
    let (ok, out, err) = cat(&[a, name.as_ref()]);
    assert!(ok && &out == data, "{err}");
    let (ok, out, err) = cat(&[a, "invocations.jsonl".as_ref()]);
    assert!(ok, "{err}");
    assert_eq!(out, koth_tests::invocations(&dir.path).into_bytes());
    let (ok, out, err) = cat(&[a, "matches.zip".as_ref()]);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        seekable::read_file(&dir.path.join("matches.zip.zst")).unwrap()
    );
    let (ok, out, _) = cat(&[a, "results.json".as_ref()]);
    assert!(ok && out == std::fs::read(dir.path.join("results.json")).unwrap());
    // What the archive does not hold, or a path out of it, is named and refused.
    for bad in ["logs/none.log", "../results.json", "/etc/passwd"] {
        let (ok, out, err) = cat(&[a, bad.as_ref()]);
        assert!(!ok && out.is_empty(), "{bad}");
        assert!(err.contains(&format!("no file `{bad}`")), "{err}");
    }
    let tmp = tempfile::tempdir().unwrap();
    let (ok, _, err) = cat(&[tmp.path().as_os_str()]);
    assert!(!ok && err.contains("not a koth archive"), "{err}");
}

#[test]
fn a_folder_that_is_not_an_archive_is_refused_by_name() {
    let tmp = tempfile::tempdir().expect("tmp");
    let build = || report::build(tmp.path(), &ReportOptions::default());
    let err = build().expect_err("no archive");
    assert!(err.to_string().contains("manifest.json"), "{err}");
    let write = |game: &str, results: &str| {
        let manifest = format!(
            r#"{{"game": "{game}", "koth_version": "0.7.0", "options": {{}},
               "bots": [{{"name": "a", "file": "a.wasm", "sha256": "00"}}]}}"#
        );
        std::fs::write(tmp.path().join("manifest.json"), manifest).unwrap();
        std::fs::write(tmp.path().join("results.json"), results).unwrap();
    };
    let empty = |game: &str| {
        format!(
            r#"{{"schema": "koth-results/1", "game": "{game}", "bots": [], "matches": [],
               "void_matches": [], "receipt": "", "detail": {{}}}}"#
        )
    };
    write("chess", &empty("chess"));
    let err = build().expect_err("unknown game");
    assert!(err.to_string().contains("unknown game `chess`"), "{err}");
    // A malformed archive is an error naming the file and what is missing, never an empty
    // page: here the leaderboard.
    write(
        "coup",
        r#"{"schema": "koth-results/3", "game": "coup", "matches": [], "void_matches": [],
            "receipt": "", "detail": {}}"#,
    );
    let err = build().expect_err("no leaderboard");
    assert!(
        err.to_string()
            .contains("results.json: not koth's results: missing field `bots`"),
        "{err}"
    );
    write("coup", &empty("euchre"));
    let err = build().expect_err("two games");
    assert!(
        err.to_string()
            .contains("a run of `euchre`, but its manifest names `coup`"),
        "{err}"
    );
    write("coup", &empty("coup"));
    std::fs::write(tmp.path().join("invocations.jsonl"), "{\"game\": 0}\n").unwrap();
    let err = build().expect_err("bad line");
    assert!(
        err.to_string().contains("invocations.jsonl line 1"),
        "{err}"
    );
}

#[path = "browser/devtools.rs"]
mod devtools;
use devtools::{chromium, Devtools};

fn file_url(path: &Path, fragment: &str) -> String {
    format!("file://{}#{fragment}", path.display())
}

#[test]
#[cfg_attr(
    koth_skip_chromium,
    ignore = "SKIPPED: report_in_chromium: Chromium unavailable (see target/koth-skip-browser)"
)]
fn report_in_chromium() {
    let artifacts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/artifacts");
    std::fs::create_dir_all(&artifacts).expect("target/artifacts");
    // The control: the protocol does report a page's console messages and uncaught errors,
    // so their absence below means something.
    let control = tempfile::Builder::new()
        .prefix("koth-chromium-control-")
        .tempdir()
        .expect("tmp");
    let bad = control.path().join("bad.html");
    std::fs::write(
        &bad,
        "<script>console.error('control-error'); null.x;</script>",
    )
    .expect("write the control page");
    let console = Devtools::open(&file_url(&bad, "")).console();
    assert!(
        console.iter().any(|m| m.contains("control-error"))
            && console.iter().any(|m| m.contains("exceptionThrown")),
        "the control page's errors were not reported: {console:#?}"
    );
    for (game, dir) in archives() {
        let page = dir.path.join("report.html");
        let html = report::build(&dir.path, &ReportOptions::default()).expect(game);
        let moves = embedded(&html)["replays"][0]["steps"]
            .as_array()
            .expect("steps")
            .len();
        assert!(moves >= 3, "{game}: the first game has {moves} moves");
        std::fs::write(&page, html).expect("write the page");
        // Opened as #selftest, the page steps its replay viewer and writes the outcome, with
        // any error it saw, into #selftest.
        let mut dev = Devtools::open(&file_url(&page, "selftest"));
        let verdict = dev.eval("document.getElementById('selftest').textContent");
        let steps = (moves - 1).min(5);
        assert!(
            verdict
                .as_str()
                .is_some_and(|v| v.starts_with(&format!("ok steps={steps} "))),
            "{game}: the self-test says {verdict}"
        );
        // Below the minimum of independent matches (Bank Heist's two tournaments) the board
        // draws no interval bar and says why under the table; above it, a bar per bot.
        let note = dev.eval("(document.getElementById('ratings-note') || {}).textContent || ''");
        let bars = dev.eval("document.querySelectorAll('#board svg rect').length");
        // The board's headings as the browser drew them: the game's word for its matches, and
        // the rating named for what the game ranks by (Bank Heist: its mean credits, beside
        // the sd alone).
        let heads = dev.eval(
            "[...document.querySelectorAll('#board th')].map((t) => t.textContent).join('|')",
        );
        let heads = heads.as_str().unwrap_or_default().to_string();
        let want: &[&str] = if game == "bank-heist" {
            &["|tournaments|", "|sd|", "|mean credits|"]
        } else {
            &["|games|", "|rating|"]
        };
        for w in want {
            assert!(heads.contains(w), "{game}: {w} in {heads}");
        }
        if game == "bank-heist" {
            assert!(
                note.as_str()
                    .is_some_and(|n| n.starts_with("No 95% intervals")),
                "{game}: {note}"
            );
            assert_eq!(bars, 0, "{game}");
        } else {
            assert_eq!(note, "", "{game}");
            assert!(bars.as_u64() > Some(0), "{game}: {bars}");
        }
        // Step as a reader does: the last move, then back with the button and the arrow key.
        let index = "document.getElementById('step-index').textContent";
        dev.eval("document.getElementById('last').click()");
        assert_eq!(
            dev.eval(index),
            format!("move {moves} of {moves}"),
            "{game}"
        );
        dev.eval("document.getElementById('prev').click()");
        dev.key("ArrowLeft", 37);
        assert_eq!(
            dev.eval(index),
            format!("move {} of {moves}", moves - 2),
            "{game}"
        );
        let shown = dev.eval("document.getElementById('step').textContent");
        assert!(
            shown.as_str().is_some_and(|t| t.contains("State after")),
            "{game}: {shown}"
        );
        viewer_draws_the_state(
            game,
            &mut dev,
            &embedded(&std::fs::read_to_string(&page).expect("page")),
            &artifacts,
        );
        // Not one console message, uncaught error or logged error, from loading to here.
        let console = dev.console();
        assert!(console.is_empty(), "{game}: {console:#?}");
        drop(dev);
        // The screenshot a reader would see, kept as the test's artifact.
        let shot = artifacts.join(format!("report-{game}.png"));
        let _ = std::fs::remove_file(&shot);
        let log = chromium(&[
            format!("--screenshot={}", shot.display()),
            "--window-size=1280,2400".into(),
            "--hide-scrollbars".into(),
            format!("file://{}", page.display()),
        ]);
        let png = std::fs::read(&shot)
            .unwrap_or_else(|e| panic!("{game}: no screenshot at {}: {e}\n{log}", shot.display()));
        assert!(
            png.starts_with(b"\x89PNG") && png.len() > 10_000,
            "{game}: {}",
            png.len()
        );
        println!("{game}: screenshot in {}", shot.display());
    }
}

/// The viewer of `game` draws the state of one decision of the page's first replay (the one
/// where the most is revealed, Coup's cards or the cards in Euchre's hands): its elements
/// match the state the page embeds, and for Coup the screenshot shows each player's revealed
/// cards, counted as runs of the revealed card's colour along a line through them.
fn viewer_draws_the_state(
    game: &str,
    dev: &mut Devtools,
    data: &serde_json::Value,
    artifacts: &Path,
) {
    let steps = data["replays"][0]["steps"].as_array().expect("steps");
    let revealed = |st: &serde_json::Value| -> usize {
        st["players"].as_array().map_or(0, |ps| {
            ps.iter()
                .map(|p| p["revealed"].as_array().map_or(0, Vec::len))
                .sum()
        })
    };
    // Every decision of Coup and Bank Heist has its board; Euchre's referee shows one where
    // the table changed (the first decision, every card played), and the viewer draws the
    // last one for the others.
    for (i, st) in steps.iter().enumerate() {
        let needs = game != "euchre"
            || i == 0
            || st["seat"].as_str().is_some_and(|s| s.ends_with(", turn"));
        assert!(
            !needs || st["state"].is_object(),
            "{game}: step {i} has no state"
        );
    }
    // The most to see: Coup's revealed cards, or a Euchre trick with the most cards on the
    // table and then in hand; the latest such step.
    let on_table = |st: &serde_json::Value| {
        st["trick"]
            .as_array()
            .map_or(0, |t| t.iter().filter(|c| c.is_string()).count())
    };
    let held = |st: &serde_json::Value| {
        st["hands"].as_array().map_or(0, |hs| {
            hs.iter().map(|h| h.as_array().map_or(0, Vec::len)).sum()
        })
    };
    let k = (0..steps.len())
        .max_by_key(|&i| {
            let st = &steps[i]["state"];
            (revealed(st), on_table(st), held(st), i)
        })
        .expect("a step");
    let state = &steps[k]["state"];
    dev.fix_viewport();
    dev.eval(&format!(
        "showStep({k}); document.getElementById('view').scrollIntoView(); true"
    ));
    assert_eq!(
        dev.eval("document.getElementById('view').hidden"),
        false,
        "{game}: the board is drawn"
    );
    let count = |dev: &mut Devtools, sel: &str| {
        dev.eval(&format!("document.querySelectorAll('#view {sel}').length"))
            .as_u64()
            .unwrap_or(0) as usize
    };
    match game {
        "coup" => {
            let hidden: usize = state["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["hidden"].as_array().unwrap().len())
                .sum();
            assert_eq!(
                count(dev, ".card.revealed"),
                revealed(state),
                "{game}: {state}"
            );
            assert_eq!(count(dev, ".card.down"), hidden, "{game}: {state}");
            for (seat, p) in state["players"].as_array().unwrap().iter().enumerate() {
                let coins = dev.eval(&format!("document.querySelector('#view .player[data-seat=\"{seat}\"] .coins').textContent"));
                assert!(
                    coins
                        .as_str()
                        .is_some_and(|c| c.starts_with(&format!("{} coin", p["coins"]))),
                    "{game}: {coins}"
                );
            }
        }
        "euchre" => {
            let cards: usize = state["hands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_array().unwrap().len())
                .sum();
            assert_eq!(
                count(dev, ".euchre .player .card"),
                cards,
                "{game}: {state}"
            );
            let on_table = state["trick"].as_array().unwrap().len();
            // The turned card beside the trick.
            assert_eq!(
                count(dev, ".euchre .table .card"),
                on_table + 1,
                "{game}: {state}"
            );
        }
        "bank-heist" => {
            let players = state["players"].as_array().unwrap().len();
            assert_eq!(count(dev, "tr[data-bot]"), players, "{game}: {state}");
        }
        other => panic!("no viewer check for {other}"),
    }
    let png = dev.screenshot();
    let shot = artifacts.join(format!("viewer-{game}.png"));
    std::fs::write(&shot, &png).expect("write the viewer's screenshot");
    if game != "coup" {
        return;
    }
    // The picture: along a line 3 pixels into each player's first card (its padding, above
    // the text), every revealed card is one run of its background colour.
    let rows = dev.eval(
        "[...document.querySelectorAll('#view .player[data-seat]')].map((p) => { \
           const c = p.querySelector('.card'); const b = p.getBoundingClientRect(); \
           return c ? [Math.round(c.getBoundingClientRect().top) + 3, Math.round(b.left), Math.round(b.right)] : null; })",
    );
    let decoder = png::Decoder::new(std::io::Cursor::new(&png));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut pixels).expect("the PNG's pixels");
    let channels = info.color_type.samples();
    for (seat, row) in rows.as_array().expect("rows").iter().enumerate() {
        let want = state["players"][seat]["revealed"].as_array().unwrap().len();
        let Some(row) = row.as_array() else {
            assert_eq!(want, 0, "{game}: seat {seat} shows no card");
            continue;
        };
        let [y, x0, x1] = [0, 1, 2].map(|i| row[i].as_u64().expect("a coordinate") as usize);
        assert!(
            y < info.height as usize && x1 <= info.width as usize,
            "{game}: {row:?} in the viewport"
        );
        let line = &pixels[y * info.line_size..(y + 1) * info.line_size];
        let is_revealed = |x: usize| line[x * channels..x * channels + 3] == [0xfd, 0xec, 0xea];
        let runs = (x0..x1)
            .filter(|&x| is_revealed(x) && (x == x0 || !is_revealed(x - 1)))
            .count();
        assert_eq!(
            runs,
            want,
            "{game}: seat {seat}'s revealed cards in {}",
            shot.display()
        );
    }
}
