//! nvprof metric and event tables as CSV: `nvprof --csv --metrics flop_count_sp,… ./app`
//! (or `--metrics all`), `nvprof --csv --events thread_inst_executed ./app`, or both in one run.
//! After the `==PID==` preamble, each table follows its `==PID== Metric result:` /
//! `Event result:` line:
//!
//! * metrics: `"Device","Kernel","Invocations","Metric Name","Metric Description","Min","Max","Avg"`;
//! * events: `"Device","Kernel","Invocations","Event Name","Min","Max","Avg","Total"` (the
//!   layout Ding & Williams' collection scripts read, `nanding0701/Instruction_roofline_scripts`
//!   `merge.sh`: name in field 7, Avg in field 10 of a row whose kernel has 3 commas).
//!
//! One row per (device, kernel, metric). `Device` is the GPU as nvprof names it, with its
//! index: "GeForce GTX 760 (1)" ([`crate::domain::Device::named`] drops the index). A name in
//! both tables (`inst_executed` is a metric and an event) counts once.

use super::{metric_warnings, KernelMetrics};
use crate::domain::names;
use crate::domain::profile::Launch;
use crate::error::ImportError;
use crate::import::device_list::DeviceList;
use crate::import::table::{cell, find_line, header_starts_with, is_chatter, open_table, Columns};
use crate::import::{parse_number, Imported, Importer};
use std::collections::HashMap;

pub struct NvprofMetrics;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Device", "Kernel", "Invocations", "Metric Name"]) || header_starts_with(l, &["Device", "Kernel", "Invocations", "Event Name"])
}

/// The columns of the table being read (a file may hold an event and a metric table).
struct Layout {
    device: usize,
    kernel: usize,
    invocations: usize,
    name: usize,
    avg: usize,
}

impl Layout {
    fn of(file: &str, line: usize, cols: &Columns) -> Result<Layout, ImportError> {
        Ok(Layout {
            device: cols.need(file, line, &["Device"])?,
            kernel: cols.need(file, line, &["Kernel"])?,
            invocations: cols.need(file, line, &["Invocations"])?,
            name: cols.need(file, line, &["Metric Name", "Event Name"])?,
            avg: cols.need(file, line, &["Avg"])?,
        })
    }
}

/// One kernel on one device: its record.
struct Entry {
    kernel: String,
    device: Option<u16>,
    invocations: u64,
    metrics: KernelMetrics,
}

impl Importer for NvprofMetrics {
    fn format(&self) -> &'static str {
        "nvprof-metrics"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no nvprof metric or event header found"))?;
        let (cols, records) = open_table(text, line, start);
        let mut layout = Layout::of(file, line, &cols)?;
        let mut devices = DeviceList::default();
        let mut entries: Vec<Entry> = Vec::new();
        let mut index: HashMap<(String, String), usize> = HashMap::new();
        for rec in records {
            if is_chatter(&rec) {
                continue;
            }
            // The header of the next table (events, then metrics): its own columns.
            if rec.fields.get(0).is_some_and(|f| f.trim() == "Device") && rec.fields.get(1).is_some_and(|f| f.trim() == "Kernel") {
                layout = Layout::of(file, rec.line, &Columns::new(&rec))?;
                continue;
            }
            if rec.fields.len() <= layout.avg {
                continue;
            }
            let count = parse_number(cell(&rec, layout.invocations)).filter(|v| *v >= 1.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a number of invocations, found {:?}", cell(&rec, layout.invocations)))
            })? as u64;
            let key = (cell(&rec, layout.device).to_string(), cell(&rec, layout.kernel).to_string());
            let i = match index.get(&key) {
                Some(&i) => i,
                None => {
                    let device = devices.named(&key.0);
                    entries.push(Entry { kernel: names::clean(&key.1), device, invocations: count, metrics: KernelMetrics::default() });
                    index.insert(key, entries.len() - 1);
                    entries.len() - 1
                }
            };
            if let Some(e) = entries.get_mut(i) {
                e.invocations = e.invocations.max(count);
                e.metrics.apply(cell(&rec, layout.name).trim(), cell(&rec, layout.avg));
            }
        }
        if entries.is_empty() {
            return Err(ImportError::new(file, Some(line), "the nvprof metric table has no rows"));
        }
        let warnings = metric_warnings(file, entries.iter().map(|e| &e.metrics));
        let launches = entries
            .into_iter()
            .map(|e| Launch { id: None, kernel: e.kernel, count: e.invocations, counters: e.metrics.into_counters(), device: e.device })
            .collect();
        Ok(Imported { launches, devices: devices.into_devices(), warnings, ..Imported::default() })
    }
}
