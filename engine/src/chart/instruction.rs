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

use super::compare;
use super::dots::{radius_px, selected_last, time_shares, Dot};
use super::frame::{auto_range, Axes, Builder, LegendItem, Swatch};
use super::hierarchical::level_name;
use super::roofs::{giga4, Style};
use super::scene::{Marker, Scene};
use super::ChartInput;
use crate::counters::Counter;
use crate::model::hierarchical::sizes;
use crate::model::instruction::{instruction_points, tensor_inst_per_s, threads_per_warp, InstructionPoint};
use crate::model::{Level, Machine};
use crate::profile::KernelProfile;
use crate::units::GIGA;

/// Thread and warp rates closer than this (relative) show no predication: no second marker.
const PREDICATION_TOLERANCE: f64 = 0.01;

/// A kernel's dots on the instruction chart.
struct KernelDots {
    kernel: usize,
    points: Vec<InstructionPoint>,
    /// HMMA warp instructions and their rate, when the kernel ran any.
    tensor: Option<(f64, f64)>,
}

fn finite_pos(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

fn kernel_dots(input: &ChartInput) -> Vec<KernelDots> {
    let (s, tpw) = (sizes(Some(input.machine)), threads_per_warp(Some(input.machine)));
    input
        .kernels
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let points: Vec<_> = instruction_points(k, &s, tpw)
                .into_iter()
                .filter(|p| input.shows_level(p.level) && finite_pos(p.warp_inst_per_txn) && finite_pos(p.warp_inst_per_s))
                .collect();
            let tensor = k.counters.get(Counter::TensorInst).filter(|t| finite_pos(*t)).zip(tensor_inst_per_s(k).filter(|r| finite_pos(*r)));
            KernelDots { kernel: i, points, tensor }
        })
        .filter(|d| !d.points.is_empty())
        .collect()
}

/// Whether any kernel measured shared-memory transactions (then the shared ceiling matters).
fn has_shared(kernels: &[KernelProfile]) -> bool {
    kernels.iter().any(|k| [Counter::SharedTxn, Counter::SharedBytes].iter().any(|&c| k.counters.get(c).is_some_and(finite_pos)))
}

/// The GTXN/s roofs to draw: level, transactions/s.
fn txn_roofs(input: &ChartInput) -> Vec<(Level, f64)> {
    let shared = has_shared(input.kernels);
    [Level::L1, Level::Shared, Level::L2, Level::Dram]
        .into_iter()
        .filter(|&l| input.shows_level(l) && (l != Level::Shared || shared))
        .filter_map(|l| Some((l, input.machine.txn_per_s(l).filter(|t| finite_pos(*t))?)))
        .collect()
}

pub fn build(input: &ChartInput) -> Scene {
    let m: &Machine = input.machine;
    let dots = kernel_dots(input);
    let roofs = txn_roofs(input);
    let peak = m.warp_inst_per_s().filter(|p| finite_pos(*p));
    let hmma = m.tensor_inst_per_s().filter(|p| finite_pos(*p) && dots.iter().any(|d| d.tensor.is_some()));
    let thread_of = |p: &InstructionPoint| p.thread_inst_per_s.filter(|t| finite_pos(*t) && (t / p.warp_inst_per_s - 1.0).abs() > PREDICATION_TOLERANCE);

    let mut xs: Vec<f64> = dots.iter().flat_map(|d| d.points.iter().map(|p| p.warp_inst_per_txn)).collect();
    xs.extend(dots.iter().flat_map(|d| d.tensor.map(|(n, _)| d.points.iter().map(move |p| n / p.txn)).into_iter().flatten()));
    let mut ys: Vec<f64> = dots.iter().flat_map(|d| d.points.iter().flat_map(|p| [Some(p.warp_inst_per_s), thread_of(p)].into_iter().flatten())).collect();
    ys.extend(dots.iter().filter_map(|d| d.tensor.map(|t| t.1)));
    let top = peak.into_iter().chain(hmma).fold(0.0, f64::max);
    if top > 0.0 {
        xs.extend(roofs.iter().map(|r| top / r.1));
        ys.extend([top, top / 1e3]);
    }
    ys.extend(hmma);
    let (run_xs, run_ys) = compare::extent(input);
    xs.extend(run_xs);
    ys.extend(run_ys);

    let pal = input.theme.palette();
    let mut legend: Vec<LegendItem> = Level::ALL
        .iter()
        .filter(|&&l| dots.iter().any(|d| d.points.iter().any(|p| p.level == l)) || roofs.iter().any(|r| r.0 == l))
        .map(|&l| LegendItem::new(Swatch::Dot(pal.level(l)), level_name(m, l)))
        .collect();
    legend.push(LegendItem::new(Swatch::Line(pal.link, true), "warp GIPS"));
    if dots.iter().any(|d| d.points.iter().any(|p| thread_of(p).is_some())) {
        legend.push(LegendItem::new(Swatch::Dot(pal.link), "small dot: thread inst ÷ 32 (predication)"));
    }
    if dots.iter().any(|d| d.tensor.is_some()) {
        legend.push(LegendItem::new(Swatch::Open(pal.compute), "ringed: HMMA inst"));
    }
    legend.push(LegendItem::sizes());
    legend.extend(compare::legend(input));
    let mut b = Builder::new(input, auto_range(xs, 0.3), auto_range(ys, 0.15), &legend);

    let shares = time_shares(input.kernels);
    for d in selected_last(&dots, |d| d.kernel, input.selected) {
        let selected = input.selected == Some(d.kernel);
        let r = radius_px(shares.get(d.kernel).copied().unwrap_or(0.0));
        let mut line = Vec::new();
        for p in &d.points {
            let color = pal.level(p.level);
            let dot = Dot { kernel: d.kernel, x: p.warp_inst_per_txn, y: p.warp_inst_per_s, r, fill: Some(color), stroke: color, level: Some(p.level), marker: Marker::Level, selected };
            line.extend(b.dot(dot));
            if let Some(t) = thread_of(p) {
                b.dot(Dot { y: t, r: (0.55 * r).max(2.5), marker: Marker::Thread, selected: false, ..dot });
            }
            if let Some((n, rate)) = d.tensor {
                b.dot(Dot { x: n / p.txn, y: rate, r: (0.8 * r).max(3.0), stroke: pal.compute, marker: Marker::Tensor, selected: false, ..dot });
            }
        }
        b.link(line, selected, true, pal.link);
    }
    compare::draw(&mut b, input);
    b.axes(&Axes { x_title: "Instruction intensity (warp inst/transaction)", y_title: "Performance (warp GIPS)", x_div: 1.0, y_div: GIGA });
    if !input.show_ceilings {
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
        b.flat_roof(p, start(p), Style::solid(pal.compute), &format!("Peak {} warp GIPS", giga4(p)), &flats);
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
    b.finish()
}
