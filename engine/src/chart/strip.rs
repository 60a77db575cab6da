//! The bandwidth strip: kernels without FLOPs on a FLOP chart.
//!
//! A copy, a transpose or an integer kernel has no place on a FLOP/s axis, but it moved
//! bytes in a measured time, so the one thing a roofline says about it still holds: how
//! close it came to the memory roof. The strip is a one-dimensional roofline under the plot:
//! a log axis of bytes per second attained, each kernel a dot (sized by its share of the run
//! time, as in the plot) and each memory roof a tick at its bandwidth. The classic chart
//! draws DRAM; the hierarchical chart every level the kernel has bytes for, in the level's
//! colour. Which kernels go here is [`super::places::place`]'s decision.

use super::dots::{largest_first, radius_px};
use super::frame::{auto_range, Builder, FONT_PX, LEGEND_PX};
use super::cache::strip_kernels;
use super::roofs::giga4;
use super::scale::{tick_label, LogScale};
use super::scene::{Anchor, Color, Hit, Marker, Shape};
use super::ChartInput;
use crate::model::hierarchical::{level_bytes, sizes};
use crate::model::Level;
use crate::units::GIGA;

/// Height of the strip below the plot's x-axis title, CSS pixels.
pub const STRIP_PX: f64 = 62.0;
/// Largest dot in the strip (the plot's can reach 12.5 px; the strip is one line high).
const MAX_R_PX: f64 = 7.0;
/// Vertical offsets tried for a dot that would cover one already drawn.
const ROWS: [f64; 3] = [0.0, -7.0, 7.0];
/// Past this many dots, they all sit on the axis (the overlap test is quadratic).
const MAX_SPREAD: usize = 2_000;

/// Where the strip's axis is, for reading a dot's value back (`scale.from_px(cx)`, bytes/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StripAxis {
    pub scale: LogScale,
    /// The axis line, CSS pixels from the top.
    pub y: f64,
}

/// A kernel's bytes per second at a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StripDot {
    pub kernel: usize,
    pub level: Level,
    pub bytes_per_s: f64,
}

/// The strip's dots: each kernel placed in the strip ([`Place::Strip`]), at each of `levels`
/// it has bytes for, in kernel order.
pub fn strip_dots(input: &ChartInput, levels: &[Level]) -> Vec<StripDot> {
    let s = sizes(Some(input.machine));
    let mut out = Vec::new();
    let fresh;
    let ids = match input.cache().and_then(|c| c.strip_kernels(input.mode)) {
        Some(ids) => ids,
        None => {
            fresh = strip_kernels(input.kernels, input.machine, input.mode);
            fresh.as_slice()
        }
    };
    for &i in ids {
        let Some(k) = input.kernels.get(i) else { continue };
        let Some(t) = k.time_s().filter(|t| t.is_finite() && *t > 0.0) else { continue };
        for &level in levels {
            if let Some(b) = level_bytes(k, level, &s).filter(|b| b.is_finite() && *b > 0.0) {
                out.push(StripDot { kernel: i, level, bytes_per_s: b / t });
            }
        }
    }
    out
}

/// A memory roof in the strip: its name and bandwidth, bytes/s, and colour.
pub struct StripRoof {
    pub name: String,
    pub bytes_per_s: f64,
    pub color: Color,
}

impl Builder {
    /// Draws the strip in the band [`Builder::with_strip`] reserved: its title (`title`, or
    /// `short` where that does not fit: a phone), axis, roof ticks and dots (coloured by
    /// `color`), with hit areas marked [`Marker::Bandwidth`].
    pub fn strip(&mut self, input: &ChartInput, dots: &[StripDot], roofs: &[StripRoof], (title, short): (&str, &str), color: impl Fn(&StripDot) -> Color) {
        let Some(band) = self.strip_band else { return };
        let values = dots.iter().map(|d| d.bytes_per_s).chain(roofs.iter().map(|r| r.bytes_per_s));
        let range = auto_range(values, 0.15);
        let scale = LogScale { min: range[0], max: range[1], px0: band[0], px1: band[2] };
        let axis_y = band[1] + 34.0;
        self.strip_axis = Some(StripAxis { scale, y: axis_y });
        let (text, axis) = (self.pal.text, self.pal.axis);
        self.grid.push(Shape::Line { points: vec![(band[0], axis_y), (band[2], axis_y)], color: axis, width: 1.0, dash: false });
        let whole = [0.0, band[1], self.width, band[3]];
        for t in scale.ticks() {
            let px = scale.to_px(t);
            self.grid.push(Shape::Line { points: vec![(px, axis_y - 3.0), (px, axis_y + 3.0)], color: axis, width: 1.0, dash: false });
            self.label_in(whole, &[(px, axis_y + 22.0, Anchor::Middle, 0.0)], &tick_label(t / GIGA), text, LEGEND_PX);
        }
        let at = [(band[0], band[1] + 12.0, Anchor::Start, 0.0), (4.0, band[1] + 12.0, Anchor::Start, 0.0)];
        if !self.label_in(whole, &at, title, text, LEGEND_PX) {
            self.label_in(whole, &at, short, text, LEGEND_PX);
        }

        // Dots: larger first, so small ones are drawn over them; each on the first row
        // where it covers no dot already placed.
        let shares = input.time_shares();
        let radii: Vec<f64> = dots.iter().map(|d| radius_px(shares.get(d.kernel).copied().unwrap_or(0.0)).min(MAX_R_PX)).collect();
        let order = largest_first(&radii).into_iter().map(|i| (i, radii[i]));
        let spread = dots.len() <= MAX_SPREAD;
        let mut placed: Vec<(f64, f64, f64)> = Vec::with_capacity(dots.len());
        for (i, r) in order {
            let d = dots[i];
            let cx = scale.to_px(d.bytes_per_s);
            if !cx.is_finite() {
                continue;
            }
            let free = |dy: f64| placed.iter().all(|&(x, y, pr)| (x - cx).hypot(y - (axis_y + dy)) >= r + pr - 1.0);
            let dy = if spread { ROWS.into_iter().find(|&dy| free(dy)).unwrap_or(0.0) } else { 0.0 };
            let cy = axis_y + dy;
            placed.push((cx, cy, r));
            let fill = color(&d);
            let selected = input.selected == Some(d.kernel);
            self.marks.push(Shape::Circle { cx, cy, r, fill: Some(fill), stroke: Some(self.pal.background), width: 1.0 });
            if selected {
                self.marks.push(Shape::Circle { cx, cy, r: r + 3.0, fill: None, stroke: Some(self.pal.selection), width: 2.0 });
            }
            self.hits.push(Hit { kernel: d.kernel, cx, cy, r, level: Some(d.level), marker: Marker::Bandwidth });
            self.placer.occupy([cx - r, cy - r, cx + r, cy + r]);
        }
        // Roof ticks over the dots' row, labelled at the band's top where free.
        for roof in roofs {
            let px = scale.to_px(roof.bytes_per_s);
            if !px.is_finite() {
                continue;
            }
            self.under.push(Shape::Line { points: vec![(px, axis_y - 14.0), (px, axis_y + 10.0)], color: roof.color, width: 2.0, dash: false });
            let label = format!("{} {} GB/s", roof.name, giga4(roof.bytes_per_s));
            let base = band[1] + 12.0;
            let candidates = [(px - 4.0, base, Anchor::End, 0.0), (px + 4.0, base, Anchor::Start, 0.0), (px + 4.0, axis_y - 12.0, Anchor::Start, 0.0)];
            self.label_in(whole, &candidates, &label, roof.color, FONT_PX - 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::{build, ChartInput, Mode};
    use crate::domain::counters::Counter;
    use crate::domain::profile::KernelProfile;
    use crate::model::catalogue;

    #[test]
    fn a_copy_is_drawn_at_its_bandwidth_under_the_plot() {
        let m = catalogue::v100();
        let ks = [
            KernelProfile::from_counters("gemm", &[(Counter::Fp32Flops, 1e12), (Counter::DramBytes, 1e9), (Counter::TimeS, 0.1)]),
            // 414 GB in a second: half the V100's 828 GB/s.
            KernelProfile::from_counters("copy", &[(Counter::Fp32Flops, 0.0), (Counter::DramBytes, 414e9), (Counter::TimeS, 1.0)]),
        ];
        let s = build(&ChartInput::new(&ks, &m, 900.0, 600.0).with_selected(Some(1)));
        let axis = s.strip.expect("a strip");
        let copy: Vec<&Hit> = s.hits.iter().filter(|h| h.kernel == 1).collect();
        assert_eq!(copy.len(), 1);
        assert_eq!(copy[0].marker, Marker::Bandwidth);
        assert!((axis.scale.from_px(copy[0].cx) / 414e9 - 1.0).abs() < 1e-9);
        assert!(copy[0].cy > s.plot[3] + 40.0, "under the plot and its axis title");
        assert!(copy[0].cy + copy[0].r <= s.height);
        let texts: Vec<&str> = s.shapes.iter().filter_map(|sh| if let Shape::Text { text, .. } = sh { Some(text.as_str()) } else { None }).collect();
        assert!(texts.contains(&"HBM 828 GB/s"), "{texts:?}");
        assert!(texts.contains(&"1 kernel without FLOPs: HBM bandwidth attained (GB/s)"), "{texts:?}");
        // Where the title does not fit, a short one.
        let narrow = build(&ChartInput::new(&ks, &m, 300.0, 300.0));
        assert!(narrow.shapes.iter().any(|sh| matches!(sh, Shape::Text { text, .. } if text == "No FLOPs: HBM GB/s")));
        // Without such kernels there is no strip and the plot keeps the room.
        let plain = build(&ChartInput::new(&ks[..1], &m, 900.0, 600.0));
        assert!(plain.strip.is_none());
        assert!(plain.plot[3] > s.plot[3] + STRIP_PX - 1.0);
        // The hierarchical chart has it too; the instruction chart does not.
        assert!(build(&ChartInput::new(&ks, &m, 900.0, 600.0).with_mode(Mode::Hierarchical)).strip.is_some());
        assert!(build(&ChartInput::new(&ks, &m, 900.0, 600.0).with_mode(Mode::Instruction)).strip.is_none());
    }
}
