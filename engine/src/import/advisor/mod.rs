//! Intel Advisor's exports: the survey report with roofline columns ([`survey`]) and the
//! machine's roofs ([`roofs`]) as CSV, and the interactive HTML roofline report ([`html`]).
//! The CSVs may start with Excel's `sep=,` line, a quoted banner that spans lines, and a
//! `"Survey Data version=…"` line before the header.

/// The HTML report's chart data is JSON, read with serde_json: only where the `json` feature
/// is on (the CLI, the tests and the app's parser worker; never the page's first-visit module).
#[cfg(feature = "json")]
pub mod html;
pub mod roofs;
pub mod survey;

/// A cell without Advisor's HTML markup (`<b>Float32</b>` → `Float32`).
pub fn strip_html(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut in_tag = false;
    for c in cell.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn html_is_stripped() {
        assert_eq!(super::strip_html("<b>Float32</b>; Int32"), "Float32; Int32");
    }
}
