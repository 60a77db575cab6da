//! SVG output of a scene: vector charts for papers, and the CLI's `plot`.

use super::scene::{arrow_geometry, Anchor, Scene, Shape};
use std::fmt::Write;

/// Escapes text for XML content and attribute values: kernel names are data, never markup.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

pub fn render(scene: &Scene) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="system-ui, sans-serif"><rect width="100%" height="100%" fill="{bg}"/>"#,
        w = scene.width,
        h = scene.height,
        bg = scene.background.css()
    );
    for shape in &scene.shapes {
        match shape {
            Shape::Line { points, color, width, dash } => {
                let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
                let dash = if *dash { r#" stroke-dasharray="4 3""# } else { "" };
                let _ = write!(s, r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="{width}"{dash}/>"#, pts.join(" "), color.css());
            }
            Shape::Circle { cx, cy, r, fill, stroke, width } => {
                let fill = fill.map_or("none".into(), |c| c.css());
                let stroke = stroke.map_or("none".into(), |c| c.css());
                let _ = write!(s, r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="{r:.2}" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>"#);
            }
            Shape::Text { x, y, text, color, size, anchor, rotate_deg } => {
                let anchor = match anchor {
                    Anchor::Start => "start",
                    Anchor::Middle => "middle",
                    Anchor::End => "end",
                };
                let rot = if *rotate_deg != 0.0 { format!(r#" transform="rotate({rotate_deg:.2} {x:.2} {y:.2})""#) } else { String::new() };
                let _ = write!(s, r#"<text x="{x:.2}" y="{y:.2}" fill="{}" font-size="{size}" text-anchor="{anchor}"{rot}>{}</text>"#, color.css(), escape(text));
            }
            Shape::Arrow { from, to, color, width, trim } => {
                // The shaft stops at the head's base, so a wide line does not poke past the tip.
                if let Some(g) = arrow_geometry(*from, *to, *width, *trim) {
                    let c = color.css();
                    let _ = write!(s, r#"<line x1="{:.2}" y1="{:.2}" x2="{:.2}" y2="{:.2}" stroke="{c}" stroke-width="{width}"/>"#, g.start.0, g.start.1, g.base.0, g.base.1);
                    let pts: Vec<String> = g.head.iter().map(|(x, y)| format!("{x:.2},{y:.2}")).collect();
                    let _ = write!(s, r#"<polygon points="{}" fill="{c}"/>"#, pts.join(" "));
                }
            }
        }
    }
    s.push_str("</svg>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{Color, LogScale};

    #[test]
    fn text_is_escaped() {
        let sc = LogScale { min: 1.0, max: 10.0, px0: 0.0, px1: 1.0 };
        let text = Shape::Text { x: 1.0, y: 2.0, text: "<img src=x onerror=alert(1)>&".into(), color: Color(0, 0, 0), size: 12.0, anchor: Anchor::Start, rotate_deg: 0.0 };
        let scene = Scene::new(10.0, 10.0, Color(255, 255, 255), vec![text], vec![], [0.0; 4], sc, sc);
        let out = render(&scene);
        assert!(out.contains("&lt;img src=x onerror=alert(1)&gt;&amp;"), "{out}");
        assert!(!out.contains("<img"));
    }
}
