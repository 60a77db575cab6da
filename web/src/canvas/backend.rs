//! plotters-canvas's `CanvasBackend` as the engine's `ChartBackend`: every plotters drawing
//! call goes to it unchanged (lines, dashes, dots, arrow heads, the background), in painter
//! units under a transform of `dpr / units_per_px`; a scene text is drawn here with the
//! browser's `fillText`, because plotters-canvas sets the baseline to top/middle/bottom and
//! turns text by quarter turns only, while the scene places text on its alphabetic baseline
//! at the angle of its roof.

use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use plotters_canvas::CanvasBackend;
use roofline_engine::chart::labels::text_width;
use roofline_engine::chart::paint::{ChartBackend, SceneText};
use roofline_engine::chart::{Anchor, Shape};
use wasm_bindgen::JsValue;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

const FONT_FAMILY: &str = "system-ui, -apple-system, 'Segoe UI', sans-serif";

/// A drawing error, as text (plotters' error types must be `Send + Sync`; a `JsValue` is not).
#[derive(Debug)]
pub struct CanvasError(String);

impl std::fmt::Display for CanvasError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CanvasError {}

impl From<JsValue> for CanvasError {
    fn from(e: JsValue) -> Self {
        CanvasError(format!("{e:?}"))
    }
}

type Result<T = ()> = std::result::Result<T, DrawingErrorKind<CanvasError>>;

fn js(e: JsValue) -> DrawingErrorKind<CanvasError> {
    DrawingErrorKind::DrawingError(e.into())
}

/// The inner backend's error, as ours.
fn inner<E: std::error::Error + Send + Sync>(r: std::result::Result<(), DrawingErrorKind<E>>) -> Result {
    r.map_err(|e| match e {
        DrawingErrorKind::DrawingError(e) => DrawingErrorKind::DrawingError(CanvasError(e.to_string())),
        DrawingErrorKind::FontError(f) => DrawingErrorKind::FontError(f),
    })
}

/// A canvas of `size` painter units, `units_per_px` units per CSS pixel, `dpr` device pixels
/// per CSS pixel.
pub struct ChartCanvas {
    inner: CanvasBackend,
    pub(super) ctx: CanvasRenderingContext2d,
    pub(super) canvas: HtmlCanvasElement,
    pub(super) dpr: f64,
    units_per_px: f64,
    size: (u32, u32),
}

impl ChartCanvas {
    /// The backend of `canvas` (already sized to its device pixels), its transform set.
    pub fn new(canvas: &HtmlCanvasElement, dpr: f64, units_per_px: f64, size: (u32, u32)) -> std::result::Result<ChartCanvas, JsValue> {
        let inner = CanvasBackend::with_canvas_object(canvas.clone()).ok_or_else(|| JsValue::from_str("no 2d context"))?;
        let ctx = super::context_2d(canvas)?;
        let c = ChartCanvas { inner, ctx, canvas: canvas.clone(), dpr, units_per_px, size };
        c.unit_transform()?;
        Ok(c)
    }

    /// The painter's transform: units to device pixels.
    pub(super) fn unit_transform(&self) -> std::result::Result<(), JsValue> {
        let k = self.dpr / self.units_per_px;
        self.ctx.set_transform(k, 0.0, 0.0, k, 0.0, 0.0)
    }
}

impl DrawingBackend for ChartCanvas {
    type ErrorType = CanvasError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result {
        inner(self.inner.ensure_prepared())
    }

    fn present(&mut self) -> Result {
        inner(self.inner.present())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result {
        inner(self.inner.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result {
        inner(self.inner.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(&mut self, a: BackendCoord, b: BackendCoord, style: &S, fill: bool) -> Result {
        inner(self.inner.draw_rect(a, b, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result {
        inner(self.inner.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Result {
        inner(self.inner.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vert: I, style: &S) -> Result {
        inner(self.inner.fill_polygon(vert, style))
    }

    fn draw_text<T: BackendTextStyle>(&mut self, text: &str, style: &T, pos: BackendCoord) -> Result {
        inner(self.inner.draw_text(text, style, pos))
    }
}

impl ChartBackend for ChartCanvas {
    fn draw_scene_text(&mut self, t: &SceneText) -> Result {
        let ctx = &self.ctx;
        let u = self.units_per_px;
        ctx.save();
        // In CSS pixels at the device ratio, as the browser lays text out best.
        ctx.set_transform(self.dpr, 0.0, 0.0, self.dpr, 0.0, 0.0).map_err(js)?;
        ctx.translate(t.at.0 as f64 / u, t.at.1 as f64 / u).map_err(js)?;
        if t.rotate_deg != 0.0 {
            ctx.rotate(t.rotate_deg.to_radians()).map_err(js)?;
        }
        ctx.set_font(&format!("{}px {FONT_FAMILY}", t.size / u));
        ctx.set_text_align(match t.anchor {
            Anchor::Start => "start",
            Anchor::Middle => "center",
            Anchor::End => "end",
        });
        ctx.set_text_baseline("alphabetic");
        ctx.set_fill_style_str(&t.color.css());
        // At most as wide as the placer reserved (engine::chart::labels::text_width): a font
        // wider than the estimate is condensed rather than drawn over the next label.
        let drawn = ctx.fill_text_with_max_width(t.text, 0.0, 0.0, text_width(t.text, t.size / u));
        ctx.restore();
        drawn.map_err(js)
    }

    fn draw_run(&mut self, shapes: &[Shape], units_per_px: f64) -> Result {
        super::run::draw(self, shapes, units_per_px)
    }
}
