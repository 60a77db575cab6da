//! Canonical counters: the vendor-neutral vocabulary importers translate profiler metrics into.
//!
//! Each importer maps its own metric names (`dram__bytes.sum`, `flop_count_sp`, `FETCH_SIZE`, …)
//! onto these, converting to base units. Merging files is then a union of counters per launch,
//! and aggregation a sum per kernel, independent of the profiler.

use serde::{Deserialize, Serialize};

/// One canonical quantity, always in base units (seconds, Hz, cycles, FLOPs, bytes,
/// instructions, transactions). The comments name the Nsight Compute metric it comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Counter {
    /// Kernel duration, seconds (`gpu__time_duration.sum`).
    TimeS,
    /// Elapsed SM cycles (`sm__cycles_elapsed.avg`); time = cycles / clock (NERSC recipe).
    Cycles,
    /// SM clock, Hz (`sm__cycles_elapsed.avg.per_second`).
    ClockHz,
    /// FP64 add thread instructions (`sm__sass_thread_inst_executed_op_dadd_pred_on.sum`).
    Fp64Add,
    Fp64Mul,
    Fp64Fma,
    /// FP32 add thread instructions (`…op_fadd_pred_on.sum`).
    Fp32Add,
    Fp32Mul,
    Fp32Fma,
    /// FP16 add thread instructions (`…op_hadd_pred_on.sum`).
    Fp16Add,
    Fp16Mul,
    Fp16Fma,
    /// FLOPs counted directly by a profiler that reports FLOPs, not instructions
    /// (nvprof `flop_count_dp`, Advisor GFLOP). Used instead of add/mul/fma when present.
    Fp64Flops,
    Fp32Flops,
    Fp16Flops,
    /// FLOPs of unknown precision (Advisor `Self GFLOP`, tidy CSV `flops`).
    OtherFlops,
    /// Integer operations (Advisor INTOP).
    IntOps,
    /// Tensor-pipe warp instructions (`sm__inst_executed_pipe_tensor.sum`); FLOPs per
    /// instruction are a property of the machine.
    TensorInst,
    /// Tensor FLOPs when a profiler reports them directly.
    TensorFlops,
    /// Bytes between SM and L1/TEX (`l1tex__t_bytes.sum`).
    L1Bytes,
    /// Bytes between L1 and L2 (`lts__t_bytes.sum`).
    L2Bytes,
    /// Bytes between L2 and DRAM/HBM (`dram__bytes.sum`, or read + write).
    DramBytes,
    /// Shared memory (LDS/SLM) bytes.
    SharedBytes,
    /// Warp-level instructions executed (`smsp__inst_executed.sum`).
    WarpInst,
    /// Thread-level instructions executed (`smsp__thread_inst_executed.sum`).
    ThreadInst,
    /// Global-memory 32-byte sectors through L1 (`l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum`).
    GlobalTxn,
    /// Local-memory sectors.
    LocalTxn,
    /// Shared-memory wavefronts (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum`).
    SharedTxn,
    /// L2 sectors (`lts__t_sectors_op_*`).
    L2Txn,
    /// DRAM sectors (`dram__sectors_{read,write}.sum`).
    DramTxn,
    /// Global load/store warp instructions (`smsp__inst_executed_op_global_{ld,st}.sum`).
    GlobalLdStInst,
    /// Shared load/store warp instructions (`smsp__inst_executed_op_shared_{ld,st}.sum`).
    SharedLdStInst,
}

impl Counter {
    /// Every counter, in declaration order (the index of [`Counters`]).
    pub const ALL: [Counter; 32] = [
        Counter::TimeS,
        Counter::Cycles,
        Counter::ClockHz,
        Counter::Fp64Add,
        Counter::Fp64Mul,
        Counter::Fp64Fma,
        Counter::Fp32Add,
        Counter::Fp32Mul,
        Counter::Fp32Fma,
        Counter::Fp16Add,
        Counter::Fp16Mul,
        Counter::Fp16Fma,
        Counter::Fp64Flops,
        Counter::Fp32Flops,
        Counter::Fp16Flops,
        Counter::OtherFlops,
        Counter::IntOps,
        Counter::TensorInst,
        Counter::TensorFlops,
        Counter::L1Bytes,
        Counter::L2Bytes,
        Counter::DramBytes,
        Counter::SharedBytes,
        Counter::WarpInst,
        Counter::ThreadInst,
        Counter::GlobalTxn,
        Counter::LocalTxn,
        Counter::SharedTxn,
        Counter::L2Txn,
        Counter::DramTxn,
        Counter::GlobalLdStInst,
        Counter::SharedLdStInst,
    ];

    /// Whether launches of one kernel combine by summing (counts, bytes, time) or by a
    /// time-weighted mean (rates such as the clock).
    pub fn is_rate(self) -> bool {
        matches!(self, Counter::ClockHz)
    }
}

/// The canonical counters of one launch (or, after aggregation, of one kernel). `None` means
/// not measured, which is different from a measured zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Counters {
    values: [Option<f64>; Counter::ALL.len()],
}

impl Counters {
    pub fn get(&self, c: Counter) -> Option<f64> {
        self.values[c as usize]
    }

    pub fn set(&mut self, c: Counter, value: f64) {
        self.values[c as usize] = Some(value);
    }

    /// Adds `value` to what is there (a metric split over several rows, e.g. ld + st).
    pub fn add(&mut self, c: Counter, value: f64) {
        let slot = &mut self.values[c as usize];
        *slot = Some(slot.unwrap_or(0.0) + value);
    }

    /// Copies every counter `other` has and `self` lacks (joining files of one run).
    pub fn fill_from(&mut self, other: &Counters) {
        for (mine, theirs) in self.values.iter_mut().zip(other.values.iter()) {
            if mine.is_none() {
                *mine = *theirs;
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.values.iter().all(Option::is_none)
    }

    /// The measured counters, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Counter, f64)> + '_ {
        Counter::ALL.iter().filter_map(move |&c| self.get(c).map(|v| (c, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_is_in_declaration_order() {
        for (i, c) in Counter::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i, "{c:?}");
        }
    }

    #[test]
    fn add_fill_and_none_is_not_zero() {
        let mut a = Counters::default();
        assert_eq!(a.get(Counter::DramBytes), None);
        a.add(Counter::DramBytes, 10.0);
        a.add(Counter::DramBytes, 5.0);
        let mut b = Counters::default();
        b.set(Counter::DramBytes, 1.0);
        b.set(Counter::TimeS, 2.0);
        a.fill_from(&b);
        assert_eq!(a.get(Counter::DramBytes), Some(15.0));
        assert_eq!(a.get(Counter::TimeS), Some(2.0));
        assert_eq!(a.iter().count(), 2);
    }
}
