//! `koth new referee python DIR` and `koth new referee rust DIR`: a game as a plugin, its
//! referee a Python script built into a component of `koth:game/referee` with componentize-py,
//! or a Rust crate built with koth's referee SDK, with three bots to play it.
//!
//! The game written is a working one (the iterated Prisoner's Dilemma), so that the first
//! build, check and tournament succeed before the host changes a line.

use super::{write_files, ScaffoldError, COMPONENT_LOCK, COMPONENT_LOCK_PACKAGE, WIT};
use std::path::Path;

/// The templates: (path in the new folder, text).
const TEMPLATES: [(&str, &str); 7] = [
    (
        "README.md",
        include_str!("../../templates/referee-python/README.md"),
    ),
    (
        "app.py",
        include_str!("../../templates/referee-python/app.py"),
    ),
    (
        "game.py",
        include_str!("../../templates/referee-python/game.py"),
    ),
    (
        "manager.py",
        include_str!("../../templates/referee-python/manager.py"),
    ),
    (
        "bots/tit_for_tat.py",
        include_str!("../../templates/referee-python/bots/tit_for_tat.py"),
    ),
    (
        "bots/grudger.py",
        include_str!("../../templates/referee-python/bots/grudger.py"),
    ),
    (
        "bots/always_defect.py",
        include_str!("../../templates/referee-python/bots/always_defect.py"),
    ),
];

/// The Rust referee's templates: (path in the new folder, text).
const RUST_TEMPLATES: [(&str, &str); 3] = [
    (
        "README.md",
        include_str!("../../templates/referee-rust/README.md"),
    ),
    (
        "Cargo.toml",
        include_str!("../../templates/referee-rust/Cargo.toml"),
    ),
    (
        "src/lib.rs",
        include_str!("../../templates/referee-rust/src/lib.rs"),
    ),
];

/// The language a referee is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefereeLang {
    /// Python, built with componentize-py.
    Python,
    /// Rust, built with the koth-referee SDK for wasm32-wasip2.
    Rust,
}

impl RefereeLang {
    /// The language by its command-line name.
    pub fn from_name(name: &str) -> Option<RefereeLang> {
        match name {
            "python" => Some(RefereeLang::Python),
            "rust" => Some(RefereeLang::Rust),
            _ => None,
        }
    }
}

/// A referee scaffold as written.
#[derive(Debug, Clone)]
pub struct RefereeScaffold {
    /// The game's name (from the folder's name): lowercase words joined by `-`.
    pub game: String,
    /// The files written, relative to the folder, in the order written.
    pub files: Vec<String>,
    /// The one-line build, run in the folder.
    pub build: String,
    /// The referee the build makes, relative to the folder.
    pub referee: String,
}

/// The game's name for a folder: lowercase letters and digits, every other run of characters
/// one `-`, starting with a letter (a referee's name must).
pub fn game_name(dir: &Path) -> Result<String, ScaffoldError> {
    let raw = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name = String::new();
    for c in raw.chars() {
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-').to_string();
    match name.chars().next() {
        None => Err(ScaffoldError::BadName(dir.to_path_buf())),
        Some(c) if c.is_ascii_digit() => Ok(format!("game-{name}")),
        Some(_) => Ok(name),
    }
}

/// The crate name of the Rust referee for the game `name` (`my-game`: `my_game`, which is
/// also the name of the component cargo writes).
pub fn crate_name(name: &str) -> String {
    name.replace('-', "_")
}

/// Every file of the Rust referee's scaffold for the game `name`.
pub fn rust_files(name: &str) -> Result<Vec<(String, Vec<u8>)>, ScaffoldError> {
    let title = name.replace('-', " ");
    let krate = crate_name(name);
    let mut out: Vec<(String, Vec<u8>)> = RUST_TEMPLATES
        .iter()
        .map(|(path, text)| {
            let text = text
                .replace("{{game}}", name)
                .replace("{{title}}", &title)
                .replace("{{crate}}", &krate)
                .replace("{{koth_version}}", env!("CARGO_PKG_VERSION"));
            (path.to_string(), text.into_bytes())
        })
        .collect();
    // The same three bots as the Python referee's: the protocol is the same.
    for (path, text) in TEMPLATES.iter().filter(|(p, _)| p.starts_with("bots/")) {
        out.push((path.to_string(), text.as_bytes().to_vec()));
    }
    let sdk = super::sdk::referee_crates();
    let version = sdk
        .first()
        .and_then(|k| {
            k.manifest
                .lines()
                .find_map(|l| l.strip_prefix("version = \""))
                .and_then(|v| v.strip_suffix('"'))
        })
        .ok_or(ScaffoldError::Template(
            "the embedded referee SDK has no version",
        ))?;
    // Cargo keeps a lock's packages sorted by name: the scaffold's is written as cargo would
    // write it, so the first build leaves it as it is.
    let at = COMPONENT_LOCK
        .find("[[package]]\n")
        .ok_or(ScaffoldError::Template(
            "the component lock file has no packages",
        ))?;
    let (head, body) = COMPONENT_LOCK.split_at(at);
    let mut blocks: Vec<String> = body
        .split("\n\n")
        .map(|b| b.trim_end().to_string())
        .filter(|b| !b.is_empty())
        .collect();
    let before = blocks.len();
    // The example's own package: the scaffold's and the SDK's take its place (the component
    // lock koth's bot scaffolds use; its wit-bindgen pins are the referee's too).
    blocks.retain(|b| !b.lines().any(|l| l == COMPONENT_LOCK_PACKAGE));
    if blocks.len() + 1 != before {
        return Err(ScaffoldError::Template(
            "the component lock file has no root package",
        ));
    }
    blocks.push(format!(
        "[[package]]\nname = \"{krate}\"\nversion = \"0.1.0\"\ndependencies = [\n \"koth-referee\",\n]"
    ));
    blocks.push(format!(
        "[[package]]\nname = \"koth-referee\"\nversion = \"{version}\"\ndependencies = [\n \"wit-bindgen\",\n]"
    ));
    let name_of = |b: &String| b.lines().nth(1).unwrap_or_default().to_string();
    blocks.sort_by_key(name_of);
    out.push((
        "Cargo.lock".into(),
        format!("{head}{}\n", blocks.join("\n\n")).into_bytes(),
    ));
    out.extend(super::sdk::files(sdk));
    // The SDK's glue reads `../wit` from its own folder.
    for (file, text) in WIT {
        out.push((format!("sdk/wit/{file}"), text.as_bytes().to_vec()));
    }
    out.push((".gitignore".into(), b"/target\n".to_vec()));
    Ok(out)
}

/// Every file of the scaffold for the game `name`: (path relative to the folder, content).
pub fn files(name: &str) -> Vec<(String, Vec<u8>)> {
    let title = name.replace('-', " ");
    let mut out: Vec<(String, Vec<u8>)> = TEMPLATES
        .iter()
        .map(|(path, text)| {
            let text = text.replace("{{game}}", name).replace("{{title}}", &title);
            (path.to_string(), text.into_bytes())
        })
        .collect();
    // componentize-py reads a WIT folder whole, and the folder needs a package of its own
    // (`koth:bots`) for the nested `koth:game` package to parse: the whole of koth's `wit/`.
    for (file, text) in WIT {
        out.push((format!("wit/{file}"), text.as_bytes().to_vec()));
    }
    out.push((".gitignore".into(), b"*.wasm\n__pycache__/\n".to_vec()));
    out
}

/// Write the referee scaffold in `lang` into `dir`, which must not exist (its parent must) or
/// be an empty folder.
pub fn write(dir: &Path, lang: RefereeLang) -> Result<RefereeScaffold, ScaffoldError> {
    let game = game_name(dir)?;
    if lang == RefereeLang::Rust {
        let files = rust_files(&game)?;
        let written = write_files(dir, &files)?;
        return Ok(RefereeScaffold {
            build: "cargo build --release --target wasm32-wasip2".into(),
            referee: format!("target/wasm32-wasip2/release/{}.wasm", crate_name(&game)),
            game,
            files: written,
        });
    }
    let files = files(&game);
    let written = write_files(dir, &files)?;
    let referee = format!("{game}.wasm");
    Ok(RefereeScaffold {
        build: format!(
            "componentize-py -d wit -w koth:game/referee-with-pages@0.1.0 componentize app -o {referee}"
        ),
        game,
        files: written,
        referee,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_names_its_game() {
        for (dir, name) in [
            ("pd", "pd"),
            ("My Game!", "my-game"),
            ("x/Prisoners_Dilemma", "prisoners-dilemma"),
            ("3-dice", "game-3-dice"),
        ] {
            assert_eq!(game_name(Path::new(dir)).unwrap(), name, "{dir}");
        }
        assert!(game_name(Path::new("--")).is_err());
    }

    #[test]
    fn every_placeholder_is_filled() {
        for (path, bytes) in files("my-game")
            .into_iter()
            .chain(rust_files("my-game").unwrap())
        {
            let text = String::from_utf8(bytes).unwrap();
            assert!(!text.contains("{{"), "{path} keeps a placeholder");
        }
    }

    #[test]
    fn the_rust_referee_depends_on_the_embedded_sdk_and_locks_it() {
        let files = rust_files("my-game").unwrap();
        let text = |p: &str| {
            String::from_utf8(files.iter().find(|(f, _)| f == p).unwrap().1.clone()).unwrap()
        };
        assert!(text("Cargo.toml").contains("name = \"my_game\""));
        let lock = text("Cargo.lock");
        assert!(lock.contains("name = \"my_game\""), "{lock}");
        assert!(lock.contains("name = \"koth-referee\""), "{lock}");
        assert!(!lock.contains("bank-heist-component"), "{lock}");
        assert!(files
            .iter()
            .any(|(p, _)| p == "sdk/koth-referee/Cargo.toml"));
        assert!(files.iter().any(|(p, _)| p == "sdk/wit/referee.wit"));
        assert!(files.iter().any(|(p, _)| p == "bots/grudger.py"));
    }
}
