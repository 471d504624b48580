//! `koth report`: one self-contained HTML page from a tournament's archive, for any game.
//!
//! - [`model`]: what the page shows, computed from the archive's game-agnostic part
//!   (`manifest.json`, `results.json`) and the structured log (`invocations.jsonl`): the
//!   leaderboard, the pairwise win-rate heatmap, fuel per decision, forfeits by kind.
//! - [`replay`]: the per-game adapters that turn each game's invocation records (and its human
//!   log) into replay steps: what the bot saw, its answer, its fuel, the state after.
//! - [`rerun`]: the command that plays the archive's tournament again, from its manifest;
//! - [`html`]: the page: `template.html` (styles and script inline, no network fetch) with the
//!   data embedded as JSON.
//!
//! The report reads archives; it never changes them and never runs a bot.

pub mod board;
pub mod html;
pub mod model;
pub mod replay;
pub mod rerun;

use std::path::{Path, PathBuf};
use thiserror::Error;

/// The report could not be built.
#[derive(Debug, Error)]
pub enum ReportError {
    /// A file of the archive could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file at fault.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file of the archive is not what koth writes.
    #[error("{path}{}: {what}", .line.map(|l| format!(" line {l}")).unwrap_or_default())]
    Malformed {
        /// The file at fault.
        path: PathBuf,
        /// The line, for JSON-lines files.
        line: Option<usize>,
        /// What is wrong.
        what: String,
    },
    /// The archive's manifest or results are missing or not what koth writes.
    #[error(transparent)]
    Archive(#[from] crate::tournament::reader::ReadError),
    /// The archive is of a game the report does not know.
    #[error("{path}: unknown game `{game}` (the report knows coup, bank-heist and euchre)")]
    UnknownGame {
        /// The manifest.
        path: PathBuf,
        /// The game it names.
        game: String,
    },
}

/// How much of the archive's play the page embeds.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Replays of the first games (a Bank Heist game, a Coup or Euchre game), in order.
    pub first_games: usize,
    /// Replays of further games that hold a forfeit or failure, in order, at most this many.
    pub forfeit_games: usize,
    /// Forfeits listed one by one (their totals by kind are always complete).
    pub listed_forfeits: usize,
    /// Embed the replays of this match only (the contest server's replay page), instead of
    /// the first games and those with a forfeit.
    pub only_match: Option<usize>,
    /// How the replay viewer's `koth replay` commands name the archive [default: as given];
    /// the contest server names a run's folder from the contest's (`runs/N`).
    pub replay_archive: Option<String>,
}

impl Default for ReportOptions {
    fn default() -> Self {
        ReportOptions {
            first_games: 20,
            forfeit_games: 40,
            listed_forfeits: 300,
            only_match: None,
            replay_archive: None,
        }
    }
}

/// Build the HTML report of the archive at `archive`.
pub fn build(archive: &Path, opts: &ReportOptions) -> Result<String, ReportError> {
    build_page(archive, opts).map(|(html, _)| html)
}

/// Build the HTML report of the archive at `archive`, with the Content-Security-Policy
/// source of the referee's viewer when the archive ships one: a page served with a policy
/// must allow it (the viewer's frame inherits the page's policy).
pub fn build_page(
    archive: &Path,
    opts: &ReportOptions,
) -> Result<(String, Option<String>), ReportError> {
    let data = model::ReportData::from_archive(archive, opts)?;
    let hash = data.viewer.as_ref().map(|v| v.hash.clone());
    Ok((html::render(&data)?, hash))
}

/// The per-match files of an archive (its human logs), opened when first read: a page that
/// embeds no replay never opens `matches.zip.zst`.
pub(crate) struct MatchLogs {
    root: PathBuf,
    reader: Option<crate::tournament::container::Reader>,
}

impl MatchLogs {
    /// The per-match files of the archive folder `root`.
    pub(crate) fn new(root: &Path) -> MatchLogs {
        MatchLogs {
            root: root.to_path_buf(),
            reader: None,
        }
    }

    /// The text of `name` (`logs/match-3.log`), or a line for the page saying it is missing.
    /// A container that cannot be read is an error: the archive is damaged.
    pub(crate) fn text(&mut self, name: &str) -> Result<Result<String, String>, ReportError> {
        use crate::tournament::container::{ContainerError, Reader};
        let to_report = |e: ContainerError| match e {
            ContainerError::Io { path, source } => ReportError::Read { path, source },
            ContainerError::Malformed { path, why } => ReportError::Malformed {
                path,
                line: None,
                what: why,
            },
        };
        let reader = match &mut self.reader {
            Some(r) => r,
            None => self
                .reader
                .insert(Reader::open(&self.root).map_err(to_report)?),
        };
        Ok(match reader.read(name).map_err(to_report)? {
            Some(bytes) => Ok(String::from_utf8_lossy(&bytes).into_owned()),
            None => Err(format!("(no human log {name} in {})", reader.source())),
        })
    }
}
