//! The hierarchical roofline chart (Yang et al., NERSC roofline use cases; Nsight Compute
//! roofline post: "each circle represents a different level of the memory subsystem (L1, L2,
//! or DRAM) and uses traffic from that level to calculate its arithmetic intensity").
//!
//! Each kernel gives one dot per level it has bytes for: the same FLOPs (so the same height)
//! over that level's bytes, coloured by level and read against the bandwidth roof of the same
//! colour; a thin line joins one kernel's dots, so the gaps between them show the reuse at
//! each level. Dots come from `model::hierarchical`, roofs from the machine.

use super::compare;
use super::dots::{radius_px, selected_last, time_shares, Dot};
use super::flop_roofs::{self, shown_compute};
use super::frame::{auto_range, Axes, Builder, LegendItem, Swatch};
use super::scene::{Marker, Scene};
use super::ChartInput;
use crate::model::hierarchical::hierarchical_points;
use crate::model::{Level, MemoryLevel};
use crate::units::GIGA;

/// The name a machine gives a level (`HBM`, `LDS`), else the generic one.
pub fn level_name(m: &crate::model::Machine, level: Level) -> String {
    m.memory_level(level).map_or_else(|| level.label().to_string(), |l| l.name.clone())
}

pub fn build(input: &ChartInput) -> Scene {
    let m = input.machine;
    let mut points = hierarchical_points(input.kernels, Some(m));
    if !input.hidden_levels.is_empty() {
        points.retain(|p| input.shows_level(p.level));
    }
    let (ridge, compute) = shown_compute(input);
    // Which levels have dots, found in one pass (not one scan of 30 000 dots per question).
    let mut present = [false; Level::ALL.len()];
    for p in &points {
        present[p.level as usize] = true;
    }
    let dotted = |l: Level| present[l as usize];
    // Roofs of the levels the data has dots at (all of the machine's when it has none).
    let has_dots = |l: Level| points.is_empty() || dotted(l);
    let memory: Vec<&MemoryLevel> = m.memory.iter().filter(|l| input.shows_level(l.level) && has_dots(l.level) && l.bytes_per_s.is_finite() && l.bytes_per_s > 0.0).collect();
    let (roof_xs, roof_ys) = flop_roofs::extent(&memory, &compute, ridge);
    let peak = roof_ys.iter().copied().fold(0.0, f64::max);
    let (run_xs, run_ys) = compare::extent(input);
    let x_auto = auto_range(points.iter().map(|p| p.flops_per_byte).chain(roof_xs).chain(run_xs), 0.3);
    let y_auto = auto_range(points.iter().map(|p| p.flops_per_s).chain(roof_ys).chain([peak / 1e3]).chain(run_ys), 0.15);

    let pal = input.theme.palette();
    let mut legend: Vec<LegendItem> = Level::ALL
        .iter()
        .filter(|&&l| dotted(l) || memory.iter().any(|m| m.level == l))
        .map(|&l| LegendItem::new(Swatch::Dot(pal.level(l)), level_name(m, l)))
        .collect();
    legend.push(LegendItem::sizes());
    legend.extend(compare::legend(input));
    let mut b = Builder::new(input, x_auto, y_auto, &legend);
    b.reserve_dots(points.len(), input.kernels.len());

    let shares = time_shares(input.kernels);
    let mut link: Vec<(f64, f64)> = Vec::new();
    let mut current: Option<usize> = None;
    let ordered = selected_last(&points, |p| p.kernel, input.selected);
    // A kernel's dots are consecutive: its size (a square root) is worked out once.
    let (mut r, mut selected) = (0.0, false);
    for p in ordered {
        if current != Some(p.kernel) {
            let done = std::mem::take(&mut link);
            b.link(done, current.is_some() && current == input.selected, false, pal.link);
            current = Some(p.kernel);
            r = radius_px(shares.get(p.kernel).copied().unwrap_or(0.0));
            selected = input.selected == Some(p.kernel);
        }
        let color = pal.level(p.level);
        if let Some(px) = b.dot(Dot { kernel: p.kernel, x: p.flops_per_byte, y: p.flops_per_s, r, fill: Some(color), stroke: color, level: Some(p.level), marker: Marker::Level, selected }) {
            link.push(px);
        }
    }
    b.link(link, current.is_some() && current == input.selected, false, pal.link);
    compare::draw(&mut b, input);
    b.axes(&Axes { x_title: "Arithmetic intensity (FLOP/byte at each level)", y_title: "Performance (GFLOP/s)", x_div: 1.0, y_div: GIGA });
    if input.show_ceilings {
        flop_roofs::draw(&mut b, &memory, &compute, ridge, false);
    }
    b.finish()
}
