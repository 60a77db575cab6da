//! Long-form counter tables: one row per (dispatch, counter).
//!
//! * rocprofv3 counter collection, CSV (`rocprofv3 --pmc SQ_WAVES … --output-format csv --
//!   ./app`, file `<pid>_counter_collection.csv`): `"Correlation_Id","Dispatch_Id","Agent_Id",…,
//!   "Kernel_Name",…,"Counter_Name","Counter_Value","Start_Timestamp","End_Timestamp"` (schema as
//!   documented in the ROCprofiler-SDK rocprofv3 guide; the timestamps are absent in early
//!   versions). `Agent_Id` (`"Agent 4"`, or a number) is read as a device named "GPU 4".
//! * rocprof-compute's `pmc_perf.csv` of a workload collected through rocpd (ROCm 7.0:
//!   `rocprof-compute profile --format-rocprof-output rocpd`): the `counters_collection` view
//!   written out as `GPU_ID,Dispatch_ID,…,Kernel_Name,Start_Timestamp,End_Timestamp,Kernel_ID,
//!   Counter_Name,Counter_Value` (`ROCm/rocm-systems`, `projects/rocprofiler-compute/src/utils/
//!   rocpd_data.py`, `COUNTERS_COLLECTION_QUERY`). rocprof-compute collects its counters in
//!   passes and **re-runs the kernel in each pass**: a dispatch's rows come in blocks, one block
//!   per pass, each block with that run's own `Start_Timestamp`/`End_Timestamp` (the MI300X
//!   vcopy workload of rocprof-compute's tests: 12 passes per dispatch, the blocks of the three
//!   dispatches interleaved).
//!
//! A dispatch is every row with its (device, dispatch id), wherever in the file. Its time is
//! the **mean duration over its passes** (the distinct start/end pairs), since each pass timed
//! the same work once: the sum would count the kernel once per pass. (rocprof-compute itself
//! takes the median over rows, `process_rocpd_csv`; with a few passes the mean keeps every
//! pass's time.) A counter named twice for one dispatch is read once, its first value. Each
//! dispatch is one launch.

use super::{AmdAccum, AssumedSizes};
use crate::domain::counters::Counter;
use crate::domain::names;
use crate::domain::profile::Launch;
use crate::error::ImportError;
use crate::import::device_list::DeviceList;
use crate::import::sink::CounterSink;
use crate::import::table::{cell, find_line, header_has, is_chatter, open_table};
use crate::import::{parse_number, Imported, Importer};
use std::collections::{HashMap, HashSet};

pub struct RocprofV3Counters;

fn is_header(l: &str) -> bool {
    header_has(l, "Counter_Name") && header_has(l, "Counter_Value") && header_has(l, "Kernel_Name")
}

/// One dispatch as its rows arrive.
struct Pending {
    id: u64,
    device: Option<u16>,
    kernel: String,
    /// The passes' (start, end) timestamps seen, as written (ns), in order of appearance.
    passes: Vec<(String, String)>,
    counters_seen: HashSet<String>,
    acc: AmdAccum,
}

impl Pending {
    /// The mean pass duration, ns (module doc); `None` without timestamps.
    fn time_ns(&self) -> Option<f64> {
        let durations: Vec<f64> = self.passes.iter().filter_map(|(b, e)| duration_ns(b, e)).collect();
        (!durations.is_empty()).then(|| durations.iter().sum::<f64>() / durations.len() as f64)
    }

    fn finish(self, assumed: &mut AssumedSizes) -> Launch {
        let mut sink = CounterSink::default();
        if let Some(ns) = self.time_ns().filter(|t| *t > 0.0) {
            sink.put(Counter::TimeS, false, ns * 1e-9);
        }
        assumed.note(&self.acc.finish(64.0, &mut sink));
        Launch { id: Some(self.id), kernel: self.kernel, count: 1, counters: sink.into_counters(), device: self.device }
    }
}

/// End − start, ns. rocpd's timestamps are nanoseconds since the epoch (1.3e16 for the MI300X
/// workload), past the integers an `f64` holds exactly (2^53 ≈ 9.0e15): written as integers,
/// they are subtracted as integers.
fn duration_ns(start: &str, end: &str) -> Option<f64> {
    match (start.parse::<i128>(), end.parse::<i128>()) {
        (Ok(b), Ok(e)) => Some((e - b) as f64),
        _ => Some(parse_number(end)? - parse_number(start)?),
    }
}

impl Importer for RocprofV3Counters {
    fn format(&self) -> &'static str {
        "rocprofv3-counters"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no rocprofv3 header found"))?;
        let (cols, records) = open_table(text, line, start);
        let id = cols.need(file, line, &["Dispatch_Id", "Correlation_Id"])?;
        let kernel = cols.need(file, line, &["Kernel_Name"])?;
        let name = cols.need(file, line, &["Counter_Name"])?;
        let value = cols.need(file, line, &["Counter_Value"])?;
        let (begin, end) = (cols.get("Start_Timestamp"), cols.get("End_Timestamp"));
        let agent = cols.any(&["Agent_Id", "GPU_ID"]);
        let mut devices = DeviceList::default();
        let mut pending: Vec<Pending> = Vec::new();
        let mut by_key: HashMap<(Option<u16>, u64), usize> = HashMap::new();
        for rec in records {
            if is_chatter(&rec) || rec.fields.len() <= value {
                continue;
            }
            let dispatch = parse_number(cell(&rec, id)).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a dispatch number, found {:?}", cell(&rec, id)))
            })? as u64;
            let device = agent.and_then(|a| devices.numbered(cell(&rec, a)));
            let i = *by_key.entry((device, dispatch)).or_insert_with(|| {
                pending.push(Pending {
                    id: dispatch,
                    device,
                    kernel: names::clean(cell(&rec, kernel)),
                    passes: Vec::new(),
                    counters_seen: HashSet::new(),
                    acc: AmdAccum::default(),
                });
                pending.len() - 1
            });
            let Some(p) = pending.get_mut(i) else { continue };
            if let Some((b, e)) = begin.zip(end).map(|(b, e)| (cell(&rec, b).trim(), cell(&rec, e).trim())) {
                if !p.passes.iter().any(|(pb, pe)| pb == b && pe == e) {
                    p.passes.push((b.to_string(), e.to_string()));
                }
            }
            let counter = cell(&rec, name).trim();
            if let Some(v) = parse_number(cell(&rec, value)) {
                if p.counters_seen.insert(counter.to_string()) {
                    p.acc.put_named(counter, v);
                }
            }
        }
        if pending.is_empty() {
            return Err(ImportError::new(file, Some(line), "the rocprofv3 counter table has no rows"));
        }
        let mut assumed = AssumedSizes::default();
        let launches = pending.into_iter().map(|p| p.finish(&mut assumed)).collect();
        let warnings = assumed.warning(file).into_iter().collect();
        Ok(Imported { launches, devices: devices.into_devices(), warnings, ..Imported::default() })
    }
}
