//! nvprof (CUDA ≤ 10, Kepler–Volta) outputs: metric and event tables, GPU trace and GPU
//! summary, each as CSV (`--csv`) or as the default fixed-width text. One file per output
//! kind: [`metrics`], [`trace`], [`summary`] (CSV) and [`text`] (both text forms).
//!
//! Metric and event values are per-invocation averages; a table's record stands for
//! `Invocations` launches, so totals are Avg × Invocations (done by aggregation).
//!
//! **Units.** nvprof prints sizes and throughputs in binary multiples: `KB` = 2^10, `MB` =
//! 2^20, `GB` = 2^30 bytes, and `MB/s`, `GB/s` likewise ([`size_unit_bytes`],
//! [`rate_unit_bytes_per_s`]). Two checks on the real samples (`engine/tests/nvprof_units.rs`):
//! the GPU trace of CUDA's `interval` sample (grid 1024 × block 64) copies one `int` per
//! thread back as `0.250000` MB: 65536 × 4 = 262144 bytes = 0.25 × 2^20 (decimal would print
//! 0.262144); and in the metric table of parboil `sgemm`, `dram_write_throughput`
//! 32.972782 MB/s for 13 × 32 bytes and `l2_read_throughput` 51.757757 GB/s for 20896 × 32
//! bytes give the same kernel duration (12.03 µs) only when GB/MB = 1024. The trace's
//! `Throughput` is `Size` ÷ `Duration` in those same units (128 MB in 316.187384 ms =
//! 404.823236 MB/s).

pub mod metrics;
pub mod summary;
pub mod text;
pub mod trace;

use super::sink::CounterSink;
use super::split_unit;
use crate::domain::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::hints;
use crate::units::SECTOR_BYTES;

/// Bytes per unit of an nvprof size (`B`, `KB`, `MB`, `GB`, `TB`): binary multiples (module
/// doc, "Units").
pub fn size_unit_bytes(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        "TB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    })
}

/// Bytes per second per unit of an nvprof throughput (`B/s`, `KB/s`, `MB/s`, `GB/s`,
/// `TB/s`): the size units per second.
pub fn rate_unit_bytes_per_s(unit: &str) -> Option<f64> {
    size_unit_bytes(unit.trim().strip_suffix("/s")?)
}

/// What an nvprof metric or event adds to a launch: `(counter, multiplier)` pairs, all
/// additive (read + write, load + store). Transactions are 32-byte sectors (Ding & Williams,
/// Table I). Names are nvprof's (`nvprof --query-metrics`, `--query-events`); the Nsight
/// Compute equivalents in the comments are from NVIDIA's "nvprof Transition Guide" table.
///
/// * thread instructions: the event `thread_inst_executed` (all threads of the warp that
///   execute an instruction; `smsp__thread_inst_executed.sum`) → [`Counter::ThreadInst`];
///   the event `not_predicated_off_thread_inst_executed` (`smsp__thread_inst_executed_pred_on.sum`)
///   → [`Counter::ThreadInstPredOn`], the non-predicated ones Ding & Williams' thread dots
///   use (Table I writes them `inst_thread_executed`, read as ThreadInst);
/// * global load/store: warp instructions `inst_executed_global_{loads,stores}`
///   (`smsp__inst_executed_op_global_{ld,st}.sum`) → [`Counter::GlobalLdStInst`]; requests
///   `global_{load,store}_requests` (`l1tex__t_requests_pipe_lsu_mem_global_op_{ld,st}.sum`)
///   → [`Counter::GlobalLdStReq`], kept apart, never added to the instructions. The Kepler
///   events `gld_request`/`gst_request` are not read: they count generic-address loads and
///   stores, which include local and shared memory;
/// * tensor cores: nvprof has no count of tensor work, only `tensor_precision_fu_utilization`
///   and `tensor_int_fu_utilization`, utilisation levels from 0 to 10 ("Low (1)"); they are
///   not FLOPs ([`KernelMetrics::tensor_busy`] only says that tensor cores were used).
pub fn metric_counters(name: &str) -> &'static [(Counter, f64)] {
    use Counter::*;
    match name {
        "flop_count_dp" => &[(Fp64Flops, 1.0)],
        "flop_count_sp" => &[(Fp32Flops, 1.0)],
        "flop_count_hp" => &[(Fp16Flops, 1.0)],
        "dram_read_transactions" | "dram_write_transactions" => &[(DramTxn, 1.0), (DramBytes, SECTOR_BYTES)],
        "l2_read_transactions" | "l2_write_transactions" => &[(L2Txn, 1.0), (L2Bytes, SECTOR_BYTES)],
        "gld_transactions" | "gst_transactions" => &[(GlobalTxn, 1.0)],
        "local_load_transactions" | "local_store_transactions" => &[(LocalTxn, 1.0)],
        "shared_load_transactions" | "shared_store_transactions" => &[(SharedTxn, 1.0)],
        "inst_executed" => &[(WarpInst, 1.0)],
        "inst_executed_global_loads" | "inst_executed_global_stores" => &[(GlobalLdStInst, 1.0)],
        "global_load_requests" | "global_store_requests" => &[(GlobalLdStReq, 1.0)],
        "inst_executed_shared_loads" | "inst_executed_shared_stores" => &[(SharedLdStInst, 1.0)],
        "inst_thread_executed" | "thread_inst_executed" => &[(ThreadInst, 1.0)],
        "not_predicated_off_thread_inst_executed" => &[(ThreadInstPredOn, 1.0)],
        _ => &[],
    }
}

/// One kernel's metrics and events as read, until they become its counters.
#[derive(Default)]
pub struct KernelMetrics {
    sink: CounterSink,
    /// Names already applied: a file with both an event and a metric table can list
    /// `inst_executed` in each (it is both); the second is the same count, not more.
    seen: Vec<String>,
    /// A DRAM throughput was printed (`dram_read_throughput`): a rate, not bytes.
    pub dram_rate: bool,
    /// `tensor_precision_fu_utilization` above idle: tensor cores worked, uncounted.
    pub tensor_busy: bool,
}

impl KernelMetrics {
    /// Adds metric or event `name`'s average `cell` (as printed: `68935680`, `1.2e+06`).
    /// Values with a unit (`%`, `GB/s`, `Low (1)`) are rates or ratios, not counts.
    pub fn apply(&mut self, name: &str, cell: &str) {
        if name.starts_with("dram_") && name.ends_with("_throughput") {
            self.dram_rate |= split_unit(cell).is_some_and(|(_, u)| rate_unit_bytes_per_s(u).is_some());
        }
        if name == "tensor_precision_fu_utilization" || name == "tensor_int_fu_utilization" {
            self.tensor_busy |= utilization_level(cell).is_some_and(|l| l > 0);
        }
        let targets = metric_counters(name);
        if targets.is_empty() || self.seen.iter().any(|s| s == name) {
            return;
        }
        let Some((v, unit)) = split_unit(cell) else { return };
        if !unit.is_empty() {
            return;
        }
        self.seen.push(name.to_string());
        for &(c, k) in targets {
            self.sink.put(c, true, v * k);
        }
    }

    pub fn into_counters(self) -> Counters {
        self.sink.into_counters()
    }
}

/// The level in nvprof's utilisation cells: `Low (1)` → 1, `Idle (0)` → 0, `Max (10)` → 10.
pub fn utilization_level(cell: &str) -> Option<u32> {
    let inner = cell.trim().strip_suffix(')')?.rsplit_once('(')?.1;
    inner.trim().parse().ok()
}

/// What a file's metric tables could not give, as warnings: DRAM throughputs without DRAM
/// transactions (a rate is not a byte count: bytes would be rate × duration, and the average
/// of per-invocation rates × the average duration is not the average of their products), and
/// tensor-core use that nvprof does not count.
pub fn metric_warnings<'a>(file: &str, kernels: impl Iterator<Item = &'a KernelMetrics> + Clone) -> Vec<ImportError> {
    let mut out = Vec::new();
    let rate_only = kernels.clone().filter(|k| k.dram_rate && k.sink.get(Counter::DramBytes).is_none()).count();
    if rate_only > 0 {
        out.push(
            ImportError::new(
                file,
                None,
                format!(
                    "{rate_only} kernel(s) have dram_*_throughput (a rate in GB/s of 2^30 bytes) but no DRAM transactions: their DRAM bytes are not measured"
                ),
            )
            .with_hint(hints::nvprof_command(hints::NVPROF_BYTES)),
        );
    }
    let tensor = kernels.filter(|k| k.tensor_busy).count();
    if tensor > 0 {
        out.push(ImportError::new(
            file,
            None,
            format!(
                "{tensor} kernel(s) used tensor cores (tensor_precision_fu_utilization above idle), which nvprof does not count: their tensor FLOPs are not measured; Nsight Compute counts them (sm__inst_executed_pipe_tensor.sum, sm__ops_path_tensor_*)"
            ),
        ));
    }
    out
}

/// Whether a kernel-name cell is a copy or memset (`[CUDA memcpy HtoD]`, `[CUDA memset]`).
pub fn is_transfer(name: &str) -> bool {
    let n = name.trim();
    n.starts_with("[CUDA ") || n.starts_with("[Unified Memory")
}

/// The device a text line names: `Device "GeForce GTX 1070 (0)"` (metric and event tables,
/// per-GPU summaries), also after nvprof's `==PID== ` prefix.
pub fn device_line(line: &str) -> Option<&str> {
    let t = line.trim();
    let t = match t.strip_prefix("==") {
        Some(rest) => rest.split_once("==").map_or(rest, |(_, r)| r).trim_start(),
        None => t,
    };
    let name = t.strip_prefix("Device ")?.trim();
    let name = name.strip_prefix('"')?.strip_suffix('"')?;
    (!name.trim().is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_units() {
        // 0.25 MB = 262144 bytes; 404.823236 MB/s = 424,491,… B/s.
        assert_eq!(size_unit_bytes("MB"), Some(1_048_576.0));
        assert_eq!(rate_unit_bytes_per_s("GB/s"), Some(1_073_741_824.0));
        assert_eq!(rate_unit_bytes_per_s("B/s"), Some(1.0));
        assert_eq!(rate_unit_bytes_per_s("MB"), None);
        assert_eq!(size_unit_bytes("MiB"), None);
    }

    #[test]
    fn a_name_in_both_tables_counts_once_and_parts_add() {
        let mut k = KernelMetrics::default();
        k.apply("inst_executed", "130000");
        k.apply("inst_executed", "130000");
        k.apply("dram_read_transactions", "10");
        k.apply("dram_write_transactions", "3");
        k.apply("dram_read_throughput", "64.406GB/s");
        k.apply("tensor_precision_fu_utilization", "Idle (0)");
        assert!(k.dram_rate && !k.tensor_busy);
        let c = k.into_counters();
        assert_eq!(c.get(Counter::WarpInst), Some(130_000.0));
        // (10 + 3) sectors × 32 bytes
        assert_eq!(c.get(Counter::DramBytes), Some(416.0));
    }

    #[test]
    fn device_lines_and_levels() {
        assert_eq!(device_line("Device \"GeForce GTX 1070 (0)\""), Some("GeForce GTX 1070 (0)"));
        assert_eq!(device_line("==1234== Device \"Tesla K80 (1)\""), Some("Tesla K80 (1)"));
        assert_eq!(device_line("    Kernel: k"), None);
        assert_eq!(utilization_level("Low (2)"), Some(2));
        assert_eq!(utilization_level("Max (10)"), Some(10));
        assert_eq!(utilization_level("12.5%"), None);
    }
}
