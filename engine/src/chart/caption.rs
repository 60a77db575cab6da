//! The slide frame of an exported chart (issue 45): an optional title above the chart, and a
//! footer with the machine and its clock, the source files, the link to the live view and,
//! optionally, a QR code of that link. Pictures on slides and course pages travel without the
//! app around them; the frame says what they show and where to open them.
//!
//! [`frame`] returns a new [`Scene`]: the chart's shapes moved down under the title, the
//! footer's texts and the QR code's modules ([`Shape::Rect`]) added, so the one painter draws
//! it into the PNG (canvas) and the SVG alike. Everything is text in the scene: the SVG writer
//! escapes it, and wraps the link's text in a real `<a href>` carrying the whole link
//! ([`super::svg::render_framed`]), where the picture shows it shortened.

use super::labels::text_width;
use super::scene::{Anchor, Color, Scene, Shape, Theme};
use crate::model::Machine;

/// Margin around the frame's texts, CSS pixels.
const PAD_PX: f64 = 12.0;
/// The title's font size and the height of its band, CSS pixels.
const TITLE_SIZE_PX: f64 = 18.0;
const TITLE_BAND_PX: f64 = 40.0;
/// The footer's font size and line pitch, CSS pixels.
const FOOTER_SIZE_PX: f64 = 12.0;
const LINE_PX: f64 = 17.0;

/// The largest QR code drawn, and its module size. A QR code on a slide is scanned from a
/// seat, off a projector or a screen share: version 25 is 117 × 117 modules, which at 4 CSS
/// pixels a module (8 device pixels in the 2× PNG) with the standard 4-module quiet zone is
/// 500 px square, about half the height of a 1080p slide, so each module is still ≥ 2 px on a
/// slide shrunk to a third and phone cameras resolve it. Larger versions would need smaller
/// modules (unreadable once the slide is scaled) or a code larger than the chart. Version 25
/// holds 1,273 bytes at error correction L, the level asked for: a projected picture is clean,
/// so capacity matters more than damage tolerance (the encoder raises the level where the
/// version has room to spare).
pub const MAX_QR_VERSION: i16 = 25;
pub const QR_MODULE_PX: f64 = 4.0;
/// The quiet zone the QR standard asks for around the code, modules.
const QR_QUIET_MODULES: f64 = 4.0;

/// What the frame says. Empty strings are left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Caption {
    /// Above the chart.
    pub title: String,
    /// "NVIDIA H100 SXM5 at 1,755 MHz" ([`machine_line`]).
    pub machine: String,
    /// The source files ([`files_line`]).
    pub files: String,
    /// The live view's link, in full (shown shortened, linked in full in the SVG).
    pub link: String,
    /// Whether to draw the link's QR code.
    pub qr: bool,
}

/// What became of the QR code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Qr {
    /// Not asked for, or no link.
    Off,
    /// Drawn, at this version.
    Drawn { version: i16 },
    /// Left out: the link (of `chars` characters) needs a code above [`MAX_QR_VERSION`].
    TooLong { chars: usize },
    /// Left out: this build has no QR encoder (the engine's `qr` feature).
    Unavailable,
}

impl Qr {
    /// Why the QR code was left out, for the user; `None` when nothing is missing.
    pub fn notice(self) -> Option<String> {
        match self {
            Qr::Off | Qr::Drawn { .. } => None,
            Qr::TooLong { chars } => Some(format!("link too long for a QR code ({chars} characters); share a shorter link: #url=… or a .roofline.json file")),
            Qr::Unavailable => Some("this build draws no QR codes".into()),
        }
    }
}

/// A framed chart: the scene to paint, the link its last text stands for, and the QR outcome.
pub struct Framed {
    pub scene: Scene,
    /// The full link, when the footer shows one: the last text of `scene`.
    pub link: Option<String>,
    pub qr: Qr,
}

/// The machine and the clock its ceilings are at: "NVIDIA H100 SXM5 at 1,755 MHz" (the name
/// without a clock in it; no clock part when the machine states none).
pub fn machine_line(m: &Machine) -> String {
    let name = m.short_name();
    match m.clock_hz.filter(|hz| hz.is_finite() && *hz > 0.0) {
        Some(hz) => format!("{name} at {} MHz", crate::units::thousands((hz / 1e6).round() as u64)),
        None => name.to_string(),
    }
}

/// The source files by name (no folders): one name alone, two or three listed ("2 files:
/// a.csv, b.csv"), more as the count and the first two ("5 files: a.csv, b.csv, …").
pub fn files_line<S: AsRef<str>>(paths: &[S]) -> String {
    let names: Vec<&str> = paths.iter().map(|p| base_name(p.as_ref())).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].to_string(),
        n @ 2..=3 => format!("{n} files: {}", names.join(", ")),
        n => format!("{n} files: {}, {}, …", names[0], names[1]),
    }
}

/// A path's last component (either separator: files come from any system).
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// `text` cut to at most `max_px` wide at `size_px` ([`text_width`]), ending in "…" when cut.
pub fn fit(text: &str, size_px: f64, max_px: f64) -> String {
    if text_width(text, size_px) <= max_px {
        return text.to_string();
    }
    let room = max_px - text_width("…", size_px);
    let mut used = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        let mut buf = [0u8; 4];
        used += text_width(c.encode_utf8(&mut buf), size_px);
        if used > room {
            break;
        }
        out.push(c);
    }
    out + "…"
}

/// The QR code of `link`, as its modules (row-major, `true` dark) and side in modules, when it
/// fits [`MAX_QR_VERSION`].
#[cfg(feature = "qr")]
fn qr_modules(link: &str) -> Result<(Vec<bool>, usize, i16), Qr> {
    use qrcodegen::{QrCode, QrCodeEcc, QrSegment, Version};
    let too_long = Qr::TooLong { chars: link.chars().count() };
    // Version 40's byte capacity at level L: anything longer cannot be encoded at all.
    if link.len() > 2953 {
        return Err(too_long);
    }
    let segments = QrSegment::make_segments(link);
    // Level L at the smallest version that holds the link, raised to a higher level where
    // that version has room for it (`boost_ecl`): more damage tolerance at no size.
    let code = QrCode::encode_segments_advanced(&segments, QrCodeEcc::Low, Version::MIN, Version::new(MAX_QR_VERSION as u8), None, true).map_err(|_| too_long)?;
    let side = code.size().max(0) as usize;
    let dark = (0..side * side).map(|i| code.get_module((i % side) as i32, (i / side) as i32)).collect();
    Ok((dark, side, i16::from(code.version().value())))
}

#[cfg(not(feature = "qr"))]
fn qr_modules(_: &str) -> Result<(Vec<bool>, usize, i16), Qr> {
    Err(Qr::Unavailable)
}

/// The modules as rects, one per horizontal run of dark modules, inside a white square with
/// the quiet zone, its top-left corner at (`x`, `y`).
fn qr_shapes(dark: &[bool], side: usize, x: f64, y: f64) -> Vec<Shape> {
    let m = QR_MODULE_PX;
    let full = (side as f64 + 2.0 * QR_QUIET_MODULES) * m;
    let mut out = vec![Shape::Rect { x, y, w: full, h: full, fill: Color(255, 255, 255) }];
    let (x0, y0) = (x + QR_QUIET_MODULES * m, y + QR_QUIET_MODULES * m);
    for (row, cells) in dark.chunks(side.max(1)).enumerate() {
        let mut col = 0;
        while col < cells.len() {
            if !cells[col] {
                col += 1;
                continue;
            }
            let run = cells[col..].iter().take_while(|d| **d).count();
            out.push(Shape::Rect { x: x0 + col as f64 * m, y: y0 + row as f64 * m, w: run as f64 * m, h: m, fill: Color(0, 0, 0) });
            col += run;
        }
    }
    out
}

/// `shape` moved down by `dy` pixels.
fn shifted(shape: &Shape, dy: f64) -> Shape {
    let mut s = shape.clone();
    match &mut s {
        Shape::Line { points, .. } => points.iter_mut().for_each(|p| p.1 += dy),
        Shape::Circle { cy, .. } => *cy += dy,
        Shape::Text { y, .. } | Shape::Rect { y, .. } => *y += dy,
        Shape::Arrow { from, to, .. } => {
            from.1 += dy;
            to.1 += dy;
        }
    }
    s
}

/// `chart` in its slide frame (see the module docs): as wide as the chart, taller by the title
/// band (when there is a title) and the footer (when it has something to say). Hit areas are
/// left out: the frame is for exports, not for hovering.
pub fn frame(chart: &Scene, caption: &Caption) -> Framed {
    let dark = chart.background == Theme::Dark.palette().background;
    let palette = if dark { Theme::Dark } else { Theme::Light }.palette();
    let link_color = if dark { Color(120, 170, 255) } else { Color(0, 90, 180) };
    let w = chart.width;
    let title = caption.title.trim();
    let top = if title.is_empty() { 0.0 } else { TITLE_BAND_PX };

    let link = caption.link.trim();
    let (qr, code) = match (caption.qr, link.is_empty()) {
        (true, false) => match qr_modules(link) {
            Ok((dark, side, version)) => (Qr::Drawn { version }, Some((dark, side))),
            Err(q) => (q, None),
        },
        _ => (Qr::Off, None),
    };
    let qr_px = code.as_ref().map_or(0.0, |(_, side)| (*side as f64 + 2.0 * QR_QUIET_MODULES) * QR_MODULE_PX);

    let about = [caption.machine.trim(), caption.files.trim()].into_iter().filter(|t| !t.is_empty()).collect::<Vec<_>>().join(" · ");
    let lines = usize::from(!about.is_empty()) + usize::from(!link.is_empty());
    let text_h = if lines == 0 { 0.0 } else { PAD_PX + lines as f64 * LINE_PX + PAD_PX / 2.0 };
    let footer = text_h.max(if qr_px > 0.0 { qr_px + PAD_PX } else { 0.0 });
    let text_w = (w - 2.0 * PAD_PX - if qr_px > 0.0 { qr_px + PAD_PX } else { 0.0 }).max(0.0);

    let mut shapes = Vec::with_capacity(chart.shapes.len() + 8);
    if !title.is_empty() {
        let t = fit(title, TITLE_SIZE_PX, w - 2.0 * PAD_PX);
        shapes.push(Shape::Text { x: PAD_PX, y: TITLE_BAND_PX - PAD_PX, text: t, color: palette.text, size: TITLE_SIZE_PX, anchor: Anchor::Start, rotate_deg: 0.0 });
    }
    shapes.extend(chart.shapes.iter().map(|s| shifted(s, top)));
    let foot = top + chart.height;
    if footer > 0.0 {
        shapes.push(Shape::Line { points: vec![(0.0, foot + 0.5), (w, foot + 0.5)], color: palette.grid, width: 1.0, dash: false });
    }
    let mut baseline = foot + PAD_PX + FOOTER_SIZE_PX;
    if !about.is_empty() {
        shapes.push(Shape::Text { x: PAD_PX, y: baseline, text: fit(&about, FOOTER_SIZE_PX, text_w), color: palette.text, size: FOOTER_SIZE_PX, anchor: Anchor::Start, rotate_deg: 0.0 });
        baseline += LINE_PX;
    }
    if let Some((dark, side)) = &code {
        shapes.extend(qr_shapes(dark, *side, w - PAD_PX - qr_px, foot + PAD_PX / 2.0));
    }
    // Last, so the SVG writer finds it as the document's last text (`svg::render_framed`).
    if !link.is_empty() {
        shapes.push(Shape::Text { x: PAD_PX, y: baseline, text: fit(link, FOOTER_SIZE_PX, text_w), color: link_color, size: FOOTER_SIZE_PX, anchor: Anchor::Start, rotate_deg: 0.0 });
    }

    let mut y = chart.y;
    y.px0 += top;
    y.px1 += top;
    let p = chart.plot;
    let scene = Scene::new(w, top + chart.height + footer, chart.background, shapes, Vec::new(), [p[0], p[1] + top, p[2], p[3] + top], chart.x, y);
    Framed { scene, link: (!link.is_empty()).then(|| link.to_string()), qr }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_and_names() {
        assert_eq!(crate::units::thousands(1755), "1,755");
        assert_eq!(crate::units::thousands(765), "765");
        assert_eq!(crate::units::thousands(1234567), "1,234,567");
        assert_eq!(crate::units::thousands(0), "0");
        assert_eq!(files_line::<&str>(&[]), "");
        assert_eq!(files_line(&["/data/run/a.csv"]), "a.csv");
        assert_eq!(files_line(&["x/a.csv", "C:\\y\\b.csv"]), "2 files: a.csv, b.csv");
        assert_eq!(files_line(&["a.csv", "b.csv", "c.csv", "d.csv", "e.csv"]), "5 files: a.csv, b.csv, …");
    }

    #[test]
    fn fit_cuts_with_an_ellipsis() {
        // "10" at 10 px is 12.72 px wide; "…" is 10 px; "1" 6.36 px.
        assert_eq!(fit("10", 10.0, 12.72), "10");
        assert_eq!(fit("1000", 10.0, 17.0), "1…");
        assert_eq!(fit("1000", 10.0, 16.0), "…");
    }
}
