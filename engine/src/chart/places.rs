//! Where each kernel appears in a chart mode, so that no kernel is dropped silently.
//!
//! A roofline dot needs FLOPs, bytes and a time; a run of a deep-learning framework is full of
//! kernels with none of the first (copies, transposes, padding, integer work): in the NERSC
//! Nsight Compute run 27 of 49 kernels, a third of the run time. Such a kernel still moved
//! bytes in a measured time, so the FLOP charts draw it in a bandwidth strip under the plot
//! (bytes/s attained against the memory roof, [`super::strip`]); what cannot be drawn at all
//! is counted, and the page says how many kernels and how much of the run time each place
//! holds ([`Places::note`]).

use super::Mode;
use crate::domain::counters::Counter;
use crate::domain::profile::KernelProfile;
use crate::model::hierarchical::{level_bytes, sizes};
use crate::model::instruction::{instruction_points_iter, threads_per_warp};
use crate::model::walls::{global_ldst, shared_ldst};
use crate::model::{Level, Machine};

/// Where a kernel is in one chart mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A dot in the plot.
    Plot,
    /// No FLOPs but bytes and a time: a dot in the bandwidth strip under the plot (classic
    /// and hierarchical charts).
    Strip,
    /// Nothing this chart can draw: only in the kernel table.
    Table,
}

/// Kernels in one place: how many, their time, and their share of the run time (of every
/// kernel with a usable time; `None` when no kernel has one).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Group {
    pub count: usize,
    pub time_s: f64,
    pub share: Option<f64>,
}

/// Every kernel's place in a mode and the kernels outside the plot, counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Places {
    pub mode: Mode,
    /// Parallel to the kernels.
    pub places: Vec<Place>,
    pub strip: Group,
    pub table: Group,
}

fn positive(v: Option<f64>) -> Option<f64> {
    v.filter(|v| v.is_finite() && *v > 0.0)
}

/// Whether a kernel has FLOPs to place on a FLOP chart (some, measured, more than zero).
pub fn has_flops(k: &KernelProfile, m: &Machine) -> bool {
    positive(k.total_flops(m.flops_per_tensor_inst)).is_some()
}

/// The levels at which a kernel moved bytes (any, measured, more than zero).
fn moved_bytes(k: &KernelProfile, m: &Machine, levels: &[Level]) -> bool {
    let s = sizes(Some(m));
    levels.iter().any(|&l| positive(level_bytes(k, l, &s)).is_some())
}

/// A kernel's place in `mode` on `machine`: the same tests the charts' builders apply.
pub fn place(k: &KernelProfile, m: &Machine, mode: Mode) -> Place {
    let timed = positive(k.time_s()).is_some();
    let flop_chart = |levels: &[Level], plotted: bool| match (plotted, timed && moved_bytes(k, m, levels)) {
        (true, _) => Place::Plot,
        (false, true) if !has_flops(k, m) => Place::Strip,
        _ => Place::Table,
    };
    match mode {
        Mode::Classic => {
            let plotted = timed && has_flops(k, m) && positive(k.counters.get(Counter::DramBytes)).is_some();
            flop_chart(&[Level::Dram], plotted)
        }
        Mode::Hierarchical => flop_chart(&Level::ALL, timed && has_flops(k, m) && moved_bytes(k, m, &Level::ALL)),
        Mode::Instruction => {
            let (s, tpw) = (sizes(Some(m)), threads_per_warp(Some(m)));
            let dot = instruction_points_iter(k, &s, tpw).any(|p| positive(Some(p.warp_inst_per_txn)).is_some() && positive(Some(p.warp_inst_per_s)).is_some());
            if dot {
                Place::Plot
            } else {
                Place::Table
            }
        }
        Mode::Walls => {
            let (s, tpw) = (sizes(Some(m)), threads_per_warp(Some(m)));
            let total = instruction_points_iter(k, &s, tpw).any(|p| p.level == Level::L1 && positive(Some(p.warp_inst_per_txn)).is_some() && positive(Some(p.warp_inst_per_s)).is_some());
            let ldst = [global_ldst(k), shared_ldst(k)].into_iter().flatten().any(|p| positive(Some(p.inst_per_txn)).is_some() && positive(p.inst_per_s).is_some());
            if total || ldst {
                Place::Plot
            } else {
                Place::Table
            }
        }
        Mode::Transfers => Place::Table,
    }
}

/// Every kernel's place in `mode`, with the kernels in the strip and in the table counted.
pub fn places(kernels: &[KernelProfile], m: &Machine, mode: Mode) -> Places {
    let places: Vec<Place> = kernels.iter().map(|k| place(k, m, mode)).collect();
    let times: Vec<f64> = kernels.iter().map(|k| positive(k.time_s()).unwrap_or(0.0)).collect();
    let total: f64 = times.iter().sum();
    let group = |which: Place| {
        let (count, time_s) = places.iter().zip(&times).filter(|(p, _)| **p == which).fold((0, 0.0), |(n, t), (_, dt)| (n + 1, t + dt));
        Group { count, time_s, share: (total > 0.0).then(|| time_s / total) }
    };
    let (strip, table) = (group(Place::Strip), group(Place::Table));
    Places { mode, places, strip, table }
}

/// "34%", "<1%" for a share under half a percent but not zero.
fn percent(share: f64) -> String {
    if share > 0.0 && share < 0.005 {
        "<1%".into()
    } else {
        format!("{:.0}%", 100.0 * share)
    }
}

/// "27 kernels, 34% of the run time," / "1 kernel".
fn counted(g: &Group) -> String {
    let kernels = if g.count == 1 { "1 kernel".to_string() } else { format!("{} kernels", g.count) };
    match g.share {
        Some(s) => format!("{kernels}, {} of the run time,", percent(s)),
        None => kernels,
    }
}

impl Places {
    /// What the page says about the kernels outside the plot, `None` when every kernel is in
    /// it (or the mode is not about kernels): "27 kernels, 34% of the run time, have no
    /// FLOPs: shown in the bandwidth strip under the chart."
    pub fn note(&self) -> Option<String> {
        if self.mode == Mode::Transfers {
            return None;
        }
        let mut parts = Vec::new();
        if self.strip.count > 0 {
            let verb = if self.strip.count == 1 { "has" } else { "have" };
            parts.push(format!("{} {verb} no FLOPs: shown in the bandwidth strip under the chart", counted(&self.strip)));
        }
        if self.table.count > 0 {
            let verb = if self.table.count == 1 { "lacks" } else { "lack" };
            let what = match self.mode {
                Mode::Classic => "a time, FLOPs or DRAM bytes",
                Mode::Hierarchical => "a time, FLOPs or bytes",
                Mode::Instruction => "the instruction and transaction counters",
                Mode::Walls => "the instruction or LD/ST counters",
                Mode::Transfers => "",
            };
            parts.push(format!("{} {verb} {what}: listed in the table only", counted(&self.table)));
        }
        let mut note = parts.join(". ");
        if note.is_empty() {
            return None;
        }
        note.push('.');
        Some(crate::notice::capitalise(&note))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalogue;

    fn k(name: &str, pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile::from_counters(name, pairs)
    }

    #[test]
    fn each_kernel_has_one_place() {
        let m = catalogue::v100();
        let ks = [
            k("gemm", &[(Counter::Fp32Flops, 1e9), (Counter::DramBytes, 1e8), (Counter::TimeS, 3.0)]),
            k("copy", &[(Counter::Fp32Flops, 0.0), (Counter::DramBytes, 1e8), (Counter::TimeS, 1.0)]),
            k("transpose", &[(Counter::DramBytes, 1e8), (Counter::TimeS, 0.5)]),
            k("untimed", &[(Counter::Fp32Flops, 1e9), (Counter::DramBytes, 1e8)]),
            k("l2 only", &[(Counter::Fp32Flops, 1e9), (Counter::L2Bytes, 1e8), (Counter::TimeS, 0.5)]),
        ];
        let p = places(&ks, &m, Mode::Classic);
        assert_eq!(p.places, [Place::Plot, Place::Strip, Place::Strip, Place::Table, Place::Table]);
        // 5 s in all: the strip 1.5 s (30%), the table 0.5 s (10%; the untimed kernel adds 0).
        assert_eq!((p.strip.count, p.table.count), (2, 2));
        assert!((p.strip.share.unwrap() - 0.3).abs() < 1e-12 && (p.table.share.unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(
            p.note().as_deref(),
            Some("2 kernels, 30% of the run time, have no FLOPs: shown in the bandwidth strip under the chart. 2 kernels, 10% of the run time, lack a time, FLOPs or DRAM bytes: listed in the table only.")
        );
        // The hierarchical chart has the L2 kernel's dot.
        let h = places(&ks, &m, Mode::Hierarchical);
        assert_eq!(h.places, [Place::Plot, Place::Strip, Place::Strip, Place::Table, Place::Plot]);
        // Without instruction counters the instruction chart has none of them.
        let i = places(&ks, &m, Mode::Instruction);
        assert!(i.places.iter().all(|p| *p == Place::Table));
        assert_eq!(i.note().as_deref(), Some("5 kernels, 100% of the run time, lack the instruction and transaction counters: listed in the table only."));
        assert_eq!(places(&ks[..1], &m, Mode::Classic).note(), None);
        assert_eq!(places(&ks, &m, Mode::Transfers).note(), None);
    }

    #[test]
    fn shares_read_as_percent() {
        assert_eq!(percent(0.3446), "34%");
        assert_eq!(percent(0.004), "<1%");
        assert_eq!(percent(0.0), "0%");
        let one = Group { count: 1, time_s: 0.0, share: None };
        assert_eq!(counted(&one), "1 kernel");
    }
}
