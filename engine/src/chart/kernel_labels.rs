//! Names on the chart: the longest-running kernels labelled beside their dots.
//!
//! A reader should not have to hover to know which dot is the GEMM. The kernels that take the
//! most time are labelled with their short names ([`crate::domain::short_names`]: distinct
//! where short names collide, middle cut past a length), placed like the roof labels: the
//! first free spot of a few around the dot, then a few further out with a thin leader line,
//! else no label (the table has every name). Labels are placed last, after the roofs', so a
//! kernel's name never takes a roof's place.

use super::frame::{Builder, LEGEND_PX};
use super::labels::shape_boxes;
use super::scene::{Anchor, Shape};
use super::ChartInput;
use crate::domain::short_names::{chart_label, distinct_display_names};
use std::borrow::Cow;

/// Kernels labelled, longest-running first.
pub const LABELLED: usize = 5;
/// A kernel is labelled only if it takes at least this share of the run time.
pub const MIN_SHARE: f64 = 0.01;
/// Characters of a label.
pub const LABEL_CHARS: usize = 34;

/// A drawn dot that may be labelled: kernel index, centre and radius (pixels).
pub type Anchored = (usize, (f64, f64), f64);

/// The kernels' display names: the caller's (borrowed), else computed for these kernels.
pub fn names_of<'a>(input: &ChartInput<'a>) -> Cow<'a, [String]> {
    match input.names {
        Some(n) if n.len() == input.kernels.len() => Cow::Borrowed(n),
        _ => Cow::Owned(distinct_display_names(&input.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>())),
    }
}

/// The [`LABELLED`] anchors of the longest-running kernels with at least [`MIN_SHARE`] of the
/// run time, longest first (ties: the earlier kernel). One pass that keeps the few best:
/// a chart has tens of thousands of dots and labels five.
fn longest_anchors(input: &ChartInput, dots: &[Anchored]) -> Vec<Anchored> {
    let shares = input.time_shares();
    let share = |d: &Anchored| shares.get(d.0).copied().unwrap_or(0.0);
    let mut best: Vec<Anchored> = Vec::with_capacity(LABELLED + 1);
    for d in dots.iter().filter(|d| share(d) >= MIN_SHARE) {
        if best.iter().any(|b| b.0 == d.0) {
            continue;
        }
        let at = best.iter().position(|b| share(b) < share(d) || (share(b) == share(d) && b.0 > d.0)).unwrap_or(best.len());
        if at < LABELLED {
            best.insert(at, *d);
            best.truncate(LABELLED);
        }
    }
    best
}

impl Builder {
    /// Labels the longest-running kernels among `dots` (one dot per kernel: the one to name
    /// it by) with `names` (parallel to the kernels).
    pub fn kernel_labels(&mut self, input: &ChartInput, dots: &[Anchored], names: &[String]) {
        // The roofs' key first: a roof's label comes before a kernel's name.
        self.draw_keys();
        let size = LEGEND_PX;
        for (kernel, (cx, cy), r) in longest_anchors(input, dots) {
            let Some(name) = names.get(kernel) else { continue };
            let text = chart_label(name, LABEL_CHARS);
            let gap = r + 4.0;
            let near = [
                (cx + gap, cy + 4.0, Anchor::Start),
                (cx - gap, cy + 4.0, Anchor::End),
                (cx, cy - gap - 2.0, Anchor::Middle),
                (cx, cy + gap + size, Anchor::Middle),
            ];
            let far = [
                (cx + gap + 14.0, cy - gap - 10.0, Anchor::Start),
                (cx - gap - 14.0, cy - gap - 10.0, Anchor::End),
                (cx + gap + 14.0, cy + gap + size + 8.0, Anchor::Start),
                (cx - gap - 14.0, cy + gap + size + 8.0, Anchor::End),
                (cx, cy - gap - 26.0, Anchor::Middle),
                (cx, cy + gap + size + 22.0, Anchor::Middle),
            ];
            let shapes: Vec<Shape> = near
                .iter()
                .chain(&far)
                .map(|&(x, y, anchor)| Shape::Text { x, y, text: text.clone(), color: self.pal.text, size, anchor, rotate_deg: 0.0 })
                .collect();
            let boxes: Vec<Vec<_>> = shapes.iter().map(shape_boxes).collect();
            let Some(i) = self.placer.place_pieces_in(self.plot, &boxes) else { continue };
            if i >= near.len() {
                // A leader from the dot's edge to the label's nearest corner.
                let b = boxes[i][0];
                let tx = cx.clamp(b[0], b[2]);
                let ty = if b[3] < cy { b[3] } else { b[1] };
                let (dx, dy) = (tx - cx, ty - cy);
                let len = dx.hypot(dy);
                if len > r + 2.0 {
                    let from = (cx + dx / len * (r + 1.0), cy + dy / len * (r + 1.0));
                    self.under.push(Shape::Line { points: vec![from, (tx, ty)], color: self.pal.link, width: 1.0, dash: false });
                }
            }
            self.over.push(shapes[i].clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::chart::labels::{overlaps, shape_boxes};
    use crate::chart::{build, ChartInput, Shape};
    use crate::domain::counters::Counter;
    use crate::domain::profile::KernelProfile;
    use crate::model::catalogue;

    #[test]
    fn the_longest_kernels_are_named_without_overlaps() {
        let m = catalogue::v100();
        let k = |name: &str, f: f64, b: f64, t: f64| KernelProfile::from_counters(name, &[(Counter::Fp32Flops, f), (Counter::DramBytes, b), (Counter::TimeS, t)]);
        let ks = [
            k("void big<float>(int)", 1e12, 1e10, 1.0),
            k("void big<double>(int)", 1e12, 1.1e10, 0.9),
            k("tiny_kernel", 1e9, 1e9, 0.001),
            k("middle", 1e11, 1e8, 0.2),
        ];
        let s = build(&ChartInput::new(&ks, &m, 900.0, 560.0));
        let texts: Vec<&Shape> = s.shapes.iter().filter(|sh| matches!(sh, Shape::Text { .. })).collect();
        let named = |t: &str| texts.iter().any(|sh| matches!(sh, Shape::Text { text, .. } if text == t));
        // Colliding short names (big<…>) get their template arguments back.
        assert!(named("big<float>") && named("big<double>") && named("middle"), "{texts:?}");
        // 0.1% of the run time: not named.
        assert!(!named("tiny_kernel"));
        // No two texts overlap (a slanted roof label's own pieces do, and do not count).
        let boxes: Vec<Vec<_>> = texts.iter().map(|t| shape_boxes(t)).collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(!a.iter().any(|x| b.iter().any(|y| overlaps(x, y))), "{a:?} {b:?}");
            }
        }
    }
}
