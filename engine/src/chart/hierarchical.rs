//! The hierarchical roofline chart (Yang et al., NERSC roofline use cases; Nsight Compute
//! roofline post: "each circle represents a different level of the memory subsystem (L1, L2,
//! or DRAM) and uses traffic from that level to calculate its arithmetic intensity").
//!
//! Each kernel gives one dot per level it has bytes for: the same FLOPs (so the same height)
//! over that level's bytes, coloured by level and read against the bandwidth roof of the same
//! colour; a thin line joins one kernel's dots, so the gaps between them show the reuse at
//! each level. Dots come from `model::hierarchical`, roofs from the machine.

use super::binding::{flop_binding, FlopBinding};
use super::dots::{radius_px, selected_last_indices, Dot};
use super::flop_roofs::{self, shown_compute};
use super::frame::{auto_range, Axes, Builder, LegendItem, Swatch};
use super::kernel_labels::{names_of, Anchored};
use super::scene::{Marker, Scene};
use super::strip::{strip_dots, StripRoof};
use super::ChartInput;
use crate::model::hierarchical::hierarchical_points;
use crate::model::{Level, MemoryLevel, RooflinePoint};
use crate::units::GIGA;
use std::borrow::Cow;

/// The name a machine gives a level (`HBM`, `LDS`), else the generic one.
pub fn level_name(m: &crate::model::Machine, level: Level) -> String {
    m.memory_level(level).map_or_else(|| level.label().to_string(), |l| l.name.clone())
}

pub fn build(input: &ChartInput) -> Scene {
    let m = input.machine;
    // Kept from an earlier redraw where the app has them ([`super::cache`]).
    let mut points: Cow<[RooflinePoint]> = match input.cache().and_then(|c| c.hierarchical_points()) {
        Some(ps) => Cow::Borrowed(ps),
        None => Cow::Owned(hierarchical_points(input.kernels, Some(m))),
    };
    // Their `log10`s where kept too and the points are all shown (else each dot's is worked out).
    let mut logs = input.cache().and_then(|c| c.hierarchical_logs()).filter(|l| l.len() == points.len());
    if !input.hidden_levels.is_empty() {
        points.to_mut().retain(|p| input.shows_level(p.level));
        logs = None;
    }
    let (ridge, compute) = shown_compute(input);
    // Which levels have dots, found in one pass (not one scan of 30 000 dots per question).
    let mut present = [false; Level::ALL.len()];
    for p in points.iter() {
        present[p.level as usize] = true;
    }
    let dotted = |l: Level| present[l as usize];
    // Roofs of the levels the data has dots at (all of the machine's when it has none).
    let has_dots = |l: Level| points.is_empty() || dotted(l);
    let levels: Vec<Level> = m.memory.iter().map(|l| l.level).collect();
    let binding = flop_binding(input.kernels, input.selected, m, &levels);
    // The binding level's roof is drawn even where its level is hidden (issue 43).
    let bound_level = |l: Level| matches!(binding, Some(FlopBinding::Level(b)) if b == l);
    let memory: Vec<&MemoryLevel> = m.memory.iter().filter(|l| (bound_level(l.level) || input.shows_level(l.level) && has_dots(l.level)) && l.bytes_per_s.is_finite() && l.bytes_per_s > 0.0).collect();
    let (compute, own_roof) = flop_roofs::with_binding(compute, binding.as_ref());
    let (roof_xs, mut roof_ys) = flop_roofs::extent(&memory, &compute, ridge);
    roof_ys.extend(own_roof);
    let peak = roof_ys.iter().copied().fold(0.0, f64::max);
    let (run_xs, run_ys) = input.runs_extent();
    let x_auto = auto_range(points.iter().map(|p| p.flops_per_byte).chain(roof_xs).chain(run_xs), 0.3);
    let y_auto = auto_range(points.iter().map(|p| p.flops_per_s).chain(roof_ys).chain([peak / 1e3]).chain(run_ys), 0.15);

    let pal = input.theme.palette();
    let shown_levels: Vec<Level> = Level::ALL.into_iter().filter(|&l| input.shows_level(l)).collect();
    let strip = strip_dots(input, &shown_levels);
    let mut in_strip = [false; Level::ALL.len()];
    for d in &strip {
        in_strip[d.level as usize] = true;
    }
    let mut legend: Vec<LegendItem> = Level::ALL
        .iter()
        .filter(|&&l| dotted(l) || in_strip[l as usize] || memory.iter().any(|m| m.level == l))
        .map(|&l| LegendItem::new(Swatch::Dot(pal.level(l)), level_name(m, l)))
        .collect();
    legend.push(LegendItem::sizes());
    legend.extend(input.runs_legend());
    let mut b = Builder::with_strip(input, x_auto, y_auto, &legend, !strip.is_empty());
    b.reserve_dots(points.len(), input.kernels.len());
    // Each kernel is named at its DRAM dot (the classic chart's), else its last level's.
    let mut anchors: Vec<Anchored> = Vec::new();

    let shares = input.time_shares();
    let mut link: Vec<(f64, f64)> = Vec::new();
    let mut current: Option<usize> = None;
    let ordered = selected_last_indices(points.as_ref(), |p| p.kernel, input.selected);
    // A kernel's dots are consecutive: its size (a square root) is worked out once.
    let (mut r, mut selected) = (0.0, false);
    for i in ordered {
        let Some(p) = points.get(i) else { continue };
        if current != Some(p.kernel) {
            let done = std::mem::take(&mut link);
            b.link(done, current.is_some() && current == input.selected, false, pal.link);
            current = Some(p.kernel);
            r = radius_px(shares.get(p.kernel).copied().unwrap_or(0.0));
            selected = input.selected == Some(p.kernel);
        }
        let color = pal.level(p.level);
        let dot = Dot { kernel: p.kernel, x: p.flops_per_byte, y: p.flops_per_s, r, fill: Some(color), stroke: color, level: Some(p.level), marker: Marker::Level, selected };
        let drawn = match logs.and_then(|l| l.get(i)) {
            Some(&(lx, ly)) => b.log_px(lx, ly).and_then(|at| b.dot_at(dot, at)),
            None => b.dot(dot),
        };
        if let Some(px) = drawn {
            link.push(px);
            match anchors.last_mut() {
                Some(a) if a.0 == p.kernel => {
                    if p.level == Level::Dram {
                        *a = (p.kernel, px, r);
                    }
                }
                _ => anchors.push((p.kernel, px, r)),
            }
        }
    }
    b.link(link, current.is_some() && current == input.selected, false, pal.link);
    input.draw_runs(&mut b, None);
    b.axes(&Axes { x_title: "Arithmetic intensity (FLOP/byte at each level)", y_title: "Performance (GFLOP/s)", x_div: 1.0, y_div: GIGA });
    if !strip.is_empty() {
        let kernels = {
            let mut ks: Vec<usize> = strip.iter().map(|d| d.kernel).collect();
            ks.dedup();
            ks.len()
        };
        let title = format!("{kernels} kernel{} without FLOPs: bandwidth attained at each level (GB/s)", if kernels == 1 { "" } else { "s" });
        let roofs: Vec<StripRoof> = m
            .memory
            .iter()
            .filter(|l| in_strip[l.level as usize] && l.bytes_per_s.is_finite() && l.bytes_per_s > 0.0)
            .map(|l| StripRoof { name: l.name.clone(), bytes_per_s: l.bytes_per_s, color: pal.level(l.level) })
            .collect();
        b.strip(input, &strip, &roofs, (&title, "No FLOPs: GB/s per level"), |d| pal.level(d.level));
    }
    if input.show_ceilings {
        flop_roofs::draw(&mut b, &memory, &compute, ridge, false, binding.as_ref());
    }
    let names = names_of(input);
    b.kernel_labels(input, &anchors, &names);
    b.finish()
}
