//! The Instruction Roofline for GPUs (Ding & Williams 2019): warp instructions per second
//! (GIPS) against instruction intensity (warp instructions per transaction) at L1, L2 and
//! HBM, with thread predication and tensor (HMMA) instructions.
//!
//! Eq. 2: GIPS ≤ min(Peak GIPS, Peak GTXN/s × Instruction Intensity). The ceilings are on
//! [`Machine`]: [`Machine::warp_inst_per_s`] (peak GIPS), [`Machine::txn_per_s`] (GTXN/s =
//! bandwidth / transaction size) and [`Machine::tensor_inst_per_s`] (HMMA GIPS).

use super::machine::{Level, Machine, TransactionSizes};
use crate::domain::counters::Counter;
use crate::domain::profile::KernelProfile;
use serde::Serialize;

/// Instructions per second under the Instruction Roofline, Eq. 2 (Ding & Williams):
/// min(peak inst/s, transactions/s × instructions per transaction).
pub fn attainable_inst_per_s(inst_per_txn: f64, peak_inst_per_s: f64, txn_per_s: f64) -> f64 {
    peak_inst_per_s.min(txn_per_s * inst_per_txn)
}

/// Transactions of a kernel at a level. L1: global + local + 4 × shared, since "shared memory
/// transactions are 128 bytes … one must scale the number of shared memory transactions by
/// four" (Ding & Williams §III-B; the factor is shared bytes / sector bytes). L2, DRAM: their
/// sector counts. Falls back to bytes / transaction size where only bytes were measured.
pub fn level_txn(k: &KernelProfile, level: Level, sizes: &TransactionSizes) -> Option<f64> {
    let c = &k.counters;
    let from_bytes = |b: Counter| Some(c.get(b)? / sizes.sector_bytes);
    match level {
        Level::L1 => {
            let scale = sizes.shared_bytes / sizes.sector_bytes;
            let parts = [c.get(Counter::GlobalTxn), c.get(Counter::LocalTxn), c.get(Counter::SharedTxn).map(|s| s * scale)];
            if parts.iter().any(Option::is_some) {
                Some(parts.iter().flatten().sum())
            } else {
                let parts = [c.get(Counter::L1Bytes), c.get(Counter::SharedBytes)];
                parts.iter().any(Option::is_some).then(|| parts.iter().flatten().sum::<f64>() / sizes.sector_bytes)
            }
        }
        Level::Shared => c.get(Counter::SharedTxn).or_else(|| Some(c.get(Counter::SharedBytes)? / sizes.shared_bytes)),
        Level::L2 => c.get(Counter::L2Txn).or_else(|| from_bytes(Counter::L2Bytes)),
        Level::Dram => c.get(Counter::DramTxn).or_else(|| from_bytes(Counter::DramBytes)),
        Level::L3 => None,
    }
}

/// Warp-level instructions: measured, else thread instructions / 32 (Ding & Williams use
/// `inst_executed_thread / 32` "scaled to warp-level"): all thread instructions where
/// counted, else the non-predicated ones.
pub fn warp_inst(k: &KernelProfile) -> Option<f64> {
    k.counters.get(Counter::WarpInst).or_else(|| Some(k.counters.get(Counter::ThreadInst).or_else(|| k.counters.get(Counter::ThreadInstPredOn))? / 32.0))
}

/// Degree of thread predication (Ding & Williams §III-B): warp instructions / (thread
/// instructions / 32), the thread instructions of non-predicated threads (Table I,
/// [`KernelProfile::thread_inst`]). 1.0 means every thread of every warp was active; 2.0 means half were
/// (GSRB_BRANCH). Needs both counters.
pub fn predication_ratio(k: &KernelProfile, threads_per_warp: f64) -> Option<f64> {
    let warp = k.counters.get(Counter::WarpInst)?;
    let thread = k.thread_inst()? / threads_per_warp;
    (thread > 0.0).then(|| warp / thread)
}

/// One kernel at one level of the Instruction Roofline.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InstructionPoint {
    pub level: Level,
    /// Transactions at this level (L1: global + local + 4 × shared).
    pub txn: f64,
    /// Instruction intensity: warp instructions per transaction.
    pub warp_inst_per_txn: f64,
    /// Warp instructions per second (the paper's dotted line).
    pub warp_inst_per_s: f64,
    /// Thread instructions / 32 per second (the paper's dot, drawn against the warp line: the
    /// gap is the predication loss); `null` without thread instructions.
    pub thread_inst_per_s: Option<f64>,
}

/// A kernel's Instruction Roofline dots at L1, L2 and DRAM/HBM.
pub fn instruction_points(k: &KernelProfile, sizes: &TransactionSizes, threads_per_warp: f64) -> Vec<InstructionPoint> {
    instruction_points_iter(k, sizes, threads_per_warp).collect()
}

/// [`instruction_points`] without a vector per kernel, for the charts' tens of thousands of
/// dots; lazy, so `find` of the L1 dot computes no other level.
pub fn instruction_points_iter<'a>(k: &'a KernelProfile, sizes: &'a TransactionSizes, threads_per_warp: f64) -> impl Iterator<Item = InstructionPoint> + 'a {
    let measured = warp_inst(k).zip(k.time_s()).filter(|&(inst, time_s)| inst > 0.0 && time_s > 0.0);
    measured.into_iter().flat_map(move |(inst, time_s)| {
        let thread = k.thread_inst().map(|t| t / threads_per_warp / time_s);
        [Level::L1, Level::L2, Level::Dram].into_iter().filter_map(move |level| {
            let txn = level_txn(k, level, sizes).filter(|t| *t > 0.0)?;
            Some(InstructionPoint { level, txn, warp_inst_per_txn: inst / txn, warp_inst_per_s: inst / time_s, thread_inst_per_s: thread })
        })
    })
}

/// Tensor-pipe (HMMA) instructions per second of a kernel (Ding & Williams §IV-E).
pub fn tensor_inst_per_s(k: &KernelProfile) -> Option<f64> {
    let t = k.time_s().filter(|t| *t > 0.0)?;
    Some(k.counters.get(Counter::TensorInst)? / t)
}

/// The warp size a machine states, else 32.
pub fn threads_per_warp(machine: Option<&Machine>) -> f64 {
    machine.and_then(|m| m.issue.as_ref()).map_or(32.0, |i| i.threads_per_warp as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(pairs: &[(Counter, f64)]) -> KernelProfile {
        KernelProfile::from_counters("k", pairs)
    }

    #[test]
    fn l1_transactions_count_shared_four_times() {
        let k = kernel(&[(Counter::GlobalTxn, 100.0), (Counter::LocalTxn, 10.0), (Counter::SharedTxn, 5.0)]);
        assert_eq!(level_txn(&k, Level::L1, &TransactionSizes::NVIDIA), Some(130.0));
        let k = kernel(&[(Counter::DramBytes, 320.0)]);
        assert_eq!(level_txn(&k, Level::Dram, &TransactionSizes::NVIDIA), Some(10.0));
        assert_eq!(level_txn(&k, Level::L2, &TransactionSizes::NVIDIA), None);
    }

    #[test]
    fn predication_halves_thread_gips() {
        // GSRB_BRANCH: half the threads of each warp active → ratio 2, thread GIPS half the warp GIPS.
        let k = kernel(&[(Counter::WarpInst, 1000.0), (Counter::ThreadInst, 16000.0), (Counter::DramTxn, 100.0), (Counter::TimeS, 1e-6)]);
        assert_eq!(predication_ratio(&k, 32.0), Some(2.0));
        let p = &instruction_points(&k, &TransactionSizes::NVIDIA, 32.0)[0];
        assert_eq!(p.level, Level::Dram);
        assert_eq!(p.warp_inst_per_txn, 10.0);
        assert!((p.warp_inst_per_s - 1e9).abs() < 1e-3);
        assert!((p.thread_inst_per_s.unwrap_or(0.0) - 0.5e9).abs() < 1e-3);
    }

    #[test]
    fn thread_dots_use_non_predicated_thread_instructions() {
        // 1000 warp instructions; 32000 thread instructions of which 8000 from non-predicated
        // threads (Table I): ratio 1000 / (8000 / 32) = 4, the thread dot at 8000 / 32 / 1 µs.
        let k = kernel(&[(Counter::WarpInst, 1000.0), (Counter::ThreadInst, 32000.0), (Counter::ThreadInstPredOn, 8000.0), (Counter::DramTxn, 100.0), (Counter::TimeS, 1e-6)]);
        assert_eq!(predication_ratio(&k, 32.0), Some(4.0));
        let p = &instruction_points(&k, &TransactionSizes::NVIDIA, 32.0)[0];
        assert!((p.thread_inst_per_s.unwrap_or(0.0) - 2.5e8).abs() < 1e-3);
    }

    #[test]
    fn eq2_is_a_min() {
        assert_eq!(attainable_inst_per_s(1.0, 489.6e9, 25.9e9), 25.9e9);
        assert_eq!(attainable_inst_per_s(100.0, 489.6e9, 25.9e9), 489.6e9);
    }
}
