//! The chart's last exact image, kept to draw a gesture's frames from (engine
//! `chart::preview`: why, and which parts move how). One copy of the canvas, at its device
//! pixels, taken after an exact paint; a frame draws three of its parts moved, each over the
//! chart's background within its band, with the browser's image scaling.

use roofline_engine::chart::preview::Preview;
use roofline_engine::chart::{Scene, Zoom};
use wasm_bindgen::JsValue;
use web_sys::HtmlCanvasElement;

/// A copy of the chart's canvas and what was drawn on it.
pub struct Snapshot {
    image: HtmlCanvasElement,
    /// The scene's size, CSS pixels, and device pixels per CSS pixel.
    size: (f64, f64),
    dpr: f64,
    plot: [f64; 4],
    ranges: Zoom,
    background: String,
}

impl Snapshot {
    /// Copies `canvas`, just painted with `scene`, into `reuse`'s image when there is one (a
    /// canvas of the same size is not allocated again) or into a new one.
    pub fn take(canvas: &HtmlCanvasElement, scene: &Scene, reuse: Option<Snapshot>) -> Result<Snapshot, JsValue> {
        let image = match reuse {
            Some(s) => s.image,
            None => super::offscreen_canvas()?,
        };
        if image.width() != canvas.width() || image.height() != canvas.height() {
            image.set_width(canvas.width());
            image.set_height(canvas.height());
        }
        // The chart is opaque (its background is filled first), so drawing it over the old
        // image replaces every pixel.
        let ctx = super::context_2d(&image)?;
        ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
        ctx.draw_image_with_html_canvas_element(canvas, 0.0, 0.0)?;
        let dpr = if scene.width > 0.0 { f64::from(canvas.width()) / scene.width } else { 1.0 };
        Ok(Snapshot {
            image,
            size: (scene.width, scene.height),
            dpr,
            plot: scene.plot,
            ranges: scene.ranges(),
            background: scene.background.css(),
        })
    }

    /// The move that shows `to` from this image on a chart of `size`, when it is near enough
    /// ([`Preview::between`]) and the chart has not changed size.
    pub fn preview(&self, size: (f64, f64), to: Zoom) -> Option<Preview> {
        (size == self.size).then(|| Preview::between(self.plot, self.ranges, to)).flatten()
    }

    /// Draws `preview` on `canvas` (the canvas this image was taken from, at the same size).
    pub fn draw(&self, canvas: &HtmlCanvasElement, preview: &Preview) -> Result<(), JsValue> {
        let ctx = super::context_2d(canvas)?;
        let d = self.dpr;
        ctx.save();
        let drawn = (|| -> Result<(), JsValue> {
            ctx.set_transform(d, 0.0, 0.0, d, 0.0, 0.0)?;
            ctx.set_fill_style_str(&self.background);
            for band in preview.bands(self.size.0) {
                let c = band.clip;
                ctx.fill_rect(c[0], c[1], c[2] - c[0], c[3] - c[1]);
                if let Some((s, t)) = band.visible() {
                    ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(
                        &self.image,
                        s[0] * d,
                        s[1] * d,
                        (s[2] - s[0]) * d,
                        (s[3] - s[1]) * d,
                        t[0],
                        t[1],
                        t[2] - t[0],
                        t[3] - t[1],
                    )?;
                }
            }
            Ok(())
        })();
        ctx.restore();
        drawn
    }
}
