//! Games as plugins: a referee component is untrusted like a bot. Every way the hostile
//! referee (`tests/referees/hostile`) misbehaves must end its matches as referee faults,
//! named with their reason and listed, the run exiting with status 3: never a host panic,
//! hang or crash. Its honest game is the control.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn referee(name: &str) -> PathBuf {
    assert!(
        koth_tests::REFEREES.contains(&name),
        "no referee `{name}` was built (tests/build.rs REFEREES)"
    );
    koth_tests::wasm(name)
}

/// Run koth with `args`, killed and failed past `limit`: no referee may hang the host.
fn koth(args: &[&std::ffi::OsStr], limit: Duration) -> Output {
    let mut child = Command::new(koth_tests::koth_bin())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start koth");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("poll koth").is_some() {
            return child.wait_with_output().expect("koth's output");
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("koth's output");
            panic!(
                "koth ran past {limit:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `koth play hostile_referee.wasm` with two bots and `--opt attack=ATTACK`, into `out`.
fn play_hostile(attack: &str, out: &Path, extra: &[&str]) -> Output {
    let mut args: Vec<std::ffi::OsString> = vec![
        "play".into(),
        referee("hostile_referee").into(),
        koth_tests::wasm("first_legal").into(),
        koth_tests::wasm("random").into(),
        "--opt".into(),
        format!("attack={attack}").into(),
        "--out".into(),
        out.into(),
        "--jobs".into(),
        "2".into(),
    ];
    args.extend(extra.iter().map(Into::into));
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    koth(&args, Duration::from_secs(240))
}

fn results(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("results.json")).expect("results.json"))
        .expect("results.json is JSON")
}

#[test]
fn the_honest_game_plays_to_a_result() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = play_hostile("none", &out, &["--rounds", "2"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let r = results(&out);
    assert_eq!(r["game"], "hostile");
    assert_eq!(r["matches"].as_array().unwrap().len(), 4);
    assert_eq!(r["void_matches"], serde_json::json!([]));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["referee"]["file"], "hostile_referee.wasm");
    assert_eq!(manifest["referee"]["sha256"].as_str().unwrap().len(), 64);
    assert_eq!(manifest["options"]["options"]["attack"], "none");
    let logs = koth_tests::container_entries(&out.join("matches.zip.zst"));
    let log = logs
        .iter()
        .find(|(name, _)| name == "logs/match-0.log")
        .map(|(_, l)| String::from_utf8_lossy(l).into_owned())
        .expect("the first match's log in matches.zip");
    assert!(log.contains("first_legal said"), "{log}");
}

#[path = "browser/devtools.rs"]
mod devtools;

/// The referee's own viewer (`pages` in wit/referee.wit) travels with the archive, and the
/// report runs it in a sandboxed frame that draws each decision's state; `koth check`
/// prints the referee's protocol.
#[test]
#[cfg_attr(
    koth_skip_chromium,
    ignore = "SKIPPED: the referee's viewer in Chromium: Chromium unavailable (see target/koth-skip-browser)"
)]
fn the_referees_own_viewer_draws_the_replay_in_a_sandboxed_frame() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    // Two bots that answer the honest game with something (Liar's Dice bots: a bid, a call).
    let o = koth(
        &[
            "play".as_ref(),
            referee("hostile_referee").as_os_str(),
            koth_tests::wasm("historian").as_os_str(),
            koth_tests::wasm("bluffer").as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
        Duration::from_secs(120),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let viewer = std::fs::read_to_string(out.join("viewer.js")).expect("the archive's viewer");
    assert!(viewer.contains("getContext(\"2d\")"), "{viewer}");
    let page = dir.path().join("report.html");
    let o = koth(
        &[
            "report".as_ref(),
            out.as_os_str(),
            "--out".as_ref(),
            page.as_os_str(),
        ],
        Duration::from_secs(60),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    let data: serde_json::Value = serde_json::from_str(
        html.split_once("<script type=\"application/json\" id=\"data\">")
            .and_then(|(_, rest)| rest.split_once("</script>"))
            .expect("the page's data")
            .0,
    )
    .expect("the data is JSON");
    assert_eq!(data["viewer"]["script"], viewer.as_str());
    // The last decision of the first match: both seats have spoken.
    let steps = data["replays"][0]["steps"].as_array().expect("steps");
    let last = steps.len() - 1;
    let said: Vec<usize> = steps[last]["state"]["said"]
        .as_array()
        .expect("the last state")
        .iter()
        .map(|n| n.as_u64().unwrap() as usize)
        .collect();
    assert_eq!(said.len(), 2, "{}", steps[last]);
    let mut dev = devtools::Devtools::open(&format!("file://{}", page.display()));
    dev.eval(&format!("showStep({last}); true"));
    let squares = devtools::plugin_squares(&mut dev, 2, "hostile-referee");
    let want: Vec<usize> = said.iter().map(|&n| n.min(30)).collect();
    assert!(want.iter().any(|&n| n > 0), "{said:?}");
    assert_eq!(squares, want, "the squares drawn for {said:?}");
    // The first decision: one row, the first seat's.
    dev.eval("showStep(0); true");
    let squares = devtools::plugin_squares(&mut dev, 1, "hostile-referee-first");
    assert_eq!(squares, want[..1]);
}

/// Each attack, and the reason its fault must name.
const ATTACKS: &[(&str, &str)] = &[
    ("trap", "it trapped"),
    ("loop", "it ran out of fuel"),
    ("memory", "it ran out of memory"),
    (
        "bad-scores",
        "it returned results for 3 seats, but the match has 2",
    ),
    (
        "bad-winner",
        "it named seat 7 a winner, but the match has 2 seats",
    ),
    ("bad-seat", "it named seat 99, but the match has 2 seats"),
    ("quota", "over the directory's quota of 1024 bytes"),
    ("huge-stdin", "of stdin, over the cap of 1048576"),
    ("malformed", "its detail is not JSON"),
    ("judge-twice", "it judged the same decision twice"),
    ("log-flood", "past its cap of 67108864 bytes"),
    ("decide-flood", "it ran out of fuel"),
    ("random-flood", "random bytes at once, over the cap"),
    ("give-up", "the referee gives up"),
    ("state-huge", "over the 16384-byte cap"),
    ("state-deep", "a state nested deeper than 64 levels"),
    ("state-twice", "it showed two states for one decision"),
];

#[test]
fn every_hostile_referee_ends_as_a_named_referee_fault() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (attack, reason) in ATTACKS {
        let out = dir.path().join(attack);
        // A small fuel budget, so the loops end soon; a small memory, so the hoard does.
        let o = play_hostile(
            attack,
            &out,
            &["--referee-fuel", "300000000", "--referee-memory", "64"],
        );
        let stderr = String::from_utf8_lossy(&o.stderr);
        let problems: Vec<String> = [
            (o.status.code() != Some(3)).then(|| format!("exit status {:?}", o.status.code())),
            (!stderr.contains("REFEREE FAULT: 2 of 2 games void"))
                .then(|| "no REFEREE FAULT summary".to_string()),
            (!stderr.contains(reason)).then(|| format!("no `{reason}`")),
            stderr
                .contains("panicked")
                .then(|| "the host panicked".to_string())
                .filter(|_| !stderr.contains("referee fault: it trapped")),
            stderr
                .contains("HOST FAULT")
                .then(|| "called a host fault".to_string()),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !problems.is_empty() {
            failures.push(format!("{attack}: {}\n{stderr}", problems.join("; ")));
            continue;
        }
        let r = results(&out);
        assert_eq!(r["void_matches"], serde_json::json!([0, 1]), "{attack}");
        for m in r["matches"].as_array().unwrap() {
            let why = m["void"].as_str().unwrap_or_default();
            assert!(why.starts_with("referee fault: "), "{attack}: {why}");
            assert!(why.contains(reason), "{attack}: {why}");
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn check_names_a_referee_and_its_game() {
    let o = koth(
        &[
            "check".as_ref(),
            // Loaded only: first_legal is a Coup bot, which would fail a run in this game
            // (check_run.rs runs bots beside a referee).
            "--no-run".as_ref(),
            referee("hostile_referee").as_os_str(),
            koth_tests::wasm("first_legal").as_os_str(),
        ],
        Duration::from_secs(120),
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{stdout}");
    assert!(
        stdout.contains("OK    referee hostile_referee")
            && stdout.contains(
                "game `hostile`: 2 seats; formats ordered-pairs, tables; options attack=none"
            ),
        "{stdout}"
    );
    assert!(stdout.contains("OK    first_legal"), "{stdout}");
    // The game's page, under the referee's line: what a bot author needs to know.
    for line in [
        "      hostile: a referee that attacks the host",
        "      seats: 2 per match (0 1)",
        "      each seat's bot gets its own folder of at most 1024 bytes and 8 files and folders",
        "      ranked by games won (a Bradley–Terry rating)",
        "        attack  how to attack the host; one of none, trap,",
        // Its protocol, from its `pages` export, line by line, and its own viewer.
        "      protocol:\n        # The honest game\n\n        Each seat is asked once, with the argument `say`",
        "      viewer: its own (",
    ] {
        assert!(stdout.contains(line), "{line} is not in:\n{stdout}");
    }
}

#[test]
fn bad_options_are_refused_before_anything_is_played() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    for (extra, want) in [
        (
            vec!["--opt", "attack=nuke"],
            "--opt attack=nuke: must be one of none, trap",
        ),
        (
            vec!["--opt", "speed=3"],
            "the referee has no such option (it takes: attack)",
        ),
        (
            vec!["--format", "all-play-all"],
            "--format all-play-all: the referee plays ordered-pairs, tables",
        ),
        (vec!["--paired"], "does not support paired matches"),
        (vec!["--partners", "copies"], "the game has no teams"),
    ] {
        let mut args: Vec<std::ffi::OsString> = vec![
            "play".into(),
            referee("hostile_referee").into(),
            koth_tests::wasm("first_legal").into(),
            koth_tests::wasm("random").into(),
            "--out".into(),
            out.clone().into(),
        ];
        args.extend(extra.iter().map(Into::into));
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        let o = koth(&args, Duration::from_secs(120));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(want), "{extra:?}: {stderr}");
        assert!(!out.exists(), "{extra:?} wrote an archive");
    }
}

#[test]
fn a_bot_is_not_a_referee_and_a_referee_is_not_a_bot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = koth(
        &[
            "play".as_ref(),
            koth_tests::wasm("first_legal").as_os_str(),
            koth_tests::wasm("random").as_os_str(),
            koth_tests::wasm("lawyer").as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
        Duration::from_secs(120),
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("first_legal.wasm") && stderr.contains("must be a WebAssembly component"),
        "{stderr}"
    );
    let o = koth(
        &[
            "coup".as_ref(),
            referee("hostile_referee").as_os_str(),
            koth_tests::wasm("random").as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
        Duration::from_secs(120),
    );
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("hostile_referee"), "{stderr}");
    assert!(!out.exists());
}
