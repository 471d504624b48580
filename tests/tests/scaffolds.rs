//! `koth new` for every game and language it offers: each scaffold, written by the `koth`
//! command into a temporary folder, builds with the one-line build its README documents and
//! plays a short tournament against example bots through the command, with no forfeit and no
//! failed decision. The Rust scaffold carries the guest SDK byte for byte.
//!
//! Plain Python needs CPython for WASI (`koth setup python`, which `scripts/setup` runs): where
//! it could not be installed (`target/koth-skip-languages`), the Python scaffolds' tests are
//! reported as ignored, by name. The other toolchains (clang-14 with wasi-libc, the Rust wasm
//! targets) are the ones `tests/build.rs` requires to build the example bots at all.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `koth` command of this build.
fn koth() -> Command {
    Command::new(koth_tests::koth_bin())
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{text}",
        out.status
    );
    text
}

/// The first ```sh block after `## Build` in the README: the documented one-line build.
fn documented_build(readme: &str) -> String {
    let after = readme
        .split("## Build")
        .nth(1)
        .expect("the README has a Build section");
    let block = after
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("the Build section has a sh block");
    let lines: Vec<&str> = block.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "the build is not one line: {block:?}");
    lines[0].to_string()
}

/// Remove what the outer `cargo test` set for itself, so that a nested cargo builds the
/// scaffold as a user's shell would.
fn scrubbed(cmd: &mut Command) -> &mut Command {
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        if key.starts_with("CARGO_") && key != "CARGO_HOME"
            || ["RUSTFLAGS", "RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER"].contains(&key)
        {
            cmd.env_remove(key);
        }
    }
    cmd
}

/// Example bots to play against, by game.
fn rivals(game: &str) -> Vec<PathBuf> {
    let names: &[&str] = match game {
        "coup" => &["random", "lawyer"],
        "bank-heist" => &["lurker", "heist_master"],
        _ => &["random_8020", "marius"],
    };
    names.iter().map(|n| koth_tests::wasm(n)).collect()
}

/// Options for a short tournament.
fn short(game: &str) -> &'static [&'static str] {
    match game {
        "coup" => &["--rounds", "2"],
        "bank-heist" => &["--games", "150"],
        _ => &["--games", "4"],
    }
}

/// Write the scaffold, build it as its README says, check it, and play it.
fn scaffold_plays(game: &str, lang: &str) {
    let tmp = tempfile::Builder::new()
        .prefix("koth-scaffold-")
        .tempdir()
        .unwrap();
    let name = format!("{}_{}", game.replace('-', "_"), lang.replace('-', "_"));
    let dir = tmp.path().join(&name);
    let said = run(koth().args(["new", game, lang]).arg(&dir), "koth new");
    assert!(said.contains(&format!("named `{name}`")), "{said}");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();

    // The documented build. Rust scaffolds share one target folder (set by the environment,
    // as a user may), so wit-bindgen and the SDK compile once for all of them.
    let build = documented_build(&readme);
    let shared_target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/scaffolds");
    let bot = if build.starts_with("cargo ") {
        run(
            scrubbed(Command::new("sh").args(["-c", &build]))
                .current_dir(&dir)
                .env("CARGO_TARGET_DIR", &shared_target),
            &format!("{name}: {build}"),
        );
        let target = if lang == "rust" {
            "wasm32-wasip1"
        } else {
            "wasm32-wasip2"
        };
        shared_target
            .join(target)
            .join("release")
            .join(format!("{name}.wasm"))
    } else if build.starts_with("koth ") {
        // A script: nothing to build; the README's line installs the interpreter (idempotent).
        let args: Vec<&str> = build.split_whitespace().skip(1).collect();
        run(koth().args(&args), &build);
        dir.join(format!("{name}.py"))
    } else {
        run(
            Command::new("sh").args(["-c", &build]).current_dir(&dir),
            &format!("{name}: {build}"),
        );
        dir.join(format!("{name}.wasm"))
    };
    assert!(bot.is_file(), "{name}: the build made no {}", bot.display());
    assert!(readme.contains("koth check "), "{readme}");
    let checked = run(koth().arg("check").arg(&bot), "koth check");
    assert!(checked.starts_with("OK "), "{checked}");

    let out = tmp.path().join("run");
    run(
        koth()
            .arg(game)
            .arg(&bot)
            .args(rivals(game))
            .args(short(game))
            .args(["--seed", "1", "--jobs", "2", "--out"])
            .arg(&out),
        &format!("koth {game} with {name}"),
    );
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["void_matches"], serde_json::json!([]), "{name}");
    let rows = results["bots"].as_array().unwrap();
    let mine = rows
        .iter()
        .find(|r| r["bot"] == name.as_str())
        .unwrap_or_else(|| panic!("{name} is not on the leaderboard: {rows:?}"));
    // The scaffold's own row: an example rival may fail decisions on purpose (Random 8020
    // answers at random).
    assert!(
        mine["forfeits"].as_object().is_some_and(|f| f.is_empty()),
        "{name} forfeited or failed decisions against {:?}: {mine}",
        rivals(game)
    );
    assert!(mine["games"].as_u64().unwrap_or(0) > 0, "{mine}");
    if game != "bank-heist" {
        // A player, not a stub that only survives: it wins some of its games.
        assert!(
            mine["wins"].as_u64().unwrap_or(0) > 0,
            "{name} won nothing: {mine}"
        );
    }
    if lang == "rust" {
        same_tree(
            &dir.join("sdk/koth-guest/src"),
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../guest-sdk/src"),
        );
    }
}

/// Two folders hold the same files with the same bytes.
fn same_tree(a: &Path, b: &Path) {
    let (ta, tb) = (koth_tests::read_tree(a), koth_tests::read_tree(b));
    assert_eq!(
        ta.keys().collect::<Vec<_>>(),
        tb.keys().collect::<Vec<_>>(),
        "{} and {}",
        a.display(),
        b.display()
    );
    for (k, v) in &ta {
        assert!(
            v == &tb[k],
            "{k} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
}

macro_rules! scaffold_tests {
    ($($test:ident: $game:literal, $lang:literal;)*) => {$(
        #[test]
        fn $test() {
            scaffold_plays($game, $lang);
        }
    )*};
}

scaffold_tests! {
    coup_rust: "coup", "rust";
    coup_c: "coup", "c";
    coup_rust_component: "coup", "rust-component";
    bank_heist_rust: "bank-heist", "rust";
    bank_heist_c: "bank-heist", "c";
    bank_heist_rust_component: "bank-heist", "rust-component";
    euchre_rust: "euchre", "rust";
    euchre_c: "euchre", "c";
    euchre_rust_component: "euchre", "rust-component";
}

macro_rules! python_scaffold_tests {
    ($($test:ident: $game:literal;)*) => {$(
        #[test]
        #[cfg_attr(
            koth_skip_python,
            ignore = "SKIPPED: python scaffolds: CPython for WASI unavailable (see PYTHON_SKIPPED)"
        )]
        fn $test() {
            scaffold_plays($game, "python");
        }
    )*};
}

python_scaffold_tests! {
    coup_python: "coup";
    bank_heist_python: "bank-heist";
    euchre_python: "euchre";
}

/// Every pair `koth new` offers has its test above, and anything else is refused with a
/// message listing what is offered, writing nothing.
#[test]
fn every_offered_pair_is_tested_and_others_are_refused() {
    let tested = [
        "coup rust",
        "coup c",
        "coup python",
        "coup rust-component",
        "bank-heist rust",
        "bank-heist c",
        "bank-heist python",
        "bank-heist rust-component",
        "euchre rust",
        "euchre c",
        "euchre python",
        "euchre rust-component",
    ];
    let offered: Vec<String> = koth::scaffold::offered()
        .into_iter()
        .map(|(g, l)| format!("{g} {l}"))
        .collect();
    assert_eq!(offered, tested);
    let tmp = tempfile::tempdir().unwrap();
    for (game, lang) in [("coup", "cobol"), ("chess", "rust")] {
        let dir = tmp.path().join("x");
        let out = koth().args(["new", game, lang]).arg(&dir).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains("rust, c, python, rust-component"), "{err}");
        assert!(err.contains("coup, bank-heist, euchre"), "{err}");
        assert!(!dir.exists());
    }
    // A folder that holds something is refused and left as it was.
    let dir = tmp.path().join("taken");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let out = koth()
        .args(["new", "coup", "rust"])
        .arg(&dir)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("exists and is not empty"), "{err}");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    // A referee scaffold is offered in Python and Rust.
    let out = koth()
        .args(["new", "referee", "c"])
        .arg(tmp.path().join("r"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("koth new referee python") && err.contains("koth new referee rust"),
        "{err}"
    );
    assert!(!tmp.path().join("r").exists());
}

/// componentize-py as `tests/build_languages.rs` finds it: `$KOTH_COMPONENTIZE_PY`, else the
/// venv `scripts/setup` makes, else the one on PATH.
fn componentize_py() -> String {
    if let Ok(p) = std::env::var("KOTH_COMPONENTIZE_PY") {
        return p;
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")));
    cache
        .map(|c| c.join("koth/componentize-py/bin/componentize-py"))
        .filter(|p| p.is_file())
        .map_or_else(|| "componentize-py".into(), |p| p.display().to_string())
}

/// `koth new referee python`: a game of one's own, from an empty folder. The referee builds
/// with its README's one line, koth names it as a referee with its options, and its three bots
/// play a whole tournament with the outcome the game's arithmetic fixes: the defector beats
/// both cooperators (5 then 1 a turn against the grudger's and tit-for-tat's 0 then 1), and
/// those two cooperate for 3 points a turn with each other.
#[test]
#[cfg_attr(
    any(koth_skip_python, koth_skip_componentize_py),
    ignore = "SKIPPED: the referee scaffold: CPython for WASI or componentize-py unavailable (see target/koth-skip-languages)"
)]
fn referee_python_builds_checks_and_plays() {
    referee_scaffold_plays("python");
}

/// `koth new referee rust`: the same game, its referee a Rust crate on koth's referee SDK,
/// built with its README's one cargo line; the same bots and the same outcome.
#[test]
#[cfg_attr(
    koth_skip_python,
    ignore = "SKIPPED: the Rust referee scaffold's bots: CPython for WASI unavailable (see target/koth-skip-languages)"
)]
fn referee_rust_builds_checks_and_plays() {
    referee_scaffold_plays("rust");
}

/// Write the referee scaffold in `lang`, build it as its README says, check it and play its
/// three bots.
fn referee_scaffold_plays(lang: &str) {
    let tmp = tempfile::Builder::new()
        .prefix("koth-scaffold-")
        .tempdir()
        .unwrap();
    let dir = tmp.path().join("Prisoners");
    let said = run(
        koth().args(["new", "referee", lang]).arg(&dir),
        "koth new referee",
    );
    assert!(said.contains("the game `prisoners`"), "{said}");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let build = documented_build(&readme);
    let referee = if lang == "rust" {
        assert!(build.starts_with("cargo "), "{build}");
        // The shared target folder of the Rust scaffolds: the SDK and wit-bindgen compile once.
        let shared_target = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/scaffolds");
        let lock = std::fs::read(dir.join("Cargo.lock")).unwrap();
        run(
            scrubbed(Command::new("sh").args(["-c", &build]))
                .current_dir(&dir)
                .env("CARGO_TARGET_DIR", &shared_target),
            &build,
        );
        // The lock file koth wrote is the one cargo keeps.
        assert!(
            std::fs::read(dir.join("Cargo.lock")).unwrap() == lock,
            "cargo rewrote Cargo.lock"
        );
        assert!(
            readme.contains("target/wasm32-wasip2/release/prisoners.wasm"),
            "{readme}"
        );
        same_tree(
            &dir.join("sdk/koth-referee/src"),
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("../referee-sdk/src"),
        );
        shared_target.join("wasm32-wasip2/release/prisoners.wasm")
    } else {
        assert!(build.starts_with("componentize-py "), "{build}");
        let build = build.replacen("componentize-py", &componentize_py(), 1);
        run(
            Command::new("sh").args(["-c", &build]).current_dir(&dir),
            &build,
        );
        dir.join("prisoners.wasm")
    };
    assert!(referee.is_file(), "the build made no {}", referee.display());
    let checked = run(koth().arg("check").arg(&referee), "koth check");
    assert!(checked.starts_with("OK    referee prisoners"), "{checked}");
    assert!(checked.contains("options turns=100 noise=0"), "{checked}");
    // Both scaffolds give their protocol (`pages` in wit/referee.wit).
    assert!(
        checked.contains("      protocol:\n        One decision per invocation."),
        "{checked}"
    );

    let bots: Vec<PathBuf> = ["always_defect", "grudger", "tit_for_tat"]
        .iter()
        .map(|b| dir.join("bots").join(format!("{b}.py")))
        .collect();
    let out = tmp.path().join("run");
    run(
        koth()
            .arg("play")
            .arg(&referee)
            .args(&bots)
            .args(["--seed", "1", "--jobs", "2", "--out"])
            .arg(&out),
        "koth play",
    );
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["void_matches"], serde_json::json!([]));
    let rows = results["bots"].as_array().unwrap();
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["bot"] == name)
            .unwrap_or_else(|| panic!("{name} is not on the leaderboard: {rows:?}"))
            .clone()
    };
    for name in ["always_defect", "grudger", "tit_for_tat"] {
        let r = row(name);
        assert!(
            r["forfeits"].as_object().is_some_and(|f| f.is_empty()),
            "{r}"
        );
    }
    // 100 turns: 5 + 99 × 1 against each cooperator; 0 + 99 × 1 and 300 for the others.
    assert_eq!(row("always_defect")["wins"], 2);
    assert_eq!(row("always_defect")["score"], 208);
    assert_eq!(row("grudger")["score"], 399);
    assert_eq!(row("tit_for_tat")["score"], 399);
    // Ranked by points and rated on them, the mean a match: the defector, which won both its
    // matches, is last with the lowest rating (koth 0.6.0 rated it first).
    assert_eq!(results["ranked_by"], "score");
    assert_eq!(results["score"], "points");
    assert_eq!(rows.last().unwrap()["bot"], "always_defect", "{rows:?}");
    assert_eq!(row("always_defect")["rating"]["rating"], 104.0);
    assert_eq!(row("grudger")["rating"]["rating"], 199.5);
    for w in rows.windows(2) {
        assert!(w[0]["rating"]["rating"].as_f64() >= w[1]["rating"]["rating"].as_f64());
    }
    // The replay's board: each turn's second decision shows the turn, the moves and the
    // running score to koth's Prisoner's Dilemma viewer.
    let html = koth::report::build(&out, &koth::report::ReportOptions::default()).unwrap();
    let open = r#"<script type="application/json" id="data">"#;
    let start = html.find(open).expect("the data tag") + open.len();
    let len = html[start..].find("</script>").expect("the data tag's end");
    let data: serde_json::Value = serde_json::from_str(&html[start..start + len]).unwrap();
    let steps = data["replays"][0]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 200, "two decisions a turn");
    assert!(steps[0].get("state").is_none(), "the turn is not over");
    let state = &steps[1]["state"];
    assert_eq!(state["viewer"], "prisoners-dilemma", "{state}");
    assert_eq!(state["turn"], 1);
    let last = &steps[199]["state"];
    assert_eq!(last["turn"], 100);
    assert_eq!(last["recent"].as_array().unwrap().len(), 10);
    let scores = last["scores"].as_array().unwrap();
    assert_eq!(
        scores.iter().map(|s| s.as_u64().unwrap()).sum::<u64>(),
        results["matches"][0]["scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_u64().unwrap())
            .sum::<u64>(),
        "{last}"
    );
    let page = tmp.path().join("report.html");
    std::fs::write(&page, &html).unwrap();
    board_in_chromium(&page, last);

    // A bad option value is refused before anything is played, naming the option.
    let refused = koth()
        .arg("play")
        .arg(&referee)
        .args(&bots)
        .args(["--opt", "turns=0", "--out"])
        .arg(tmp.path().join("refused"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{err}");
    assert!(err.contains("turns"), "{err}");
    assert!(!tmp.path().join("refused").join("results.json").exists());
}

#[path = "browser/devtools.rs"]
mod devtools;

/// The last turn of the first match, drawn by the Prisoner's Dilemma viewer in Chromium: the
/// last ten turns' moves for both players, and the score.
#[cfg(not(koth_skip_chromium))]
fn board_in_chromium(page: &Path, last: &serde_json::Value) {
    let counts = devtools::board_counts(
        page,
        199,
        &[".moves td.C, .moves td.D"],
        "prisoners-dilemma",
    );
    assert!(
        counts[0]
            .as_str()
            .is_some_and(|t| t.contains("turn 100 of 100")),
        "{counts:?}"
    );
    assert_eq!(counts[1], 20, "{last}");
}

#[cfg(koth_skip_chromium)]
fn board_in_chromium(_: &Path, _: &serde_json::Value) {
    println!("SKIPPED: the Prisoner's Dilemma board in Chromium: Chromium unavailable (see target/koth-skip-browser)");
}
