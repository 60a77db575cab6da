//! What would move a kernel off its binding roof: one sentence of advice chosen by the kind of
//! bound that binds it (issue 43: a compute-bound BF16 kernel is not told about 128-bit loads;
//! an issue-bound one hears about its instruction mix, not its bytes).
//!
//! The advice is the references':
//! - **Memory-bound** at DRAM: raise the intensity there — fuse kernels that move the same
//!   data, block so reused data stays in cache or shared memory, or store it in a narrower type
//!   (NERSC's roofline use cases, `shared/reference/roofline-use-cases-berkeleygw-conv2d-yang.txt`:
//!   BerkeleyGW's v9 "block" version; Intel Advisor's GPU recipe,
//!   `intel-advisor-gpu-roofline-memory-bound.txt`: "using data blocking to reuse cache,
//!   avoiding multiple unnecessary data reads"). At L2: block into L1 / shared memory, as
//!   Advisor's recipe moved an L2-bound matrix product into SLM. At L1 or shared memory: fewer
//!   transactions per access — the access pattern and bank conflicts (Ding & Williams,
//!   `instruction-roofline-gpus-ding-williams-2019.txt`, §IV: memory walls).
//! - **Compute-bound**: the pipe and data type that bind, and the share of the FLOPs that is
//!   elsewhere (FP32 softmax beside BF16 tensor work shares the issue slots); the faster path
//!   where the machine has one (tensor cores for a vector-bound kernel, a narrower matrix type)
//!   (the GPU course's slides: the half-precision and tensor roofs above FP32's; the Nsight
//!   Compute hierarchical roofline post: one roof per data-type path).
//! - **Issue-bound**: fewer instructions per unit of work — less predication (Ding & Williams'
//!   warp ÷ thread instruction ratio), a better FMA ratio (NERSC: "improve FMA ratio"), wider
//!   loads.

use super::guidance::{BoundKind, Guidance};
use super::instruction::{predication_ratio, threads_per_warp};
use super::machine::{ComputeKind, Level, Machine};
use super::walls::{describe_global, describe_shared_access, global_ldst};
use crate::domain::profile::{KernelProfile, Precision};
use crate::domain::DataType;

/// One sentence on what would move kernel `k` off its binding roof on `m`; `None` when the
/// kernel is above its roof (the summary says to check the peaks) or within 5% of it.
pub fn advice(k: &KernelProfile, g: &Guidance, m: &Machine) -> Option<String> {
    if let Some(side) = g.unmeasured.first() {
        return Some(format!(
            "Collect its {} counters first: without them what binds it is not known (the file's warnings name the metrics)",
            side.label()
        ));
    }
    if g.above_roof || g.headroom.is_none_or(|h| h < 1.05) {
        return None;
    }
    let b = &g.binding;
    match b.kind {
        BoundKind::Memory => Some(memory(k, b.level.unwrap_or(Level::Dram), &b.name)),
        BoundKind::Compute => Some(compute(k, g, m)),
        BoundKind::Issue => Some(issue(k, m)),
    }
}

/// A memory-bound kernel: what raises its intensity at the level that binds.
fn memory(k: &KernelProfile, level: Level, name: &str) -> String {
    match level {
        Level::Dram | Level::L3 => format!(
            "{name} binds: raise its intensity there — fuse it with the kernels that read or write the same data, block so reused data stays in cache or shared memory, or store the data in a narrower type (BF16 moves half of FP32's bytes)"
        ),
        Level::L2 => format!("{name} binds: reuse data closer to the cores — block it into shared memory (SLM) or L1 so fewer requests reach L2"),
        Level::L1 | Level::Shared => {
            let pattern = [global_ldst(k).map(|p| describe_global(p.inst_per_txn)), describe_shared_access(k)].into_iter().flatten().collect::<Vec<_>>();
            let seen = if pattern.is_empty() { String::new() } else { format!(" (measured: {})", pattern.join("; ")) };
            format!("{name} binds: fewer transactions per access — unit-stride, wide (128-bit) accesses and no shared-memory bank conflicts{seen}")
        }
    }
}

/// The FLOPs of the pipe a compute bound names, for the share of the work elsewhere.
fn pipe_flops(k: &KernelProfile, kind: Option<ComputeKind>, t: Option<DataType>) -> Option<f64> {
    match kind? {
        ComputeKind::Tensor => k.matrix_flops(t?).or_else(|| k.tensor_flops(None)),
        ComputeKind::Fp64 => k.flops(Precision::Fp64),
        ComputeKind::Fp32 => k.flops(Precision::Fp32),
        ComputeKind::Fp16 => k.flops(Precision::Fp16),
        ComputeKind::Int => None,
    }
}

/// A compute-bound kernel: the pipe and type, the share of its FLOPs elsewhere, the faster path.
fn compute(k: &KernelProfile, g: &Guidance, m: &Machine) -> String {
    let b = &g.binding;
    let total = k.total_flops(m.flops_per_tensor_inst).filter(|t| *t > 0.0);
    let elsewhere = match (pipe_flops(k, b.compute, b.data_type), total) {
        (Some(own), Some(total)) if own < total => Some(1.0 - own / total),
        _ => None,
    };
    let mut s = format!("{} binds", b.name);
    if b.name.contains(" + ") {
        // The pipes share the SMs' issue slots: the smaller share is what to move or remove.
        s.push_str(": its pipes share the issue slots, so the work on the second pipe costs time on the first — move it onto the matrix units or out of the kernel");
        if let Some(e) = elsewhere {
            s.push_str(&format!(" ({:.0}% of its FLOPs are off the first pipe)", 100.0 * e));
        }
        return s;
    }
    if let Some(e) = elsewhere.filter(|e| *e >= 0.05) {
        s.push_str(&format!(" ({:.0}% of its FLOPs are on other pipes)", 100.0 * e));
    }
    let own_rate = m.compute.iter().filter(|c| Some(c.kind) == b.compute && (b.data_type.is_none() || c.data_type == b.data_type)).map(|c| c.flops_per_s).fold(0.0, f64::max);
    match b.compute {
        Some(ComputeKind::Tensor) => {
            // A narrower matrix type on the same GPU, the fastest one faster than this.
            let faster = m.compute.iter().filter(|c| c.kind == ComputeKind::Tensor && c.flops_per_s > own_rate * 1.5 && c.data_type.is_some_and(|t| t.is_float())).min_by(|a, b| a.flops_per_s.total_cmp(&b.flops_per_s));
            match faster {
                Some(c) => s.push_str(&format!(": a narrower type where accuracy allows — {} runs at {:.0} TFLOP/s here", c.name, c.flops_per_s / 1e12)),
                None => s.push_str(": it is on this GPU's fastest matrix path; only fewer FLOPs move it"),
            }
        }
        _ => match m.fastest_matrix_ceiling().filter(|c| c.flops_per_s > own_rate * 1.5) {
            Some(c) => s.push_str(&format!(": if its work is a matrix product, the matrix units ({}, {:.0} TFLOP/s) run it faster, in a precision the algorithm allows", c.name, c.flops_per_s / 1e12)),
            None => s.push_str(": fewer FLOPs per result, or a lower precision where accuracy allows"),
        },
    }
    s
}

/// An issue-bound kernel: its instruction mix.
fn issue(k: &KernelProfile, m: &Machine) -> String {
    let mut s = "Instruction issue binds: fewer instructions per unit of work — fused multiply-adds instead of separate multiplies and adds, one wide (128-bit) load instead of several narrow ones".to_string();
    match predication_ratio(k, threads_per_warp(Some(m))) {
        Some(r) if r >= 1.05 => s.push_str(&format!(", and less divergence: only {:.0}% of its threads are active per instruction", 100.0 / r)),
        Some(_) => s.push_str(" (its threads are not predicated off: divergence is not the cause)"),
        None => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;
    use crate::model::catalogue;
    use crate::model::guidance::guide;

    fn kernel(pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile::from_counters("k", pairs)
    }

    #[test]
    fn a_compute_bound_bf16_kernel_hears_about_its_type_not_its_loads() {
        let m = catalogue::by_id("h100").expect("h100");
        // 4e14 BF16 matrix FLOPs in 1 s with 1 MB of DRAM traffic and a 4.0-sectors-per-request
        // global access pattern: BF16 matrix-bound; the advice names FP8, not 128-bit loads.
        let k = kernel(&[(Counter::MatrixBf16, 4e14), (Counter::TimeS, 1.0), (Counter::DramBytes, 1e6), (Counter::GlobalLdStInst, 100.0), (Counter::GlobalTxn, 400.0)]);
        let g = guide(&k, &m).expect("guidance");
        let a = advice(&k, &g, &m).expect("advice");
        assert!(a.starts_with("BF16 matrix compute binds: a narrower type where accuracy allows — FP8"), "{a}");
        assert!(!a.contains("128-bit"), "{a}");
    }

    #[test]
    fn a_dram_bound_kernel_hears_about_intensity() {
        let m = catalogue::v100();
        // 828e6 bytes at 828 GB/s = 1 ms, measured 4 ms, FP32 FMAs collected (0).
        let k = kernel(&[(Counter::TimeS, 4e-3), (Counter::DramBytes, 828e6), (Counter::Fp32Fma, 0.0)]);
        let g = guide(&k, &m).expect("guidance");
        assert!(advice(&k, &g, &m).expect("advice").starts_with("HBM bandwidth binds: raise its intensity there — fuse it"));
        // Without FLOP counters: collect them first.
        let k = kernel(&[(Counter::TimeS, 4e-3), (Counter::DramBytes, 828e6)]);
        let g = guide(&k, &m).expect("guidance");
        assert!(advice(&k, &g, &m).expect("advice").starts_with("Collect its compute counters first"));
    }

    #[test]
    fn an_issue_bound_kernel_hears_about_predication() {
        let m = catalogue::v100();
        // V100: 80 SMs × 4 schedulers × 1.53 GHz = 489.6 G warp inst/s; 4.896e8 warp inst = 1 ms,
        // measured 2 ms. Thread inst 4.896e8 × 32 × 0.25: a quarter of the threads active.
        let k = kernel(&[(Counter::TimeS, 2e-3), (Counter::WarpInst, 4.896e8), (Counter::ThreadInst, 4.896e8 * 8.0), (Counter::DramBytes, 1e3), (Counter::Fp32Fma, 1e3)]);
        let g = guide(&k, &m).expect("guidance");
        assert_eq!(g.binding.name, "instruction issue");
        let a = advice(&k, &g, &m).expect("advice");
        assert!(a.ends_with("only 25% of its threads are active per instruction"), "{a}");
    }
}
