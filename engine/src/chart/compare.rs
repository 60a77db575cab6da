//! Run comparison on a chart: an optimisation trajectory. Earlier runs' kernels are drawn as
//! small open markers and an arrow goes from a kernel's point in each run to its point in the
//! next, the last arrow ending on the current run's (filled) dot, so the chart reads as "this
//! is where the kernel was, this is where it went" (the BerkeleyGW v1…v9 and Nsight Compute
//! step-by-step roofline plots).
//!
//! Pairing rule (issue 44): [`crate::compare::pair`] — the user's pairs first, then the same
//! full name, the same demangled function, a unique short name — or the pairing the caller
//! gives ([`RunRef::pairing`]). In the multi-level charts a point also keeps its memory level,
//! so an L2 dot moves to the next run's L2 dot. Arrows join consecutive runs only. The arrows
//! into the current run are labelled with the kernel's speed-up (before time ÷ after time,
//! "2.9×"), the largest kernels first; an earlier run's kernel paired with nothing in the
//! current run is crossed out and labelled "gone", a current kernel paired with nothing
//! labelled "new".
//!
//! Each run is judged against its own machine: where the last earlier run's machine
//! ([`RunRef::machine`]) has other roofs than the chart's, the classic chart draws its memory
//! roof and its compute roof of the chart's precision dashed, labelled with its name (both
//! roof sets, docs/MODEL.md); each dot stays at its measured FLOP/byte and FLOP/s.
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
use super::roofs::{giga4, Style};
use crate::compare::{pair, Pairing, UserPairs};
use crate::model::hierarchical::{hierarchical_points, sizes};
use crate::model::instruction::{instruction_points_iter, threads_per_warp};
use crate::model::point::classic_points;
use crate::model::{Level, Machine};
use crate::domain::profile::KernelProfile;
use std::collections::HashMap;

/// An earlier run: its name (its files, a step of an optimisation) and its kernels.
#[derive(Clone, Copy, Debug)]
pub struct RunRef<'a> {
    pub name: &'a str,
    pub kernels: &'a [KernelProfile],
    /// The machine this run is judged against, where it is not the chart's (an A100 run in a
    /// chart of an H100 run): its roofs are drawn too (module doc). `None`: the chart's.
    pub machine: Option<&'a Machine>,
    /// Which of this run's kernels is which of the next run's (indices into the two kernel
    /// lists as given here), the user's pairs applied; `None`: [`pair`] without user pairs.
    pub pairing: Option<&'a Pairing>,
}

impl<'a> RunRef<'a> {
    /// A run on the chart's machine, paired automatically with the next.
    pub fn new(name: &'a str, kernels: &'a [KernelProfile]) -> Self {
        RunRef { name, kernels, machine: None, pairing: None }
    }
}

/// Most speed-up labels and "new"/"gone" labels drawn: the largest kernels' (by the earlier
/// run's time), so that 10,000 paired kernels do not spend the frame placing labels that
/// could not fit anyway.
const MAX_RUN_LABELS: usize = 24;

/// The pairing of run `r` with run `r + 1` of `runs` (the caller's, else automatic).
pub fn pairing_of(runs: &[RunRef], current: &[KernelProfile], r: usize) -> Pairing {
    let Some(run) = runs.get(r) else { return Pairing::default() };
    if let Some(p) = run.pairing {
        return p.clone();
    }
    let next = runs.get(r + 1).map_or(current, |n| n.kernels);
    let names = |ks: &[KernelProfile]| ks.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    // Without user pairs nothing can fail to resolve: an empty pairing is only a fallback.
    pair(&names(run.kernels), &names(next), &UserPairs::default()).unwrap_or_default()
}

/// "2.9×", "17.3×", "0.85×": a speed-up as the arrows and the panel write it (a slow-down
/// keeps two decimals, so that 0.85× does not read as 0.8×).
pub fn speedup_label(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.1}×")
    } else {
        format!("{s:.2}×")
    }
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

/// The comparison's part of a chart (the earlier runs' extent, legend entry and drawing), which
/// the modes' builders reach only through the input ([`ChartInput::runs_extent`] and its
/// siblings), and the input only once [`ChartInput::with_runs`] has set it. A chart that never
/// has runs, the link chart (`first/`), then links none of this module's code: 15 KB of its
/// wasm and its callees, 12.5 KB gzipped of a shared link's first chart (docs/PERFORMANCE.md,
/// "2026-12-07, later").
pub(super) struct Layer {
    pub extent: fn(&ChartInput) -> (Vec<f64>, Vec<f64>),
    pub legend: fn(&ChartInput) -> Option<LegendItem>,
    pub draw: fn(&mut Builder, &ChartInput, Option<&[Color]>),
}

pub(super) static LAYER: Layer = Layer { extent, legend, draw };

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
    let text = match other_roofs(input) {
        Some((m, _, _)) => format!("open: {runs}; dashed: its roofs ({}); arrows to the next run", m.name),
        None => format!("open: {runs}; arrows to the next run"),
    };
    Some(LegendItem::new(Swatch::Open(input.theme.palette().link), text))
}

/// The last earlier run's machine where its roofs differ from the chart's (classic chart):
/// its memory roof's bandwidth and its compute roof of the chart's precision, with its name.
fn other_roofs<'m>(input: &ChartInput<'m>) -> Option<(&'m Machine, f64, f64)> {
    let m = input.runs.last()?.machine?;
    if input.mode != Mode::Classic {
        return None;
    }
    let kind = super::flop_roofs::shown_compute(input).0.map(|c| c.kind)?;
    let bw = m.memory_level(Level::Dram).or_else(|| m.memory.last())?.bytes_per_s;
    let peak = m.compute_ceiling(kind)?.flops_per_s;
    let own_bw = input.machine.memory_level(Level::Dram).or_else(|| input.machine.memory.last()).map(|l| l.bytes_per_s);
    let own_peak = input.machine.compute_ceiling(kind).map(|c| c.flops_per_s);
    let finite = bw.is_finite() && bw > 0.0 && peak.is_finite() && peak > 0.0;
    (finite && (own_bw != Some(bw) || own_peak != Some(peak))).then_some((m, bw, peak))
}

/// An arrow's two ends, pixels.
type Segment = ((f64, f64), (f64, f64));

/// A drawn marker: its pixel centre and how far it reaches (arrows are trimmed by that).
type Marked = ((f64, f64), f64);

/// Draws earlier runs' markers and the arrows between consecutive runs (the last run being
/// `input.kernels`), the speed-up labels, the "new"/"gone" marks and the earlier run's own
/// roofs (module doc). Call after the current dots and before the axes and roof labels, so
/// labels avoid what this reserves. `colors`: the current kernels' dot colours where the
/// chart colours dots per kernel (classic), so a path keeps its dot's colour; else each
/// level's colour.
pub fn draw(b: &mut Builder, input: &ChartInput, colors: Option<&[Color]>) {
    if !shows_runs(input) {
        return;
    }
    if let Some((m, bw, peak)) = other_roofs(input) {
        let style = Style::dashed(b.pal.link);
        let ridge = peak / bw;
        let memory = m.memory_level(Level::Dram).or_else(|| m.memory.last()).map_or("DRAM", |l| l.name.as_str());
        b.slanted_roof(bw, ridge, style, &format!("{} {memory}: {} GB/s", m.name, giga4(bw)));
        b.flat_roof(peak, ridge, style, &format!("{}: {} GFLOP/s", m.name, giga4(peak)), &[]);
    }
    let runs: Vec<&[KernelProfile]> = input.runs.iter().map(|r| r.kernels).chain([input.kernels]).collect();
    let last = runs.len() - 1;
    // Which earlier kernel leads to each kernel of each run: run r's kernel i came from run
    // r − 1's kernel `from[r][i]`.
    let pairings: Vec<Pairing> = (0..input.runs.len()).map(|r| pairing_of(input.runs, input.kernels, r)).collect();
    let mut from: Vec<Vec<Option<usize>>> = runs.iter().map(|ks| vec![None; ks.len()]).collect();
    for (r, p) in pairings.iter().enumerate() {
        for pr in &p.pairs {
            if let Some(slot) = from.get_mut(r + 1).and_then(|f| f.get_mut(pr.after)) {
                *slot = Some(pr.before);
            }
        }
    }
    // Each run's kernel's index in the current run along its path, for its colour.
    let mut to_current: Vec<Vec<Option<usize>>> = runs.iter().map(|ks| vec![None; ks.len()]).collect();
    to_current[last] = (0..runs[last].len()).map(Some).collect();
    for r in (1..runs.len()).rev() {
        for i in 0..runs[r].len() {
            if let (Some(cur), Some(Some(j))) = (to_current[r][i], from[r].get(i).copied()) {
                if let Some(slot) = to_current[r - 1].get_mut(j) {
                    *slot = Some(cur);
                }
            }
        }
    }
    let selected = input.selected;
    let color = |b: &Builder, current: Option<usize>, level: Level| match colors {
        // A path keeps the colour of its current dot.
        Some(cs) => current.and_then(|i| cs.get(i).copied()).unwrap_or(b.pal.link),
        None => b.pal.level(level),
    };
    // Per run, keyed by (kernel, level): the marker's pixel centre and how far it reaches (the
    // arrow is trimmed by that); only points inside the plot.
    let mut centres: Vec<HashMap<(usize, Level), Marked>> = Vec::with_capacity(runs.len());
    let mut ordered: Vec<Vec<((usize, Level), Marked)>> = Vec::with_capacity(runs.len());
    for (r, ks) in runs.iter().enumerate() {
        let earlier = r < last;
        let shares = time_shares(ks);
        let mut map = HashMap::new();
        let mut list = Vec::new();
        let pts = points(input, ks);
        if earlier {
            // One marker and one taken box per point: grown once, not doubled over and over.
            b.marks.reserve(pts.len());
            b.placer.reserve(pts.len());
        }
        for p in pts {
            let Some(c) = b.px(p.x, p.y).filter(|&c| b.in_plot(c)) else { continue };
            let dot = radius_px(shares.get(p.kernel).copied().unwrap_or(0.0));
            let current = to_current[r].get(p.kernel).copied().flatten();
            let reach = if earlier {
                let rad = (GHOST_SCALE * dot).max(GHOST_MIN_PX);
                let stroke = color(b, current, p.level);
                b.marks.push(Shape::Circle { cx: c.0, cy: c.1, r: rad, fill: None, stroke: Some(stroke), width: GHOST_STROKE_PX });
                let reach = rad + GHOST_STROKE_PX / 2.0;
                b.placer.occupy([c.0 - reach, c.1 - reach, c.0 + reach, c.1 + reach]);
                reach
            } else if selected == Some(p.kernel) {
                dot + RING_REACH_PX
            } else {
                dot
            };
            map.entry((p.kernel, p.level)).or_insert((c, reach));
            list.push(((p.kernel, p.level), (c, reach)));
        }
        centres.push(map);
        ordered.push(list);
    }
    // The arrow of each kernel of the current run, for its speed-up label: (from, to).
    let mut last_arrow: HashMap<usize, Segment> = HashMap::new();
    for r in 1..runs.len() {
        b.marks.reserve(ordered[r].len());
        b.placer.reserve(ordered[r].len());
        for &((kernel, level), (to, to_reach)) in &ordered[r] {
            let Some(Some(before)) = from[r].get(kernel).copied() else { continue };
            let Some(&(at, from_reach)) = centres[r - 1].get(&(before, level)) else { continue };
            let current = to_current[r].get(kernel).copied().flatten();
            let width = if selected.is_some() && selected == current { ARROW_SELECTED_PX } else { ARROW_PX };
            let trim = [from_reach + ARROW_GAP_PX, to_reach + ARROW_GAP_PX];
            // Markers too close for an arrow between them: they already show no move.
            let Some(g) = arrow_geometry(at, to, width, trim) else { continue };
            b.marks.push(Shape::Arrow { from: at, to, color: color(b, current, level), width, trim });
            let (xs, ys) = (g.head.map(|p| p.0), g.head.map(|p| p.1));
            let lo = |v: [f64; 3]| v.into_iter().fold(f64::MAX, f64::min);
            let hi = |v: [f64; 3]| v.into_iter().fold(f64::MIN, f64::max);
            b.placer.occupy([lo(xs), lo(ys), hi(xs), hi(ys)]);
            if r == last {
                last_arrow.entry(kernel).or_insert((at, to));
            }
        }
    }
    let Some(step) = pairings.last() else { return };
    let (before, after) = (runs[last - 1], runs[last]);
    let time = |k: Option<&KernelProfile>| k.and_then(KernelProfile::time_s).filter(|t| t.is_finite() && *t > 0.0);
    // Speed-up labels at the arrows' middles, the kernels that took most time before first.
    let timed = step.pairs.iter().enumerate().filter_map(|(i, p)| Some((time(before.get(p.before))?, i)));
    for (tb, i) in largest(timed) {
        let Some(p) = step.pairs.get(i) else { continue };
        let (kernel, Some(ta)) = (p.after, time(after.get(p.after))) else { continue };
        let speedup = tb / ta;
        let Some(&(a, z)) = last_arrow.get(&kernel) else { continue };
        let mid = ((a.0 + z.0) / 2.0, (a.1 + z.1) / 2.0);
        let c = color(b, Some(kernel), Level::Dram);
        b.label(&around(mid, 6.0), &speedup_label(speedup), c, LABEL_PX);
    }
    // Kernels of the current run with no earlier kernel: "new" beside their dot.
    let firsts = |list: &[((usize, Level), Marked)], wanted: &[usize], times: &[KernelProfile]| {
        let found: Vec<((f64, f64), f64)> = wanted.iter().filter_map(|&i| list.iter().find(|((k, _), _)| *k == i).map(|&(_, m)| m)).collect();
        let timed = wanted.iter().enumerate().map(|(j, &i)| (time(times.get(i)).unwrap_or(0.0), j));
        largest(timed).into_iter().filter_map(|(t, j)| found.get(j).map(|&(c, reach)| (t, c, reach))).collect::<Vec<_>>()
    };
    for (_, c, reach) in firsts(&ordered[last], &step.added, after) {
        b.label(&around(c, reach + 3.0), "new", b.pal.link, LABEL_PX);
    }
    // Earlier kernels with no kernel in the current run: crossed out, "gone".
    for (_, c, reach) in firsts(&ordered[last - 1], &step.removed, before) {
        let d = reach * 0.8;
        for (p, q) in [((c.0 - d, c.1 - d), (c.0 + d, c.1 + d)), ((c.0 - d, c.1 + d), (c.0 + d, c.1 - d))] {
            b.marks.push(Shape::Line { points: vec![p, q], color: b.pal.link, width: 1.0, dash: false });
        }
        b.label(&around(c, reach + 3.0), "gone", b.pal.link, LABEL_PX);
    }
}

/// The [`MAX_RUN_LABELS`] items with the largest time, largest first (ties: the earlier
/// first): an insertion into a short list, not a sort, whose code would cost the page
/// kilobytes per closure.
fn largest(items: impl Iterator<Item = (f64, usize)>) -> Vec<(f64, usize)> {
    let mut top: Vec<(f64, usize)> = Vec::with_capacity(MAX_RUN_LABELS + 1);
    for item in items {
        let at = top.iter().position(|t| t.0 < item.0).unwrap_or(top.len());
        if at < MAX_RUN_LABELS {
            top.insert(at, item);
            top.truncate(MAX_RUN_LABELS);
        }
    }
    top
}

/// Text size of the speed-up and "new"/"gone" labels, px.
const LABEL_PX: f64 = 11.0;

/// Label spots around a point at `gap` px: right, left, above, below.
fn around(c: (f64, f64), gap: f64) -> [(f64, f64, super::Anchor, f64); 4] {
    use super::Anchor;
    [(c.0 + gap, c.1 + 4.0, Anchor::Start, 0.0), (c.0 - gap, c.1 + 4.0, Anchor::End, 0.0), (c.0, c.1 - gap, Anchor::Middle, 0.0), (c.0, c.1 + gap + 10.0, Anchor::Middle, 0.0)]
}
