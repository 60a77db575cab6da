//! nvprof (CUDA ≤ 10, Kepler–Volta) outputs: metric tables, GPU trace and GPU summary, each
//! as CSV (`--csv`) or as the default fixed-width text. One file per output kind:
//! [`metrics`], [`trace`], [`summary`] (CSV) and [`text`] (both text forms).
//!
//! Metric values are per-invocation averages; a metric table's record stands for
//! `Invocations` launches, so totals are Avg × Invocations (done by aggregation).

pub mod metrics;
pub mod summary;
pub mod text;
pub mod trace;

use super::sink::CounterSink;
use super::split_unit;
use crate::domain::counters::Counter;
use crate::units::SECTOR_BYTES;

/// Bytes per unit of an nvprof size (`B`, `KB`, `MB`, `GB`). nvprof counts sizes in binary
/// multiples: a 128 MiB copy prints as `128.000000` MB (trace sample, memcpy rows).
pub fn size_unit_bytes(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "B" => 1.0,
        "KB" => 1024.0,
        "MB" => 1024.0 * 1024.0,
        "GB" => 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    })
}

/// What an nvprof metric adds to a launch: `(counter, multiplier)` pairs, all additive
/// (read + write, load + store). Transactions are 32-byte sectors (Ding & Williams, Table I).
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
        "inst_executed_shared_loads" | "inst_executed_shared_stores" => &[(SharedLdStInst, 1.0)],
        "inst_thread_executed" | "thread_inst_executed" => &[(ThreadInst, 1.0)],
        _ => &[],
    }
}

/// Adds metric `name`'s average `cell` (as printed: `68935680`, `1.2e+06`) to `sink`.
/// Values with a unit (`%`, `GB/s`, `Low (1)`) are rates or ratios, not counts: skipped.
pub fn apply_metric(sink: &mut CounterSink, name: &str, cell: &str) {
    let targets = metric_counters(name);
    if targets.is_empty() {
        return;
    }
    let Some((v, unit)) = split_unit(cell) else { return };
    if !unit.is_empty() {
        return;
    }
    for &(c, k) in targets {
        sink.put(c, true, v * k);
    }
}

/// Whether a kernel-name cell is a copy or memset (`[CUDA memcpy HtoD]`, `[CUDA memset]`).
pub fn is_transfer(name: &str) -> bool {
    let n = name.trim();
    n.starts_with("[CUDA ") || n.starts_with("[Unified Memory")
}
