//! The canvas' way to draw a run of dots and solid lines (`ChartBackend::draw_run`): the
//! engine's rasteriser (`chart::raster`) computes the run's pixels at the device ratio into
//! one image, composited over what is drawn (`putImageData` on a scratch canvas, then
//! `drawImage`, so it blends in order). Measured (tests/bench/browser.mjs, docs/PERFORMANCE.md):
//! a 10,000-kernel hierarchical redraw (30,000 dots, 10,000 link lines) took 135–314 ms with
//! plotters-canvas's own circle and path calls for every shape, 14–18 ms with this, against a
//! 16 ms budget. Every other shape still goes through plotters-canvas.

use super::backend::{CanvasError, ChartCanvas};
use plotters_backend::DrawingErrorKind;
use roofline_engine::chart::raster::{self, Pixmap};
use roofline_engine::chart::Shape;
use std::cell::RefCell;
use wasm_bindgen::{Clamped, JsValue};
use web_sys::{HtmlCanvasElement, ImageData};

/// Rasterises `shapes` at the canvas' device ratio and composites them. The rasteriser works
/// from the shapes' CSS pixels (exact, not rounded to units), so the units are not needed.
pub fn draw(c: &mut ChartCanvas, shapes: &[Shape], _units_per_px: f64) -> Result<(), DrawingErrorKind<CanvasError>> {
    crate::perf::mark("roofline:raster-start");
    let pixmap = RASTERIZER.with(|r| r.borrow_mut().rasterize(shapes, c.dpr, c.canvas.width(), c.canvas.height()));
    crate::perf::measure("roofline:raster", "roofline:raster-start");
    let Some(p) = pixmap else { return Ok(()) };
    composite(c, &p).map_err(|e| DrawingErrorKind::DrawingError(CanvasError::from(e)))
}

thread_local! {
    /// Kept between paints, so a redraw after a zoom or a pan finds the dots' stamps made.
    static RASTERIZER: RefCell<raster::Rasterizer> = RefCell::new(raster::Rasterizer::default());
    /// The scratch canvas images pass through (`putImageData` replaces pixels; drawing the
    /// scratch canvas composites them over what is already drawn). Kept between paints.
    static SCRATCH: RefCell<Option<HtmlCanvasElement>> = const { RefCell::new(None) };
}

// The pixels' bytes are read as they lie (`composite`): R, G, B, A only on a little-endian
// target, as wasm32 is.
const _: () = assert!(cfg!(target_endian = "little"), "the raster's u32 pixels are read as RGBA bytes");

/// Draws a rasterised run over the canvas at its device-pixel position.
fn composite(c: &ChartCanvas, p: &Pixmap) -> Result<(), JsValue> {
    // The pixels' own bytes: wasm32 is little-endian, so each u32 (red in its low byte) lies in
    // memory as R, G, B, A; wasm-bindgen hands the canvas a view of them, not a copy.
    let bytes: &[u8] = bytemuck::cast_slice(&p.pixels);
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(bytes), p.width, p.height)?;
    let scratch = SCRATCH.with(|s| -> Result<HtmlCanvasElement, JsValue> {
        if let Some(c) = s.borrow().as_ref() {
            return Ok(c.clone());
        }
        let c = super::offscreen_canvas()?;
        *s.borrow_mut() = Some(c.clone());
        Ok(c)
    })?;
    // Grow only: resizing clears the canvas, and only the image's rectangle is read back.
    if scratch.width() < p.width || scratch.height() < p.height {
        scratch.set_width(scratch.width().max(p.width));
        scratch.set_height(scratch.height().max(p.height));
    }
    let sctx = super::context_2d(&scratch)?;
    sctx.put_image_data(&image, 0.0, 0.0)?;
    let (x, y, w, h) = (p.x0 as f64, p.y0 as f64, p.width as f64, p.height as f64);
    c.ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
    c.ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(&scratch, 0.0, 0.0, w, h, x, y, w, h)?;
    c.unit_transform()
}
