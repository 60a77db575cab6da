//! The frame every chart shares: layout (legend strip, plot area, margins), log axes with
//! their grid, ticks and titles, and the [`Builder`] a mode draws into.
//!
//! Drawing order is fixed by layers so modes can add things in any order: grid, then ceilings
//! and walls (`under`), then dots (`marks`), then text (`over`). Text is only ever added
//! through the [`Placer`], after the dots, so no label covers a dot or another label.

use super::labels::{shape_boxes, text_box, Box2, Placer};
use super::scale::{decade_range, tick_label, LogMap, LogMemo, LogScale};
use super::scene::{Anchor, Color, Hit, Palette, RoofKey, Scene, Shape};
use super::strip::{StripAxis, STRIP_PX};
use super::ChartInput;

/// Text size of labels and ticks, CSS pixels.
pub const FONT_PX: f64 = 12.0;
/// Legend text size.
pub const LEGEND_PX: f64 = 11.0;
/// Margins left, right, bottom: room for tick labels and axis titles.
const MARGIN: [f64; 3] = [64.0, 20.0, 46.0];
const LEGEND_ROW_PX: f64 = 16.0;
/// Between the legend strip and the plot: more than the largest dot radius plus selection
/// ring, so a dot on the plot's top edge never reaches the legend.
const LEGEND_GAP_PX: f64 = 18.0;
/// Smallest and largest chart drawn; other requests (or NaN) are drawn at these sizes.
const MIN_SIZE_PX: [f64; 2] = [240.0, 180.0];
const MAX_SIZE_PX: f64 = 20_000.0;

/// What a legend entry shows before its text.
#[derive(Clone, Debug, PartialEq)]
pub enum Swatch {
    Dot(Color),
    Open(Color),
    Line(Color, bool),
    /// Two grey dots, small and large: dot size encodes time share.
    Sizes,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LegendItem {
    pub swatch: Swatch,
    pub text: String,
}

impl LegendItem {
    pub fn new(swatch: Swatch, text: impl Into<String>) -> Self {
        LegendItem { swatch, text: text.into() }
    }

    /// The entry every chart with time-sized dots carries (GPU course and NERSC charts size
    /// dots by run time so the kernels that matter stand out).
    pub fn sizes() -> Self {
        LegendItem::new(Swatch::Sizes, "dot area ∝ share of run time")
    }
}

/// Axis titles, with units, and the factor tick values are divided by (1e9: GFLOP/s, GIPS).
pub struct Axes<'t> {
    pub x_title: &'t str,
    pub y_title: &'t str,
    pub x_div: f64,
    pub y_div: f64,
}

/// A range is usable on a log axis when both ends are finite, positive and increasing.
pub fn valid_range(r: [f64; 2]) -> bool {
    r[0].is_finite() && r[1].is_finite() && r[0] > 0.0 && r[1] > r[0]
}

/// The auto range of some values: whole decades with `pad` decades of margin; values that
/// are not finite and positive are ignored.
pub fn auto_range(values: impl IntoIterator<Item = f64>, pad: f64) -> [f64; 2] {
    let (lo, hi) = values.into_iter().filter(|v| v.is_finite() && *v > 0.0).fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    decade_range(lo, hi, pad)
}

/// Room kept for shapes and taken boxes added after `n` dots ([`Builder::reserve_dots`]):
/// rings of the selected kernel's dots, roofs, ridge marks, label boxes (a slanted label is a
/// box per glyph-sized piece; a chart has hundreds of them). In proportion, so a small chart
/// does not reserve what only a large one needs; for a small one, growing is cheap.
fn after_dots(n: usize) -> usize {
    n.saturating_add(n / 16).saturating_add(64)
}

/// A scene under construction.
pub struct Builder {
    pub pal: Palette,
    pub width: f64,
    pub height: f64,
    pub plot: [f64; 4],
    /// The axes, fixed by [`Builder::new`] (the cached maps below are made from them).
    pub x: LogScale,
    pub y: LogScale,
    /// `x` and `y` with their logarithms taken once: [`Builder::px`] maps every dot.
    xm: LogMap,
    ym: LogMap,
    /// The same maps remembering their last few values, for [`Builder::dot_px`].
    x_memo: LogMemo,
    y_memo: LogMemo,
    pub grid: Vec<Shape>,
    pub under: Vec<Shape>,
    pub marks: Vec<Shape>,
    pub over: Vec<Shape>,
    pub hits: Vec<Hit>,
    pub placer: Placer,
    /// The band under the x-axis title reserved for the bandwidth strip, and its axis once
    /// drawn ([`super::strip`]).
    pub strip_band: Option<Box2>,
    pub strip_axis: Option<StripAxis>,
    /// Every roof drawn and the label placed for it ([`super::roofs`]), for the scene.
    pub roofs: Vec<RoofKey>,
    /// Roofs labelled by a number, with their full label and colour: the key drawn by
    /// [`Builder::finish`].
    pub keys: Vec<(String, Color)>,
}

impl Builder {
    /// Lays out a chart: the legend strip on top, the plot below it, axes from `input.zoom`
    /// where it is valid, else from the automatic ranges.
    pub fn new(input: &ChartInput, x_auto: [f64; 2], y_auto: [f64; 2], legend: &[LegendItem]) -> Builder {
        Builder::with_strip(input, x_auto, y_auto, legend, false)
    }

    /// [`Builder::new`], with room for the bandwidth strip under the plot when `strip` is set
    /// (the plot is [`STRIP_PX`] shorter).
    pub fn with_strip(input: &ChartInput, x_auto: [f64; 2], y_auto: [f64; 2], legend: &[LegendItem], strip: bool) -> Builder {
        let pal = input.theme.palette();
        let size = |v: f64, min: f64| if v.is_finite() { v.clamp(min, MAX_SIZE_PX) } else { min };
        let (width, height) = (size(input.width, MIN_SIZE_PX[0]), size(input.height, MIN_SIZE_PX[1]));
        let (left, right) = (MARGIN[0], width - MARGIN[1]);
        let (rows, legend_shapes) = legend_layout(legend, left, right, &pal);
        let top = 6.0 + rows as f64 * LEGEND_ROW_PX + if rows > 0 { LEGEND_GAP_PX } else { 10.0 };
        let bottom = height - MARGIN[2] - if strip { STRIP_PX } else { 0.0 };
        // A chart too short for a strip keeps at least a plot of its minimum height.
        let bottom = bottom.max(top + MIN_SIZE_PX[1] / 2.0);
        let plot = [left, top, right, bottom];
        let strip_band = strip.then_some([left, bottom + MARGIN[2], right, height]);
        let pick = |zoom: Option<[f64; 2]>, auto: [f64; 2]| match zoom {
            Some(z) if valid_range(z) => z,
            _ if valid_range(auto) => auto,
            _ => [1.0, 10.0],
        };
        let xr = pick(input.zoom.map(|z| z.x), x_auto);
        let yr = pick(input.zoom.map(|z| z.y), y_auto);
        let x = LogScale { min: xr[0], max: xr[1], px0: plot[0], px1: plot[2] };
        let y = LogScale { min: yr[0], max: yr[1], px0: plot[3], px1: plot[1] };
        let mut placer = Placer::new(plot);
        for b in legend_shapes.iter().flat_map(shape_boxes) {
            placer.occupy(b);
        }
        let (xm, ym) = (x.map(), y.map());
        let (x_memo, y_memo) = (LogMemo::new(xm), LogMemo::new(ym));
        Builder { pal, width, height, plot, x, y, xm, ym, x_memo, y_memo, grid: Vec::new(), under: Vec::new(), marks: Vec::new(), over: legend_shapes, hits: Vec::new(), placer, strip_band, strip_axis: None, roofs: Vec::new(), keys: Vec::new() }
    }

    /// Room for `dots` more dots and `links` link lines, so tens of thousands of dots do not
    /// grow and copy the shape, hit and taken-box vectors over and over. What is drawn after
    /// the dots (the selected dots' rings, ceilings, labels) has room too ([`after_dots`]): a
    /// vector that outgrew its room at the very end would copy every dot once more.
    pub fn reserve_dots(&mut self, dots: usize, links: usize) {
        self.marks.reserve(after_dots(dots));
        self.hits.reserve(dots);
        self.placer.reserve(after_dots(dots));
        self.under.reserve(after_dots(links));
    }

    /// Data → pixels, `None` unless both values are finite and positive (log axes).
    pub fn px(&self, xv: f64, yv: f64) -> Option<(f64, f64)> {
        (xv.is_finite() && yv.is_finite() && xv > 0.0 && yv > 0.0).then(|| (self.xm.to_px(xv), self.ym.to_px(yv)))
    }

    /// [`Builder::dot_px`] of values whose `log10`s are `(lx, ly)`: the same pixels and the
    /// same `None` (a value is finite and positive exactly when its `log10` is finite).
    pub fn log_px(&self, lx: f64, ly: f64) -> Option<(f64, f64)> {
        (lx.is_finite() && ly.is_finite()).then(|| (self.xm.log_to_px(lx), self.ym.log_to_px(ly)))
    }

    /// [`Builder::px`] remembering the last few values mapped on each axis ([`LogMemo`]): a
    /// kernel's dots repeat their y (hierarchical: one FLOP/s at every level) or x (a thread
    /// dot under its warp dot). The same pixels as [`Builder::px`].
    pub fn dot_px(&mut self, xv: f64, yv: f64) -> Option<(f64, f64)> {
        (xv.is_finite() && yv.is_finite() && xv > 0.0 && yv > 0.0).then(|| (self.x_memo.to_px(xv), self.y_memo.to_px(yv)))
    }

    /// Whether a pixel lies in the plot area (1 px tolerance for rounding at the edges).
    pub fn in_plot(&self, (px, py): (f64, f64)) -> bool {
        let p = self.plot;
        (p[0] - 1.0..=p[2] + 1.0).contains(&px) && (p[1] - 1.0..=p[3] + 1.0).contains(&py)
    }

    /// Places a text at the first free candidate `(x, y, anchor, rotation°)` inside the plot;
    /// false (and nothing drawn) when none is free.
    pub fn label(&mut self, candidates: &[(f64, f64, Anchor, f64)], text: &str, color: Color, size: f64) -> bool {
        self.label_in(self.plot, candidates, text, color, size)
    }

    /// [`Builder::label`] within other bounds (ticks and titles live in the margins).
    pub fn label_in(&mut self, bounds: Box2, candidates: &[(f64, f64, Anchor, f64)], text: &str, color: Color, size: f64) -> bool {
        let shapes: Vec<Shape> = candidates
            .iter()
            .map(|&(x, y, anchor, rotate_deg)| Shape::Text { x, y, text: text.to_string(), color, size, anchor, rotate_deg })
            .collect();
        let boxes: Vec<Vec<Box2>> = shapes.iter().map(shape_boxes).collect();
        match self.placer.place_pieces_in(bounds, &boxes) {
            Some(i) => {
                self.over.push(shapes[i].clone());
                true
            }
            None => false,
        }
    }

    /// Grid lines, tick labels and axis titles. Call after the dots, so tick labels avoid a
    /// dot that pokes out of the plot area.
    pub fn axes(&mut self, a: &Axes) {
        let (p, whole) = (self.plot, [0.0, 0.0, self.width, self.height]);
        let (grid, text) = (self.pal.grid, self.pal.text);
        for t in self.x.ticks() {
            let px = self.x.to_px(t);
            self.grid.push(Shape::Line { points: vec![(px, p[1]), (px, p[3])], color: grid, width: 1.0, dash: false });
            self.label_in(whole, &[(px, p[3] + 16.0, Anchor::Middle, 0.0)], &tick_label(t / a.x_div), text, FONT_PX);
        }
        for t in self.y.ticks() {
            let py = self.y.to_px(t);
            self.grid.push(Shape::Line { points: vec![(p[0], py), (p[2], py)], color: grid, width: 1.0, dash: false });
            self.label_in(whole, &[(p[0] - 6.0, py + 4.0, Anchor::End, 0.0)], &tick_label(t / a.y_div), text, FONT_PX);
        }
        let frame = vec![(p[0], p[1]), (p[2], p[1]), (p[2], p[3]), (p[0], p[3]), (p[0], p[1])];
        self.grid.push(Shape::Line { points: frame, color: self.pal.axis, width: 1.0, dash: false });
        self.label_in(whole, &[((p[0] + p[2]) / 2.0, p[3] + 36.0, Anchor::Middle, 0.0)], a.x_title, text, FONT_PX);
        self.label_in(whole, &[(16.0, (p[1] + p[3]) / 2.0, Anchor::Middle, -90.0)], a.y_title, text, FONT_PX);
    }

    /// The scene: layers in drawing order, in one vector allocated once.
    pub fn finish(mut self) -> Scene {
        self.draw_keys();
        let mut shapes = Vec::with_capacity(self.grid.len() + self.under.len() + self.marks.len() + self.over.len());
        shapes.extend(self.grid);
        shapes.extend(self.under);
        shapes.extend(self.marks);
        shapes.extend(self.over);
        let mut scene = Scene::new(self.width, self.height, self.pal.background, shapes, self.hits, self.plot, self.x, self.y);
        scene.strip = self.strip_axis;
        scene.roofs = self.roofs;
        scene
    }
}

/// Legend entries in rows from `left`, wrapping before `right`: the number of rows and the
/// shapes (swatch, then text, per entry).
fn legend_layout(items: &[LegendItem], left: f64, right: f64, pal: &Palette) -> (usize, Vec<Shape>) {
    let mut shapes = Vec::new();
    let (mut x, mut row) = (left, 0usize);
    for item in items {
        let swatch_w = if item.swatch == Swatch::Sizes { 22.0 } else { 14.0 };
        let text_w = text_box(0.0, 0.0, &item.text, LEGEND_PX, Anchor::Start)[2];
        let w = swatch_w + 4.0 + text_w;
        if x > left && x + w > right {
            x = left;
            row += 1;
        }
        let base = 6.0 + row as f64 * LEGEND_ROW_PX + 11.0;
        let mid = base - 4.0;
        match item.swatch {
            Swatch::Dot(c) => shapes.push(Shape::Circle { cx: x + 5.0, cy: mid, r: 4.5, fill: Some(c), stroke: None, width: 0.0 }),
            Swatch::Open(c) => shapes.push(Shape::Circle { cx: x + 5.0, cy: mid, r: 4.0, fill: None, stroke: Some(c), width: 2.0 }),
            Swatch::Line(c, dash) => shapes.push(Shape::Line { points: vec![(x, mid), (x + swatch_w, mid)], color: c, width: 2.0, dash }),
            Swatch::Sizes => {
                shapes.push(Shape::Circle { cx: x + 3.0, cy: mid, r: 2.5, fill: Some(pal.link), stroke: None, width: 0.0 });
                shapes.push(Shape::Circle { cx: x + 14.0, cy: mid, r: 6.0, fill: Some(pal.link), stroke: None, width: 0.0 });
            }
        }
        shapes.push(Shape::Text { x: x + swatch_w + 4.0, y: base, text: item.text.clone(), color: pal.text, size: LEGEND_PX, anchor: Anchor::Start, rotate_deg: 0.0 });
        x += w + 14.0;
    }
    (if items.is_empty() { 0 } else { row + 1 }, shapes)
}
