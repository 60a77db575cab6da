//! A uniform grid over the boxes a [`super::Placer`] has taken, so testing a label candidate
//! looks at the boxes near it instead of every box: a hierarchical chart of 10 000 kernels
//! takes 30 000 dot boxes, and each roof label tries dozens of candidates of many pieces.
//!
//! A small box (no wider and no taller than half a cell: most dots) is filed once, in the cell
//! of its top-left corner; a larger one (legend, labels, big dots) in every cell it touches.
//! A query reads the cells its box touches plus one column to the left and one row above,
//! where a small box overlapping it has its corner. Cells clamp at the grid's edges, so a box
//! outside the grid (a legend, a tick label in the margin) is filed in the edge cells, and a
//! query outside the grid reads those same cells. A cell's boxes are a singly linked list in
//! one flat vector: filing a box is a push, no allocation per cell. A query answers only
//! "does any taken box overlap this one", so the order within a cell does not matter and the
//! answer is exactly that of scanning every box.

use super::{overlaps, Box2};

/// Smallest cell side: about a dot's box (radius 3.5 to 12.5 px) or a line of label text.
const MIN_CELL_PX: f64 = 16.0;
/// Most cells: a huge chart gets bigger cells rather than a huge grid.
const MAX_CELLS: f64 = 65_536.0;
/// End of a cell's list.
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug)]
pub struct TakenGrid {
    origin: [f64; 2],
    /// Cells per pixel (a multiplication per lookup; any monotone cell function serves).
    per_px: f64,
    /// Half a cell side: boxes no larger are "small", filed once.
    half_cell: f64,
    cols: usize,
    rows: usize,
    /// The first entry of each cell's list, `NONE` when the cell is empty.
    head: Vec<u32>,
    /// Per entry: the index of the box it files, and the next entry of the same cell.
    entries: Vec<(u32, u32)>,
    /// Set once more boxes or entries were filed than `u32` counts: every query then answers
    /// "maybe", and the caller scans all boxes (the old, linear behaviour).
    overflowed: bool,
}

impl TakenGrid {
    /// A grid over `area` (the placer's bounds). An area that is not finite and non-empty
    /// gets one cell: still correct, as slow as a scan.
    pub fn new(area: Box2) -> TakenGrid {
        let (w, h) = (area[2] - area[0], area[3] - area[1]);
        let usable = area.iter().all(|v| v.is_finite()) && w > 0.0 && h > 0.0;
        let (origin, cell_px, cols, rows) = if usable {
            let cell_px = MIN_CELL_PX.max((w * h / MAX_CELLS).sqrt());
            ([area[0], area[1]], cell_px, ((w / cell_px).ceil() as usize).max(1), ((h / cell_px).ceil() as usize).max(1))
        } else {
            ([0.0, 0.0], 1.0, 1, 1)
        };
        TakenGrid { origin, per_px: 1.0 / cell_px, half_cell: cell_px / 2.0, cols, rows, head: vec![NONE; cols * rows], entries: Vec::new(), overflowed: false }
    }

    /// Room for `n` more entries (a dot's box touches one to four cells).
    pub fn reserve(&mut self, n: usize) {
        self.entries.reserve(n);
    }

    /// The cell of coordinate `v` along an axis starting at `origin` with `n` cells, clamped;
    /// monotone in `v`, so the cells of two overlapping extents overlap.
    fn cell(&self, v: f64, origin: f64, n: usize) -> usize {
        // For t ≥ 0 the truncating cast is `floor` (a libm call on x86-64); below 0 and NaN
        // give the first cell, infinity (saturating) the last.
        let t = (v - origin) * self.per_px;
        if t >= 0.0 {
            (t as usize).min(n - 1)
        } else {
            0
        }
    }

    /// Cells `[col0, row0, col1, row1]` a box touches. Inverted boxes (right < left) still
    /// overlap some boxes under [`overlaps`]; their extent is taken from min to max, which
    /// covers every box they overlap.
    fn span(&self, b: &Box2) -> [usize; 4] {
        let (x0, x1) = (b[0].min(b[2]), b[0].max(b[2]));
        let (y0, y1) = (b[1].min(b[3]), b[1].max(b[3]));
        let (ox, oy) = (self.origin[0], self.origin[1]);
        [self.cell(x0, ox, self.cols), self.cell(y0, oy, self.rows), self.cell(x1, ox, self.cols), self.cell(y1, oy, self.rows)]
    }

    /// Files box number `index` (its index in the caller's list of taken boxes).
    pub fn insert(&mut self, index: usize, b: &Box2) {
        // A box with a NaN side overlaps nothing (every comparison is false): nothing to file.
        if self.overflowed || b.iter().any(|v| v.is_nan()) {
            return;
        }
        let Ok(index) = u32::try_from(index) else {
            self.overflowed = true;
            return;
        };
        // Half a cell, not a whole one: the margin keeps "its corner is at most one cell
        // before the query's" true where rounding moves a cell boundary.
        let small = (b[2] - b[0]).abs() <= self.half_cell && (b[3] - b[1]).abs() <= self.half_cell;
        let s = if small {
            let (col, row) = (self.cell(b[0].min(b[2]), self.origin[0], self.cols), self.cell(b[1].min(b[3]), self.origin[1], self.rows));
            [col, row, col, row]
        } else {
            self.span(b)
        };
        // Index loops, not `..=` ranges: a dot's box is filed for each of a chart's 30,000
        // dots, and in the size-optimised wasm an inclusive range's `next` is a call.
        let mut row = s[1];
        while row <= s[3] {
            let mut col = s[0];
            while col <= s[2] {
                let c = row * self.cols + col;
                let e = u32::try_from(self.entries.len()).unwrap_or(NONE);
                let Some(head) = self.head.get_mut(c).filter(|_| e != NONE) else {
                    self.overflowed = true;
                    return;
                };
                self.entries.push((index, *head));
                *head = e;
                col += 1;
            }
            row += 1;
        }
    }

    /// Whether any of `boxes` (the boxes filed, by index) overlaps `b`.
    pub fn any_overlap(&self, boxes: &[Box2], b: &Box2) -> bool {
        if b.iter().any(|v| v.is_nan()) {
            return false; // as `overlaps`: a NaN side fails its comparison
        }
        if self.overflowed {
            return boxes.iter().any(|t| overlaps(b, t));
        }
        let s = self.span(b);
        for row in s[1].saturating_sub(1)..=s[3] {
            for col in s[0].saturating_sub(1)..=s[2] {
                let mut e = self.head[row * self.cols + col];
                while let Some(&(i, next)) = self.entries.get(e as usize) {
                    if boxes.get(i as usize).is_some_and(|t| overlaps(b, t)) {
                        return true;
                    }
                    e = next;
                }
            }
        }
        false
    }
}
