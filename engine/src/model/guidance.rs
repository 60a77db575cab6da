//! Guidance per kernel: which roof binds it, how close it is, how much faster it could run,
//! and which kernels are worth the effort (Intel Advisor's "Roofline Guidance": "the main
//! limitation is the L2 cache bandwidth. The kernel can run 1.4x faster if it … reaches its
//! maximum bandwidth with the same arithmetic intensity").
//!
//! Rules (docs/MODEL.md, "Guidance"):
//! - Every resource the kernel used gives a lower bound on its time: work ÷ peak.
//!   - Compute, per pipe: the FLOPs of each vector precision over that precision's roof; the
//!     matrix FLOPs of each data type over that type's matrix roof (an FP64 MFMA kernel is
//!     judged against the FP64 matrix peak, a BF16 one against the BF16 peak: Nsight
//!     Compute's tensor roofline draws one roof per data-type path); matrix FLOPs of unknown
//!     type over the fastest matrix roof; integer ops over the INT roof; FLOPs of unknown
//!     precision over the faster of the FP32 and FP64 roofs (not the FP16 one: such FLOPs —
//!     Advisor's, a tidy CSV's — are scalar or vector FP32/FP64 work).
//!   - A kernel that uses several pipes is bound by the **sum** of the times each pipe needs
//!     at its peak: the pipes share the SMs' issue slots and register-file ports, so their
//!     peaks are not reached at once (the conservative reading; a kernel measured above it
//!     is flagged like any other above its roof).
//!   - Memory: the bytes at each level over that level's bandwidth (the hierarchical
//!     roofline). Where shared memory is the L1 array (NVIDIA, Intel), L1 and shared bytes
//!     are one resource against the L1 bandwidth, as the Instruction Roofline counts "the
//!     combined effect of global, local, and shared transactions" at L1 (Ding & Williams,
//!     §IV-C); AMD's LDS is a resource of its own.
//!   - Issue: warp instructions over the peak warp GIPS (Ding & Williams).
//!   - The instruction path: on Hopper, matrix work that all went through warp-level
//!     `mma.sync` is judged against the two thirds of its roof that path reaches
//!     ([`mma_sync_share`]), and the summary says what `wgmma` would gain.
//! - Work at a level or of a data type that the machine has no ceiling for is not assessed,
//!   and the summary says so ("L2 not assessed: no L2 ceiling for this machine") rather than
//!   ignoring it.
//! - The roof time is the largest bound: the hierarchical roofline's min over ceilings,
//!   min(peak, BW × AI) for one pipe and one level. Memory levels and issue are assumed to
//!   work concurrently with compute.
//! - The binding roof is the resource with that largest bound; the attained fraction is roof
//!   time ÷ measured time (= achieved ÷ attainable performance at the kernel's intensities);
//!   the headroom is its inverse, "can run N× faster at this intensity".
//! - A kernel more than [`ABOVE_ROOF_TOLERANCE`] above its roof is flagged: the peaks (clock,
//!   theoretical vs measured) or the counters are wrong. It keeps its dots but gets no rank.
//! - Kernels are ranked by potential saving, time − roof time (Amdahl: what the whole run
//!   gains is that kernel's time, not its speed-up), as a fraction of all kernels' time.

use super::hierarchical::{level_bytes, sizes};
use super::instruction::{predication_ratio, threads_per_warp, warp_inst};
use super::machine::{Ceiling, ComputeKind, Level, Machine};
use super::walls::{describe_global, describe_shared_access, global_ldst};
use crate::domain::counters::Counter;
use crate::domain::profile::{KernelProfile, Precision};
use crate::domain::DataType;
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
    /// The pipe, for compute bounds (of several pipes: the one that takes longest).
    pub compute: Option<ComputeKind>,
    /// The data type of a compute bound's roof (a matrix roof's input type, a vector roof's
    /// precision).
    #[serde(default)]
    pub data_type: Option<DataType>,
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
    /// `None` where a side of the roofline was not measured ([`Guidance::unmeasured`]): the
    /// unmeasured side may be what binds it, so no headroom is claimed.
    pub headroom: Option<f64>,
    /// Measured above its roof (attained fraction > 1 + tolerance): peaks or counters wrong.
    pub above_roof: bool,
    /// time_s − roof_time_s, seconds (0 when above the roof); `None` where a side was not
    /// measured, as [`Guidance::headroom`].
    pub potential_saving_s: Option<f64>,
    /// potential_saving_s ÷ the total time of all timed kernels.
    pub potential_saving_fraction: Option<f64>,
    /// 1-based rank by potential saving among the kernels with guidance and not above roof.
    pub rank: Option<usize>,
    /// Work the machine has no ceiling for: "L2 not assessed: no L2 ceiling for this machine".
    pub not_assessed: Vec<String>,
    /// The sides of the roofline the kernel's counters did not measure ([`Side`]). A verdict
    /// needs both: a kernel whose FLOPs were not collected may be compute-bound however far it
    /// is below its memory roof, so where a side is missing the guidance names the largest
    /// measured bound but claims no headroom, saving or rank (issue 43).
    pub unmeasured: Vec<Side>,
}

/// A side of the roofline: the work axis or the traffic axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// FLOPs of any precision or data type, integer operations, tensor or warp instructions.
    Compute,
    /// Bytes or transactions at any memory level.
    Memory,
}

impl Side {
    /// "compute", "memory".
    pub fn label(self) -> &'static str {
        match self {
            Side::Compute => "compute",
            Side::Memory => "memory",
        }
    }

    /// Why a verdict needs this side, for the summary and the table.
    pub fn reason(self) -> &'static str {
        match self {
            Side::Compute => "its FLOPs and instructions were not collected, so it may be compute-bound",
            Side::Memory => "its bytes were not collected at any memory level, so it may be memory-bound",
        }
    }
}

/// The sides of the roofline a kernel's counters do not measure: compute when no FLOP,
/// matrix, integer, tensor or warp-instruction counter was collected for it (a counter
/// collected as 0 is measured: a copy kernel does no FLOPs); memory when no level has bytes
/// or transactions.
pub fn unmeasured_sides(k: &KernelProfile, m: &Machine) -> Vec<Side> {
    let mut out = Vec::new();
    let compute = k.total_flops(m.flops_per_tensor_inst).is_some()
        || [Counter::IntOps, Counter::TensorInst, Counter::TensorFlops].iter().any(|&c| k.counters.get(c).is_some())
        || warp_inst(k).is_some();
    if !compute {
        out.push(Side::Compute);
    }
    let s = sizes(Some(m));
    if !Level::ALL.iter().any(|&level| level_bytes(k, level, &s).is_some()) {
        out.push(Side::Memory);
    }
    out
}

/// How much faster than the machine's clock the kernel's own measured SM clock ran: the
/// factor every SM-clocked peak takes for this kernel (compute, issue, L1 and shared
/// memory, and L2 where it is on the SM clock: [`Level::scales_with_core_clock`]). 1 unless
/// the machine judges each kernel at its own clock ([`Machine::per_kernel_clock`]) and both
/// clocks are known. Nsight Compute's roofline evaluates each launch's peaks at that
/// launch's "SM Frequency"; a run whose kernels ran at 1.36 and 1.50 GHz (tests/fixtures/
/// ncu-hopper/h200) must not judge both at their mean.
pub fn kernel_clock_factor(k: &KernelProfile, m: &Machine) -> f64 {
    if !m.per_kernel_clock {
        return 1.0;
    }
    match (k.counters.get(Counter::ClockHz).filter(|h| h.is_finite() && *h > 0.0), m.clock_hz.filter(|h| h.is_finite() && *h > 0.0)) {
        (Some(own), Some(machine)) => own / machine,
        _ => 1.0,
    }
}

/// The FP16 (or other) matrix roof a kernel's work of one data type is judged against: the
/// first ceiling of the type (its roof), unless the kernel ran faster than it and the
/// machine has a faster ceiling of the same type, as a GeForce card's FP16 accumulation
/// beside its FP32 accumulation (`catalogue::FP16_ACCUMULATE`): the counters merge both
/// paths, so a kernel above the first must have used the second.
fn matrix_roof(m: &Machine, t: DataType, achieved_flops_per_s: Option<f64>) -> Option<&Ceiling> {
    let first = m.matrix_ceiling(t)?;
    let Some(rate) = achieved_flops_per_s.filter(|r| *r > first.flops_per_s) else { return Some(first) };
    let faster = m.compute.iter().filter(|c| c.kind == ComputeKind::Tensor && c.data_type == Some(t) && c.flops_per_s > first.flops_per_s);
    let mut by_rate: Vec<&Ceiling> = faster.collect();
    crate::order::sort_by(&mut by_rate, |a, b| a.flops_per_s.total_cmp(&b.flops_per_s));
    Some(by_rate.iter().copied().find(|c| c.flops_per_s >= rate).or(by_rate.last().copied()).unwrap_or(first))
}

/// One pipe's work against its roof.
struct PipeWork<'m> {
    roof: &'m Ceiling,
    /// "FP64", "BF16 matrix", "FP32 (FLOPs of unknown precision)".
    name: String,
    time_s: f64,
}

/// The compute work of a kernel, pipe by pipe, with its roofs at the kernel's clock (`clock`:
/// [`kernel_clock_factor`]); and the work no roof judges.
fn pipe_work<'m>(k: &KernelProfile, m: &'m Machine, clock: f64, not_assessed: &mut Vec<String>) -> Vec<PipeWork<'m>> {
    let mut out = Vec::new();
    // `share`: the part of the roof the kernel's instruction path can reach (1 but for
    // `mma.sync` on Hopper, [`mma_sync_share`]).
    let mut push = |work: Option<f64>, roof: Option<&'m Ceiling>, share: f64, name: String, what: &str, not_assessed: &mut Vec<String>| {
        let Some(w) = work.filter(|w| *w > 0.0 && w.is_finite()) else { return };
        match roof.filter(|r| r.flops_per_s > 0.0) {
            Some(r) => out.push(PipeWork { roof: r, name, time_s: w / (r.flops_per_s * share * clock) }),
            None => not_assessed.push(format!("{what} not assessed: no {what} ceiling for this machine")),
        }
    };
    for (p, kind) in [(Precision::Fp64, ComputeKind::Fp64), (Precision::Fp32, ComputeKind::Fp32), (Precision::Fp16, ComputeKind::Fp16)] {
        let roof = m.compute_ceiling(kind);
        push(k.flops(p), roof, 1.0, roof.map_or_else(String::new, |r| r.name.clone()), kind.label(), not_assessed);
    }
    if k.has_typed_matrix_work() {
        let sync = runs_on_mma_sync(k);
        let time_s = k.time_s().filter(|t| *t > 0.0);
        for t in DataType::ALL {
            let achieved = k.matrix_flops(t).zip(time_s).map(|(f, s)| f / s / clock);
            let roof = matrix_roof(m, t, achieved);
            let share = if sync { mma_sync_share(m, t).unwrap_or(1.0) } else { 1.0 };
            let name = roof.map_or_else(String::new, |r| if share < 1.0 { format!("{} via mma.sync", r.name) } else { r.name.clone() });
            push(k.matrix_flops(t), roof, share, name, &format!("{} matrix", t.label()), not_assessed);
        }
    } else if let Some(f) = k.counters.get(Counter::TensorFlops) {
        push(Some(f), m.fastest_matrix_ceiling(), 1.0, "matrix (data type not counted)".into(), "matrix", not_assessed);
    } else if let (Some(inst), Some(per)) = (k.counters.get(Counter::TensorInst), m.flops_per_tensor_inst) {
        // Volta's HMMA.884 works on FP16 inputs (Ding & Williams §IV-E).
        let roof = m.matrix_ceiling(DataType::Fp16).or_else(|| m.fastest_matrix_ceiling());
        push(Some(inst * per), roof, 1.0, roof.map_or_else(String::new, |r| r.name.clone()), "FP16 matrix", not_assessed);
    }
    let int = m.compute_ceiling(ComputeKind::Int);
    push(k.counters.get(Counter::IntOps), int, 1.0, int.map_or_else(String::new, |r| r.name.clone()), "INT", not_assessed);
    let scalar = [ComputeKind::Fp32, ComputeKind::Fp64].into_iter().filter_map(|kind| m.compute_ceiling(kind)).max_by(|a, b| a.flops_per_s.total_cmp(&b.flops_per_s));
    push(k.counters.get(Counter::OtherFlops), scalar, 1.0, scalar.map_or_else(String::new, |r| format!("{} (FLOPs of unknown precision)", r.name)), "FP32/FP64", not_assessed);
    out
}

/// The data types whose dense matrix roof warp-level `mma.sync` cannot reach on some GPUs.
const MMA_SYNC_TYPES: [DataType; 4] = [DataType::Tf32, DataType::Fp16, DataType::Bf16, DataType::Int8];

/// The part of a data type's dense matrix roof that warp-level `mma.sync` (HMMA, IMMA) can
/// reach, where it is less than the whole: two thirds on Hopper (sm_90), whose full rate needs
/// `wgmma`. Nsight Compute 2025.3's per-path peaks on the H100 and H200 (tests/fixtures/
/// ncu-hopper) say so for every such type: `sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32_
/// sparsity_off.sum.peak_sustained` 360448 ops per cycle against `…op_hgmma…` 540672, TF32
/// 180224 against 270336, INT8 (`op_imma`, `op_igmma`) 720896 against 1081344; the fixture's
/// BF16 `mma.sync` kernel reaches 62% of the BF16 roof, 93% of that path's. `None`: no
/// such limit known (Ampere's `mma.sync` is its full path; FP8 has no `mma.sync` path on
/// Hopper, FP64's DMMA no other).
pub fn mma_sync_share(m: &Machine, t: DataType) -> Option<f64> {
    (m.arch.as_deref() == Some("sm_90") && MMA_SYNC_TYPES.contains(&t)).then_some(2.0 / 3.0)
}

/// Whether a kernel's matrix work of those types all went through `mma.sync` (to 1%): the
/// profile splits operations by path ([`Counter::MatrixSyncOps`]) and they make up its
/// operations of those types.
pub fn runs_on_mma_sync(k: &KernelProfile) -> bool {
    let Some(sync) = k.counters.get(Counter::MatrixSyncOps).filter(|v| *v > 0.0) else { return false };
    let of_types: f64 = MMA_SYNC_TYPES.iter().filter_map(|t| k.matrix_flops(*t)).sum();
    of_types > 0.0 && sync >= 0.99 * of_types
}

/// The summary's note for a kernel held back by `mma.sync`: which roof and how much faster
/// `wgmma` could run it.
fn mma_sync_note(k: &KernelProfile, m: &Machine) -> Option<String> {
    if !runs_on_mma_sync(k) {
        return None;
    }
    let (t, _) = MMA_SYNC_TYPES.into_iter().filter_map(|t| Some((t, k.matrix_flops(t).filter(|f| *f > 0.0)?))).max_by(|a, b| a.1.total_cmp(&b.1))?;
    let share = mma_sync_share(m, t)?;
    Some(format!(
        "its matrix work runs on warp-level mma.sync, which reaches {:.0}% of the {} matrix roof on this GPU: wgmma (CUTLASS 3, cuBLAS) can run it up to {:.1}x faster",
        share * 100.0,
        t.label(),
        1.0 / share
    ))
}

/// Every lower bound on a kernel's time on a machine, largest first, and the work that no
/// ceiling of the machine judges (module doc).
pub fn bounds_and_gaps(k: &KernelProfile, m: &Machine) -> (Vec<Bound>, Vec<String>) {
    let mut not_assessed = Vec::new();
    let mut out = Vec::new();
    let clock = kernel_clock_factor(k, m);
    let pipes = pipe_work(k, m, clock, &mut not_assessed);
    for p in &pipes {
        out.push(Bound { name: format!("{} compute", p.name), kind: BoundKind::Compute, level: None, compute: Some(p.roof.kind), data_type: p.roof.data_type, time_s: p.time_s });
    }
    if pipes.len() > 1 {
        let mut by_time: Vec<&PipeWork> = pipes.iter().collect();
        crate::order::sort_by(&mut by_time, |a, b| b.time_s.total_cmp(&a.time_s));
        let names: Vec<&str> = by_time.iter().take(3).map(|p| p.name.as_str()).collect();
        let more = if by_time.len() > 3 { format!(" + {} more", by_time.len() - 3) } else { String::new() };
        let top = by_time[0];
        out.push(Bound {
            name: format!("{}{more} compute", names.join(" + ")),
            kind: BoundKind::Compute,
            level: None,
            compute: Some(top.roof.kind),
            data_type: top.roof.data_type,
            time_s: pipes.iter().map(|p| p.time_s).sum(),
        });
    }

    let s = sizes(Some(m));
    let combined = m.shared_in_l1();
    // A bound's name is written only for a bound that is kept (this runs for every kernel of a
    // report: 10,000 kernels' names were most of its allocations).
    let name_of = |level: Level| m.memory_level(level).map_or(level.label(), |l| l.name.as_str());
    let mut level_bound = |level: Level, bytes: Option<f64>, what: &str, not_assessed: &mut Vec<String>| {
        let Some(b) = bytes.filter(|b| *b > 0.0 && b.is_finite()) else { return };
        match m.memory_level(level).filter(|l| l.bytes_per_s > 0.0) {
            Some(l) => {
                let own = if level.scales_with_core_clock(m.vendor) { clock } else { 1.0 };
                out.push(Bound { name: format!("{} {what}", name_of(level)), kind: BoundKind::Memory, level: Some(level), compute: None, data_type: None, time_s: b / (l.bytes_per_s * own) })
            }
            None => not_assessed.push(format!("{} not assessed: no {} ceiling for this machine", level.label(), level.label())),
        }
    };
    for level in Level::ALL {
        let bytes = level_bytes(k, level, &s);
        match level {
            Level::Shared if combined => {}
            Level::L1 if combined => {
                let shared = level_bytes(k, Level::Shared, &s).filter(|b| *b > 0.0);
                let total = match (bytes, shared) {
                    (None, None) => None,
                    (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
                };
                let what = if shared.is_some() { "(with shared memory) bandwidth" } else { "bandwidth" };
                level_bound(Level::L1, total, what, &mut not_assessed);
            }
            _ => level_bound(level, bytes, "bandwidth", &mut not_assessed),
        }
    }
    if let (Some(inst), Some(peak)) = (warp_inst(k).filter(|i| *i > 0.0), m.warp_inst_per_s().filter(|p| *p > 0.0)) {
        out.push(Bound { name: "instruction issue".into(), kind: BoundKind::Issue, level: None, compute: None, data_type: None, time_s: inst / (peak * clock) });
    }
    crate::order::sort_by(&mut out, |a, b| b.time_s.total_cmp(&a.time_s));
    (out, not_assessed)
}

/// Whether a bound is the sum of several pipes' times ([`bounds_and_gaps`] names it "A + B
/// compute").
fn is_pipe_sum(b: &Bound) -> bool {
    b.kind == BoundKind::Compute && b.name.contains(" + ")
}

/// Every lower bound on a kernel's time on a machine, largest first.
pub fn bounds(k: &KernelProfile, m: &Machine) -> Vec<Bound> {
    bounds_and_gaps(k, m).0
}

/// Whether a kernel ran tensor instructions whose work no counter measures: no operations
/// per data type, no tensor FLOPs, on a machine whose tensor instructions are not a fixed
/// amount of work (Ampere and later: a Hopper `mma.sync` m16n8k16 does 4096 FLOPs, an m8n8k4
/// FP64 one 512). Its time may be all tensor work, so the other resources' bounds say
/// nothing of it: an H100's FP64 `mma.sync` kernel, profiled with the NERSC metric list,
/// would read "bound by FP64 compute at 0% of its roof, could run 15692x faster"
/// (tests/fixtures/ncu-hopper).
///
/// Tensor-pipe instructions that the FP16 FMA count explains do not count: the compiler
/// issues some HFMA2 as HFMA2.MMA, which runs on the tensor pipe and is counted both there
/// and in `…hfma_pred_on` (the H100 fixture's `fma_fp16`: 67117056 tensor-pipe warp
/// instructions beside 2^32 HFMA2 thread instructions, 134217728 warp instructions' worth).
pub fn tensor_work_unmeasured(k: &KernelProfile, m: &Machine) -> bool {
    let Some(tensor) = k.counters.get(Counter::TensorInst).filter(|v| *v > 0.0) else { return false };
    // FP16 FMA lanes ÷ 2 lanes per HFMA2 ÷ threads per warp.
    let hfma2_warp_inst = k.counters.get(Counter::Fp16Fma).unwrap_or(0.0) / 2.0 / threads_per_warp(Some(m));
    m.flops_per_tensor_inst.is_none() && k.tensor_flops(None).is_none() && tensor > hfma2_warp_inst
}

/// A kernel's guidance before ranking; `None` without a positive time or any bound, or when
/// its tensor work is unmeasured ([`tensor_work_unmeasured`]).
pub fn guide(k: &KernelProfile, m: &Machine) -> Option<Guidance> {
    let time_s = k.time_s().filter(|t| *t > 0.0 && t.is_finite())?;
    if tensor_work_unmeasured(k, m) {
        return None;
    }
    let (mut bounds, mut not_assessed) = bounds_and_gaps(k, m);
    // The sum of several pipes' times is a bound only if the pipes cannot overlap; a kernel
    // measured faster than the sum (and not faster than its other bounds) shows they did: the
    // sum is dropped and said to be no bound, rather than blaming the peaks.
    let tolerance = 1.0 + ABOVE_ROOF_TOLERANCE;
    if bounds.first().is_some_and(|b| is_pipe_sum(b) && b.time_s > time_s * tolerance) && bounds.get(1).is_some_and(|b| b.time_s <= time_s * tolerance) {
        let sum = bounds.remove(0);
        not_assessed.push(format!("the {} bound (the sum of its pipes' times) is not assessed: the kernel ran faster, so its pipes overlapped", sum.name));
    }
    let binding = bounds.first()?.clone();
    let roof_time_s = binding.time_s;
    let attained_fraction = roof_time_s / time_s;
    let above_roof = attained_fraction > 1.0 + ABOVE_ROOF_TOLERANCE;
    let unmeasured = unmeasured_sides(k, m);
    let both = unmeasured.is_empty();
    Some(Guidance {
        binding,
        bounds,
        roof_time_s,
        attained_fraction,
        headroom: both.then_some(time_s / roof_time_s),
        above_roof,
        potential_saving_s: both.then(|| if above_roof { 0.0 } else { (time_s - roof_time_s).max(0.0) }),
        potential_saving_fraction: None,
        rank: None,
        not_assessed,
        unmeasured,
    })
}

/// Guidance for every kernel, with savings as a share of all timed kernels' time and the
/// Amdahl rank (largest potential saving first) among the kernels with a saving (both sides
/// measured, not above their roof).
pub fn guide_all(kernels: &[KernelProfile], m: &Machine) -> Vec<Option<Guidance>> {
    let mut gs: Vec<Option<Guidance>> = kernels.iter().map(|k| guide(k, m)).collect();
    rank(kernels, &mut gs);
    gs
}

/// The second half of [`guide_all`], once every kernel has its [`guide`]: each saving as a
/// share of all timed kernels' time, and the Amdahl rank. `gs[i]` is the guidance of
/// `kernels[i]`.
pub fn rank(kernels: &[KernelProfile], gs: &mut [Option<Guidance>]) {
    let total_s: f64 = kernels.iter().filter_map(|k| k.time_s()).filter(|t| *t > 0.0 && t.is_finite()).sum();
    let mut order: Vec<usize> = (0..gs.len()).filter(|&i| gs[i].as_ref().is_some_and(|g| !g.above_roof && g.potential_saving_s.is_some())).collect();
    let saving = |i: usize| gs[i].as_ref().and_then(|g| g.potential_saving_s).unwrap_or(0.0);
    crate::order::sort_by(&mut order, |&a, &b| saving(b).total_cmp(&saving(a)).then(a.cmp(&b)));
    for (rank, &i) in order.iter().enumerate() {
        if let Some(g) = gs[i].as_mut() {
            g.rank = Some(rank + 1);
        }
    }
    for g in gs.iter_mut().flatten() {
        g.potential_saving_fraction = g.potential_saving_s.filter(|_| total_s > 0.0).map(|s| s / total_s);
    }
}

/// Whole-run speed-up if the kernels' potential savings were all realised (Amdahl):
/// total ÷ (total − Σ savings). `None` without timed kernels, or when no kernel has a saving
/// (nothing was judged on both sides, so "1.00x" would claim the run is at its roofs).
pub fn whole_run_speedup(kernels: &[KernelProfile], guidance: &[Option<Guidance>]) -> Option<f64> {
    if guidance.iter().flatten().all(|g| g.potential_saving_s.is_none()) {
        return None;
    }
    let total: f64 = kernels.iter().filter_map(|k| k.time_s()).filter(|t| *t > 0.0 && t.is_finite()).sum();
    let saved: f64 = guidance.iter().flatten().filter_map(|g| g.potential_saving_s).sum();
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
        Some(g) if !g.unmeasured.is_empty() => parts.push(format!(
            "{} at {:.0}% of its roof, but what binds it is not assessed: {}",
            g.binding.name,
            g.attained_fraction * 100.0,
            g.unmeasured.iter().map(|s| s.reason()).collect::<Vec<_>>().join("; ")
        )),
        Some(g) => parts.push(format!("bound by {} at {:.0}% of its roof", g.binding.name, g.attained_fraction * 100.0)),
        None if k.time_s().is_none() => parts.push("no time measured, so it cannot be placed against a roof".into()),
        None if machine.is_none() => parts.push("no machine chosen, so there is no roof to compare with".into()),
        None if machine.is_some_and(|m| tensor_work_unmeasured(k, m)) => parts.push(
            "its tensor-core work was counted in instructions, not operations, so no roof can bound it: collect the operations per data type (sm__ops_path_tensor_src_<type>.sum)".into(),
        ),
        None => parts.push("no FLOP, byte or instruction counter that this machine has a ceiling for".into()),
    }
    // The access pattern speaks to a kernel bound by memory or issue (or not judged), not to
    // a compute-bound one: a BF16 matrix kernel is not told about its loads (issue 43).
    let access_matters = g.is_none_or(|g| g.binding.kind != BoundKind::Compute);
    if let Some(p) = global_ldst(k).filter(|_| access_matters) {
        parts.push(describe_global(p.inst_per_txn));
    }
    // Bank conflicts as the hardware counted them, else wavefronts per LD/ST, never called
    // conflicts (issue 42).
    if let Some(s) = describe_shared_access(k).filter(|_| access_matters) {
        parts.push(s);
    }
    if let Some(r) = predication_ratio(k, threads_per_warp(machine)) {
        if r < 1.05 {
            parts.push("no predication loss".into());
        } else {
            parts.push(format!("{r:.1}x predication loss ({:.0}% of threads active)", 100.0 / r));
        }
    }
    if let Some(g) = g {
        parts.extend(g.not_assessed.iter().cloned());
    }
    if let Some(note) = machine.and_then(|m| mma_sync_note(k, m)) {
        parts.push(note);
    }
    if let Some(headroom) = g.filter(|g| !g.above_roof).and_then(|g| g.headroom) {
        if headroom >= 1.05 {
            parts.push(format!("could run {headroom:.1}x faster at this intensity"));
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
        assert!((g.headroom.unwrap() - 1.6).abs() < 1e-9);
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
        // Above its roof on the one side measured: flagged all the same; no bytes, so no
        // saving is claimed either way.
        assert_eq!(g.potential_saving_s, None);
        assert!(summary(&k, Some(g), Some(&m)).starts_with("above its FP64 compute roof"));
    }

    #[test]
    fn amdahl_ranks_by_time_saved_not_by_speedup() {
        let m = v100();
        // a: 10x headroom on 1 ms (saves 0.9 ms); b: 2x headroom on 10 ms (saves 5 ms).
        // FP32 FMAs collected and zero: both sides measured (a copy kernel).
        let a = kernel("a", &[(Counter::TimeS, 1e-3), (Counter::DramBytes, 828e9 * 1e-4), (Counter::Fp32Fma, 0.0)]);
        let b = kernel("b", &[(Counter::TimeS, 1e-2), (Counter::DramBytes, 828e9 * 5e-3), (Counter::Fp32Fma, 0.0)]);
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

    #[test]
    fn no_flop_counters_no_headroom_saving_or_rank() {
        let m = v100();
        // 828e6 bytes at the V100's 828 GB/s HBM roof: 1 ms; measured 4 ms → 25% of the roof.
        // No FLOP counter was collected: the kernel may be compute-bound, so no 4x headroom,
        // no 3 ms saving, no rank.
        let k = kernel("gemm", &[(Counter::TimeS, 4e-3), (Counter::DramBytes, 828e6)]);
        let gs = guide_all(std::slice::from_ref(&k), &m);
        let g = gs[0].as_ref().expect("guidance");
        assert!((g.attained_fraction - 0.25).abs() < 1e-12, "{}", g.attained_fraction);
        assert_eq!(g.unmeasured, vec![Side::Compute]);
        assert_eq!((g.headroom, g.potential_saving_s, g.potential_saving_fraction, g.rank), (None, None, None, None));
        assert_eq!(whole_run_speedup(std::slice::from_ref(&k), &gs), None);
        let s = summary(&k, Some(g), Some(&m));
        assert!(s.starts_with("HBM bandwidth at 25% of its roof, but what binds it is not assessed: its FLOPs and instructions were not collected"), "{s}");
        assert!(!s.contains("faster") && !s.contains("bound by"), "{s}");

        // The same kernel with FP32 FMAs collected (0 of them): both sides measured, 4 ms ÷
        // 1 ms = 4x headroom, 3 ms saving, rank 1.
        let k = kernel("copy", &[(Counter::TimeS, 4e-3), (Counter::DramBytes, 828e6), (Counter::Fp32Fma, 0.0)]);
        let g = guide_all(std::slice::from_ref(&k), &m).remove(0).expect("guidance");
        assert!(g.unmeasured.is_empty());
        assert!((g.headroom.expect("headroom") - 4.0).abs() < 1e-9);
        assert!((g.potential_saving_s.expect("saving") - 3e-3).abs() < 1e-12);
        assert_eq!(g.rank, Some(1));
    }

    #[test]
    fn no_byte_counters_no_headroom() {
        let m = v100();
        // 80 SMs × 32 FP64 lanes × 2 FLOPs × 1.53 GHz = 7833.6 GFLOP/s; 3.9168e9 DFMA = 7.8336e9
        // FLOPs = 1 ms at the roof; measured 2 ms → 50%. No bytes at any level.
        let k = kernel("dgemm", &[(Counter::TimeS, 2e-3), (Counter::Fp64Fma, 3.9168e9)]);
        let g = guide_all(std::slice::from_ref(&k), &m).remove(0).expect("guidance");
        assert_eq!(g.binding.name, "FP64 compute");
        assert!((g.attained_fraction - 0.5).abs() < 1e-9, "{}", g.attained_fraction);
        assert_eq!(g.unmeasured, vec![Side::Memory]);
        assert_eq!((g.headroom, g.potential_saving_s, g.rank), (None, None, None));
        assert!(summary(&k, Some(&g), Some(&m)).contains("its bytes were not collected at any memory level"));
    }
}
