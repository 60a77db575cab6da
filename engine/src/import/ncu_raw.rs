//! Nsight Compute CSV, raw ("wide") page: `ncu --csv --page raw`. One row per launch, one
//! column per metric (hundreds), and a units row under the header (`"","",…,"ns","byte",…`).
//! Metric names and units are translated by [`super::ncu`]'s map, so both pages agree.
//!
//! Hot loop: a column plan (column → counter, scale) is built once from the header and units
//! row; each data cell is then parsed in place without allocating.

use super::hints;
use super::names;
use super::ncu::{is_ncu_header, metric_counter, rate_scale, unit_scale};
use super::sink::CounterSink;
use super::table::{cell, find_line, header_has, is_chatter, open_table};
use super::{parse_number, Imported, Importer};
use crate::counters::Counter;
use crate::error::ImportError;
use crate::profile::Launch;

/// The raw page of `ncu --csv --page raw`.
pub struct NsightComputeRaw;

/// What one column contributes to a launch.
#[derive(Clone, Copy)]
enum Plan {
    Counter { counter: Counter, additive: bool, scale: f64 },
    DramBytesPerS { scale: f64 },
}

impl Importer for NsightComputeRaw {
    fn format(&self) -> &'static str {
        "ncu-raw"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, |l| is_ncu_header(l) && !header_has(l, "Metric Name")).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_ncu_header)
            .ok_or_else(|| ImportError::new(file, None, "no Nsight Compute header line (\"ID\",\"Process ID\",…) found"))?;
        let (cols, mut records) = open_table(text, line, start);
        let id_col = cols.need(file, line, &["ID"])?;
        let kernel_col = cols.need(file, line, &["Kernel Name"])?;

        // The units row: present since Nsight Compute 2019.x; its ID cell is empty.
        let mut first_data = None;
        let mut units: Vec<String> = vec![String::new(); cols.len()];
        if let Some(rec) = records.next() {
            if parse_number(cell(&rec, id_col)).is_none() {
                units = (0..cols.len()).map(|i| cell(&rec, i).to_string()).collect();
            } else {
                first_data = Some(rec);
            }
        }
        let plan: Vec<(usize, Plan)> = cols
            .names()
            .iter()
            .enumerate()
            .filter_map(|(i, name)| {
                let unit = units.get(i).map_or("", String::as_str);
                if name == "dram__bytes.sum.per_second" {
                    return rate_scale(unit).map(|scale| (i, Plan::DramBytesPerS { scale }));
                }
                let (counter, additive) = metric_counter(name)?;
                let scale = unit_scale(unit)?;
                Some((i, Plan::Counter { counter, additive, scale }))
            })
            .collect();

        let mut launches = Vec::new();
        for rec in first_data.into_iter().chain(records) {
            if is_chatter(&rec) {
                continue;
            }
            let id_text = cell(&rec, id_col).trim();
            let id = parse_number(id_text).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a launch number in column \"ID\", found {id_text:?}"))
            })? as u64;
            let mut sink = CounterSink::default();
            let mut dram_rate = None;
            for &(i, p) in &plan {
                let Some(v) = parse_number(cell(&rec, i)) else { continue };
                match p {
                    Plan::Counter { counter, additive, scale } => sink.put(counter, additive, v * scale),
                    Plan::DramBytesPerS { scale } => dram_rate = Some(v * scale),
                }
            }
            if sink.get(Counter::DramBytes).is_none() {
                if let (Some(r), Some(t)) = (dram_rate, sink.get(Counter::TimeS)) {
                    sink.put(Counter::DramBytes, false, r * t);
                }
            }
            launches.push(Launch { id: Some(id), kernel: names::clean(cell(&rec, kernel_col)), count: 1, counters: sink.into_counters() });
        }
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(line), "the Nsight Compute table has a header but no kernel rows")
                .with_hint(hints::ncu_profiled_nothing()));
        }
        Ok(Imported { launches, ..Imported::default() })
    }
}
