//! nvprof GPU summary as CSV: `nvprof --csv --print-gpu-summary ./app` (or the default
//! summary with `--csv`). Header `"Type","Time(%)","Time","Calls","Avg","Min","Max","Name"`
//! (no `Type` in CUDA ≤ 8), then a units row whose unit differs per column (`,%,s,,us,us,ms,`).
//! Rows of type "API calls", and the API table after an `==PID== API calls:` line in old
//! versions, are not GPU work and are ignored.
//!
//! Each row totals all calls of a kernel (`Time`) over the run. A `Device "…"` line before a
//! table (nvprof's per-GPU summaries) names the GPU of the rows after it; without one the
//! summary does not say which GPU ran them.

use super::{device_line, is_transfer};
use crate::domain::counters::{Counter, Counters};
use crate::domain::names;
use crate::domain::profile::Launch;
use crate::error::ImportError;
use crate::import::records::Record;
use crate::import::device_list::DeviceList;
use crate::import::table::{cell, find_line, header_starts_with, open_table, Columns};
use crate::import::{parse_number, time_unit_s, Imported, Importer, Transfer};

pub struct NvprofSummary;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Type", "Time(%)", "Time", "Calls"]) || header_starts_with(l, &["Time(%)", "Time", "Calls"])
}

fn is_header_record(rec: &Record) -> bool {
    let first = |i: usize| rec.fields.get(i).map_or("", |f| f.trim());
    (first(0) == "Type" && first(1) == "Time(%)") || (first(0) == "Time(%)" && first(1) == "Time")
}

/// The columns of one summary table and the unit of its `Time` column.
struct Table {
    ty: Option<usize>,
    time: usize,
    calls: usize,
    name: usize,
    /// Seconds per unit of `Time`, from the units row after the header.
    time_scale_s: Option<f64>,
}

impl Table {
    fn of(file: &str, line: usize, cols: &Columns) -> Result<Table, ImportError> {
        Ok(Table { ty: cols.get("Type"), time: cols.need(file, line, &["Time"])?, calls: cols.need(file, line, &["Calls"])?, name: cols.need(file, line, &["Name"])?, time_scale_s: None })
    }
}

/// The GPU named by a `Device "…"` line among the lines before the header, if any.
fn preamble_device(text: &str, header_offset: usize) -> Option<&str> {
    text.get(..header_offset)?.lines().rev().find_map(device_line)
}

impl Importer for NvprofSummary {
    fn format(&self) -> &'static str {
        "nvprof-summary"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no nvprof summary header found"))?;
        let (cols, records) = open_table(text, line, start);
        let mut table = Table::of(file, line, &cols)?;
        let mut devices = DeviceList::default();
        let mut device = preamble_device(text, start).and_then(|d| devices.named(d));
        let mut out = Imported::default();
        for rec in records {
            let first = cell(&rec, 0).trim();
            if rec.fields.iter().all(|f| f.trim().is_empty()) {
                continue;
            }
            if first.starts_with("==") {
                match device_line(first) {
                    Some(d) => {
                        device = devices.named(d);
                        continue;
                    }
                    None => break, // `==PID== API calls:` or another section: the GPU tables end
                }
            }
            if is_header_record(&rec) {
                table = Table::of(file, rec.line, &Columns::new(&rec))?;
                continue;
            }
            let Some(scale) = table.time_scale_s else {
                let unit = cell(&rec, table.time);
                table.time_scale_s = Some(time_unit_s(unit).ok_or_else(|| ImportError::new(file, Some(rec.line), format!("expected the units row, with a time unit (s, ms, us, ns) for \"Time\", found {unit:?}")))?);
                continue;
            };
            if table.ty.is_some_and(|t| cell(&rec, t) == "API calls") {
                continue;
            }
            let count = parse_number(cell(&rec, table.calls)).filter(|c| *c >= 1.0).map_or(1, |c| c as u64);
            let total_s = parse_number(cell(&rec, table.time)).map(|t| t * scale);
            let raw = cell(&rec, table.name);
            if is_transfer(raw) {
                out.transfers.push(Transfer { name: raw.trim().to_string(), count, bytes: None, time_s: total_s });
                continue;
            }
            let mut counters = Counters::default();
            if let Some(t) = total_s {
                counters.set(Counter::TimeS, t / count as f64);
            }
            out.launches.push(Launch { id: None, kernel: names::clean(raw), count, counters, device });
        }
        if out.launches.is_empty() && out.transfers.is_empty() {
            if table.time_scale_s.is_none() {
                return Err(ImportError::new(file, Some(line + 1), "the nvprof summary has no units row"));
            }
            return Err(ImportError::new(file, Some(line), "the nvprof summary has no GPU rows"));
        }
        out.devices = devices.into_devices();
        Ok(out)
    }
}
