//! plotters-svg's `SVGBackend` as a [`ChartBackend`]: every drawing call goes to it unchanged;
//! a scene text is written by its `draw_text`, and what that cannot say (any angle, the
//! alphabetic baseline) is recorded for [`super::tidy`] to write into the text's tag.

use crate::chart::paint::{ChartBackend, SceneText};
use crate::chart::scene::{Anchor, Color};
use plotters_backend::text_anchor::{HPos, Pos, VPos};
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontFamily};
use plotters::backend::SVGBackend;

/// The font of every text (as the canvas' `FONT_FAMILY`, shorter: SVG viewers have no
/// `-apple-system`).
pub const FONT_FAMILY: &str = "system-ui, sans-serif";

/// plotters-svg writes `font-size` as the style's size ÷ 1.24 (its sizes count the line
/// spacing). Not every size comes back exactly from that division (13.6 × 1.24 ÷ 1.24 =
/// 13.600000000000001), so [`super::tidy`] writes the scene's size over it.
const SVG_SIZE_DIVISOR: f64 = 1.24;

/// A text's turn: degrees clockwise about its anchor point (units).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Turn {
    pub deg: f64,
    pub at: BackendCoord,
}

/// What [`super::tidy`] writes into a scene text's tag: its font size (units) and turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextNote {
    pub size: f64,
    pub turn: Option<Turn>,
}

/// The backend and, per text drawn so far, in order, its note (`None`: a text not from the
/// scene, left as plotters wrote it).
pub(super) struct SvgChart<'a> {
    pub inner: SVGBackend<'a>,
    pub notes: &'a mut Vec<Option<TextNote>>,
}

/// A scene text's style as plotters' backends read it.
struct Style {
    color: Color,
    size: f64,
    anchor: Anchor,
}

/// Never raised: SVG text needs no font.
#[derive(Debug)]
pub struct NoFont;

impl std::fmt::Display for NoFont {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SVG text is not laid out")
    }
}

impl std::error::Error for NoFont {}

impl BackendTextStyle for Style {
    type FontError = NoFont;

    fn color(&self) -> BackendColor {
        BackendColor { alpha: 1.0, rgb: (self.color.0, self.color.1, self.color.2) }
    }

    fn size(&self) -> f64 {
        self.size * SVG_SIZE_DIVISOR
    }

    fn anchor(&self) -> Pos {
        let h = match self.anchor {
            Anchor::Start => HPos::Left,
            Anchor::Middle => HPos::Center,
            Anchor::End => HPos::Right,
        };
        // Bottom: its `dy` is removed again by `tidy`, leaving `y` on the baseline.
        Pos::new(h, VPos::Bottom)
    }

    fn family(&self) -> FontFamily<'_> {
        FontFamily::Name(FONT_FAMILY)
    }

    fn layout_box(&self, _: &str) -> Result<((i32, i32), (i32, i32)), NoFont> {
        Err(NoFont)
    }

    fn draw<E, F: FnMut(i32, i32, BackendColor) -> Result<(), E>>(&self, _: &str, _: BackendCoord, _: F) -> Result<Result<(), E>, NoFont> {
        Err(NoFont)
    }
}

impl DrawingBackend for SvgChart<'_> {
    type ErrorType = std::io::Error;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(&mut self, a: BackendCoord, b: BackendCoord, style: &S, fill: bool) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.draw_rect(a, b, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.fill_polygon(vert, style)
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.notes.push(None);
        self.inner.draw_text(text, style, pos)
    }
}

impl ChartBackend for SvgChart<'_> {
    fn draw_scene_text(&mut self, t: &SceneText) -> Result<(), DrawingErrorKind<std::io::Error>> {
        self.inner.draw_text(t.text, &Style { color: t.color, size: t.size, anchor: t.anchor }, t.at)?;
        self.notes.push(Some(TextNote { size: t.size, turn: (t.rotate_deg != 0.0).then_some(Turn { deg: t.rotate_deg, at: t.at }) }));
        Ok(())
    }
}
