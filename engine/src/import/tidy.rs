//! The tidy CSV: a documented, profiler-neutral format for anyone's own counters
//! (`docs/FORMATS.md`, template `public/examples/tidy-template.csv`).
//!
//! Lines starting with `#` are comments. The header's first column is `kernel`; every other
//! column is optional and one of [`COLUMNS`]. Each row holds TOTALS over `launches` launches
//! (default 1) in base units; empty cells are "not measured". Rows of the same kernel add up.

use super::sink::CounterSink;
use super::table::{cell, find_line, header_starts_with, open_table};
use crate::domain::names;
use super::{parse_number, Imported, Importer};
use crate::domain::counters::Counter;
use crate::error::ImportError;
use crate::domain::profile::Launch;
use std::collections::HashMap;

pub struct Tidy;

/// Most launches one row may stand for: launch counts of many rows and files add up, and
/// stay far below `u64::MAX`.
const MAX_LAUNCHES: f64 = 1e12;

/// Every counter column of the tidy CSV and the counter it fills (besides `kernel`,
/// `launches` and `id`).
pub const COLUMNS: &[(&str, Counter)] = &[
    ("time_s", Counter::TimeS),
    ("cycles", Counter::Cycles),
    ("clock_hz", Counter::ClockHz),
    ("flops", Counter::OtherFlops),
    ("flops_fp64", Counter::Fp64Flops),
    ("flops_fp32", Counter::Fp32Flops),
    ("flops_fp16", Counter::Fp16Flops),
    ("flops_tensor", Counter::TensorFlops),
    ("int_ops", Counter::IntOps),
    ("tensor_inst", Counter::TensorInst),
    ("bytes_l1", Counter::L1Bytes),
    ("bytes_shared", Counter::SharedBytes),
    ("bytes_l2", Counter::L2Bytes),
    ("bytes_dram", Counter::DramBytes),
    ("warp_inst", Counter::WarpInst),
    ("thread_inst", Counter::ThreadInst),
    ("global_txn", Counter::GlobalTxn),
    ("local_txn", Counter::LocalTxn),
    ("shared_txn", Counter::SharedTxn),
    ("l2_txn", Counter::L2Txn),
    ("dram_txn", Counter::DramTxn),
    ("global_ldst_inst", Counter::GlobalLdStInst),
    ("shared_ldst_inst", Counter::SharedLdStInst),
];

/// A cell quoted in a message: at most 40 characters of it (a cell can be megabytes long).
fn shown(cell: &str) -> String {
    const MAX: usize = 40;
    match cell.char_indices().nth(MAX) {
        Some((end, _)) => format!("{:?}", format!("{}…", cell.get(..end).unwrap_or(cell))),
        None => format!("{cell:?}"),
    }
}

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["kernel"])
}

impl Importer for Tidy {
    fn format(&self) -> &'static str {
        "tidy"
    }

    fn detect(&self, text: &str) -> bool {
        text.lines().find(|l| !l.trim().is_empty() && !l.starts_with('#')).is_some_and(is_header)
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no tidy CSV header (kernel,…) found"))?;
        let (cols, records) = open_table(text, line, start);
        let mut plan: Vec<(usize, Counter)> = Vec::new();
        let (mut launches_col, mut id_col) = (None, None);
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, name) in cols.names().iter().enumerate() {
            if let Some(first) = seen.insert(name.as_str(), i) {
                return Err(ImportError::new(file, Some(line), format!("column {} appears twice (columns {} and {})", shown(name), first + 1, i + 1))
                    .with_hint("keep one column of each name"));
            }
            if i == 0 {
                continue;
            }
            match name.as_str() {
                "launches" => launches_col = Some(i),
                "id" => id_col = Some(i),
                n => match COLUMNS.iter().find(|(c, _)| *c == n) {
                    Some(&(_, counter)) => plan.push((i, counter)),
                    None => {
                        let known: Vec<&str> = COLUMNS.iter().map(|c| c.0).collect();
                        return Err(ImportError::new(file, Some(line), format!("unknown tidy CSV column {}", shown(n)))
                            .with_hint(format!("columns are kernel, launches, id, {}", known.join(", "))));
                    }
                },
            }
        }
        let mut launches = Vec::new();
        for rec in records {
            let kernel = cell(&rec, 0).trim();
            if kernel.is_empty() || kernel.starts_with('#') {
                continue;
            }
            let count = match launches_col.map(|c| cell(&rec, c).trim()).filter(|t| !t.is_empty()) {
                None => 1,
                Some(t) => parse_number(t).filter(|v| (1.0..=MAX_LAUNCHES).contains(v) && v.fract() == 0.0).ok_or_else(|| {
                    ImportError::new(file, Some(rec.line), format!("\"launches\" must be a whole number from 1 to 10^12, found {}", shown(t)))
                })? as u64,
            };
            let id = id_col.and_then(|c| parse_number(cell(&rec, c))).filter(|v| *v >= 0.0).map(|v| v as u64);
            let mut sink = CounterSink::default();
            for &(i, counter) in &plan {
                let t = cell(&rec, i).trim();
                if t.is_empty() {
                    continue;
                }
                // A time written as NaN or inf is kept, so that the dataset's check
                // (`limits::drop_unusable_times`) names the kernel in a warning.
                let unusable_time = || matches!(counter, Counter::TimeS | Counter::Cycles | Counter::ClockHz).then(|| t.parse::<f64>().ok()).flatten();
                let v = parse_number(t).or_else(unusable_time).ok_or_else(|| {
                    ImportError::new(file, Some(rec.line), format!("expected a number in column {}, found {}", shown(cols.names().get(i).map_or("", String::as_str)), shown(t)))
                })?;
                // Totals in the file; a launch record holds per-launch values (rates stay as they are).
                let per_launch = if counter.is_rate() { v } else { v / count as f64 };
                sink.put(counter, false, per_launch);
            }
            launches.push(Launch { id, kernel: names::clean(kernel), count, counters: sink.into_counters(), device: None });
        }
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(line), "the tidy CSV has a header but no kernel rows"));
        }
        Ok(Imported { launches, ..Imported::default() })
    }
}
