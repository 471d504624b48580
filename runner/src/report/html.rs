//! The page: `template.html`, with the report's data embedded as JSON in a
//! `<script type="application/json">` tag. Styles and script are inline; nothing is fetched.

use super::model::ReportData;
use super::ReportError;

/// The page, with `{{DATA}}` where the data goes.
const TEMPLATE: &str = include_str!("template.html");

/// The SVG namespace the script names: an identifier, never fetched.
pub const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

/// The template's inline `<style>` and `<script>` (the one that runs; the data's tag is
/// not a script), exactly as every report holds them: `koth serve` allows them by hash in its
/// Content-Security-Policy. The template has no `style` attributes, which a policy without
/// `'unsafe-inline'` would block.
pub fn inline_blocks() -> (&'static str, &'static str) {
    let between = |open: &str, close: &str| {
        TEMPLATE
            .split_once(open)
            .and_then(|(_, rest)| rest.split_once(close))
            .map_or("", |(inner, _)| inner)
    };
    (
        between("<style>", "</style>"),
        between("<script>", "</script>"),
    )
}

/// A Content-Security-Policy source allowing exactly this inline block: `'sha256-…'`.
pub fn csp_hash(block: &str) -> String {
    use base64::Engine;
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(block.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// Render the page.
pub fn render(data: &ReportData) -> Result<String, ReportError> {
    let json = serde_json::to_string(data).map_err(|e| ReportError::Malformed {
        path: data.archive.clone().into(),
        line: None,
        what: format!("cannot encode the report's data: {e}"),
    })?;
    // `<` only occurs inside JSON strings, where `\u003c` means the same; so no text a bot
    // printed (`</script>`, `<!--`) can end the tag early.
    let json = json.replace('<', "\\u003c");
    Ok(TEMPLATE.replacen("{{DATA}}", &json, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::{Forfeits, Heatmap};

    #[test]
    fn the_inline_blocks_are_the_templates_only_ones() {
        // One style sheet and one running script, found whole; no `style` attribute (a
        // Content-Security-Policy without 'unsafe-inline' would block it).
        let (style, script) = inline_blocks();
        assert_eq!(TEMPLATE.matches("<style>").count(), 1);
        assert_eq!(TEMPLATE.matches("<script>").count(), 1);
        assert!(style.contains(".swatch") && script.contains("use strict"));
        assert!(!TEMPLATE.contains(" style=\""));
    }

    #[test]
    fn nothing_a_bot_prints_can_end_the_data_tag() {
        let data = ReportData {
            game: "coup".into(),
            archive: "</script><script>alert(1)</script><!--".into(),
            replay_archive: "'</script><script>alert(2)</script>'".into(),
            manifest: serde_json::json!({"game": "coup"}),
            rerun: "koth coup '</script><script>alert(3)</script>'".into(),
            unit: "games".into(),
            leaderboard: Vec::new(),
            ratings_note: None,
            rating_heading: "rating".into(),
            rating_centre: Some(1500.0),
            heatmap: Heatmap::default(),
            fuel: Vec::new(),
            forfeits: Forfeits::default(),
            replays: Vec::new(),
            games_total: 0,
            decisions_total: 0,
            void_matches: Vec::new(),
            viewer: None,
        };
        let html = render(&data).unwrap();
        let open = r#"<script type="application/json" id="data">"#;
        let start = html.find(open).unwrap() + open.len();
        let end = start + html[start..].find("</script>").unwrap();
        let json: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(json["archive"], "</script><script>alert(1)</script><!--");
        assert_eq!(
            json["rerun"],
            "koth coup '</script><script>alert(3)</script>'"
        );
        assert!(!html.contains("{{DATA}}"));
    }
}
