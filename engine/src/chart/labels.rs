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

fn overlaps(a: &Box2, b: &Box2) -> bool {
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
        let inside = |b: &Box2| b[0] >= self.bounds[0] && b[1] >= self.bounds[1] && b[2] <= self.bounds[2] && b[3] <= self.bounds[3];
        let i = candidates.iter().position(|c| inside(c) && !self.taken.iter().any(|t| overlaps(c, t)))?;
        self.taken.push(candidates[i]);
        Some(i)
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
