//! rocprof `--stats` summary (`results.stats.csv`): `"Name","Calls","TotalDurationNs",
//! "AverageNs","Percentage"`, one row per kernel.

use crate::domain::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::table::{cell, find_line, header_starts_with, is_chatter, open_table};
use crate::domain::names;
use crate::import::{parse_number, Imported, Importer};
use crate::domain::profile::Launch;

pub struct RocprofStats;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Name", "Calls", "TotalDurationNs"])
}

impl Importer for RocprofStats {
    fn format(&self) -> &'static str {
        "rocprof-stats"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no rocprof stats header found"))?;
        let (cols, records) = open_table(text, line, start);
        let name = cols.need(file, line, &["Name"])?;
        let calls = cols.need(file, line, &["Calls"])?;
        let total = cols.need(file, line, &["TotalDurationNs"])?;
        let mut launches = Vec::new();
        for rec in records {
            if is_chatter(&rec) {
                continue;
            }
            let count = parse_number(cell(&rec, calls)).filter(|c| *c >= 1.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a number of calls, found {:?}", cell(&rec, calls)))
            })? as u64;
            let mut counters = Counters::default();
            if let Some(ns) = parse_number(cell(&rec, total)) {
                counters.set(Counter::TimeS, ns * 1e-9 / count as f64);
            }
            launches.push(Launch { id: None, kernel: names::clean(cell(&rec, name)), count, counters, device: None });
        }
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(line), "the rocprof stats table has no rows"));
        }
        Ok(Imported { launches, ..Imported::default() })
    }
}
