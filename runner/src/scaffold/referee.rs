//! `koth new referee python DIR`: a game as a plugin, its referee a Python script built into a
//! component of `koth:game/referee` with componentize-py, with three bots to play it.
//!
//! The game written is a working one (the iterated Prisoner's Dilemma), so that the first
//! build, check and tournament succeed before the host changes a line.

use super::{write_files, ScaffoldError, WIT};
use std::path::Path;

/// The templates: (path in the new folder, text).
const TEMPLATES: [(&str, &str); 6] = [
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

/// Write the referee scaffold into `dir`, which must not exist (its parent must) or be an
/// empty folder.
pub fn write(dir: &Path) -> Result<RefereeScaffold, ScaffoldError> {
    let game = game_name(dir)?;
    let files = files(&game);
    let written = write_files(dir, &files)?;
    let referee = format!("{game}.wasm");
    Ok(RefereeScaffold {
        build: format!(
            "componentize-py -d wit -w koth:game/referee@0.1.0 componentize app -o {referee}"
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
        for (path, bytes) in files("my-game") {
            let text = String::from_utf8(bytes).unwrap();
            assert!(!text.contains("{{"), "{path} keeps a placeholder");
        }
    }
}
