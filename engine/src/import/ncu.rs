//! Nsight Compute CSV, "details" (long) page: one row per (launch, metric), as written by
//! `ncu --csv` / `ncu --csv --metrics …` (and `nv-nsight-cu-cli --csv`, 2019–2026).
//!
//! Variants handled: with or without `"Kernel Time"`, `Block Size`/`Grid Size`/`Device`/`CC`
//! columns, and the five rule columns (`Rule Name` … `Estimated Speedup`), which metric rows
//! of 2024+ versions simply omit; `==PROF==` lines and the application's stdout before the
//! header; thousands separators (`4,963,609,951.19`); BOM; CRLF. Columns are found by name.
//!
//! The metric → counter map below is shared with the raw page ([`super::ncu_raw`]).

use super::hints;
use super::names;
use super::sink::CounterSink;
use super::table::{cell, find_line, header_has, header_starts_with, is_chatter, open_table};
use super::{parse_number, Imported, Importer};
use crate::counters::Counter;
use crate::error::ImportError;
use crate::profile::Launch;

/// The details page of `ncu --csv`.
pub struct NsightComputeLong;

/// Whether `line` is the header of an Nsight Compute table (details or raw page).
pub fn is_ncu_header(line: &str) -> bool {
    header_starts_with(line, &["ID", "Process ID"]) && header_has(line, "Kernel Name")
}

/// Multiplier from an Nsight Compute unit to the base unit, or `None` if the unit is not a
/// scale of a base unit (`%`, `inst/cycle`, …) and the value must not be used as a counter.
pub fn unit_scale(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "" | "byte" | "inst" | "sector" | "cycle" | "request" | "warp" | "thread" | "wavefront" => 1.0,
        "Kbyte" | "KB" => 1e3,
        "Mbyte" | "MB" => 1e6,
        "Gbyte" | "GB" => 1e9,
        "Tbyte" | "TB" => 1e12,
        "Kinst" => 1e3,
        "Minst" => 1e6,
        "Ginst" => 1e9,
        "Kcycle" => 1e3,
        "Mcycle" => 1e6,
        "Gcycle" => 1e9,
        "Ksector" => 1e3,
        "Msector" => 1e6,
        "Gsector" => 1e9,
        "Krequest" => 1e3,
        "Mrequest" => 1e6,
        "ns" | "nsecond" => 1e-9,
        "us" | "usecond" => 1e-6,
        "ms" | "msecond" => 1e-3,
        "s" | "second" => 1.0,
        "hz" | "cycle/second" => 1.0,
        "khz" | "Khz" | "cycle/msecond" => 1e3,
        "mhz" | "Mhz" | "cycle/usecond" => 1e6,
        "ghz" | "Ghz" | "cycle/nsecond" => 1e9,
        _ => return None,
    })
}

/// Bytes per second per unit of a throughput (`byte/s`, `Gbyte/second`, …), for the
/// details page's "Memory Throughput" in bytes/s.
pub fn rate_scale(unit: &str) -> Option<f64> {
    let (bytes, per) = unit.trim().split_once('/')?;
    let b = match bytes {
        "byte" => 1.0,
        "Kbyte" => 1e3,
        "Mbyte" => 1e6,
        "Gbyte" => 1e9,
        "Tbyte" => 1e12,
        _ => return None,
    };
    let s = match per {
        "s" | "second" => 1.0,
        "msecond" => 1e-3,
        "usecond" => 1e-6,
        "nsecond" => 1e-9,
        _ => return None,
    };
    Some(b / s)
}

/// The canonical counter a metric measures, by its raw name (any generation: the NERSC
/// hierarchical-roofline set, the Instruction Roofline set of Ding & Williams, newer
/// `dram__bytes_op_*` names) or an unambiguous details-page label. Returns the counter and
/// whether several metrics add into it (ld + st, read + write).
pub fn metric_counter(name: &str) -> Option<(Counter, bool)> {
    use Counter::*;
    Some(match name {
        "gpu__time_duration.sum" | "gpu__time_duration" | "Duration" => (TimeS, false),
        "sm__cycles_elapsed.avg" | "Elapsed Cycles" => (Cycles, false),
        "sm__cycles_elapsed.avg.per_second" | "SM Frequency" => (ClockHz, false),
        "sm__sass_thread_inst_executed_op_dadd_pred_on.sum" => (Fp64Add, false),
        "sm__sass_thread_inst_executed_op_dmul_pred_on.sum" => (Fp64Mul, false),
        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum" => (Fp64Fma, false),
        "sm__sass_thread_inst_executed_op_fadd_pred_on.sum" => (Fp32Add, false),
        "sm__sass_thread_inst_executed_op_fmul_pred_on.sum" => (Fp32Mul, false),
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum" => (Fp32Fma, false),
        "sm__sass_thread_inst_executed_op_hadd_pred_on.sum" => (Fp16Add, false),
        "sm__sass_thread_inst_executed_op_hmul_pred_on.sum" => (Fp16Mul, false),
        "sm__sass_thread_inst_executed_op_hfma_pred_on.sum" => (Fp16Fma, false),
        "sm__inst_executed_pipe_tensor.sum" | "smsp__inst_executed_pipe_tensor.sum" => (TensorInst, false),
        "l1tex__t_bytes.sum" => (L1Bytes, false),
        "lts__t_bytes.sum" => (L2Bytes, false),
        "dram__bytes.sum" => (DramBytes, false),
        "dram__bytes_read.sum" | "dram__bytes_write.sum" | "dram__bytes_op_read.sum" | "dram__bytes_op_write.sum" => {
            (DramBytes, true)
        }
        "smsp__inst_executed.sum" | "Executed Instructions" => (WarpInst, false),
        "smsp__thread_inst_executed.sum" => (ThreadInst, false),
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum" | "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum" => (GlobalTxn, true),
        "smsp__inst_executed_op_global_ld.sum"
        | "smsp__inst_executed_op_global_st.sum"
        | "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
        | "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum" => (GlobalLdStInst, true),
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum" | "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" => {
            (SharedTxn, true)
        }
        "smsp__inst_executed_op_shared_ld.sum" | "smsp__inst_executed_op_shared_st.sum" => (SharedLdStInst, true),
        "lts__t_sectors_op_read.sum" | "lts__t_sectors_op_write.sum" | "lts__t_sectors_op_atom.sum" | "lts__t_sectors_op_red.sum" => {
            (L2Txn, true)
        }
        "dram__sectors_read.sum" | "dram__sectors_write.sum" => (DramTxn, true),
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum" | "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum" => (LocalTxn, true),
        _ => return None,
    })
}

/// One launch being read: its counters, and the details page's DRAM throughput (bytes/s),
/// kept aside until the end of the launch.
struct Pending {
    id: u64,
    kernel: String,
    sink: CounterSink,
    dram_bytes_per_s: Option<f64>,
}

impl Pending {
    /// The details page (default `--set`) has no DRAM byte count, but its "Memory Workload
    /// Analysis" section gives "Memory Throughput" in byte/s (= `dram__bytes.sum.per_second`);
    /// × "Duration" it is the DRAM bytes moved. Used only when no byte counter was read.
    fn finish(mut self) -> Launch {
        if self.sink.get(Counter::DramBytes).is_none() {
            if let (Some(rate), Some(t)) = (self.dram_bytes_per_s, self.sink.get(Counter::TimeS)) {
                self.sink.put(Counter::DramBytes, false, rate * t);
            }
        }
        Launch { id: Some(self.id), kernel: self.kernel, count: 1, counters: self.sink.into_counters() }
    }
}

impl Importer for NsightComputeLong {
    fn format(&self) -> &'static str {
        "ncu-details"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, |l| is_ncu_header(l) && header_has(l, "Metric Name") && header_has(l, "Metric Value")).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_ncu_header)
            .ok_or_else(|| ImportError::new(file, None, "no Nsight Compute header line (\"ID\",\"Process ID\",…) found"))?;
        let (cols, records) = open_table(text, line, start);
        let id_col = cols.need(file, line, &["ID"])?;
        let kernel_col = cols.need(file, line, &["Kernel Name"])?;
        let name_col = cols.need(file, line, &["Metric Name"])?;
        let unit_col = cols.need(file, line, &["Metric Unit"])?;
        let value_col = cols.need(file, line, &["Metric Value"])?;
        let section_col = cols.get("Section Name");

        let mut launches: Vec<Launch> = Vec::new();
        let mut pending: Option<Pending> = None;
        let mut rows = 0usize;
        for rec in records {
            if is_chatter(&rec) || rec.fields.len() <= value_col {
                continue; // ==PROF== lines, blank lines, rule rows without a metric
            }
            rows += 1;
            let metric = cell(&rec, name_col);
            let id_text = cell(&rec, id_col).trim();
            let id = parse_number(id_text).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a launch number in column \"ID\", found {id_text:?}"))
            })? as u64;
            if pending.as_ref().is_none_or(|p| p.id != id) {
                if let Some(p) = pending.take() {
                    launches.push(p.finish());
                }
                pending = Some(Pending {
                    id,
                    kernel: names::clean(cell(&rec, kernel_col)),
                    sink: CounterSink::default(),
                    dram_bytes_per_s: None,
                });
            }
            let Some(p) = pending.as_mut() else { continue };
            let unit = cell(&rec, unit_col);
            if metric == "Memory Throughput" {
                if section_col.is_some_and(|s| cell(&rec, s) == "Memory Workload Analysis") {
                    p.dram_bytes_per_s = rate_scale(unit).zip(parse_number(cell(&rec, value_col))).map(|(s, v)| s * v);
                }
                continue;
            }
            let Some((counter, additive)) = metric_counter(metric) else { continue };
            let Some(scale) = unit_scale(unit) else { continue };
            let Some(value) = parse_number(cell(&rec, value_col)) else { continue };
            p.sink.put(counter, additive, value * scale);
        }
        if let Some(p) = pending.take() {
            launches.push(p.finish());
        }
        if rows == 0 {
            return Err(ImportError::new(file, Some(line), "the Nsight Compute table has a header but no kernel rows")
                .with_hint(hints::ncu_profiled_nothing()));
        }
        Ok(Imported { launches, ..Imported::default() })
    }
}
