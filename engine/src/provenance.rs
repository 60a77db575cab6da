//! Provenance (issue 43): for one kernel, every quantity the chart and the verdict use — time,
//! SM clock, FLOPs per precision and per matrix data type, bytes per memory level, warp
//! instructions — with the profiler metrics it comes from, their values and units, the formula
//! that turns them into the quantity, and the metrics that were missing. This is what lets an
//! expert trust or correct a chart: a DRAM byte count that is a sector count × 32, FP16 FLOPs
//! whose HADD was never collected, a time that is cycles ÷ clock.
//!
//! Metric names are those the files' profiler writes, as the importers map them: Nsight
//! Compute's (the NERSC hierarchical roofline set, `import::hints`; Ding & Williams' Table I for
//! instructions), nvprof's (`import::nvprof::metric_counters`), rocprof's
//! (`import::rocprof`'s formulas after rocprof-compute's roofline) and Intel Advisor's survey
//! columns. Where a reader accepts several names for one quantity (Nsight Compute's `sm__` and
//! `smsp__` prefixes of one count) the first is named. Values are as the engine holds them,
//! summed over the kernel's launches, in the unit given with each input.

use crate::domain::counters::Counter;
use crate::domain::profile::{KernelProfile, Precision};
use crate::domain::DataType;
use crate::import::hints::{self, Family};

use crate::model::hierarchical::{level_bytes, sizes};
use crate::model::{Level, Machine};
use serde::Serialize;

/// One quantity of a kernel and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Quantity {
    /// "time", "SM clock", "FP64 FLOPs", "BF16 matrix FLOPs", "DRAM bytes", "warp instructions".
    pub name: String,
    /// `None` where the files did not measure it.
    pub value: Option<f64>,
    /// "s", "Hz", "FLOP", "B", "inst".
    pub unit: &'static str,
    /// How the value follows from the inputs ("DADD + DMUL + 2 × DFMA").
    pub formula: String,
    /// The metrics read, with their values.
    pub inputs: Vec<Input>,
    /// The metrics the formula needs that the files did not have.
    pub missing: Vec<String>,
}

/// One metric behind a quantity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Input {
    pub metric: String,
    pub value: f64,
    pub unit: &'static str,
}

/// Which profiler's files, and of Intel Advisor which of its two outputs (the survey CSV's
/// columns and the HTML report's chart JSON name the same quantities differently).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    Ncu,
    Nvprof,
    Rocprof,
    AdvisorSurvey,
    AdvisorHtml,
    #[default]
    Other,
}

impl Origin {
    /// The origin of files of format `format` (the importer's id, `import::Importer::format`).
    pub fn of_format(format: &str) -> Origin {
        match hints::family(format) {
            Family::Ncu => Origin::Ncu,
            Family::Nvprof => Origin::Nvprof,
            Family::Rocprof => Origin::Rocprof,
            Family::Advisor if format == "advisor-html" => Origin::AdvisorHtml,
            Family::Advisor => Origin::AdvisorSurvey,
            Family::Other if format == "rocpd" => Origin::Rocprof,
            Family::Other => Origin::Other,
        }
    }

    /// The origin of a dataset's kernels: its first file of a known profiler (a machine file
    /// or a tidy CSV beside them says nothing of the kernels' metrics).
    pub fn of_files<'a>(formats: impl IntoIterator<Item = &'a str>) -> Origin {
        formats.into_iter().map(Origin::of_format).find(|o| *o != Origin::Other).unwrap_or(Origin::Other)
    }
}

/// Where one counter comes from in a origin's files: the metric, its unit there, and how
/// many of the counter's units one of the metric's is (`counter = metric × scale`).
#[derive(Clone, Copy)]
struct Source {
    metric: &'static str,
    unit: &'static str,
    scale: f64,
}

const fn src(metric: &'static str, unit: &'static str, scale: f64) -> Option<Source> {
    Some(Source { metric, unit, scale })
}

/// The metric a counter is read from in files of `origin`; `None` where that profiler's files
/// do not give it one metric (a quantity computed by a formula of several, [`formula_of`]).
fn source(origin: Origin, c: Counter) -> Option<Source> {
    use Counter as C;
    match origin {
        Origin::Ncu => {
            if let Some((metric, _)) = hints::NCU_FLOP_COUNTERS.iter().find(|(_, k)| *k == c) {
                // FP16 counts are lanes: a packed HADD2/HMUL2/HFMA2 thread instruction is 2
                // (import::ncu_metrics), as Nsight Compute's half-precision roofline counts it.
                let lanes = matches!(c, C::Fp16Add | C::Fp16Mul | C::Fp16Fma);
                return src(metric, "inst", if lanes { 2.0 } else { 1.0 });
            }
            match c {
                C::TimeS => src("gpu__time_duration.sum", "s", 1.0),
                C::Cycles => src("sm__cycles_elapsed.avg", "cycle", 1.0),
                C::ClockHz => src("sm__cycles_elapsed.avg.per_second", "Hz", 1.0),
                C::L2ClockHz => src("lts__cycles_elapsed.avg.per_second", "Hz", 1.0),
                C::DramBytes => src("dram__bytes.sum", "B", 1.0),
                C::L2Bytes => src("lts__t_bytes.sum", "B", 1.0),
                C::L1Bytes => src("l1tex__t_bytes.sum", "B", 1.0),
                C::DramTxn => src("dram__sectors_read.sum + dram__sectors_write.sum", "sector", 1.0),
                C::L2Txn => src("lts__t_sectors_op_{read,write,atom,red}.sum", "sector", 1.0),
                C::GlobalTxn => src("l1tex__t_sectors_pipe_lsu_mem_global_op_{ld,st}.sum", "sector", 1.0),
                C::LocalTxn => src("l1tex__t_sectors_pipe_lsu_mem_local_op_{ld,st}.sum", "sector", 1.0),
                C::SharedTxn => src("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum", "wavefront", 1.0),
                C::WarpInst => src("smsp__inst_executed.sum", "inst", 1.0),
                C::MatrixFp64 => src("sm__ops_path_tensor_src_fp64.sum", "FLOP", 1.0),
                C::MatrixTf32 => src("sm__ops_path_tensor_src_tf32_dst_fp32.sum", "FLOP", 1.0),
                C::MatrixFp16 => src("sm__ops_path_tensor_src_fp16.sum", "FLOP", 1.0),
                C::MatrixBf16 => src("sm__ops_path_tensor_src_bf16_dst_fp32.sum", "FLOP", 1.0),
                C::MatrixFp8 => src("sm__ops_path_tensor_src_fp8.sum", "FLOP", 1.0),
                C::MatrixFp6 => src("sm__ops_path_tensor_src_fp4_fp6_dst_{fp16,fp32}.sum", "FLOP", 1.0),
                C::MatrixFp4 => src("sm__ops_path_tensor_src_fp4_dst_fp32.sum", "FLOP", 1.0),
                C::MatrixInt8 => src("sm__ops_path_tensor_src_int8.sum", "op", 1.0),
                _ => None,
            }
        }
        Origin::Nvprof => match c {
            C::TimeS => src("Duration (GPU trace) or Avg × Calls (GPU summary)", "s", 1.0),
            C::Fp64Flops => src("flop_count_dp", "FLOP", 1.0),
            C::Fp32Flops => src("flop_count_sp", "FLOP", 1.0),
            C::Fp16Flops => src("flop_count_hp", "FLOP", 1.0),
            // 32-byte transactions (import::nvprof::SECTOR_BYTES).
            C::DramBytes => src("dram_read_transactions + dram_write_transactions", "transaction", 32.0),
            C::L2Bytes => src("l2_read_transactions + l2_write_transactions", "transaction", 32.0),
            C::GlobalTxn => src("gld_transactions + gst_transactions", "transaction", 1.0),
            C::SharedTxn => src("shared_load_transactions + shared_store_transactions", "transaction", 1.0),
            C::WarpInst => src("inst_executed", "inst", 1.0),
            _ => None,
        },
        Origin::Rocprof => match c {
            C::TimeS => src("EndNs − BeginNs (per dispatch)", "s", 1.0),
            C::MatrixFp64 => src("SQ_INSTS_VALU_MFMA_MOPS_F64", "MOP", 512.0),
            C::MatrixTf32 => src("SQ_INSTS_VALU_MFMA_MOPS_XF32", "MOP", 512.0),
            C::MatrixFp32 => src("SQ_INSTS_VALU_MFMA_MOPS_F32", "MOP", 512.0),
            C::MatrixFp16 => src("SQ_INSTS_VALU_MFMA_MOPS_F16", "MOP", 512.0),
            C::MatrixBf16 => src("SQ_INSTS_VALU_MFMA_MOPS_BF16", "MOP", 512.0),
            C::MatrixFp8 => src("SQ_INSTS_VALU_MFMA_MOPS_F8", "MOP", 512.0),
            C::MatrixInt8 => src("SQ_INSTS_VALU_MFMA_MOPS_I8", "MOP", 512.0),
            _ => None,
        },
        Origin::AdvisorHtml => match c {
            C::TimeS => src("selfElapsedTime", "s", 1.0),
            // The dot's performance, 10^y on the report's log axis, × its time.
            C::OtherFlops => src("10^y GFLOPS × selfElapsedTime", "GFLOP", 1e9),
            C::IntOps => src("10^y GINTOPS × selfElapsedTime", "GINTOP", 1e9),
            C::L1Bytes => src("selfMem of the CARM entry", "GB", 1e9),
            C::L2Bytes => src("selfMem of the L2 entry", "GB", 1e9),
            C::L3Bytes => src("selfMem of the L3 entry", "GB", 1e9),
            C::SharedBytes => src("selfMem of the SLM entry", "GB", 1e9),
            C::DramBytes => src("selfMem of the DRAM entry", "GB", 1e9),
            _ => None,
        },
        Origin::AdvisorSurvey => match c {
            C::TimeS => src("Self Time", "s", 1.0),
            C::Fp64Flops | C::Fp32Flops | C::OtherFlops => src("Self GFLOP", "GFLOP", 1e9),
            C::IntOps => src("Self GINTOP", "GINTOP", 1e9),
            C::L1Bytes => src("Self Memory GB", "GB", 1e9),
            C::L2Bytes => src("Self L2 GB", "GB", 1e9),
            C::L3Bytes => src("Self L3 GB", "GB", 1e9),
            C::DramBytes => src("Self DRAM GB", "GB", 1e9),
            _ => None,
        },
        Origin::Other => None,
    }
}

/// The formula of a quantity some profilers compute from several counters the engine does
/// not keep apart (rocprof's FLOPs and bytes, after rocprof-compute's roofline formulas in
/// `import::rocprof`), stated for the reader; `None` where [`source`] names one metric.
fn formula_of(origin: Origin, c: Counter) -> Option<&'static str> {
    use Counter as C;
    match (origin, c) {
        (Origin::Rocprof, C::Fp64Flops) => Some("wave size × (SQ_INSTS_VALU_ADD_F64 + SQ_INSTS_VALU_MUL_F64 + SQ_INSTS_VALU_TRANS_F64 + 2 × SQ_INSTS_VALU_FMA_F64)"),
        (Origin::Rocprof, C::Fp32Flops) => Some("wave size × (SQ_INSTS_VALU_ADD_F32 + SQ_INSTS_VALU_MUL_F32 + SQ_INSTS_VALU_TRANS_F32 + 2 × SQ_INSTS_VALU_FMA_F32)"),
        (Origin::Rocprof, C::Fp16Flops) => Some("wave size × (SQ_INSTS_VALU_ADD_F16 + SQ_INSTS_VALU_MUL_F16 + SQ_INSTS_VALU_TRANS_F16 + 2 × SQ_INSTS_VALU_FMA_F16)"),
        (Origin::Rocprof, C::DramBytes) => Some(
            "TCC_EA_RDREQ by request size (32, 64, 128 B) + TCC_EA_WRREQ_64B × 64 B + (TCC_EA_WRREQ − TCC_EA_WRREQ_64B) × 32 B; without those, (FETCH_SIZE + WRITE_SIZE) × 1024 B",
        ),
        (Origin::Rocprof, C::L2Bytes) => Some("TCP_TCC_READ_REQ × read size + (TCP_TCC_WRITE_REQ + TCP_TCC_ATOMIC_WITH_RET_REQ + TCP_TCC_ATOMIC_WITHOUT_RET_REQ) × write size (by generation)"),
        (Origin::Rocprof, C::L1Bytes) => Some("TCP_TOTAL_CACHE_ACCESSES × bytes per access (by generation)"),
        (Origin::Rocprof, C::SharedBytes) => Some("4 × 32 × (SQ_LDS_IDX_ACTIVE − SQ_LDS_BANK_CONFLICT)"),
        (Origin::Rocprof, C::TensorFlops) => Some("512 × SQ_INSTS_VALU_MFMA_MOPS_F6F4"),
        _ => None,
    }
}

/// The provenance of one counter as an input, where the kernel has it.
fn input(k: &KernelProfile, origin: Origin, c: Counter) -> Option<Input> {
    let v = k.counters.get(c)?;
    Some(match source(origin, c) {
        Some(s) => Input { metric: s.metric.to_string(), value: v / s.scale, unit: s.unit },
        None => Input { metric: format!("{c:?}"), value: v, unit: "" },
    })
}

/// The metric name of a counter for the `missing` list.
fn metric_name(origin: Origin, c: Counter) -> Option<String> {
    source(origin, c).map(|s| s.metric.to_string())
}

/// A quantity read from one counter (or computed by [`formula_of`]); `None` where the kernel
/// has no value and the quantity is not one the profiler's recipe collects (`expected`).
fn single(k: &KernelProfile, origin: Origin, name: &str, unit: &'static str, c: Counter, value: Option<f64>, expected: bool) -> Option<Quantity> {
    (value.is_some() || expected).then(|| read(k, origin, name, unit, c, value))
}

/// [`single`]'s quantity.
fn read(k: &KernelProfile, origin: Origin, name: &str, unit: &'static str, c: Counter, value: Option<f64>) -> Quantity {
    let inputs: Vec<Input> = input(k, origin, c).into_iter().collect();
    let formula = match (formula_of(origin, c), source(origin, c)) {
        (Some(f), _) => f.to_string(),
        (None, Some(s)) if s.scale != 1.0 => {
            let metric = if s.metric.contains(" + ") { format!("({})", s.metric) } else { s.metric.to_string() };
            let scale = if s.scale == 1e9 { "10⁹".to_string() } else { s.scale.to_string() };
            format!("{metric} × {scale}")
        }
        (None, Some(s)) => s.metric.to_string(),
        (None, None) => format!("{c:?}"),
    };
    let missing = if value.is_none() { metric_name(origin, c).or_else(|| formula_of(origin, c).map(str::to_string)).into_iter().collect() } else { Vec::new() };
    Quantity { name: name.into(), value, unit, formula, inputs, missing }
}

/// The FLOPs of one vector precision: the profiler's FLOP count, else add + mul + 2 × fma.
fn precision(k: &KernelProfile, origin: Origin, p: Precision) -> Option<Quantity> {
    use Counter as C;
    let (label, direct, parts) = match p {
        Precision::Fp64 => ("FP64", C::Fp64Flops, [C::Fp64Add, C::Fp64Mul, C::Fp64Fma]),
        Precision::Fp32 => ("FP32", C::Fp32Flops, [C::Fp32Add, C::Fp32Mul, C::Fp32Fma]),
        Precision::Fp16 => ("FP16", C::Fp16Flops, [C::Fp16Add, C::Fp16Mul, C::Fp16Fma]),
    };
    let name = format!("{label} FLOPs");
    let value = k.flops(p);
    let per_op = origin == Origin::Ncu && k.counters.get(direct).is_none();
    if !per_op {
        // Nsight Compute's recipe collects FP64 and FP32 (and FP16 on GPUs with a half roof);
        // the others' FLOP metrics are expected wherever the profiler has them.
        let expected = source(origin, direct).is_some() || formula_of(origin, direct).is_some();
        return single(k, origin, &name, "FLOP", direct, value, expected && p != Precision::Fp16);
    }
    let inputs: Vec<Input> = parts.iter().filter_map(|&c| input(k, origin, c)).collect();
    let missing: Vec<String> = parts.iter().filter(|&&c| k.counters.get(c).is_none()).filter_map(|&c| metric_name(origin, c)).collect();
    let ops: Vec<String> = parts.iter().filter_map(|&c| source(origin, c)).map(|s| hints::ncu_op_name(s.metric).unwrap_or_else(|| s.metric.to_string())).collect();
    let lanes = if p == Precision::Fp16 { " (each packed instruction 2 lanes)" } else { "" };
    let formula = match ops.as_slice() {
        [add, mul, fma] => format!("{add} + {mul} + 2 × {fma}{lanes}"),
        _ => format!("add + mul + 2 × fma{lanes}"),
    };
    Some(Quantity { name, value, unit: "FLOP", formula, inputs, missing })
}

/// The kernel's time: a measured duration, else Σ over launches of cycles ÷ clock, else
/// Σcycles ÷ mean clock (the NERSC recipe).
fn time(k: &KernelProfile, origin: Origin) -> Quantity {
    let c = &k.counters;
    let value = k.time_s();
    if c.get(Counter::TimeS).is_some() || (c.get(Counter::CycleTimeS).is_none() && c.get(Counter::Cycles).is_none()) {
        return read(k, origin, "time", "s", Counter::TimeS, value);
    }
    let inputs: Vec<Input> = [Counter::Cycles, Counter::ClockHz].iter().filter_map(|&c| input(k, origin, c)).collect();
    let (cycles, clock) = match origin {
        Origin::Ncu => ("sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second"),
        _ => ("cycles", "clock"),
    };
    let formula = if c.get(Counter::CycleTimeS).is_some() {
        format!("Σ over launches of {cycles} ÷ {clock} (each launch at its own clock)")
    } else {
        format!("{cycles} ÷ {clock} (the mean over launches)")
    };
    let missing = if c.get(Counter::ClockHz).is_none() && c.get(Counter::CycleTimeS).is_none() { vec![clock.to_string()] } else { Vec::new() };
    Quantity { name: "time".into(), value, unit: "s", formula, inputs, missing }
}

/// The bytes at one memory level: the level's byte count, else its transactions × their size.
fn level(k: &KernelProfile, origin: Origin, machine: Option<&Machine>, level: Level) -> Option<Quantity> {
    use Counter as C;
    let (bytes_counter, txns): (Counter, &[Counter]) = match level {
        Level::L1 => (C::L1Bytes, &[C::GlobalTxn, C::LocalTxn]),
        Level::Shared => (C::SharedBytes, &[C::SharedTxn]),
        Level::L2 => (C::L2Bytes, &[C::L2Txn]),
        Level::L3 => (C::L3Bytes, &[]),
        Level::Dram => (C::DramBytes, &[C::DramTxn]),
    };
    let s = sizes(machine);
    let value = level_bytes(k, level, &s);
    let name = format!("{} bytes", level.label());
    if value.is_some() && k.counters.get(bytes_counter).is_none() {
        let per = match level {
            Level::Shared => s.shared_bytes,
            _ => s.sector_bytes,
        };
        let inputs: Vec<Input> = txns.iter().filter_map(|&c| input(k, origin, c)).collect();
        let names: Vec<String> = inputs.iter().map(|i| i.metric.clone()).collect();
        return Some(Quantity { name, value, unit: "B", formula: format!("({}) × {per} B", names.join(" + ")), inputs, missing: Vec::new() });
    }
    // The levels every profiler's roofline recipe collects: DRAM everywhere, L2 and L1 for
    // Nsight Compute's hierarchical set.
    let expected = match level {
        Level::Dram => origin != Origin::Other,
        Level::L2 | Level::L1 => origin == Origin::Ncu,
        _ => false,
    };
    single(k, origin, &name, "B", bytes_counter, value, expected)
}

/// Every quantity of kernel `k` with its provenance, for files of `origin` ([`Origin::of_files`]) placed against `machine` (its FLOPs per
/// tensor instruction and transaction sizes), in the order the provenance panel lists them:
/// time and clock, FLOPs, bytes, instructions.
pub fn of_kernel(k: &KernelProfile, origin: Origin, machine: Option<&Machine>) -> Vec<Quantity> {
    let mut out = vec![time(k, origin)];
    if let Some(hz) = k.counters.get(Counter::ClockHz) {
        out.extend(single(k, origin, "SM clock", "Hz", Counter::ClockHz, Some(hz), true));
    }
    for p in [Precision::Fp64, Precision::Fp32, Precision::Fp16] {
        out.extend(precision(k, origin, p));
    }
    for t in DataType::ALL {
        let unit = if t == DataType::Int8 { "op" } else { "FLOP" };
        if let Some(v) = k.matrix_flops(t) {
            out.extend(single(k, origin, &format!("{} matrix FLOPs", t.label()), unit, t.matrix_counter(), Some(v), true));
        }
    }
    if !k.has_typed_matrix_work() {
        if let Some(f) = k.counters.get(Counter::TensorFlops) {
            out.extend(single(k, origin, "matrix FLOPs (data type not counted)", "FLOP", Counter::TensorFlops, Some(f), true));
        } else if let Some(inst) = k.counters.get(Counter::TensorInst) {
            let per = machine.and_then(|m| m.flops_per_tensor_inst);
            let metric = source(origin, Counter::TensorInst).map_or("tensor instructions", |s| s.metric);
            out.push(Quantity {
                name: "tensor FLOPs".into(),
                value: per.map(|p| inst * p),
                unit: "FLOP",
                formula: match per {
                    Some(p) => format!("{metric} × {p} FLOPs per instruction (the machine's)"),
                    None => format!("{metric} × FLOPs per instruction, which this GPU does not fix (its tensor instructions differ by shape)"),
                },
                inputs: input(k, origin, Counter::TensorInst).into_iter().collect(),
                missing: if per.is_none() { vec!["sm__ops_path_tensor_src_<type>.sum".into()] } else { Vec::new() },
            });
        }
    }
    if let Some(v) = k.counters.get(Counter::OtherFlops) {
        out.extend(single(k, origin, "FLOPs of unknown precision", "FLOP", Counter::OtherFlops, Some(v), true));
    }
    if let Some(v) = k.counters.get(Counter::IntOps) {
        out.extend(single(k, origin, "integer operations", "op", Counter::IntOps, Some(v), true));
    }
    for l in Level::ALL {
        out.extend(level(k, origin, machine, l));
    }
    if let Some(v) = k.counters.get(Counter::WarpInst) {
        out.extend(single(k, origin, "warp instructions", "inst", Counter::WarpInst, Some(v), true));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(qs: &'a [Quantity], name: &str) -> &'a Quantity {
        qs.iter().find(|q| q.name == name).unwrap_or_else(|| panic!("{name} in {qs:?}"))
    }

    #[test]
    fn nsight_compute_flops_name_each_instruction_and_the_missing_ones() {
        // 10 DADD, 5 DMUL, 100 DFMA: 10 + 5 + 2 × 100 = 215 FP64 FLOPs. FP32: only FFMA, 7 of
        // them = 14 FLOPs, FADD and FMUL missing. 64 FP16 lanes of HFMA = 32 HFMA2 instructions.
        let k = KernelProfile::from_counters(
            "k",
            &[(Counter::Fp64Add, 10.0), (Counter::Fp64Mul, 5.0), (Counter::Fp64Fma, 100.0), (Counter::Fp32Fma, 7.0), (Counter::Fp16Fma, 64.0), (Counter::TimeS, 2e-6)],
        );
        let qs = of_kernel(&k, Origin::Ncu, None);
        let fp64 = find(&qs, "FP64 FLOPs");
        assert_eq!((fp64.value, fp64.formula.as_str()), (Some(215.0), "DADD + DMUL + 2 × DFMA"));
        assert_eq!(fp64.inputs.iter().map(|i| i.value).collect::<Vec<_>>(), vec![10.0, 5.0, 100.0]);
        assert_eq!(fp64.inputs[2].metric, "sm__sass_thread_inst_executed_op_dfma_pred_on.sum");
        let fp32 = find(&qs, "FP32 FLOPs");
        assert_eq!(fp32.value, Some(14.0));
        assert_eq!(fp32.missing, vec!["sm__sass_thread_inst_executed_op_fadd_pred_on.sum", "sm__sass_thread_inst_executed_op_fmul_pred_on.sum"]);
        let fp16 = find(&qs, "FP16 FLOPs");
        assert_eq!((fp16.value, fp16.inputs[0].value), (Some(128.0), 32.0));
        let t = find(&qs, "time");
        assert_eq!((t.value, t.formula.as_str(), t.inputs[0].metric.as_str()), (Some(2e-6), "gpu__time_duration.sum", "gpu__time_duration.sum"));
        // DRAM, L2 and L1 bytes are part of the recipe: named as missing.
        assert_eq!(find(&qs, "DRAM bytes").missing, vec!["dram__bytes.sum"]);
        assert_eq!(find(&qs, "L2 bytes").value, None);
    }

    #[test]
    fn bytes_from_transactions_say_so() {
        // nvprof: 100 DRAM transactions (read + write) = 3200 bytes.
        let k = KernelProfile::from_counters("k", &[(Counter::DramBytes, 3200.0), (Counter::DramTxn, 100.0), (Counter::TimeS, 1e-3)]);
        let q = of_kernel(&k, Origin::Nvprof, None);
        let d = find(&q, "DRAM bytes");
        assert_eq!((d.value, d.inputs[0].value, d.inputs[0].unit), (Some(3200.0), 100.0, "transaction"));
        assert_eq!(d.formula, "(dram_read_transactions + dram_write_transactions) × 32");
        // Nsight Compute's instruction set: sectors, no byte count: 10 sectors × 32 B.
        let k = KernelProfile::from_counters("k", &[(Counter::L2Txn, 10.0), (Counter::TimeS, 1e-3)]);
        let l2 = of_kernel(&k, Origin::Ncu, None).into_iter().find(|q| q.name == "L2 bytes").expect("L2");
        assert_eq!((l2.value, l2.formula.as_str()), (Some(320.0), "(lts__t_sectors_op_{read,write,atom,red}.sum) × 32 B"));
    }
}
