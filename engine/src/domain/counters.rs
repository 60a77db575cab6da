//! Canonical counters: the vendor-neutral vocabulary importers translate profiler metrics into.
//!
//! Each importer maps its own metric names (`dram__bytes.sum`, `flop_count_sp`, `FETCH_SIZE`, …)
//! onto these, converting to base units. Merging files is then a union of counters per launch,
//! and aggregation a sum per kernel, independent of the profiler.

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    /// FP16 add operations, one per lane: `…op_hadd_pred_on.sum` counts packed HADD2 thread
    /// instructions, 2 lanes each (`import::ncu_metrics::lanes`). Likewise mul and fma.
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
    /// Bytes between L1 and L2, every direction: reads, writes, atomics and reductions
    /// (`lts__t_bytes.sum`; where a report has none, the L1/TEX sectors per operation × 32,
    /// `lts__t_sectors_srcunit_tex_op_{read,write,atom,red}.sum`; only without those, Nsight
    /// Compute's L2-to-SM bytes, `derived__lts__lts2xbar_bytes`, the reads alone).
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
    /// Σ over launches of cycles ÷ clock, seconds: a kernel's time when no duration was
    /// measured. Summed per launch, not Σcycles ÷ mean clock, because launches run at
    /// different clocks (a launch-weighted mean clock misweights long launches).
    CycleTimeS,
    /// Thread instructions of non-predicated threads (`smsp__thread_inst_executed_pred_on.sum`,
    /// nvprof `not_predicated_off_thread_inst_executed`): Ding & Williams' thread dots (Table I,
    /// "inst_thread_executed … non-predicated").
    ThreadInstPredOn,
    /// Global load/store requests (`l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum`):
    /// the stand-in for [`Counter::GlobalLdStInst`] where instructions were not collected, one
    /// request per warp instruction. Kept apart so the two are never added.
    GlobalLdStReq,
    /// Matrix (tensor core, MFMA, XMX) FLOPs per input data type
    /// (`sm__ops_path_tensor_src_fp64.sum`, `SQ_INSTS_VALU_MFMA_MOPS_F64` × 512, …); see
    /// [`super::data_type::DataType`].
    MatrixFp64,
    MatrixTf32,
    MatrixFp32,
    MatrixFp16,
    MatrixBf16,
    MatrixFp8,
    MatrixFp6,
    MatrixFp4,
    /// Matrix integer operations, INT8 inputs (not FLOPs).
    MatrixInt8,
    /// Bytes between L2 and L3 / the last-level cache (Intel Advisor `Self L3 GB`).
    L3Bytes,
    /// Matrix operations of any type issued by warp-level `mma.sync` (NVIDIA HMMA/IMMA:
    /// `sm__ops_path_tensor_op_{hmma,imma}_*`), a part of the per-type counts above: on Hopper
    /// that path reaches two thirds of the dense roof (`model::guidance::mma_sync_share`).
    MatrixSyncOps,
    /// L2 clock, Hz (`lts__cycles_elapsed.avg.per_second`): the L2 slices run on their own
    /// clock, not the SM's (a GH200 report: 1.70 GHz L2 under a 1.47 GHz SM clock), so an L2
    /// roof given per L2 cycle scales with this clock, not [`Counter::ClockHz`]. A rate: a
    /// kernel's is the launch-weighted mean of its launches', as for the SM clock.
    L2ClockHz,
    /// Shared-memory load bank conflicts (`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`,
    /// nvprof's `shared_ld_bank_conflict`): the extra wavefronts a conflict costs, counted by
    /// the hardware. Not wavefronts − instructions: a conflict-free 64- or 128-bit load needs
    /// 2 or 4 wavefronts and has none.
    SharedLdBankConflicts,
    /// Shared-memory store bank conflicts (`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum`,
    /// nvprof's `shared_st_bank_conflict`).
    SharedStBankConflicts,
}

impl Counter {
    /// Every counter, in declaration order (the index of [`Counters`]).
    pub const ALL: [Counter; 49] = [
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
        Counter::CycleTimeS,
        Counter::ThreadInstPredOn,
        Counter::GlobalLdStReq,
        Counter::MatrixFp64,
        Counter::MatrixTf32,
        Counter::MatrixFp32,
        Counter::MatrixFp16,
        Counter::MatrixBf16,
        Counter::MatrixFp8,
        Counter::MatrixFp6,
        Counter::MatrixFp4,
        Counter::MatrixInt8,
        Counter::L3Bytes,
        Counter::MatrixSyncOps,
        Counter::L2ClockHz,
        Counter::SharedLdBankConflicts,
        Counter::SharedStBankConflicts,
    ];

    /// Whether launches of one kernel combine by summing (counts, bytes, time) or by a
    /// time-weighted mean (rates such as the clock).
    pub fn is_rate(self) -> bool {
        matches!(self, Counter::ClockHz | Counter::L2ClockHz)
    }

    /// The counter's name in JSON (`.roofline.json` view files, anything that serialises
    /// [`Counters`]). A public contract: never rename one; a new counter gets a new name.
    /// Spelled like the tidy CSV columns (docs/FORMATS.md: `bytes_dram`, `flops_fp64`) where
    /// there is one.
    pub fn key(self) -> &'static str {
        match self {
            Counter::TimeS => "time_s",
            Counter::Cycles => "cycles",
            Counter::ClockHz => "clock_hz",
            Counter::Fp64Add => "fp64_add",
            Counter::Fp64Mul => "fp64_mul",
            Counter::Fp64Fma => "fp64_fma",
            Counter::Fp32Add => "fp32_add",
            Counter::Fp32Mul => "fp32_mul",
            Counter::Fp32Fma => "fp32_fma",
            Counter::Fp16Add => "fp16_add",
            Counter::Fp16Mul => "fp16_mul",
            Counter::Fp16Fma => "fp16_fma",
            Counter::Fp64Flops => "flops_fp64",
            Counter::Fp32Flops => "flops_fp32",
            Counter::Fp16Flops => "flops_fp16",
            Counter::OtherFlops => "flops",
            Counter::IntOps => "int_ops",
            Counter::TensorInst => "tensor_inst",
            Counter::TensorFlops => "flops_tensor",
            Counter::L1Bytes => "bytes_l1",
            Counter::L2Bytes => "bytes_l2",
            Counter::DramBytes => "bytes_dram",
            Counter::SharedBytes => "bytes_shared",
            Counter::WarpInst => "warp_inst",
            Counter::ThreadInst => "thread_inst",
            Counter::GlobalTxn => "global_txn",
            Counter::LocalTxn => "local_txn",
            Counter::SharedTxn => "shared_txn",
            Counter::L2Txn => "l2_txn",
            Counter::DramTxn => "dram_txn",
            Counter::GlobalLdStInst => "global_ldst_inst",
            Counter::SharedLdStInst => "shared_ldst_inst",
            Counter::CycleTimeS => "cycle_time_s",
            Counter::ThreadInstPredOn => "thread_inst_pred_on",
            Counter::GlobalLdStReq => "global_ldst_req",
            Counter::MatrixFp64 => "flops_matrix_fp64",
            Counter::MatrixTf32 => "flops_matrix_tf32",
            Counter::MatrixFp32 => "flops_matrix_fp32",
            Counter::MatrixFp16 => "flops_matrix_fp16",
            Counter::MatrixBf16 => "flops_matrix_bf16",
            Counter::MatrixFp8 => "flops_matrix_fp8",
            Counter::MatrixFp6 => "flops_matrix_fp6",
            Counter::MatrixFp4 => "flops_matrix_fp4",
            Counter::MatrixInt8 => "ops_matrix_int8",
            Counter::L3Bytes => "bytes_l3",
            Counter::MatrixSyncOps => "ops_matrix_mma_sync",
            Counter::L2ClockHz => "l2_clock_hz",
            Counter::SharedLdBankConflicts => "shared_ld_bank_conflicts",
            Counter::SharedStBankConflicts => "shared_st_bank_conflicts",
        }
    }

    /// The counter named `key` ([`Counter::key`]); `None` for a name this build does not know.
    pub fn from_key(key: &str) -> Option<Counter> {
        Counter::ALL.into_iter().find(|c| c.key() == key)
    }
}

/// The canonical counters of one launch (or, after aggregation, of one kernel). `None` means
/// not measured, which is different from a measured zero.
///
/// Serialised as a map from [`Counter::key`] to value, measured counters only
/// (`{"time_s": 0.0105, "bytes_dram": 8e9}`), not as the internal array: adding a counter then
/// changes no existing document. Reading ignores names it does not know (a file written by a
/// newer build opens with the counters this build has) and treats `null` as not measured.
///
/// Stored as one bit per counter (measured or not) and the measured values only, in counter
/// order: 32 bytes and a few values where an `Option<f64>` per counter took 720 bytes. A
/// large raw page keeps 10 000 launches: storing only their measured values took 4 % off
/// reading one (page faults, copies; docs/PERFORMANCE.md). Equality is the values' own.
#[derive(Clone, Default, PartialEq)]
pub struct Counters {
    /// Bit `c as usize` set: counter `c` measured.
    measured: u64,
    /// The measured counters' values in counter order: counter `c`'s is at the number of
    /// measured counters before it.
    values: Vec<f64>,
}

// One bit per counter in `Counters::measured`.
const _: () = assert!(Counter::ALL.len() <= 64);

impl Counters {
    /// Counters with these values measured and every other one not measured.
    pub fn from_pairs(pairs: &[(Counter, f64)]) -> Counters {
        let mut counters = Counters::default();
        for &(c, v) in pairs {
            counters.set(c, v);
        }
        counters
    }

    /// The bit of `c` and where its value is (or would be) in `values`.
    fn slot(&self, c: Counter) -> (u64, usize) {
        let bit = 1u64 << (c as u32);
        (bit, (self.measured & (bit - 1)).count_ones() as usize)
    }

    pub fn get(&self, c: Counter) -> Option<f64> {
        let (bit, at) = self.slot(c);
        if self.measured & bit == 0 {
            return None;
        }
        self.values.get(at).copied()
    }

    pub fn set(&mut self, c: Counter, value: f64) {
        let (bit, at) = self.slot(c);
        if self.measured & bit != 0 {
            if let Some(v) = self.values.get_mut(at) {
                *v = value;
            }
        } else {
            self.values.insert(at.min(self.values.len()), value);
            self.measured |= bit;
        }
    }

    /// Adds `value` to what is there (a metric split over several rows, e.g. ld + st).
    pub fn add(&mut self, c: Counter, value: f64) {
        let (bit, at) = self.slot(c);
        if self.measured & bit == 0 {
            // What nothing plus `value` is (-0.0 becomes 0.0).
            self.set(c, 0.0 + value);
        } else if let Some(v) = self.values.get_mut(at) {
            *v += value;
        }
    }

    /// Copies every counter `other` has and `self` lacks (joining files of one run).
    pub fn fill_from(&mut self, other: &Counters) {
        for (c, v) in other.iter() {
            if self.get(c).is_none() {
                self.set(c, v);
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.measured == 0
    }

    /// Forgets every value, keeping the memory (a reader's counters, reused per launch).
    pub fn clear(&mut self) {
        self.measured = 0;
        self.values.clear();
    }

    /// The measured counters, in canonical order.
    pub fn iter(&self) -> impl Iterator<Item = (Counter, f64)> + '_ {
        let mut bits = self.measured;
        let counters = std::iter::from_fn(move || {
            let i = bits.trailing_zeros() as usize;
            bits &= bits.wrapping_sub(1);
            Counter::ALL.get(i).copied()
        });
        counters.zip(self.values.iter().copied())
    }
}

impl fmt::Debug for Counters {
    /// The measured counters by name, as the JSON has them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter().map(|(c, v)| (c.key(), v))).finish()
    }
}

impl Serialize for Counters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.iter().count()))?;
        for (c, v) in self.iter() {
            map.serialize_entry(c.key(), &v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Counters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountersVisitor;

        impl<'de> Visitor<'de> for CountersVisitor {
            type Value = Counters;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map from counter names (\"bytes_dram\", …) to numbers")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Counters, A::Error> {
                let mut out = Counters::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match Counter::from_key(&key) {
                        Some(c) => {
                            if let Some(v) = map.next_value::<Option<f64>>()? {
                                out.set(c, v);
                            }
                        }
                        None => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(out)
            }
        }

        deserializer.deserialize_map(CountersVisitor)
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

    #[test]
    fn serialised_as_a_map_of_stable_names() {
        let mut a = Counters::default();
        a.set(Counter::DramBytes, 8e9);
        a.set(Counter::TimeS, 0.5);
        let json = serde_json::to_string(&a).unwrap_or_default();
        assert_eq!(json, r#"{"time_s":0.5,"bytes_dram":8000000000.0}"#);
        let back: Counters = serde_json::from_str(r#"{"bytes_dram":8e9,"fp8_flops":1,"time_s":0.5,"bytes_l2":null}"#).unwrap_or_default();
        assert_eq!(back, a, "unknown names are ignored, null is not measured");
        assert!(serde_json::from_str::<Counters>(r#"{"time_s":"x"}"#).is_err());
    }

    #[test]
    fn keys_are_unique_and_round_trip() {
        for c in Counter::ALL {
            assert_eq!(Counter::from_key(c.key()), Some(c));
        }
        assert_eq!(Counter::from_key("TimeS"), None);
    }
}
