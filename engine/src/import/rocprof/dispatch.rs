//! rocprof dispatch tables: one row per kernel dispatch.
//!
//! * rocprof v1 counter CSV (`rocprof -i input.txt`): unquoted header `Index,KernelName,gpu-id,…,
//!   FETCH_SIZE,WRITE_SIZE,…` (counters; `--timestamp on` adds `BeginNs,EndNs`);
//! * rocprof v1 `--stats` trace `results.csv`: quoted header with `DispatchNs,BeginNs,EndNs,
//!   CompleteNs,DurationNs`;
//! * rocprofv2 / Omniperf / rocprof-compute tables (`pmc_perf.csv`, `SQ_*.csv`):
//!   `Dispatch_ID,…,Kernel_Name,…,Start_Timestamp,End_Timestamp` and thousands of counter columns;
//! * rocprofv3 kernel trace (`kernel_trace.csv`): `Correlation_Id`/`Dispatch_Id`, `Kernel_Name`,
//!   `Start_Timestamp`, `End_Timestamp`.
//!
//! Time is `DurationNs`, else end − start (ns). Counters are translated by [`super::AmdAccum`].
//! The GPU is an index only (`gpu-id` in v1, `GPU_ID` in v2/rocprof-compute, `Agent_Id` in
//! v3), read as a device named "GPU N".

use super::{classify, AmdAccum, AssumedSizes, Generation};
use crate::domain::counters::Counter;
use crate::error::ImportError;
use crate::import::device_list::DeviceList;
use crate::import::sink::CounterSink;
use crate::import::table::{cell, find_line, header_has, is_chatter, open_table};
use crate::domain::names;
use crate::import::{parse_number, Imported, Importer};
use crate::domain::profile::Launch;

pub struct RocprofDispatches;

const ID: &[&str] = &["Index", "Dispatch_ID", "Dispatch_Id", "Correlation_Id"];
const KERNEL: &[&str] = &["KernelName", "Kernel_Name"];

fn is_header(l: &str) -> bool {
    // The kernel column first: two names to look for, not four, on each line detection reads.
    KERNEL.iter().any(|c| header_has(l, c)) && ID.iter().any(|c| header_has(l, c)) && !header_has(l, "Counter_Name")
}

impl Importer for RocprofDispatches {
    fn format(&self) -> &'static str {
        "rocprof-dispatch"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no rocprof header found"))?;
        let (cols, records) = open_table(text, line, start);
        let id = cols.need(file, line, ID)?;
        let kernel = cols.need(file, line, KERNEL)?;
        let duration = cols.get("DurationNs");
        let begin = cols.any(&["BeginNs", "Start_Timestamp"]);
        let end = cols.any(&["EndNs", "End_Timestamp"]);
        let wave = cols.any(&["wave_size", "Wave_Size"]);
        let gpu = cols.any(&["gpu-id", "GPU_ID", "Agent_Id"]);
        let mut devices = DeviceList::default();
        let generation = cols.names().iter().fold(Generation::Unknown, |g, n| g.or(Generation::of(n)));
        let plan: Vec<(usize, usize, bool)> = cols
            .names()
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let (slot, channel, _) = classify(n)?;
                Some((i, slot, channel))
            })
            .collect();
        let mut assumed = AssumedSizes::default();

        let mut launches = Vec::new();
        for rec in records {
            if is_chatter(&rec) || rec.fields.len() <= kernel {
                continue;
            }
            let id_text = cell(&rec, id);
            let dispatch = parse_number(id_text).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a dispatch number, found {id_text:?}"))
            })? as u64;
            let mut sink = CounterSink::default();
            let time_ns = duration.and_then(|d| parse_number(cell(&rec, d))).or_else(|| {
                let b = parse_number(cell(&rec, begin?))?;
                let e = parse_number(cell(&rec, end?))?;
                Some(e - b)
            });
            if let Some(ns) = time_ns.filter(|ns| *ns > 0.0) {
                sink.put(Counter::TimeS, false, ns * 1e-9);
            }
            let mut acc = AmdAccum { generation, ..AmdAccum::default() };
            for &(i, slot, channel) in &plan {
                if let Some(v) = parse_number(cell(&rec, i)) {
                    acc.put(slot, channel, v);
                }
            }
            let wave_size = wave.and_then(|w| parse_number(cell(&rec, w))).filter(|w| *w > 0.0).unwrap_or(64.0);
            assumed.note(&acc.finish(wave_size, &mut sink));
            let device = gpu.and_then(|g| devices.numbered(cell(&rec, g)));
            launches.push(Launch { id: Some(dispatch), kernel: names::clean(cell(&rec, kernel)), count: 1, counters: sink.into_counters(), device });
        }
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(line), "the rocprof table has a header but no dispatch rows"));
        }
        let warnings = assumed.warning(file).into_iter().collect();
        Ok(Imported { launches, devices: devices.into_devices(), warnings, ..Imported::default() })
    }
}
