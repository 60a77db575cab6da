//! Guidance per kernel: which roof binds it, how close it is, how much faster it could run,
//! and which kernels are worth the effort (Intel Advisor's "Roofline Guidance": "the main
//! limitation is the L2 cache bandwidth. The kernel can run 1.4x faster if it … reaches its
//! maximum bandwidth with the same arithmetic intensity").
//!
//! Rules (docs/MODEL.md, "Guidance"):
//! - Every resource the kernel used gives a lower bound on its time: work ÷ peak. Compute:
//!   the FLOPs of each precision over that precision's roof, tensor FLOPs over the tensor
//!   roof, FLOPs of unknown precision over the highest vector roof, integer ops over the INT
//!   roof. Memory: the bytes at each level over that level's bandwidth (the hierarchical
//!   roofline). Issue: warp instructions over the peak warp GIPS (Ding & Williams).
//! - The roof time is the largest bound: the hierarchical roofline's min over ceilings,
//!   min(peak, BW × AI) for one pipe and one level. Every pipe and level is assumed to work
//!   concurrently, so the roof is a true upper bound on performance.
//! - The binding roof is the resource with that largest bound; the attained fraction is roof
//!   time ÷ measured time (= achieved ÷ attainable performance at the kernel's intensities);
//!   the headroom is its inverse, "can run N× faster at this intensity".
//! - A kernel more than [`ABOVE_ROOF_TOLERANCE`] above its roof is flagged: the peaks (clock,
//!   theoretical vs measured) or the counters are wrong. It keeps its dots but gets no rank.
//! - Kernels are ranked by potential saving, time − roof time (Amdahl: what the whole run
//!   gains is that kernel's time, not its speed-up), as a fraction of all kernels' time.

use super::hierarchical::{level_bytes, sizes};
use super::instruction::{predication_ratio, threads_per_warp, warp_inst};
use super::machine::{ComputeKind, Level, Machine};
use super::walls::{describe_global, describe_shared, global_ldst, shared_ldst};
use crate::domain::counters::Counter;
use crate::domain::profile::{KernelProfile, Precision};
use serde::Serialize;

/// How far above its roof a kernel may measure before it is flagged: 2%, the spread of
/// timers and clocks between runs.
pub const ABOVE_ROOF_TOLERANCE: f64 = 0.02;

/// What kind of resource bounds a kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BoundKind {
    Compute,
    Memory,
    Issue,
}

/// One lower bound on a kernel's time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bound {
    /// "L2 bandwidth", "FP64 compute", "instruction issue".
    pub name: String,
    pub kind: BoundKind,
    /// The memory level, for memory bounds.
    pub level: Option<Level>,
    /// The pipe, for compute bounds.
    pub compute: Option<ComputeKind>,
    /// Time this resource alone needs at its peak: work ÷ peak, seconds.
    pub time_s: f64,
}

/// A kernel's guidance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Guidance {
    /// The bound with the largest time.
    pub binding: Bound,
    /// Every bound, largest first.
    pub bounds: Vec<Bound>,
    /// The binding bound's time: the kernel's shortest possible time at its intensities.
    pub roof_time_s: f64,
    /// roof_time_s ÷ time_s: achieved ÷ attainable performance.
    pub attained_fraction: f64,
    /// time_s ÷ roof_time_s: how many times faster it could run at the same intensity.
    pub headroom: f64,
    /// Measured above its roof (attained fraction > 1 + tolerance): peaks or counters wrong.
    pub above_roof: bool,
    /// time_s − roof_time_s, seconds (0 when above the roof).
    pub potential_saving_s: f64,
    /// potential_saving_s ÷ the total time of all timed kernels.
    pub potential_saving_fraction: Option<f64>,
    /// 1-based rank by potential saving among the kernels with guidance and not above roof.
    pub rank: Option<usize>,
}

/// Every lower bound on a kernel's time on a machine, largest first.
pub fn bounds(k: &KernelProfile, m: &Machine) -> Vec<Bound> {
    let mut out = Vec::new();
    let mut compute = |kind: ComputeKind, work: Option<f64>, name_suffix: &str, peak: Option<(String, f64)>| {
        if let (Some(w), Some((name, p))) = (work.filter(|w| *w > 0.0), peak.filter(|p| p.1 > 0.0)) {
            out.push(Bound { name: format!("{name}{name_suffix} compute"), kind: BoundKind::Compute, level: None, compute: Some(kind), time_s: w / p });
        }
    };
    let roof = |kind| m.compute_ceiling(kind).map(|c| (c.name.clone(), c.flops_per_s));
    compute(ComputeKind::Fp64, k.flops(Precision::Fp64), "", roof(ComputeKind::Fp64));
    compute(ComputeKind::Fp32, k.flops(Precision::Fp32), "", roof(ComputeKind::Fp32));
    compute(ComputeKind::Fp16, k.flops(Precision::Fp16), "", roof(ComputeKind::Fp16));
    compute(ComputeKind::Tensor, k.tensor_flops(m.flops_per_tensor_inst), "", roof(ComputeKind::Tensor));
    compute(ComputeKind::Int, k.counters.get(Counter::IntOps), "", roof(ComputeKind::Int));
    let top_vector = [ComputeKind::Fp16, ComputeKind::Fp32, ComputeKind::Fp64]
        .iter()
        .filter_map(|&kind| roof(kind))
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let other_kind = top_vector.as_ref().and_then(|t| m.compute.iter().find(|c| c.name == t.0)).map_or(ComputeKind::Fp32, |c| c.kind);
    compute(other_kind, k.counters.get(Counter::OtherFlops), " (FLOPs of unknown precision)", top_vector);

    let s = sizes(Some(m));
    for l in &m.memory {
        if let Some(bytes) = level_bytes(k, l.level, &s).filter(|b| *b > 0.0) {
            if l.bytes_per_s > 0.0 {
                out.push(Bound { name: format!("{} bandwidth", l.name), kind: BoundKind::Memory, level: Some(l.level), compute: None, time_s: bytes / l.bytes_per_s });
            }
        }
    }
    if let (Some(inst), Some(peak)) = (warp_inst(k).filter(|i| *i > 0.0), m.warp_inst_per_s().filter(|p| *p > 0.0)) {
        out.push(Bound { name: "instruction issue".into(), kind: BoundKind::Issue, level: None, compute: None, time_s: inst / peak });
    }
    out.sort_by(|a, b| b.time_s.total_cmp(&a.time_s));
    out
}

/// A kernel's guidance before ranking; `None` without a positive time or any bound.
pub fn guide(k: &KernelProfile, m: &Machine) -> Option<Guidance> {
    let time_s = k.time_s().filter(|t| *t > 0.0 && t.is_finite())?;
    let bounds = bounds(k, m);
    let binding = bounds.first()?.clone();
    let roof_time_s = binding.time_s;
    let attained_fraction = roof_time_s / time_s;
    let above_roof = attained_fraction > 1.0 + ABOVE_ROOF_TOLERANCE;
    Some(Guidance {
        binding,
        bounds,
        roof_time_s,
        attained_fraction,
        headroom: time_s / roof_time_s,
        above_roof,
        potential_saving_s: if above_roof { 0.0 } else { (time_s - roof_time_s).max(0.0) },
        potential_saving_fraction: None,
        rank: None,
    })
}

/// Guidance for every kernel, with savings as a share of all timed kernels' time and the
/// Amdahl rank (largest potential saving first).
pub fn guide_all(kernels: &[KernelProfile], m: &Machine) -> Vec<Option<Guidance>> {
    let mut gs: Vec<Option<Guidance>> = kernels.iter().map(|k| guide(k, m)).collect();
    let total_s: f64 = kernels.iter().filter_map(|k| k.time_s()).filter(|t| *t > 0.0 && t.is_finite()).sum();
    let mut order: Vec<usize> = (0..gs.len()).filter(|&i| gs[i].as_ref().is_some_and(|g| !g.above_roof)).collect();
    order.sort_by(|&a, &b| {
        let s = |i: usize| gs[i].as_ref().map_or(0.0, |g| g.potential_saving_s);
        s(b).total_cmp(&s(a)).then(a.cmp(&b))
    });
    for (rank, &i) in order.iter().enumerate() {
        if let Some(g) = gs[i].as_mut() {
            g.rank = Some(rank + 1);
        }
    }
    for g in gs.iter_mut().flatten() {
        g.potential_saving_fraction = (total_s > 0.0).then(|| g.potential_saving_s / total_s);
    }
    gs
}

/// Whole-run speed-up if the kernels' potential savings were all realised (Amdahl):
/// total ÷ (total − Σ savings). `None` without timed kernels.
pub fn whole_run_speedup(kernels: &[KernelProfile], guidance: &[Option<Guidance>]) -> Option<f64> {
    let total: f64 = kernels.iter().filter_map(|k| k.time_s()).filter(|t| *t > 0.0 && t.is_finite()).sum();
    let saved: f64 = guidance.iter().flatten().map(|g| g.potential_saving_s).sum();
    (total > 0.0 && saved < total).then(|| total / (total - saved))
}

/// One plain-language sentence about a kernel, e.g. "bound by L2 bandwidth at 62% of its roof;
/// unit-stride global access (4.0 sectors per LD/ST); no predication loss; could run 1.6x
/// faster at this intensity".
pub fn summary(k: &KernelProfile, g: Option<&Guidance>, machine: Option<&Machine>) -> String {
    let mut parts: Vec<String> = Vec::new();
    match g {
        Some(g) if g.above_roof => parts.push(format!(
            "above its {} roof ({:.0}% of it): check the machine's peaks (clock, theoretical vs measured) or the counters",
            g.binding.name,
            g.attained_fraction * 100.0
        )),
        Some(g) => parts.push(format!("bound by {} at {:.0}% of its roof", g.binding.name, g.attained_fraction * 100.0)),
        None if k.time_s().is_none() => parts.push("no time measured, so it cannot be placed against a roof".into()),
        None if machine.is_none() => parts.push("no machine chosen, so there is no roof to compare with".into()),
        None => parts.push("no FLOP, byte or instruction counter that this machine has a ceiling for".into()),
    }
    if let Some(p) = global_ldst(k) {
        parts.push(describe_global(p.inst_per_txn));
    }
    if let Some(p) = shared_ldst(k) {
        parts.push(describe_shared(p.inst_per_txn));
    }
    if let Some(r) = predication_ratio(k, threads_per_warp(machine)) {
        if r < 1.05 {
            parts.push("no predication loss".into());
        } else {
            parts.push(format!("{r:.1}x predication loss ({:.0}% of threads active)", 100.0 / r));
        }
    }
    if let Some(g) = g.filter(|g| !g.above_roof) {
        if g.headroom >= 1.05 {
            parts.push(format!("could run {:.1}x faster at this intensity", g.headroom));
        } else {
            parts.push("at its roof".into());
        }
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalogue::v100;

    fn kernel(name: &str, pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile::from_counters(name, pairs)
    }

    #[test]
    fn l2_bound_kernel_reads_like_advisor() {
        let m = v100();
        // 2996 GB/s × 1 ms = 2.996e9 L2 bytes; the kernel took 1.6 ms → 62.5% of its roof.
        let k = kernel(
            "k",
            &[
                (Counter::TimeS, 1.6e-3),
                (Counter::Fp32Fma, 1e8),
                (Counter::L2Bytes, 2.996e9),
                (Counter::DramBytes, 0.3e9),
                (Counter::GlobalLdStInst, 1e6),
                (Counter::GlobalTxn, 4e6),
                (Counter::WarpInst, 1e7),
                (Counter::ThreadInst, 3.2e8),
            ],
        );
        let g = guide(&k, &m).expect("guidance");
        assert_eq!(g.binding.name, "L2 bandwidth");
        assert!((g.attained_fraction - 0.625).abs() < 1e-9);
        assert!((g.headroom - 1.6).abs() < 1e-9);
        assert_eq!(
            summary(&k, Some(&g), Some(&m)),
            "bound by L2 bandwidth at 62% of its roof; unit-stride global access (4.0 sectors per LD/ST); no predication loss; could run 1.6x faster at this intensity"
        );
    }

    #[test]
    fn above_the_roof_is_flagged_not_ranked() {
        let m = v100();
        // 1e13 FP64 FLOPs in 1 s on a 7.8 TFLOP/s GPU: impossible.
        let k = kernel("fast", &[(Counter::TimeS, 1.0), (Counter::Fp64Flops, 1e13)]);
        let gs = guide_all(std::slice::from_ref(&k), &m);
        let g = gs[0].as_ref().expect("guidance");
        assert!(g.above_roof);
        assert_eq!(g.rank, None);
        assert_eq!(g.potential_saving_s, 0.0);
        assert!(summary(&k, Some(g), Some(&m)).starts_with("above its FP64 compute roof"));
    }

    #[test]
    fn amdahl_ranks_by_time_saved_not_by_speedup() {
        let m = v100();
        // a: 10x headroom on 1 ms (saves 0.9 ms); b: 2x headroom on 10 ms (saves 5 ms).
        let a = kernel("a", &[(Counter::TimeS, 1e-3), (Counter::DramBytes, 828e9 * 1e-4)]);
        let b = kernel("b", &[(Counter::TimeS, 1e-2), (Counter::DramBytes, 828e9 * 5e-3)]);
        let c = kernel("c", &[(Counter::DramBytes, 1.0)]);
        let ks = [a, b, c];
        let gs = guide_all(&ks, &m);
        assert_eq!(gs[0].as_ref().and_then(|g| g.rank), Some(2));
        assert_eq!(gs[1].as_ref().and_then(|g| g.rank), Some(1));
        assert!(gs[2].is_none());
        let f = gs[1].as_ref().and_then(|g| g.potential_saving_fraction).unwrap_or(0.0);
        assert!((f - 5.0 / 11.0).abs() < 1e-9, "{f}");
        let s = whole_run_speedup(&ks, &gs).unwrap_or(0.0);
        assert!((s - 11.0 / (11.0 - 5.9)).abs() < 1e-9, "{s}");
        assert_eq!(summary(&ks[2], None, Some(&m)), "no time measured, so it cannot be placed against a roof");
    }
}
