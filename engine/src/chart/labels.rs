//! Greedy label placement: each label tries its candidate positions in order and takes the
//! first whose box overlaps nothing already placed (other labels, dots). A label with no free
//! candidate is dropped rather than drawn over something: the value is still in the table.

/// An axis-aligned box `[left, top, right, bottom]` in pixels.
pub type Box2 = [f64; 4];

/// The approximate box of a text (average glyph width 0.56 em), before rotation.
pub fn text_box(x: f64, y: f64, text: &str, size: f64, anchor: super::Anchor) -> Box2 {
    let w = text.chars().count() as f64 * size * 0.56;
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
    bounds: Box2,
}

impl Placer {
    pub fn new(bounds: Box2) -> Self {
        Placer { taken: Vec::new(), bounds }
    }

    /// Marks an area as occupied (a dot, a legend).
    pub fn occupy(&mut self, b: Box2) {
        self.taken.push(b);
    }

    /// The index of the first candidate that is inside the bounds and free; it is then taken.
    pub fn place(&mut self, candidates: &[Box2]) -> Option<usize> {
        self.place_in(self.bounds, candidates)
    }

    /// [`Placer::place`] inside other bounds (axis tick labels live outside the plot area).
    pub fn place_in(&mut self, bounds: Box2, candidates: &[Box2]) -> Option<usize> {
        let inside = |b: &Box2| b.iter().all(|v| v.is_finite()) && b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3];
        let i = candidates.iter().position(|c| inside(c) && !self.taken.iter().any(|t| overlaps(c, t)))?;
        self.taken.push(candidates[i]);
        Some(i)
    }

    /// [`Placer::place_in`] for candidates made of several boxes (slanted text): the first
    /// candidate all of whose boxes are inside and free; all its boxes are then taken.
    pub fn place_pieces_in(&mut self, bounds: Box2, candidates: &[Vec<Box2>]) -> Option<usize> {
        let inside = |b: &Box2| b.iter().all(|v| v.is_finite()) && b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3];
        let free = |c: &Vec<Box2>| !c.is_empty() && c.iter().all(|b| inside(b) && !self.taken.iter().any(|t| overlaps(b, t)));
        let i = candidates.iter().position(free)?;
        self.taken.extend(candidates[i].iter().copied());
        Some(i)
    }

    /// Whether a box is free (inside `bounds`, overlapping nothing taken), without taking it.
    pub fn is_free(&self, bounds: Box2, b: &Box2) -> bool {
        b[0] >= bounds[0] && b[1] >= bounds[1] && b[2] <= bounds[2] && b[3] <= bounds[3] && !self.taken.iter().any(|t| overlaps(b, t))
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

    #[test]
    fn rotated_box_of_a_vertical_text() {
        let r = rotated([0.0, -10.0, 100.0, 0.0], 0.0, 0.0, -90.0);
        assert!((r[0] - -10.0).abs() < 1e-9 && (r[1] - -100.0).abs() < 1e-9, "{r:?}");
    }
}
