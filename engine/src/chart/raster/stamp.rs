//! Dots as stamps: a dot's pixels depend only on its radius, outline width, colours and where
//! its centre falls within a pixel, so they are computed once per such key and copied (blended)
//! for every dot that shares it. A chart of 30,000 dots has a few dozen keys.

use super::pixel::{ceil_i, floor_i, pack};
use crate::chart::scene::{Color, Shape};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Sub-pixel positions per pixel a dot's centre is snapped to (a quarter pixel: invisible,
/// and 16 stamps per dot style instead of one per dot).
const SUBPIXELS: f64 = 4.0;
/// Radii and outline widths are snapped to 1/16 device pixel, for the same reason.
const SIZE_STEPS: f64 = 16.0;
/// Most stamps kept (a stamp of the largest dot is ~3 KB): dots beyond this many distinct
/// keys get a stamp made where they are drawn, so memory stays bounded.
const MAX_STAMPS: usize = 4096;
/// Largest radius or half outline drawn, device pixels: anything larger is not a dot.
const MAX_RADIUS_PX: f64 = 1000.0;

/// What a dot's pixels depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StampKey {
    r: u32,
    half: u32,
    fx: u8,
    fy: u8,
    fill: Option<Color>,
    stroke: Option<Color>,
}

impl StampKey {
    /// Radius and outline half-width, device pixels (as snapped).
    fn radii(&self) -> (f64, f64) {
        (self.r as f64 / SIZE_STEPS, self.half as f64 / SIZE_STEPS)
    }

    /// Pixels from the stamp's centre pixel to its edge: ⌈r + half + ½⌉, room for the
    /// outline's outer edge and its anti-aliasing.
    fn reach(&self) -> usize {
        reach_px(self.r, self.half)
    }
}

/// [`StampKey::reach`] of a radius and an outline half-width in sixteenths of a pixel, worked
/// out exactly in integers: ⌈(r + half + 8) / 16⌉ (a dot's box is found this way for every
/// dot of a redraw, so no float rounding call).
fn reach_px(r: u32, half: u32) -> usize {
    let steps = SIZE_STEPS as u64;
    (r as u64 + half as u64 + steps / 2).div_ceil(steps) as usize
}

/// A dot's premultiplied pixels: `size` × `size` (`size` = 2 · reach + 1, reach = ⌈r + half +
/// ½⌉), its centre at (reach + fx/4, reach + fy/4), and per row the span of columns that are
/// not transparent and, for a stamp up to 64 pixels wide, those columns as bits (bit i: column
/// i; the painter visits only these, see its opacity mask).
pub struct Stamp {
    pub size: usize,
    pub px: Vec<u32>,
    pub spans: Vec<(usize, usize)>,
    pub bits: Vec<u64>,
}

impl Stamp {
    /// Coverage of each pixel (see the module docs of `raster`): the fill to radius `r`, the
    /// outline band `r ± half` over it, combined into one premultiplied source pixel.
    pub fn new(k: &StampKey) -> Stamp {
        let (r, half) = k.radii();
        let reach = k.reach();
        let size = 2 * reach + 1;
        let (cx, cy) = (reach as f64 + k.fx as f64 / SUBPIXELS, reach as f64 + k.fy as f64 / SUBPIXELS);
        let (top, under) = (k.stroke.unwrap_or(Color(0, 0, 0)), k.fill.unwrap_or(Color(0, 0, 0)));
        let mut px = vec![0u32; size * size];
        let mut spans = vec![(0, 0); size];
        let mut bits = vec![0u64; if size <= 64 { size } else { 0 }];
        for (j, span) in spans.iter_mut().enumerate() {
            let dy = j as f64 + 0.5 - cy;
            for i in 0..size {
                let dx = i as f64 + 0.5 - cx;
                let d = (dx * dx + dy * dy).sqrt();
                let fill_a = if k.fill.is_some() { (r + 0.5 - d).clamp(0.0, 1.0) } else { 0.0 };
                let top_a = if k.stroke.is_some() { (r + half + 0.5 - d).clamp(0.0, 1.0) - (r - half + 0.5 - d).clamp(0.0, 1.0) } else { 0.0 };
                let under_a = fill_a * (1.0 - top_a);
                let mix = |t: u8, u: u8| (t as f64 * top_a + u as f64 * under_a + 0.5) as u8;
                let p = [mix(top.0, under.0), mix(top.1, under.1), mix(top.2, under.2), mix(255, 255)];
                if p[3] > 0 {
                    *span = if span.1 == 0 { (i, i + 1) } else { (span.0, i + 1) };
                    if let Some(row) = bits.get_mut(j) {
                        *row |= 1 << i;
                    }
                }
                px[j * size + i] = pack(p);
            }
        }
        Stamp { size, px, spans, bits }
    }
}

/// A shape ready to draw: a dot's stamp and the device position of the stamp's top-left
/// pixel (`Fresh`: past the cache's cap, the stamp is made where it is drawn); other shapes
/// are drawn from the shape itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Prepared {
    Cached { stamp: u32, left: i64, top: i64 },
    Fresh { key: StampKey, left: i64, top: i64 },
    Shape,
    Nothing,
}

/// A multiply-rotate hasher (FxHash's recipe) for the cache: the keys are a few small integers,
/// and SipHash's flood resistance buys nothing here at several times the cost.
#[derive(Default)]
pub struct FxHasher(u64);

impl Hasher for FxHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u8(&mut self, v: u8) {
        self.write_u64(v as u64);
    }

    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }

    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    fn write_isize(&mut self, v: isize) {
        self.write_u64(v as u64);
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// What a dot's pixels depend on besides its sub-pixel position: a dot style of the chart,
/// packed in one integer (snapped radius, snapped outline half-width, fill, stroke; a colour as
/// 2²⁴ + RGB, 0 for none) so comparing two is one comparison, not a call per field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Style(u128);

impl Style {
    fn new(r: u32, half: u32, fill: Option<Color>, stroke: Option<Color>) -> Style {
        let color = |c: Option<Color>| c.map_or(0, |c| 1 << 24 | (c.0 as u128) << 16 | (c.1 as u128) << 8 | c.2 as u128);
        Style((r as u128) << 96 | (half as u128) << 64 | color(fill) << 32 | color(stroke))
    }
}

/// A style's stamps, one per quarter-pixel position (`NONE` until made).
struct StyleStamps {
    style: Style,
    stamps: [u32; (SUBPIXELS * SUBPIXELS) as usize],
}

const NONE: u32 = u32::MAX;
/// Styles remembered for the lookup without hashing: a chart draws runs of dots that cycle
/// through a few styles (a hierarchical chart: one per memory level).
const RECENT: usize = 4;

/// The stamps of one rasterisation, found by style (hashed, with the last few styles tried
/// first: in the page's wasm, finding every dot's stamp by its hashed key took 12–16% of the
/// image's time, docs/PERFORMANCE.md) and then by position.
#[derive(Default)]
pub struct StampCache {
    index: HashMap<Style, u32, BuildHasherDefault<FxHasher>>,
    styles: Vec<StyleStamps>,
    recent: [u32; RECENT],
    next_recent: usize,
    pub stamps: Vec<Stamp>,
}

/// A device-pixel box `[left, top, right, bottom)`.
pub type PixelBox = [i64; 4];

/// Where a dot falls, device pixels: its centre in quarter pixels, its radius and outline
/// half-width in sixteenths, and its stamp's reach (`StampKey::reach`). `None` for what is not
/// a dot (or lies far off any canvas: the integer casts would saturate).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Snapped {
    qx: i64,
    qy: i64,
    r: u32,
    half: u32,
    reach: i64,
}

impl Snapped {
    fn of(cx: f64, cy: f64, r: f64, half: f64) -> Option<Snapped> {
        // A NaN fails every comparison, and |v| < 1e9 holds for finite values only.
        if !(cx.abs() < 1e9 && cy.abs() < 1e9 && (0.0..MAX_RADIUS_PX).contains(&r) && half < MAX_RADIUS_PX) {
            return None;
        }
        let (qx, qy) = (floor_i(cx * SUBPIXELS + 0.5), floor_i(cy * SUBPIXELS + 0.5));
        let (r, half) = (floor_i(r * SIZE_STEPS + 0.5) as u32, floor_i(half * SIZE_STEPS + 0.5) as u32);
        let reach = reach_px(r, half) as i64;
        Some(Snapped { qx, qy, r, half, reach })
    }

    /// The stamp's top-left device pixel.
    fn corner(&self) -> (i64, i64) {
        let steps = SUBPIXELS as i64;
        (self.qx.div_euclid(steps) - self.reach, self.qy.div_euclid(steps) - self.reach)
    }

    /// The device-pixel box of the stamp.
    fn bounds(&self) -> PixelBox {
        let ((left, top), size) = (self.corner(), 2 * self.reach + 1);
        [left, top, left + size, top + size]
    }
}

/// A circle's device centre, radius and outline half-width (0 without an outline).
fn circle_px(cx: f64, cy: f64, r: f64, stroke: Option<Color>, width: f64, scale: f64) -> (f64, f64, f64, f64) {
    let half = if stroke.is_some() && width.is_finite() && width > 0.0 { width * scale / 2.0 } else { 0.0 };
    (cx * scale, cy * scale, r * scale, half)
}

/// Where a shape falls on the device pixels, found without its stamp: every shape's box sizes
/// the pixmap, and a dot whose box is already opaque is never looked up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Located {
    Dot(Snapped),
    /// A solid line's box.
    Line(PixelBox),
}

impl Located {
    /// The device-pixel box the shape may touch (a dot's is its stamp's).
    pub fn bounds(&self) -> PixelBox {
        match self {
            Located::Dot(s) => s.bounds(),
            Located::Line(b) => *b,
        }
    }
}

/// Where `shape` falls, CSS pixels × `scale` (`None`: nothing to draw).
pub fn locate(shape: &Shape, scale: f64) -> Option<Located> {
    match shape {
        Shape::Circle { cx, cy, r, stroke, width, .. } => {
            let (cx, cy, r, half) = circle_px(*cx, *cy, *r, *stroke, *width, scale);
            Snapped::of(cx, cy, r, half).map(Located::Dot)
        }
        Shape::Line { points, width, dash: false, .. } => {
            // Points ± (width + 1) CSS pixels: room for the line's width at any slope and
            // for anti-aliasing.
            let reach = if width.is_finite() { width.max(0.0) + 1.0 } else { 1.0 };
            let mut b = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
            for &(x, y) in points.iter().filter(|(x, y)| x.is_finite() && y.is_finite()) {
                b = [b[0].min(x - reach), b[1].min(y - reach), b[2].max(x + reach), b[3].max(y + reach)];
            }
            let b = b.map(|v| v * scale);
            let ok = b[0] < b[2] && b[1] < b[3] && b.iter().all(|v| v.abs() < 1e9);
            ok.then(|| Located::Line([floor_i(b[0]), floor_i(b[1]), ceil_i(b[2]), ceil_i(b[3])]))
        }
        _ => None,
    }
}

impl StampCache {
    /// Finds (or makes) the stamp of a shape [`locate`]d at `at`, if it is a dot.
    pub fn prepare(&mut self, shape: &Shape, at: &Located) -> Prepared {
        match (shape, at) {
            (Shape::Circle { fill, stroke, .. }, Located::Dot(s)) => self.dot(s, *fill, *stroke),
            (Shape::Line { dash: false, .. }, Located::Line(_)) => Prepared::Shape,
            _ => Prepared::Nothing,
        }
    }

    /// The stamp of a dot snapped to `at`.
    fn dot(&mut self, at: &Snapped, fill: Option<Color>, stroke: Option<Color>) -> Prepared {
        let steps = SUBPIXELS as i64;
        let style = Style::new(at.r, at.half, fill, stroke);
        let (fx, fy) = (at.qx.rem_euclid(steps) as u8, at.qy.rem_euclid(steps) as u8);
        let key = StampKey { r: at.r, half: at.half, fx, fy, fill, stroke };
        let s = self.style(style);
        let Some(entry) = self.styles.get(s) else { return Prepared::Nothing };
        let (left, top) = at.corner();
        let slot = fy as usize * steps as usize + fx as usize;
        let known = entry.stamps.get(slot).copied().unwrap_or(NONE);
        if known != NONE {
            return Prepared::Cached { stamp: known, left, top };
        }
        if self.stamps.len() >= MAX_STAMPS {
            return Prepared::Fresh { key, left, top };
        }
        let stamp = self.stamps.len() as u32;
        self.stamps.push(Stamp::new(&key));
        if let Some(cell) = self.styles.get_mut(s).and_then(|e| e.stamps.get_mut(slot)) {
            *cell = stamp;
        }
        Prepared::Cached { stamp, left, top }
    }

    /// The index in `styles` of a style, added if new.
    fn style(&mut self, style: Style) -> usize {
        let mut k = 0;
        while k < RECENT {
            let s = self.recent[k] as usize;
            if self.styles.get(s).is_some_and(|e| e.style == style) {
                return s;
            }
            k += 1;
        }
        let s = match self.index.get(&style) {
            Some(&s) => s,
            None => {
                let s = self.styles.len() as u32;
                self.styles.push(StyleStamps { style, stamps: [NONE; (SUBPIXELS * SUBPIXELS) as usize] });
                self.index.insert(style, s);
                s
            }
        };
        self.recent[self.next_recent] = s;
        self.next_recent = (self.next_recent + 1) % RECENT;
        s as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reach_in_sixteenths_is_the_ceiling_of_the_radii_and_a_half() {
        let key = |r, half| StampKey { r, half, fx: 0, fy: 0, fill: None, stroke: None };
        // r = 3.5 px, half = 0.5 px: ⌈4.5⌉ = 5; r = 4 px exactly with no outline: ⌈4.5⌉ = 5;
        // r = 3.5, half 0: ⌈4⌉ = 4 (an integer stays itself).
        assert_eq!((key(56, 8).reach(), key(64, 0).reach(), key(56, 0).reach(), key(0, 0).reach()), (5, 5, 4, 1));
        for r in 0..600 {
            for half in [0, 1, 7, 8, 9, 16, 31] {
                let (rf, hf) = key(r, half).radii();
                assert_eq!(key(r, half).reach(), (rf + hf + 0.5).ceil() as usize, "{r} {half}");
            }
        }
    }
}
