//! The memory-walls chart (Ding & Williams 2019, §III-A and Figs. 3–4, 7): where a kernel's
//! LD/ST instruction intensity stands among the intensities of typical access patterns.
//!
//! Walls are vertical lines, each rising to the ceiling that bounds it (`model::walls`):
//! global walls at stride-0 = 1, stride-1 (unit stride) = 1/4 (32-bit words) or 1/8 (64-bit,
//! [`super::WordSize`]) and stride-8 (32-bit) / stride-4 (64-bit) = 1/32, up to the L1 GTXN/s roof; shared walls at
//! no bank conflict = 1 and 32-way conflict = 1/32, up to the shared GTXN/s roof; none above
//! the peak warp GIPS. LD/ST dots are open ("the position of the open dot visualizes the
//! stride of the memory access pattern"); the solid dot is the kernel's total instructions
//! per L1 transaction, as in Fig. 3 ("the distance between the open and solid points is the
//! fraction of load/store instructions"). A thin line joins one kernel's dots.

use super::dots::{radius_px, selected_last, Dot};
use super::frame::{auto_range, Axes, Builder, LegendItem, Swatch};
use super::hierarchical::level_name;
use super::kernel_labels::{names_of, Anchored};
use super::roofs::{giga4, Style};
use super::scene::{Color, Marker, Scene};
use super::{ChartInput, WordSize};
use crate::model::hierarchical::sizes;
use crate::model::instruction::{instruction_points_iter, threads_per_warp};
use crate::model::walls::{global_ldst, shared_ldst, walls, Wall, WallMemory};
use crate::model::Level;
use crate::units::GIGA;
use std::ops::Range;

/// One marker of a kernel: intensity, instructions/s, level, marker kind.
type Mark = (f64, f64, Level, Marker);

fn finite_pos(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// A wall's label on the chart: the paper's short name for the chosen word size ("stride-1",
/// and "stride-8" for 32-bit words or "stride-4" for 64-bit ones at 1/32, Ding & Williams
/// §III-A), where the model's name lists both.
fn wall_label(w: &Wall, word: WordSize) -> String {
    match (w.memory, w.inst_per_txn) {
        (WallMemory::Global, x) if x == 1.0 / 32.0 => (if word == WordSize::Bits32 { "stride-8" } else { "stride-4" }).into(),
        (WallMemory::Global, x) if x == 0.25 || x == 0.125 => "stride-1".into(),
        _ => w.name.clone(),
    }
}

/// The walls to draw: global ones if L1 is shown (only the unit-stride wall of the chosen
/// word size), shared ones if shared memory is shown.
fn shown_walls(input: &ChartInput) -> Vec<Wall> {
    let other_unit = match input.word {
        WordSize::Bits32 => 0.125,
        WordSize::Bits64 => 0.25,
    };
    walls(input.machine)
        .into_iter()
        .filter(|w| match w.memory {
            WallMemory::Global => input.shows_level(Level::L1) && w.inst_per_txn != other_unit,
            WallMemory::Shared => input.shows_level(Level::Shared),
        })
        .collect()
}

/// Each kernel's markers: solid L1 (all instructions), open global and shared LD/ST. All
/// markers in one vector, in kernel order, and per kernel with any its index and its range
/// of that vector (10 000 kernels need no vector each).
fn kernel_marks(input: &ChartInput) -> (Vec<Mark>, Vec<(usize, Range<usize>)>) {
    let (s, tpw) = (sizes(Some(input.machine)), threads_per_warp(Some(input.machine)));
    let (l1, shared) = (input.shows_level(Level::L1), input.shows_level(Level::Shared));
    let mut all: Vec<Mark> = Vec::with_capacity(input.kernels.len().saturating_mul(3));
    let mut kernels = Vec::with_capacity(input.kernels.len());
    for (i, k) in input.kernels.iter().enumerate() {
        let start = all.len();
        if l1 {
            let total = instruction_points_iter(k, &s, tpw).find(|p| p.level == Level::L1);
            all.extend(total.map(|p| (p.warp_inst_per_txn, p.warp_inst_per_s, Level::L1, Marker::Level)));
            all.extend(global_ldst(k).and_then(|p| Some((p.inst_per_txn, p.inst_per_s?, Level::L1, Marker::GlobalLdSt))));
        }
        if shared {
            all.extend(shared_ldst(k).and_then(|p| Some((p.inst_per_txn, p.inst_per_s?, Level::Shared, Marker::SharedLdSt))));
        }
        // Keep the drawable ones, in order (as `retain` on this kernel's markers).
        let mut kept = start;
        for j in start..all.len() {
            if finite_pos(all[j].0) && finite_pos(all[j].1) {
                all.swap(kept, j);
                kept += 1;
            }
        }
        all.truncate(kept);
        if kept > start {
            kernels.push((i, start..kept));
        }
    }
    (all, kernels)
}

pub fn build(input: &ChartInput) -> Scene {
    let m = input.machine;
    let shown = shown_walls(input);
    let (all, marks) = kernel_marks(input);
    let roofs: Vec<(Level, f64)> = [Level::L1, Level::Shared]
        .into_iter()
        .filter(|&l| input.shows_level(l))
        .filter_map(|l| Some((l, m.txn_per_s(l).filter(|t| finite_pos(*t))?)))
        .collect();
    let peak = m.warp_inst_per_s().filter(|p| finite_pos(*p));

    // Axis extents straight from the markers (a min and a max: no vectors of every value).
    let xs = all.iter().map(|m| m.0).chain(shown.iter().map(|w| w.inst_per_txn)).chain(peak.into_iter().flat_map(|p| roofs.iter().map(move |r| p / r.1)));
    let ys = all.iter().map(|m| m.1).chain(shown.iter().filter_map(|w| w.cap_inst_per_s)).chain(peak.into_iter().flat_map(|p| [p, p / 1e3]));
    let (x_auto, y_auto) = (auto_range(xs, 0.3), auto_range(ys, 0.15));

    let pal = input.theme.palette();
    let (global_c, shared_c) = (pal.level(Level::L1), pal.level(Level::Shared));
    let any = |mk: Marker| all.iter().any(|m| m.3 == mk);
    let mut legend = Vec::new();
    if any(Marker::Level) {
        legend.push(LegendItem::new(Swatch::Dot(global_c), format!("all inst per {} transaction", level_name(m, Level::L1))));
    }
    if any(Marker::GlobalLdSt) || input.shows_level(Level::L1) {
        legend.push(LegendItem::new(Swatch::Open(global_c), "global LD/ST"));
    }
    if any(Marker::SharedLdSt) || input.shows_level(Level::Shared) {
        legend.push(LegendItem::new(Swatch::Open(shared_c), "shared LD/ST"));
    }
    legend.push(LegendItem::sizes());
    let mut b = Builder::new(input, x_auto, y_auto, &legend);
    b.reserve_dots(all.len(), marks.len());

    let shares = input.time_shares();
    // Each kernel is named at its first marker (its solid dot where it has one).
    let mut anchors: Vec<Anchored> = Vec::new();
    for (kernel, range) in selected_last(&marks, |m| m.0, input.selected) {
        let selected = input.selected == Some(*kernel);
        let r = radius_px(shares.get(*kernel).copied().unwrap_or(0.0));
        let ms = all.get(range.clone()).unwrap_or(&[]);
        let mut line = Vec::with_capacity(ms.len());
        for &(x, y, level, marker) in ms {
            let color: Color = pal.level(level);
            let fill = (marker == Marker::Level).then_some(color);
            if let Some(c) = b.dot(Dot { kernel: *kernel, x, y, r, fill, stroke: color, level: Some(level), marker, selected }) {
                line.push(c);
                if anchors.last().is_none_or(|a| a.0 != *kernel) {
                    anchors.push((*kernel, c, r));
                }
            }
        }
        b.link(line, selected, false, pal.link);
    }
    b.axes(&Axes { x_title: "Instruction intensity (warp inst/transaction; open dots: LD/ST)", y_title: "Performance (warp GIPS)", x_div: 1.0, y_div: GIGA });
    if input.show_ceilings {
        let top = peak.unwrap_or(0.0);
        let fastest = roofs.iter().map(|r| r.1).fold(0.0, f64::max);
        for &(level, rate) in &roofs {
            let end = if top > 0.0 { top / rate } else { f64::MAX };
            b.slanted_roof(rate, end, Style::solid(pal.level(level)), &format!("{} {} GTXN/s", level_name(m, level), giga4(rate)));
        }
        if let Some(p) = peak {
            b.flat_roof(p, if fastest > 0.0 { p / fastest } else { 0.0 }, Style::solid(pal.compute), &format!("Peak {} warp GIPS", giga4(p)), &[]);
        }
    }
    if input.show_walls {
        for w in &shown {
            let color = if w.memory == WallMemory::Global { global_c } else { shared_c };
            b.wall(w.inst_per_txn, w.cap_inst_per_s, Style::thin(color), &wall_label(w, input.word));
        }
    }
    let names = names_of(input);
    b.kernel_labels(input, &anchors, &names);
    b.finish()
}
