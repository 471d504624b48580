//! The JSON API: the same data the pages show. The data functions here are shared with the
//! pages.

use super::state::AppState;
use crate::contest::config::check_name;
use crate::contest::db::{self, MatchRow, Run, Version};
use crate::contest::ContestError;
use crate::tournament::leaderboard::Row;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// An API error: a status and a reason, as `{"error": ...}`.
pub struct ApiError(pub StatusCode, pub String);

/// What a client is told of an error of the server's own: it goes to the server's log with
/// its paths; the answer names none of the server's files.
pub fn internal(e: &dyn std::fmt::Display) -> String {
    eprintln!("koth serve: {e}");
    "the server could not read or write its data (the details are in its log)".into()
}

impl From<ContestError> for ApiError {
    fn from(e: ContestError) -> Self {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, internal(&e))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({ "error": self.1 }))).into_response()
    }
}

/// The run in progress.
#[derive(Serialize)]
pub struct Progress {
    /// The run.
    pub run: i64,
    /// Matches done.
    pub done: usize,
    /// Matches in all.
    pub total: usize,
}

/// One leaderboard line: the run's row, with the bot's author and version.
#[derive(Serialize)]
pub struct BoardRow {
    /// Place, from 1.
    pub rank: usize,
    /// The bot's author.
    pub author: String,
    /// The version that played.
    pub version: i64,
    /// The row of `results.json`.
    #[serde(flatten)]
    pub row: Row,
}

/// The leaderboard.
#[derive(Serialize)]
pub struct Leaderboard {
    /// The run it is from (none yet: `null`).
    pub run: Option<Run>,
    /// The run in progress.
    pub progress: Option<Progress>,
    /// Why the ratings have no intervals, if they have none.
    pub ratings_note: Option<String>,
    /// What the rating column is: `rating` (Bradley–Terry on wins) or the mean of the game's
    /// score (`mean points`), as the run's `results.json` says it ranks.
    pub rating_heading: String,
    /// Decimals a rating is shown with: 0 on Elo's scale, 1 for a mean score.
    pub rating_digits: usize,
    /// What the game calls its matches, plural (`games`, `matches`): the pages' word.
    pub unit: String,
    /// Best first.
    pub bots: Vec<BoardRow>,
}

/// What a run's `results.json` calls its matches (`unit`: `games`, a referee's word), or where
/// it does not say (koth 0.5.0), the contest's game's word, as the report falls back.
pub fn unit_of(st: &AppState, unit: &str) -> String {
    let game = &st.contest.config.game;
    let referee_word = game
        .referee_options()
        .map(|o| o.game.scoring.matches.as_str());
    crate::tournament::results::unit_word(unit, referee_word, game.name())
}

/// The leaderboard's data.
pub fn leaderboard_data(st: &AppState) -> Result<Leaderboard, ContestError> {
    let progress = st
        .progress()
        .map(|(run, done, total)| Progress { run, done, total });
    let Some(board) = st.board()? else {
        return Ok(Leaderboard {
            run: None,
            progress,
            ratings_note: None,
            rating_heading: "rating".into(),
            rating_digits: 0,
            unit: unit_of(st, ""),
            bots: Vec::new(),
        });
    };
    let versions: BTreeMap<String, Version> = st
        .with_db(|c| db::versions_by_id(c, &board.run.versions))?
        .into_iter()
        .map(|v| (v.bot.clone(), v))
        .collect();
    let bots = board
        .results
        .bots
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let v = versions.get(&row.bot);
            BoardRow {
                rank: i + 1,
                author: v.map(|v| v.author.clone()).unwrap_or_default(),
                version: v.map_or(0, |v| v.number),
                row: row.clone(),
            }
        })
        .collect();
    Ok(Leaderboard {
        run: Some(board.run.clone()),
        progress,
        ratings_note: board.results.ratings_note.clone(),
        rating_heading: board
            .results
            .ranked_by
            .heading(board.results.score.as_deref()),
        unit: unit_of(st, &board.results.unit),
        rating_digits: board.results.ranked_by.digits(),
        bots,
    })
}

/// One opponent's record against a bot.
#[derive(Serialize, Default)]
pub struct Against {
    /// Matches that were not void.
    pub games: u64,
    /// The bot won.
    pub wins: u64,
    /// The opponent won.
    pub losses: u64,
    /// Neither (or both).
    pub draws: u64,
}

/// A bot's page.
#[derive(Serialize)]
pub struct BotData {
    /// Its name.
    pub name: String,
    /// Every version, oldest first.
    pub versions: Vec<Version>,
    /// Its row on the leaderboard (when a finished run had it).
    pub standing: Option<BoardRow>,
    /// The run its results are from.
    pub run: Option<i64>,
    /// Its results against each opponent.
    pub against: BTreeMap<String, Against>,
    /// Its matches in that run.
    pub matches: Vec<MatchRow>,
    /// In the ladder, retired or disqualified.
    pub state: db::BotState,
    /// Why it left the ladder, if it did.
    pub reason: Option<String>,
    /// What the game calls its matches, plural.
    pub unit: String,
    /// The rating column's name (`rating`, `mean points`) and its decimals.
    pub rating_heading: String,
    /// Decimals a rating is shown with.
    pub rating_digits: usize,
}

/// A bot's data, `None` when there is no such bot.
pub fn bot_data(st: &AppState, name: &str) -> Result<Option<BotData>, ContestError> {
    if check_name("bot", name).is_err() {
        return Ok(None);
    }
    let versions = st.with_db(|c| db::versions_of(c, name))?;
    if versions.is_empty() {
        return Ok(None);
    }
    let (state, reason) = st
        .with_db(|c| db::bot_state(c, name))?
        .unwrap_or((db::BotState::Active, None));
    let board = leaderboard_data(st)?;
    let (unit, rating_heading, rating_digits) = (
        board.unit.clone(),
        board.rating_heading.clone(),
        board.rating_digits,
    );
    let run = board.run.as_ref().map(|r| r.id);
    let standing = board.bots.into_iter().find(|b| b.row.bot == name);
    let matches = match run {
        Some(id) => st.with_db(|c| db::matches_of(c, id, name))?,
        None => Vec::new(),
    };
    let mut against: BTreeMap<String, Against> = BTreeMap::new();
    for m in matches.iter().filter(|m| m.void.is_none()) {
        let won = m.winners.iter().any(|w| w == name);
        for other in m.participants.iter().filter(|p| *p != name) {
            let a = against.entry(other.clone()).or_default();
            a.games += 1;
            let lost = m.winners.iter().any(|w| w == other);
            match (won, lost) {
                (true, false) => a.wins += 1,
                (false, true) => a.losses += 1,
                _ => a.draws += 1,
            }
        }
    }
    Ok(Some(BotData {
        name: name.to_string(),
        versions,
        standing,
        run,
        against,
        matches,
        state,
        reason,
        unit,
        rating_heading,
        rating_digits,
    }))
}

/// `GET /api/leaderboard`.
pub async fn leaderboard(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(|st| leaderboard_data(st).map(Json).map_err(ApiError::from))
        .await
}

/// `GET /api/status`: the run in progress and the newest finished one, the uploads in
/// progress.
pub async fn status(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(status_now).await
}

fn status_now(st: &AppState) -> Result<Response, ApiError> {
    let latest = st.with_db(db::latest_done)?;
    let runs = st.with_db(db::runs)?;
    let progress = st
        .progress()
        .map(|(run, done, total)| Progress { run, done, total });
    // A run is pending while queued or running, and so is the newest versions' run before
    // the worker has queued it.
    let newest: Vec<i64> = st
        .with_db(db::latest_versions)?
        .iter()
        .map(|v| v.id)
        .collect();
    let key = db::versions_key(&newest);
    let covered = newest.len() < 2 || runs.iter().any(|r| db::versions_key(&r.versions) == key);
    // A run the worker is still closing (condensing the runs it superseded) counts too.
    let pending = runs
        .iter()
        .filter(|r| r.state == "queued" || r.state == "running")
        .count()
        + usize::from(!covered);
    let pending = pending.max(usize::from(progress.is_some()));
    Ok(Json(serde_json::json!({
        "progress": progress,
        "latest_done": latest.map(|r| r.id),
        "runs": runs.len(),
        "pending": pending,
        "uploads": st.quota.in_progress(),
    }))
    .into_response())
}

/// `GET /api/runs`: every run, newest first.
pub async fn runs(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(|st| st.with_db(db::runs).map(Json).map_err(ApiError::from))
        .await
}

/// A run's id as a path gives it: digits that fit, else no run (404, not a parse error).
pub fn run_id(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().filter(|id| *id > 0)
}

/// `GET /api/runs/{id}`.
pub async fn run(State(st): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    let Some(id) = run_id(&id) else {
        return ApiError(StatusCode::NOT_FOUND, format!("no run {id:?}")).into_response();
    };
    st.blocking(move |st| -> Result<Json<Run>, ApiError> {
        st.with_db(|c| db::get_run(c, id))?
            .map(Json)
            .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no run {id}")))
    })
    .await
}

/// `GET /api/bots`: the newest version of every bot.
pub async fn bots(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(|st| {
        st.with_db(db::latest_versions)
            .map(Json)
            .map_err(ApiError::from)
    })
    .await
}

/// `GET /api/bots/{name}`.
pub async fn bot(State(st): State<Arc<AppState>>, Path(name): Path<String>) -> Response {
    st.blocking(move |st| -> Result<Json<BotData>, ApiError> {
        bot_data(st, &name)?
            .map(Json)
            .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, "no such bot".into()))
    })
    .await
}
