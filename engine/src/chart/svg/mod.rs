//! SVG output of a scene: vector charts for papers, the CLI's `plot` and the app's export.
//!
//! Drawn by the one painter ([`super::paint`]) on plotters-svg's `SVGBackend`
//! ([`backend`]), in quarter pixels ([`super::paint::UNITS_PER_PX`]) under a `viewBox`, so
//! positions, radii and line widths keep their sub-pixel values; [`tidy`] finishes the
//! document. Kernel names reach the document only as text that plotters escapes.

mod backend;
mod tidy;

pub use backend::FONT_FAMILY;

use super::paint::{self, size_units, UNITS_PER_PX};
use super::scene::Scene;
use backend::SvgChart;
use plotters::backend::SVGBackend;
use plotters::drawing::IntoDrawingArea;

/// The scene as an SVG document, `scene.width` × `scene.height` CSS pixels.
pub fn render(scene: &Scene) -> String {
    let u = UNITS_PER_PX;
    let units = (size_units(scene.width, u), size_units(scene.height, u));
    let mut raw = String::new();
    let mut notes = Vec::new();
    {
        let area = SvgChart { inner: SVGBackend::with_string(&mut raw, units), notes: &mut notes }.into_drawing_area();
        // Writing into a String cannot fail; a failed shape would only be missing.
        let _ = paint::paint(&area, scene, u);
        let _ = area.present();
    }
    // The outer size in CSS pixels is the drawn one (finite, at least a unit).
    tidy::tidy(&raw, &notes, units.0 as f64 / u, units.1 as f64 / u, units)
}

/// A framed chart ([`super::caption::frame`]) as an SVG document, its link's text (the
/// scene's last text) wrapped in `<a href="…">` with the whole link, so a click on the picture
/// opens the live view while the picture shows the link shortened.
pub fn render_framed(framed: &super::caption::Framed) -> String {
    let out = render(&framed.scene);
    let Some(link) = &framed.link else { return out };
    // The last text of the document is the link's (plotters writes shapes in order; texts
    // are escaped, so `<text ` and `</text>` occur only as tags).
    let (Some(start), Some(end)) = (out.rfind("<text "), out.rfind("</text>")) else { return out };
    if end < start {
        return out;
    }
    let end = end + "</text>".len();
    format!("{}<a href=\"{}\">{}</a>{}", &out[..start], escape_attr(link), &out[start..end], &out[end..])
}

/// `text` safe inside a double-quoted attribute.
fn escape_attr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{Anchor, Color, LogScale, Shape};

    fn scene(w: f64, h: f64, shapes: Vec<Shape>) -> Scene {
        let sc = LogScale { min: 1.0, max: 10.0, px0: 0.0, px1: 1.0 };
        Scene::new(w, h, Color(255, 255, 255), shapes, vec![], [0.0; 4], sc, sc)
    }

    /// Every shape kind through plotters-svg, in quarter pixels (coordinates × 4, rounded).
    #[test]
    fn writes_each_shape_in_quarter_pixels() {
        let red = Color(200, 40, 40);
        let shapes = vec![
            // (10, 10.5)–(30.25, 10.5), 1.5 px → (40, 42)–(121, 42), 6 units.
            Shape::Line { points: vec![(10.0, 10.5), (30.25, 10.5)], color: red, width: 1.5, dash: false },
            // 10 px dashed: 4 px dashes, 3 px gaps → units 0–16 and 28–40.
            Shape::Line { points: vec![(0.0, 0.0), (10.0, 0.0)], color: red, width: 1.0, dash: true },
            // A filled dot with an outline: the fill, then the outline over it.
            Shape::Circle { cx: 20.5, cy: 30.0, r: 3.5, fill: Some(Color(0, 114, 178)), stroke: Some(Color(255, 255, 255)), width: 1.0 },
            // Arrow (10, 40) → (60, 40), 1.5 px: head 5 + 2 × 1.5 = 8 px long, 2 × 0.45 × 8 wide:
            // shaft to x = 52, tip (60, 40), barbs (52, 40 ± 3.6).
            Shape::Arrow { from: (10.0, 40.0), to: (60.0, 40.0), color: red, width: 1.5, trim: [0.0, 0.0] },
            // A label turned along a roof, its baseline's middle at (50, 40).
            Shape::Text { x: 50.0, y: 40.0, text: "HBM".into(), color: Color(30, 30, 30), size: 12.0, anchor: Anchor::Middle, rotate_deg: -30.0 },
        ];
        let out = render(&scene(100.0, 50.0, shapes));
        let expected = [
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50" viewBox="0 0 400 200"><rect x="0" y="0" width="400" height="200" opacity="1" fill="#FFFFFF" stroke="none"/>"##,
            r##"<polyline fill="none" opacity="1" stroke="#C82828" stroke-width="6" points="40,42 121,42 "/>"##,
            r##"<polyline fill="none" opacity="1" stroke="#C82828" stroke-width="4" points="0,0 16,0 "/>"##,
            r##"<polyline fill="none" opacity="1" stroke="#C82828" stroke-width="4" points="28,0 40,0 "/>"##,
            r##"<circle cx="82" cy="120" r="14" opacity="1" fill="#0072B2" stroke="none" stroke-width="0"/>"##,
            r##"<circle cx="82" cy="120" r="14" opacity="1" fill="none" stroke="#FFFFFF" stroke-width="4"/>"##,
            r##"<line opacity="1" stroke="#C82828" stroke-width="6" x1="40" y1="160" x2="208" y2="160"/>"##,
            r##"<polygon opacity="1" fill="#C82828" points="240,160 208,174 208,146 "/>"##,
            r##"<text x="200" y="160" text-anchor="middle" font-family="system-ui, sans-serif" font-size="48" opacity="1" fill="#1E1E1E" transform="rotate(-30.00 200 160)">HBM</text>"##,
            "</svg>",
        ]
        .join("\n");
        assert_eq!(out, expected);
    }

    #[test]
    fn font_sizes_are_the_scenes() {
        // 3.4 px × 4 = 13.6 units: plotters alone would write 13.600000000000001.
        let t = Shape::Text { x: 1.0, y: 2.0, text: "t".into(), color: Color(0, 0, 0), size: 3.4, anchor: Anchor::End, rotate_deg: 0.0 };
        let out = render(&scene(10.0, 10.0, vec![t]));
        assert!(out.contains(r##"<text x="4" y="8" text-anchor="end" font-family="system-ui, sans-serif" font-size="13.6" opacity="1" fill="#000000">t</text>"##), "{out}");
    }

    #[test]
    fn hostile_sizes_and_coordinates_stay_finite() {
        let dot = Shape::Circle { cx: f64::NAN, cy: 1.0, r: 3.0, fill: Some(Color(0, 0, 0)), stroke: None, width: 0.0 };
        let far = Shape::Line { points: vec![(-1e300, -1e300), (1e300, 1e300)], color: Color(0, 0, 0), width: 1.0, dash: true };
        let out = render(&scene(f64::INFINITY, -3.0, vec![dot.clone(), far.clone()]));
        assert!(!out.contains("NaN") && !out.contains("inf") && !out.contains("<circle"), "{out}");
        assert!(out.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="0.25" height="0.25" viewBox="0 0 1 1">"#), "{out}");
        // The endless dashed line is dashed on the 400 × 200 units only: its part from (0, 0)
        // to (200, 200) is 283 units long: 10 dash periods of 28 and the start of an 11th dash.
        let out = render(&scene(100.0, 50.0, vec![dot, far]));
        assert_eq!(out.matches("<polyline").count(), 11, "{out}");
    }

    #[test]
    fn text_is_escaped() {
        let sc = LogScale { min: 1.0, max: 10.0, px0: 0.0, px1: 1.0 };
        let text = Shape::Text { x: 1.0, y: 2.0, text: "<img src=x onerror=alert(1)>&".into(), color: Color(0, 0, 0), size: 12.0, anchor: Anchor::Start, rotate_deg: 0.0 };
        let out = render(&Scene::new(10.0, 10.0, Color(255, 255, 255), vec![text], vec![], [0.0; 4], sc, sc));
        assert!(out.contains("&lt;img src=x onerror=alert(1)&gt;&amp;"), "{out}");
        assert!(!out.contains("<img"));
    }
}
