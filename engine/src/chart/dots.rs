//! Dots: size by share of run time, selection ring, hit area, and the link line between one
//! kernel's dots.
//!
//! Size: area grows with the kernel's share of the total run time, so the kernels worth
//! optimising stand out (the Amdahl view of docs/MODEL.md); a floor keeps short kernels
//! visible and hoverable.

use super::frame::Builder;
use super::scene::{Color, Hit, Marker, Shape};
use crate::model::Level;
use crate::profile::KernelProfile;

/// Radius of a kernel with no time share, and the extra radius of one taking all the time.
pub const MIN_RADIUS_PX: f64 = 3.5;
pub const SHARE_RADIUS_PX: f64 = 9.0;
/// Gap between a selected dot and its ring.
const RING_GAP_PX: f64 = 3.0;

/// Each kernel's share of the kernels' total time, 0 where the time is unknown, zero,
/// negative or not finite.
pub fn time_shares(kernels: &[KernelProfile]) -> Vec<f64> {
    let time = |k: &KernelProfile| k.time_s().filter(|t| t.is_finite() && *t > 0.0);
    let total: f64 = kernels.iter().filter_map(time).sum();
    kernels.iter().map(|k| if total > 0.0 { time(k).map_or(0.0, |t| t / total) } else { 0.0 }).collect()
}

/// A dot's radius from its time share (area ∝ share above the floor).
pub fn radius_px(share: f64) -> f64 {
    MIN_RADIUS_PX + SHARE_RADIUS_PX * if share.is_finite() { share.clamp(0.0, 1.0).sqrt() } else { 0.0 }
}

/// Items in drawing order: the selected kernel's last, so its dots are on top. Stable.
pub fn selected_last<T>(items: &[T], kernel: impl Fn(&T) -> usize, selected: Option<usize>) -> Vec<&T> {
    let (mut rest, sel): (Vec<&T>, Vec<&T>) = items.iter().partition(|t| Some(kernel(t)) != selected);
    rest.extend(sel);
    rest
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
        let (cx, cy) = self.px(d.x, d.y)?;
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
        points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        self.under.push(Shape::Line { points, color, width: if selected { 2.0 } else { 1.0 }, dash });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_from_shares() {
        assert_eq!(radius_px(0.0), MIN_RADIUS_PX);
        assert_eq!(radius_px(1.0), MIN_RADIUS_PX + SHARE_RADIUS_PX);
        assert_eq!(radius_px(f64::NAN), MIN_RADIUS_PX);
        assert_eq!(radius_px(-1.0), MIN_RADIUS_PX);
    }
}
