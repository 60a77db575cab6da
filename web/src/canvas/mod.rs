//! Paints an engine `Scene` on a 2D canvas with the engine's one painter
//! (`chart::paint`) on plotters-canvas's `CanvasBackend`, sharp on HiDPI screens: the backing
//! store is the scene × `devicePixelRatio`, and the context's transform maps the painter's
//! units (a quarter CSS pixel) to device pixels.
//!
//! `backend.rs` wraps the `CanvasBackend` with what plotters cannot say (text at any angle on
//! its baseline; runs of dots, see `run.rs`).

mod backend;
pub mod preview;
mod run;

use backend::ChartCanvas;
use plotters::drawing::IntoDrawingArea;
use roofline_engine::chart::paint::{self, size_units, UNITS_PER_PX};
use roofline_engine::chart::Scene;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The 2D context of `canvas` (the chart's, the rasteriser's scratch canvas, a gesture's
/// kept image).
pub(crate) fn context_2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, JsValue> {
    canvas.get_context("2d")?.ok_or_else(|| JsValue::from_str("no 2d context"))?.dyn_into().map_err(JsValue::from)
}

/// A canvas outside the page, to draw into and copy from.
pub(crate) fn offscreen_canvas() -> Result<HtmlCanvasElement, JsValue> {
    let doc = web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no document"))?;
    doc.create_element("canvas")?.dyn_into().map_err(JsValue::from)
}

/// Resizes `canvas` to the scene (× device pixel ratio) and draws it.
pub fn paint(canvas: &HtmlCanvasElement, scene: &Scene) -> Result<(), JsValue> {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    paint_scaled(canvas, scene, dpr)
}

/// Resizes `canvas` to the scene × `scale` backing pixels (CSS size: the scene's) and draws
/// it: the PNG export paints an offscreen canvas at 2× whatever the screen's ratio.
pub fn paint_scaled(canvas: &HtmlCanvasElement, scene: &Scene, scale: f64) -> Result<(), JsValue> {
    let dpr = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
    let (w, h) = ((scene.width * dpr).round() as u32, (scene.height * dpr).round() as u32);
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let style = canvas.style();
    style.set_property("width", &format!("{}px", scene.width))?;
    style.set_property("height", &format!("{}px", scene.height))?;
    let u = UNITS_PER_PX;
    let units = (size_units(scene.width, u), size_units(scene.height, u));
    let area = ChartCanvas::new(canvas, dpr, u, units)?.into_drawing_area();
    paint::paint(&area, scene, u).map_err(|e| JsValue::from_str(&format!("chart: {e}")))?;
    area.present().map_err(|e| JsValue::from_str(&format!("chart: {e}")))
}
