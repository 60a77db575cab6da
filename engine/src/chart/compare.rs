//! Run comparison on a chart: an optimisation trajectory. Earlier runs' kernels are drawn as
//! small open markers and an arrow goes from a kernel's point in each run to its point in the
//! next, the last arrow ending on the current run's (filled) dot, so the chart reads as "this
//! is where the kernel was, this is where it went" (the BerkeleyGW v1…v9 and Nsight Compute
//! step-by-step roofline plots).
//!
//! Matching rule (as [`crate::compare`]): a kernel is the same kernel in two runs when its full
//! name is equal, and in the multi-level charts a point also keeps its memory level, so an L2
//! dot moves to the next run's L2 dot. A name in only one of two consecutive runs has no
//! arrow; a repeated name uses its first kernel. Arrows join consecutive runs only: a kernel
//! missing from the middle run breaks its path there.
//!
//! Classic, hierarchical and instruction charts show runs; walls and transfers ignore them.
//! An arrow's ends are the two markers' centres, drawn trimmed to run edge to edge (its head
//! touching the dot it points at); markers too close for that get no arrow. Arrows and
//! markers are drawn after the current dots, so they are never hidden under a dot; earlier
//! runs' markers and arrowheads are reserved against labels, like dots. They have no hit
//! areas: hover and click stay on the current run, whose kernels the table lists.

use super::dots::{radius_px, time_shares};
use super::frame::{Builder, LegendItem, Swatch};
use super::scene::{arrow_geometry, Color, Shape};
use super::{ChartInput, Mode};
use crate::compare::first_by_name;
use crate::model::hierarchical::{hierarchical_points, sizes};
use crate::model::instruction::{instruction_points_iter, threads_per_warp};
use crate::model::point::classic_points;
use crate::model::Level;
use crate::domain::profile::KernelProfile;
use std::collections::HashMap;

/// An earlier run: its name (its files, a step of an optimisation) and its kernels.
#[derive(Clone, Copy, Debug)]
pub struct RunRef<'a> {
    pub name: &'a str,
    pub kernels: &'a [KernelProfile],
}

/// A kernel's point in one run, in the chart's data units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunPoint {
    /// Index into that run's kernels.
    pub kernel: usize,
    pub level: Level,
    pub x: f64,
    pub y: f64,
}

/// Arrow line widths: thin, and bolder for the selected kernel (as its link line).
const ARROW_PX: f64 = 1.5;
const ARROW_SELECTED_PX: f64 = 2.5;
/// Earlier runs' markers: a fraction of a dot's size, never below the floor (still visible).
const GHOST_SCALE: f64 = 0.6;
const GHOST_MIN_PX: f64 = 2.5;
const GHOST_STROKE_PX: f64 = 1.5;
/// How far a selected dot's ring reaches beyond the dot (dots.rs: 3 px gap, 2 px stroke).
const RING_REACH_PX: f64 = 4.0;
/// Space between an arrow's ends and the markers it joins.
const ARROW_GAP_PX: f64 = 1.5;

/// Whether the chart of `input` draws runs at all.
pub fn shows_runs(input: &ChartInput) -> bool {
    !input.runs.is_empty() && matches!(input.mode, Mode::Classic | Mode::Hierarchical | Mode::Instruction)
}

/// The points of `kernels` as `input.mode` places them (the mode builders' own model calls,
/// with the same filters), in kernel order.
pub fn points(input: &ChartInput, kernels: &[KernelProfile]) -> Vec<RunPoint> {
    let m = input.machine;
    let finite_pos = |v: f64| v.is_finite() && v > 0.0;
    match input.mode {
        Mode::Classic => classic_points(kernels, m).into_iter().map(|p| RunPoint { kernel: p.kernel, level: p.level, x: p.flops_per_byte, y: p.flops_per_s }).collect(),
        Mode::Hierarchical => hierarchical_points(kernels, Some(m))
            .into_iter()
            .filter(|p| input.shows_level(p.level))
            .map(|p| RunPoint { kernel: p.kernel, level: p.level, x: p.flops_per_byte, y: p.flops_per_s })
            .collect(),
        Mode::Instruction => {
            let (s, tpw) = (sizes(Some(m)), threads_per_warp(Some(m)));
            kernels
                .iter()
                .enumerate()
                .flat_map(|(i, k)| {
                    instruction_points_iter(k, &s, tpw)
                        .filter(|p| input.shows_level(p.level) && finite_pos(p.warp_inst_per_txn) && finite_pos(p.warp_inst_per_s))
                        .map(move |p| RunPoint { kernel: i, level: p.level, x: p.warp_inst_per_txn, y: p.warp_inst_per_s })
                })
                .collect()
        }
        Mode::Walls | Mode::Transfers => Vec::new(),
    }
}

/// The earlier runs' point coordinates, for the automatic axis ranges (so the whole path
/// is in view): x values, y values. Empty when the chart shows no runs.
pub fn extent(input: &ChartInput) -> (Vec<f64>, Vec<f64>) {
    if !shows_runs(input) {
        return (Vec::new(), Vec::new());
    }
    let pts: Vec<RunPoint> = input.runs.iter().flat_map(|r| points(input, r.kernels)).collect();
    (pts.iter().map(|p| p.x).collect(), pts.iter().map(|p| p.y).collect())
}

/// The legend entry explaining markers and arrows, when the chart shows runs and an earlier
/// run has a point to draw (steps without the chart's counters are in the table only).
pub fn legend(input: &ChartInput) -> Option<LegendItem> {
    if !shows_runs(input) || input.runs.iter().all(|r| points(input, r.kernels).is_empty()) {
        return None;
    }
    let n = input.runs.len();
    let runs = if n == 1 { "1 earlier run".to_string() } else { format!("{n} earlier runs") };
    Some(LegendItem::new(Swatch::Open(input.theme.palette().link), format!("open: {runs}; arrows to the next run")))
}

/// A drawn marker: its pixel centre and how far it reaches (arrows are trimmed by that).
type Marked = ((f64, f64), f64);

/// Draws earlier runs' markers and the arrows between consecutive runs (the last run being
/// `input.kernels`). Call after the current dots and before the axes and roof labels, so
/// labels avoid what this reserves. `colors`: the current kernels' dot colours where the
/// chart colours dots per kernel (classic), so a path keeps its dot's colour; else each
/// level's colour.
pub fn draw(b: &mut Builder, input: &ChartInput, colors: Option<&[Color]>) {
    if !shows_runs(input) {
        return;
    }
    let index_of: HashMap<&str, usize> = input.kernels.iter().enumerate().rev().map(|(i, k)| (k.name.as_str(), i)).collect();
    let selected = input.selected.and_then(|i| input.kernels.get(i)).map(|k| k.name.as_str());
    let color = |b: &Builder, name: &str, level: Level| match colors {
        // A path keeps the colour of its current dot.
        Some(cs) => index_of.get(name).and_then(|&i| cs.get(i).copied()).unwrap_or(b.pal.link),
        None => b.pal.level(level),
    };
    let runs: Vec<&[KernelProfile]> = input.runs.iter().map(|r| r.kernels).chain([input.kernels]).collect();
    // Per run, keyed by (name, level): the marker's pixel centre and how far it reaches (the
    // arrow is trimmed by that); only points inside the plot.
    let mut centres: Vec<HashMap<(&str, Level), Marked>> = Vec::with_capacity(runs.len());
    let mut ordered: Vec<Vec<((&str, Level), Marked)>> = Vec::with_capacity(runs.len());
    for (r, ks) in runs.iter().enumerate() {
        let earlier = r + 1 < runs.len();
        let shares = time_shares(ks);
        let first = first_by_name(ks);
        let mut map = HashMap::new();
        let mut list = Vec::new();
        let pts = points(input, ks);
        if earlier {
            // One marker and one taken box per point: grown once, not doubled over and over.
            b.marks.reserve(pts.len());
            b.placer.reserve(pts.len());
        }
        for p in pts {
            let Some(k) = ks.get(p.kernel) else { continue };
            // A repeated name: only its first kernel is on the path.
            if !first.get(k.name.as_str()).is_some_and(|f| std::ptr::eq(*f, k)) {
                continue;
            }
            let Some(c) = b.px(p.x, p.y).filter(|&c| b.in_plot(c)) else { continue };
            let dot = radius_px(shares.get(p.kernel).copied().unwrap_or(0.0));
            let reach = if earlier {
                let r = (GHOST_SCALE * dot).max(GHOST_MIN_PX);
                let stroke = color(b, k.name.as_str(), p.level);
                b.marks.push(Shape::Circle { cx: c.0, cy: c.1, r, fill: None, stroke: Some(stroke), width: GHOST_STROKE_PX });
                let reach = r + GHOST_STROKE_PX / 2.0;
                b.placer.occupy([c.0 - reach, c.1 - reach, c.0 + reach, c.1 + reach]);
                reach
            } else if selected == Some(k.name.as_str()) {
                dot + RING_REACH_PX
            } else {
                dot
            };
            map.entry((k.name.as_str(), p.level)).or_insert((c, reach));
            list.push(((k.name.as_str(), p.level), (c, reach)));
        }
        centres.push(map);
        ordered.push(list);
    }
    for pair in 1..runs.len() {
        b.marks.reserve(ordered[pair].len());
        b.placer.reserve(ordered[pair].len());
        for &((name, level), (to, to_reach)) in &ordered[pair] {
            let Some(&(from, from_reach)) = centres[pair - 1].get(&(name, level)) else { continue };
            let width = if selected == Some(name) { ARROW_SELECTED_PX } else { ARROW_PX };
            let trim = [from_reach + ARROW_GAP_PX, to_reach + ARROW_GAP_PX];
            // Markers too close for an arrow between them: they already show no move.
            let Some(g) = arrow_geometry(from, to, width, trim) else { continue };
            b.marks.push(Shape::Arrow { from, to, color: color(b, name, level), width, trim });
            let (xs, ys) = (g.head.map(|p| p.0), g.head.map(|p| p.1));
            let lo = |v: [f64; 3]| v.into_iter().fold(f64::MAX, f64::min);
            let hi = |v: [f64; 3]| v.into_iter().fold(f64::MIN, f64::max);
            b.placer.occupy([lo(xs), lo(ys), hi(xs), hi(ys)]);
        }
    }
}
