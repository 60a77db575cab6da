//! The pixmap being drawn: a premultiplied RGBA buffer, a mask of its opaque pixels, and the
//! three ways pixels get there: dot stamps, horizontal lines, other line segments. Shapes
//! arrive front to back and go *under* what is drawn (`pixel::under`).
//!
//! Why a mask of opaque pixels: drawn front to back, a pixel that is already opaque takes
//! nothing from the shapes behind it, and in a dense chart that is most of the work. Counted on
//! the browser benchmark's hierarchical chart of 10,000 kernels (`examples/raster_10k.rs`):
//! 3.33 M of the 3.57 M pixel blends of an image fell on opaque pixels. One bit per pixel, 64
//! to a word, says which are; a row of a stamp or a line reads its word and visits only the
//! pixels whose bit is clear (`trailing_zeros`), so a hidden dot row costs a few instructions
//! instead of a blend test per pixel. A dot up to 64 pixels wide keeps its rows' bits
//! (`Stamp::bits`), shifted onto the two words a row of it can touch.
//!
//! A second mask has a bit per 8 × 8 block of pixels, set once all 64 are opaque: a dot whose
//! box lies in such blocks is skipped whole after a few bit tests, without reading its rows. In
//! that chart 18,614 of the 30,004 dots are wholly hidden, and the blocks skip 13,977 of them.
//!
//! Invariant: a bit is set only for a pixel whose alpha is 255 (blending under an opaque pixel
//! changes nothing, and alpha never falls), and a block's bit only when all its pixels' bits
//! are, so skipping set bits gives the image of visiting every pixel. A pixel may be opaque
//! with its bit still clear: that only costs a visit.

use super::pixel::{ceil_i, floor_i, greater, lesser, premultiplied, under, unpremultiply};
use super::stamp::{PixelBox, Prepared, Stamp, StampCache};
use crate::chart::scene::{Color, Shape};

/// Pixels per word of the opacity mask.
const WORD_PX: usize = 64;
/// Side of a block of the second mask, pixels; a block's row is one byte of a mask word.
const BLOCK_PX: usize = 8;

pub struct Painter {
    /// Device position of the buffer's top-left pixel.
    x0: i64,
    y0: i64,
    width: usize,
    height: usize,
    /// Premultiplied RGBA, one u32 per pixel (see `pixel::under`).
    buf: Vec<u32>,
    /// One bit per pixel, set once the pixel is opaque (module docs); `words` words a row,
    /// pixel x of a row in bit x % 64 of word x / 64.
    opaque: Vec<u64>,
    words: usize,
    /// One bit per 8 × 8 block, set once its 64 pixels' bits are (module docs); `block_words`
    /// words a row of blocks.
    full: Vec<u64>,
    block_words: usize,
    /// Whether drawing skips the pixels the mask marks (always, except in the test that shows
    /// skipping them changes no pixel).
    skip_opaque: bool,
}

impl Painter {
    /// A transparent `width` × `height` buffer at device position `origin`.
    pub fn new(origin: [i64; 2], width: usize, height: usize) -> Painter {
        let words = width.div_ceil(WORD_PX);
        let block_words = width.div_ceil(BLOCK_PX * WORD_PX);
        let full = vec![0; block_words * height.div_ceil(BLOCK_PX)];
        Painter { x0: origin[0], y0: origin[1], width, height, buf: vec![0; width * height], opaque: vec![0; words * height], words, full, block_words, skip_opaque: true }
    }

    /// The same buffer, drawn without skipping opaque pixels: the reference the mask is tested
    /// against.
    #[cfg(test)]
    pub fn visiting_every_pixel(mut self) -> Painter {
        self.skip_opaque = false;
        self
    }

    /// The straight-alpha pixels (see [`super::Pixmap::pixels`]), converted in place.
    pub fn finish(mut self) -> Vec<u32> {
        unpremultiply(&mut self.buf);
        self.buf
    }

    /// One shape (CSS pixels × `scale`) within the buffer, with what [`StampCache::prepare`]
    /// made of it.
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

    /// Blends a stamp whose top-left pixel is at buffer position (left, top), clipped to the
    /// buffer.
    fn blit(&mut self, st: &Stamp, left: i64, top: i64) {
        // The stamp's rows on the buffer.
        let j0 = if top < 0 { (-top) as usize } else { 0 };
        let j1 = (self.height as i64 - top).clamp(0, st.size as i64) as usize;
        if left >= 0 && left + st.size as i64 <= self.width as i64 && st.bits.len() == st.size {
            // Every column on the buffer, and a row's pixels within two words of the mask: the
            // row's bits (`Stamp::bits`, for stamps up to 64 wide) shifted to the stamp's column.
            // A row whose pixels are all opaque costs two reads of the mask.
            let left = left as usize;
            let (first, shift) = (left / WORD_PX, left % WORD_PX);
            let mut j = j0;
            while j < j1 {
                let bits = st.bits.get(j).copied().unwrap_or(0);
                let y = (top + j as i64) as usize;
                let at = y * self.words + first;
                // Bits past the word's end go to the next word (none when the shift is 0).
                let (lo, hi) = (bits << shift, (bits >> (WORD_PX - 1 - shift)) >> 1);
                let (lo, hi) = (lo & !self.hidden(at), hi & !self.hidden(at + 1));
                if lo | hi != 0 {
                    let src = st.px.get(j * st.size..(j + 1) * st.size).unwrap_or(&[]);
                    let at = |x: usize| src.get(x - left).copied().unwrap_or(0);
                    self.blend(y, first, lo, at);
                    self.blend(y, first + 1, hi, at);
                }
                j += 1;
            }
            return;
        }
        // A dot across the buffer's edge or wider than a word: the row's span of columns.
        let mut j = j0;
        while j < j1 {
            let y = (top + j as i64) as usize;
            let (lo, hi) = st.spans[j];
            let (from, to) = ((left + lo as i64).max(0), (left + hi as i64).min(self.width as i64));
            if from < to {
                let src = (j * st.size) as i64 - left;
                self.row(y, from as usize, to as usize, |x| st.px.get((src + x as i64) as usize).copied().unwrap_or(0));
            }
            j += 1;
        }
    }

    /// Whether nothing of device-pixel box `b` is left to draw: its part on the buffer lies in
    /// full blocks, or it has none. A dot is tested so before its stamp is even looked up.
    pub fn covers(&self, b: &PixelBox) -> bool {
        let (x0, x1) = ((b[0] - self.x0).max(0), (b[2] - self.x0).min(self.width as i64));
        let (y0, y1) = ((b[1] - self.y0).max(0), (b[3] - self.y0).min(self.height as i64));
        x1 <= x0 || y1 <= y0 || self.blocks_full(x0 as usize, x1 as usize, y0 as usize, y1 as usize)
    }

    /// Whether every block that pixels `x0..x1` × `y0..y1` touch is full (all opaque): a row of
    /// blocks is one mask test per word it spans (one, for a dot).
    #[inline(always)]
    fn blocks_full(&self, x0: usize, x1: usize, y0: usize, y1: usize) -> bool {
        if !self.skip_opaque {
            return false;
        }
        let (bx0, bx1, by1) = (x0 / BLOCK_PX, (x1 - 1) / BLOCK_PX, (y1 - 1) / BLOCK_PX);
        let (w0, w1) = (bx0 / WORD_PX, bx1 / WORD_PX);
        let mut by = y0 / BLOCK_PX;
        while by <= by1 {
            let mut w = w0;
            while w <= w1 {
                // Blocks bx0..=bx1 that lie in word w, as its bits lo..=hi.
                let lo = if w == w0 { bx0 % WORD_PX } else { 0 };
                let hi = if w == w1 { bx1 % WORD_PX } else { WORD_PX - 1 };
                let want = (u64::MAX >> (WORD_PX - 1 - (hi - lo))) << lo;
                if self.full.get(by * self.block_words + w).copied().unwrap_or(0) & want != want {
                    return false;
                }
                w += 1;
            }
            by += 1;
        }
        true
    }

    /// Marks in the mask the pixels of row `y` whose bits are set in `became` (bit i: column
    /// 64 · `word` + i) as opaque, and a block as full once its 8 rows are.
    #[inline(always)]
    fn mark(&mut self, y: usize, word: usize, became: u64) {
        let Some(mask) = self.opaque.get_mut(y * self.words + word) else { return };
        let new = became & !*mask;
        *mask |= new;
        // Whether this made a byte of the word (a block's row) all ones; usually not.
        if (nonzero_bytes(!*mask) ^ HIGH_BITS) & nonzero_bytes(new) != 0 {
            self.mark_blocks(y / BLOCK_PX, word);
        }
    }

    /// Sets the bits of the blocks in row of blocks `by` and columns 64 · `word` .. + 64 whose
    /// 8 rows are all opaque.
    fn mark_blocks(&mut self, by: usize, word: usize) {
        if (by + 1) * BLOCK_PX > self.height {
            return;
        }
        let mut all = u64::MAX;
        let mut r = by * BLOCK_PX;
        while r < (by + 1) * BLOCK_PX {
            all &= self.opaque.get(r * self.words + word).copied().unwrap_or(0);
            r += 1;
        }
        // Byte g of `all` all ones: block 8 · `word` + g is full.
        let mut full = nonzero_bytes(!all) ^ HIGH_BITS;
        while full != 0 {
            let bx = word * (WORD_PX / BLOCK_PX) + full.trailing_zeros() as usize / BLOCK_PX;
            full &= full - 1;
            if let Some(f) = self.full.get_mut(by * self.block_words + bx / WORD_PX) {
                *f |= 1 << (bx % WORD_PX);
            }
        }
    }

    /// The mask's word `at` (index into `opaque`): the opaque pixels drawing may skip.
    #[inline(always)]
    fn hidden(&self, at: usize) -> u64 {
        if self.skip_opaque {
            self.opaque.get(at).copied().unwrap_or(0)
        } else {
            0
        }
    }

    /// Puts `src(x)` under pixels `from..to` of row `y`, a word of the mask at a time.
    #[inline(always)]
    fn row(&mut self, y: usize, from: usize, to: usize, src: impl Fn(usize) -> u32 + Copy) {
        let mut base = from - from % WORD_PX;
        while base < to {
            let (a, b) = (greater_u(from, base) - base, lesser_u(to, base + WORD_PX) - base);
            let bits = if b - a == WORD_PX { u64::MAX } else { ((1u64 << (b - a)) - 1) << a };
            let word = base / WORD_PX;
            let todo = bits & !self.hidden(y * self.words + word);
            self.blend(y, word, todo, src);
            base += WORD_PX;
        }
    }

    /// Puts `src(x)` under the pixels of row `y` whose bits are set in `todo` (bit i: column
    /// 64 · `word` + i), and marks in the mask those that become opaque.
    fn blend(&mut self, y: usize, word: usize, mut todo: u64, src: impl Fn(usize) -> u32) {
        if todo == 0 {
            return;
        }
        let (row, base) = (y * self.width, word * WORD_PX);
        let mut became = 0u64;
        while todo != 0 {
            let bit = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let x = base + bit;
            if let Some(d) = self.buf.get_mut(row + x) {
                under(d, src(x));
                became |= ((*d >> 24 == 255) as u64) << bit;
            }
        }
        if became != 0 {
            self.mark(y, word, became);
        }
    }

    /// Puts `src` under pixel (x, y), marking it in the mask if it becomes opaque.
    #[inline(always)]
    fn pixel(&mut self, x: usize, y: usize, src: u32) {
        if let Some(d) = self.buf.get_mut(y * self.width + x) {
            under(d, src);
            if *d >> 24 == 255 {
                self.mark(y, x / WORD_PX, 1 << (x % WORD_PX));
            }
        }
    }

    /// The buffer's pixel indices along one axis that the interval `[from, to)` touches,
    /// within `clip_lo..clip_hi` (the buffer's extent on that axis).
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
        let (major, minor) = if transpose { ((0, self.height), (0, self.width)) } else { ((0, self.width), (0, self.height)) };
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
                self.pixel(x, y, premultiplied(color, along * across));
            }
        }
    }

    /// [`Painter::segment`] for a horizontal line from x `a` to `b` (a ≤ b) centred on `y`:
    /// the links of a hierarchical chart (one kernel's dots share a height) and the grid.
    /// Each row's coverage is computed once and the row walked left to right.
    fn horizontal(&mut self, a: f64, b: f64, y: f64, width: f64, color: Color) {
        let (top, bottom) = (y - width / 2.0, y + width / 2.0);
        let (c0, c1) = Self::range(a, b, 0, self.width);
        let (r0, r1) = Self::range(top, bottom, 0, self.height);
        // Columns wholly covered along the line: ⌈a⌉ .. ⌊b⌋; the (at most two) others are ends.
        let (i0, i1) = ((ceil_i(a).max(c0 as i64) as usize).min(c1), (floor_i(b).max(0) as usize).clamp(c0, c1));
        let (i0, i1) = if i1 > i0 { (i0, i1) } else { (c1, c1) };
        for n in r0..r1 {
            let across = lesser(n as f64 + 1.0, bottom) - greater(n as f64, top);
            let full = premultiplied(color, across);
            for m in (c0..i0).chain(i1..c1) {
                if self.hidden(n * self.words + m / WORD_PX) >> (m % WORD_PX) & 1 == 0 {
                    let along = lesser(m as f64 + 1.0, b) - greater(m as f64, a);
                    self.pixel(m, n, premultiplied(color, along * across));
                }
            }
            if i1 > i0 {
                self.row(n, i0, i1, |_| full);
            }
        }
    }
}

/// The lesser of two indices (`usize::min` is a call in the size-optimised build).
#[inline(always)]
fn lesser_u(a: usize, b: usize) -> usize {
    if a < b {
        a
    } else {
        b
    }
}

/// The greater of two indices.
#[inline(always)]
fn greater_u(a: usize, b: usize) -> usize {
    if a > b {
        a
    } else {
        b
    }
}

/// The high bit of every byte.
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `v` that is not zero, and no other bit (exact, no carries
/// between bytes: the low seven bits are added apart from the high one).
#[inline(always)]
fn nonzero_bytes(v: u64) -> u64 {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    (((v & LOW) + LOW) | v) & HIGH_BITS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonzero_bytes_marks_each_byte_alone() {
        assert_eq!(nonzero_bytes(0), 0);
        assert_eq!(nonzero_bytes(u64::MAX), HIGH_BITS);
        // 0x01 above a zero byte, 0x80 alone, 0x7f: no borrow or carry reaches a neighbour.
        assert_eq!(nonzero_bytes(0x0100_8000_7f00_0001), 0x8000_8000_8000_0080);
    }

    #[test]
    fn a_block_is_full_once_its_64_pixels_are_opaque() {
        let mut p = Painter::new([0, 0], 100, 20);
        // Rows 8..16 of columns 64..72: block (8, 1), one row short of full, then full.
        for y in 8..15 {
            p.mark(y, 1, 0xff);
        }
        assert!(!p.blocks_full(64, 72, 8, 16));
        p.mark(15, 1, 0x0f);
        assert!(!p.blocks_full(64, 72, 8, 16), "half a row");
        p.mark(15, 1, 0xf0);
        assert!(p.blocks_full(64, 72, 8, 16) && p.blocks_full(66, 70, 9, 12));
        assert!(!p.blocks_full(60, 72, 8, 16), "the block to its left is empty");
        // The last row of blocks is 4 pixels tall (rows 16..20): never full.
        for y in 16..20 {
            p.mark(y, 0, u64::MAX);
        }
        assert!(!p.blocks_full(0, 8, 16, 20));
    }

    #[test]
    fn blocks_full_across_a_word_of_blocks() {
        // 1,100 pixels: blocks 0..138, two words of the block mask a row. Rows 0..8 opaque from
        // pixel 480 to 560: blocks 60..70, across the words' boundary at block 64.
        let mut p = Painter::new([0, 0], 1100, 16);
        for y in 0..8 {
            p.mark(y, 7, u64::MAX << 32);
            p.mark(y, 8, u64::MAX >> 16);
        }
        assert!(p.blocks_full(480, 560, 0, 8), "blocks 60..70");
        assert!(p.blocks_full(500, 520, 2, 6) && p.blocks_full(512, 513, 0, 1));
        assert!(!p.blocks_full(472, 560, 0, 8), "block 59 is empty");
        assert!(!p.blocks_full(480, 561, 0, 8), "block 70 is empty");
        assert!(!p.blocks_full(480, 560, 0, 9), "the row of blocks below is empty");
    }
}
