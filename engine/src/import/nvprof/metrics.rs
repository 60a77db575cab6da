//! nvprof metric table as CSV: `nvprof --csv --metrics flop_count_sp,dram_read_transactions,… ./app`
//! (or `--metrics all`). Header `"Device","Kernel","Invocations","Metric Name",
//! "Metric Description","Min","Max","Avg"` after the `==PID==` preamble; one row per
//! (device, kernel, metric).

use super::apply_metric;
use crate::error::ImportError;
use crate::domain::names;
use crate::import::sink::CounterSink;
use crate::import::table::{cell, find_line, header_starts_with, is_chatter, open_table};
use crate::import::{parse_number, Imported, Importer};
use crate::domain::profile::Launch;
use std::collections::HashMap;

pub struct NvprofMetrics;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Device", "Kernel", "Invocations", "Metric Name"])
}

impl Importer for NvprofMetrics {
    fn format(&self) -> &'static str {
        "nvprof-metrics"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no nvprof metric header found"))?;
        let (cols, records) = open_table(text, line, start);
        let device = cols.need(file, line, &["Device"])?;
        let kernel = cols.need(file, line, &["Kernel"])?;
        let inv = cols.need(file, line, &["Invocations"])?;
        let metric = cols.need(file, line, &["Metric Name"])?;
        let avg = cols.need(file, line, &["Avg"])?;

        let mut order: Vec<(String, u64, CounterSink)> = Vec::new();
        let mut index: HashMap<(String, String), usize> = HashMap::new();
        for rec in records {
            if is_chatter(&rec) || rec.fields.len() <= avg {
                continue;
            }
            let count = parse_number(cell(&rec, inv)).filter(|v| *v >= 1.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a number of invocations, found {:?}", cell(&rec, inv)))
            })? as u64;
            let key = (cell(&rec, device).to_string(), cell(&rec, kernel).to_string());
            let i = match index.get(&key) {
                Some(&i) => i,
                None => {
                    order.push((names::clean(&key.1), count, CounterSink::default()));
                    index.insert(key, order.len() - 1);
                    order.len() - 1
                }
            };
            if let Some(entry) = order.get_mut(i) {
                entry.1 = entry.1.max(count);
                apply_metric(&mut entry.2, cell(&rec, metric), cell(&rec, avg));
            }
        }
        if order.is_empty() {
            return Err(ImportError::new(file, Some(line), "the nvprof metric table has no rows"));
        }
        let launches = order
            .into_iter()
            .map(|(kernel, count, sink)| Launch { id: None, kernel, count, counters: sink.into_counters(), device: None })
            .collect();
        Ok(Imported { launches, ..Imported::default() })
    }
}
