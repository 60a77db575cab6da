//! nvprof GPU summary as CSV: `nvprof --csv --print-gpu-summary ./app` (or the default
//! summary with `--csv`). Header `"Type","Time(%)","Time","Calls","Avg","Min","Max","Name"`
//! (no `Type` in CUDA ≤ 8), then a units row whose unit differs per column (`,%,s,,us,us,ms,`).
//! Rows of type "API calls", and a second API table after a blank line in old versions, are
//! not GPU work and are ignored.

use super::is_transfer;
use crate::domain::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::table::{cell, find_line, header_starts_with, open_table};
use crate::domain::names;
use crate::import::{parse_number, time_unit_s, Imported, Importer, Transfer};
use crate::domain::profile::Launch;

pub struct NvprofSummary;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Type", "Time(%)", "Time", "Calls"]) || header_starts_with(l, &["Time(%)", "Time", "Calls"])
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
        let (cols, mut records) = open_table(text, line, start);
        let ty = cols.get("Type");
        let time = cols.need(file, line, &["Time"])?;
        let calls = cols.need(file, line, &["Calls"])?;
        let name = cols.need(file, line, &["Name"])?;
        let units = records.next().ok_or_else(|| ImportError::new(file, Some(line + 1), "the nvprof summary has no units row"))?;
        let scale = time_unit_s(cell(&units, time)).ok_or_else(|| {
            ImportError::new(file, Some(units.line), format!("unknown time unit {:?} for \"Time\"", cell(&units, time)))
        })?;

        let mut out = Imported::default();
        for rec in records {
            if rec.fields.iter().all(|f| f.trim().is_empty()) || cell(&rec, 0).starts_with("==") {
                break; // end of the GPU table; an API-calls table may follow
            }
            if ty.is_some_and(|t| cell(&rec, t) == "API calls") {
                continue;
            }
            let count = parse_number(cell(&rec, calls)).filter(|c| *c >= 1.0).map_or(1, |c| c as u64);
            let total_s = parse_number(cell(&rec, time)).map(|t| t * scale);
            let raw = cell(&rec, name);
            if is_transfer(raw) {
                out.transfers.push(Transfer { name: raw.trim().to_string(), count, bytes: None, time_s: total_s });
                continue;
            }
            let mut counters = Counters::default();
            if let Some(t) = total_s {
                counters.set(Counter::TimeS, t / count as f64);
            }
            out.launches.push(Launch { id: None, kernel: names::clean(raw), count, counters, device: None });
        }
        if out.launches.is_empty() && out.transfers.is_empty() {
            return Err(ImportError::new(file, Some(line), "the nvprof summary has no GPU rows"));
        }
        Ok(out)
    }
}
