//! Finishes plotters-svg's document: the things its `SVGBackend` writes its own way, set to
//! what this project's SVG promises (docs/CLI.md's `plot`, the app's export, their tests).
//!
//! - The root: `<svg xmlns=… width=… height=… viewBox=…>` in CSS pixels outside and backend
//!   units inside (plotters writes one size for both), and no line break after `</svg>`.
//! - Texts: plotters puts line breaks around a text's content (`<text …>\nname\n</text>`) and
//!   a `dy` that moves the text off its point; the scene places text on its baseline, so
//!   `dy` goes and the content is written as `<text …>name</text>`. A text turned by an angle
//!   plotters cannot express gets its `transform="rotate(…)"` here, and every scene text its
//!   exact `font-size` (plotters' is the style's size ÷ 1.24, off by an ulp for some sizes).
//!
//! Safe by construction: plotters escapes `<`, `>`, `&` and quotes in every attribute value
//! and text, so each `<` and `>` of its output is markup, and `dy="-0.5ex"` or
//! ` font-size="` can only be attributes.

use super::backend::TextNote;
use std::fmt::Write;

/// The `dy` plotters-svg writes for text anchored at the bottom (see `backend::Style`).
const BOTTOM_DY: &str = r#" dy="-0.5ex""#;

/// `raw`, plotters-svg's document of a `width` × `height` CSS pixel scene drawn at
/// `units` = (width, height) in backend units, with `notes` (one per text, in order) applied.
pub fn tidy(raw: &str, notes: &[Option<TextNote>], width: f64, height: f64, units: (u32, u32)) -> String {
    let mut out = String::with_capacity(raw.len());
    let _ = write!(out, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {} {}">"#, units.0, units.1);
    // plotters' own root tag is the first line.
    let mut rest = raw.split_once('\n').map_or("", |(_, r)| r);
    let mut notes = notes.iter();
    while let Some(start) = rest.find("<text ") {
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let Some(close) = rest.find('>') else { break };
        let tag = rest[..close].replacen(BOTTOM_DY, "", 1);
        match notes.next() {
            Some(Some(note)) => {
                out.push_str(&with_font_size(&tag, note.size));
                if let Some(t) = note.turn {
                    let _ = write!(out, r#" transform="rotate({:.2} {} {})""#, t.deg, t.at.0, t.at.1);
                }
            }
            _ => out.push_str(&tag),
        }
        out.push('>');
        rest = &rest[close + 1..];
        rest = rest.strip_prefix('\n').unwrap_or(rest);
        let Some(end) = rest.find("</text>") else { break };
        out.push_str(rest[..end].strip_suffix('\n').unwrap_or(&rest[..end]));
        rest = &rest[end..];
    }
    out.push_str(rest.trim_end());
    out
}

/// `tag` with its `font-size` value replaced by `size`.
fn with_font_size(tag: &str, size: f64) -> String {
    const ATTR: &str = r#" font-size=""#;
    let Some(at) = tag.find(ATTR).map(|i| i + ATTR.len()) else { return tag.to_string() };
    let end = tag[at..].find('"').map_or(tag.len(), |e| at + e);
    format!("{}{size}{}", &tag[..at], &tag[end..])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::svg::backend::Turn;

    #[test]
    fn root_text_and_turns() {
        let raw = "<svg width=\"40\" height=\"20\" viewBox=\"0 0 40 20\" xmlns=\"http://www.w3.org/2000/svg\">\n\
                   <rect x=\"0\"/>\n\
                   <text x=\"4\" y=\"8\" dy=\"-0.5ex\" font-size=\"10.967741935483872\" fill=\"#000000\">\na &lt; b\n</text>\n\
                   <text x=\"12\" y=\"16\" dy=\"-0.5ex\" font-size=\"13.600000000000001\">\nup\n</text>\n\
                   </svg>\n";
        // The first text is not the scene's (left as written), the second is turned.
        let notes = [None, Some(TextNote { size: 13.6, turn: Some(Turn { deg: -31.5, at: (12, 16) }) })];
        let out = tidy(raw, &notes, 10.0, 5.0, (40, 20));
        assert_eq!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"5\" viewBox=\"0 0 40 20\"><rect x=\"0\"/>\n\
             <text x=\"4\" y=\"8\" font-size=\"10.967741935483872\" fill=\"#000000\">a &lt; b</text>\n\
             <text x=\"12\" y=\"16\" font-size=\"13.6\" transform=\"rotate(-31.50 12 16)\">up</text>\n\
             </svg>"
        );
    }
}
