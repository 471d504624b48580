//! The page: `template.html`, with the report's data embedded as JSON in a
//! `<script type="application/json">` tag. Styles and script are inline; nothing is fetched.

use super::model::ReportData;
use super::ReportError;

/// The page, with `{{DATA}}` where the data goes.
const TEMPLATE: &str = include_str!("template.html");

/// The SVG namespace the script names: an identifier, never fetched.
pub const SVG_NAMESPACE: &str = "http://www.w3.org/2000/svg";

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
