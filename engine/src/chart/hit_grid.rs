//! A uniform grid of buckets over the scene, so hovering a chart of 30 000 dots looks at a
//! handful of dots instead of all of them.
//!
//! Each dot is filed in every cell its hit circle (radius + slack) touches; a query reads the
//! one cell under the pointer. The cell size is about one hit-circle diameter, so a cell holds
//! O(1) dots on average and a query is O(1). Stored flat (CSR: offsets + indices), built once
//! per scene, deterministic (dots in their scene order within each cell).

use super::scene::Hit;

/// Fewest and most pixels per cell side: small enough to separate dots, large enough to keep
/// the grid small on a big chart.
const MIN_CELL_PX: f64 = 8.0;
const MAX_CELL_PX: f64 = 64.0;
/// Most cells: a huge scene gets bigger cells rather than a huge grid.
const MAX_CELLS: f64 = 65_536.0;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct HitGrid {
    cell_px: f64,
    cols: usize,
    rows: usize,
    /// `cells[c]..cells[c + 1]` is the range of `items` in cell `c`.
    cells: Vec<u32>,
    items: Vec<u32>,
}

impl HitGrid {
    /// Files `hits` over a `width` × `height` pixel area; `slack_px` widens each hit circle.
    pub fn new(hits: &[Hit], width: f64, height: f64, slack_px: f64) -> HitGrid {
        let reach = |h: &Hit| if h.r.is_finite() && h.r > 0.0 { h.r + slack_px } else { slack_px };
        let valid = |h: &Hit| h.cx.is_finite() && h.cy.is_finite();
        let max_reach = hits.iter().filter(|h| valid(h)).map(reach).fold(0.0, f64::max);
        let (w, h) = (if width.is_finite() { width.max(1.0) } else { 1.0 }, if height.is_finite() { height.max(1.0) } else { 1.0 });
        let cell_px = (2.0 * max_reach).clamp(MIN_CELL_PX, MAX_CELL_PX).max((w * h / MAX_CELLS).sqrt());
        let (cols, rows) = ((w / cell_px).ceil() as usize, (h / cell_px).ceil() as usize);
        let mut grid = HitGrid { cell_px, cols, rows, cells: Vec::new(), items: Vec::new() };
        // Two passes: count per cell, then fill (no per-cell vectors).
        let mut counts = vec![0u32; cols * rows + 1];
        let spans: Vec<Option<[usize; 4]>> = hits.iter().map(|h| valid(h).then(|| grid.span(h.cx, h.cy, reach(h)))).collect();
        for s in spans.iter().flatten() {
            for row in s[1]..=s[3] {
                for col in s[0]..=s[2] {
                    counts[row * cols + col] += 1;
                }
            }
        }
        let mut offsets = vec![0u32; cols * rows + 1];
        for c in 0..cols * rows {
            offsets[c + 1] = offsets[c] + counts[c];
        }
        let mut fill = offsets.clone();
        grid.items = vec![0; offsets[cols * rows] as usize];
        for (i, s) in spans.iter().enumerate() {
            let Some(s) = s else { continue };
            for row in s[1]..=s[3] {
                for col in s[0]..=s[2] {
                    let c = row * cols + col;
                    grid.items[fill[c] as usize] = i as u32;
                    fill[c] += 1;
                }
            }
        }
        grid.cells = offsets;
        grid
    }

    fn cell_of(&self, v: f64, n: usize) -> usize {
        let i = (v / self.cell_px).floor();
        if i.is_nan() || i < 0.0 {
            0
        } else {
            (i as usize).min(n.saturating_sub(1))
        }
    }

    /// Cells `[col0, row0, col1, row1]` a circle touches (clamped to the grid).
    fn span(&self, cx: f64, cy: f64, reach: f64) -> [usize; 4] {
        [self.cell_of(cx - reach, self.cols), self.cell_of(cy - reach, self.rows), self.cell_of(cx + reach, self.cols), self.cell_of(cy + reach, self.rows)]
    }

    /// The index of the hit nearest (x, y) among those whose circle (radius + `slack_px`)
    /// contains it; ties go to the earlier hit.
    pub fn nearest(&self, hits: &[Hit], x: f64, y: f64, slack_px: f64) -> Option<usize> {
        if self.cols == 0 || self.rows == 0 || !(x.is_finite() && y.is_finite()) {
            return None;
        }
        // A point outside the grid can still be within reach of a dot on its edge: the edge
        // cell holds those dots, and the distance test below decides.
        let c = self.cell_of(y, self.rows) * self.cols + self.cell_of(x, self.cols);
        let (a, b) = (self.cells[c] as usize, self.cells[c + 1] as usize);
        let mut best: Option<(f64, usize)> = None;
        for &i in &self.items[a..b] {
            let i = i as usize;
            let Some(h) = hits.get(i) else { continue };
            let d2 = (h.cx - x).powi(2) + (h.cy - y).powi(2);
            let reach = h.r.max(0.0) + slack_px;
            if d2 <= reach * reach && best.is_none_or(|(bd, bi)| d2 < bd || (d2 == bd && i < bi)) {
                best = Some((d2, i));
            }
        }
        best.map(|(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::scene::Marker;

    fn hit(kernel: usize, cx: f64, cy: f64, r: f64) -> Hit {
        Hit { kernel, cx, cy, r, level: None, marker: Marker::Level }
    }

    /// The linear scan the grid replaces: the reference answer.
    fn linear(hits: &[Hit], x: f64, y: f64, slack: f64) -> Option<usize> {
        let mut best: Option<(f64, usize)> = None;
        for (i, h) in hits.iter().enumerate() {
            let d2 = (h.cx - x).powi(2) + (h.cy - y).powi(2);
            if d2 <= (h.r + slack).powi(2) && best.is_none_or(|(bd, _)| d2 < bd) {
                best = Some((d2, i));
            }
        }
        best.map(|(_, i)| i)
    }

    #[test]
    fn agrees_with_a_linear_scan() {
        // A deterministic pseudo-random cloud of 30 000 dots, queried on a lattice.
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
        let hits: Vec<Hit> = (0..30_000).map(|k| hit(k, next() * 960.0, next() * 600.0, 3.5 + 9.0 * next() * next())).collect();
        let g = HitGrid::new(&hits, 960.0, 600.0, 3.0);
        for qy in (0..600).step_by(7) {
            for qx in (0..960).step_by(11) {
                let (x, y) = (qx as f64 + 0.3, qy as f64 + 0.6);
                assert_eq!(g.nearest(&hits, x, y, 3.0), linear(&hits, x, y, 3.0), "at {x},{y}");
            }
        }
        // O(1): the fullest cell holds a bounded number of dots, not a fraction of 30 000.
        let fullest = g.cells.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        assert!(fullest < 400, "{fullest}");
    }

    #[test]
    fn edges_nan_and_empty() {
        let hits = [hit(0, 0.0, 0.0, 5.0), hit(1, 100.0, 50.0, 5.0), hit(2, f64::NAN, 3.0, 5.0)];
        let g = HitGrid::new(&hits, 100.0, 50.0, 3.0);
        assert_eq!(g.nearest(&hits, -2.0, -2.0, 3.0), Some(0), "just outside the scene");
        assert_eq!(g.nearest(&hits, 104.0, 50.0, 3.0), Some(1));
        assert_eq!(g.nearest(&hits, 50.0, 25.0, 3.0), None);
        assert_eq!(g.nearest(&hits, f64::NAN, 25.0, 3.0), None);
        let empty = HitGrid::new(&[], 0.0, f64::NAN, 3.0);
        assert_eq!(empty.nearest(&[], 1.0, 1.0, 3.0), None);
    }
}
