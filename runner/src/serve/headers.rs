//! What every response carries: headers that keep a browser from sniffing, framing or
//! leaking the address, a Content-Security-Policy that allows the server's own inline style
//! and script by hash and nothing else; and, under `/api/`, errors always as JSON (the
//! layers' own refusals, 413 and 408 included, are plain text).

use super::html::STYLE;
use crate::report::html::csp_hash as hash;
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::sync::OnceLock;

/// The longest error text of a layer that is carried into the JSON.
const REASON_LIMIT: usize = 4096;

/// The policy: nothing by default; the pages' and the report's inline style, the report's
/// inline script, images from the server itself; forms post only to it; never framed.
pub fn csp() -> &'static str {
    static CSP: OnceLock<String> = OnceLock::new();
    CSP.get_or_init(|| {
        let (report_style, report_script) = crate::report::html::inline_blocks();
        format!(
            "default-src 'none'; script-src {}; style-src {} {}; img-src 'self'; \
             form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            hash(report_script),
            hash(STYLE),
            hash(report_style)
        )
    })
}

/// The policy with one more script allowed: a referee's viewer, by its hash, on the
/// match pages of its archives (the viewer's sandboxed frame inherits the page's policy).
pub fn csp_allowing(script: &str) -> String {
    csp().replacen("script-src ", &format!("script-src {script} "), 1)
}

/// Add the security headers to every response (a response that set its own
/// Content-Security-Policy, from [`csp_allowing`], keeps it); turn an `/api/` error that is not JSON
/// into `{"error": reason}`, and a page's error a layer answered in plain text (a 413 of the
/// body limit, a 408 of the timeout) into an HTML page with the reason.
pub async fn harden(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let mut res = next.run(req).await;
    if res.status().is_client_error() || res.status().is_server_error() {
        let kind = res
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        if api && !kind.is_some_and(|t| t.starts_with("application/json")) {
            res = reworded(res, |status, reason| {
                (status, Json(serde_json::json!({ "error": reason }))).into_response()
            })
            .await;
        } else if !api && kind.is_none_or(|t| t.starts_with("text/plain")) {
            res = reworded(res, |status, reason| {
                super::html::respond(
                    status,
                    status.canonical_reason().unwrap_or("Error"),
                    &format!(
                        "<p class=\"err\" id=\"refused\">{}</p>",
                        super::html::esc(reason)
                    ),
                )
            })
            .await;
        }
    }
    let h = res.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        if let Ok(v) = HeaderValue::from_str(csp()) {
            h.insert(header::CONTENT_SECURITY_POLICY, v);
        }
    }
    res
}

/// The reason a plain-text error body gives, in the server's words: the layers' own texts
/// (tower-http's 413) said as the pages say things.
fn reason_of(status: StatusCode, text: &str) -> String {
    if status == StatusCode::PAYLOAD_TOO_LARGE && text == "length limit exceeded" {
        return "the request is larger than this contest takes".into();
    }
    if text.is_empty() || text.starts_with('<') {
        return status
            .canonical_reason()
            .unwrap_or("error")
            .to_ascii_lowercase();
    }
    text.to_string()
}

/// `res` with its body read as a reason ([`reason_of`]) and answered again by `render`: its
/// status and other headers kept, its content type `render`'s.
async fn reworded(res: Response, render: impl FnOnce(StatusCode, &str) -> Response) -> Response {
    let (mut parts, body) = res.into_parts();
    let status = parts.status;
    let text = axum::body::to_bytes(body, REASON_LIMIT)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let (fresh, body) = render(status, &reason_of(status, &text)).into_parts();
    parts.headers.remove(header::CONTENT_LENGTH);
    if let Some(t) = fresh.headers.get(header::CONTENT_TYPE) {
        parts.headers.insert(header::CONTENT_TYPE, t.clone());
    }
    Response::from_parts(parts, body)
}

/// A refusal that closes the connection: the request's body (if any) is never read, and a
/// connection left open would have to read it to find the next request.
pub fn closing(mut res: Response) -> Response {
    res.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_the_standard_base64_of_the_sha256() {
        // `echo -n alert | sha256sum | xxd -r -p | base64`
        assert_eq!(
            hash("alert"),
            "'sha256-35BQWN1npAn++BSA6B5HNlcrDttNf7mHxpXNB+Jg7IE='"
        );
    }

    #[test]
    fn the_policy_allows_the_pages_and_the_reports_inline_blocks_only() {
        let p = csp();
        let (style, script) = crate::report::html::inline_blocks();
        assert!(style.len() > 100 && script.len() > 1000);
        assert!(p.contains(&hash(STYLE)) && p.contains(&hash(style)));
        assert!(p.contains(&hash(script)));
        assert!(!p.contains("unsafe"), "{p}");
        let with = csp_allowing("'sha256-AAAA'");
        assert_eq!(with.replacen("'sha256-AAAA' ", "", 1), p);
        assert!(with.contains("script-src 'sha256-AAAA' "), "{with}");
    }
}
