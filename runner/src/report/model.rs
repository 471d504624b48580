//! What the page shows, computed from an archive. Everything here but the replay adapters
//! reads only the game-agnostic part of the archive.

use super::replay::{self, GameKey, Replay, Step};
use super::{ReportError, ReportOptions};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

/// Everything the page embeds.
#[derive(Debug, Serialize)]
pub struct ReportData {
    /// The game, as the manifest names it.
    pub game: String,
    /// The archive folder, as given.
    pub archive: String,
    /// The archive as the replay viewer's `koth replay` commands name it, quoted for a shell.
    pub replay_archive: String,
    /// `manifest.json`, as written.
    pub manifest: serde_json::Value,
    /// The command that plays the tournament again, one line for a shell.
    pub rerun: String,
    /// What the game calls its matches, plural (`games`, `tournaments`, a referee's word).
    pub unit: String,
    /// The leaderboard rows of `results.json` (ratings and intervals included), best first.
    pub leaderboard: Vec<serde_json::Value>,
    /// Why the ratings have no intervals (`results.json`'s `ratings_note`), when they have
    /// none.
    pub ratings_note: Option<String>,
    /// The rating column's heading: `rating` (Elo's scale), or the mean of the game's score
    /// (`mean credits`) where the game ranks by its score.
    pub rating_heading: String,
    /// The rating that marks the middle of the interval bars: Elo's 1500, or none for a score.
    pub rating_centre: Option<f64>,
    /// The pairwise win rates.
    pub heatmap: Heatmap,
    /// Fuel per decision, per bot, in leaderboard order.
    pub fuel: Vec<FuelStats>,
    /// Forfeits and failures.
    pub forfeits: Forfeits,
    /// The embedded replays.
    pub replays: Vec<Replay>,
    /// Games in the archive, and what the page left out of the replays.
    pub games_total: usize,
    /// Decisions in the archive.
    pub decisions_total: u64,
    /// The matches the host could not complete, with why.
    pub void_matches: Vec<(String, String)>,
    /// The referee's own viewer (the archive's `viewer.js`), when it ships one.
    pub viewer: Option<PluginViewer>,
}

/// A referee's viewer, as the page runs it in a sandboxed frame.
#[derive(Debug, Serialize)]
pub struct PluginViewer {
    /// The script.
    pub script: String,
    /// Its Content-Security-Policy source (`'sha256-…'`): the frame allows that script
    /// only, and the contest server adds it to the match page's policy.
    pub hash: String,
}

impl PluginViewer {
    /// The viewer of the archive at `root`, if it has one; a viewer koth would not have
    /// taken from a referee is an error that names the file.
    pub fn read(root: &Path) -> Result<Option<PluginViewer>, ReportError> {
        use crate::referee::pages::{check_viewer, MAX_PAGE_BYTES, VIEWER_FILE};
        let path = root.join(VIEWER_FILE);
        let malformed = |what: String| ReportError::Malformed {
            path: path.clone(),
            line: None,
            what,
        };
        let file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ReportError::Read { path, source }),
        };
        // Read one byte past the cap, so a longer file is named rather than read whole.
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(
            &mut std::io::Read::take(file, MAX_PAGE_BYTES as u64 + 1),
            &mut bytes,
        )
        .map_err(|source| ReportError::Read {
            path: path.clone(),
            source,
        })?;
        let script = String::from_utf8(bytes).map_err(|_| malformed("not UTF-8".into()))?;
        check_viewer(&script).map_err(|e| malformed(e.to_string()))?;
        let hash = super::html::csp_hash(&script);
        Ok(Some(PluginViewer { script, hash }))
    }
}

/// Pairwise win rates: `wins[r][c]` of `played[r][c]` comparisons of row bot against column
/// bot, draws counting half.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct Heatmap {
    /// The bots, in leaderboard order.
    pub bots: Vec<String>,
    /// Wins of the row bot against the column bot.
    pub wins: Vec<Vec<f64>>,
    /// Comparisons between them.
    pub played: Vec<Vec<u64>>,
}

/// One bot's fuel per decision.
#[derive(Debug, Default, Serialize, PartialEq)]
pub struct FuelStats {
    /// The bot.
    pub bot: String,
    /// Decisions.
    pub decisions: u64,
    /// Mean fuel.
    pub mean: f64,
    /// Median.
    pub median: u64,
    /// 90th percentile.
    pub p90: u64,
    /// Maximum.
    pub max: u64,
}

/// One failed decision, with where to see it.
#[derive(Debug, Serialize)]
pub struct ForfeitEntry {
    /// The game.
    pub game: String,
    /// The replay's anchor, when the page embeds it.
    pub replay: Option<String>,
    /// The step within the game.
    pub step: usize,
    /// The bot.
    pub bot: String,
    /// The kind.
    pub kind: String,
    /// What happened.
    pub detail: String,
}

/// Forfeits (Coup) or failed decisions (Bank Heist, Euchre).
#[derive(Debug, Default, Serialize)]
pub struct Forfeits {
    /// Count per kind, per bot (from the leaderboard: complete).
    pub totals: BTreeMap<String, BTreeMap<String, u64>>,
    /// The first ones, one by one.
    pub listed: Vec<ForfeitEntry>,
    /// How many more there are.
    pub unlisted: u64,
}

impl ReportData {
    /// Read the archive at `root`.
    pub fn from_archive(root: &Path, opts: &ReportOptions) -> Result<ReportData, ReportError> {
        let archive = crate::tournament::reader::RunArchive::open(root)?;
        let manifest_path = archive.manifest_path();
        let game = archive.game().to_string();
        let (manifest, results) = archive.into_documents();
        let leaderboard: Vec<serde_json::Value> = results
            .get("bots")
            .and_then(|b| b.as_array())
            .cloned()
            .unwrap_or_default();
        let basis: crate::tournament::ratings::Basis = results
            .get("ranked_by")
            .and_then(|b| serde_json::from_value(b.clone()).ok())
            .unwrap_or_default();
        let rating_heading = basis.heading(results.get("score").and_then(|s| s.as_str()));
        let rating_centre = basis.centre();
        let ratings_note = results
            .get("ratings_note")
            .and_then(|n| n.as_str())
            .map(String::from);
        let names: Vec<String> = leaderboard
            .iter()
            .filter_map(|r| r.get("bot")?.as_str().map(String::from))
            .collect();
        let matches = results
            .get("matches")
            .and_then(|m| m.as_array())
            .cloned()
            .unwrap_or_default();
        let heatmap = heatmap(&names, &matches);
        let void_matches = matches
            .iter()
            .filter_map(|m| {
                let why = m.get("void")?.as_str()?;
                let label = m.get("label")?.as_str()?;
                Some((label.to_string(), why.to_string()))
            })
            .collect();
        let mut forfeits = Forfeits::default();
        for row in &leaderboard {
            let bot = row.get("bot").and_then(|b| b.as_str()).unwrap_or_default();
            if let Some(kinds) = row.get("forfeits").and_then(|f| f.as_object()) {
                for (kind, n) in kinds {
                    let n = n.as_u64().unwrap_or(0);
                    if n > 0 {
                        *forfeits
                            .totals
                            .entry(kind.clone())
                            .or_default()
                            .entry(bot.to_string())
                            .or_default() += n;
                    }
                }
            }
        }
        let mut adapter =
            replay::adapter(&manifest, &results).ok_or_else(|| ReportError::UnknownGame {
                path: manifest_path.clone(),
                game: game.clone(),
            })?;
        let mut data = ReportData {
            game,
            archive: root.display().to_string(),
            replay_archive: super::rerun::shell_word(
                &opts
                    .replay_archive
                    .clone()
                    .unwrap_or_else(|| root.display().to_string()),
            ),
            rerun: super::rerun::shell_line(&super::rerun::rerun_command(&manifest)),
            unit: unit_of(&results, &manifest),
            manifest,
            leaderboard,
            ratings_note,
            rating_heading,
            rating_centre,
            heatmap,
            fuel: Vec::new(),
            forfeits,
            replays: Vec::new(),
            games_total: 0,
            decisions_total: 0,
            void_matches,
            viewer: PluginViewer::read(root)?,
        };
        let fuel = data.read_games(root, adapter.as_mut(), opts)?;
        data.fuel = fuel_stats(&names, fuel);
        let mut logs = super::MatchLogs::new(root);
        for r in &mut data.replays {
            adapter.enrich(&mut logs, r)?;
        }
        Ok(data)
    }

    /// Stream the invocation lines (`invocations.jsonl.zst`) a game at a time: fuel per bot, every failure, and the
    /// replays of the games the options select. Returns every decision's fuel per bot.
    fn read_games(
        &mut self,
        root: &Path,
        adapter: &mut dyn replay::Adapter,
        opts: &ReportOptions,
    ) -> Result<BTreeMap<String, Vec<u64>>, ReportError> {
        let path = crate::tournament::archive::invocations_path(root);
        let file = crate::tournament::archive::read_invocations(&path).map_err(|source| {
            ReportError::Read {
                path: path.clone(),
                source,
            }
        })?;
        let mut fuel: BTreeMap<String, Vec<u64>> = BTreeMap::new();
        let mut current: Option<(GameKey, Vec<Step>)> = None;
        let mut forfeit_games = 0;
        let (mut last_match, mut decision): (Option<usize>, usize) = (None, 0);
        for (n, line) in file.lines().enumerate() {
            let line = line.map_err(|source| ReportError::Read {
                path: path.clone(),
                source,
            })?;
            if line.trim().is_empty() {
                continue;
            }
            let (key, mut step) = adapter
                .parse(&line)
                .map_err(|what| ReportError::Malformed {
                    path: path.clone(),
                    line: Some(n + 1),
                    what,
                })?;
            self.decisions_total += 1;
            // Lines are in match order: a decision's number restarts with each match.
            decision = match last_match {
                Some(m) if m == key.match_index => decision + 1,
                _ => 0,
            };
            last_match = Some(key.match_index);
            step.decision = decision;
            fuel.entry(step.bot.clone()).or_default().push(step.fuel);
            // A game's records are consecutive: a new key ends the previous game.
            match &mut current {
                Some((k, steps)) if *k == key => steps.push(step),
                _ => {
                    if let Some((k, steps)) = current.replace((key, vec![step])) {
                        self.finish_game(adapter, k, steps, opts, &mut forfeit_games);
                    }
                }
            }
        }
        if let Some((k, steps)) = current.take() {
            self.finish_game(adapter, k, steps, opts, &mut forfeit_games);
        }
        Ok(fuel)
    }

    /// A game is read whole: list its failures, and keep its replay if the options select
    /// it (one of the first games, or one with a failure while there is room).
    fn finish_game(
        &mut self,
        adapter: &mut dyn replay::Adapter,
        key: GameKey,
        mut steps: Vec<Step>,
        opts: &ReportOptions,
        forfeit_games: &mut usize,
    ) {
        adapter.finish_game(&key, &mut steps);
        let index = self.games_total;
        self.games_total += 1;
        let failed = steps.iter().any(|s| s.failure.is_some());
        let embed = match opts.only_match {
            Some(m) => key.match_index == m,
            None => index < opts.first_games || (failed && *forfeit_games < opts.forfeit_games),
        };
        if embed && opts.only_match.is_none() && index >= opts.first_games {
            *forfeit_games += 1;
        }
        if embed {
            adapter.boards(&key, &mut steps);
        }
        let id = format!("g{index}");
        for (i, s) in steps.iter().enumerate() {
            let Some(f) = &s.failure else { continue };
            if self.forfeits.listed.len() < opts.listed_forfeits {
                self.forfeits.listed.push(ForfeitEntry {
                    game: key.label.clone(),
                    replay: embed.then(|| id.clone()),
                    step: i,
                    bot: s.bot.clone(),
                    kind: f.kind.clone(),
                    detail: f.detail.clone(),
                });
            } else {
                self.forfeits.unlisted += 1;
            }
        }
        if embed {
            self.replays.push(Replay {
                id,
                label: key.label,
                match_index: key.match_index,
                intro: Vec::new(),
                outro: Vec::new(),
                steps,
            });
        }
    }
}

/// What the game calls its matches: `results.json`'s `unit`, or for an archive written before
/// it had one, a referee's word in the manifest, else the built-in game's.
fn unit_of(results: &serde_json::Value, manifest: &serde_json::Value) -> String {
    fn text(v: Option<&serde_json::Value>) -> Option<&str> {
        v.and_then(serde_json::Value::as_str)
    }
    crate::tournament::results::unit_word(
        text(results.get("unit")).unwrap_or_default(),
        text(manifest.pointer("/options/game/scoring/matches")),
        text(manifest.get("game")).unwrap_or_default(),
    )
}

/// Pairwise win rates over `matches` (`results.json`'s): in each match that is not void,
/// every two distinct bots are compared by score (higher wins, equal is half each). That is
/// a Coup game or a Euchre pairing as it stands, and a Bank Heist tournament broken into
/// pairs, as the ratings do.
pub fn heatmap(names: &[String], matches: &[serde_json::Value]) -> Heatmap {
    let n = names.len();
    let index: BTreeMap<&str, usize> = names
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut map = Heatmap {
        bots: names.to_vec(),
        wins: vec![vec![0.0; n]; n],
        played: vec![vec![0; n]; n],
    };
    for m in matches {
        if m.get("void").is_some_and(|v| !v.is_null()) {
            continue;
        }
        let (Some(parts), Some(scores)) = (
            m.get("participants").and_then(|p| p.as_array()),
            m.get("scores").and_then(|s| s.as_array()),
        ) else {
            continue;
        };
        // A bot on both sides (Euchre's copy partner) is one participant.
        let mut seen: Vec<(usize, u64)> = Vec::new();
        for (p, s) in parts.iter().zip(scores) {
            let (Some(&bot), Some(score)) = (p.as_str().and_then(|p| index.get(p)), s.as_u64())
            else {
                continue;
            };
            if !seen.iter().any(|(b, _)| *b == bot) {
                seen.push((bot, score));
            }
        }
        for &(a, sa) in &seen {
            for &(b, sb) in &seen {
                if a == b {
                    continue;
                }
                map.played[a][b] += 1;
                map.wins[a][b] += match sa.cmp(&sb) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
            }
        }
    }
    map
}

/// Mean, median, 90th percentile and maximum of each bot's fuel per decision, in `names`'
/// order (bots that never decided get zeros).
pub fn fuel_stats(names: &[String], mut fuel: BTreeMap<String, Vec<u64>>) -> Vec<FuelStats> {
    names
        .iter()
        .map(|bot| {
            let mut v = fuel.remove(bot).unwrap_or_default();
            if v.is_empty() {
                return FuelStats {
                    bot: bot.clone(),
                    ..FuelStats::default()
                };
            }
            v.sort_unstable();
            let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
            FuelStats {
                bot: bot.clone(),
                decisions: v.len() as u64,
                mean: v.iter().map(|&f| f as f64).sum::<f64>() / v.len() as f64,
                median: at(0.5),
                p90: at(0.9),
                max: v[v.len() - 1],
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_heatmap_compares_every_pair_by_score_and_skips_void_matches() {
        let names: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        let matches = vec![
            json!({"participants": ["a", "b"], "scores": [1, 0]}),
            json!({"participants": ["b", "a"], "scores": [0, 0]}),
            json!({"participants": ["a", "c"], "scores": [1, 0], "void": "backstop"}),
            // A free-for-all: every pair by score.
            json!({"participants": ["a", "b", "c"], "scores": [5, 9, 9]}),
        ];
        let h = heatmap(&names, &matches);
        assert_eq!(h.played[0][1], 3);
        assert_eq!(h.wins[0][1], 1.5);
        assert_eq!(h.wins[1][0], 1.5);
        assert_eq!((h.wins[1][2], h.played[1][2]), (0.5, 1));
        assert_eq!((h.wins[2][0], h.played[2][0]), (1.0, 1));
    }

    #[test]
    fn an_archives_viewer_is_read_checked_and_hashed() {
        let dir = tempfile::tempdir().unwrap();
        assert!(PluginViewer::read(dir.path()).unwrap().is_none());
        let file = dir.path().join("viewer.js");
        std::fs::write(&file, "draw();").unwrap();
        let v = PluginViewer::read(dir.path()).unwrap().expect("a viewer");
        assert_eq!(v.script, "draw();");
        assert_eq!(v.hash, crate::report::html::csp_hash("draw();"));
        // An archive edited by hand: a viewer koth would not have taken is named.
        for bad in [
            "x = '</script><script>alert(1)'".to_string(),
            "a".repeat(crate::referee::pages::MAX_PAGE_BYTES + 1),
        ] {
            std::fs::write(&file, bad).unwrap();
            let e = PluginViewer::read(dir.path()).unwrap_err().to_string();
            assert!(e.contains("viewer.js") && e.contains("its viewer"), "{e}");
        }
        std::fs::write(&file, [0xff, 0xfe]).unwrap();
        let e = PluginViewer::read(dir.path()).unwrap_err().to_string();
        assert!(e.contains("viewer.js: not UTF-8"), "{e}");
    }

    #[test]
    fn fuel_stats_are_per_bot_in_leaderboard_order() {
        let names: Vec<String> = ["b", "a"].map(String::from).to_vec();
        let mut fuel = BTreeMap::new();
        fuel.insert("a".to_string(), (1..=10).rev().collect::<Vec<u64>>());
        let s = fuel_stats(&names, fuel);
        assert_eq!(s[0].decisions, 0);
        assert_eq!(
            (s[1].decisions, s[1].median, s[1].p90, s[1].max),
            (10, 6, 9, 10)
        );
        assert!((s[1].mean - 5.5).abs() < 1e-9);
    }
}
