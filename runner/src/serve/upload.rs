//! Uploads, by the form (`POST /upload`, an HTML answer) or the API (`POST /api/upload`,
//! JSON): multipart with the fields `name`, `token` and `file`.

use super::html::{esc, respond};
use super::state::AppState;
use crate::contest::db::Version;
use crate::contest::submit::{self, SubmitError, Upload};
use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

/// The longest text field (name, token) read.
const FIELD_LIMIT: usize = 1024;

/// The HTTP status of a refusal.
fn status(e: &SubmitError) -> StatusCode {
    match e {
        SubmitError::BadRequest(_) => StatusCode::BAD_REQUEST,
        SubmitError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
        SubmitError::NotYours { .. } => StatusCode::FORBIDDEN,
        SubmitError::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
        SubmitError::Same(_)
        | SubmitError::Full(_)
        | SubmitError::AuthorFull(_)
        | SubmitError::Duplicate(_)
        | SubmitError::Removed { .. } => StatusCode::CONFLICT,
        SubmitError::TooOften(_) => StatusCode::TOO_MANY_REQUESTS,
        SubmitError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
        SubmitError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Read the fields, check the upload and store it.
async fn receive(st: Arc<AppState>, mut mp: Multipart) -> Result<Version, (StatusCode, String)> {
    let bad = |why: String| (StatusCode::BAD_REQUEST, why);
    let (mut name, mut token, mut file) = (None, None, None);
    loop {
        let field = match mp.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Err((e.status(), format!("malformed upload: {}", e.body_text()))),
        };
        let field_name = field.name().unwrap_or_default().to_string();
        let filename = field.file_name().map(str::to_string);
        let data = field
            .bytes()
            .await
            .map_err(|e| (e.status(), format!("malformed upload: {}", e.body_text())))?;
        let text = |what: &str| {
            if data.len() > FIELD_LIMIT {
                return Err(bad(format!(
                    "the field `{what}` is longer than {FIELD_LIMIT} bytes"
                )));
            }
            String::from_utf8(data.to_vec())
                .map(|s| s.trim().to_string())
                .map_err(|_| bad(format!("the field `{what}` is not UTF-8")))
        };
        match field_name.as_str() {
            "name" => name = Some(text("name")?),
            "token" => token = Some(text("token")?),
            "file" => file = Some((filename.unwrap_or_default(), data)),
            other => {
                return Err(bad(format!(
                    "unknown field {other:?}; an upload has `name`, `token` and `file`"
                )))
            }
        }
    }
    let token = token.unwrap_or_default();
    let name = name.ok_or_else(|| bad("the field `name` (the bot's name) is missing".into()))?;
    let (filename, bytes) =
        file.ok_or_else(|| bad("the field `file` (the .wasm or .py file) is missing".into()))?;
    let st2 = Arc::clone(&st);
    let result = tokio::task::spawn_blocking(move || -> Result<Version, SubmitError> {
        let mut conn = st2.contest.db()?;
        submit::submit(
            &st2.contest,
            &mut conn,
            &st2.sandbox,
            &Upload {
                name: &name,
                token: &token,
                filename: &filename,
                bytes: &bytes,
            },
        )
    })
    .await
    .map_err(|e| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the check stopped: {e}"),
        )
    })?;
    match result {
        Ok(v) => {
            st.wake.notify();
            Ok(v)
        }
        Err(e) => Err((status(&e), e.to_string())),
    }
}

/// `POST /api/upload`: `201` with the new version, or a 4xx with `{"error": reason}`.
pub async fn api(State(st): State<Arc<AppState>>, mp: Multipart) -> Response {
    match receive(st, mp).await {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err((code, why)) => (code, Json(serde_json::json!({ "error": why }))).into_response(),
    }
}

/// `POST /upload`: the form's answer page.
pub async fn form(State(st): State<Arc<AppState>>, mp: Multipart) -> Response {
    match receive(st, mp).await {
        Ok(v) => respond(
            StatusCode::CREATED,
            "Upload accepted",
            &format!(
                "<p class=\"ok\" id=\"accepted\">Version {} of <a href=\"/bots/{b}\">{b}</a> was accepted \
                 (SHA-256 {}). A run with it starts when the one in progress (if any) ends; \
                 the <a href=\"/\">leaderboard</a> shows its progress.</p>",
                v.number,
                esc(&v.sha256),
                b = esc(&v.bot)
            ),
        ),
        Err((code, why)) => respond(
            code,
            "Upload refused",
            &format!(
                "<p class=\"err\" id=\"refused\">{}</p><p>Nothing was stored. <a href=\"/upload\">Back to the form</a></p>",
                esc(&why)
            ),
        ),
    }
}
