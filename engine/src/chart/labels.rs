//! Greedy label placement: each label tries its candidate positions in order and takes the
//! first whose box overlaps nothing already placed (other labels, dots). A label with no free
//! candidate is dropped rather than drawn over something: the value is still in the table.
//! Taken boxes are indexed by a uniform grid ([`taken`]), so a candidate is tested against
//! the boxes near it only, with the same answer as testing it against all of them.

mod taken;
mod width;

use taken::TakenGrid;
pub use width::text_width;

/// An axis-aligned box `[left, top, right, bottom]` in pixels.
pub type Box2 = [f64; 4];

/// The box of a text, before rotation: its width as [`text_width`] estimates it (no narrower
/// than a browser draws it), 0.8 em above the baseline and 0.25 em below.
pub fn text_box(x: f64, y: f64, text: &str, size: f64, anchor: super::Anchor) -> Box2 {
    let w = text_width(text, size);
    let left = match anchor {
        super::Anchor::Start => x,
        super::Anchor::Middle => x - w / 2.0,
        super::Anchor::End => x - w,
    };
    [left, y - size * 0.8, left + w, y + size * 0.25]
}

/// The bounding box of `b` rotated by `deg` about (x, y).
pub fn rotated(b: Box2, x: f64, y: f64, deg: f64) -> Box2 {
    let (s, c) = deg.to_radians().sin_cos();
    let corners = [(b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])];
    let mut out = [f64::MAX, f64::MAX, f64::MIN, f64::MIN];
    for (px, py) in corners {
        let (dx, dy) = (px - x, py - y);
        let (rx, ry) = (x + dx * c - dy * s, y + dx * s + dy * c);
        out = [out[0].min(rx), out[1].min(ry), out[2].max(rx), out[3].max(ry)];
    }
    out
}

/// The box a [`super::Shape::Text`] covers (rotation included); `None` for other shapes.
/// The placer reserves exactly this box, so tests can check placed labels from the shapes.
pub fn shape_box(shape: &super::Shape) -> Option<Box2> {
    match shape {
        super::Shape::Text { x, y, text, size, anchor, rotate_deg, .. } => {
            let b = text_box(*x, *y, text, *size, *anchor);
            Some(if *rotate_deg == 0.0 { b } else { rotated(b, *x, *y, *rotate_deg) })
        }
        _ => None,
    }
}

/// The area a [`super::Shape::Text`] covers as a few boxes: one for level or vertical text,
/// and for slanted text (roof labels) one box per glyph-sized piece along the baseline, whose
/// rotated bounds hug the text instead of the large box around the whole slanted line. The
/// placer reserves exactly these boxes, so tests can check placed labels from the shapes.
pub fn shape_boxes(shape: &super::Shape) -> Vec<Box2> {
    let super::Shape::Text { x, y, text, size, anchor, rotate_deg, .. } = shape else { return Vec::new() };
    let b = text_box(*x, *y, text, *size, *anchor);
    let quarter = (rotate_deg / 90.0).round() * 90.0;
    if (rotate_deg - quarter).abs() < 1e-9 {
        return vec![if *rotate_deg == 0.0 { b } else { rotated(b, *x, *y, *rotate_deg) }];
    }
    let pieces = ((b[2] - b[0]) / size).ceil().max(1.0) as usize;
    let w = (b[2] - b[0]) / pieces as f64;
    (0..pieces).map(|i| rotated([b[0] + i as f64 * w, b[1], b[0] + (i + 1) as f64 * w, b[3]], *x, *y, *rotate_deg)).collect()
}

/// Whether two boxes share area (touching edges do not count).
pub fn overlaps(a: &Box2, b: &Box2) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
}

/// Boxes already taken, and the area labels must stay inside.
pub struct Placer {
    taken: Vec<Box2>,
    /// Index of `taken`, kept in step by [`Placer::occupy`] and the `place` methods.
    grid: TakenGrid,
    bounds: Box2,
}

/// Whether `b` is finite and inside `bounds`.
fn inside(bounds: &Box2, b: &Box2) -> bool {
    b.iter().all(|v| v.is_finite()) && b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3]
}

impl Placer {
    pub fn new(bounds: Box2) -> Self {
        Placer { taken: Vec::new(), grid: TakenGrid::new(bounds), bounds }
    }

    /// Room for `n` more taken boxes (the dots of a chart), allocated once.
    pub fn reserve(&mut self, n: usize) {
        self.taken.reserve(n);
        // Most dots' boxes (7 px) are filed once, the largest (25 px) in up to four cells.
        self.grid.reserve(n.saturating_mul(2));
    }

    /// Marks an area as occupied (a dot, a legend).
    pub fn occupy(&mut self, b: Box2) {
        self.grid.insert(self.taken.len(), &b);
        self.taken.push(b);
    }

    /// Whether `b` overlaps a taken box.
    fn overlaps_taken(&self, b: &Box2) -> bool {
        self.grid.any_overlap(&self.taken, b)
    }

    /// The index of the first candidate that is inside the bounds and free; it is then taken.
    pub fn place(&mut self, candidates: &[Box2]) -> Option<usize> {
        self.place_in(self.bounds, candidates)
    }

    /// [`Placer::place`] inside other bounds (axis tick labels live outside the plot area).
    pub fn place_in(&mut self, bounds: Box2, candidates: &[Box2]) -> Option<usize> {
        let i = candidates.iter().position(|c| inside(&bounds, c) && !self.overlaps_taken(c))?;
        self.occupy(candidates[i]);
        Some(i)
    }

    /// [`Placer::place_in`] for candidates made of several boxes (slanted text): the first
    /// candidate all of whose boxes are inside and free; all its boxes are then taken.
    pub fn place_pieces_in(&mut self, bounds: Box2, candidates: &[Vec<Box2>]) -> Option<usize> {
        let free = |c: &Vec<Box2>| !c.is_empty() && c.iter().all(|b| inside(&bounds, b) && !self.overlaps_taken(b));
        let i = candidates.iter().position(free)?;
        for &b in &candidates[i] {
            self.occupy(b);
        }
        Some(i)
    }

    /// Whether a box is free (inside `bounds`, overlapping nothing taken), without taking it.
    pub fn is_free(&self, bounds: Box2, b: &Box2) -> bool {
        b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3] && !self.overlaps_taken(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_label_moves_off_the_first() {
        let mut p = Placer::new([0.0, 0.0, 100.0, 100.0]);
        let a = [10.0, 10.0, 50.0, 20.0];
        let b = [30.0, 15.0, 70.0, 25.0];
        let c = [30.0, 30.0, 70.0, 40.0];
        assert_eq!(p.place(&[a]), Some(0));
        assert_eq!(p.place(&[b, c]), Some(1));
        assert_eq!(p.place(&[[90.0, 0.0, 120.0, 10.0]]), None, "outside the bounds");
    }

    /// The placer before the grid, verbatim: the reference answers.
    struct Linear {
        taken: Vec<Box2>,
    }

    impl Linear {
        fn place_in(&mut self, bounds: Box2, candidates: &[Box2]) -> Option<usize> {
            let i = candidates.iter().position(|c| inside(&bounds, c) && !self.taken.iter().any(|t| overlaps(c, t)))?;
            self.taken.push(candidates[i]);
            Some(i)
        }

        fn place_pieces_in(&mut self, bounds: Box2, candidates: &[Vec<Box2>]) -> Option<usize> {
            let free = |c: &Vec<Box2>| !c.is_empty() && c.iter().all(|b| inside(&bounds, b) && !self.taken.iter().any(|t| overlaps(b, t)));
            let i = candidates.iter().position(free)?;
            self.taken.extend(candidates[i].iter().copied());
            Some(i)
        }

        fn is_free(&self, bounds: Box2, b: &Box2) -> bool {
            b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3] && !self.taken.iter().any(|t| overlaps(b, t))
        }
    }

    #[test]
    fn agrees_with_a_linear_scan() {
        // A deterministic pseudo-random chart: 20 000 dot boxes (some off the plot, inverted,
        // NaN or infinite), then labels of one and of several pieces tried in and outside
        // the plot, each step answered by the grid and by the scan.
        let mut next = crate::chart::test_rng::uniform(0x2545_F491_4F6C_DD1D);
        let plot = [64.0, 40.0, 940.0, 549.0];
        let whole = [0.0, 0.0, 960.0, 595.0];
        let (mut grid, mut linear) = (Placer::new(plot), Linear { taken: Vec::new() });
        for i in 0..20_000 {
            // Dense in the lower left (as kernels crowd under a roof), sparse elsewhere.
            let (spread, r) = (if i % 20 == 0 { 1.0 } else { 0.45 }, 3.5 + 9.0 * next() * next());
            let (cx, cy) = (next() * 1000.0 * spread - 20.0, 620.0 - next() * 640.0 * spread);
            let b = match i % 997 {
                0 => [cx + r, cy - r, cx - r, cy + r],
                1 => [f64::NAN, cy - r, cx + r, cy + r],
                2 => [f64::NEG_INFINITY, cy - r, cx + r, cy + r],
                3 => [cx, cy, f64::INFINITY, f64::INFINITY],
                _ => [cx - r, cy - r, cx + r, cy + r],
            };
            grid.occupy(b);
            linear.taken.push(b);
        }
        let mut box_at = |w: f64, h: f64| {
            let (x, y) = (next() * 1000.0 - 20.0, next() * 640.0 - 20.0);
            [x, y, x + w * next(), y + h * next()]
        };
        let (mut placed, mut free) = (0, 0);
        for q in 0..1_000 {
            let bounds = if q % 3 == 0 { whole } else { plot };
            let singles: Vec<Box2> = (0..8).map(|_| box_at(60.0, 14.0)).collect();
            let a = grid.place_in(bounds, &singles);
            assert_eq!(a, linear.place_in(bounds, &singles), "query {q}");
            let pieces: Vec<Vec<Box2>> = (0..6).map(|_| (0..1 + q % 5).map(|_| box_at(14.0, 14.0)).collect()).collect();
            let b = grid.place_pieces_in(bounds, &pieces);
            assert_eq!(b, linear.place_pieces_in(bounds, &pieces), "query {q}");
            let probe = box_at(30.0, 30.0);
            let f = grid.is_free(bounds, &probe);
            assert_eq!(f, linear.is_free(bounds, &probe), "query {q}");
            placed += usize::from(a.is_some()) + usize::from(b.is_some());
            free += usize::from(f);
        }
        let bits = |t: &[Box2]| t.iter().map(|b| b.map(f64::to_bits)).collect::<Vec<_>>();
        assert!(bits(&grid.taken) == bits(&linear.taken), "same boxes taken (NaN sides compared by bits)");
        // Both answers occur, so the comparison means something.
        assert!(placed > 100 && placed < 1_900, "{placed}");
        assert!(free > 10 && free < 990, "{free}");
        assert!(grid.taken.len() > 20_100, "{}", grid.taken.len());
    }

    #[test]
    fn rotated_box_of_a_vertical_text() {
        let r = rotated([0.0, -10.0, 100.0, 0.0], 0.0, 0.0, -90.0);
        assert!((r[0] - -10.0).abs() < 1e-9 && (r[1] - -100.0).abs() < 1e-9, "{r:?}");
    }
}
