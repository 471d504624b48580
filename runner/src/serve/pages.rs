//! The HTML pages: leaderboard, bot, run history, run, replay and the upload form. Every
//! name is escaped; replays are the report's own viewer (`koth report`), holding one match.

use super::api::{self, ApiError};
use super::headers;
use super::html::{esc, page, respond};
use super::state::AppState;
use crate::contest::config::MAX_NAME;
use crate::contest::db;
use crate::report::{self, ReportOptions};
use axum::extract::{Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::fmt::Write;
use std::sync::Arc;

/// A page's error: its status and reason, as a page.
impl ApiError {
    fn page(self) -> Response {
        respond(
            self.0,
            "Error",
            &format!("<p class=\"err\">{}</p>", esc(&self.1)),
        )
    }
}

fn fmt_opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |v| format!("{v:.digits$}"))
}

/// `text` with its first letter in upper case, for a column's heading.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

fn progress_html(st: &AppState) -> String {
    match st.progress() {
        Some((id, done, total)) => format!(
            "<p id=\"progress\">Run <a href=\"/runs/{id}\">#{id}</a> in progress: \
             <progress value=\"{done}\" max=\"{total}\"></progress> {done} of {total} matches done.</p>"
        ),
        None => String::new(),
    }
}

/// `GET /`: the leaderboard of the newest finished run.
pub async fn leaderboard(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(leaderboard_page).await
}

fn leaderboard_page(st: &AppState) -> Response {
    let data = match api::leaderboard_data(st) {
        Ok(d) => d,
        Err(e) => return ApiError::from(e).page(),
    };
    let mut body = progress_html(st);
    let Some(run) = &data.run else {
        body.push_str(
            "<p class=\"note\" id=\"empty\">No run has finished yet: the first starts once two bots \
             are <a href=\"/upload\">uploaded</a>.</p>",
        );
        return Html(page("Leaderboard", &body)).into_response();
    };
    let game = match &st.contest.config.game {
        crate::contest::GameConfig::Referee { referee, .. } => format!(
            "{}, played by its referee <code>{}</code>",
            esc(st.contest.config.game.name()),
            esc(&referee.file)
        ),
        g => esc(g.name()),
    };
    let _ = write!(
        body,
        "<p class=\"note\" id=\"game\">Game: {game}. From run <a href=\"/runs/{id}\">#{id}</a> ({} matches).</p>",
        run.total,
        id = run.id
    );
    if let Some(referee_options) = st.contest.config.game.referee_options() {
        let name = st.contest.config.game.name();
        if let Some(note) = crate::referee::game::reuse_note(name, referee_options) {
            let _ = write!(
                body,
                "<p class=\"note\" id=\"reuse\">{}: each new version re-plays every one of its {}.</p>",
                esc(&capitalized(&note)),
                esc(&data.unit)
            );
        }
    }
    if let Some(note) = &data.ratings_note {
        let _ = write!(body, "<p class=\"note\">{}</p>", esc(note));
    }
    let digits = data.rating_digits;
    let _ = write!(
        body,
        "<table id=\"leaderboard\"><tr><th class=n>#</th><th>Bot</th><th>Author</th><th class=n>Version</th>\
         <th class=n>{}</th><th>95% interval</th><th class=n>P(&gt;next)</th><th class=n>{}</th>\
         <th class=n>Wins</th><th class=n>Forfeits</th><th class=n>Fuel/decision</th></tr>",
        esc(&capitalized(&data.rating_heading)),
        esc(&capitalized(&data.unit))
    );
    for b in &data.bots {
        let r = &b.row;
        let rating = r.rating.as_ref();
        let interval = match rating.and_then(|x| x.low.zip(x.high)) {
            Some((lo, hi)) => format!("{lo:.digits$} – {hi:.digits$}"),
            None => "–".into(),
        };
        let forfeits: u64 = r.forfeits.values().sum();
        let _ = write!(
            body,
            "<tr><td class=n>{}</td><td><a href=\"/bots/{n}\">{n}</a></td><td>{}</td><td class=n>{}</td>\
             <td class=n>{}</td><td>{interval}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td>\
             <td class=n>{forfeits}</td><td class=n>{}</td></tr>",
            b.rank,
            esc(&b.author),
            b.version,
            fmt_opt(rating.map(|x| x.rating), digits),
            fmt_opt(rating.and_then(|x| x.above_next), 2),
            r.games,
            r.wins,
            r.fuel / r.invocations.max(1),
            n = esc(&r.bot),
        );
    }
    body.push_str("</table>");
    Html(page("Leaderboard", &body)).into_response()
}

/// `GET /bots/{name}`: versions, results against each opponent, fuel, forfeits, matches.
pub async fn bot(State(st): State<Arc<AppState>>, Path(name): Path<String>) -> Response {
    st.blocking(move |st| bot_page(st, &name)).await
}

fn bot_page(st: &AppState, name: &str) -> Response {
    let data = match api::bot_data(st, name) {
        Ok(Some(d)) => d,
        Ok(None) => return not_found_page(),
        Err(e) => return ApiError::from(e).page(),
    };
    let mut body = progress_html(st);
    match data.state {
        db::BotState::Active => {}
        db::BotState::Retired => body.push_str(
            "<p class=\"note\"><strong>Retired</strong>: this bot has left the ladder; its past runs stay.</p>",
        ),
        db::BotState::Disqualified => {
            let _ = write!(
                body,
                "<p class=\"note\"><strong>Disqualified</strong>: {}</p>",
                esc(data.reason.as_deref().unwrap_or("no reason given"))
            );
        }
    }
    body.push_str("<h2>Versions</h2><table><tr><th class=n>Version</th><th>Author</th><th class=n>Bytes</th><th>SHA-256</th></tr>");
    for v in &data.versions {
        let _ = write!(
            body,
            "<tr><td class=n>{}</td><td>{}</td><td class=n>{}</td><td><code>{}</code></td></tr>",
            v.number,
            esc(&v.author),
            v.bytes,
            esc(&v.sha256)
        );
    }
    body.push_str("</table>");
    let Some(run) = data.run else {
        body.push_str("<p class=\"note\">No run has finished yet.</p>");
        return Html(page(&format!("Bot {}", data.name), &body)).into_response();
    };
    match &data.standing {
        Some(s) => {
            let r = &s.row;
            let forfeits: Vec<String> = r
                .forfeits
                .iter()
                .map(|(k, n)| format!("{} × {n}", esc(k)))
                .collect();
            let _ = write!(
                body,
                "<h2>Standing in run <a href=\"/runs/{run}\">#{run}</a></h2><p>Place {} with version {}: \
                 {} wins in {} {}; {} {}; fuel {} in {} decisions ({} a decision); forfeits: {}.</p>",
                s.rank,
                s.version,
                r.wins,
                r.games,
                esc(&data.unit),
                esc(&data.rating_heading),
                fmt_opt(r.rating.as_ref().map(|x| x.rating), data.rating_digits),
                r.fuel,
                r.invocations,
                r.fuel / r.invocations.max(1),
                if forfeits.is_empty() { "none".into() } else { forfeits.join(", ") }
            );
        }
        None => body.push_str("<p class=\"note\">Not in the newest finished run yet.</p>"),
    }
    let _ = write!(
        body,
        "<h2>Against each opponent</h2><table><tr><th>Opponent</th><th class=n>{}</th><th class=n>Wins</th><th class=n>Losses</th><th class=n>Draws</th></tr>",
        esc(&capitalized(&data.unit))
    );
    for (o, a) in &data.against {
        let _ = write!(
            body,
            "<tr><td><a href=\"/bots/{o}\">{o}</a></td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td></tr>",
            a.games,
            a.wins,
            a.losses,
            a.draws,
            o = esc(o)
        );
    }
    body.push_str("</table><h2>Forfeits</h2><ul id=\"forfeits\">");
    let mut any = false;
    for m in &data.matches {
        for (b, kind) in m.forfeits.iter().filter(|(b, _)| *b == data.name) {
            any = true;
            let _ = write!(
                body,
                "<li><a href=\"/runs/{run}/matches/{}\">{}</a>: {} ({})</li>",
                m.idx,
                esc(&m.label),
                esc(kind),
                esc(b)
            );
        }
    }
    if !any {
        body.push_str("<li>none</li>");
    }
    body.push_str("</ul><h2>Matches</h2><table id=\"matches\"><tr><th>Match</th><th>Seats</th><th>Scores</th><th>Winner</th></tr>");
    for m in &data.matches {
        let _ = write!(
            body,
            "<tr><td><a class=\"replay\" href=\"/runs/{run}/matches/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            m.idx,
            esc(&m.label),
            esc(&m.participants.join(" v ")),
            m.scores.iter().map(u64::to_string).collect::<Vec<_>>().join(" – "),
            match &m.void {
                Some(v) => format!("void: {}", esc(v)),
                None => esc(&m.winners.join(", ")),
            }
        );
    }
    body.push_str("</table>");
    Html(page(&format!("Bot {}", data.name), &body)).into_response()
}

/// `GET /runs`: every run, newest first.
pub async fn runs(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(runs_page).await
}

fn runs_page(st: &AppState) -> Response {
    let runs = match st.with_db(db::runs) {
        Ok(r) => r,
        Err(e) => return ApiError::from(e).page(),
    };
    let live = st.progress();
    let mut body = String::from(
        "<table id=\"runs\"><tr><th class=n>Run</th><th>State</th><th class=n>Bots</th><th class=n>Matches</th>\
         <th class=n>Played</th><th class=n>Reused</th><th>Error</th></tr>",
    );
    for r in &runs {
        let state = match live {
            Some((id, done, total)) if id == r.id => format!("running ({done} of {total})"),
            _ => r.state.clone(),
        };
        let _ = write!(
            body,
            "<tr><td class=n><a href=\"/runs/{id}\">#{id}</a></td><td>{}</td><td class=n>{}</td><td class=n>{}</td>\
             <td class=n>{}</td><td class=n>{}</td><td>{}</td></tr>",
            esc(&state),
            r.versions.len(),
            r.total,
            r.played.map_or(String::new(), |n| n.to_string()),
            r.reused.map_or(String::new(), |n| n.to_string()),
            esc(r.error.as_deref().unwrap_or_default()),
            id = r.id
        );
    }
    body.push_str("</table>");
    Html(page("Runs", &body)).into_response()
}

/// `GET /runs/{id}`: a run, its standings and its archive's files.
pub async fn run(State(st): State<Arc<AppState>>, Path(id): Path<String>) -> Response {
    st.blocking(move |st| run_page(st, &id)).await
}

fn run_page(st: &AppState, id: &str) -> Response {
    let Some(id) = api::run_id(id) else {
        return not_found_page();
    };
    let r = match st.with_db(|c| db::get_run(c, id)) {
        Ok(Some(r)) => r,
        Ok(None) => return not_found_page(),
        Err(e) => return ApiError::from(e).page(),
    };
    let versions = st
        .with_db(|c| db::versions_by_id(c, &r.versions))
        .unwrap_or_default();
    let mut body = format!(
        "<p>State: {}. {} matches{}.</p><h2>Versions</h2><ul>",
        esc(&r.state),
        r.total,
        match (r.played, r.reused) {
            (Some(p), Some(u)) => format!(", {p} played and {u} taken from the store"),
            _ => String::new(),
        }
    );
    for v in &versions {
        let _ = write!(
            body,
            "<li><a href=\"/bots/{b}\">{b}</a> version {}</li>",
            v.number,
            b = esc(&v.bot)
        );
    }
    body.push_str("</ul>");
    if r.state == "done" {
        if let Ok(board) = st.read_board(r.clone()) {
            body.push_str("<h2>Standings</h2><ol>");
            let unit = api::unit_of(st, &board.results.unit);
            for row in &board.results.bots {
                let _ = write!(
                    body,
                    "<li>{} ({} wins in {} {})</li>",
                    esc(&row.bot),
                    row.wins,
                    row.games,
                    esc(&unit)
                );
            }
            body.push_str("</ol>");
        }
        body.push_str("<h2>Archive</h2>");
        if let Some(when) = r.pruned {
            let _ = write!(body, "<p>{}</p>", esc(&pruned_note(id, when)));
        }
        body.push_str("<ul>");
        for f in archive_files(st, id) {
            let _ = write!(
                body,
                "<li><a href=\"/runs/{id}/files/{f}\">{f}</a></li>",
                f = esc(&f)
            );
        }
        body.push_str("</ul>");
    }
    if let Some(e) = &r.error {
        let _ = write!(body, "<p class=\"err\">{}</p>", esc(e));
    }
    Html(page(&format!("Run #{id}"), &body)).into_response()
}

/// The regular files at the top of run `id`'s archive (symbolic links never count).
fn archive_files(st: &AppState, id: i64) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(st.contest.run_dir(id)) else {
        return Vec::new();
    };
    let mut out: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|f| !f.starts_with('.'))
        .collect();
    out.sort();
    out
}

/// `GET /runs/{id}/files/{file}`: one file of a finished run's archive. Only a name that the
/// archive's own listing holds is served, so nothing outside the contest folder can be.
pub async fn run_file(
    State(st): State<Arc<AppState>>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    st.blocking(move |st| run_file_now(st, &id, &file)).await
}

fn run_file_now(st: &AppState, id: &str, file: &str) -> Response {
    let Some(id) = api::run_id(id) else {
        return not_found_page();
    };
    let done = matches!(st.with_db(|c| db::get_run(c, id)), Ok(Some(r)) if r.state == "done");
    if !done || !archive_files(st, id).iter().any(|f| f == file) {
        return not_found_page();
    }
    let path = st.contest.run_dir(id).join(file);
    let Ok(bytes) = std::fs::read(&path) else {
        return not_found_page();
    };
    let kind = match file.rsplit_once('.').map(|(_, e)| e) {
        Some("json") => "application/json",
        Some("html") => "text/html; charset=utf-8",
        Some("zip") => "application/zip",
        Some("zst") => "application/zstd",
        _ => "text/plain; charset=utf-8",
    };
    ([(header::CONTENT_TYPE, kind)], bytes).into_response()
}

/// What a condensed run says of its match logs.
fn pruned_note(id: i64, when: i64) -> String {
    format!(
        "This run's match logs were removed at {}: a newer run superseded it (or the disk quota needed the room). \
         Its standings, manifest and receipt remain, and its matches are in the contest's store: \
         the host's `koth contest export DIR --out OUT --run {id}` rebuilds its whole archive.",
        db::utc(when)
    )
}

/// `GET /runs/{id}/matches/{idx}`: the replay of one match, in the report's viewer.
pub async fn replay(
    State(st): State<Arc<AppState>>,
    Path((id, idx)): Path<(String, String)>,
) -> Response {
    st.blocking(move |st| replay_page(st, &id, &idx)).await
}

fn replay_page(st: &AppState, id: &str, idx: &str) -> Response {
    // Anything but a run's id and one of its matches' indexes is no page (an index past the
    // run, `u64::MAX` or `-1`, included).
    let (Some(id), Some(idx)) = (api::run_id(id), idx.parse::<usize>().ok()) else {
        return not_found_page();
    };
    let r = match st.with_db(|c| db::get_run(c, id)) {
        Ok(Some(r)) if r.state == "done" && usize::try_from(r.total).is_ok_and(|t| idx < t) => r,
        Ok(_) => return not_found_page(),
        Err(e) => return ApiError::from(e).page(),
    };
    if let Some(when) = r.pruned {
        return ApiError(StatusCode::GONE, pruned_note(id, when)).page();
    }
    let opts = ReportOptions {
        only_match: Some(idx),
        // Run by the contest's host in its folder, where `koth replay` finds the versions.
        replay_archive: Some(format!("runs/{id}")),
        ..ReportOptions::default()
    };
    match report::build_page(&st.contest.run_dir(r.id), &opts) {
        Ok((html, None)) => Html(html).into_response(),
        Ok((html, Some(viewer))) => {
            let mut res = Html(html).into_response();
            if let Ok(v) = HeaderValue::from_str(&headers::csp_allowing(&viewer)) {
                res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
            }
            res
        }
        Err(e) => ApiError(StatusCode::INTERNAL_SERVER_ERROR, api::internal(&e)).page(),
    }
}

/// `GET /game`: what a bot author needs before a first upload: the game, the protocol its
/// referee gives (what `koth check REFEREE.wasm` prints), and how to try a bot locally.
pub async fn game(State(st): State<Arc<AppState>>) -> Response {
    st.blocking(game_page).await
}

fn game_page(st: &AppState) -> Response {
    let config = &st.contest.config;
    let name = esc(config.game.name());
    let mut body = format!("<p id=\"game\">Game: <b>{name}</b>.</p>");
    let referee = match &config.game {
        crate::contest::GameConfig::Referee { referee_file, .. } => Some(referee_file),
        _ => None,
    };
    match (st.protocol(), referee) {
        (Ok(p), _) if !p.is_empty() => {
            let _ = write!(
                body,
                "<h2>The protocol</h2><p class=\"note\">As the game's referee gives it (<code>koth \
                 check REFEREE.wasm</code> prints the same).</p><pre id=\"protocol\">{}</pre>",
                esc(p)
            );
        }
        (Ok(_), Some(_)) => body.push_str(
            "<p class=\"note\" id=\"protocol\">The game's referee gives no protocol text: ask \
             the contest's host.</p>",
        ),
        (Ok(_), None) => {
            let _ = write!(
                body,
                "<p class=\"note\" id=\"protocol\">The protocol is the game's page in koth's \
                 guide (<code>docs/games/{name}.md</code>); <code>koth new {name} rust DIR</code> \
                 writes a bot to start from, in Rust, C or Python.</p>"
            );
        }
        (Err(e), _) => {
            let _ = write!(
                body,
                "<p class=\"err\" id=\"protocol\">The game's referee could not be read: {}</p>",
                esc(e)
            );
        }
    }
    let _ = write!(
        body,
        "<h2>Before you upload</h2><p><code>koth check BOT.wasm{}</code> loads your bot and plays \
         it once in this game; <code>koth play</code> runs a tournament on your machine. Then \
         <a href=\"/upload\">upload</a> it.</p>",
        referee.map_or_else(
            || format!(" --game {name}"),
            |_| " REFEREE.wasm".to_string()
        )
    );
    Html(page("The game", &body)).into_response()
}

/// `GET /upload`: the form. The token is its first field: the server checks it before it
/// reads the file (a browser sends the fields in the form's order).
pub async fn upload_form(State(st): State<Arc<AppState>>) -> Response {
    let c = &st.contest.config;
    let body = format!(
        "<form method=\"post\" action=\"/upload\" enctype=\"multipart/form-data\">\
         <p><label>Your token<br><input type=\"password\" name=\"token\" id=\"token\" required></label></p>\
         <p><label>Bot name<br><input type=\"text\" name=\"name\" id=\"name\" required maxlength=\"{MAX_NAME}\" \
         pattern=\"[A-Za-z0-9][A-Za-z0-9_\\-]*\"></label></p>\
         <p><label>File (.wasm module or component, or .py script; at most {} bytes)<br>\
         <input type=\"file\" name=\"file\" id=\"file\" accept=\".wasm,.py\" required></label></p>\
         <p><button type=\"submit\" id=\"submit\">Upload</button></p></form>\
         <p class=\"note\">Game: {}. An upload under your bot's name is its next version; the name \
         is yours from its first upload. Names: ASCII letters, digits, <code>_</code> and <code>-</code>, \
         at most {MAX_NAME}.</p>",
        c.max_upload_bytes,
        esc(c.game.name())
    );
    Html(page("Upload a bot", &body)).into_response()
}

/// Anything else.
pub async fn not_found() -> Response {
    not_found_page()
}

/// The page of no such page.
fn not_found_page() -> Response {
    respond(
        StatusCode::NOT_FOUND,
        "Not found",
        "<p class=\"err\">No such page.</p>",
    )
}
