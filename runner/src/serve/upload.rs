//! Uploads, by the form (`POST /upload`, an HTML answer) or the API (`POST /api/upload`,
//! JSON): multipart with the fields `name` and `file`, and the author's token.
//!
//! The token comes first: in the `Authorization: Bearer TOKEN` header, or as the multipart's
//! first field, `token` (the form's first field). It is checked, and the upload given one of
//! the slots in progress, before any of the file is read: a refused upload costs the server
//! its headers (and the first field), and its connection is closed unread.

use super::body::SlowBody;
use super::headers::closing;
use super::html::{esc, respond};
use super::quota::Slot;
use super::state::AppState;
use crate::contest::db::{self, Version};
use crate::contest::submit::{self, SubmitError, Upload};
use axum::body::Bytes;
use axum::extract::multipart::{Field, MultipartError};
use axum::extract::{Multipart, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::Arc;

/// The longest text field (name, token) read.
const FIELD_LIMIT: usize = 1024;

/// When a client refused for the caps should try again, in seconds: about one upload's checks.
const RETRY_AFTER_S: u64 = 30;

/// An upload refused: its status and reason.
#[derive(Debug)]
pub struct Refusal {
    /// The status.
    pub status: StatusCode,
    /// Why, for the uploader.
    pub reason: String,
    /// Refused for the caps: try again later.
    pub busy: bool,
}

impl Refusal {
    fn new(status: StatusCode, reason: impl Into<String>) -> Refusal {
        Refusal {
            status,
            reason: reason.into(),
            busy: false,
        }
    }
}

fn bad(reason: impl Into<String>) -> Refusal {
    Refusal::new(StatusCode::BAD_REQUEST, reason)
}

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
        SubmitError::DiskFull(_) => StatusCode::INSUFFICIENT_STORAGE,
        SubmitError::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
        SubmitError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// Whether `e` (or what it wraps) is a body cut for its pace.
fn cut_for_pace(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if err.downcast_ref::<SlowBody>().is_some() {
            return true;
        }
        cur = err.source();
    }
    false
}

/// A multipart error as a refusal: a body too slow is 408, one that could not be read
/// (the client went away) 400, a body past the cap 413.
fn malformed(e: MultipartError) -> Refusal {
    if cut_for_pace(&e) || e.body_text().contains("request body") {
        return Refusal::new(
            StatusCode::REQUEST_TIMEOUT,
            "the upload arrived too slowly and was cut",
        );
    }
    let status = match e.status() {
        s if s.is_server_error() => StatusCode::BAD_REQUEST,
        s => s,
    };
    Refusal::new(status, format!("malformed upload: {}", e.body_text()))
}

/// The next field, if any.
async fn next(mp: &mut Multipart) -> Result<Option<Field<'_>>, Refusal> {
    mp.next_field().await.map_err(malformed)
}

/// A field's bytes, refused past `limit` as soon as they pass it (the rest never read).
async fn read_capped(field: &mut Field<'_>, limit: usize, what: &str) -> Result<Bytes, Refusal> {
    let mut out = Vec::new();
    while let Some(chunk) = field.chunk().await.map_err(malformed)? {
        if out.len() + chunk.len() > limit {
            return Err(Refusal::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the {what} is larger than {limit} bytes"),
            ));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out.into())
}

/// A text field, trimmed.
async fn text(field: &mut Field<'_>, what: &str) -> Result<String, Refusal> {
    let data = read_capped(field, FIELD_LIMIT, &format!("field `{what}`"))
        .await
        .map_err(|r| bad(r.reason))?;
    String::from_utf8(data.to_vec())
        .map(|s| s.trim().to_string())
        .map_err(|_| bad(format!("the field `{what}` is not UTF-8")))
}

/// The token of the `Authorization: Bearer` header, if there is one.
fn bearer(headers: &HeaderMap) -> Result<Option<String>, Refusal> {
    let Some(v) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    v.to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| Some(t.trim().to_string()))
        .ok_or_else(|| {
            Refusal::new(
                StatusCode::UNAUTHORIZED,
                "the Authorization header is not `Bearer TOKEN`",
            )
        })
}

/// The author whose token this is, with an upload slot; or the refusal.
fn admit(st: &AppState, token: &str) -> Result<(i64, Slot), Refusal> {
    if token.is_empty() {
        return Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "no token: give the token `koth contest add-author` printed, in the Authorization \
             header (Bearer) or as the first field, `token`",
        ));
    }
    let author = st
        .with_db(|c| db::author_by_token(c, token))
        .map_err(|e| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, st.hide(&e)))?;
    let Some((id, _)) = author else {
        return Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            "the token is no author's of this contest",
        ));
    };
    let slot = st.quota.take(id).map_err(|busy| Refusal {
        status: StatusCode::TOO_MANY_REQUESTS,
        reason: busy.to_string(),
        busy: true,
    })?;
    Ok((id, slot))
}

/// Check the token, read the fields, check the upload and store it.
async fn receive(
    st: Arc<AppState>,
    headers: &HeaderMap,
    mut mp: Multipart,
) -> Result<Version, Refusal> {
    let mut token = bearer(headers)?;
    if token.is_none() {
        // No header: the first field must be the token, before anything else is read.
        let mut first = next(&mut mp)
            .await?
            .ok_or_else(|| bad("the upload is empty"))?;
        if first.name() != Some("token") {
            return Err(Refusal::new(
                StatusCode::UNAUTHORIZED,
                "the token comes first: in the Authorization header (Bearer TOKEN) or as the \
                 upload's first field, `token`",
            ));
        }
        token = Some(text(&mut first, "token").await?);
    }
    let token = token.unwrap_or_default();
    // Held until the upload is stored or refused: moved into the check below, so that a
    // client that hangs up (or the handler's timeout) cannot free it while its check runs.
    // The token's lookup is a database read: on a blocking thread, as every page's.
    let (st2, token2) = (Arc::clone(&st), token.clone());
    let (_, slot) = tokio::task::spawn_blocking(move || admit(&st2, &token2))
        .await
        .map_err(|_| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "internal error"))??;
    let (mut name, mut file) = (None, None);
    let limit = st.contest.config.max_upload_bytes as usize;
    while let Some(mut field) = next(&mut mp).await? {
        match field.name().unwrap_or_default() {
            "name" => name = Some(text(&mut field, "name").await?),
            "token" => {
                if text(&mut field, "token").await? != token {
                    return Err(bad("two different tokens"));
                }
            }
            "file" => {
                let filename = field.file_name().unwrap_or_default().to_string();
                let bytes = read_capped(&mut field, limit, "file")
                    .await
                    .map_err(|mut r| {
                        if r.status == StatusCode::PAYLOAD_TOO_LARGE {
                            r.reason = format!(
                                "the file is larger than this contest takes ({limit} bytes)"
                            );
                        }
                        r
                    })?;
                file = Some((filename, bytes));
            }
            other => {
                return Err(bad(format!(
                    "unknown field {other:?}; an upload has `token`, `name` and `file`"
                )))
            }
        }
    }
    let name = name.ok_or_else(|| bad("the field `name` (the bot's name) is missing"))?;
    let (filename, bytes) =
        file.ok_or_else(|| bad("the field `file` (the .wasm or .py file) is missing"))?;
    // A script's check resumes the interpreter's snapshot, made when the server started.
    if filename.to_ascii_lowercase().ends_with(".py") && st.contest.config.python {
        let mut ready = st.python_ready.clone();
        let _ = ready.wait_for(|r| *r).await;
    }
    // Its turn among the checks (the uploads in progress are capped, so the wait is too).
    let turn = Arc::clone(&st.checks)
        .acquire_owned()
        .await
        .map_err(|_| Refusal::new(StatusCode::SERVICE_UNAVAILABLE, "the server is stopping"))?;
    let st2 = Arc::clone(&st);
    let result = tokio::task::spawn_blocking(move || -> Result<Version, SubmitError> {
        // The check's turn and the upload's slot end with the check, not with the request.
        let (_turn, _slot) = (turn, slot);
        let mut conn = st2.contest.db()?;
        submit::submit(
            &st2.contest,
            &mut conn,
            &st2.checker,
            &Upload {
                name: &name,
                token: &token,
                filename: &filename,
                bytes: &bytes,
            },
        )
    })
    .await
    .map_err(|_| {
        Refusal::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the upload's check stopped unexpectedly",
        )
    })?;
    match result {
        Ok(v) => {
            st.wake.notify();
            Ok(v)
        }
        Err(SubmitError::Internal(e)) => {
            Err(Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, st.hide(&e)))
        }
        Err(e) => Err(Refusal::new(status(&e), st.unrooted(&e.to_string()))),
    }
}

/// A refusal's answer: its connection closed (the body may be unread), `Retry-After` when
/// refused for the caps.
fn refuse(r: Refusal, mut answer: Response) -> Response {
    if r.busy {
        answer.headers_mut().insert(
            header::RETRY_AFTER,
            header::HeaderValue::from(RETRY_AFTER_S),
        );
    }
    closing(answer)
}

/// `POST /api/upload`: `201` with the new version, or a 4xx with `{"error": reason}`.
pub async fn api(State(st): State<Arc<AppState>>, headers: HeaderMap, mp: Multipart) -> Response {
    match receive(st, &headers, mp).await {
        Ok(v) => (StatusCode::CREATED, Json(v)).into_response(),
        Err(r) => {
            let answer = (r.status, Json(serde_json::json!({ "error": r.reason }))).into_response();
            refuse(r, answer)
        }
    }
}

/// `POST /upload`: the form's answer page.
pub async fn form(State(st): State<Arc<AppState>>, headers: HeaderMap, mp: Multipart) -> Response {
    match receive(st, &headers, mp).await {
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
        Err(r) => {
            let answer = respond(
                r.status,
                "Upload refused",
                &format!(
                    "<p class=\"err\" id=\"refused\">{}</p><p>Nothing was stored. <a href=\"/upload\">Back to the form</a></p>",
                    esc(&r.reason)
                ),
            );
            refuse(r, answer)
        }
    }
}
