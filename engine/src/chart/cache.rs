//! What a chart computes from the kernels and the machine alone, kept between redraws.
//!
//! Zoom, pan, hover and selection change none of it, yet a scene built from scratch reads
//! every kernel's counters again: the hierarchical scene of 10,000 kernels spent about a
//! quarter of its time there (time shares twice, FLOPs per roof, each kernel's dots, which
//! kernels go in the bandwidth strip; `perf` of `scene_10k_kernels/hierarchical`,
//! docs/PERFORMANCE.md). A [`ModelCache`] holds those results; a chart given one
//! ([`super::ChartInput::with_cache`]) maps them to pixels and draws the same scene as
//! without it.
//!
//! It is used only for the kernels and machine it was made from: the same slice (address and
//! length) and an equal machine; otherwise the chart computes afresh. A slice edited in place
//! keeps its address, so whoever edits kernels makes a new cache (the app makes it in a memo
//! of the dataset, the machine and the mode).

use super::dots::time_shares;
use super::flop_roofs::FlopSums;
use super::places::{place, Place};
use super::Mode;
use crate::domain::profile::KernelProfile;
use crate::model::hierarchical::hierarchical_points;
use crate::model::{Machine, RooflinePoint};

/// The model's results for one set of kernels on one machine, for one chart mode.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelCache {
    /// The kernels' slice, as address and length: which kernels the results are for.
    kernels_at: usize,
    kernels_len: usize,
    machine: Machine,
    mode: Mode,
    /// Each kernel's share of the run time ([`time_shares`]).
    pub(crate) shares: Vec<f64>,
    /// FLOPs per precision and matrix type ([`FlopSums`]).
    pub(crate) flops: FlopSums,
    /// Hierarchical mode: every kernel's dots ([`hierarchical_points`]); empty otherwise.
    points: Vec<RooflinePoint>,
    /// Each point's `log10` of intensity and of FLOP/s, in `points`' order: a redraw after a
    /// zoom or a pan maps them to pixels with a multiply and an add ([`super::scale::LogMap`]);
    /// `log10` is a software function in wasm, and was 3–4% of such a redraw.
    logs: Vec<(f64, f64)>,
    /// The kernels placed in the bandwidth strip in `mode` ([`Place::Strip`]), in order.
    strip: Vec<usize>,
}

impl ModelCache {
    /// The results for `kernels` on `machine` in `mode`: one pass of each over the kernels.
    pub fn new(kernels: &[KernelProfile], machine: &Machine, mode: Mode) -> ModelCache {
        let points = if mode == Mode::Hierarchical { hierarchical_points(kernels, Some(machine)) } else { Vec::new() };
        let logs = points.iter().map(|p| (p.flops_per_byte.log10(), p.flops_per_s.log10())).collect();
        ModelCache {
            kernels_at: kernels.as_ptr() as usize,
            kernels_len: kernels.len(),
            machine: machine.clone(),
            mode,
            shares: time_shares(kernels),
            flops: FlopSums::of(kernels, machine.flops_per_tensor_inst),
            points,
            logs,
            strip: strip_kernels(kernels, machine, mode),
        }
    }

    /// Whether the results are for these kernels (same slice) on this machine.
    pub fn is_for(&self, kernels: &[KernelProfile], machine: &Machine) -> bool {
        kernels.as_ptr() as usize == self.kernels_at && kernels.len() == self.kernels_len && *machine == self.machine
    }

    /// The hierarchical dots, when made for that mode.
    pub(crate) fn hierarchical_points(&self) -> Option<&[RooflinePoint]> {
        (self.mode == Mode::Hierarchical).then_some(self.points.as_slice())
    }

    /// The hierarchical dots' `log10`s, one pair per point of [`ModelCache::hierarchical_points`].
    pub(crate) fn hierarchical_logs(&self) -> Option<&[(f64, f64)]> {
        (self.mode == Mode::Hierarchical).then_some(self.logs.as_slice())
    }

    /// The strip's kernels, when made for `mode`.
    pub(crate) fn strip_kernels(&self, mode: Mode) -> Option<&[usize]> {
        (self.mode == mode).then_some(self.strip.as_slice())
    }
}

/// The indices of the kernels [`place`]d in the bandwidth strip in `mode`, in kernel order.
pub fn strip_kernels(kernels: &[KernelProfile], machine: &Machine, mode: Mode) -> Vec<usize> {
    kernels.iter().enumerate().filter(|(_, k)| place(k, machine, mode) == Place::Strip).map(|(i, _)| i).collect()
}
