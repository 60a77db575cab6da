//! Dots: size by share of run time, selection ring, hit area, and the link line between one
//! kernel's dots.
//!
//! Size: area grows with the kernel's share of the total run time, so the kernels worth
//! optimising stand out (the Amdahl view of docs/MODEL.md); a floor keeps short kernels
//! visible and hoverable.

use super::frame::Builder;
use super::scene::{Color, Hit, Marker, Shape};
use crate::model::Level;
use crate::domain::profile::KernelProfile;

/// Radius of a kernel with no time share, and the extra radius of one taking all the time.
pub const MIN_RADIUS_PX: f64 = 3.5;
pub const SHARE_RADIUS_PX: f64 = 9.0;
/// Gap between a selected dot and its ring.
const RING_GAP_PX: f64 = 3.0;

/// Each kernel's share of the kernels' total time, 0 where the time is unknown, zero,
/// negative or not finite.
pub fn time_shares(kernels: &[KernelProfile]) -> Vec<f64> {
    // One pass over the kernels (10 000 of them are megabytes to read): times first, then
    // divided in place; 0 stands for "no usable time", which adds nothing to the sum.
    let mut shares: Vec<f64> = kernels.iter().map(|k| k.time_s().filter(|t| t.is_finite() && *t > 0.0).unwrap_or(0.0)).collect();
    let total: f64 = shares.iter().filter(|t| **t > 0.0).sum();
    for s in &mut shares {
        *s = if total > 0.0 && *s > 0.0 { *s / total } else { 0.0 };
    }
    shares
}

/// Indices of `keys` from the largest key to the smallest, ties (and NaN) in index order. One
/// function for every "longest first" order of the charts: each `sort_by` closure would add
/// its own copy of the sort to the app's wasm.
pub fn largest_first(keys: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_unstable_by(|&a, &b| keys[b].total_cmp(&keys[a]).then(a.cmp(&b)));
    order
}

/// A dot's radius from its time share (area ∝ share above the floor).
pub fn radius_px(share: f64) -> f64 {
    MIN_RADIUS_PX + SHARE_RADIUS_PX * if share.is_finite() { share.clamp(0.0, 1.0).sqrt() } else { 0.0 }
}

/// Items in drawing order: the selected kernel's last, so its dots are on top. Stable. An
/// iterator (two passes over `items`), not a vector: charts draw 30 000 dots through it.
pub fn selected_last<'a, T>(items: &'a [T], kernel: impl Fn(&T) -> usize + Copy + 'a, selected: Option<usize>) -> impl Iterator<Item = &'a T> + 'a {
    selected_last_indices(items, kernel, selected).filter_map(move |i| items.get(i))
}

/// [`selected_last`] as indices into `items`, for a chart that reads something kept beside
/// each item (the hierarchical chart's cached `log10`s).
pub fn selected_last_indices<'a, T>(items: &'a [T], kernel: impl Fn(&T) -> usize + Copy + 'a, selected: Option<usize>) -> impl Iterator<Item = usize> + 'a {
    let rest = items.iter().enumerate().filter(move |(_, t)| Some(kernel(t)) != selected);
    let last = items.iter().enumerate().filter(move |(_, t)| selected.is_some() && Some(kernel(t)) == selected);
    rest.chain(last).map(|(i, _)| i)
}

/// One marker to draw, in data units.
#[derive(Clone, Copy, Debug)]
pub struct Dot {
    pub kernel: usize,
    pub x: f64,
    pub y: f64,
    pub r: f64,
    /// `None`: an open marker (Ding & Williams draw LD/ST intensities as open dots).
    pub fill: Option<Color>,
    pub stroke: Color,
    pub level: Option<Level>,
    pub marker: Marker,
    pub selected: bool,
}

impl Builder {
    /// Draws a dot, records its hit area and reserves its box against labels. Returns its
    /// pixel centre, or `None` (nothing drawn) when a value is not positive and finite or the
    /// dot is outside the plot area.
    pub fn dot(&mut self, d: Dot) -> Option<(f64, f64)> {
        let at = self.dot_px(d.x, d.y)?;
        self.dot_at(d, at)
    }

    /// [`Builder::dot`] at pixel centre `(cx, cy)`, already mapped from the dot's values.
    pub fn dot_at(&mut self, d: Dot, (cx, cy): (f64, f64)) -> Option<(f64, f64)> {
        if !(self.in_plot((cx, cy)) && d.r.is_finite() && d.r > 0.0) {
            return None;
        }
        let r = d.r;
        let (fill, stroke, width) = match d.fill {
            // A filled dot keeps a background outline to stay distinct where dots overlap; a
            // stroke of another colour is a ring that marks a kind (tensor instructions).
            Some(c) if d.stroke == c => (Some(c), Some(self.pal.background), 1.0),
            Some(c) => (Some(c), Some(d.stroke), 2.0),
            None => (None, Some(d.stroke), 2.0),
        };
        self.marks.push(Shape::Circle { cx, cy, r, fill, stroke, width });
        if d.selected {
            self.marks.push(Shape::Circle { cx, cy, r: r + RING_GAP_PX, fill: None, stroke: Some(self.pal.selection), width: 2.0 });
        }
        let reach = if d.selected { r + RING_GAP_PX + 1.0 } else { r };
        self.placer.occupy([cx - reach, cy - reach, cx + reach, cy + reach]);
        self.hits.push(Hit { kernel: d.kernel, cx, cy, r, level: d.level, marker: d.marker });
        Some((cx, cy))
    }

    /// A thin line through one kernel's dots (pixel points, left to right), bold if selected.
    pub fn link(&mut self, mut points: Vec<(f64, f64)>, selected: bool, dash: bool, color: Color) {
        if points.len() < 2 {
            return;
        }
        points.sort_by(|p, q| p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1)));
        self.under.push(Shape::Line { points, color, width: if selected { 2.0 } else { 1.0 }, dash });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selected_kernel_drawn_last_in_order() {
        let items = [(0, 'a'), (1, 'b'), (0, 'c'), (2, 'd'), (1, 'e')];
        let order = |sel| selected_last(&items, |t| t.0, sel).map(|t| t.1).collect::<String>();
        assert_eq!(order(Some(1)), "acdbe");
        assert_eq!(order(None), "abcde");
        assert_eq!(order(Some(9)), "abcde");
    }

    #[test]
    fn selected_last_as_indices() {
        let items = [(0, 'a'), (1, 'b'), (0, 'c'), (2, 'd'), (1, 'e')];
        let order = |sel| selected_last_indices(&items, |t| t.0, sel).collect::<Vec<_>>();
        assert_eq!(order(Some(1)), [0, 2, 3, 1, 4]);
        assert_eq!(order(None), [0, 1, 2, 3, 4]);
    }

    #[test]
    fn shares_of_the_usable_times() {
        let k = |t: Option<f64>| KernelProfile::from_counters("k", &t.map(|t| vec![(crate::domain::counters::Counter::TimeS, t)]).unwrap_or_default());
        let kernels = [k(Some(1.0)), k(None), k(Some(3.0)), k(Some(-2.0)), k(Some(f64::NAN)), k(Some(0.0))];
        assert_eq!(time_shares(&kernels), [0.25, 0.0, 0.75, 0.0, 0.0, 0.0]);
        assert_eq!(time_shares(&kernels[1..2]), [0.0]);
        assert!(time_shares(&[]).is_empty());
    }

    #[test]
    fn largest_first_with_ties_in_order() {
        assert_eq!(largest_first(&[1.0, 3.0, 2.0, 3.0]), [1, 3, 2, 0]);
        assert!(largest_first(&[]).is_empty());
    }

    #[test]
    fn sizes_from_shares() {
        assert_eq!(radius_px(0.0), MIN_RADIUS_PX);
        assert_eq!(radius_px(1.0), MIN_RADIUS_PX + SHARE_RADIUS_PX);
        assert_eq!(radius_px(f64::NAN), MIN_RADIUS_PX);
        assert_eq!(radius_px(-1.0), MIN_RADIUS_PX);
    }
}
