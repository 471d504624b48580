//! Shared helpers of koth's integration tests (`tests/tests/*.rs`).
//!
//! - [`wasm`] and [`bots_dir`]: the bots `build.rs` built for `wasm32-wasip1` before these tests
//!   compiled (every bin of `koth-example-bots` and `koth-test-bots`, and every
//!   `example-bots/c/*.c`), with their exact names in [`EXAMPLE_BOTS`], [`TEST_BOTS`] and
//!   [`C_BOTS`].
//! - [`coup`]: a table of Coup protocol situations (the seed's worked examples and the cases of
//!   its `get_legal_actions`), and a check that a bot answers each one legally.

use std::path::PathBuf;
use std::sync::Arc;

// EXAMPLE_BOTS, TEST_BOTS and C_BOTS: what build.rs built this time.
include!(concat!(env!("OUT_DIR"), "/bots.rs"));

/// The default invocation limits (10⁹ fuel, the quotas) with a 60 s wall-clock backstop
/// instead of 10 s, for attacks that fuel must end. An attack that pays for its host work
/// burns its fuel in about a second (`koth bench hostcalls`: every host-call loop is faster
/// per fuel than plain wasm), one that did not pay would run for hours: the backstop still
/// tells the two apart, with room for a CI machine many times slower than ours or loaded by
/// the other tests. The 10 s default has a test of its own
/// (`hostile::cpu::wall_clock_backstop_fires_when_fuel_cannot`).
pub fn attack_limits() -> koth::sandbox::Limits {
    koth::sandbox::Limits {
        wall_clock_ms: 60_000,
        ..koth::sandbox::Limits::default()
    }
}

/// The folder holding every built bot as `<name>.wasm`.
pub fn bots_dir() -> PathBuf {
    PathBuf::from(env!("KOTH_WASM_BOTS_DIR"))
}

/// The module of the bot `name`: a bin of `koth-example-bots` or `koth-test-bots` (named as
/// cargo names the bin, `-` included), the stem of an `example-bots/c/*.c` file, another
/// language's bot, or a referee component.
///
/// # Panics
///
/// If no such bot was built, naming the bot and listing those that were; or if its file has
/// gone since (say, a `cargo clean` while the test binary stayed).
pub fn wasm(name: &str) -> PathBuf {
    let known = EXAMPLE_BOTS
        .iter()
        .chain(TEST_BOTS)
        .chain(C_BOTS)
        .chain(LANGUAGE_BOTS)
        .chain(LIARS_DICE_C_BOTS)
        .chain(REFEREES)
        .chain(LANGUAGE_REFEREES)
        .any(|b| *b == name);
    if !known {
        panic!(
            "no bot named `{name}` was built for the tests. Built: koth-example-bots {EXAMPLE_BOTS:?}, \
             koth-test-bots {TEST_BOTS:?}, example-bots/c {C_BOTS:?}, other languages {LANGUAGE_BOTS:?}, Liar's Dice in C {LIARS_DICE_C_BOTS:?}, referees {REFEREES:?} and {LANGUAGE_REFEREES:?}. A new bot needs a bin \
             (example-bots/src/bin/{name}.rs or tests/bots/src/bin/{name}.rs) or example-bots/c/{name}.c."
        );
    }
    let path = bots_dir().join(format!("{name}.wasm"));
    assert!(
        path.is_file(),
        "bot `{name}` was built but {} is missing: rebuild the tests (`cargo test -p koth-tests`)",
        path.display()
    );
    path
}

/// Every Coup player to test: the Coup bins of `koth-example-bots` (those in
/// `example-bots/src/bin/`; the Bank Heist and Euchre bots live in their own folders) and the
/// C bots, sorted by name.
pub fn coup_bots() -> Vec<&'static str> {
    let coup_dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../example-bots/src/bin");
    let mut bots: Vec<&str> = EXAMPLE_BOTS
        .iter()
        .filter(|b| coup_dir.join(format!("{b}.rs")).is_file())
        .chain(C_BOTS)
        .copied()
        .collect();
    bots.sort_unstable();
    bots
}

/// The `koth` command of this build, for tests that run it as a user would (and kill it).
/// Built once per test process with the same cargo, profile and target folder as the test
/// itself (a no-op when it is up to date), so it is never a stale binary.
///
/// # Panics
///
/// If the build fails.
pub fn koth_bin() -> PathBuf {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let (profile_dir, target_dir) = test_dirs();
        build_koth(&target_dir, test_profile(&profile_dir), &["koth"]);
        profile_dir.join("koth")
    })
    .clone()
}

/// The `koth-bench` binary of this build, beside [`koth_bin`]'s `koth` (which `koth bench`
/// runs). Built once per test process, as [`koth_bin`] is.
///
/// # Panics
///
/// If the build fails.
pub fn koth_bench_bin() -> PathBuf {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let koth = koth_bin();
        let (profile_dir, target_dir) = test_dirs();
        build_koth(&target_dir, test_profile(&profile_dir), &["koth-bench"]);
        koth.with_file_name("koth-bench")
    })
    .clone()
}

/// The `koth` command as `scripts/demo` builds it (the `demo` profile: unoptimised but for
/// the code generator), in this test's target folder: `<target>/demo/koth`. Built once per
/// test process (a few minutes the first time).
///
/// # Panics
///
/// If the build fails.
pub fn demo_koth_bin() -> PathBuf {
    static BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN.get_or_init(|| {
        let (_, target_dir) = test_dirs();
        build_koth(&target_dir, "demo", &["koth"]);
        target_dir.join("demo").join("koth")
    })
    .clone()
}

/// The cargo profile this test was built with, from its `<target>/<profile>` folder.
fn test_profile(profile_dir: &std::path::Path) -> &'static str {
    if profile_dir.file_name().is_some_and(|n| n == "release") {
        "release"
    } else {
        "dev"
    }
}

/// This test's `<target>/<profile>` folder and `<target>`.
fn test_dirs() -> (PathBuf, PathBuf) {
    // The test runs from <target>/<profile>/deps/.
    let exe = std::env::current_exe().expect("the test's own path");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test runs from <target>/<profile>/deps")
        .to_path_buf();
    let target_dir = profile_dir
        .parent()
        .expect("<target>/<profile>")
        .to_path_buf();
    (profile_dir, target_dir)
}

/// `cargo build -p P --bin P --profile PROFILE` for each of `packages` (`koth`, `koth-bench`)
/// into `target_dir`, with the same cargo as the test.
fn build_koth(target_dir: &std::path::Path, profile: &str, packages: &[&str]) {
    let mut cargo = std::process::Command::new(env!("CARGO"));
    // Cargo gives this test process its package's variables (CARGO_PKG_NAME=koth-tests,
    // CARGO_MANIFEST_DIR, ...). Some build scripts in koth's tree (ring's) re-run when
    // those change, so an inner build that inherited them rebuilt ring and all above it
    // (a minute and more), and the next outer build rebuilt them back.
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy();
        let per_crate = [
            "CARGO_PKG_",
            "CARGO_MANIFEST_",
            "CARGO_CRATE_",
            "CARGO_BIN_",
            "CARGO_PRIMARY_PACKAGE",
            "CARGO_TARGET_TMPDIR",
            "CARGO_RUSTC_CURRENT_DIR",
            "OUT_DIR",
        ];
        if per_crate.iter().any(|p| key.starts_with(p)) {
            cargo.env_remove(key.as_ref());
        }
    }
    cargo
        .args(["build", "--quiet"])
        // Each package's binary of the same name (`koth`, `koth-bench`).
        .args(packages.iter().flat_map(|p| ["-p", p, "--bin", p]))
        .args(["--profile", profile])
        .arg("--target-dir")
        .arg(target_dir)
        .current_dir(env!("CARGO_MANIFEST_DIR"));
    let status = cargo.status().expect("run cargo to build koth");
    assert!(
        status.success(),
        "building the koth command ({profile}) failed"
    );
}

/// Every file under `root`, by path relative to it, with its bytes, and every entry of each
/// `matches.zip.zst` (the archive's container of per-match files) as `matches.zip.zst/<entry>`
/// (a folder's name ends with `/`), read with the `zip` crate and checked against its CRC: an
/// archive as the tests compare it (two archives are identical when these maps are equal; the
/// container's own bytes are in it too).
pub fn read_tree(root: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read the archive folder") {
            let p = e.expect("an archive entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p
                    .strip_prefix(root)
                    .expect("under the root")
                    .display()
                    .to_string();
                if p.file_name().is_some_and(|n| n == "matches.zip.zst") {
                    for (name, data) in container_entries(&p) {
                        out.insert(format!("{rel}/{name}"), data);
                    }
                }
                out.insert(rel, std::fs::read(&p).expect("read an archive file"));
            }
        }
    }
    out
}

/// The invocation lines of the archive folder `dir` (its `invocations.jsonl.zst`,
/// decompressed).
///
/// # Panics
///
/// If the archive has no readable invocation file.
pub fn invocations(dir: &std::path::Path) -> String {
    let path = koth::tournament::archive::invocations_path(dir);
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut koth::tournament::archive::read_invocations(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        &mut text,
    )
    .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text
}

/// The entries of the container at `path` (`matches.zip.zst`, or a plain zip), in its order: each name (a folder's ends with `/`) with
/// its bytes.
///
/// # Panics
///
/// If it is not a zip whose every entry reads back with its CRC.
pub fn container_entries(path: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    koth::tournament::container::read_all(path)
        .unwrap_or_else(|e| panic!("{} is not a readable zip: {e}", path.display()))
}

/// A run's manifest as a command writes it, each bot named by its file `<name>.wasm`, by a
/// koth whose version reads `test`.
pub fn manifest<O>(
    game: &str,
    bots: &[koth::sandbox::Bot],
    options: O,
    sandbox: &koth::sandbox::Sandbox,
) -> koth::tournament::Manifest<O> {
    koth::tournament::Manifest {
        game: game.into(),
        koth_version: "test".into(),
        bots: bots
            .iter()
            .map(|b| koth::tournament::BotEntry {
                name: b.name().into(),
                file: format!("{}.wasm", b.name()),
                sha256: b.sha256_hex(),
            })
            .collect(),
        options,
        engine: sandbox.settings().clone(),
        referee: None,
    }
}

/// A Coup tournament's archive as the command writes it (the manifest naming each bot by its
/// file), written into a self-deleting folder and read back with [`read_tree`].
pub fn coup_archive(
    t: &koth::games::coup::tournament::CoupTournament,
    bots: &[(koth::sandbox::Bot, PathBuf)],
    options: koth::games::coup::tournament::CoupOptions,
    sandbox: &koth::sandbox::Sandbox,
) -> std::collections::BTreeMap<String, Vec<u8>> {
    use koth::games::coup::tournament::{write_archive, BotEntry, Manifest};
    let manifest = Manifest {
        game: "coup".into(),
        koth_version: "test".into(),
        bots: bots
            .iter()
            .map(|(b, p)| BotEntry {
                name: b.name().into(),
                file: p
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                sha256: b.sha256_hex(),
            })
            .collect(),
        options,
        engine: sandbox.settings().clone(),
        referee: None,
    };
    archive_tree(|archive| write_archive(t, &manifest, archive))
}

/// Write an archive with `write` into a self-deleting temporary folder and read it back with
/// [`read_tree`]: the folder is gone when this returns, even if `write` panics.
pub fn archive_tree<E: std::fmt::Debug>(
    write: impl FnOnce(&koth::tournament::archive::Archive) -> Result<(), E>,
) -> std::collections::BTreeMap<String, Vec<u8>> {
    let tmp = tempfile::Builder::new()
        .prefix("koth-archive-test-")
        .tempdir()
        .expect("a temporary folder");
    let dir = tmp.path().join("archive");
    let archive = koth::tournament::archive::Archive::create(&dir).expect("create the archive");
    write(&archive).expect("write the archive");
    read_tree(&dir)
}

pub mod coup {
    //! Coup situations to put a bot in, and the check of its answer.
    //!
    //! Each situation is a short scripted game replayed with koth's Coup rules
    //! ([`koth::games::coup::rules::Game`], checked against the original arbiter), so the
    //! history, coins, cards and legal actions a bot gets are exactly what a tournament would
    //! give it at that point; the table only chooses hands and moves. The histories are the
    //! seed's worked examples (`Fp\n`, `C=\n`, `Eq~<\n`, `Tq'\n`, `Asq!'\n`, `Sq*0\n`, …) cut
    //! at every kind of decision.

    use koth::games::coup::rules::{Card, Game};
    use koth::sandbox::{Bot, Invocation, Limits, Outcome, Vfs, VfsLimits};
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// One decision to ask a bot for.
    #[derive(Debug, Clone)]
    pub struct Situation {
        /// Short unique name, used in failure messages and to pick a situation.
        pub name: &'static str,
        /// What is going on, in words.
        pub what: &'static str,
        /// The history file's content.
        pub history: String,
        /// Whether the bot is the first player of the game (it decides the file's name).
        pub first_player: bool,
        /// argv[2].
        pub opponent_coins: u32,
        /// argv[3].
        pub own_coins: u32,
        /// argv[4]: reveal symbols, the two drawn cards first when finishing an Exchange.
        pub cards: String,
        /// argv[5…], in the arbiter's order.
        pub legal: Vec<String>,
        /// True when the bot is finishing an Exchange and must print the cards it keeps.
        pub exchange: bool,
        /// The game at this point, to apply the bot's answer with koth's own rules.
        game: Game,
    }

    /// What a bot did in a situation.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct Answer {
        /// What it appended to the history file.
        pub appended: String,
        /// What it printed on stdout.
        pub stdout: String,
    }

    /// A situation as a script: hands (reveal symbols) of the first and second player, cards
    /// to put on top of the deck (drawn first, in this order), and the appended text of every
    /// invocation so far. The bot plays the seat whose turn comes next.
    struct Script {
        name: &'static str,
        what: &'static str,
        hands: [&'static str; 2],
        deck_top: &'static str,
        moves: &'static [&'static str],
    }

    const fn s(
        name: &'static str,
        what: &'static str,
        hands: [&'static str; 2],
        deck_top: &'static str,
        moves: &'static [&'static str],
    ) -> Script {
        Script {
            name,
            what,
            hands,
            deck_top,
            moves,
        }
    }

    // Shorthands for the scripts: income, and the opener "first player taxes unchallenged,
    // second takes income" that gives the first player 4 coins and the second 2.
    const TAX_THEN_INCOME: [&str; 4] = ["T", "p", "\n", "I\n"];

    #[rustfmt::skip]
    const SCRIPTS: &[Script] = &[
        // Turn starts.
        s("open-duke", "first move of the game (empty history), holding Duke and Captain", ["$*", "~!"], "", &[]),
        s("open-ambassador", "first move of the game, holding Ambassador and Contessa", ["~!", "$*"], "", &[]),
        s("open-assassins", "first move of the game, holding two Assassins", ["^^", "$*"], "", &[]),
        s("second-player-first-turn", "the second player's first turn after `I\\n`", ["$*", "~!"], "", &["I\n"]),
        s("turn-4-coins-assassin", "own turn with 4 coins, holding an Assassin (`Tp\\nI\\n`)", ["^!", "$*"], "", &TAX_THEN_INCOME),
        s("turn-7-coins", "own turn with 7 coins: Coup is offered", ["~!", "$*"], "",
          &["T", "p", "\n", "I\n", "T", "p", "\n", "I\n"]),
        s("turn-10-coins", "own turn with 10 coins: Coup is the only legal action", ["$!", "~*"], "",
          &["T", "p", "\n", "T", "p", "\n", "T", "p", "\n", "T", "p", "\n", "T", "p", "\n", "I\n"]),
        s("turn-one-card-opponent-broke", "own turn with one card left, the opponent at 0 coins: no Steal",
          ["^$", "*!"], "", &["S", "p", "\n", "I\n", "I\n", "I\n", "A", "<", "\n"]),
        // Responding to an action.
        s("respond-F-duke", "the opponent takes Foreign Aid (`F`); we hold a Duke", ["~!", "$*"], "", &["F"]),
        s("respond-F", "the opponent takes Foreign Aid (`F`); no Duke", ["$*", "~!"], "", &["F"]),
        s("respond-T", "the opponent claims Tax (`T`)", ["~!", "*^"], "", &["T"]),
        s("respond-T-three-dukes", "the opponent claims Tax, but we hold two Dukes and it lost the third",
          ["$~", "$$"], "", &["S", "q", "0\n", "I\n", "T"]),
        s("respond-E", "the opponent claims Exchange (`E`)", ["$!", "*^"], "", &["E"]),
        s("respond-S-captain", "the opponent claims Steal (`S`); we hold a Captain", ["$!", "*^"], "", &["S"]),
        s("respond-S-ambassador", "the opponent claims Steal; we hold an Ambassador", ["$!", "~^"], "", &["S"]),
        s("respond-S", "the opponent claims Steal; nothing blocks it", ["~!", "$^"], "", &["S"]),
        s("respond-A-contessa", "the opponent claims Assassinate (`A`); we hold a Contessa", ["^$", "!*"], "",
          &["T", "p", "\n", "I\n", "A"]),
        s("respond-A", "the opponent claims Assassinate; no Contessa", ["^*", "$~"], "", &["T", "p", "\n", "I\n", "A"]),
        s("respond-A-last-card", "the opponent claims Assassinate against our last card", ["^$", "*~"], "",
          &["T", "p", "\n", "T", "q", "_\n", "A"]),
        s("respond-C", "the opponent launches a Coup (`C`): give up a card", ["$~", "*$"], "",
          &["T", "p", "\n", "I\n", "T", "p", "\n", "I\n", "C"]),
        s("respond-C-two-dukes", "a Coup against two Dukes: both legal answers are `0`", ["$*", "$$"], "",
          &["T", "p", "\n", "I\n", "T", "p", "\n", "I\n", "C"]),
        // Challenged.
        s("challenged-T-duke", "our Tax is challenged (`Tq`) and we hold the Duke: reveal it", ["$!", "*^"], "", &["T", "q"]),
        s("challenged-T-bluff", "our Tax is challenged without a Duke: give up a card and end the turn (`Tq'\\n`)",
          ["~!", "*^"], "", &["T", "q"]),
        s("challenged-E-ambassador", "our Exchange is challenged (`Eq`) and we hold the Ambassador", ["~!", "*^"], "",
          &["E", "q"]),
        s("challenged-S-captain", "our Steal is challenged (`Sq`) and we hold the Captain (`Sq*0\\n`)", ["*!", "$^"], "",
          &["S", "q"]),
        s("challenged-d-duke", "our Duke block of Foreign Aid is challenged (`Fdq`) and we hold the Duke",
          ["*!", "$^"], "", &["F", "d", "q"]),
        s("challenged-d-bluff", "our Duke block is challenged without a Duke: give up a card, no newline",
          ["*!", "~^"], "", &["F", "d", "q"]),
        s("challenged-s-contessa", "our Contessa block of an Assassination is challenged (`Asq`), we hold it",
          ["^$", "!*"], "", &["T", "p", "\n", "I\n", "A", "s", "q"]),
        // Our challenge failed: give up a card.
        s("failed-challenge-T", "we challenged a Tax and the Duke was revealed (`Tq$`)", ["$*", "~!"], "", &["T", "q", "$"]),
        s("failed-challenge-d", "we challenged a Duke block and lost (`Fdq$`): give up a card and end the turn",
          ["~^", "$*"], "", &["F", "d", "q", "$"]),
        s("failed-challenge-s", "we challenged a Contessa block and lost (`Asq!`, as in `Asq!'\\n`)",
          ["^$", "!*"], "", &["T", "p", "\n", "I\n", "A", "s", "q", "!"]),
        // The opponent blocked or passed: end the turn or challenge.
        s("blocked-d", "the opponent blocks our Foreign Aid with a Duke (`Fd`)", ["~!", "$*"], "", &["F", "d"]),
        s("blocked-c", "the opponent blocks our Steal with a Captain (`Sc`)", ["*!", "$*"], "", &["S", "c"]),
        s("blocked-a", "the opponent blocks our Steal with an Ambassador (`Sa`)", ["*!", "~*"], "", &["S", "a"]),
        s("blocked-s", "the opponent blocks our Assassinate with a Contessa (`As`)", ["^$", "!*"], "",
          &["T", "p", "\n", "I\n", "A", "s"]),
        s("passed-F", "the opponent let our Foreign Aid pass (`Fp`): end the turn", ["~!", "*^"], "", &["F", "p"]),
        s("passed-T", "the opponent let our Tax pass (`Tp`)", ["$!", "*^"], "", &["T", "p"]),
        s("coup-done", "the opponent gave up a card to our Coup (`C=`): end the turn", ["$~", "!*"], "",
          &["T", "p", "\n", "I\n", "T", "p", "\n", "I\n", "C", "="]),
        // Finishing an Exchange: print the cards kept.
        s("exchange-4", "finishing an unchallenged Exchange (`Ep`) with two cards: 4 offered", ["~!", "*^"], "$*",
          &["E", "p"]),
        s("exchange-4-challenged", "finishing an Exchange after a failed challenge (`Eq~<`): 4 offered",
          ["~!", "*^"], "^$", &["E", "q", "~", "<"]),
        s("exchange-3", "finishing an Exchange with one card left (`Tq<\\nI\\nEp`): 3 offered", ["~*", "*^"], "!$",
          &["T", "q", "<\n", "I\n", "E", "p"]),
        s("exchange-4-same", "finishing an Exchange offered two Dukes with two Dukes in hand", ["$$", "*^"], "$~",
          &["E", "p"]),
    ];

    fn card(c: char) -> Card {
        Card::from_reveal_char(c).unwrap_or_else(|| panic!("{c:?} is not a reveal symbol"))
    }

    /// Every situation of the table, replayed with koth's rules.
    ///
    /// # Panics
    ///
    /// If a script is not a legal game (a bug in the table).
    pub fn situations() -> Vec<Situation> {
        SCRIPTS.iter().map(replay).collect()
    }

    /// The situation named `name`.
    ///
    /// # Panics
    ///
    /// If there is none.
    pub fn situation(name: &str) -> Situation {
        situations()
            .into_iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| panic!("no Coup situation named {name:?}"))
    }

    fn replay(script: &Script) -> Situation {
        let hands = script
            .hands
            .map(|h| h.chars().map(card).collect::<Vec<_>>());
        // The rest of the 15-card deck under the chosen top cards (the deck's end is its top).
        let mut rest: Vec<Card> = (0..3).flat_map(|_| Card::ALL).collect();
        let top: Vec<Card> = script.deck_top.chars().map(card).collect();
        for c in hands.iter().flatten().chain(&top) {
            let i = rest
                .iter()
                .position(|r| r == c)
                .unwrap_or_else(|| panic!("{}: more than three {c}s", script.name));
            rest.remove(i);
        }
        let deck: Vec<Card> = rest.into_iter().chain(top.into_iter().rev()).collect();
        let mut game = Game::with_hands(hands, deck, ChaCha8Rng::seed_from_u64(1));
        for (i, mv) in script.moves.iter().enumerate() {
            let prompt = game.prompt();
            // Mid-script Exchanges keep the first cards offered.
            let stdout: String = if prompt.exchange {
                prompt
                    .cards
                    .chars()
                    .take(prompt.cards.chars().count() - 2)
                    .collect()
            } else {
                String::new()
            };
            if let Err(foul) = game.apply(mv, &stdout) {
                panic!(
                    "situation {}: move {i} ({mv:?}) is illegal: {foul}",
                    script.name
                );
            }
            assert!(
                !game.is_over(),
                "situation {}: the game ended at move {i}",
                script.name
            );
        }
        let prompt = game.prompt();
        Situation {
            name: script.name,
            what: script.what,
            history: game.history().to_string(),
            first_player: prompt.seat == 0,
            opponent_coins: prompt.opponent_coins,
            own_coins: prompt.own_coins,
            cards: prompt.cards,
            legal: prompt.legal,
            exchange: prompt.exchange,
            game,
        }
    }

    impl Situation {
        /// The history file's name, as the arbiter names it (`<first>_<second>_<round>_<game>`).
        pub fn history_file(&self, bot: &str) -> String {
            let (first, second) = if self.first_player {
                (bot, "Opponent")
            } else {
                ("Opponent", bot)
            };
            format!("{first}_{second}_0_0.txt")
        }

        /// The arguments after argv[0], as the arbiter passes them.
        pub fn args(&self, bot: &str) -> Vec<Vec<u8>> {
            let mut args = vec![
                self.history_file(bot).into_bytes(),
                self.opponent_coins.to_string().into_bytes(),
                self.own_coins.to_string().into_bytes(),
                self.cards.clone().into_bytes(),
            ];
            args.extend(self.legal.iter().map(|a| a.clone().into_bytes()));
            args
        }

        /// The situation in one line, for failure messages.
        pub fn describe(&self) -> String {
            format!(
                "situation `{}` ({}): history {:?}, coins {} vs {}, cards {:?}, legal {:?}",
                self.name,
                self.what,
                self.history,
                self.own_coins,
                self.opponent_coins,
                self.cards,
                self.legal
            )
        }

        /// Runs `bot` in this situation through the sandbox (fresh directory holding only the
        /// history file, default limits, random stream from `seed`) and checks its answer with
        /// [`Situation::check`]. The error names the situation and says what went wrong.
        pub fn run(&self, bot: &Bot, seed: u8) -> Result<Answer, String> {
            let file = self.history_file(bot.name());
            let mut dir = Vfs::new(VfsLimits::default());
            dir.put_host_file(&file, self.history.as_bytes());
            // Through `Player`, so that a typed-world component goes through its adapter.
            let report = koth::games::Player::invoke(
                bot,
                &Invocation {
                    args: self.args(bot.name()),
                    stdin: Vec::new(),
                    seed: [seed; 32],
                    clock_start_ns: 0,
                    limits: Limits::default(),
                },
                Some(&mut dir),
            );
            let fail = |why: String| {
                // The end of stderr, where a bot's last words are.
                let stderr = String::from_utf8_lossy(&report.stderr);
                let skip = stderr.chars().count().saturating_sub(600);
                let tail: String = stderr.chars().skip(skip).collect();
                format!(
                    "{}\n    seed {seed}: {why}\n    stderr: {tail:?}",
                    self.describe()
                )
            };
            if report.outcome != Outcome::Ok {
                return Err(fail(format!("outcome `{}`, expected ok", report.outcome)));
            }
            let after = dir
                .host_file(&file)
                .ok_or_else(|| fail(format!("the history file {file} is gone")))?;
            let appended = after.strip_prefix(self.history.as_bytes()).ok_or_else(|| {
                fail(format!(
                    "the history was rewritten, not appended to: now {:?}",
                    String::from_utf8_lossy(after)
                ))
            })?;
            let answer = Answer {
                appended: String::from_utf8(appended.to_vec())
                    .map_err(|_| fail(format!("appended bytes are not UTF-8: {appended:?}")))?,
                stdout: String::from_utf8_lossy(&report.stdout).into_owned(),
            };
            self.check(&answer).map_err(fail)?;
            Ok(answer)
        }

        /// Is `answer` legal here? The appended text must equal one legal action; when finishing
        /// an Exchange, stdout (surrounding whitespace ignored, as the arbiter strips it) must
        /// name as many of the offered cards as the bot holds, each at most as often as offered;
        /// otherwise stdout must be empty (the seed: "Programs must not … access STDOUT other
        /// than for this purpose"). Finally koth's own rules must accept it too.
        pub fn check(&self, answer: &Answer) -> Result<(), String> {
            if !self.legal.contains(&answer.appended) {
                return Err(format!(
                    "appended {:?}, which is not one of the legal actions",
                    answer.appended
                ));
            }
            if self.exchange {
                let keep = self.cards.chars().count() - 2;
                let kept = answer.stdout.trim();
                let mut offered: Vec<char> = self.cards.chars().collect();
                let valid = kept.chars().count() == keep
                    && kept
                        .chars()
                        .all(|c| match offered.iter().position(|&o| o == c) {
                            Some(i) => {
                                offered.remove(i);
                                true
                            }
                            None => false,
                        });
                if !valid {
                    return Err(format!(
                        "finishing an Exchange with {keep} card(s), printed {:?}: not {keep} of the offered {:?}",
                        answer.stdout, self.cards
                    ));
                }
            } else if !answer.stdout.is_empty() {
                return Err(format!(
                    "printed {:?} on stdout outside an Exchange",
                    answer.stdout
                ));
            }
            let mut game = self.game.clone();
            game.apply(&answer.appended, &answer.stdout)
                .map(|_| ())
                .map_err(|foul| format!("koth's Coup rules reject the answer {answer:?}: {foul}"))
        }
    }
}

/// Players for a tournament: each bot shared (cloning a bot shares its compiled code).
pub fn players<'a, P: koth::games::Player + Clone + 'static>(
    bots: impl IntoIterator<Item = &'a P>,
) -> Vec<Arc<dyn koth::games::Player>> {
    bots.into_iter()
        .map(|b| Arc::new(b.clone()) as Arc<dyn koth::games::Player>)
        .collect()
}

/// The binary module of `tests/hostile/<name>.wat`, a hostile bot written as text.
///
/// # Panics
///
/// If there is no such file, or it does not assemble.
pub fn hostile_module(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("hostile")
        .join(format!("{name}.wat"));
    wat::parse_file(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A valid bot module (1.7 MB) that takes cranelift many seconds and hundreds of MB to
/// compile: one function of 900 nested blocks and 1,000 branch tables, each to all 900 (half
/// as many took 6 s and 400 MB on a 2-core EPYC, twice as many 46 s and 1.5 GB; on one core,
/// so a faster machine is not much faster).
pub fn compile_bomb() -> Vec<u8> {
    let depth = 900;
    let mut text = String::from(
        "(module (memory (export \"memory\") 1) (func (export \"_start\"))\n\
         (func $f (param i32 i32) (result i32) (local i32)\n",
    );
    text.push_str(&"(block ".repeat(depth));
    let targets: Vec<String> = (0..depth).map(|j| j.to_string()).collect();
    let targets = targets.join(" ");
    for i in 0..1000 {
        text.push_str(&format!(
            "(local.set 2 (i32.add (local.get 2) (i32.const {i}))) \
             (if (i32.eq (local.get 0) (i32.const {i})) (then (br_table {targets} (local.get 1))))\n"
        ));
    }
    text.push_str(&")".repeat(depth));
    text.push_str(" (local.get 2)))");
    wat::parse_str(&text).expect("the bomb is valid text")
}

#[cfg(test)]
mod tests {
    use super::coup::situations;
    use koth_guest::coup::{legal_actions, parse_cards};

    /// The table's legal lists come from koth's game, which derives them from its own state
    /// (hands, coins, whose turn, an Exchange's drawn cards); a bot author gets them from the
    /// history text alone with `koth_guest::coup::legal_actions` (the arbiter's rule, one copy
    /// in `koth-rules`). The two must agree on every situation.
    #[test]
    fn situations_match_the_sdk_port_of_the_arbiter() {
        for s in situations() {
            let hand: String = if s.exchange {
                s.cards.chars().skip(2).collect()
            } else {
                s.cards.clone()
            };
            let cards = parse_cards(&hand).expect("valid cards");
            assert_eq!(
                legal_actions(&s.history, &cards, s.own_coins, s.opponent_coins),
                s.legal,
                "{}",
                s.describe()
            );
        }
    }

    #[test]
    fn situation_names_are_unique_and_cover_every_kind_of_decision() {
        let all = situations();
        let mut names: Vec<_> = all.iter().map(|s| s.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len(), "duplicate situation names");
        // Every last character get_legal_actions distinguishes, and the empty file.
        let last = |s: &super::coup::Situation| s.history.chars().last();
        for c in [
            None,
            Some('\n'),
            Some('F'),
            Some('C'),
            Some('$'),
            Some('E'),
            Some('T'),
            Some('A'),
            Some('S'),
        ]
        .into_iter()
        .chain("acdsp=<q".chars().map(Some))
        {
            assert!(all.iter().any(|s| last(s) == c), "no situation after {c:?}");
        }
        assert!(all.iter().any(|s| s.exchange && s.cards.len() == 4));
        assert!(all.iter().any(|s| s.exchange && s.cards.len() == 3));
    }

    #[test]
    fn the_seed_examples_give_the_expected_prompts() {
        let s = super::coup::situation("open-duke");
        assert_eq!(
            (s.history.as_str(), s.own_coins, s.opponent_coins),
            ("", 1, 1)
        );
        assert_eq!(s.legal, ["I\n", "F", "E", "S", "T"]);
        let s = super::coup::situation("challenged-T-bluff");
        assert_eq!(s.legal, ["_\n", "=\n"]);
        let s = super::coup::situation("exchange-4-challenged");
        assert_eq!(s.history, "Eq~<");
        assert!(s.exchange);
        assert_eq!(s.cards, "^$~!");
        let s = super::coup::situation("turn-10-coins");
        assert_eq!(s.legal, ["C"]);
    }

    /// The check is not vacuous: each kind of wrong answer is caught.
    #[test]
    fn check_rejects_wrong_answers() {
        use super::coup::{situation, Answer};
        let answer = |appended: &str, stdout: &str| Answer {
            appended: appended.into(),
            stdout: stdout.into(),
        };
        let s = situation("respond-F");
        assert!(s.check(&answer("p", "")).is_ok());
        assert!(s.check(&answer("d", "")).is_ok());
        for wrong in ["", "q", "pp", "p\n", "XF", "I\n"] {
            assert!(s.check(&answer(wrong, "")).is_err(), "{wrong:?}");
        }
        assert!(s.check(&answer("p", "debug output")).is_err());
        let s = situation("exchange-4"); // offered $*~!, keeps two
        assert_eq!(s.cards, "$*~!");
        for right in ["$*", "*$", "~!", "$*\n", " !~ "] {
            assert!(s.check(&answer("\n", right)).is_ok(), "{right:?}");
        }
        for wrong in ["", "$", "$$", "$*~", "^$", "$ *", "xy"] {
            assert!(s.check(&answer("\n", wrong)).is_err(), "{wrong:?}");
        }
        let s = situation("exchange-3"); // offered !$~, keeps one
        assert!(s.check(&answer("\n", "~")).is_ok());
        assert!(s.check(&answer("\n", "~$")).is_err());
    }

    /// A module that does nothing fails every situation, with the reason in the message.
    #[test]
    fn run_reports_a_bot_that_appends_nothing() {
        use koth::sandbox::{Sandbox, SandboxOptions};
        let sandbox = Sandbox::new(SandboxOptions::default()).unwrap();
        let module =
            wat::parse_str(r#"(module (memory (export "memory") 1) (func (export "_start")))"#)
                .unwrap();
        let bot = sandbox.load_bytes("idle", &module).unwrap();
        for s in situations() {
            let err = s.run(&bot, 0).unwrap_err();
            assert!(
                err.contains("appended \"\", which is not one of the legal actions"),
                "{err}"
            );
            assert!(err.contains(s.name), "{err}");
        }
    }

    #[test]
    fn wasm_finds_bots_of_both_crates_and_c() {
        for name in super::EXAMPLE_BOTS
            .iter()
            .chain(super::TEST_BOTS)
            .chain(super::C_BOTS)
        {
            assert!(super::wasm(name).is_file(), "{name}");
        }
        assert!(super::TEST_BOTS.contains(&"probe_env"));
        assert!(super::C_BOTS.contains(&"coup_c"));
    }

    #[test]
    #[should_panic(expected = "no bot named `no_such_bot` was built")]
    fn wasm_names_a_missing_bot() {
        super::wasm("no_such_bot");
    }
}
