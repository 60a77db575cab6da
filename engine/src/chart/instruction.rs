//! The Instruction Roofline chart (Ding & Williams 2019): warp GIPS against instruction
//! intensity (warp instructions per transaction) at L1, L2 and HBM.
//!
//! Ceilings (Fig. 1): one slanted GTXN/s roof per level (bandwidth ÷ transaction size; shared
//! memory's too when the data has shared transactions) under the flat peak warp GIPS; the
//! HMMA GIPS ceiling (§IV-E) when a kernel ran tensor instructions. Dots (Fig. 2): one per
//! level per kernel at its warp GIPS, in the level's colour, joined by a dashed line — the
//! paper's "dotted line represents the observed warp-level instruction performance"; where
//! thread instructions were counted, a smaller dot of the same colour at thread
//! instructions ÷ 32 per second shows the predication loss as its distance below the line
//! ("the dots are well below the dotted line indicating a 2× loss"). Tensor kernels add their
//! HMMA instruction rate per level (Fig. 9), ringed in the compute colour.

use super::dots::{radius_px, selected_last, Dot};
use super::frame::{auto_range, Axes, Builder, LegendItem, Swatch};
use super::hierarchical::level_name;
use super::kernel_labels::{names_of, Anchored};
use super::roofs::{giga4, Style};
use super::scene::{Marker, Scene};
use super::ChartInput;
use crate::domain::counters::Counter;
use crate::model::hierarchical::sizes;
use crate::model::instruction::{instruction_points_iter, tensor_inst_per_s, threads_per_warp, InstructionPoint};
use crate::model::{Level, Machine};
use crate::domain::profile::KernelProfile;
use crate::units::GIGA;
use std::ops::Range;

/// Thread and warp rates closer than this (relative) show no predication: no second marker.
const PREDICATION_TOLERANCE: f64 = 0.01;

/// A kernel's dots on the instruction chart.
struct KernelDots {
    kernel: usize,
    /// Its points: a range of the one vector of every kernel's points ([`kernel_dots`]), so
    /// 10 000 kernels need no vector each.
    points: Range<usize>,
    /// HMMA warp instructions and their rate, when the kernel ran any.
    tensor: Option<(f64, f64)>,
}

impl KernelDots {
    fn points<'a>(&self, all: &'a [InstructionPoint]) -> &'a [InstructionPoint] {
        all.get(self.points.clone()).unwrap_or(&[])
    }
}

fn finite_pos(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// Every kernel's drawable points (shown levels, positive finite coordinates), in kernel
/// order, and the kernels that have any.
struct Points {
    all: Vec<InstructionPoint>,
    dots: Vec<KernelDots>,
    /// Whether any kernel measured shared-memory transactions ([`has_shared`]), found in the
    /// same pass over the kernels.
    shared: bool,
}

fn kernel_dots(input: &ChartInput) -> Points {
    let (s, tpw) = (sizes(Some(input.machine)), threads_per_warp(Some(input.machine)));
    let mut all = Vec::with_capacity(input.kernels.len().saturating_mul(3));
    let mut dots = Vec::with_capacity(input.kernels.len());
    let mut shared = false;
    for (i, k) in input.kernels.iter().enumerate() {
        shared = shared || has_shared(k);
        let start = all.len();
        all.extend(instruction_points_iter(k, &s, tpw).filter(|p| input.shows_level(p.level) && finite_pos(p.warp_inst_per_txn) && finite_pos(p.warp_inst_per_s)));
        if all.len() > start {
            let tensor = k.counters.get(Counter::TensorInst).filter(|t| finite_pos(*t)).zip(tensor_inst_per_s(k).filter(|r| finite_pos(*r)));
            dots.push(KernelDots { kernel: i, points: start..all.len(), tensor });
        }
    }
    Points { all, dots, shared }
}

/// Whether a kernel measured shared-memory transactions (then the shared ceiling matters).
fn has_shared(k: &KernelProfile) -> bool {
    [Counter::SharedTxn, Counter::SharedBytes].iter().any(|&c| k.counters.get(c).is_some_and(finite_pos))
}

/// The GTXN/s roofs to draw: level, transactions/s; `shared`: whether any kernel measured
/// shared-memory transactions.
fn txn_roofs(input: &ChartInput, shared: bool) -> Vec<(Level, f64)> {
    [Level::L1, Level::Shared, Level::L2, Level::Dram]
        .into_iter()
        .filter(|&l| input.shows_level(l) && (l != Level::Shared || shared))
        .filter_map(|l| Some((l, input.machine.txn_per_s(l).filter(|t| finite_pos(*t))?)))
        .collect()
}

pub fn build(input: &ChartInput) -> Scene {
    let m: &Machine = input.machine;
    let Points { all, dots, shared } = kernel_dots(input);
    let roofs = txn_roofs(input, shared);
    let peak = m.warp_inst_per_s().filter(|p| finite_pos(*p));
    let hmma = m.tensor_inst_per_s().filter(|p| finite_pos(*p) && dots.iter().any(|d| d.tensor.is_some()));
    let thread_of = |p: &InstructionPoint| p.thread_inst_per_s.filter(|t| finite_pos(*t) && (t / p.warp_inst_per_s - 1.0).abs() > PREDICATION_TOLERANCE);

    // Axis extents straight from the points (a min and a max: no vectors of 70 000 values).
    let top = peak.into_iter().chain(hmma).fold(0.0, f64::max);
    let roof_top = (top > 0.0).then_some(top);
    let (run_xs, run_ys) = input.runs_extent();
    let xs = all.iter().map(|p| p.warp_inst_per_txn);
    let tensor_xs = dots.iter().flat_map(|d| d.tensor.map(|(n, _)| d.points(&all).iter().map(move |p| n / p.txn)).into_iter().flatten());
    let roof_xs = roof_top.into_iter().flat_map(|t| roofs.iter().map(move |r| t / r.1));
    let x_auto = auto_range(xs.chain(tensor_xs).chain(roof_xs).chain(run_xs), 0.3);
    let ys = all.iter().flat_map(|p| [Some(p.warp_inst_per_s), thread_of(p)].into_iter().flatten());
    let tensor_ys = dots.iter().filter_map(|d| d.tensor.map(|t| t.1));
    let roof_ys = roof_top.into_iter().flat_map(|t| [t, t / 1e3]);
    let y_auto = auto_range(ys.chain(tensor_ys).chain(roof_ys).chain(hmma).chain(run_ys), 0.15);

    let pal = input.theme.palette();
    let mut present = [false; Level::ALL.len()];
    for p in &all {
        present[p.level as usize] = true;
    }
    let mut legend: Vec<LegendItem> =
        Level::ALL.iter().filter(|&&l| present[l as usize] || roofs.iter().any(|r| r.0 == l)).map(|&l| LegendItem::new(Swatch::Dot(pal.level(l)), level_name(m, l))).collect();
    legend.push(LegendItem::new(Swatch::Line(pal.link, true), "warp GIPS"));
    let threads = all.iter().filter(|p| thread_of(p).is_some()).count();
    if threads > 0 {
        legend.push(LegendItem::new(Swatch::Dot(pal.link), "small dot: thread inst ÷ 32 (predication)"));
    }
    if dots.iter().any(|d| d.tensor.is_some()) {
        legend.push(LegendItem::new(Swatch::Open(pal.compute), "ringed: HMMA inst"));
    }
    legend.push(LegendItem::sizes());
    legend.extend(input.runs_legend());
    let mut b = Builder::new(input, x_auto, y_auto, &legend);
    let tensors: usize = dots.iter().filter(|d| d.tensor.is_some()).map(|d| d.points.len()).sum();
    b.reserve_dots(all.len() + threads + tensors, dots.len());

    let shares = input.time_shares();
    // Each kernel is named at its HBM dot, else its first.
    let mut anchors: Vec<Anchored> = Vec::new();
    for d in selected_last(&dots, |d| d.kernel, input.selected) {
        let selected = input.selected == Some(d.kernel);
        let r = radius_px(shares.get(d.kernel).copied().unwrap_or(0.0));
        let mut line = Vec::with_capacity(d.points.len());
        for p in d.points(&all) {
            let color = pal.level(p.level);
            let dot = Dot { kernel: d.kernel, x: p.warp_inst_per_txn, y: p.warp_inst_per_s, r, fill: Some(color), stroke: color, level: Some(p.level), marker: Marker::Level, selected };
            if let Some(c) = b.dot(dot) {
                line.push(c);
                match anchors.last_mut() {
                    Some(a) if a.0 == d.kernel => {
                        if p.level == Level::Dram {
                            *a = (d.kernel, c, r);
                        }
                    }
                    _ => anchors.push((d.kernel, c, r)),
                }
            }
            if let Some(t) = thread_of(p) {
                b.dot(Dot { y: t, r: (0.55 * r).max(2.5), marker: Marker::Thread, selected: false, ..dot });
            }
            if let Some((n, rate)) = d.tensor {
                b.dot(Dot { x: n / p.txn, y: rate, r: (0.8 * r).max(3.0), stroke: pal.compute, marker: Marker::Tensor, selected: false, ..dot });
            }
        }
        b.link(line, selected, true, pal.link);
    }
    input.draw_runs(&mut b, None);
    b.axes(&Axes { x_title: "Instruction intensity (warp inst/transaction)", y_title: "Performance (warp GIPS)", x_div: 1.0, y_div: GIGA });
    let names = names_of(input);
    if !input.show_ceilings {
        b.kernel_labels(input, &anchors, &names);
        return b.finish();
    }
    let fastest = roofs.iter().map(|r| r.1).fold(0.0, f64::max);
    for &(level, rate) in &roofs {
        let style = if level == Level::Shared { Style::dashed(pal.level(level)) } else { Style::solid(pal.level(level)) };
        let end = if top > 0.0 { top / rate } else { f64::MAX };
        b.slanted_roof(rate, end, style, &format!("{} {} GTXN/s", level_name(m, level), giga4(rate)));
    }
    let flats: Vec<f64> = peak.into_iter().chain(hmma).collect();
    let start = |v: f64| if fastest > 0.0 { v / fastest } else { 0.0 };
    if let Some(p) = peak {
        let drawn = b.flat_roof(p, start(p), Style::solid(pal.compute), &format!("Peak {} warp GIPS", giga4(p)), &flats);
        // The roof of a kernel bound by instruction issue (issue 43).
        b.mark_binding(drawn && super::binding::issue_bound(input.kernels, input.selected, m));
        for &(level, rate) in roofs.iter().filter(|r| r.0 != Level::Shared) {
            b.ridge_mark(p / rate, p, pal.level(level), None);
        }
    }
    if let Some(h) = hmma {
        b.flat_roof(h, start(h), Style::dashed(pal.compute), &format!("HMMA {} GIPS", giga4(h)), &flats);
    }
    if peak.is_none() && roofs.is_empty() {
        let note = format!("{} has no issue model: no instruction ceilings", m.name);
        let (x, y) = (b.plot[0] + 8.0, b.plot[1] + 16.0);
        b.label(&[(x, y, super::Anchor::Start, 0.0)], &note, pal.axis, super::frame::LEGEND_PX);
    }
    b.kernel_labels(input, &anchors, &names);
    b.finish()
}
