//! Binning shapes to square tiles of the pixmap, so each tile is drawn with its own shapes
//! while its pixels are in cache. Flat storage (offsets + indices, as `hit_grid`); within a
//! tile the shapes keep their scene order, which keeps the result that of a straight pass.

use super::stamp::PixelBox;

/// Side of a square tile, device pixels: 64 × 64 × 4 bytes = 16 KB, within a first-level cache.
pub const TILE_PX: usize = 64;

pub struct Tiles {
    pub cols: usize,
    pub rows: usize,
    offsets: Vec<u32>,
    items: Vec<u32>,
}

impl Tiles {
    /// The tiles of a `size` device-pixel pixmap at device `origin`, each listing the shapes
    /// whose box touches it.
    pub fn new(boxes: &[Option<PixelBox>], origin: [i64; 2], size: [usize; 2]) -> Tiles {
        let (cols, rows) = (size[0].div_ceil(TILE_PX), size[1].div_ceil(TILE_PX));
        let tile = |v: i64, n: usize| (v.max(0) as usize / TILE_PX).min(n.saturating_sub(1));
        // Each shape's tiles [col0, row0, col1, row1], inclusive; none if off the pixmap.
        let (w, h) = (size[0] as i64, size[1] as i64);
        let spans: Vec<Option<[usize; 4]>> = boxes
            .iter()
            .map(|b| {
                let [l, t, r, b] = (*b)?;
                let [l, t, r, b] = [l - origin[0], t - origin[1], r - origin[0], b - origin[1]];
                (r > 0 && b > 0 && l < w && t < h).then(|| [tile(l, cols), tile(t, rows), tile(r - 1, cols), tile(b - 1, rows)])
            })
            .collect();
        let mut offsets = vec![0u32; cols * rows + 1];
        for sp in spans.iter().flatten() {
            for row in sp[1]..=sp[3] {
                for col in sp[0]..=sp[2] {
                    offsets[row * cols + col + 1] += 1;
                }
            }
        }
        for t in 0..cols * rows {
            offsets[t + 1] += offsets[t];
        }
        let mut fill = offsets.clone();
        let mut items = vec![0u32; offsets[cols * rows] as usize];
        for (i, sp) in spans.iter().enumerate() {
            let Some(sp) = sp else { continue };
            for row in sp[1]..=sp[3] {
                for col in sp[0]..=sp[2] {
                    let t = row * cols + col;
                    items[fill[t] as usize] = i as u32;
                    fill[t] += 1;
                }
            }
        }
        Tiles { cols, rows, offsets, items }
    }

    /// Indices of the shapes tile `t` draws, in scene order.
    pub fn shapes(&self, t: usize) -> &[u32] {
        self.offsets.get(t..t + 2).map_or(&[], |o| &self.items[o[0] as usize..o[1] as usize])
    }
}
