//! A small software rasteriser for the shapes a chart has thousands of: dots (filled and/or
//! outlined circles) and solid lines (the links between one kernel's dots, roofs, the grid).
//!
//! Why: a 2D canvas without a GPU (headless Chromium, remote desktops, many laptops' fallback
//! path) spends a few microseconds per circle path; a hierarchical chart of 10,000 kernels
//! (30,000 dots) took ~130 ms to fill and stroke, against issue 8's 16 ms redraw budget.
//! Computing coverage here and handing the canvas one image per run of such shapes costs a
//! few milliseconds, and gives the same pixels in every browser. Text, arrows and dashed
//! lines stay vector: there are few of them, and the browser draws text best.
//!
//! It is not a second drawing path: the painter ([`super::paint`]) hands such runs to its
//! plotters backend's `ChartBackend::draw_run`, which draws them with plotters' elements by
//! default (SVG) and through this rasteriser on the app's canvas (measured: 135–314 ms with
//! plotters-canvas's per-shape calls, 14–18 ms with this; docs/PERFORMANCE.md).
//!
//! Anti-aliasing is a box filter. A circle pixel's coverage is its distance from the edge,
//! measured from the pixel's centre and clamped to [0, 1] (fill to radius `r`, then the
//! stroke band `r ± width/2` over it, as a canvas fills then strokes). A line pixel's coverage
//! is the overlap of the pixel with the line: along the major axis the part of the pixel
//! column the segment spans (so the segments of a polyline add up at their joint instead of
//! doubling it), across it the overlap with the line's cross-section (butt caps, as a canvas).
//! Compositing is source-over in premultiplied RGBA, computed front to back (`pixel::under`);
//! the result is converted, in place, to the straight alpha of a canvas `ImageData`.
//!
//! Speed (a redraw of 30,000 dots must fit in a frame): a dot is blitted from a cached
//! [`stamp`] (its coverage computed once per size, colours and quarter-pixel position), and a
//! mask of the pixels already opaque lets the front-to-back pass skip what earlier (nearer)
//! shapes hide ([`painter`]'s docs: most of a dense chart's blends). The image is drawn in one
//! pass over the shapes; drawing it 64 × 64 tiles at a time, so a tile's pixels stayed in
//! cache, was faster before the mask and is slower with it (docs/PERFORMANCE.md). The hot loops
//! are mostly plain index loops with no `f64::min`/`round` calls: the wasm build is optimised
//! for size (`opt-level = "z"`), which can leave those as function calls (the alpha conversion's
//! `chunks_exact_mut` and `zip` measured faster there than its index loop).
//!
//! Files: [`pixel`] (blending, alpha conversion, integer floor/ceiling), [`stamp`] (dots),
//! [`painter`] (the buffer and its opacity mask: blits and line segments).

mod painter;
mod pixel;
mod stamp;

use super::scene::Shape;
use painter::Painter;
use stamp::{Located, StampCache};

/// Straight-alpha RGBA pixels (row-major, like a canvas `ImageData`) covering device pixels
/// `x0 .. x0 + width`, `y0 .. y0 + height` of the canvas; transparent where nothing was drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pixmap {
    pub x0: u32,
    pub y0: u32,
    pub width: u32,
    pub height: u32,
    /// One pixel per `u32`: red in the low byte, alpha in the high one. In little-endian memory
    /// (wasm32's) these are an `ImageData`'s bytes, so the canvas can read them where they lie
    /// (`roofline_web::canvas::run`) instead of from a copy; [`Pixmap::rgba`] gives the bytes
    /// on any target.
    pub pixels: Vec<u32>,
}

impl Pixmap {
    /// The pixels as an `ImageData`'s bytes: R, G, B, A per pixel, row by row.
    pub fn rgba(&self) -> Vec<u8> {
        self.pixels.iter().flat_map(|p| p.to_le_bytes()).collect()
    }
}

/// Fewest consecutive [`rasterizable`] shapes worth an image: below this (legend swatches, a
/// chart of a few kernels) the canvas draws them as vectors, which costs less than the image.
pub const MIN_RASTER_RUN: usize = 16;

/// How a renderer draws a scene's shapes: consecutive ranges, each either rasterised into one
/// image ([`rasterize`]) or drawn shape by shape, in order. Covers every shape exactly once.
pub fn plan(shapes: &[Shape]) -> Vec<(std::ops::Range<usize>, bool)> {
    let mut out: Vec<(std::ops::Range<usize>, bool)> = Vec::new();
    let mut i = 0;
    while i < shapes.len() {
        let run = shapes[i..].iter().take_while(|s| rasterizable(s)).count();
        let (len, raster) = if run >= MIN_RASTER_RUN { (run, true) } else { (run.max(1), false) };
        match out.last_mut() {
            Some((r, false)) if !raster => r.end = i + len,
            _ => out.push((i..i + len, raster)),
        }
        i += len;
    }
    out
}

/// Whether [`rasterize`] draws this shape: circles and solid lines.
pub fn rasterizable(shape: &Shape) -> bool {
    matches!(shape, Shape::Circle { .. } | Shape::Line { dash: false, .. })
}

/// Draws `shapes` in order (source-over) at `scale` device pixels per CSS pixel, on a
/// transparent pixmap clipped to a `canvas_w` × `canvas_h` device-pixel canvas and cropped to
/// the shapes' extent. Shapes [`rasterizable`] says no to, and non-finite coordinates, are
/// skipped. `None` when nothing falls on the canvas. A renderer that draws again and again
/// keeps a [`Rasterizer`] instead, so the dots' stamps are made once.
pub fn rasterize(shapes: &[Shape], scale: f64, canvas_w: u32, canvas_h: u32) -> Option<Pixmap> {
    Rasterizer::default().rasterize(shapes, scale, canvas_w, canvas_h)
}

/// Stamps a [`Rasterizer`] keeps from one image to the next; past this many (a chart's dots
/// have a few dozen styles of 16 positions) it starts afresh, so a long session of charts,
/// zoom levels and device ratios keeps at most about this many (≤ 3 KB each).
const KEEP_STAMPS: usize = 1024;

/// [`rasterize`] for a renderer that draws many images: it keeps the dots' stamps between
/// them (a stamp depends on the dot's style and quarter-pixel position only, so a redraw after
/// a zoom or a pan finds them made). Measured in docs/PERFORMANCE.md.
#[derive(Default)]
pub struct Rasterizer {
    stamps: StampCache,
}

impl Rasterizer {
    /// See [`rasterize`]: the same pixels.
    pub fn rasterize(&mut self, shapes: &[Shape], scale: f64, canvas_w: u32, canvas_h: u32) -> Option<Pixmap> {
        let scale = if scale.is_finite() && scale > 0.0 { scale } else { 1.0 };
        if self.stamps.stamps.len() > KEEP_STAMPS {
            self.stamps = StampCache::default();
        }
        // Every shape's box first: their extent sizes the pixmap.
        let located: Vec<Option<Located>> = shapes.iter().map(|s| stamp::locate(s, scale)).collect();
        let mut e = [i64::MAX, i64::MAX, i64::MIN, i64::MIN];
        for b in located.iter().flatten().map(Located::bounds) {
            e = [e[0].min(b[0]), e[1].min(b[1]), e[2].max(b[2]), e[3].max(b[3])];
        }
        let (x0, y0, x1, y1) = (e[0].max(0), e[1].max(0), e[2].min(canvas_w as i64), e[3].min(canvas_h as i64));
        if !(x1 > x0 && y1 > y0) {
            return None;
        }
        let (width, height) = ((x1 - x0) as usize, (y1 - y0) as usize);
        let mut p = Painter::new([x0, y0], width, height);
        // Front to back (see `pixel::under`): the last shape first. A shape whose box is
        // already opaque is skipped before a dot's stamp is looked up or a line walked: in a
        // dense chart, most dots and many links are.
        for i in (0..shapes.len()).rev() {
            let (Some(s), Some(Some(at))) = (shapes.get(i), located.get(i)) else { continue };
            if p.covers(&at.bounds()) {
                continue;
            }
            let prep = self.stamps.prepare(s, at);
            p.shape(s, &prep, &self.stamps, scale);
        }
        Some(Pixmap { x0: x0 as u32, y0: y0 as u32, width: width as u32, height: height as u32, pixels: p.finish() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::scene::Color;

    const RED: Color = Color(255, 0, 0);
    const WHITE: Color = Color(255, 255, 255);

    fn at(p: &Pixmap, x: u32, y: u32) -> [u8; 4] {
        p.pixels[((y - p.y0) * p.width + (x - p.x0)) as usize].to_le_bytes()
    }

    fn dot(cx: f64, cy: f64, r: f64, fill: Option<Color>, stroke: Option<Color>, width: f64) -> Shape {
        Shape::Circle { cx, cy, r, fill, stroke, width }
    }

    fn line(points: Vec<(f64, f64)>, width: f64) -> Shape {
        Shape::Line { points, color: RED, width, dash: false }
    }

    #[test]
    fn filled_circle_covers_its_disc_and_no_more() {
        let p = rasterize(&[dot(10.5, 10.5, 4.0, Some(RED), None, 0.0)], 1.0, 100, 100).expect("on canvas");
        // Cropped to the dot's box plus one pixel of margin: 10.5 ± 5.
        assert_eq!((p.x0, p.y0, p.width, p.height), (5, 5, 11, 11));
        assert_eq!(at(&p, 10, 10), [255, 0, 0, 255], "centre");
        assert_eq!(at(&p, 7, 10), [255, 0, 0, 255], "pixel centre 3 from the centre");
        assert_eq!(at(&p, 5, 5)[3], 0, "corner of the box");
        // Pixel (14, 10): its centre is on the edge, 4 from the dot's centre → alpha ½.
        assert_eq!(at(&p, 14, 10), [255, 0, 0, 128]);
        assert_eq!(at(&p, 15, 10)[3], 0);
        // As an ImageData's bytes: R, G, B, A of pixel (14, 10), the box's row 5, column 9.
        let bytes = p.rgba();
        assert_eq!((bytes.len(), &bytes[(5 * 11 + 9) * 4..(5 * 11 + 10) * 4]), (11 * 11 * 4, &[255, 0, 0, 128][..]));
        // Coverage sums to the disc's area, π r², within the box filter's error.
        let area: f64 = p.pixels.iter().map(|px| (px >> 24) as f64 / 255.0).sum();
        assert!((area - std::f64::consts::PI * 16.0).abs() < 1.0, "{area}");
    }

    #[test]
    fn outline_is_drawn_over_the_fill() {
        // A red dot of radius 5 with a 1 px white outline: the band 4.5..5.5 is white.
        let p = rasterize(&[dot(20.5, 20.5, 5.0, Some(RED), Some(WHITE), 1.0)], 1.0, 40, 40).expect("on canvas");
        assert_eq!(at(&p, 20, 20), [255, 0, 0, 255]);
        assert_eq!(at(&p, 24, 20), [255, 0, 0, 255], "4 from the centre: inside the band");
        assert_eq!(at(&p, 25, 20), [255, 255, 255, 255], "5 from the centre: on the outline");
        assert_eq!(at(&p, 26, 20)[3], 0, "6 from the centre: outside");
        // Off-axis, half-way into the band: the outline's white over the fill's red.
        let edge = at(&p, 24, 22);
        assert_eq!(edge[3], 255);
        assert!(edge[0] == 255 && edge[1] > 0 && edge[1] < 255, "{edge:?}");
    }

    #[test]
    fn open_ring_leaves_its_centre_empty() {
        let p = rasterize(&[dot(20.5, 20.5, 6.0, None, Some(RED), 2.0)], 1.0, 40, 40).expect("on canvas");
        assert_eq!(at(&p, 20, 20)[3], 0);
        assert_eq!(at(&p, 26, 20), [255, 0, 0, 255], "6 from the centre: in the band 5..7");
    }

    #[test]
    fn horizontal_line_on_a_pixel_row_is_one_row() {
        let p = rasterize(&[line(vec![(2.0, 10.5), (12.0, 10.5)], 1.0)], 1.0, 50, 50).expect("on canvas");
        for x in 2..12 {
            assert_eq!(at(&p, x, 10), [255, 0, 0, 255], "x {x}");
            assert_eq!(at(&p, x, 9)[3], 0);
            assert_eq!(at(&p, x, 11)[3], 0);
        }
        assert_eq!(at(&p, 12, 10)[3], 0, "butt end");
        // Ends within a pixel: coverage is the part of the column the line spans.
        let p = rasterize(&[line(vec![(2.25, 10.5), (9.5, 10.5)], 1.0)], 1.0, 50, 50).expect("on canvas");
        assert_eq!((at(&p, 2, 10)[3], at(&p, 5, 10)[3], at(&p, 9, 10)[3]), (191, 255, 128));
        let p = rasterize(&[line(vec![(2.25, 10.5), (2.75, 10.5)], 1.0)], 1.0, 50, 50).expect("on canvas");
        assert_eq!((at(&p, 2, 10)[3], at(&p, 3, 10)[3]), (128, 0), "shorter than a pixel");
    }

    #[test]
    fn line_between_rows_splits_its_coverage_and_joints_do_not_double() {
        // y = 10: the 1 px line covers half of row 9 and half of row 10.
        let p = rasterize(&[line(vec![(2.0, 10.0), (6.5, 10.0), (12.0, 10.0)], 1.0)], 1.0, 50, 50).expect("on canvas");
        assert_eq!(at(&p, 4, 9), [255, 0, 0, 128]);
        assert_eq!(at(&p, 4, 10), [255, 0, 0, 128]);
        // The joint at x = 6.5 is covered half by each segment: 1 − (1 − ¼)² ≈ 0.44 of alpha,
        // close to the ½ of the rest of the line, not the 0.75 of blending two full halves.
        let joint = at(&p, 6, 10)[3];
        assert!((100..=128).contains(&joint), "{joint}");
    }

    #[test]
    fn steep_and_diagonal_lines() {
        let p = rasterize(&[line(vec![(10.5, 2.0), (10.5, 20.0)], 1.0)], 1.0, 50, 50).expect("on canvas");
        assert_eq!(at(&p, 10, 5), [255, 0, 0, 255]);
        assert_eq!(at(&p, 9, 5)[3], 0);
        // A 45° line through pixel centres: each column holds ~√2 px of line across.
        let d = rasterize(&[line(vec![(0.0, 0.0), (20.0, 20.0)], 1.0)], 1.0, 50, 50).expect("on canvas");
        assert_eq!(at(&d, 8, 8), [255, 0, 0, 255]);
        let column: u32 = (0..20).map(|y| at(&d, 8, y)[3] as u32).sum();
        assert!((column as f64 / 255.0 - 2f64.sqrt()).abs() < 0.05, "{column}");
    }

    #[test]
    fn scale_clipping_and_order() {
        // At 2×, a radius-2 dot at (5.25, 5.25) has device radius 4 at (10.5, 10.5).
        let p = rasterize(&[dot(5.25, 5.25, 2.0, Some(RED), None, 0.0)], 2.0, 100, 100).expect("on canvas");
        assert_eq!(at(&p, 10, 10), [255, 0, 0, 255]);
        assert_eq!(at(&p, 14, 10), [255, 0, 0, 128]);
        // Clipped to the canvas: a dot straddling the corner keeps only its on-canvas part.
        let c = rasterize(&[dot(0.0, 0.0, 3.0, Some(RED), None, 0.0)], 1.0, 10, 10).expect("on canvas");
        assert_eq!((c.x0, c.y0, c.width, c.height), (0, 0, 5, 5));
        assert!(rasterize(&[dot(-50.0, -50.0, 3.0, Some(RED), None, 0.0)], 1.0, 10, 10).is_none());
        // Later shapes cover earlier ones.
        let o = rasterize(&[dot(10.0, 10.0, 4.0, Some(RED), None, 0.0), dot(10.0, 10.0, 2.0, Some(WHITE), None, 0.0)], 1.0, 40, 40).expect("on canvas");
        assert_eq!(at(&o, 10, 10), [255, 255, 255, 255]);
    }

    #[test]
    fn skipping_opaque_pixels_changes_no_pixel() {
        // 2,000 overlapping dots of three styles and sizes (some wider than a word of the mask,
        // some across the pixmap's edge) and 300 lines (level, steep, slanted), at a fractional
        // scale: drawn with the mask, and visiting every pixel.
        let mut next = crate::chart::test_rng::uniform(0x9E37_79B9_7F4A_7C15);
        let colors = [RED, WHITE, Color(0, 114, 178)];
        let mut shapes = Vec::new();
        for i in 0..2300 {
            let (x, y) = (next() * 300.0, next() * 200.0);
            shapes.push(if i % 8 == 7 {
                let (dx, dy) = match i % 3 {
                    0 => (next() * 150.0, 0.0),
                    1 => (0.0, next() * 90.0),
                    _ => (next() * 60.0 - 30.0, next() * 60.0 - 30.0),
                };
                Shape::Line { points: vec![(x, y), (x + dx, y + dy), (x + 2.0 * dx, y)], color: colors[i % 3], width: 1.0 + (i % 2) as f64, dash: false }
            } else {
                let c = colors[i % 3];
                let r = if i % 97 == 0 { 30.0 } else { 2.0 + 9.0 * next() };
                dot(x, y, r, Some(c), Some(if i % 5 == 0 { RED } else { c }), 1.0 + (i % 2) as f64)
            });
        }
        let scale = 1.5;
        let drawn = rasterize(&shapes, scale, 420, 280).expect("on canvas");
        let (w, h) = (drawn.width as usize, drawn.height as usize);
        assert_eq!((drawn.x0, drawn.y0, w, h), (0, 0, 420, 280), "clipped to the canvas on every side");
        let mut every = Painter::new([0, 0], w, h).visiting_every_pixel();
        let mut stamps = StampCache::default();
        let prepared: Vec<_> = shapes.iter().map(|s| stamp::locate(s, scale).map_or(stamp::Prepared::Nothing, |at| stamps.prepare(s, &at))).collect();
        assert!(stamps.stamps.iter().any(|s| s.size > 64) && stamps.stamps.iter().any(|s| s.size <= 64));
        for (s, prep) in shapes.iter().zip(&prepared).rev() {
            every.shape(s, prep, &stamps, scale);
        }
        let every = every.finish();
        assert!(every.iter().filter(|&&px| px >> 24 == 255).count() > w * h / 2, "most pixels covered");
        assert!(every == drawn.pixels, "the mask changed pixels");
    }

    #[test]
    fn a_kept_rasterizer_draws_what_a_fresh_one_draws() {
        // Four images of 300 overlapping dots in three styles, moved and at other scales as a
        // zoom or a device ratio would: one rasterizer drawing them in turn (its stamps kept)
        // gives each the pixels a fresh one gives.
        let colors = [RED, WHITE, Color(0, 114, 178)];
        let mut kept = Rasterizer::default();
        for (k, scale) in [(0, 1.0), (1, 1.5), (2, 1.0), (3, 2.0)] {
            let shapes: Vec<Shape> = (0..300)
                .map(|i| {
                    let (x, y) = (((i * 37 + k * 11) % 290) as f64 * 0.61 + 5.0, ((i * 53 + k * 7) % 170) as f64 * 0.83 + 5.0);
                    dot(x, y, 2.0 + (i % 4) as f64 * 1.25, Some(colors[i % 3]), Some(colors[(i + k) % 3]), 1.0)
                })
                .collect();
            let fresh = rasterize(&shapes, scale, 400, 300);
            assert!(fresh.is_some());
            assert_eq!(kept.rasterize(&shapes, scale, 400, 300), fresh, "image {k}");
        }
        assert!(!kept.stamps.stamps.is_empty());
        // Past KEEP_STAMPS (1,100 colours, a style each, apart so none hides another), the
        // next image starts afresh.
        let many: Vec<Shape> = (0..1100).map(|i| dot(6.0 + (i % 36) as f64 * 11.0, 6.0 + (i / 36) as f64 * 9.5, 3.0, Some(Color((i % 256) as u8, (i / 256) as u8, 9)), None, 0.0)).collect();
        assert_eq!(kept.rasterize(&many, 1.0, 410, 310), rasterize(&many, 1.0, 410, 310));
        assert!(kept.stamps.stamps.len() > KEEP_STAMPS);
        let one = [dot(10.5, 10.5, 4.0, Some(RED), None, 0.0)];
        assert_eq!(kept.rasterize(&one, 1.0, 40, 40), rasterize(&one, 1.0, 40, 40));
        assert_eq!(kept.stamps.stamps.len(), 1, "started afresh");
    }

    #[test]
    fn plan_rasterises_long_runs_only() {
        let d = || dot(1.0, 1.0, 1.0, Some(RED), None, 0.0);
        let text = || Shape::Text { x: 1.0, y: 1.0, text: "t".into(), color: RED, size: 12.0, anchor: super::super::Anchor::Start, rotate_deg: 0.0 };
        let mut shapes = vec![d(), text(), d()];
        shapes.extend((0..MIN_RASTER_RUN).map(|_| d()));
        shapes.push(text());
        let n = shapes.len();
        assert_eq!(plan(&shapes), vec![(0..2, false), (2..2 + MIN_RASTER_RUN + 1, true), (n - 1..n, false)]);
        assert_eq!(plan(&[]), vec![]);
    }

    #[test]
    fn skips_what_it_cannot_draw() {
        let text = Shape::Text { x: 1.0, y: 1.0, text: "t".into(), color: RED, size: 12.0, anchor: super::super::Anchor::Start, rotate_deg: 0.0 };
        let dashed = Shape::Line { points: vec![(0.0, 0.0), (9.0, 0.0)], color: RED, width: 1.0, dash: true };
        assert!(!rasterizable(&text) && !rasterizable(&dashed) && rasterizable(&line(vec![], 1.0)));
        assert_eq!(rasterize(&[text, dashed], 1.0, 10, 10), None);
        let bad = [dot(f64::NAN, 1.0, 3.0, Some(RED), None, 0.0), line(vec![(1.0, f64::INFINITY), (2.0, 2.0)], 1.0)];
        assert_eq!(rasterize(&bad, 1.0, 10, 10).map(|p| p.pixels.iter().any(|&v| v != 0)), Some(false));
    }
}
