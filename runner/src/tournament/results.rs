//! The results every game reports in one schema: the manifest (what was run), per-match
//! summaries, the leaderboard, and `results.json`, which a later tool reads without knowing
//! the game (the game's own detail goes beside it, under `detail`).

use super::archive::{Archive, ArchiveError, MatchFiles};
use super::leaderboard::{Columns, Leaderboard, Row, Spread};
use super::ratings::{independent_matches, MIN_MATCHES};
use serde::{Deserialize, Serialize};

/// The version of the archive's layout, in `results.json`. Bump it when the layout changes.
///
/// - `koth-results/1` (koth 0.5.0 and earlier): `invocations.jsonl` and `matches.zip` as they
///   are;
/// - `koth-results/2` (koth 0.6.0): both compressed as seekable zstd (`invocations.jsonl.zst`,
///   `matches.zip.zst`), the JSON documents written with an array element per line, and
///   `results.json`'s `unit` (what the game calls its matches). Its other fields are the same.
/// - `koth-results/3` (koth 0.7.0): the same files; `bots` is in the order of the ratings,
///   which are fitted on what the game ranks by, named in `results.json`'s `ranked_by`
///   (`wins`: Bradley–Terry on wins, as before; `score`: the mean score per match, where
///   before it was Bradley–Terry on the scores' pairwise order).
/// - `koth-results/4` (after koth 0.7.0): the same files and fields; Coup's archives are its
///   referee's, as Euchre's and every plugin's are (the manifest's options hold the game's
///   shape; a decision's `args` and `answer`; each game's history in its `detail`). An
///   archive of Coup before it is the built-in driver's, which koth still reads and verifies.
pub const RESULTS_SCHEMA: &str = "koth-results/4";

/// Every layout this koth reads ([`RESULTS_SCHEMA`] and the ones before it).
pub const READABLE_SCHEMAS: [&str; 4] = [
    "koth-results/1",
    "koth-results/2",
    "koth-results/3",
    RESULTS_SCHEMA,
];

/// A bot as the manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    /// Its name.
    pub name: String,
    /// Its module's file name.
    pub file: String,
    /// SHA-256 of the module.
    pub sha256: String,
}

/// The manifest: enough to re-run the tournament and check the result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest<O> {
    /// The game.
    pub game: String,
    /// koth's version.
    pub koth_version: String,
    /// The bots, in the order given (which fixes the schedule).
    pub bots: Vec<BotEntry>,
    /// The game's tournament options (seed, limits, ...).
    pub options: O,
    /// Engine settings.
    pub engine: crate::sandbox::EngineSettings,
    /// The referee of a game played by a plugin: its file, SHA-256 and limits. Absent for
    /// a built-in game.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub referee: Option<RefereeEntry>,
}

/// A plugin game's referee, as the manifest records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefereeEntry {
    /// Its file's name.
    pub file: String,
    /// SHA-256 of the file.
    pub sha256: String,
    /// Fuel per match.
    pub fuel: u64,
    /// Memory in all, in bytes.
    pub memory_bytes: u64,
}

/// One match, as every game sums it up. Bots are indices into the run's bot list.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchSummary {
    /// A name for the match (a game's file name, `tournament 3`...).
    pub label: String,
    /// The bots taking part (one per seat or team; a bot may appear once per side).
    pub participants: Vec<usize>,
    /// Each participant's score in this match.
    pub scores: Vec<u64>,
    /// Positions (in `participants`) of the winners; empty for a draw.
    pub winners: Vec<usize>,
    /// `Some(reason)` if the host could not complete the match: it counts for nobody.
    pub void: Option<String>,
    /// Fuel used by each participant.
    pub fuel: Vec<u64>,
    /// Invocations of each participant.
    pub invocations: Vec<u64>,
    /// Forfeits or failures: (participant position, kind, count).
    pub forfeits: Vec<(usize, String, u64)>,
    /// Points for and against each participant in the match, for games that count points
    /// beside wins (Euchre: its team's and the other team's); empty otherwise.
    pub points: Vec<(u64, u64)>,
}

/// The standings over `summaries` for bots named `names`: scores, games, wins, draws,
/// forfeits, fuel and invocations summed; void matches count for nobody but their fuel.
/// With `columns.spread`, each bot's per-match score mean and standard deviation too.
pub fn standings(names: &[String], summaries: &[MatchSummary], columns: Columns) -> Leaderboard {
    let mut rows: Vec<Row> = names
        .iter()
        .map(|n| Row {
            bot: n.clone(),
            ..Row::default()
        })
        .collect();
    let mut per_match: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for m in summaries {
        for (pos, &bot) in m.participants.iter().enumerate() {
            let row = &mut rows[bot];
            row.fuel += m.fuel.get(pos).copied().unwrap_or(0);
            row.invocations += m.invocations.get(pos).copied().unwrap_or(0);
        }
        if m.void.is_some() {
            continue;
        }
        // A bot playing both sides of a match (Euchre's copy partner) counts it once.
        let mut seen = vec![false; names.len()];
        for (pos, &bot) in m.participants.iter().enumerate() {
            let score = m.scores.get(pos).copied().unwrap_or(0);
            if !std::mem::replace(&mut seen[bot], true) {
                rows[bot].score += score;
                rows[bot].games += 1;
                per_match[bot].push(score as f64);
                if m.winners.is_empty() {
                    rows[bot].draws += 1;
                }
            }
        }
        let mut won = vec![false; names.len()];
        for &w in &m.winners {
            if let Some(&bot) = m.participants.get(w) {
                if !std::mem::replace(&mut won[bot], true) {
                    rows[bot].wins += 1;
                }
            }
        }
        if !m.points.is_empty() {
            let mut counted = vec![false; names.len()];
            for (pos, &bot) in m.participants.iter().enumerate() {
                let (pf, pa) = m.points.get(pos).copied().unwrap_or((0, 0));
                if !std::mem::replace(&mut counted[bot], true) {
                    rows[bot].points_for += pf;
                    rows[bot].points_against += pa;
                }
            }
        }
        for (pos, kind, count) in &m.forfeits {
            if let Some(&bot) = m.participants.get(*pos) {
                *rows[bot].forfeits.entry(kind.clone()).or_default() += count;
            }
        }
    }
    if columns.spread {
        for (row, scores) in rows.iter_mut().zip(&per_match) {
            row.spread = Spread::of(scores);
        }
    }
    Leaderboard::new(rows, columns)
}

/// What a run calls its matches, plural: `results.json`'s `unit`, or for an archive written
/// before it had one (koth 0.5.0), the referee's word where the game is a referee's, else
/// the built-in `game`'s.
pub fn unit_word(unit: &str, referee_word: Option<&str>, game: &str) -> String {
    let given = |w: &str| (!w.is_empty()).then(|| w.to_string());
    given(unit)
        .or_else(|| referee_word.and_then(given))
        .unwrap_or_else(|| {
            match game {
                "bank-heist" => "tournaments",
                _ => "games",
            }
            .to_string()
        })
}

/// How a game names its matches and how a user asks for more of them, for the line that says
/// why a run's ratings have no intervals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchUnit {
    /// One match (`tournament`, `game`).
    pub one: String,
    /// Several (`tournaments`, `games`).
    pub many: String,
    /// How to play at least [`MIN_MATCHES`] of them (`run with --tournaments 5 or more`).
    pub advice: String,
}

/// Rank the leaderboard by each bot's rating and add the rating, its 95% interval and the
/// probability it is truly above the next row (see [`super::ratings`]); the bootstrap draws
/// from `seed`. The rating is fitted on what the game ranks by (its columns'
/// [`Basis`](super::ratings::Basis)), so the order, the ratings and P>next agree. Below
/// [`MIN_MATCHES`] independent matches the ratings have no interval and the leaderboard's
/// note says why, in `unit`'s words.
pub fn rate(
    leaderboard: &mut Leaderboard,
    names: &[String],
    summaries: &[MatchSummary],
    seed: u64,
    unit: &MatchUnit,
) {
    let index = |bot: &str| names.iter().position(|n| n == bot);
    let rater = super::ratings::Rater::new(names.len(), summaries, leaderboard.columns.basis());
    let point = rater.point();
    // Best rating first; bots whose ratings agree to a millionth (Elo points or score: two
    // bots with the same record) keep the score's order, then the name's. Each row's key is
    // computed once.
    leaderboard.rows.sort_by_cached_key(|r| {
        let key = index(&r.bot)
            .and_then(|i| point.get(i))
            .map_or(i128::MIN, |&x| (x * 1e6).round() as i128);
        (
            std::cmp::Reverse(key),
            std::cmp::Reverse(r.score),
            r.bot.clone(),
        )
    });
    let order: Vec<usize> = leaderboard
        .rows
        .iter()
        .filter_map(|r| index(&r.bot))
        .collect();
    let ratings = rater.ratings(&order, seed);
    for row in &mut leaderboard.rows {
        row.rating = index(&row.bot).and_then(|i| ratings.get(i).copied());
    }
    leaderboard.note = withheld(names.len(), summaries, unit);
}

/// Why a run's ratings have no intervals (`None` when they have them).
fn withheld(bots: usize, summaries: &[MatchSummary], unit: &MatchUnit) -> Option<String> {
    let independent = independent_matches(summaries);
    if independent >= MIN_MATCHES {
        return None;
    }
    const NONE: &str = "No 95% intervals or P>next";
    if bots < 2 {
        return Some(format!(
            "{NONE}: a lone bot has nobody to be compared with."
        ));
    }
    // Enough were planned: the void ones (which count for nobody) are missing.
    let advice = if summaries.len() >= MIN_MATCHES {
        format!("the void {} count for nobody: re-play them", unit.many)
    } else {
        unit.advice.clone()
    };
    let units = if independent == 1 {
        &unit.one
    } else {
        &unit.many
    };
    Some(format!(
        "{NONE}: a bootstrap over {independent} independent {units} cannot show how uncertain \
         the ratings are; it needs at least {MIN_MATCHES} {}: {advice}.",
        unit.many
    ))
}

/// The head-to-head table of a run whose matches all have two participants (Coup's games,
/// Euchre's pairings): row bot's wins against column bot, over the non-void matches between
/// them. `None` when some match has another number of participants.
pub fn head_to_head(names: &[String], summaries: &[MatchSummary]) -> Option<String> {
    use std::fmt::Write;
    let n = names.len();
    let mut wins = vec![vec![0u64; n]; n];
    let mut played = vec![vec![0u64; n]; n];
    for m in summaries {
        let [a, b] = m.participants[..] else {
            return None;
        };
        if m.void.is_some() || a == b {
            continue;
        }
        played[a][b] += 1;
        played[b][a] += 1;
        for &w in &m.winners {
            let (winner, loser) = if w == 0 { (a, b) } else { (b, a) };
            wins[winner][loser] += 1;
        }
    }
    let width = names.iter().map(String::len).max().unwrap_or(3).max(3);
    let cell = names
        .iter()
        .map(|s| s.len())
        .max()
        .unwrap_or(3)
        .clamp(9, 14);
    let mut out = format!("{:<width$}", "wins vs");
    for name in names {
        let short: String = name.chars().take(cell).collect();
        let _ = write!(out, "  {short:>cell$}");
    }
    out.push('\n');
    for (r, name) in names.iter().enumerate() {
        let _ = write!(out, "{name:<width$}");
        for c in 0..n {
            let text = if r == c || played[r][c] == 0 {
                "-".to_string()
            } else {
                format!("{}/{}", wins[r][c], played[r][c])
            };
            let _ = write!(out, "  {text:>cell$}");
        }
        out.push('\n');
    }
    Some(out)
}

/// One match in `results.json`, with bots by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchEntry {
    /// Index in the run.
    pub index: usize,
    /// The match's name.
    pub label: String,
    /// Participants' names.
    pub participants: Vec<String>,
    /// Their scores.
    pub scores: Vec<u64>,
    /// The winners' names (empty: a draw).
    pub winners: Vec<String>,
    /// Why the match is void, if it is.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub void: Option<String>,
    /// SHA-256 of the match's full record (see [`super::receipt`]): a re-played match must
    /// give the same digest.
    pub record_sha256: String,
}

/// `results.json`: the game-agnostic part, then the game's own `detail`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Results<D> {
    /// [`RESULTS_SCHEMA`].
    pub schema: String,
    /// The game.
    pub game: String,
    /// The leaderboard rows, best first.
    pub bots: Vec<Row>,
    /// What the game calls its matches, plural (`games`, `tournaments`, a referee's word):
    /// the word the report and the server use. (Archives of `koth-results/1` lack it.)
    #[serde(default)]
    pub unit: String,
    /// What the leaderboard is ranked by and its ratings fitted on (see
    /// [`super::ratings::Basis`]). (Archives before `koth-results/3` lack it; their ratings
    /// are Bradley–Terry fits, as `wins` reads.)
    #[serde(default)]
    pub ranked_by: super::ratings::Basis,
    /// The score's name (`credits`, `points`); absent where the score is the matches won.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub score: Option<String>,
    /// Why the ratings have no intervals (their `low`, `high` and `above_next` are null), when
    /// the run has fewer than [`MIN_MATCHES`] independent matches; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub ratings_note: Option<String>,
    /// The matches the host could not complete (each can be re-played from the manifest).
    pub void_matches: Vec<usize>,
    /// Every match.
    pub matches: Vec<MatchEntry>,
    /// The replay receipt over the manifest, `bots` and `matches` (see [`super::receipt`]);
    /// set when the archive is written.
    pub receipt: String,
    /// What only this game reports.
    pub detail: D,
}

impl<D> Results<D> {
    /// Build the results from the summaries and each match's record digest.
    pub fn new(
        game: &str,
        names: &[String],
        leaderboard: &Leaderboard,
        summaries: &[MatchSummary],
        digests: &[String],
        unit: &str,
        detail: D,
    ) -> Results<D> {
        let name = |b: usize| names.get(b).cloned().unwrap_or_default();
        Results {
            schema: RESULTS_SCHEMA.to_string(),
            game: game.to_string(),
            unit: unit.to_string(),
            ranked_by: leaderboard.columns.basis(),
            score: leaderboard.columns.score.clone(),
            bots: leaderboard.rows.clone(),
            ratings_note: leaderboard.note.clone(),
            void_matches: summaries
                .iter()
                .enumerate()
                .filter(|(_, m)| m.void.is_some())
                .map(|(i, _)| i)
                .collect(),
            matches: summaries
                .iter()
                .enumerate()
                .map(|(i, m)| MatchEntry {
                    index: i,
                    label: m.label.clone(),
                    participants: m.participants.iter().map(|&b| name(b)).collect(),
                    scores: m.scores.clone(),
                    winners: m
                        .winners
                        .iter()
                        .filter_map(|&w| m.participants.get(w))
                        .map(|&b| name(b))
                        .collect(),
                    void: m.void.clone(),
                    record_sha256: digests.get(i).cloned().unwrap_or_default(),
                })
                .collect(),
            receipt: String::new(),
            detail,
        }
    }
}

impl<D> Results<D> {
    /// The standings alone: these results without their match lists and the game's detail,
    /// the receipt kept (what a contest keeps of a run a newer one superseded). Their size
    /// grows with the bots, not with the matches.
    pub fn standings(self) -> Results<()> {
        Results {
            schema: self.schema,
            game: self.game,
            bots: self.bots,
            unit: self.unit,
            ranked_by: self.ranked_by,
            score: self.score,
            ratings_note: self.ratings_note,
            void_matches: Vec::new(),
            matches: Vec::new(),
            receipt: self.receipt,
            detail: (),
        }
    }
}

/// Write what every archive holds: `manifest.json`, `leaderboard.txt` and `results.json`
/// (with its receipt).
pub fn write_common<O: Serialize, D: Serialize>(
    archive: &Archive,
    manifest: &Manifest<O>,
    leaderboard: &Leaderboard,
    mut results: Results<D>,
) -> Result<(), ArchiveError> {
    results.receipt = receipt_of(manifest, &results)?;
    archive.write_json("manifest.json", manifest)?;
    archive.write("leaderboard.txt", leaderboard.render().as_bytes())?;
    archive.write_json("results.json", &results)
}

/// Write a finished run's archive: the one path from matches to archive that every game
/// takes. [`write_common`]'s files, `head-to-head.txt` where the game gives one, and the
/// decisions ([`Archive::write_invocations`]: what `lines` writes of each of `chunks`, in
/// order) on one
/// side; on the other, at the same time (each on every core), the per-match container
/// ([`Archive::write_matches`]) of what `files` lists.
#[allow(clippy::too_many_arguments)]
pub fn write_run<'c, 'f, O, D, C, F, M>(
    archive: &Archive,
    manifest: &Manifest<O>,
    leaderboard: &Leaderboard,
    results: Results<D>,
    head_to_head: Option<String>,
    chunks: &'c [C],
    lines: F,
    files: M,
) -> Result<(), ArchiveError>
where
    O: Serialize + Sync,
    D: Serialize + Send,
    C: Sync,
    F: Fn(&'c C, &mut Vec<u8>) -> serde_json::Result<()> + Sync + Send,
    M: FnOnce() -> Result<MatchFiles<'f>, ArchiveError> + Send,
{
    let (summed_up, per_match) = rayon::join(
        || -> Result<(), ArchiveError> {
            write_common(archive, manifest, leaderboard, results)?;
            if let Some(table) = head_to_head {
                archive.write("head-to-head.txt", table.as_bytes())?;
            }
            archive.write_invocations(chunks, lines)
        },
        || archive.write_matches(&files()?),
    );
    summed_up?;
    per_match
}

/// The receipt of `results` under `manifest`.
fn receipt_of<O: Serialize, D>(
    manifest: &Manifest<O>,
    results: &Results<D>,
) -> Result<String, ArchiveError> {
    let value = |v: serde_json::Result<serde_json::Value>| {
        v.map_err(|e| ArchiveError::Io {
            path: "results.json".into(),
            source: e.into(),
        })
    };
    let matches = results
        .matches
        .iter()
        .map(|m| value(serde_json::to_value(m)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(super::receipt::receipt(
        &value(serde_json::to_value(manifest))?,
        &value(serde_json::to_value(&results.bots))?,
        &matches,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["a", "b", "c"].map(String::from).to_vec()
    }

    fn duel(a: usize, b: usize, winner: Option<usize>) -> MatchSummary {
        MatchSummary {
            label: format!("{a}-{b}"),
            participants: vec![a, b],
            scores: match winner {
                Some(0) => vec![1, 0],
                Some(_) => vec![0, 1],
                None => vec![0, 0],
            },
            winners: winner.into_iter().collect(),
            void: None,
            fuel: vec![10, 20],
            invocations: vec![1, 2],
            forfeits: Vec::new(),
            points: Vec::new(),
        }
    }

    #[test]
    fn standings_sum_scores_wins_draws_and_skip_void_matches() {
        let mut void = duel(0, 2, Some(0));
        void.void = Some("backstop".into());
        let mut forfeit = duel(1, 2, Some(0));
        forfeit.forfeits = vec![(1, "trap".into(), 1)];
        let summaries = vec![duel(0, 1, Some(0)), duel(0, 2, None), forfeit, void];
        let lb = standings(&names(), &summaries, Columns::wins());
        let row = |n: &str| lb.rows.iter().find(|r| r.bot == n).unwrap();
        assert_eq!(lb.rows[0].bot, "a");
        assert_eq!(
            (
                row("a").score,
                row("a").games,
                row("a").wins,
                row("a").draws
            ),
            (1, 2, 1, 1)
        );
        assert_eq!((row("b").score, row("b").games, row("b").wins), (1, 2, 1));
        assert_eq!((row("c").games, row("c").draws), (2, 1));
        assert_eq!(row("c").forfeits.get("trap"), Some(&1));
        // Void matches still cost fuel.
        assert_eq!(row("a").fuel, 30);
        assert_eq!(row("c").fuel, 60);
        let r = Results::new("duel", &names(), &lb, &summaries, &[], "games", ());
        assert_eq!(r.void_matches, vec![3]);
        assert_eq!(r.matches[0].winners, vec!["a".to_string()]);
        assert_eq!(r.matches[1].winners, Vec::<String>::new());
    }

    /// An iterated Prisoner's Dilemma in miniature: `a` defects and wins every duel on points
    /// (5 to 0), but `b` and `c` cooperate with each other (30 each), so `a` makes the fewest
    /// points of all.
    fn dilemma() -> Vec<MatchSummary> {
        let duel = |x: usize, y: usize, sx: u64, sy: u64| MatchSummary {
            label: format!("{x}-{y}"),
            participants: vec![x, y],
            scores: vec![sx, sy],
            winners: match sx.cmp(&sy) {
                std::cmp::Ordering::Greater => vec![0],
                std::cmp::Ordering::Less => vec![1],
                std::cmp::Ordering::Equal => Vec::new(),
            },
            ..MatchSummary::default()
        };
        (0..4)
            .flat_map(|_| [duel(0, 1, 5, 0), duel(2, 0, 0, 5), duel(1, 2, 30, 30)])
            .collect()
    }

    fn unit() -> MatchUnit {
        MatchUnit {
            one: "match".into(),
            many: "matches".into(),
            advice: "play more".into(),
        }
    }

    fn ranked(summaries: &[MatchSummary], columns: Columns) -> Leaderboard {
        let mut lb = standings(&names(), summaries, columns);
        rate(&mut lb, &names(), summaries, 7, &unit());
        lb
    }

    /// Each row's rating is at least the next row's, and P>next is the share of resamples
    /// that keep the order shown.
    fn in_rating_order(lb: &Leaderboard) {
        for w in lb.rows.windows(2) {
            let (a, b) = (w[0].rating.unwrap(), w[1].rating.unwrap());
            assert!(a.rating >= b.rating, "{}", lb.render());
        }
    }

    #[test]
    fn a_game_ranked_by_points_is_rated_on_its_points() {
        let summaries = dilemma();
        let points = Columns {
            score: Some("points".into()),
            matches: "matches".into(),
            spread: true,
            points: false,
        };
        let lb = ranked(&summaries, points);
        let order: Vec<&str> = lb.rows.iter().map(|r| r.bot.as_str()).collect();
        // b and c tie on points (0 against a, 30 against each other: 15 a match); a's 5 a
        // match is last, though it won every match it played.
        assert_eq!(order, ["b", "c", "a"], "{}", lb.render());
        in_rating_order(&lb);
        let rating = |n: &str| lb.rows.iter().find(|r| r.bot == n).unwrap().rating.unwrap();
        assert_eq!(rating("a").rating, 5.0);
        assert_eq!(rating("b").rating, 15.0);
        // b over c is a coin toss (the resamples weigh their matches differently); c's lead
        // over a holds in nearly every resample.
        let coin = rating("b").above_next.unwrap();
        assert!((0.2..0.8).contains(&coin), "{}", lb.render());
        assert!(rating("c").above_next.unwrap() > 0.95, "{}", lb.render());
        assert!(
            lb.render().contains("mean points [95% CI]"),
            "{}",
            lb.render()
        );
        let r = Results::new("dilemma", &names(), &lb, &summaries, &[], "matches", ());
        assert_eq!(r.ranked_by, super::super::ratings::Basis::Score);
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["ranked_by"], "score");
        assert_eq!(json["score"], "points");

        // The same matches in a game that ranks by wins: a first, on the Bradley–Terry fit.
        let lb = ranked(&summaries, Columns::wins());
        assert_eq!(lb.rows[0].bot, "a", "{}", lb.render());
        in_rating_order(&lb);
        assert!(lb.render().contains("rating [95% CI]"), "{}", lb.render());
    }

    #[test]
    fn an_uneven_schedule_ranks_by_the_rating_not_the_win_count() {
        // a beats the weak c three times; b beats a twice and loses to nobody. a has more
        // wins, b the better record against the same field.
        let summaries = vec![
            duel(0, 2, Some(0)),
            duel(0, 2, Some(0)),
            duel(0, 2, Some(0)),
            duel(1, 0, Some(0)),
            duel(1, 0, Some(0)),
        ];
        let lb = ranked(&summaries, Columns::wins());
        let row = |n: &str| lb.rows.iter().find(|r| r.bot == n).unwrap();
        assert!(row("a").wins > row("b").wins);
        assert_eq!(lb.rows[0].bot, "b", "{}", lb.render());
        in_rating_order(&lb);
    }

    #[test]
    fn every_leaderboard_is_in_rating_order() {
        // Seeded random schedules of both kinds: the rows always follow the ratings.
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        for _ in 0..40 {
            let summaries: Vec<MatchSummary> = (0..2 + next(12))
                .map(|_| {
                    let a = next(3) as usize;
                    let b = (a + 1 + next(2) as usize) % 3;
                    let (sa, sb) = (next(6), next(6));
                    MatchSummary {
                        participants: vec![a, b],
                        scores: vec![sa, sb],
                        winners: if sa > sb {
                            vec![0]
                        } else if sb > sa {
                            vec![1]
                        } else {
                            vec![]
                        },
                        void: (next(10) == 0).then(|| "void".to_string()),
                        ..MatchSummary::default()
                    }
                })
                .collect();
            for columns in [Columns::wins(), Columns::credits()] {
                in_rating_order(&ranked(&summaries, columns));
            }
        }
    }

    #[test]
    fn a_bot_on_both_sides_plays_the_match_once() {
        let m = MatchSummary {
            participants: vec![0, 0, 1, 1],
            scores: vec![10, 10, 4, 4],
            winners: vec![0, 1],
            ..MatchSummary::default()
        };
        let lb = standings(&names(), &[m], Columns::points());
        let a = lb.rows.iter().find(|r| r.bot == "a").unwrap();
        assert_eq!((a.games, a.wins, a.score), (1, 1, 10));
    }

    #[test]
    fn the_head_to_head_table_counts_wins_per_pair() {
        let summaries = vec![duel(0, 1, Some(0)), duel(1, 0, Some(0)), duel(0, 2, None)];
        let t = head_to_head(&names(), &summaries).unwrap();
        let lines: Vec<&str> = t.lines().collect();
        assert!(lines[1].starts_with("a") && lines[1].contains("1/2") && lines[1].contains("0/1"));
        assert!(lines[2].starts_with("b") && lines[2].contains("1/2"));
        let free_for_all = MatchSummary {
            participants: vec![0, 1, 2],
            ..MatchSummary::default()
        };
        assert_eq!(head_to_head(&names(), &[free_for_all]), None);
    }

    #[test]
    fn points_for_and_against_add_up() {
        let m = |a: usize, b: usize, pa: u64, pb: u64| MatchSummary {
            participants: vec![a, b],
            scores: vec![u64::from(pa > pb), u64::from(pb > pa)],
            winners: vec![if pa > pb { 0 } else { 1 }],
            points: vec![(pa, pb), (pb, pa)],
            ..MatchSummary::default()
        };
        let lb = standings(
            &names(),
            &[m(0, 1, 10, 4), m(1, 2, 10, 9), m(0, 2, 3, 10)],
            Columns::points(),
        );
        let row = |n: &str| lb.rows.iter().find(|r| r.bot == n).unwrap().clone();
        assert_eq!((row("a").points_for, row("a").points_against), (13, 14));
        assert_eq!((row("b").points_for, row("b").points_against), (14, 19));
        assert_eq!((row("c").points_for, row("c").points_against), (19, 13));
        assert_eq!((row("a").wins, row("b").wins, row("c").wins), (1, 1, 1));
    }

    #[test]
    fn the_spread_is_the_per_match_mean_and_deviation() {
        let m = |s: u64| MatchSummary {
            participants: vec![0],
            scores: vec![s],
            winners: vec![0],
            ..MatchSummary::default()
        };
        let lb = standings(&names()[..1], &[m(100), m(200), m(300)], Columns::credits());
        let s = lb.rows[0].spread.unwrap();
        assert!((s.mean - 200.0).abs() < 1e-9);
        assert!((s.sd - 100.0).abs() < 1e-9);
    }

    #[test]
    fn below_the_minimum_the_ratings_say_why_and_how_to_get_intervals() {
        let unit = MatchUnit {
            one: "tournament".into(),
            many: "tournaments".into(),
            advice: "run with --tournaments 5 or more".into(),
        };
        let heist = |void: bool| MatchSummary {
            participants: vec![0, 1, 2],
            scores: vec![30, 20, 10],
            winners: vec![0],
            void: void.then(|| "host fault".into()),
            ..MatchSummary::default()
        };
        let rated = |summaries: &[MatchSummary], names: &[String]| {
            let mut lb = standings(names, summaries, Columns::credits());
            rate(&mut lb, names, summaries, 1, &unit);
            lb
        };
        // One tournament: ratings, no interval, and the note, in results.json too.
        let one = rated(&[heist(false)], &names());
        assert_eq!(
            one.note.as_deref(),
            Some(
                "No 95% intervals or P>next: a bootstrap over 1 independent tournament cannot \
                 show how uncertain the ratings are; it needs at least 5 tournaments: run with \
                 --tournaments 5 or more."
            )
        );
        assert!(one.rows.iter().all(|r| r
            .rating
            .is_some_and(|x| x.low.is_none() && x.high.is_none() && x.above_next.is_none())));
        let json =
            serde_json::to_value(Results::new("g", &names(), &one, &[], &[], "games", ())).unwrap();
        assert_eq!(json["ratings_note"], one.note.clone().unwrap().as_str());
        let r = &json["bots"][0]["rating"];
        assert!(r["rating"].is_f64() && r["low"].is_null() && r["high"].is_null());
        // Five: intervals, and neither note nor key.
        let five = rated(&vec![heist(false); 5], &names());
        assert_eq!(five.note, None);
        assert!(five
            .rows
            .iter()
            .all(|r| r.rating.is_some_and(|x| x.low.is_some())));
        let json = serde_json::to_value(Results::new("g", &names(), &five, &[], &[], "games", ()))
            .unwrap();
        assert!(json.get("ratings_note").is_none());
        // Enough planned but some void: re-play them.
        let mut voided = vec![heist(false); 4];
        voided.push(heist(true));
        let note = rated(&voided, &names()).note.unwrap();
        assert!(
            note.contains("over 4 independent tournaments")
                && note.ends_with("the void tournaments count for nobody: re-play them."),
            "{note}"
        );
        // A lone bot is compared with nobody, however many tournaments.
        let lone = MatchSummary {
            participants: vec![0],
            scores: vec![5],
            winners: vec![0],
            ..MatchSummary::default()
        };
        let note = rated(&vec![lone; 6], &names()[..1]).note.unwrap();
        assert!(
            note.ends_with("a lone bot has nobody to be compared with."),
            "{note}"
        );
    }
}
