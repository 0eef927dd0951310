//! One self-contained HTML page: the template, its style and script (plain WebGL2, compiled
//! into the binary) and the [`Page`] as JSON in a `<script type="application/json">` block.
//!
//! The page needs no network: no external script, style, font or image. The summary is
//! written as HTML (it is there before any script runs); everything else is built by the
//! script from the JSON.

use crate::error::ViewerError;
use crate::model::Page;

const TEMPLATE: &str = include_str!("assets/page.html");
const STYLE: &str = include_str!("assets/viewer.css");
const SCRIPT: &str = include_str!("assets/viewer.js");

/// Escapes text for HTML element content and attribute values.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
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

/// The page's HTML (non-finite numbers in the model become JSON `null`). Errors: the
/// model does not serialize (not expected) or the template lost a slot.
pub fn render(page: &Page) -> Result<String, ViewerError> {
    // `<` occurs in JSON only inside strings, where `\u003c` means the same: no `</script>`
    // can end the data block early.
    let json = serde_json::to_string(page)
        .map_err(|e| ViewerError::mismatch("page data", e.to_string()))?
        .replace('<', "\\u003c");
    let mut summary = String::new();
    for line in &page.summary {
        summary.push_str("<p>");
        summary.push_str(&escape(line));
        summary.push_str("</p>");
    }
    let min_attr = page.min_distance.map_or(String::new(), |d| format!(" data-min-distance=\"{d}\""));
    let mut out = String::with_capacity(TEMPLATE.len() + STYLE.len() + SCRIPT.len() + json.len() + 1024);
    // Fill the template's slots in order; the inserted text is never searched again.
    let mut rest = TEMPLATE;
    for (slot, value) in [
        ("{{title}}", escape(&page.title)),
        ("{{style}}", STYLE.to_string()),
        ("{{heading}}", escape(&page.title)),
        ("{{summary_attrs}}", min_attr),
        ("{{summary}}", summary),
        ("{{data}}", json),
        ("{{script}}", SCRIPT.to_string()),
    ] {
        let at = rest
            .find(slot)
            .ok_or_else(|| ViewerError::mismatch("page template", format!("no slot {slot}")))?;
        out.push_str(&rest[..at]);
        out.push_str(&value);
        rest = &rest[at + slot.len()..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_and_data_are_escaped() {
        let page = Page {
            title: "a <b> & c".into(),
            summary: vec!["minimum distance 0.047254094038 m (P9 – O)".into(), "</p><script>".into()],
            min_distance: Some(0.04725409403814191),
            views: Vec::new(),
        };
        let html = render(&page).unwrap();
        assert!(html.contains("<title>a &lt;b&gt; &amp; c</title>"));
        assert!(html.contains("data-min-distance=\"0.04725409403814191\""));
        assert!(html.contains("<p>&lt;/p&gt;&lt;script&gt;</p>"));
        // the JSON block holds the title with `<` escaped, and parses back
        let start = html.find("id=\"proxima-data\">").unwrap() + "id=\"proxima-data\">".len();
        let end = start + html[start..].find("</script>").unwrap();
        let v: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(v["title"], "a <b> & c");
        // self-contained: no external resource
        for needle in ["src=\"http", "href=\"http", "@import", "url(http"] {
            assert!(!html.contains(needle), "{needle}");
        }
    }
}
