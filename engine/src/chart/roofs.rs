//! Ceilings, walls and ridge marks, clipped to the view, each with its label.
//!
//! A bandwidth roof is the line y = rate × x (rate in bytes/s on FLOP charts, transactions/s
//! on instruction charts: GPU course slides "AI × Bandwidth"; Ding & Williams Eq. 2 "GTXN/s ×
//! Instruction Intensity"), slanted at 45° on equal log axes; a compute or issue roof is flat;
//! a memory wall is vertical (Ding & Williams Figs. 3–4). Labels sit along their line in the
//! line's colour, at the first free spot the [`super::labels::Placer`] finds. A roof's label
//! never vanishes (issue 43: with "all roofs" on, or on a 390 px phone chart, roofs crowd):
//! where the full text has no free spot, a number takes its place (further along the line,
//! between roofs, or in the margin where the line leaves the plot), explained in a key in a
//! free row of the plot or the band above it ([`Builder::draw_keys`]); a number with no free
//! spot at all is drawn at its first spot anyway. Each roof and its placed label are listed in
//! [`super::Scene::roofs`].

use super::frame::{Builder, FONT_PX, LEGEND_PX};
use super::labels::shape_box;
use super::scene::{Anchor, Color, RoofKey, Shape};

/// A place for a text: anchor x, baseline y, anchor, rotation in degrees clockwise.
pub type Spot = (f64, f64, Anchor, f64);

/// How a ceiling line is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    pub color: Color,
    pub width: f64,
    pub dash: bool,
}

impl Style {
    pub fn solid(color: Color) -> Style {
        Style { color, width: 2.0, dash: false }
    }

    /// A secondary ceiling (lower precision roofs, shared memory on the instruction chart).
    pub fn thin(color: Color) -> Style {
        Style { color, width: 1.5, dash: false }
    }

    pub fn dashed(color: Color) -> Style {
        Style { color, width: 1.5, dash: true }
    }
}

/// A value in giga-units with four significant digits, trailing zeros removed: 437.5,
/// 93.63, 2996, 14000 (the precision machine tables and Ding & Williams quote).
pub fn giga4(v: f64) -> String {
    let g = v / 1e9;
    if !g.is_finite() {
        return "–".into();
    }
    if g.abs() >= 1000.0 {
        return format!("{g:.0}");
    }
    let digits = if g.abs() >= 100.0 {
        1
    } else if g.abs() >= 10.0 {
        2
    } else if g.abs() >= 1.0 {
        3
    } else {
        4
    };
    let s = format!("{g:.digits$}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Where along a slanted roof its label may go, as fractions of the visible segment: the
/// lower part first (nearer the axis, usually clear of the dots), then further up.
const ALONG: [f64; 16] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.02, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75];

impl Builder {
    /// A slanted roof y = `rate` × x from the left edge up to `x_end` (where it meets the top
    /// flat roof), clipped to the view, labelled along its slope. Returns the drawn segment
    /// in data units, `None` when nothing of it is visible.
    pub fn slanted_roof(&mut self, rate: f64, x_end: f64, style: Style, label: &str) -> Option<[(f64, f64); 2]> {
        if !(rate.is_finite() && rate > 0.0 && x_end > 0.0) {
            return None;
        }
        let (x, y) = (self.x, self.y);
        let x0 = x.min.max(y.min / rate);
        let x1 = x_end.min(x.max).min(y.max / rate);
        if x1.partial_cmp(&x0) != Some(std::cmp::Ordering::Greater) {
            return None;
        }
        let (p0, p1) = ((x.to_px(x0), y.to_px(rate * x0)), (x.to_px(x1), y.to_px(rate * x1)));
        self.under.push(Shape::Line { points: vec![p0, p1], color: style.color, width: style.width, dash: style.dash });
        let angle = (p1.1 - p0.1).atan2(p1.0 - p0.0).to_degrees();
        let at = |t: f64, dy: f64| {
            let xv = 10f64.powf(x0.log10() + t * (x1.log10() - x0.log10()));
            (x.to_px(xv), y.to_px(rate * xv) + dy, Anchor::Start, angle)
        };
        // Above the line first (baseline 5 px over it), then below it.
        let (mut candidates, mut loose) = (Vec::new(), Vec::new());
        for dy in [-5.0, FONT_PX + 3.0] {
            for t in ALONG {
                candidates.push(at(t, dy));
            }
        }
        // A number's spots: every 2% along, either side, a row further off too.
        for dy in [-5.0, FONT_PX + 3.0, -FONT_PX - 9.0, 2.0 * FONT_PX + 7.0] {
            for i in 0..=50 {
                loose.push(at(i as f64 / 50.0, dy));
            }
        }
        // Past either end of the line, in the margin it runs into.
        let p = self.plot;
        let margin = [(p1.0, p[1] - 4.0, Anchor::Middle, 0.0), (p[2] + 3.0, p1.1 + 4.0, Anchor::Start, 0.0), (p[0] - 3.0, p0.1 + 4.0, Anchor::End, 0.0), (p0.0, p[3] + 12.0, Anchor::Middle, 0.0)];
        self.roof_label(&candidates, &loose, &margin, label, style.color);
        Some([(x0, rate * x0), (x1, rate * x1)])
    }

    /// A flat roof at `level` from `x_start` to the right edge, labelled near its right end
    /// (or further left, above or below). `others`: the levels of the chart's other flat
    /// roofs; no label goes where another roof would run between it and its own line.
    /// Returns whether any of it is visible.
    pub fn flat_roof(&mut self, level: f64, x_start: f64, style: Style, label: &str, others: &[f64]) -> bool {
        let (x, y) = (self.x, self.y);
        if !(level.is_finite() && (y.min..=y.max).contains(&level) && x_start < x.max) {
            return false;
        }
        let (left, right, py) = (x.to_px(x_start.max(x.min)), self.plot[2], y.to_px(level));
        self.under.push(Shape::Line { points: vec![(left, py), (right, py)], color: style.color, width: style.width, dash: style.dash });
        // Slide from the right end leftwards, above the line first, then below it, then a
        // line further off on either side (dots sitting on the roof).
        let width = super::labels::text_box(0.0, 0.0, label, FONT_PX, Anchor::Start)[2];
        // The label's right end stays over the line (at least 40 px of it); its left part may
        // run past a short line's start.
        let (first, last) = (right - 6.0, (self.plot[0] + 6.0 + width).max(left + 40.0).min(right - 6.0));
        let ends: Vec<f64> = (0..=16).map(|k| first - (first - last) * k as f64 / 16.0).collect();
        let others_px: Vec<f64> = others.iter().filter(|o| o.is_finite() && **o > 0.0 && **o != level).map(|&o| y.to_px(o)).collect();
        // Labels go above their line (the usual reading); below only where no other roof runs
        // close underneath, so a label between two roofs always belongs to the lower one.
        let clear = |base: &f64| {
            let below = *base > py;
            let (top, bottom) = ((base - 0.8 * FONT_PX).min(py), (base + 0.25 * FONT_PX).max(py) + if below { 2.0 * FONT_PX } else { 0.0 });
            !others_px.iter().any(|o| (top - 1.0..=bottom + 1.0).contains(o))
        };
        let rows = [py - 5.0, py + FONT_PX + 3.0, py - FONT_PX - 9.0, py + 2.0 * FONT_PX + 7.0];
        // A number may sit between two roofs (on its own line's side first): it names its
        // roof in the key, so it cannot be read as the other's.
        let (mut candidates, mut loose) = (Vec::new(), Vec::new());
        for y in rows {
            if clear(&y) {
                for &x in &ends {
                    candidates.push((x, y, Anchor::End, 0.0));
                }
            }
            let mut x = right - 6.0;
            while x > self.plot[0] + 6.0 {
                loose.push((x, y, Anchor::End, 0.0));
                x -= 8.0;
            }
        }
        let margin = [(right + 3.0, py + 4.0, Anchor::Start, 0.0), (self.plot[0] - 3.0, py + 4.0, Anchor::End, 0.0)];
        self.roof_label(&candidates, &loose, &margin, label, style.color);
        true
    }

    /// Labels a roof: `full` at the first free spot of `spots`, else its number in the key at
    /// the first free spot of `spots`, then of `loose` (more spots in the plot), then of
    /// `margin` (beside the plot, where the line leaves it), else that number at the first
    /// spot over whatever lies there (module doc). The roof and its label are recorded in
    /// [`Builder::roofs`]. (A number, not an abbreviation: "BF16 mat. 1.07P" is still 80 px
    /// wide, where a crowded phone chart has room for a digit; the key gives the whole name.)
    pub fn roof_label(&mut self, spots: &[Spot], loose: &[Spot], margin: &[Spot], full: &str, color: Color) {
        let placed = if self.label(spots, full, color, FONT_PX) {
            full.to_string()
        } else {
            let n = (self.keys.len() + 1).to_string();
            self.keys.push((full.to_string(), color));
            let whole = [0.0, 0.0, self.width, self.height];
            if !(self.label(spots, &n, color, FONT_PX) || self.label(loose, &n, color, FONT_PX) || self.label_in(whole, margin, &n, color, FONT_PX)) {
                let Some(&(x, y, anchor, rotate_deg)) = spots.first().or(loose.first()) else { return };
                self.forced(Shape::Text { x, y, text: n.clone(), color, size: FONT_PX, anchor, rotate_deg });
            }
            n
        };
        let label_box = self.over.last().and_then(shape_box).unwrap_or([0.0; 4]);
        self.roofs.push(RoofKey { name: full.to_string(), label: placed, label_box, binding: false });
    }

    /// Marks the last roof drawn as the selected kernel's binding roof ([`super::binding`]).
    pub fn mark_binding(&mut self, drawn: bool) {
        if let Some(r) = self.roofs.last_mut().filter(|_| drawn) {
            r.binding = true;
        }
    }

    /// The key of the roofs labelled by a number (drawn before the kernels' names, and by
    /// [`Builder::finish`] where a chart names none): "N full label" in the roof's colour, one
    /// line each, in the first free row of the plot (left, right, then across), else in the
    /// band between the legend and the plot or up the right margin, else over whatever lies at
    /// the plot's top left (a number is never left unexplained).
    pub fn draw_keys(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        if keys.is_empty() {
            return;
        }
        let (p, whole) = (self.plot, [0.0, 0.0, self.width, self.height]);
        let row = |i: usize| p[1] + LEGEND_PX + 2.0 + i as f64 * (LEGEND_PX + 3.0);
        // Plain loops, not iterator chains: each chain is code of its own in the app's wasm.
        let (mut spots, mut margins): (Vec<Spot>, Vec<Spot>) = (Vec::new(), Vec::new());
        let mut x = p[0] + 6.0;
        while x < p[2] {
            // Outside the plot: the band over it (its baseline 4 px above the plot).
            margins.push((x, p[1] - 4.0, Anchor::Start, 0.0));
            let mut i = 0;
            while row(i) < p[3] - 2.0 {
                spots.push((x, row(i), Anchor::Start, 0.0));
                i += 1;
            }
            x += 24.0;
        }
        // The right margin, text turned to read upwards (glyphs left of the baseline).
        margins.push((self.width - 4.0, p[3], Anchor::Start, -90.0));
        for (i, (full, color)) in keys.iter().enumerate() {
            let text = format!("{} {full}", i + 1);
            if !(self.label(&spots, &text, *color, LEGEND_PX) || self.label_in(whole, &margins, &text, *color, LEGEND_PX)) {
                self.forced(Shape::Text { x: p[0] + 6.0, y: row(i), text, color: *color, size: LEGEND_PX, anchor: Anchor::Start, rotate_deg: 0.0 });
            }
        }
    }

    /// Draws a text where no free spot was found, taking its boxes so later labels (kernel
    /// names) keep off it.
    fn forced(&mut self, text: Shape) {
        for b in super::labels::shape_boxes(&text) {
            self.placer.occupy(b);
        }
        self.over.push(text);
    }

    /// A vertical wall at `at` from the bottom of the plot up to `top` (`None`: the top of the
    /// plot), labelled along it, reading upwards. Returns whether it is visible.
    pub fn wall(&mut self, at: f64, top: Option<f64>, style: Style, label: &str) -> bool {
        let (x, y) = (self.x, self.y);
        if !(at.is_finite() && (x.min..=x.max).contains(&at)) {
            return false;
        }
        let top_px = match top {
            Some(t) if t.is_finite() && t > 0.0 => y.to_px(t).max(self.plot[1]),
            _ => self.plot[1],
        };
        if top_px >= self.plot[3] {
            return false;
        }
        let px = x.to_px(at);
        self.under.push(Shape::Line { points: vec![(px, self.plot[3]), (px, top_px)], color: style.color, width: style.width, dash: style.dash });
        // Rotated -90°, anchor End: the text runs down from the anchor; glyphs lie left of
        // the baseline, so a baseline 4 px left of the wall keeps the wall clear.
        let (left, right) = (px - 4.0, px + FONT_PX + 2.0);
        let mid = (top_px + self.plot[3]) / 2.0;
        let candidates = [
            (left, top_px + 6.0, Anchor::End, -90.0),
            (right, top_px + 6.0, Anchor::End, -90.0),
            (left, mid, Anchor::Middle, -90.0),
            (right, mid, Anchor::Middle, -90.0),
            (left, self.plot[3] - 6.0, Anchor::Start, -90.0),
            (right, self.plot[3] - 6.0, Anchor::Start, -90.0),
        ];
        self.label(&candidates, label, style.color, FONT_PX - 1.0);
        true
    }

    /// A ridge (balance) point: a small dot where a bandwidth roof meets a compute roof
    /// (Nsight Compute roofline post: "machine balance point"), optionally labelled.
    pub fn ridge_mark(&mut self, xv: f64, yv: f64, color: Color, label: Option<&str>) -> Option<(f64, f64)> {
        let (cx, cy) = self.px(xv, yv)?;
        if !self.in_plot((cx, cy)) {
            return None;
        }
        self.under.push(Shape::Circle { cx, cy, r: 3.0, fill: Some(color), stroke: None, width: 0.0 });
        self.placer.occupy([cx - 3.0, cy - 3.0, cx + 3.0, cy + 3.0]);
        if let Some(text) = label {
            let s = FONT_PX - 1.0;
            let candidates = [(cx + 5.0, cy + s + 2.0, Anchor::Start, 0.0), (cx - 5.0, cy + s + 2.0, Anchor::End, 0.0), (cx + 5.0, cy + 2.0 * s + 4.0, Anchor::Start, 0.0)];
            self.label(&candidates, text, color, s);
        }
        Some((cx, cy))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_significant_digits() {
        assert_eq!(giga4(437.5e9), "437.5");
        assert_eq!(giga4(93.625e9), "93.62");
        assert_eq!(giga4(2996e9), "2996");
        assert_eq!(giga4(14000e9), "14000");
        assert_eq!(giga4(489.6e9), "489.6");
        assert_eq!(giga4(828e9), "828");
        assert_eq!(giga4(15.754e9), "15.75");
        assert_eq!(giga4(f64::NAN), "–");
    }
}
