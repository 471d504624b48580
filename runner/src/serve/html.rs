//! HTML escaping and the frame every page shares. Every name a user chose goes through
//! [`esc`].

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};

/// Text made safe for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Every page's style sheet, inline (the Content-Security-Policy allows it by hash).
pub const STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:0 auto;max-width:72rem;padding:0 1rem 3rem;color:#222}\
nav{display:flex;gap:1.2rem;padding:.8rem 0;border-bottom:1px solid #ddd;margin-bottom:1rem}\
nav b{margin-right:auto}a{color:#1a5fb4}table{border-collapse:collapse;margin:.5rem 0 1.5rem}\
th,td{padding:.25rem .6rem;border-bottom:1px solid #eee;text-align:left}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\
.note{color:#555}.err{color:#a51d2d;font-weight:600}.ok{color:#26a269;font-weight:600}\
progress{width:16rem}form p{margin:.6rem 0}input[type=text],input[type=password]{width:28rem;max-width:100%}";

/// A whole page: title, navigation and `body` (already escaped).
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{t} · koth contest</title><style>{STYLE}</style></head><body>\
         <nav><b>koth contest</b><a href=\"/\">Leaderboard</a><a href=\"/runs\">Runs</a>\
         <a href=\"/game\">The game</a><a href=\"/upload\">Upload</a><a href=\"/api/leaderboard\">API</a></nav>\
         <h1>{t}</h1>{body}</body></html>",
        t = esc(title)
    )
}

/// A page with a status.
pub fn respond(status: StatusCode, title: &str, body: &str) -> Response {
    (status, Html(page(title, body))).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            esc(r#"<script>alert("x")</script>&'"#),
            "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;"
        );
    }
}
