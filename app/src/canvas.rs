//! Paints an engine `Scene` on a 2D canvas, sharp on HiDPI screens: the backing store is
//! scaled by `devicePixelRatio` and the context transformed so the scene stays in CSS pixels.
//!
//! Long runs of dots and solid lines (thousands in a big chart) are rasterised by the engine
//! (`chart::raster`) into one image each and composited in order; the rest (text, arrows,
//! dashed lines, short runs) is drawn as vectors. See `raster`'s docs for why.

use roofline_engine::chart::raster::{self, Pixmap};
use roofline_engine::chart::{arrow_geometry, Anchor, Scene, Shape};
use std::cell::RefCell;
use wasm_bindgen::{Clamped, JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

const FONT_FAMILY: &str = "system-ui, -apple-system, 'Segoe UI', sans-serif";

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
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d context"))?
        .dyn_into()?;
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)?;
    ctx.set_fill_style_str(&scene.background.css());
    ctx.fill_rect(0.0, 0.0, scene.width, scene.height);
    for (range, rasterise) in raster::plan(&scene.shapes) {
        let shapes = &scene.shapes[range];
        if rasterise {
            crate::perf::mark("roofline:raster-start");
            let pixmap = raster::rasterize(shapes, dpr, w, h);
            crate::perf::measure("roofline:raster", "roofline:raster-start");
            if let Some(p) = pixmap {
                composite(&ctx, &p, dpr)?;
            }
            continue;
        }
        let mut i = 0;
        while i < shapes.len() {
            // Runs of dots with the same style are one path: one fill and one stroke.
            let run = circle_run(&shapes[i..]);
            if run > 0 {
                draw_circles(&ctx, &shapes[i..i + run])?;
                i += run;
            } else {
                draw(&ctx, &shapes[i])?;
                i += 1;
            }
        }
    }
    Ok(())
}

thread_local! {
    /// The scratch canvas images pass through (`putImageData` replaces pixels; drawing the
    /// scratch canvas composites them over what is already drawn). Kept between paints.
    static SCRATCH: RefCell<Option<HtmlCanvasElement>> = const { RefCell::new(None) };
}

/// Draws a rasterised run over the canvas at its device-pixel position.
fn composite(ctx: &CanvasRenderingContext2d, p: &Pixmap, dpr: f64) -> Result<(), JsValue> {
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(&p.rgba), p.width, p.height)?;
    let scratch = SCRATCH.with(|s| -> Result<HtmlCanvasElement, JsValue> {
        if let Some(c) = s.borrow().as_ref() {
            return Ok(c.clone());
        }
        let doc = web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no document"))?;
        let c: HtmlCanvasElement = doc.create_element("canvas")?.dyn_into()?;
        *s.borrow_mut() = Some(c.clone());
        Ok(c)
    })?;
    // Grow only: resizing clears the canvas, and only the image's rectangle is read back.
    if scratch.width() < p.width || scratch.height() < p.height {
        scratch.set_width(scratch.width().max(p.width));
        scratch.set_height(scratch.height().max(p.height));
    }
    let sctx: CanvasRenderingContext2d = scratch.get_context("2d")?.ok_or_else(|| JsValue::from_str("no 2d context"))?.dyn_into()?;
    sctx.put_image_data(&image, 0.0, 0.0)?;
    let (x, y, w, h) = (p.x0 as f64, p.y0 as f64, p.width as f64, p.height as f64);
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)?;
    ctx.draw_image_with_html_canvas_element_and_sw_and_sh_and_dx_and_dy_and_dw_and_dh(&scratch, 0.0, 0.0, w, h, x, y, w, h)?;
    ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)
}

/// How many shapes from the start are circles styled like the first one.
fn circle_run(shapes: &[Shape]) -> usize {
    let Some(Shape::Circle { fill, stroke, width, .. }) = shapes.first() else { return 0 };
    shapes
        .iter()
        .take_while(|s| matches!(s, Shape::Circle { fill: f, stroke: st, width: w, .. } if f == fill && st == stroke && w == width))
        .count()
}

/// Draws circles of one style as a single path (see `circle_run`).
fn draw_circles(ctx: &CanvasRenderingContext2d, circles: &[Shape]) -> Result<(), JsValue> {
    let Some(Shape::Circle { fill, stroke, width, .. }) = circles.first() else { return Ok(()) };
    ctx.begin_path();
    for c in circles {
        if let Shape::Circle { cx, cy, r, .. } = c {
            ctx.move_to(cx + r, *cy);
            ctx.arc(*cx, *cy, *r, 0.0, std::f64::consts::TAU)?;
        }
    }
    if let Some(c) = fill {
        ctx.set_fill_style_str(&c.css());
        ctx.fill();
    }
    if let Some(c) = stroke {
        ctx.set_line_dash(&js_sys::Array::new())?;
        ctx.set_line_width(*width);
        ctx.set_stroke_style_str(&c.css());
        ctx.stroke();
    }
    Ok(())
}

fn draw(ctx: &CanvasRenderingContext2d, shape: &Shape) -> Result<(), JsValue> {
    match shape {
        Shape::Line { points, color, width, dash } => {
            let Some(&(x0, y0)) = points.first() else { return Ok(()) };
            ctx.begin_path();
            ctx.move_to(x0, y0);
            for &(x, y) in &points[1..] {
                ctx.line_to(x, y);
            }
            let pattern = js_sys::Array::new();
            if *dash {
                pattern.push(&JsValue::from_f64(4.0));
                pattern.push(&JsValue::from_f64(3.0));
            }
            ctx.set_line_dash(&pattern)?;
            ctx.set_line_width(*width);
            ctx.set_stroke_style_str(&color.css());
            ctx.stroke();
        }
        Shape::Circle { .. } => draw_circles(ctx, std::slice::from_ref(shape))?,
        Shape::Text { x, y, text, color, size, anchor, rotate_deg } => {
            ctx.save();
            ctx.translate(*x, *y)?;
            if *rotate_deg != 0.0 {
                ctx.rotate(rotate_deg.to_radians())?;
            }
            ctx.set_font(&format!("{size}px {FONT_FAMILY}"));
            ctx.set_text_align(match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "center",
                Anchor::End => "end",
            });
            ctx.set_text_baseline("alphabetic");
            ctx.set_fill_style_str(&color.css());
            ctx.fill_text(text, 0.0, 0.0)?;
            ctx.restore();
        }
        Shape::Arrow { from, to, color, width, trim } => {
            // The shaft stops at the head's base, so a wide line does not poke past the tip.
            let Some(g) = arrow_geometry(*from, *to, *width, *trim) else { return Ok(()) };
            ctx.begin_path();
            ctx.move_to(g.start.0, g.start.1);
            ctx.line_to(g.base.0, g.base.1);
            ctx.set_line_dash(&js_sys::Array::new())?;
            ctx.set_line_width(*width);
            ctx.set_stroke_style_str(&color.css());
            ctx.stroke();
            let [tip, a, b] = g.head;
            ctx.begin_path();
            ctx.move_to(tip.0, tip.1);
            ctx.line_to(a.0, a.1);
            ctx.line_to(b.0, b.1);
            ctx.close_path();
            ctx.set_fill_style_str(&color.css());
            ctx.fill();
        }
    }
    Ok(())
}
