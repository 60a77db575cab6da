//! A uniform grid of buckets over the scene, so hovering a chart of 30 000 dots looks at a
//! handful of dots instead of all of them.
//!
//! Each dot is filed once, in the cell of its centre; cells are wider than the farthest hit
//! circle (radius + slack) reaches, so every dot whose circle holds a point has its centre in
//! the 3 × 3 cells around that point, and a query reads those nine. Filing each dot once
//! (not in every cell its circle touches) halves building the grid, which every hovered scene does.
//! A cell holds O(1) dots on average and a query is O(1). Stored flat (CSR: offsets +
//! indices), built once per scene, on its first hover ([`LazyGrid`]), deterministic (dots in
//! their scene order within a cell).

use super::scene::Hit;
use std::sync::OnceLock;

/// Fewest pixels per cell side: small enough to separate dots.
const MIN_CELL_PX: f64 = 8.0;
/// Cell side over the farthest reach: more than 1, so a centre within reach of a point is in
/// a neighbouring cell of the point's even where rounding moves a cell boundary.
const CELL_OVER_REACH: f64 = 1.5;
/// Most cells: a huge scene gets bigger cells rather than a huge grid.
const MAX_CELLS: f64 = 65_536.0;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct HitGrid {
    /// Cells per pixel: one over the cell side (a multiplication per lookup, not a division;
    /// any monotone cell function serves, and the 1.5 margin covers its rounding).
    per_px: f64,
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
        let cell_px = (CELL_OVER_REACH * max_reach).max(MIN_CELL_PX).max((w * h / MAX_CELLS).sqrt());
        let (cols, rows) = ((w / cell_px).ceil() as usize, (h / cell_px).ceil() as usize);
        let mut grid = HitGrid { per_px: 1.0 / cell_px, cols, rows, cells: Vec::new(), items: Vec::new() };
        // Count per cell, then fill: `cells[c + 1]` counts cell `c`, then holds its start
        // while filling and its end after, which is the CSR layout. Each hit's cell is kept
        // from the first pass, so the second reads 4 bytes per hit, not the hit again.
        let mut cells = vec![0u32; cols * rows + 1];
        let g = &grid;
        let of: Vec<u32> = hits.iter().map(|h| if valid(h) { (g.cell_of(h.cy, rows) * cols + g.cell_of(h.cx, cols) + 1) as u32 } else { 0 }).collect();
        for &c in &of {
            cells[c as usize] += 1;
        }
        // 0 in `of` is "not filed" (a hit off any axis): slot 0 is the first start, always 0.
        cells[0] = 0;
        let mut start = 0u32;
        for c in cells.iter_mut().skip(1) {
            let count = *c;
            *c = start;
            start += count;
        }
        let mut items = vec![0u32; start as usize];
        for (i, &c) in of.iter().enumerate().filter(|(_, c)| **c > 0) {
            let slot = &mut cells[c as usize];
            items[*slot as usize] = i as u32;
            *slot += 1;
        }
        grid.cells = cells;
        grid.items = items;
        grid
    }

    /// The cell of `v` along an axis of `n` cells, clamped (NaN: the first). For `t ≥ 0` the
    /// truncating cast is `floor` (which is a libm call on x86-64, a tenth of building the
    /// grid), and below 0 both give the first cell.
    fn cell_of(&self, v: f64, n: usize) -> usize {
        let t = v * self.per_px;
        if t >= 0.0 {
            (t as usize).min(n.saturating_sub(1))
        } else {
            0
        }
    }

    /// The index of the hit nearest (x, y) among those whose circle (radius + `slack_px`)
    /// contains it; ties go to the earlier hit.
    pub fn nearest(&self, hits: &[Hit], x: f64, y: f64, slack_px: f64) -> Option<usize> {
        if self.cols == 0 || self.rows == 0 || !(x.is_finite() && y.is_finite()) {
            return None;
        }
        // A point outside the grid can still be within reach of a dot on its edge: clamping
        // is monotone and moves two points no further apart in cells, so that dot's centre
        // is still in the cells next to the point's; the distance test below decides.
        let (col, row) = (self.cell_of(x, self.cols), self.cell_of(y, self.rows));
        let mut best: Option<(f64, usize)> = None;
        for r in row.saturating_sub(1)..=(row + 1).min(self.rows - 1) {
            let (first, last) = (r * self.cols + col.saturating_sub(1), r * self.cols + (col + 1).min(self.cols - 1));
            let (a, b) = (self.cells[first] as usize, self.cells[last + 1] as usize);
            for &i in &self.items[a..b] {
                let i = i as usize;
                let Some(h) = hits.get(i) else { continue };
                let d2 = (h.cx - x).powi(2) + (h.cy - y).powi(2);
                let reach = h.r.max(0.0) + slack_px;
                if d2 <= reach * reach && best.is_none_or(|(bd, bi)| d2 < bd || (d2 == bd && i < bi)) {
                    best = Some((d2, i));
                }
            }
        }
        best.map(|(_, i)| i)
    }
}

/// A scene's grid, built on the first hover rather than with the scene: a zoom or pan
/// redraws many scenes that are never hovered, and building the grid of 30,000 dots was a
/// tenth of the hierarchical scene's time (`scene_10k_kernels/hierarchical`,
/// docs/PERFORMANCE.md). Built from the scene's hits, so two scenes with equal hits have
/// equal grids: equality ignores it, and a hovered scene still equals a fresh one.
#[derive(Clone, Debug, Default)]
pub struct LazyGrid(OnceLock<HitGrid>);

impl LazyGrid {
    /// The grid, built by `build` the first time.
    pub fn get_or_build(&self, build: impl FnOnce() -> HitGrid) -> &HitGrid {
        self.0.get_or_init(build)
    }
}

impl PartialEq for LazyGrid {
    fn eq(&self, _: &LazyGrid) -> bool {
        true
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
        let mut next = crate::chart::test_rng::uniform(0x9E37_79B9_7F4A_7C15);
        // Some dots poke out past the scene's edges (as a dot on the plot's edge may).
        let hits: Vec<Hit> = (0..30_000).map(|k| hit(k, next() * 1000.0 - 20.0, next() * 640.0 - 20.0, 3.5 + 9.0 * next() * next())).collect();
        let g = HitGrid::new(&hits, 960.0, 600.0, 3.0);
        // The lattice runs past the scene's edges: dots there are found from outside.
        for qy in (-14..614).step_by(7) {
            for qx in (-22..982).step_by(11) {
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
