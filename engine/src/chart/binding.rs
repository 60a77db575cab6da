//! The selected kernel's binding roof (issue 43: "the chart shows what the words say"): the
//! roof that [`crate::model::guidance::guide`] names is drawn and labelled in the chart that
//! judged it, even where the roof filter (used roofs only, a hidden compute kind or level)
//! would leave it out.
//!
//! What each bound draws (docs/MODEL.md, "Guidance", "Which roof the chart draws"):
//! - one pipe and data type ("BF16 matrix compute", "FP64 compute"): that compute roof, on
//!   the classic and hierarchical charts (Nsight Compute's roofline post: one roof per
//!   data-type path);
//! - several pipes ("BF16 matrix + FP32 compute", the sum of their times): a flat roof at the
//!   kernel's FLOPs ÷ that summed time, the rate at which the kernel would take exactly its
//!   bound's time, so its dot sits at its attained fraction of the roof; dashed, named by
//!   the bound;
//! - a memory level: that level's bandwidth roof on the hierarchical chart (and DRAM's on the
//!   classic one, whose x axis is DRAM intensity); another level on the classic chart, and
//!   instruction issue on both FLOP charts, have no FLOP roof: they are drawn the same way as
//!   several pipes, as the kernel's FLOPs ÷ the bound's time, "≈"-labelled;
//! - instruction issue: the peak warp GIPS roof of the instruction chart (Ding & Williams'
//!   instruction roofline, §III-A: warp GIPS = SMs × warp schedulers × 1 instruction per cycle
//!   × clock, "489.6 GIPS" on the V100).
//!
//! A kernel without FLOPs has no dot on a FLOP chart: where its bound has no roof of its own
//! there, a note in the plot says which chart shows it.

use crate::domain::profile::KernelProfile;
use crate::model::guidance::{guide, Bound, BoundKind};
use crate::model::{Ceiling, Level, Machine};

/// What the selected kernel's binding bound draws on a FLOP chart (classic, hierarchical).
#[derive(Clone, Debug, PartialEq)]
pub enum FlopBinding<'m> {
    /// A compute roof of the machine.
    Ceiling(&'m Ceiling),
    /// A memory level's bandwidth roof (drawn where the chart has roofs per level).
    Level(Level),
    /// A flat roof at `flops_per_s`, the kernel's FLOPs ÷ the bound's time, named `name`
    /// (`approx`: a bound that is not FLOPs, issue or another level, read as FLOP/s).
    Flat { name: String, approx: bool, flops_per_s: f64 },
    /// No roof: a note for the plot.
    Note(String),
}

/// The selected kernel's guidance binding bound, with the kernel.
pub fn selected_bound<'k>(kernels: &'k [KernelProfile], selected: Option<usize>, m: &Machine) -> Option<(&'k KernelProfile, Bound)> {
    let k = kernels.get(selected?)?;
    Some((k, guide(k, m)?.binding))
}

/// The machine ceiling a one-pipe compute bound was judged against: the bound is named
/// "{ceiling} compute" ([`crate::model::guidance::bounds`]).
fn ceiling_of<'m>(b: &Bound, m: &'m Machine) -> Option<&'m Ceiling> {
    let name = b.name.strip_suffix(" compute")?;
    m.compute.iter().find(|c| c.name == name && c.flops_per_s.is_finite() && c.flops_per_s > 0.0)
}

/// The kernel's FLOPs ÷ the bound's time: the flat roof of a bound without a FLOP roof of its
/// own. `None` without FLOPs or a positive time.
fn flat_rate(k: &KernelProfile, b: &Bound, m: &Machine) -> Option<f64> {
    let flops = k.total_flops(m.flops_per_tensor_inst).filter(|f| f.is_finite() && *f > 0.0)?;
    Some(flops / b.time_s).filter(|r| r.is_finite() && *r > 0.0)
}

/// What the selected kernel's bound draws on a FLOP chart whose memory roofs are `levels`.
pub fn flop_binding<'m>(kernels: &[KernelProfile], selected: Option<usize>, m: &'m Machine, levels: &[Level]) -> Option<FlopBinding<'m>> {
    let (k, b) = selected_bound(kernels, selected, m)?;
    match (b.kind, b.level) {
        (BoundKind::Memory, Some(l)) if levels.contains(&l) => return Some(FlopBinding::Level(l)),
        (BoundKind::Compute, _) => {
            if let Some(c) = ceiling_of(&b, m) {
                return Some(FlopBinding::Ceiling(c));
            }
        }
        _ => {}
    }
    // Several pipes, a path or clock of the kernel's own, issue, a level without a roof here.
    let approx = b.kind != BoundKind::Compute;
    let chart = if b.kind == BoundKind::Issue { "the instruction chart" } else { "the hierarchical chart" };
    Some(match flat_rate(k, &b, m) {
        Some(r) => FlopBinding::Flat { name: b.name, approx, flops_per_s: r },
        None => FlopBinding::Note(format!("bound by {}: see {chart}", b.name)),
    })
}

/// Whether the selected kernel is bound by instruction issue (the instruction chart draws its
/// roof, which it always does where the machine has an issue model).
pub fn issue_bound(kernels: &[KernelProfile], selected: Option<usize>, m: &Machine) -> bool {
    selected_bound(kernels, selected, m).is_some_and(|(_, b)| b.kind == BoundKind::Issue)
}

/// The charts that judge a bound, whose roof they draw for the selected kernel: compute
/// bounds and DRAM's on the classic and hierarchical charts, another level's on the
/// hierarchical one (the classic chart's x axis is DRAM intensity), issue on the instruction
/// chart (module doc).
pub fn judging_modes(b: &Bound) -> &'static [super::Mode] {
    use super::Mode;
    match (b.kind, b.level) {
        (BoundKind::Compute, _) | (BoundKind::Memory, Some(Level::Dram)) => &[Mode::Classic, Mode::Hierarchical],
        (BoundKind::Memory, _) => &[Mode::Hierarchical],
        (BoundKind::Issue, _) => &[Mode::Instruction],
    }
}
