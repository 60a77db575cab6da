//! The pixmap being drawn: a premultiplied RGBA buffer, the clip of the tile being drawn, and
//! the three ways pixels get there: dot stamps, horizontal lines, other line segments. Shapes
//! arrive front to back and go *under* what is drawn (`pixel::under`).

use super::pixel::{ceil_i, floor_i, greater, lesser, premultiplied, under, unpremultiply};
use super::stamp::{Prepared, Stamp, StampCache};
use crate::chart::scene::{Color, Shape};

pub struct Painter {
    /// Device position of the buffer's top-left pixel.
    x0: i64,
    y0: i64,
    width: usize,
    /// Premultiplied RGBA, one u32 per pixel (see `pixel::under`).
    buf: Vec<u32>,
    /// The buffer rectangle `[left, top, right, bottom)` drawing is confined to (a tile).
    pub clip: [usize; 4],
}

impl Painter {
    /// A transparent `width` × `height` buffer at device position `origin`.
    pub fn new(origin: [i64; 2], width: usize, height: usize) -> Painter {
        Painter { x0: origin[0], y0: origin[1], width, buf: vec![0; width * height], clip: [0, 0, width, height] }
    }

    /// The straight-alpha pixels.
    pub fn finish(self) -> Vec<u8> {
        unpremultiply(&self.buf)
    }

    /// One shape (CSS pixels × `scale`) within the clip, with what [`StampCache::prepare`] made
    /// of it.
    pub fn shape(&mut self, s: &Shape, prep: &Prepared, stamps: &StampCache, scale: f64) {
        match (prep, s) {
            (Prepared::Cached { stamp, left, top }, _) => {
                if let Some(st) = stamps.stamps.get(*stamp as usize) {
                    self.blit(st, left - self.x0, top - self.y0);
                }
            }
            (Prepared::Fresh { key, left, top }, _) => self.blit(&Stamp::new(key), left - self.x0, top - self.y0),
            (Prepared::Shape, Shape::Line { points, color, width, .. }) => {
                let mut k = 1;
                while k < points.len() {
                    let (a, b) = (points[k - 1], points[k]);
                    self.segment((a.0 * scale, a.1 * scale), (b.0 * scale, b.1 * scale), width * scale, *color);
                    k += 1;
                }
            }
            _ => {}
        }
    }

    /// Blends a stamp whose top-left pixel is at buffer position (left, top), within the clip.
    fn blit(&mut self, st: &Stamp, left: i64, top: i64) {
        let [cl, ct, cr, cb] = self.clip.map(|v| v as i64);
        let mut j = 0;
        while j < st.size {
            let y = top + j as i64;
            let (lo, hi) = st.spans[j];
            let (from, to) = ((left + lo as i64).max(cl), (left + hi as i64).min(cr));
            if y >= ct && y < cb && from < to {
                let (row, src) = (y as usize * self.width, j * st.size);
                let mut x = from;
                while x < to {
                    if let (Some(&s), Some(d)) = (st.px.get(src + (x - left) as usize), self.buf.get_mut(row + x as usize)) {
                        under(d, s);
                    }
                    x += 1;
                }
            }
            j += 1;
        }
    }

    /// The buffer's pixel indices along one axis that the interval `[from, to)` touches,
    /// within the clip's `clip_lo..clip_hi` on that axis.
    fn range(from: f64, to: f64, clip_lo: usize, clip_hi: usize) -> (usize, usize) {
        let lo = floor_i(from).max(clip_lo as i64);
        let hi = ceil_i(to).min(clip_hi as i64);
        if hi > lo {
            (lo as usize, hi as usize)
        } else {
            (0, 0)
        }
    }

    /// A straight segment of `width` from `a` to `b` (device pixels), butt ends.
    fn segment(&mut self, a: (f64, f64), b: (f64, f64), width: f64, color: Color) {
        let (x0, y0) = (self.x0 as f64, self.y0 as f64);
        let (a, b) = ((a.0 - x0, a.1 - y0), (b.0 - x0, b.1 - y0));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        if !(dx.is_finite() && dy.is_finite() && width.is_finite() && width > 0.0) || (dx == 0.0 && dy == 0.0) {
            return;
        }
        // Walk the major axis; `transpose` swaps x and y so one loop serves both.
        let transpose = dy.abs() > dx.abs();
        let (a, b) = if transpose { ((a.1, a.0), (b.1, b.0)) } else { (a, b) };
        let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        let slope = (b.1 - a.1) / (b.0 - a.0);
        if slope == 0.0 && !transpose {
            return self.horizontal(a.0, b.0, a.1, width, color);
        }
        // The line's extent across the major axis: its width seen along the minor axis.
        let thick = width * (1.0 + slope * slope).sqrt();
        let [left, top, right, bottom] = self.clip;
        let (major, minor) = if transpose { ((top, bottom), (left, right)) } else { ((left, right), (top, bottom)) };
        let (m0, m1) = Self::range(a.0, b.0, major.0, major.1);
        for m in m0..m1 {
            let (lo, hi) = (greater(m as f64, a.0), lesser(m as f64 + 1.0, b.0));
            let along = hi - lo;
            if along <= 0.0 {
                continue;
            }
            let centre = a.1 + slope * ((lo + hi) / 2.0 - a.0);
            let (lo_edge, hi_edge) = (centre - thick / 2.0, centre + thick / 2.0);
            let (n0, n1) = Self::range(lo_edge, hi_edge, minor.0, minor.1);
            for n in n0..n1 {
                let across = lesser(n as f64 + 1.0, hi_edge) - greater(n as f64, lo_edge);
                let (x, y) = if transpose { (n, m) } else { (m, n) };
                if let Some(d) = self.buf.get_mut(y * self.width + x) {
                    under(d, premultiplied(color, along * across));
                }
            }
        }
    }

    /// [`Painter::segment`] for a horizontal line from x `a` to `b` (a ≤ b) centred on `y`:
    /// the links of a hierarchical chart (one kernel's dots share a height) and the grid.
    /// Each row's coverage is computed once and the row walked left to right.
    fn horizontal(&mut self, a: f64, b: f64, y: f64, width: f64, color: Color) {
        let (top, bottom) = (y - width / 2.0, y + width / 2.0);
        let (c0, c1) = Self::range(a, b, self.clip[0], self.clip[2]);
        let (r0, r1) = Self::range(top, bottom, self.clip[1], self.clip[3]);
        // Columns wholly covered along the line: ⌈a⌉ .. ⌊b⌋; the (at most two) others are ends.
        let (i0, i1) = ((ceil_i(a).max(c0 as i64) as usize).min(c1), (floor_i(b).max(0) as usize).clamp(c0, c1));
        let (i0, i1) = if i1 > i0 { (i0, i1) } else { (c1, c1) };
        for n in r0..r1 {
            let across = lesser(n as f64 + 1.0, bottom) - greater(n as f64, top);
            let full = premultiplied(color, across);
            let row = n * self.width;
            for m in (c0..i0).chain(i1..c1) {
                let along = lesser(m as f64 + 1.0, b) - greater(m as f64, a);
                if let Some(d) = self.buf.get_mut(row + m) {
                    under(d, premultiplied(color, along * across));
                }
            }
            if let Some(inner) = self.buf.get_mut(row + i0..row + i1) {
                let mut k = 0;
                while k < inner.len() {
                    under(&mut inner[k], full);
                    k += 1;
                }
            }
        }
    }
}
