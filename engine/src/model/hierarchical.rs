//! The hierarchical roofline (Yang et al., NERSC roofline use cases; Nsight Compute roofline
//! post: "each circle represents a different level of the memory subsystem (L1, L2, or DRAM)
//! and uses traffic from that level to calculate its arithmetic intensity … the total FLOPs of
//! the kernel divided by the bytes moved in and out of the L1 cache"). One kernel gives one
//! dot per level: the same FLOPs over each level's bytes, each against its own bandwidth.

use super::machine::{Level, Machine, TransactionSizes};
use super::point::RooflinePoint;
use crate::domain::counters::Counter;
use crate::domain::profile::KernelProfile;

/// The sum of the counters measured, `None` if none is (no allocation: called per kernel).
fn sum(k: &KernelProfile, cs: &[Counter]) -> Option<f64> {
    let mut vals = cs.iter().filter_map(|&c| k.counters.get(c)).peekable();
    vals.peek()?;
    Some(vals.sum())
}

/// Bytes a kernel moved at a level, in bytes: the level's byte counter (`l1tex__t_bytes`,
/// `lts__t_bytes`, `dram__bytes`, shared bytes), else its transactions × transaction size
/// (Ding & Williams: 32-byte sectors, 128-byte shared transactions). L1 transactions here are
/// global + local (shared memory is its own level). `None` when not measured.
pub fn level_bytes(k: &KernelProfile, level: Level, sizes: &TransactionSizes) -> Option<f64> {
    let c = &k.counters;
    match level {
        Level::L1 => c.get(Counter::L1Bytes).or_else(|| Some(sum(k, &[Counter::GlobalTxn, Counter::LocalTxn])? * sizes.sector_bytes)),
        Level::Shared => c.get(Counter::SharedBytes).or_else(|| Some(c.get(Counter::SharedTxn)? * sizes.shared_bytes)),
        Level::L2 => c.get(Counter::L2Bytes).or_else(|| Some(c.get(Counter::L2Txn)? * sizes.sector_bytes)),
        Level::L3 => c.get(Counter::L3Bytes),
        Level::Dram => c.get(Counter::DramBytes).or_else(|| Some(c.get(Counter::DramTxn)? * sizes.sector_bytes)),
    }
}

/// The transaction sizes to read counters with: the machine's, else NVIDIA's (the only
/// profilers that report transactions are NVIDIA's).
pub fn sizes(machine: Option<&Machine>) -> TransactionSizes {
    machine.and_then(|m| m.transaction_bytes.clone()).unwrap_or(TransactionSizes::NVIDIA)
}

/// A kernel's dots, one per level with bytes: total FLOPs / level bytes, total FLOPs / time.
/// No dot where time, FLOPs or bytes are missing or zero (log axes).
pub fn kernel_points(index: usize, k: &KernelProfile, flops_per_tensor_inst: Option<f64>, sizes: &TransactionSizes) -> Vec<RooflinePoint> {
    let mut out = Vec::new();
    push_kernel_points(&mut out, index, k, flops_per_tensor_inst, sizes);
    out
}

/// [`kernel_points`] appended to `out`: no vector per kernel, for the charts' tens of
/// thousands of dots.
fn push_kernel_points(out: &mut Vec<RooflinePoint>, index: usize, k: &KernelProfile, flops_per_tensor_inst: Option<f64>, sizes: &TransactionSizes) {
    let (Some(flops), Some(time_s)) = (k.total_flops(flops_per_tensor_inst), k.time_s()) else { return };
    if !(flops > 0.0 && time_s > 0.0) {
        return;
    }
    for level in Level::ALL {
        if let Some(bytes) = level_bytes(k, level, sizes).filter(|b| *b > 0.0) {
            out.push(RooflinePoint { kernel: index, level, flops_per_byte: flops / bytes, flops_per_s: flops / time_s });
        }
    }
}

/// Hierarchical roofline dots of every kernel, in kernel order.
pub fn hierarchical_points(kernels: &[KernelProfile], machine: Option<&Machine>) -> Vec<RooflinePoint> {
    let s = sizes(machine);
    let per_inst = machine.and_then(|m| m.flops_per_tensor_inst);
    // Typically L1, L2 and DRAM per kernel: one allocation instead of a dozen doublings.
    let mut out = Vec::with_capacity(kernels.len().saturating_mul(3));
    for (i, k) in kernels.iter().enumerate() {
        push_kernel_points(&mut out, i, k, per_inst, &s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counters;

    #[test]
    fn same_flops_over_each_levels_bytes() {
        let mut c = Counters::default();
        c.set(Counter::Fp64Fma, 50.0);
        c.set(Counter::TimeS, 1e-6);
        c.set(Counter::L1Bytes, 400.0);
        c.set(Counter::L2Txn, 5.0); // 160 bytes
        c.set(Counter::DramBytes, 100.0);
        let k = KernelProfile { name: "k".into(), launches: 1, counters: c };
        let ps = kernel_points(0, &k, None, &TransactionSizes::NVIDIA);
        let by = |l: Level| ps.iter().find(|p| p.level == l).map(|p| p.flops_per_byte);
        assert_eq!(by(Level::L1), Some(0.25));
        assert_eq!(by(Level::L2), Some(100.0 / 160.0));
        assert_eq!(by(Level::Dram), Some(1.0));
        assert_eq!(by(Level::Shared), None);
        assert!(ps.iter().all(|p| (p.flops_per_s - 1e8).abs() < 1e-3));
    }
}
