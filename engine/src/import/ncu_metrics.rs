//! Nsight Compute metrics → a launch's counters, its device and the profiler's peaks: one
//! assembler for every Nsight Compute format (the CSV details and raw pages, and binary
//! reports), so that a metric means the same wherever it is read.
//!
//! A metric contributes in one of three forms, and the assembler derives what the stored
//! form implies (Nsight Compute's metric decoder: a rollup's `.per_cycle_elapsed` is its
//! value over the unit's `cycles_elapsed.avg`, its `.per_second` its value over the
//! duration):
//! - the count itself (`dram__bytes.sum`, `sm__sass_thread_inst_executed_op_ffma_pred_on.sum`);
//! - per cycle (`….sum.per_cycle_elapsed`), × the elapsed cycles of the metric's own unit
//!   (`smsp__cycles_elapsed.avg` for `smsp__…`, `lts__cycles_elapsed.avg` for `lts__…`);
//!   full-set reports store FLOP counts only this way, "exact integers on every report
//!   checked" (issue 14);
//! - per second (`dram__bytes.sum.per_second`, the details page's "Memory Throughput"),
//!   × the launch's duration.
//!
//! Several metrics may add into one counter (read + write, ld + st, a data type's
//! destination types and sparsity halves). Each contribution has a depth — 0 the total, 1 its
//! parts, 2 the parts' parts — and the shallowest depth measured wins, so a file with a
//! total and its parts never counts twice; a count wins over a per-cycle rate, which wins
//! over a per-second rate. A metric repeated in one launch (section exports list "SM
//! Frequency" under several body items) counts once.
//!
//! `smsp__…` metrics are the same quantities as their `sm__…` forms (an SM's total is the sum
//! of its four sub-partitions'; the cycles of both are SM-clock cycles), so both are read.

use super::ncu::{rate_scale, unit_scale};
use super::ncu_devices::FileDevices;
use crate::domain::{Counter, Counters, DataType, Device, DevicePeaks};

/// The clock domain a metric counts cycles of: the unit its name starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockUnit {
    /// SM and SM sub-partition (`sm__`, `smsp__`: one clock).
    Sm,
    /// L2 slices (`lts__`).
    Lts,
    /// L1/TEX (`l1tex__`).
    L1tex,
    /// Device memory (`dram__`).
    Dram,
}

impl ClockUnit {
    /// The unit of a metric name (`derived__` prefix skipped); `None` for others.
    pub fn of(name: &str) -> Option<ClockUnit> {
        let n = name.strip_prefix("derived__").unwrap_or(name);
        if n.starts_with("sm__") || n.starts_with("smsp__") {
            Some(ClockUnit::Sm)
        } else if n.starts_with("lts__") {
            Some(ClockUnit::Lts)
        } else if n.starts_with("l1tex__") {
            Some(ClockUnit::L1tex)
        } else if n.starts_with("dram__") {
            Some(ClockUnit::Dram)
        } else {
            None
        }
    }

    const ALL: [ClockUnit; 4] = [ClockUnit::Sm, ClockUnit::Lts, ClockUnit::L1tex, ClockUnit::Dram];

    fn index(self) -> usize {
        self as usize
    }
}

/// A per-cycle peak of the device (`*.peak_sustained`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Peak {
    /// FLOPs per SM cycle: the metric's value × this factor (2 per FMA, 4 per HFMA2).
    Fp64(f64),
    Fp32(f64),
    Fp16(f64),
    /// Dense matrix operations per SM cycle of one data type.
    Matrix(DataType),
    WarpInst,
    DramBytes,
    /// L2 bytes per L2 cycle of `lts__t_bytes` (all sectors), the peak of that count.
    L2Bytes,
    /// L2 bytes per L2 cycle of the L2-to-SM path (`derived__lts__lts2xbar_bytes`): 2 sectors
    /// per slice per cycle, the peak of the L1/TEX sectors too (their
    /// `lts__t_sectors_srcunit_tex.avg.peak_sustained` is 2). Used where `lts__t_bytes` has none.
    L2XbarBytes,
    L1Bytes,
}

/// A device attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attr {
    Name,
    CcMajor,
    CcMinor,
    /// The details page's `CC` column: "9.0".
    Cc,
    SmCount,
    MemoryBytes,
    L2Bytes,
    /// kHz.
    MaxClockKhz,
    ClockRateKhz,
    MemoryClockKhz,
    BusBits,
    /// The CUDA device index (`Device` column, `device__attribute_device_index`). Stays
    /// last: `Firsts` sizes its table by it.
    Index,
}

/// What one metric contributes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Role {
    /// (Part of) a counter, at a depth (module doc); `per_unit` counter units per unit of the
    /// metric (32 bytes per L2 sector for a sector count read as bytes; 1 otherwise).
    Count { counter: Counter, depth: u8, per_unit: f64 },
    /// Elapsed cycles of a unit (`sm__cycles_elapsed.avg`); for SM cycles also the
    /// [`Counter::Cycles`] counter.
    Cycles(ClockUnit),
    /// The clock of a unit, cycles per second (`sm__cycles_elapsed.avg.per_second`).
    Clock(ClockUnit),
    Peak(Peak),
    Attr(Attr),
}

/// The form a metric's value is in (module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Form {
    Value,
    PerCycle(ClockUnit),
    PerSecond,
}

/// A metric name resolved once: what it is and in which form. `key` tells metrics apart
/// (two names never share one), for counting a repeated metric once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    pub key: u32,
    pub role: Role,
    pub form: Form,
}

use Counter as C;

const fn count(counter: Counter, depth: u8) -> Role {
    Role::Count { counter, depth, per_unit: 1.0 }
}

/// Bytes of an L2 sector: Nsight Compute's `lts__t_bytes` is its `lts__t_sectors` × 32 (the
/// H200 fixtures: 409398240 bytes and, in another run of the same copy, 12742848 sectors =
/// 407771136 bytes), and every L2 sector metric counts 32-byte sectors.
const L2_SECTOR_BYTES: f64 = 32.0;

/// A sector count read as bytes of `counter` ([`L2_SECTOR_BYTES`] per sector).
const fn sector_bytes(counter: Counter, depth: u8) -> Role {
    Role::Count { counter, depth, per_unit: L2_SECTOR_BYTES }
}

/// Counts, by raw name (any generation: the NERSC hierarchical-roofline set, Ding &
/// Williams' Instruction Roofline set, full-set reports) or an unambiguous details-page label.
const COUNTS: &[(&str, Role)] = &[
    ("gpu__time_duration.sum", count(C::TimeS, 0)),
    // Nsight Compute 2019.x on Pascal: legacy names (issue 14; SOURCES.md, Twisty report).
    ("gpu__time_duration", count(C::TimeS, 0)),
    // The details page's SpeedOfLight label of the same quantity, `gpu__time_duration.sum`
    // in the unit that suits it (usecond, msecond) unless `--print-units base`: a page with
    // both rows (the section and `--metrics gpu__time_duration.sum`) names one duration twice.
    // Depth 1, so that it counts only without the metric row, which is exact (nsecond) —
    // never added to it (issue 42: an RTX 5090 kernel read at twice its time).
    ("Duration", count(C::TimeS, 1)),
    ("sm__sass_thread_inst_executed_op_dadd_pred_on.sum", count(C::Fp64Add, 0)),
    ("sm__sass_thread_inst_executed_op_dmul_pred_on.sum", count(C::Fp64Mul, 0)),
    ("sm__sass_thread_inst_executed_op_dfma_pred_on.sum", count(C::Fp64Fma, 0)),
    ("sm__sass_thread_inst_executed_op_fadd_pred_on.sum", count(C::Fp32Add, 0)),
    ("sm__sass_thread_inst_executed_op_fmul_pred_on.sum", count(C::Fp32Mul, 0)),
    ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", count(C::Fp32Fma, 0)),
    ("sm__sass_thread_inst_executed_op_hadd_pred_on.sum", count(C::Fp16Add, 0)),
    ("sm__sass_thread_inst_executed_op_hmul_pred_on.sum", count(C::Fp16Mul, 0)),
    ("sm__sass_thread_inst_executed_op_hfma_pred_on.sum", count(C::Fp16Fma, 0)),
    ("smsp__sass_thread_inst_executed_op_dadd_pred_on.sum", count(C::Fp64Add, 0)),
    ("smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", count(C::Fp64Mul, 0)),
    ("smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", count(C::Fp64Fma, 0)),
    ("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", count(C::Fp32Add, 0)),
    ("smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", count(C::Fp32Mul, 0)),
    ("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", count(C::Fp32Fma, 0)),
    ("smsp__sass_thread_inst_executed_op_hadd_pred_on.sum", count(C::Fp16Add, 0)),
    ("smsp__sass_thread_inst_executed_op_hmul_pred_on.sum", count(C::Fp16Mul, 0)),
    ("smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", count(C::Fp16Fma, 0)),
    // Tensor-pipe warp instructions: the total, else the instruction kinds of Ampere and
    // later (`…pipe_tensor_op_{hmma,imma,dmma}`; the B200 raw page's `…_subpipe_*`).
    ("sm__inst_executed_pipe_tensor.sum", count(C::TensorInst, 0)),
    ("smsp__inst_executed_pipe_tensor.sum", count(C::TensorInst, 0)),
    ("sm__inst_executed_pipe_tensor_op_hmma.sum", count(C::TensorInst, 1)),
    ("sm__inst_executed_pipe_tensor_op_imma.sum", count(C::TensorInst, 1)),
    ("sm__inst_executed_pipe_tensor_op_dmma.sum", count(C::TensorInst, 1)),
    ("smsp__inst_executed_pipe_tensor_op_hmma.sum", count(C::TensorInst, 1)),
    ("smsp__inst_executed_pipe_tensor_op_imma.sum", count(C::TensorInst, 1)),
    ("smsp__inst_executed_pipe_tensor_op_dmma.sum", count(C::TensorInst, 1)),
    ("sm__inst_executed_pipe_tensor_subpipe_hmma.sum", count(C::TensorInst, 1)),
    ("sm__inst_executed_pipe_tensor_subpipe_imma.sum", count(C::TensorInst, 1)),
    ("sm__inst_executed_pipe_tensor_subpipe_dmma.sum", count(C::TensorInst, 1)),
    // Matrix operations per data-type path: the metrics of Nsight Compute's
    // SpeedOfLight_HierarchicalTensorRooflineChart section, as its section files list them
    // ("DRAM Roofline (Src:bf16 Dst:fp32)", …). A type's total, else its destination types,
    // else their sparsity halves.
    ("sm__ops_path_tensor_src_fp64.sum", count(C::MatrixFp64, 0)),
    ("sm__ops_path_tensor_src_tf32_dst_fp32.sum", count(C::MatrixTf32, 0)),
    ("sm__ops_path_tensor_src_tf32_dst_fp32_sparsity_off.sum", count(C::MatrixTf32, 1)),
    ("sm__ops_path_tensor_src_tf32_dst_fp32_sparsity_on.sum", count(C::MatrixTf32, 1)),
    ("sm__ops_path_tensor_src_fp16.sum", count(C::MatrixFp16, 0)),
    ("sm__ops_path_tensor_src_fp16_dst_fp16.sum", count(C::MatrixFp16, 1)),
    ("sm__ops_path_tensor_src_fp16_dst_fp32.sum", count(C::MatrixFp16, 1)),
    ("sm__ops_path_tensor_src_fp16_dst_fp16_sparsity_off.sum", count(C::MatrixFp16, 2)),
    ("sm__ops_path_tensor_src_fp16_dst_fp16_sparsity_on.sum", count(C::MatrixFp16, 2)),
    ("sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum", count(C::MatrixFp16, 2)),
    ("sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_on.sum", count(C::MatrixFp16, 2)),
    ("sm__ops_path_tensor_src_bf16_dst_fp32.sum", count(C::MatrixBf16, 0)),
    ("sm__ops_path_tensor_src_bf16_dst_fp32_sparsity_off.sum", count(C::MatrixBf16, 1)),
    ("sm__ops_path_tensor_src_bf16_dst_fp32_sparsity_on.sum", count(C::MatrixBf16, 1)),
    ("sm__ops_path_tensor_src_fp8.sum", count(C::MatrixFp8, 0)),
    ("sm__ops_path_tensor_src_fp8_sparsity_off.sum", count(C::MatrixFp8, 1)),
    ("sm__ops_path_tensor_src_fp8_sparsity_on.sum", count(C::MatrixFp8, 1)),
    ("sm__ops_path_tensor_src_fp8_dst_fp16.sum", count(C::MatrixFp8, 1)),
    ("sm__ops_path_tensor_src_fp8_dst_fp32.sum", count(C::MatrixFp8, 1)),
    ("sm__ops_path_tensor_src_fp8_dst_fp16_sparsity_off.sum", count(C::MatrixFp8, 2)),
    ("sm__ops_path_tensor_src_fp8_dst_fp16_sparsity_on.sum", count(C::MatrixFp8, 2)),
    ("sm__ops_path_tensor_src_fp8_dst_fp32_sparsity_off.sum", count(C::MatrixFp8, 2)),
    ("sm__ops_path_tensor_src_fp8_dst_fp32_sparsity_on.sum", count(C::MatrixFp8, 2)),
    // Blackwell's FP6/FP4 inputs on the FP8-rate path (`kind::f8f6f4`): judged at the FP6
    // roof, which equals FP8's on the chips that have it.
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp16.sum", count(C::MatrixFp6, 1)),
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp32.sum", count(C::MatrixFp6, 1)),
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp16_sparsity_off.sum", count(C::MatrixFp6, 2)),
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp16_sparsity_on.sum", count(C::MatrixFp6, 2)),
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp32_sparsity_off.sum", count(C::MatrixFp6, 2)),
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp32_sparsity_on.sum", count(C::MatrixFp6, 2)),
    // FP4 on its own double-rate path (`kind::mxf4`).
    ("sm__ops_path_tensor_src_fp4_dst_fp32.sum", count(C::MatrixFp4, 0)),
    ("sm__ops_path_tensor_src_fp4_dst_fp32_sparsity_off.sum", count(C::MatrixFp4, 1)),
    ("sm__ops_path_tensor_src_fp4_dst_fp32_sparsity_on.sum", count(C::MatrixFp4, 1)),
    ("sm__ops_path_tensor_src_int8.sum", count(C::MatrixInt8, 0)),
    ("sm__ops_path_tensor_src_int8_sparsity_off.sum", count(C::MatrixInt8, 1)),
    ("sm__ops_path_tensor_src_int8_sparsity_on.sum", count(C::MatrixInt8, 1)),
    // The same operations by instruction path, where Nsight Compute splits them (2025.3 on
    // Hopper): warp-level `mma.sync` (HMMA, IMMA) as against `wgmma` (HGMMA, IGMMA).
    ("sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32_sparsity_off.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_bf16_dst_fp32_sparsity_on.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_fp16_dst_fp16_sparsity_off.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_fp16_dst_fp16_sparsity_on.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32_sparsity_off.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_fp16_dst_fp32_sparsity_on.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32_sparsity_off.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_hmma_src_tf32_dst_fp32_sparsity_on.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_imma_src_int8_sparsity_off.sum", count(C::MatrixSyncOps, 1)),
    ("sm__ops_path_tensor_op_imma_src_int8_sparsity_on.sum", count(C::MatrixSyncOps, 1)),
    ("l1tex__t_bytes.sum", count(C::L1Bytes, 0)),
    // L2 bytes, every direction: every byte that reaches DRAM passes through L2, so reads alone
    // are not the L2 level's traffic (issue 42: the GH200 silu report read 538 MB of L2
    // against 1027 MB of DRAM). `lts__t_bytes.sum` (the NERSC recipe) where collected: all
    // L2 sectors' bytes, whatever the operation and source.
    ("lts__t_bytes.sum", count(C::L2Bytes, 0)),
    // Full-set reports (2025 on Hopper) have no `lts__t_bytes`: the sectors L1/TEX sent the
    // L2, per operation (reads, writes, atomics, reductions; Nsight Compute's CLI guide maps
    // nvprof's `l2_tex_read_transactions`/`l2_tex_write_transactions` to
    // `lts__t_sectors_srcunit_tex_op_{read,write}.sum`), × 32 bytes: the traffic between L1
    // and L2 that the hierarchical roofline's L2 level stands for. Not `lts__t_sectors.sum`,
    // which also counts the sectors one L2 partition forwards to the other
    // (`…_srcunit_ltcfabric`: "another L2 partition sends data to the current one", NVIDIA's
    // forum on that metric): the same bytes twice. Their peak is the one read below:
    // `lts__t_sectors_srcunit_tex.avg.peak_sustained` is 2 sectors per slice per cycle, 96
    // slices × 2 × 32 = 6144 bytes per L2 cycle on the GH200, the report's
    // `derived__lts__lts2xbar_bytes.sum.peak_sustained`.
    ("lts__t_sectors_srcunit_tex_op_read.sum", sector_bytes(C::L2Bytes, 1)),
    ("lts__t_sectors_srcunit_tex_op_write.sum", sector_bytes(C::L2Bytes, 1)),
    ("lts__t_sectors_srcunit_tex_op_atom.sum", sector_bytes(C::L2Bytes, 1)),
    ("lts__t_sectors_srcunit_tex_op_red.sum", sector_bytes(C::L2Bytes, 1)),
    // Else the hierarchical roofline's own L2 traffic in Nsight Compute 2025 on Hopper, which
    // is L2-to-SM bytes only, the reads (a rate; its section files:
    // `lts__lts2xbar_cycles_active.sum.per_second * 32`).
    ("derived__lts__lts2xbar_bytes.sum", count(C::L2Bytes, 2)),
    ("dram__bytes.sum", count(C::DramBytes, 0)),
    ("dram__bytes_read.sum", count(C::DramBytes, 1)),
    ("dram__bytes_write.sum", count(C::DramBytes, 1)),
    ("dram__bytes_op_read.sum", count(C::DramBytes, 1)),
    ("dram__bytes_op_write.sum", count(C::DramBytes, 1)),
    ("dram__read_bytes", count(C::DramBytes, 1)),
    ("dram__write_bytes", count(C::DramBytes, 1)),
    ("smsp__inst_executed.sum", count(C::WarpInst, 0)),
    ("sm__inst_executed.sum", count(C::WarpInst, 0)),
    ("Executed Instructions", count(C::WarpInst, 0)),
    ("smsp__thread_inst_executed.sum", count(C::ThreadInst, 0)),
    ("sm__thread_inst_executed.sum", count(C::ThreadInst, 0)),
    ("smsp__thread_inst_executed_pred_on.sum", count(C::ThreadInstPredOn, 0)),
    ("sm__thread_inst_executed_pred_on.sum", count(C::ThreadInstPredOn, 0)),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", count(C::GlobalTxn, 1)),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", count(C::GlobalTxn, 1)),
    ("smsp__inst_executed_op_global_ld.sum", count(C::GlobalLdStInst, 1)),
    ("smsp__inst_executed_op_global_st.sum", count(C::GlobalLdStInst, 1)),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", count(C::GlobalLdStReq, 1)),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", count(C::GlobalLdStReq, 1)),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", count(C::SharedTxn, 1)),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", count(C::SharedTxn, 1)),
    // Bank conflicts as the hardware counts them, loads and stores apart (Nsight Compute's CLI
    // guide, nvprof event comparison: `shared_ld_bank_conflict` →
    // `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum`, `shared_st_bank_conflict` →
    // `…_op_st.sum`). Wavefronts beyond one per instruction are not conflicts: a conflict-free
    // 64-bit (128-bit) load takes 2 (4) wavefronts.
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", count(C::SharedLdBankConflicts, 0)),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", count(C::SharedStBankConflicts, 0)),
    ("smsp__inst_executed_op_shared_ld.sum", count(C::SharedLdStInst, 1)),
    ("smsp__inst_executed_op_shared_st.sum", count(C::SharedLdStInst, 1)),
    ("lts__t_sectors_op_read.sum", count(C::L2Txn, 1)),
    ("lts__t_sectors_op_write.sum", count(C::L2Txn, 1)),
    ("lts__t_sectors_op_atom.sum", count(C::L2Txn, 1)),
    ("lts__t_sectors_op_red.sum", count(C::L2Txn, 1)),
    ("dram__sectors_read.sum", count(C::DramTxn, 1)),
    ("dram__sectors_write.sum", count(C::DramTxn, 1)),
    ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", count(C::LocalTxn, 1)),
    ("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", count(C::LocalTxn, 1)),
];

/// Elapsed cycles and clocks of the units (the base metrics of `.per_cycle_elapsed` and of
/// the peak rates), with the details page's labels and Pascal-era names.
const CLOCKS: &[(&str, Role)] = &[
    ("sm__cycles_elapsed.avg", Role::Cycles(ClockUnit::Sm)),
    ("smsp__cycles_elapsed.avg", Role::Cycles(ClockUnit::Sm)),
    ("Elapsed Cycles", Role::Cycles(ClockUnit::Sm)),
    ("sm__elapsed_cycles_avg", Role::Cycles(ClockUnit::Sm)),
    ("lts__cycles_elapsed.avg", Role::Cycles(ClockUnit::Lts)),
    ("l1tex__cycles_elapsed.avg", Role::Cycles(ClockUnit::L1tex)),
    ("dram__cycles_elapsed.avg", Role::Cycles(ClockUnit::Dram)),
    ("sm__cycles_elapsed.avg.per_second", Role::Clock(ClockUnit::Sm)),
    ("smsp__cycles_elapsed.avg.per_second", Role::Clock(ClockUnit::Sm)),
    ("SM Frequency", Role::Clock(ClockUnit::Sm)),
    ("gpc__frequency", Role::Clock(ClockUnit::Sm)),
    ("lts__cycles_elapsed.avg.per_second", Role::Clock(ClockUnit::Lts)),
    ("l1tex__cycles_elapsed.avg.per_second", Role::Clock(ClockUnit::L1tex)),
    ("dram__cycles_elapsed.avg.per_second", Role::Clock(ClockUnit::Dram)),
    ("DRAM Frequency", Role::Clock(ClockUnit::Dram)),
];

/// Per-cycle peaks, by the name of the metric whose `.peak_sustained` they are (or the
/// derived `_x2`/`_x4` metric of the FP roofline sections, already in FLOPs).
///
/// Matrix peaks are read only where they are dense: FP64 (no sparse path) and the
/// `_sparsity_off` paths. A GH200 report's unsuffixed `sm__ops_path_tensor_src_fp16.sum.peak_sustained`
/// is 1081344 ops per cycle = 132 SMs × 8192, twice the data sheet's dense FP16 rate (989.4
/// TFLOP/s at 1.83 GHz = 132 × 4096 per cycle): it is the sparse peak. Its FP64 peak, 132 ×
/// 256 = 33792, is the dense 66.9 TFLOP/s at 1.98 GHz, and its FP8 `_sparsity_off` peak, 132
/// × 8192, the dense 1979 TFLOP/s at 1.83 GHz: tensor "ops" are FLOPs.
///
/// Nsight Compute 2025.3 on Hopper (the H100 and H200 fixtures) gives the dense peaks of
/// BF16, FP16, TF32 and INT8 only per instruction path: `op_hgmma`/`op_igmma` (`wgmma`, 132
/// × 4096 BF16 ops per cycle, the data sheet's rate) and `op_hmma`/`op_imma` (`mma.sync`, 132
/// × 2730.67: two thirds of it). A data type's roof is its fastest path's, the `wgmma` one;
/// the `mma.sync` peaks are not read.
const PEAKS: &[(&str, Peak)] = &[
    ("sm__sass_thread_inst_executed_op_dfma_pred_on.sum", Peak::Fp64(2.0)),
    ("sm__sass_thread_inst_executed_op_ffma_pred_on.sum", Peak::Fp32(2.0)),
    ("sm__sass_thread_inst_executed_op_hfma_pred_on.sum", Peak::Fp16(4.0)),
    ("derived__sm__sass_thread_inst_executed_op_dfma_pred_on_x2", Peak::Fp64(1.0)),
    ("derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2", Peak::Fp32(1.0)),
    ("derived__sm__sass_thread_inst_executed_op_hfma_pred_on_x4", Peak::Fp16(1.0)),
    ("sm__ops_path_tensor_src_fp64.sum", Peak::Matrix(DataType::Fp64)),
    ("sm__ops_path_tensor_src_tf32_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Tf32)),
    ("sm__ops_path_tensor_src_fp16_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Fp16)),
    ("sm__ops_path_tensor_src_bf16_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Bf16)),
    ("sm__ops_path_tensor_src_fp8_sparsity_off.sum", Peak::Matrix(DataType::Fp8)),
    ("sm__ops_path_tensor_src_fp8_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Fp8)),
    ("sm__ops_path_tensor_src_fp4_fp6_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Fp6)),
    ("sm__ops_path_tensor_src_fp4_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Fp4)),
    ("sm__ops_path_tensor_src_int8_sparsity_off.sum", Peak::Matrix(DataType::Int8)),
    ("sm__ops_path_tensor_op_hgmma_src_tf32_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Tf32)),
    ("sm__ops_path_tensor_op_hgmma_src_fp16_sparsity_off.sum", Peak::Matrix(DataType::Fp16)),
    ("sm__ops_path_tensor_op_hgmma_src_bf16_dst_fp32_sparsity_off.sum", Peak::Matrix(DataType::Bf16)),
    ("sm__ops_path_tensor_op_igmma_src_int8_sparsity_off.sum", Peak::Matrix(DataType::Int8)),
    ("sm__inst_executed.sum", Peak::WarpInst),
    ("dram__bytes.sum", Peak::DramBytes),
    ("lts__t_bytes.sum", Peak::L2Bytes),
    ("derived__lts__lts2xbar_bytes.sum", Peak::L2XbarBytes),
    ("l1tex__t_bytes.sum", Peak::L1Bytes),
    ("derived__l1tex__lsu_writeback_bytes_mem_lgds.sum", Peak::L1Bytes),
];

/// Device attributes (the raw page's `device__attribute_*` columns, the details page's
/// `Device` and `CC` columns).
const ATTRS: &[(&str, Attr)] = &[
    ("device__attribute_display_name", Attr::Name),
    ("device__attribute_compute_capability_major", Attr::CcMajor),
    ("device__attribute_compute_capability_minor", Attr::CcMinor),
    ("CC", Attr::Cc),
    ("device__attribute_multiprocessor_count", Attr::SmCount),
    // The details page's Launch Statistics section: "# SMs" (unit "SM"; the raw page's
    // `launch__sm_count`).
    ("launch__sm_count", Attr::SmCount),
    ("# SMs", Attr::SmCount),
    ("device__attribute_total_memory", Attr::MemoryBytes),
    ("device__attribute_l2_cache_size", Attr::L2Bytes),
    ("device__attribute_max_gpu_frequency_khz", Attr::MaxClockKhz),
    ("device__attribute_clock_rate", Attr::ClockRateKhz),
    ("device__attribute_memory_clock_rate", Attr::MemoryClockKhz),
    ("device__attribute_global_memory_bus_width", Attr::BusBits),
    ("device__attribute_device_index", Attr::Index),
    ("Device", Attr::Index),
];

/// Keys: table index × 4 + form (counts), offset per table; distinct for distinct names.
const PER_CYCLE_SUFFIX: &str = ".per_cycle_elapsed";
const PER_SECOND_SUFFIX: &str = ".per_second";
const PEAK_SUFFIX: &str = ".peak_sustained";

fn position<T>(table: &[(&str, T)], name: &str) -> Option<usize> {
    table.iter().position(|(n, _)| *n == name)
}

/// Operations per counted thread instruction. FP16 arithmetic on NVIDIA GPUs is packed:
/// HADD2, HMUL2 and HFMA2 work on two half lanes, and Nsight Compute counts the instruction
/// once (`sm__sass_thread_inst_executed_op_hfma_pred_on`: the H200 fixture's `fma_fp16` runs
/// 2^32 HFMA2 thread instructions and counts 4294967296). Its half-precision roofline weighs
/// them by their lanes: Nsight Compute 2025.3.1's `sections/SpeedOfLight_HierarchicalHalf
/// RooflineChart.section` defines `derived__smsp__sass_thread_inst_executed_op_hadd_pred_on_x2`
/// as "…hadd_pred_on.sum.per_cycle_elapsed * 2", `…hmul…_x2` likewise and `…hfma…_x4` as
/// "* 4", and its FP16 peak as `…hfma_pred_on.sum.peak_sustained * 4`, as the data sheets' FP16
/// rate (twice FP32) counts; so the FP16 counters hold lanes.
fn lanes(counter: Counter) -> f64 {
    match counter {
        C::Fp16Add | C::Fp16Mul | C::Fp16Fma => 2.0,
        _ => 1.0,
    }
}

/// What the metric `name` contributes, or `None` for the metrics this engine does not use.
pub fn resolve(name: &str) -> Option<Resolved> {
    let n = name.trim();
    let key = |table: u32, i: usize, form: u32| (table << 24) | ((i as u32) << 2) | form;
    if let Some(i) = position(CLOCKS, n) {
        return Some(Resolved { key: key(1, i, 0), role: CLOCKS[i].1, form: Form::Value });
    }
    if let Some(i) = position(COUNTS, n) {
        return Some(Resolved { key: key(0, i, 0), role: COUNTS[i].1, form: Form::Value });
    }
    if let Some(i) = position(ATTRS, n) {
        return Some(Resolved { key: key(3, i, 0), role: Role::Attr(ATTRS[i].1), form: Form::Value });
    }
    if let Some(base) = n.strip_suffix(PEAK_SUFFIX) {
        let i = position(PEAKS, base)?;
        return Some(Resolved { key: key(2, i, 0), role: Role::Peak(PEAKS[i].1), form: Form::Value });
    }
    if let Some(i) = position(PEAKS, n).filter(|_| n.starts_with("derived__sm__sass")) {
        return Some(Resolved { key: key(2, i, 1), role: Role::Peak(PEAKS[i].1), form: Form::Value });
    }
    if let Some(base) = n.strip_suffix(PER_CYCLE_SUFFIX) {
        let i = position(COUNTS, base)?;
        let unit = ClockUnit::of(base)?;
        return Some(Resolved { key: key(0, i, 1), role: COUNTS[i].1, form: Form::PerCycle(unit) });
    }
    if let Some(base) = n.strip_suffix(PER_SECOND_SUFFIX) {
        let i = position(COUNTS, base)?;
        return Some(Resolved { key: key(0, i, 2), role: COUNTS[i].1, form: Form::PerSecond });
    }
    None
}

/// The factor from a metric's printed unit to the base unit its role needs (seconds, bytes,
/// per second, per cycle, Hz); `None` for a unit this engine does not understand.
pub fn scale(r: &Resolved, unit: &str) -> Option<f64> {
    scale_for(r, unit)
}

fn scale_for(r: &Resolved, unit: &str) -> Option<f64> {
    // A sector count read as bytes: 32 per sector, whatever unit prefix it has.
    let per_unit = match r.role {
        Role::Count { per_unit, .. } => per_unit,
        _ => 1.0,
    };
    unit_factor(r, unit.trim()).map(|s| s * per_unit)
}

/// The factor from the printed unit to the metric's own base unit (seconds, bytes, sectors, …).
fn unit_factor(r: &Resolved, unit: &str) -> Option<f64> {
    match (r.role, r.form) {
        (Role::Attr(_), _) => Some(1.0),
        // A peak is per cycle whatever its unit says: Nsight Compute 2025.3 prints
        // `dram__bytes.sum.peak_sustained` in "Kbyte/cycle" but the derived peaks of the
        // roofline sections in the count's own unit (`derived__…_dfma_pred_on_x2` in "thread"
        // or "inst", `derived__lts__lts2xbar_bytes.sum.peak_sustained` in "Kbyte"; H100 and
        // H200 raw pages in tests/fixtures/ncu-hopper).
        (Role::Peak(_), _) => per_cycle_scale(unit).or_else(|| unit_scale(unit)),
        (_, Form::PerCycle(_)) => per_cycle_scale(unit),
        (Role::Clock(_), _) => unit_scale(unit),
        // A rate of a unitless count has no unit: `sm__ops_path_tensor_src_fp16.sum.per_second`.
        (_, Form::PerSecond) if unit.is_empty() => Some(1.0),
        // A derived rate loses its "/second" as a derived peak loses its "/cycle":
        // `derived__lts__lts2xbar_bytes.sum.per_second` in "Tbyte" (2025.3).
        (_, Form::PerSecond) => per_second_scale(unit).or_else(|| unit_scale(unit)),
        _ => unit_scale(unit),
    }
}

/// `inst/cycle`, `byte/cycle`, `Kbyte/cycle`, or no unit.
fn per_cycle_scale(unit: &str) -> Option<f64> {
    if unit.is_empty() {
        return Some(1.0);
    }
    let (n, d) = unit.split_once('/')?;
    (d == "cycle").then(|| unit_scale(n)).flatten()
}

/// `byte/second`, `Gbyte/second`, `inst/second`, `sector/nsecond`, `sector/ns` (the rates of
/// L2 sector counts on Nsight Compute 2025.3's raw pages, `lts__t_sectors_srcunit_tex_op_read.
/// sum.per_second` in the H200 fixtures) …
fn per_second_scale(unit: &str) -> Option<f64> {
    if let Some(s) = rate_scale(unit) {
        return Some(s);
    }
    let (n, d) = unit.split_once('/')?;
    let per = match d {
        "s" | "second" => 1.0,
        "ms" | "msecond" => 1e-3,
        "us" | "usecond" => 1e-6,
        "ns" | "nsecond" => 1e-9,
        _ => return None,
    };
    Some(unit_scale(n)? / per)
}

/// The unit a binary report stores a metric's value in: durations in nanoseconds, rates per
/// second or per cycle, everything else in its base unit.
fn native_unit(r: &Resolved) -> &'static str {
    match (r.role, r.form) {
        (Role::Count { counter: C::TimeS, .. }, Form::Value) => "ns",
        (Role::Clock(_), _) => "hz",
        // Rates per second (`dram__bytes.sum.per_second`): per second of the base unit.
        (_, Form::PerSecond) => "/second",
        _ => "",
    }
}

/// One launch's metrics as they are read (module doc).
#[derive(Default)]
pub struct LaunchMetrics {
    values: Vec<(Resolved, f64)>,
    /// The device's name ("" until a launch gives one: an empty cell names nothing).
    name: String,
    cc: Option<(u32, u32)>,
    unknown_units: Vec<(String, String)>,
    /// The counters [`LaunchMetrics::take`] gave last (kept to reuse their memory).
    counters: Counters,
}

/// What a launch's metrics give.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NcuLaunch {
    pub counters: Counters,
    /// The device the launch ran on, where the metrics describe it.
    pub device: Option<Device>,
    /// The CUDA device index (`Device` column), where given.
    pub device_index: Option<u32>,
    /// Metrics this engine uses whose unit it did not understand: `(metric, unit)`.
    pub unknown_units: Vec<(String, String)>,
}

impl LaunchMetrics {
    pub fn new() -> Self {
        Self::default()
    }

    /// A numeric metric with its unit as the CSV pages print it (`ns`, `byte`,
    /// `cycle/second`, `Ghz`, `inst/cycle`, …); metrics this engine does not use are ignored.
    pub fn number(&mut self, name: &str, unit: &str, value: f64) {
        if let Some(r) = resolve(name) {
            self.resolved(r, unit, value, name);
        }
    }

    /// [`LaunchMetrics::number`] for a metric resolved beforehand (the raw page resolves
    /// each column once).
    pub fn resolved(&mut self, r: Resolved, unit: &str, value: f64, name: &str) {
        if !value.is_finite() {
            return;
        }
        match scale_for(&r, unit) {
            Some(scale) => self.put(r, value * scale),
            None => {
                if !self.unknown_units.iter().any(|(n, u)| n == name && u == unit) {
                    self.unknown_units.push((name.to_string(), unit.to_string()));
                }
            }
        }
    }

    /// A numeric metric in the unit a binary report stores it in ([`native_unit`]).
    pub fn native(&mut self, name: &str, value: f64) {
        if let Some(r) = resolve(name) {
            self.resolved(r, native_unit(&r), value, name);
        }
    }

    /// A string-valued metric (`device__attribute_display_name`, the `CC` column "9.0").
    pub fn text(&mut self, name: &str, value: &str) {
        let Some(Resolved { role: Role::Attr(a), .. }) = resolve(name) else { return };
        self.attr_text(a, name, value);
    }

    /// [`LaunchMetrics::text`] for an attribute resolved beforehand (the raw page resolves
    /// each column once: resolving its name per row was ≈ 1.5 % of reading it,
    /// docs/PERFORMANCE.md); `name` is the metric's, for attributes read as numbers.
    pub fn attr_text(&mut self, a: Attr, name: &str, value: &str) {
        let v = value.trim();
        match a {
            Attr::Name if !v.is_empty() => {
                self.name.clear();
                self.name.push_str(v);
            }
            Attr::Cc => {
                if let Some((major, minor)) = v.split_once('.') {
                    if let (Ok(a), Ok(b)) = (major.trim().parse(), minor.trim().parse()) {
                        self.cc = Some((a, b));
                    }
                }
            }
            _ => {
                if let Some(n) = super::parse_number(v) {
                    self.number(name, "", n);
                }
            }
        }
    }

    /// A metric resolved beforehand with its value already in base units (the raw page
    /// scales each column once, [`scale`]).
    pub fn put(&mut self, r: Resolved, v: f64) {
        match self.values.iter_mut().find(|(x, _)| x.key == r.key) {
            Some(slot) => slot.1 = v,
            None => self.values.push((r, v)),
        }
    }

    /// The launch's counters, device and what could not be read.
    pub fn finish(self) -> NcuLaunch {
        let firsts = Firsts::of(&self.values);
        let mut counters = Counters::default();
        self.all_counters(&firsts, &mut counters);
        NcuLaunch {
            counters,
            device: self.device(&firsts),
            device_index: device_index(&firsts),
            unknown_units: self.unknown_units,
        }
    }

    /// For readers of many launches (the CSV pages): the launch's counters and the index of
    /// its device in `devices`, then empties these metrics for the next launch, keeping their
    /// buffers. The same as [`LaunchMetrics::finish`] then [`FileDevices::index_of`], without
    /// building the device where it is described as the previous launch's was (building one
    /// per row was ≈ 3 % of reading a raw page, docs/PERFORMANCE.md). The metrics whose unit
    /// was not understood are added to `unknown_units` (each once).
    pub fn take(&mut self, devices: &mut FileDevices, unknown_units: &mut Vec<(String, String)>) -> (&Counters, Option<u16>) {
        let firsts = Firsts::of(&self.values);
        let mut counters = std::mem::take(&mut self.counters);
        self.all_counters(&firsts, &mut counters);
        let device = devices.index_of_described(self.describe(&firsts), || (self.device(&firsts), device_index(&firsts)));
        for u in self.unknown_units.drain(..) {
            if !unknown_units.contains(&u) {
                unknown_units.push(u);
            }
        }
        self.values.clear();
        self.name.clear();
        self.cc = None;
        self.counters = counters;
        (&self.counters, device)
    }

    /// What the launch's device is made of ([`LaunchMetrics::device`] and its index), as a
    /// [`Description`]: two launches with equal descriptions have equal devices.
    fn describe<'a>(&'a self, firsts: &'a Firsts) -> Description<'a> {
        Description { name: &self.name, cc: self.cc, firsts, values: &self.values }
    }

    /// Every counter, with the SM cycles and clock ([`Counter::Cycles`], [`Counter::ClockHz`]),
    /// into `out` (emptied first).
    fn all_counters(&self, firsts: &Firsts, out: &mut Counters) {
        self.counters(firsts, out);
        if let Some(c) = firsts.get(Role::Cycles(ClockUnit::Sm)) {
            out.set(C::Cycles, c);
        }
        if let Some(hz) = firsts.get(Role::Clock(ClockUnit::Sm)) {
            out.set(C::ClockHz, hz);
        }
        // The L2's own clock (`lts__cycles_elapsed.avg.per_second`), for an L2 roof per L2
        // cycle ([`Counter::L2ClockHz`]).
        if let Some(hz) = firsts.get(Role::Clock(ClockUnit::Lts)).filter(|h| h.is_finite() && *h > 0.0) {
            out.set(C::L2ClockHz, hz);
        }
    }

    /// Every counter's value: counts, else per-cycle rates × cycles, else per-second rates ×
    /// duration; within the chosen form the shallowest depth (module doc). Two passes over
    /// the launch's metrics: the best (form, depth) per counter, then their sum.
    fn counters(&self, firsts: &Firsts, out: &mut Counters) {
        const N: usize = Counter::ALL.len();
        let rank = |f: Form| match f {
            Form::Value => 0u8,
            Form::PerCycle(_) => 1,
            Form::PerSecond => 2,
        };
        let mut best: [Option<(u8, u8)>; N] = [None; N];
        for (r, _) in &self.values {
            if let Role::Count { counter, depth, .. } = r.role {
                let slot = &mut best[counter as usize];
                let this = (rank(r.form), depth);
                if slot.is_none_or(|b| this < b) {
                    *slot = Some(this);
                }
            }
        }
        // A part that cannot be converted (no cycles, no duration) makes its counter unknown (NaN).
        let mut sums: [Option<f64>; N] = [None; N];
        let add = |sums: &mut [Option<f64>; N], counter: Counter, v: Option<f64>| {
            let slot = &mut sums[counter as usize];
            *slot = match (*slot, v) {
                (_, None) => Some(f64::NAN),
                (None, Some(v)) => Some(v),
                (Some(s), Some(v)) => Some(s + v),
            };
        };
        // The duration first: rates per second need it. Durations are only ever counts.
        for (r, v) in &self.values {
            if let Role::Count { counter: C::TimeS, depth, .. } = r.role {
                if r.form == Form::Value && best[C::TimeS as usize] == Some((0, depth)) {
                    add(&mut sums, C::TimeS, Some(*v));
                }
            }
        }
        let duration_s = sums[C::TimeS as usize].filter(|t| t.is_finite());
        let mut cycles: [Option<f64>; 4] = [None; 4];
        for u in ClockUnit::ALL {
            cycles[u.index()] = firsts.get(Role::Cycles(u)).or_else(|| Some(firsts.get(Role::Clock(u))? * duration_s?));
        }
        for (r, v) in &self.values {
            let Role::Count { counter, depth, .. } = r.role else { continue };
            if counter == C::TimeS || best[counter as usize] != Some((rank(r.form), depth)) {
                continue;
            }
            let value = match r.form {
                Form::Value => Some(*v),
                Form::PerCycle(unit) => cycles[unit.index()].map(|c| v * c),
                Form::PerSecond => duration_s.map(|t| v * t),
            };
            add(&mut sums, counter, value.map(|v| v * lanes(counter)));
        }
        out.clear();
        for c in Counter::ALL {
            if let Some(v) = sums[c as usize].filter(|v| v.is_finite()) {
                out.set(c, v);
            }
        }
    }

    fn device(&self, firsts: &Firsts) -> Option<Device> {
        let attr = |a: Attr| firsts.get(Role::Attr(a));
        let cc = match (attr(Attr::CcMajor), attr(Attr::CcMinor)) {
            (Some(a), Some(b)) if a >= 0.0 && b >= 0.0 => Some((a as u32, b as u32)),
            _ => self.cc,
        };
        let khz = |v: Option<f64>| v.filter(|v| *v > 0.0).map(|v| v * 1e3);
        let d = Device {
            name: (!self.name.is_empty()).then(|| self.name.clone()),
            compute_capability: cc,
            sm_count: attr(Attr::SmCount).filter(|v| *v > 0.0).map(|v| v as u32),
            memory_bytes: attr(Attr::MemoryBytes).filter(|v| *v > 0.0),
            l2_bytes: attr(Attr::L2Bytes).filter(|v| *v > 0.0),
            max_sm_clock_hz: khz(attr(Attr::MaxClockKhz)).or_else(|| khz(attr(Attr::ClockRateKhz))),
            // The attribute, else the memory clock the profile measured (the details page's
            // "DRAM Frequency": 3.20 GHz on an H200, 2.62 on an H100 SXM, whose pages are
            // otherwise alike; model::identify tells them apart by it).
            memory_clock_hz: khz(attr(Attr::MemoryClockKhz)).or_else(|| firsts.get(Role::Clock(ClockUnit::Dram)).filter(|v| *v > 0.0)),
            memory_bus_bits: attr(Attr::BusBits).filter(|v| *v > 0.0).map(|v| v as u32),
            peaks: self.peaks(firsts),
            ..Device::default()
        };
        (!d.is_empty()).then(|| d.normalised())
    }

    fn peaks(&self, firsts: &Firsts) -> Option<DevicePeaks> {
        let mut p = DevicePeaks::default();
        // `lts__t_bytes.sum.peak_sustained` is the peak of `lts__t_bytes.sum`, which L2 bytes
        // come from wherever it is collected: it wins over the L2-to-SM path's.
        let mut l2_from_t_bytes = false;
        for (r, v) in &self.values {
            let Role::Peak(peak) = r.role else { continue };
            let v = *v;
            match peak {
                Peak::Fp64(f) => p.fp64_flops_per_cycle = Some(v * f),
                Peak::Fp32(f) => p.fp32_flops_per_cycle = Some(v * f),
                Peak::Fp16(f) => p.fp16_flops_per_cycle = Some(v * f),
                Peak::Matrix(t) => match p.matrix_ops_per_cycle.iter_mut().find(|(d, _)| *d == t) {
                    Some(slot) => slot.1 = v,
                    None => p.matrix_ops_per_cycle.push((t, v)),
                },
                Peak::WarpInst => p.warp_inst_per_cycle = Some(v),
                Peak::DramBytes => p.dram_bytes_per_cycle = Some(v),
                Peak::L2Bytes => {
                    p.l2_bytes_per_cycle = Some(v);
                    l2_from_t_bytes = true;
                }
                Peak::L2XbarBytes if !l2_from_t_bytes => p.l2_bytes_per_cycle = Some(v),
                Peak::L2XbarBytes => {}
                Peak::L1Bytes => p.l1_bytes_per_cycle = Some(v),
            }
        }
        if p.is_empty() {
            return None;
        }
        p.dram_hz = firsts.get(Role::Clock(ClockUnit::Dram));
        p.l2_hz = firsts.get(Role::Clock(ClockUnit::Lts));
        p.l1_hz = firsts.get(Role::Clock(ClockUnit::L1tex));
        Some(p)
    }
}

/// The first value of each clock and attribute role of a launch's metrics, found in one pass
/// ([`LaunchMetrics::finish`] reads about 25 of them: a scan of the metrics for each was
/// ≈ 2 % of reading a raw page, docs/PERFORMANCE.md).
struct Firsts {
    cycles: [Option<f64>; ClockUnit::ALL.len()],
    clocks: [Option<f64>; ClockUnit::ALL.len()],
    attrs: [Option<f64>; ATTR_COUNT],
}

/// How many [`Attr`]s there are (`Index` is the last).
const ATTR_COUNT: usize = Attr::Index as usize + 1;

impl Firsts {
    fn of(values: &[(Resolved, f64)]) -> Firsts {
        let mut f = Firsts { cycles: [None; ClockUnit::ALL.len()], clocks: [None; ClockUnit::ALL.len()], attrs: [None; ATTR_COUNT] };
        for &(r, v) in values {
            let slot = match r.role {
                Role::Cycles(u) => f.cycles.get_mut(u.index()),
                Role::Clock(u) => f.clocks.get_mut(u.index()),
                Role::Attr(a) => f.attrs.get_mut(a as usize),
                Role::Count { .. } | Role::Peak(_) => None,
            };
            if let Some(slot @ None) = slot {
                *slot = Some(v);
            }
        }
        f
    }

    /// The first value of `role` (only clock and attribute roles are kept).
    fn get(&self, role: Role) -> Option<f64> {
        match role {
            Role::Cycles(u) => self.cycles.get(u.index()).copied().flatten(),
            Role::Clock(u) => self.clocks.get(u.index()).copied().flatten(),
            Role::Attr(a) => self.attrs.get(a as usize).copied().flatten(),
            Role::Count { .. } | Role::Peak(_) => None,
        }
    }
}

/// The CUDA device index a launch's metrics give (`Device`, `device__attribute_device_index`).
fn device_index(firsts: &Firsts) -> Option<u32> {
    firsts.get(Role::Attr(Attr::Index)).filter(|v| *v >= 0.0 && v.fract() == 0.0).map(|v| v as u32)
}

/// Everything [`LaunchMetrics::device`] and [`device_index`] read: the name, the `CC` text,
/// the attributes, the clocks and the peaks. Two launches with equal descriptions have equal
/// devices.
pub struct Description<'a> {
    name: &'a str,
    cc: Option<(u32, u32)>,
    firsts: &'a Firsts,
    values: &'a [(Resolved, f64)],
}

impl Description<'_> {
    /// The device's name ("" for none).
    pub fn name(&self) -> &str {
        self.name
    }

    /// Everything but the name as numbers, into `key` (emptied first): equal keys and names
    /// are equal descriptions. Values are compared by their bits.
    pub fn write_key(&self, key: &mut Vec<u64>) {
        key.clear();
        let mut opt = |v: Option<f64>| key.extend(match v {
            Some(v) => [1, v.to_bits()],
            None => [0, 0],
        });
        let f = self.firsts;
        f.attrs.iter().chain(&f.clocks).chain(&f.cycles).for_each(|v| opt(*v));
        key.extend(match self.cc {
            Some((major, minor)) => [1, u64::from(major) << 32 | u64::from(minor)],
            None => [0, 0],
        });
        for (r, v) in self.values.iter().filter(|(r, _)| matches!(r.role, Role::Peak(_))) {
            key.extend([u64::from(r.key), v.to_bits()]);
        }
    }
}

/// The warning for metrics a file gives in units this engine does not understand (the
/// values were not used).
pub fn unknown_units_warning(file: &str, unknown: &[(String, String)]) -> Option<crate::error::ImportError> {
    if unknown.is_empty() {
        return None;
    }
    let shown: Vec<String> = unknown.iter().take(8).map(|(m, u)| format!("{m} in \"{u}\"")).collect();
    let more = if unknown.len() > 8 { format!(" and {} more", unknown.len() - 8) } else { String::new() };
    Some(crate::error::ImportError::new(
        file,
        None,
        format!("some metrics were not used because their unit is not one this version understands: {}{more}", shown.join(", ")),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_win_over_parts_and_counts_over_rates() {
        let mut m = LaunchMetrics::new();
        m.number("dram__bytes_read.sum", "byte", 600.0);
        m.number("dram__bytes_write.sum", "Kbyte", 0.4);
        m.number("gpu__time_duration.sum", "usecond", 2.0);
        // 2 µs × 1 GB/s = 2000 bytes: a rate, used only without a count.
        m.number("dram__bytes.sum.per_second", "Gbyte/second", 1.0);
        let l = m.finish();
        assert_eq!(l.counters.get(C::DramBytes), Some(1000.0), "600 + 400 bytes, parts over the rate");
        let mut m = LaunchMetrics::new();
        m.number("dram__bytes_read.sum", "byte", 600.0);
        m.number("dram__bytes.sum", "byte", 999.0);
        assert_eq!(m.finish().counters.get(C::DramBytes), Some(999.0), "the total wins");
    }

    #[test]
    fn per_cycle_rates_times_their_units_cycles() {
        // A full-set report: 0.5 FADD per SMSP cycle × 2e6 cycles = 1e6 FADDs; L2 bytes at
        // 64 bytes per L2 cycle × 1.5e6 L2 cycles (from its clock × duration: 1.5 GHz × 1 ms).
        let mut m = LaunchMetrics::new();
        m.native("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed", 0.5);
        m.native("smsp__cycles_elapsed.avg", 2e6);
        m.native("gpu__time_duration.sum", 1e6);
        m.native("lts__t_bytes.sum.per_cycle_elapsed", 64.0);
        m.native("lts__cycles_elapsed.avg.per_second", 1.5e9);
        let l = m.finish();
        assert_eq!(l.counters.get(C::Fp32Add), Some(1e6));
        assert_eq!(l.counters.get(C::Cycles), Some(2e6));
        assert_eq!(l.counters.get(C::TimeS), Some(1e-3));
        assert_eq!(l.counters.get(C::L2Bytes), Some(64.0 * 1.5e6));
    }

    #[test]
    fn smsp_forms_and_typed_matrix_paths() {
        let mut m = LaunchMetrics::new();
        m.number("smsp__inst_executed_pipe_tensor.sum", "inst", 10.0);
        m.number("sm__ops_path_tensor_src_bf16_dst_fp32_sparsity_off.sum", "", 3e9);
        m.number("sm__ops_path_tensor_src_bf16_dst_fp32_sparsity_on.sum", "", 1e9);
        m.number("sm__ops_path_tensor_src_fp8_dst_fp16.sum", "", 5.0);
        m.number("sm__ops_path_tensor_src_fp8_dst_fp32.sum", "", 7.0);
        m.number("sm__ops_path_tensor_src_fp8_dst_fp32_sparsity_off.sum", "", 7.0);
        let c = m.finish().counters;
        assert_eq!(c.get(C::TensorInst), Some(10.0));
        assert_eq!(c.get(C::MatrixBf16), Some(4e9), "the sparsity halves of the BF16 path");
        assert_eq!(c.get(C::MatrixFp8), Some(12.0), "destination types, not their halves too");
    }

    #[test]
    fn repeated_metrics_count_once_and_unknown_units_are_reported() {
        let mut m = LaunchMetrics::new();
        m.number("smsp__inst_executed_op_global_ld.sum", "inst", 5.0);
        m.number("smsp__inst_executed_op_global_ld.sum", "inst", 5.0);
        m.number("smsp__inst_executed_op_global_st.sum", "inst", 2.0);
        m.number("dram__bytes.sum", "furlong", 3.0);
        m.number("not_a_metric_we_use", "furlong", 3.0);
        let l = m.finish();
        assert_eq!(l.counters.get(C::GlobalLdStInst), Some(7.0));
        assert_eq!(l.counters.get(C::DramBytes), None);
        assert_eq!(l.unknown_units, vec![("dram__bytes.sum".to_string(), "furlong".to_string())]);
        let w = unknown_units_warning("a.csv", &l.unknown_units).map(|e| e.to_string()).unwrap_or_default();
        assert!(w.contains("dram__bytes.sum in \"furlong\""), "{w}");
    }

    #[test]
    fn device_attributes_and_peaks() {
        // The B200 raw page's attributes: 148 SMs, CC 10.0, 1965000 kHz, 3996000 kHz memory,
        // 7680-bit bus; peaks as a full-set report stores them.
        let mut m = LaunchMetrics::new();
        m.text("device__attribute_display_name", "NVIDIA B200");
        m.number("device__attribute_compute_capability_major", "", 10.0);
        m.number("device__attribute_compute_capability_minor", "", 0.0);
        m.number("device__attribute_multiprocessor_count", "", 148.0);
        m.number("device__attribute_max_gpu_frequency_khz", "", 1_965_000.0);
        m.number("device__attribute_memory_clock_rate", "", 3_996_000.0);
        m.number("device__attribute_global_memory_bus_width", "", 7680.0);
        m.number("device__attribute_device_index", "", 0.0);
        m.number("sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", "inst/cycle", 4736.0);
        m.number("dram__bytes.sum.peak_sustained", "byte/cycle", 1920.0);
        m.number("dram__cycles_elapsed.avg.per_second", "Ghz", 2.0);
        let l = m.finish();
        let d = l.device.expect("a device");
        assert_eq!((d.name.as_deref(), d.arch.as_deref(), d.sm_count), (Some("NVIDIA B200"), Some("sm_100"), Some(148)));
        assert_eq!((d.max_sm_clock_hz, d.memory_clock_hz, d.memory_bus_bits), (Some(1.965e9), Some(3.996e9), Some(7680)));
        let p = d.peaks.expect("peaks");
        // 4736 DFMA per cycle × 2 FLOPs.
        assert_eq!((p.fp64_flops_per_cycle, p.dram_bytes_per_cycle, p.dram_hz), (Some(9472.0), Some(1920.0), Some(2e9)));
        assert_eq!(l.device_index, Some(0));
        let mut m = LaunchMetrics::new();
        m.text("CC", "7.5");
        assert_eq!(m.finish().device.and_then(|d| d.arch), Some("sm_75".to_string()));
    }
}
