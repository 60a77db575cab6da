//! rocprofv3 counter collection, CSV (`rocprofv3 --pmc SQ_WAVES … --output-format csv -- ./app`,
//! file `<pid>_counter_collection.csv`): long format, one row per (dispatch, counter):
//! `"Correlation_Id","Dispatch_Id","Agent_Id",…,"Kernel_Name",…,"Counter_Name","Counter_Value",
//! "Start_Timestamp","End_Timestamp"` (schema as documented in the ROCprofiler-SDK rocprofv3
//! guide; the timestamps are absent in early versions). `Agent_Id` (`"Agent 4"`, or a number)
//! is read as a device named "GPU 4": the file says nothing else about it.

use super::AmdAccum;
use crate::domain::counters::Counter;
use crate::error::ImportError;
use crate::import::device_list::DeviceList;
use crate::import::sink::CounterSink;
use crate::import::table::{cell, find_line, header_has, is_chatter, open_table};
use crate::domain::names;
use crate::import::{parse_number, Imported, Importer};
use crate::domain::profile::Launch;

pub struct RocprofV3Counters;

fn is_header(l: &str) -> bool {
    header_has(l, "Counter_Name") && header_has(l, "Counter_Value") && header_has(l, "Kernel_Name")
}

struct Pending {
    id: u64,
    device: Option<u16>,
    kernel: String,
    time_ns: Option<f64>,
    acc: AmdAccum,
}

impl Pending {
    fn finish(self) -> Launch {
        let mut sink = CounterSink::default();
        if let Some(ns) = self.time_ns.filter(|t| *t > 0.0) {
            sink.put(Counter::TimeS, false, ns * 1e-9);
        }
        self.acc.finish(64.0, &mut sink);
        Launch { id: Some(self.id), kernel: self.kernel, count: 1, counters: sink.into_counters(), device: self.device }
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
        let agent = cols.get("Agent_Id");
        let mut devices = DeviceList::default();
        let mut launches = Vec::new();
        let mut pending: Option<Pending> = None;
        for rec in records {
            if is_chatter(&rec) || rec.fields.len() <= value {
                continue;
            }
            let dispatch = parse_number(cell(&rec, id)).filter(|v| *v >= 0.0).ok_or_else(|| {
                ImportError::new(file, Some(rec.line), format!("expected a dispatch number, found {:?}", cell(&rec, id)))
            })? as u64;
            if pending.as_ref().is_none_or(|p| p.id != dispatch) {
                if let Some(p) = pending.take() {
                    launches.push(p.finish());
                }
                let time_ns = begin.zip(end).and_then(|(b, e)| Some(parse_number(cell(&rec, e))? - parse_number(cell(&rec, b))?));
                let device = agent.and_then(|a| devices.numbered(cell(&rec, a)));
                pending = Some(Pending { id: dispatch, device, kernel: names::clean(cell(&rec, kernel)), time_ns, acc: AmdAccum::default() });
            }
            if let (Some(p), Some(v)) = (pending.as_mut(), parse_number(cell(&rec, value))) {
                p.acc.put_named(cell(&rec, name).trim(), v);
            }
        }
        if let Some(p) = pending.take() {
            launches.push(p.finish());
        }
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(line), "the rocprofv3 counter table has no rows"));
        }
        Ok(Imported { launches, devices: devices.into_devices(), ..Imported::default() })
    }
}
