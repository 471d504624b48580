//! `koth new GAME LANG DIR`: a starter bot that builds and plays, from the binary alone.
//!
//! Every template is embedded in the binary (`runner/templates/`, the WIT files of `wit/`,
//! and the guest SDK's source, see [`sdk`]), so an installed koth needs no clone. A scaffold
//! is written only into a folder that does not exist or is empty, and nothing outside it.
//! It knows the games only by name and the protocols only as the templates' text: it runs
//! nothing.

pub mod referee;
pub mod sdk;

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// A game a scaffold can be written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// Coup (`koth coup`).
    Coup,
    /// Bank Heist (`koth bank-heist`).
    BankHeist,
    /// Euchre (`koth euchre`).
    Euchre,
}

/// A language a scaffold can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Rust with the guest SDK, a WASI preview-1 module.
    Rust,
    /// C with wasi-libc (clang 14), a WASI preview-1 module.
    C,
    /// A plain Python 3 script, run by koth's CPython for WASI.
    Python,
    /// Rust with wit-bindgen, a WASI preview-2 component of the game's typed world.
    RustComponent,
}

/// Every game, in the order help texts list them.
pub const GAMES: [Game; 3] = [Game::Coup, Game::BankHeist, Game::Euchre];
/// Every language, in the order help texts list them.
pub const LANGS: [Lang; 4] = [Lang::Rust, Lang::C, Lang::Python, Lang::RustComponent];

impl Game {
    /// Its name on the command line (`koth new coup ...`, `koth coup ...`).
    pub fn name(self) -> &'static str {
        match self {
            Game::Coup => "coup",
            Game::BankHeist => "bank-heist",
            Game::Euchre => "euchre",
        }
    }

    /// Its name in prose.
    pub fn title(self) -> &'static str {
        match self {
            Game::Coup => "Coup",
            Game::BankHeist => "Bank Heist",
            Game::Euchre => "Euchre",
        }
    }

    /// The game named `name`.
    pub fn from_name(name: &str) -> Option<Game> {
        GAMES.into_iter().find(|g| g.name() == name)
    }
}

impl Lang {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Lang::Rust => "rust",
            Lang::C => "c",
            Lang::Python => "python",
            Lang::RustComponent => "rust-component",
        }
    }

    /// Its name in prose.
    pub fn title(self) -> &'static str {
        match self {
            Lang::Rust => "Rust, with koth's guest SDK (a WASI preview-1 module)",
            Lang::C => "C, with clang and wasi-libc (a WASI preview-1 module)",
            Lang::Python => "Python 3, a plain script run by koth's CPython for WASI",
            Lang::RustComponent => "Rust, as a WASI preview-2 component of the game's typed world",
        }
    }

    /// The language named `name`.
    pub fn from_name(name: &str) -> Option<Lang> {
        LANGS.into_iter().find(|l| l.name() == name)
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Every (game, language) pair `koth new` writes; each builds and plays (a test proves it).
pub fn offered() -> Vec<(Game, Lang)> {
    GAMES
        .into_iter()
        .flat_map(|g| LANGS.into_iter().map(move |l| (g, l)))
        .collect()
}

/// What `koth new` offers, in one line for error messages.
pub fn offered_text() -> String {
    let games: Vec<&str> = GAMES.iter().map(|g| g.name()).collect();
    let langs: Vec<&str> = LANGS.iter().map(|l| l.name()).collect();
    format!(
        "GAME is one of {}; LANG one of {} (every pair is offered); or `koth new referee python DIR` for a game of your own",
        games.join(", "),
        langs.join(", ")
    )
}

/// Why a scaffold was not written.
#[derive(Debug, thiserror::Error)]
pub enum ScaffoldError {
    /// An unknown game.
    #[error("no game `{0}`: {offered}", offered = offered_text())]
    UnknownGame(String),
    /// An unknown language.
    #[error("no language `{0}`: {offered}", offered = offered_text())]
    UnknownLang(String),
    /// A referee in a language koth has no scaffold for.
    #[error("no referee scaffold in `{0}`: `koth new referee python DIR` and `koth new referee rust DIR` write one (any language that builds a component of wit/referee.wit can be a referee)")]
    RefereeLang(String),
    /// A template koth embeds is not as the scaffold expects (a koth bug, caught by its
    /// tests).
    #[error("koth's templates are broken: {0}")]
    Template(&'static str),
    /// The folder exists and holds something.
    #[error("{0} exists and is not empty: choose a new folder (nothing was written)")]
    NotEmpty(PathBuf),
    /// The path exists and is not a folder.
    #[error("{0} exists and is not a folder (nothing was written)")]
    NotAFolder(PathBuf),
    /// The folder's parent does not exist (koth new writes nothing outside the folder).
    #[error("the folder {0} that would hold the new bot does not exist: create it first (koth new writes nothing outside the new folder)")]
    NoParent(PathBuf),
    /// No bot name can be made from the folder's name.
    #[error("{0}: the folder's name must contain a letter or digit (it names the bot)")]
    BadName(PathBuf),
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or folder at fault.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// A scaffold as written.
#[derive(Debug, Clone)]
pub struct Scaffold {
    /// The game.
    pub game: Game,
    /// The language.
    pub lang: Lang,
    /// The bot's name (from the folder's name): its file stem, so its name in tournaments.
    pub name: String,
    /// The files written, relative to the folder, in the order written.
    pub files: Vec<String>,
    /// The one-line build, run in the folder (`None` for a script, which needs none).
    pub build: Option<String>,
    /// The bot koth runs, relative to the folder once built.
    pub bot: String,
}

/// The bot's name for a folder: lower case, `-` and anything else not a letter, digit or `_`
/// made `_`, and a prefix where it would not be a valid crate or C identifier.
pub fn bot_name(dir: &Path) -> Result<String, ScaffoldError> {
    let raw = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    name = name.trim_matches('_').to_string();
    if name.is_empty() {
        return Err(ScaffoldError::BadName(dir.to_path_buf()));
    }
    // Rust keywords and the standard crates' names are refused by cargo as package names.
    const TAKEN: [&str; 40] = [
        "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
        "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use",
        "where", "while", "async", "await", "dyn", "test", "std", "core",
    ];
    if name.starts_with(|c: char| c.is_ascii_digit()) || TAKEN.contains(&name.as_str()) {
        name = format!("bot_{name}");
    }
    Ok(name)
}

/// Write the scaffold of `game` in `lang` into `dir`, which must not exist (its parent must)
/// or be an empty folder.
pub fn write(game: Game, lang: Lang, dir: &Path) -> Result<Scaffold, ScaffoldError> {
    let name = bot_name(dir)?;
    let files = files(game, lang, &name);
    let written = write_files(dir, &files)?;
    let (build, bot) = build_line(lang, &name);
    Ok(Scaffold {
        game,
        lang,
        name,
        files: written,
        build,
        bot,
    })
}

/// Make `dir` an empty folder (see [`prepare`]) and write `files` into it: (path relative to
/// it, content). Returns the paths written, in order.
fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<String>, ScaffoldError> {
    prepare(dir)?;
    let mut written = Vec::new();
    for (rel, bytes) in files {
        let path = inside(dir, rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| ScaffoldError::Write {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&path, bytes).map_err(|source| ScaffoldError::Write { path, source })?;
        written.push(rel.clone());
    }
    Ok(written)
}

/// Make sure `dir` is an empty folder, creating it (not its parents) if missing.
fn prepare(dir: &Path) -> Result<(), ScaffoldError> {
    match std::fs::symlink_metadata(dir) {
        Ok(meta) if !meta.is_dir() => Err(ScaffoldError::NotAFolder(dir.to_path_buf())),
        Ok(_) => {
            let mut entries = std::fs::read_dir(dir).map_err(|source| ScaffoldError::Write {
                path: dir.to_path_buf(),
                source,
            })?;
            if entries.next().is_some() {
                Err(ScaffoldError::NotEmpty(dir.to_path_buf()))
            } else {
                Ok(())
            }
        }
        Err(_) => {
            let parent = match dir.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !parent.is_dir() {
                return Err(ScaffoldError::NoParent(parent));
            }
            std::fs::create_dir(dir).map_err(|source| ScaffoldError::Write {
                path: dir.to_path_buf(),
                source,
            })
        }
    }
}

/// `dir/rel`, for a `rel` that is a plain relative path (the templates' own names): nothing
/// is ever written outside `dir`.
fn inside(dir: &Path, rel: &str) -> PathBuf {
    let rel = Path::new(rel);
    debug_assert!(rel.components().all(|c| matches!(c, Component::Normal(_))));
    let clean: PathBuf = rel
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect();
    dir.join(clean)
}

/// The one-line build (run in the folder) and the bot file it makes.
fn build_line(lang: Lang, name: &str) -> (Option<String>, String) {
    match lang {
        Lang::Rust => (
            Some("cargo build --release --target wasm32-wasip1".into()),
            format!("target/wasm32-wasip1/release/{name}.wasm"),
        ),
        Lang::C => (
            Some(format!(
                "clang-14 --target=wasm32-wasi --sysroot=/usr -O2 -Wl,--strip-all -o {name}.wasm {name}.c"
            )),
            format!("{name}.wasm"),
        ),
        Lang::Python => (None, format!("{name}.py")),
        Lang::RustComponent => (
            Some("cargo build --release --target wasm32-wasip2".into()),
            format!("target/wasm32-wasip2/release/{name}.wasm"),
        ),
    }
}

/// A template with its placeholders filled.
fn fill(template: &str, name: &str) -> Vec<u8> {
    template
        .replace("{{name}}", name)
        .replace("{{koth_version}}", env!("CARGO_PKG_VERSION"))
        .into_bytes()
}

/// The bot's source template.
fn source(game: Game, lang: Lang) -> &'static str {
    match (lang, game) {
        (Lang::Rust, Game::Coup) => include_str!("../../templates/rust/coup.rs"),
        (Lang::Rust, Game::BankHeist) => include_str!("../../templates/rust/bank_heist.rs"),
        (Lang::Rust, Game::Euchre) => include_str!("../../templates/rust/euchre.rs"),
        (Lang::C, Game::Coup) => include_str!("../../templates/c/coup.c"),
        (Lang::C, Game::BankHeist) => include_str!("../../templates/c/bank_heist.c"),
        (Lang::C, Game::Euchre) => include_str!("../../templates/c/euchre.c"),
        (Lang::Python, Game::Coup) => include_str!("../../templates/python/coup.py"),
        (Lang::Python, Game::BankHeist) => include_str!("../../templates/python/bank_heist.py"),
        (Lang::Python, Game::Euchre) => include_str!("../../templates/python/euchre.py"),
        (Lang::RustComponent, Game::Coup) => include_str!("../../templates/rust-component/coup.rs"),
        (Lang::RustComponent, Game::BankHeist) => {
            include_str!("../../templates/rust-component/bank_heist.rs")
        }
        (Lang::RustComponent, Game::Euchre) => {
            include_str!("../../templates/rust-component/euchre.rs")
        }
    }
}

/// koth's `wit/`, which a component is built against: the `koth:bots` package of the typed
/// worlds, and `referee.wit` with the nested `koth:game` package of referees.
pub const WIT: [(&str, &str); 5] = [
    ("command.wit", include_str!("../../../wit/command.wit")),
    ("coup.wit", include_str!("../../../wit/coup.wit")),
    (
        "bank-heist.wit",
        include_str!("../../../wit/bank-heist.wit"),
    ),
    ("euchre.wit", include_str!("../../../wit/euchre.wit")),
    ("referee.wit", include_str!("../../../wit/referee.wit")),
];

/// The example components' lock file: it pins wit-bindgen and its dependencies, so the
/// component builds offline from cargo's cache once they were fetched, and as the examples do.
pub(super) const COMPONENT_LOCK: &str =
    include_str!("../../../example-bots/components/rust-bank-heist/Cargo.lock");
/// The example's package name in that lock file.
pub(super) const COMPONENT_LOCK_PACKAGE: &str = "name = \"bank-heist-component\"";

/// Every file of a scaffold: (path relative to the folder, content).
pub fn files(game: Game, lang: Lang, name: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = vec![(
        "README.md".to_string(),
        readme(game, lang, name).into_bytes(),
    )];
    match lang {
        Lang::Rust => {
            out.push((
                "Cargo.toml".into(),
                fill(include_str!("../../templates/rust/Cargo.toml"), name),
            ));
            out.push(("src/main.rs".into(), fill(source(game, lang), name)));
            out.push((".gitignore".into(), b"/target\n".to_vec()));
            out.extend(sdk::files(sdk::crates()));
        }
        Lang::C => {
            out.push((format!("{name}.c"), fill(source(game, lang), name)));
            out.push((".gitignore".into(), b"*.wasm\n".to_vec()));
        }
        Lang::Python => out.push((format!("{name}.py"), fill(source(game, lang), name))),
        Lang::RustComponent => {
            out.push((
                "Cargo.toml".into(),
                fill(
                    include_str!("../../templates/rust-component/Cargo.toml"),
                    name,
                ),
            ));
            let lock =
                COMPONENT_LOCK.replace(COMPONENT_LOCK_PACKAGE, &format!("name = \"{name}\""));
            out.push(("Cargo.lock".into(), lock.into_bytes()));
            out.push(("src/lib.rs".into(), fill(source(game, lang), name)));
            out.push((".gitignore".into(), b"/target\n".to_vec()));
            for (file, text) in WIT {
                out.push((format!("wit/{file}"), text.as_bytes().to_vec()));
            }
        }
    }
    out
}

/// What the bot does, the same in every language.
fn strategy(game: Game) -> &'static str {
    match game {
        Game::Coup => {
            "It plays honestly: it claims only cards it holds (Assassinate with an Assassin, Tax \
             with a Duke, Steal with a Captain), blocks only with the real card, challenges only \
             a claim that the cards in sight prove false (or an Assassination that would take its \
             last card anyway), Coups as soon as it has 7 coins, and gives up its least useful \
             card first. It never bluffs: that is the first thing to teach it."
        }
        Game::BankHeist => {
            "In round 1 it bets a tenth of its credits when the bank it would join pays on \
             average (probability × odds > 1 − probability) and stays out otherwise. In round 2 \
             it backs out when more than a tenth of the heisters asked before it backed out, \
             deposits its winnings where it already has savings, and otherwise keeps its bet. It \
             never double crosses, fingers or buys a guard: those are yours to try."
        }
        Game::Euchre => {
            "It orders up or names trump with three trumps or more (bowers counted), remembering \
             the turned suit in its memory so that it never names that suit, never goes alone, \
             discards its weakest card, leads its strongest, lets a partner's winning card stand, \
             and otherwise wins the trick as cheaply as it can or throws its lowest card. It \
             remembers nothing of the cards played: its memory (1 KiB a game) is there for that."
        }
    }
}

/// How to run one decision by hand with `koth invoke`.
fn invoke(game: Game, bot: &str) -> String {
    match game {
        Game::Coup => format!(
            "The opening decision of a game, holding a Duke and a Contessa (`$!`), with 1 coin \
             each; the legal moves follow the cards (`I` + newline is Income):\n\n\
             ```sh\nmkdir -p game && : > game/history.txt\n\
             koth invoke {bot} --dir game -- history.txt 1 1 '$!' 'I\n' F E S T\n\
             cat game/history.txt   # the move it appended: T (Tax, with its real Duke)\n```\n"
        ),
        Game::BankHeist => format!(
            "Round 1 of the first game, 240 credits, with the five banks' probabilities and \
             odds (the game gives no folder: `--no-dir`):\n\n\
             ```sh\nkoth invoke {bot} --no-dir -- 0 1 100 0 0 0 0 0 240 0 240 1 1 240 0 240 \\\n    \
             0 0 0 0 0  0.54 0.488 0.425 0.387 0.324  0.8 1.1 1.3 1.65 1.95\n```\n\n\
             It prints its bet on stdout (0 here: at the Municipal bank, 0.54 × 0.8 < 0.46).\n"
        ),
        Game::Euchre => format!(
            "The first bidding round, holding both red jacks and the ace of hearts, the queen of \
             hearts turned up:\n\n\
             ```sh\nmkdir -p seat && printf 'jh,jd,ah,9c,ts\\n0\\n0\\nordering\\nqh\\n\\n' > input.txt\n\
             koth invoke {bot} --dir seat --stdin input.txt   # prints o: it orders up\n```\n\n\
             `seat/` keeps the bot's memory file between invocations, as a game does.\n"
        ),
    }
}

/// The scaffold's README: what the bot does, its one-line build, and how to check, invoke
/// and play it.
pub fn readme(game: Game, lang: Lang, name: &str) -> String {
    let (build, bot) = build_line(lang, name);
    let title = game.title();
    let cmd = game.name();
    let mut r = format!(
        "# {name}: a {title} bot for koth\n\n\
         Written by `koth new {cmd} {lang} {name}` (koth {version}): {lang_title}.\n\n\
         {strategy}\n\n",
        version = env!("CARGO_PKG_VERSION"),
        lang_title = lang.title(),
        strategy = strategy(game),
    );
    let source = match lang {
        Lang::Rust => "`src/main.rs`",
        Lang::C => &format!("`{name}.c`"),
        Lang::Python => &format!("`{name}.py`"),
        Lang::RustComponent => "`src/lib.rs`",
    };
    r.push_str(&format!(
        "The strategy is in {source}; its comments say where to change it and why each rule is \
         there.\n\n## Build\n\n"
    ));
    match (&build, lang) {
        (Some(line), Lang::Rust) => r.push_str(&format!(
            "```sh\n{line}\n```\n\nIt makes `{bot}`. Needs Rust and its wasm target \
             (`rustup target add wasm32-wasip1`). The guest SDK is in `sdk/koth-guest/`, written \
             by `koth new` from the koth binary (it is not on crates.io), so the build needs no \
             network. `cargo test` runs the bot's unit tests natively.\n\n"
        )),
        (Some(line), Lang::C) => r.push_str(&format!(
            "```sh\n{line}\n```\n\nIt makes `{bot}`. Needs clang 14 with lld and wasi-libc; on \
             Debian or Ubuntu: `apt-get install clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32`. \
             The same file builds natively (`cc {name}.c`), so it can be run and debugged as a \
             plain program.\n\n"
        )),
        (Some(line), _) => r.push_str(&format!(
            "```sh\n{line}\n```\n\nIt makes `{bot}`. Needs Rust and the component target \
             (`rustup target add wasm32-wasip2`); the first build fetches wit-bindgen from \
             crates.io at the versions `Cargo.lock` pins. `wit/` holds koth's WIT package: \
             `wit/{world_file}` is the world's documentation, every type and field the bot gets.\n\n",
            world_file = match game {
                Game::Coup => "coup.wit",
                Game::BankHeist => "bank-heist.wit",
                Game::Euchre => "euchre.wit",
            }
        )),
        (None, _) => r.push_str(
            "Nothing to build: koth runs the script in CPython 3.12 for WASI (standard library \
             only). Install that interpreter once per machine:\n\n```sh\nkoth setup python\n```\n\n",
        ),
    }
    r.push_str(&format!(
        "## Check\n\n```sh\nkoth check --game {cmd} {bot}\n```\n\nLoads the bot as a tournament \
         would and runs it in a short game against copies of itself: says OK with its first \
         decision and how the game read it, or exactly why koth would refuse it (a crash, an \
         illegal answer, a module the sandbox lacks).\n\n## Invoke one decision\n\n"
    ));
    r.push_str(&invoke(game, &bot));
    r.push_str(if lang == Lang::RustComponent {
        "\nkoth reads the protocol for the component, as a game does, and prints the outcome, \
         the fuel used, what went to stdout and the history file, and stderr.\n\n"
    } else {
        "\nIt prints the outcome, the fuel used, stdout and stderr: everything a tournament \
         would see.\n\n"
    });
    r.push_str(&format!(
        "## Play\n\nA tournament needs rivals. Any bot will do; a second scaffold is one command \
         away, in any language:\n\n```sh\nkoth new {cmd} c rival && (cd rival && clang-14 \
         --target=wasm32-wasi --sysroot=/usr -O2 -Wl,--strip-all -o rival.wasm rival.c)\n\
         koth {cmd} {bot} rival/rival.wasm {short} --report\n```\n\n\
         koth prints the leaderboard and writes the archive (every decision, the logs) and \
         `report.html` into `koth-out/`. A forfeit or a failed decision is listed there with \
         its reason and the bot's stderr: that is where to look first when the bot misbehaves.\n",
        short = short_run(game)
    ));
    r
}

/// Options for a short tournament of two bots.
fn short_run(game: Game) -> &'static str {
    match game {
        Game::Coup => "--rounds 5",
        Game::BankHeist => "--games 100",
        Game::Euchre => "--games 10",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_folder_and_are_valid_identifiers() {
        let name = |s: &str| bot_name(Path::new(s)).unwrap();
        assert_eq!(name("bots/My-Coup Bot"), "my_coup_bot");
        assert_eq!(name("7up"), "bot_7up");
        assert_eq!(name("test"), "bot_test");
        assert_eq!(name("--x--"), "x");
        assert!(bot_name(Path::new("---")).is_err());
    }

    #[test]
    fn every_pair_is_offered_and_unknown_names_list_what_is() {
        assert_eq!(offered().len(), 12);
        let err = ScaffoldError::UnknownLang("cobol".into()).to_string();
        assert!(err.contains("rust, c, python, rust-component"), "{err}");
        assert!(err.contains("coup, bank-heist, euchre"), "{err}");
    }

    #[test]
    fn templates_are_filled_and_paths_stay_inside() {
        for (game, lang) in offered() {
            for (path, bytes) in files(game, lang, "zed") {
                let text = String::from_utf8_lossy(&bytes);
                assert!(
                    !text.contains("{{"),
                    "{game} {lang} {path}: an unfilled placeholder"
                );
                assert!(
                    Path::new(&path)
                        .components()
                        .all(|c| matches!(c, Component::Normal(_))),
                    "{path}"
                );
            }
        }
    }

    /// The component's lock file names the scaffold's package, so cargo keeps its pins.
    #[test]
    fn the_component_lock_names_the_package() {
        assert!(COMPONENT_LOCK.contains(COMPONENT_LOCK_PACKAGE));
        let files = files(Game::Euchre, Lang::RustComponent, "zed");
        let lock = &files.iter().find(|(p, _)| p == "Cargo.lock").unwrap().1;
        assert!(String::from_utf8_lossy(lock).contains("name = \"zed\""));
    }

    /// The embedded WIT package is the workspace's `wit/`, file for file.
    #[test]
    fn the_embedded_wit_is_the_workspace_wit() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wit");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".wit"))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = WIT.iter().map(|(n, _)| n.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        for (file, text) in WIT {
            assert_eq!(
                std::fs::read_to_string(dir.join(file)).unwrap(),
                text,
                "{file}"
            );
        }
    }

    #[test]
    fn a_folder_that_is_not_empty_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("bot");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("keep.txt"), b"mine").unwrap();
        let err = write(Game::Coup, Lang::C, &dir).unwrap_err();
        assert!(matches!(err, ScaffoldError::NotEmpty(_)), "{err}");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        // A missing parent is not created: nothing is written outside the folder.
        let err = write(Game::Coup, Lang::C, &tmp.path().join("a/b")).unwrap_err();
        assert!(matches!(err, ScaffoldError::NoParent(_)), "{err}");
        assert!(!tmp.path().join("a").exists());
        // An empty folder is fine.
        let empty = tmp.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let s = write(Game::Euchre, Lang::Python, &empty).unwrap();
        assert_eq!(s.files, ["README.md", "empty.py"]);
    }
}
