//! Nsight Compute CSV, "details" (long) page: one row per (launch, metric), as written by
//! `ncu --csv` (and `nv-nsight-cu-cli --csv`, 2019–2026). The header may be preceded by
//! `==PROF==` lines and the application's own output.

use super::csv::{lines_with_offsets, Reader};
use super::{parse_number, Imported, Importer};
use crate::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::profile::Launch;

/// The details page of `ncu --csv`.
pub struct NsightComputeLong;

const HEADER_PREFIX: &str = "\"ID\",\"Process ID\"";

/// Multiplier from an Nsight Compute unit to the base unit, or `None` if the unit is not a
/// scale of a base unit (`%`, `inst/cycle`, …) and the value must not be used as a counter.
pub fn unit_scale(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "" | "byte" | "inst" | "sector" | "cycle" | "request" | "warp" | "thread" => 1.0,
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

/// The canonical counter a metric measures, by its raw name or its details-page label.
/// Returns the counter and whether several metrics add into it (ld + st, read + write).
pub fn metric_counter(name: &str) -> Option<(Counter, bool)> {
    use Counter::*;
    Some(match name {
        "gpu__time_duration.sum" | "Duration" => (TimeS, false),
        "sm__cycles_elapsed.avg" => (Cycles, false),
        "sm__cycles_elapsed.avg.per_second" => (ClockHz, false),
        "sm__sass_thread_inst_executed_op_dadd_pred_on.sum" => (Fp64Add, false),
        "sm__sass_thread_inst_executed_op_dmul_pred_on.sum" => (Fp64Mul, false),
        "sm__sass_thread_inst_executed_op_dfma_pred_on.sum" => (Fp64Fma, false),
        "sm__sass_thread_inst_executed_op_fadd_pred_on.sum" => (Fp32Add, false),
        "sm__sass_thread_inst_executed_op_fmul_pred_on.sum" => (Fp32Mul, false),
        "sm__sass_thread_inst_executed_op_ffma_pred_on.sum" => (Fp32Fma, false),
        "sm__sass_thread_inst_executed_op_hadd_pred_on.sum" => (Fp16Add, false),
        "sm__sass_thread_inst_executed_op_hmul_pred_on.sum" => (Fp16Mul, false),
        "sm__sass_thread_inst_executed_op_hfma_pred_on.sum" => (Fp16Fma, false),
        "sm__inst_executed_pipe_tensor.sum" => (TensorInst, false),
        "l1tex__t_bytes.sum" => (L1Bytes, false),
        "lts__t_bytes.sum" => (L2Bytes, false),
        "dram__bytes.sum" => (DramBytes, false),
        "dram__bytes_read.sum" | "dram__bytes_write.sum" => (DramBytes, true),
        "smsp__inst_executed.sum" => (WarpInst, false),
        "smsp__thread_inst_executed.sum" => (ThreadInst, false),
        _ => return None,
    })
}

impl Importer for NsightComputeLong {
    fn format(&self) -> &'static str {
        "ncu-details"
    }

    fn detect(&self, text: &str) -> bool {
        lines_with_offsets(text).take(5000).any(|(_, _, l)| {
            let l = l.trim_start_matches('\u{feff}');
            l.starts_with(HEADER_PREFIX) && l.contains("\"Metric Name\"") && l.contains("\"Metric Value\"")
        })
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start) = lines_with_offsets(text)
            .find(|(_, _, l)| l.trim_start_matches('\u{feff}').starts_with(HEADER_PREFIX))
            .map(|(n, off, _)| (n, off))
            .ok_or_else(|| ImportError::new(file, None, "no Nsight Compute header line (\"ID\",\"Process ID\",…) found"))?;
        let mut records = Reader::at(text, start, line);
        let header = records.next().map(|r| r.fields).unwrap_or_default();
        let col = |name: &str| header.iter().position(|h| h.trim_start_matches('\u{feff}') == name);
        let need = |name: &str| {
            col(name).ok_or_else(|| ImportError::new(file, Some(line), format!("the header has no \"{name}\" column")))
        };
        let (id_col, kernel_col) = (need("ID")?, need("Kernel Name")?);
        let (name_col, unit_col, value_col) = (need("Metric Name")?, need("Metric Unit")?, need("Metric Value")?);

        let mut launches: Vec<Launch> = Vec::new();
        for rec in records {
            let f = &rec.fields;
            if f.len() == 1 && (f[0].starts_with("==") || f[0].trim().is_empty()) {
                continue; // ==PROF== lines and blank lines after the table
            }
            if f.len() <= value_col {
                continue; // rule rows and other short rows carry no metric
            }
            let Some((counter, additive)) = metric_counter(&f[name_col]) else { continue };
            let Some(scale) = unit_scale(&f[unit_col]) else { continue };
            let Some(value) = parse_number(&f[value_col]) else { continue };
            let id = f[id_col].trim().parse::<u64>().map_err(|_| {
                ImportError::new(file, Some(rec.line), format!("expected a launch number in column \"ID\", found {:?}", &f[id_col]))
            })?;
            let launch = match launches.last_mut() {
                Some(l) if l.id == Some(id) => l,
                _ => {
                    launches.push(Launch { id: Some(id), kernel: f[kernel_col].to_string(), count: 1, counters: Counters::default() });
                    launches.last_mut().expect("just pushed")
                }
            };
            if additive {
                launch.counters.add(counter, value * scale);
            } else {
                launch.counters.set(counter, value * scale);
            }
        }
        Ok(Imported { launches, ..Imported::default() })
    }
}
