//! nvprof GPU trace as CSV: `nvprof --csv --print-gpu-trace ./app`. Header
//! `"Start","Duration",…,"Size","Throughput","Device","Context","Stream","Name"`, then a units
//! row (`ms,ms,,,…,B,B,MB,MB/s,…`) whose units differ per column and per file. One row per
//! kernel launch or copy; kernel names carry a ` [correlation id]` suffix, removed here.
//!
//! `Size` is in binary units (`MB` = 2^20 bytes, module doc of [`super`]); `Throughput` is
//! `Size` ÷ `Duration` and is not read (the transfer keeps bytes and time). `Device` names the
//! GPU of each row ("GeForce GTX 1080 Ti (0)").

use super::{is_transfer, size_unit_bytes};
use crate::domain::counters::{Counter, Counters};
use crate::domain::names;
use crate::domain::profile::Launch;
use crate::error::ImportError;
use crate::import::device_list::DeviceList;
use crate::import::table::{cell, find_line, header_starts_with, is_chatter, open_table};
use crate::import::{parse_number, time_unit_s, Imported, Importer, Transfer};

pub struct NvprofTrace;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["Start", "Duration"])
}

impl Importer for NvprofTrace {
    fn format(&self) -> &'static str {
        "nvprof-trace"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no nvprof trace header found"))?;
        let (cols, mut records) = open_table(text, line, start);
        let dur = cols.need(file, line, &["Duration"])?;
        let name = cols.need(file, line, &["Name"])?;
        let size = cols.get("Size");
        let device = cols.get("Device");
        let units = records.next().ok_or_else(|| ImportError::new(file, Some(line + 1), "the nvprof trace has no units row"))?;
        let dur_scale = time_unit_s(cell(&units, dur)).ok_or_else(|| {
            ImportError::new(file, Some(units.line), format!("unknown time unit {:?} for \"Duration\"", cell(&units, dur)))
        })?;
        let size_unit = size.map(|s| cell(&units, s).trim()).filter(|u| !u.is_empty());
        let size_scale = match size_unit {
            Some(u) => Some(size_unit_bytes(u).ok_or_else(|| ImportError::new(file, Some(units.line), format!("unknown size unit {u:?} for \"Size\" (expected B, KB, MB or GB)")))?),
            None => None,
        };

        let mut out = Imported::default();
        let mut devices = DeviceList::default();
        for rec in records {
            if is_chatter(&rec) || rec.fields.len() <= name {
                continue;
            }
            let time_s = parse_number(cell(&rec, dur)).map(|d| d * dur_scale);
            let raw = cell(&rec, name);
            if is_transfer(raw) {
                let bytes = size.and_then(|s| parse_number(cell(&rec, s))).zip(size_scale).map(|(v, k)| v * k);
                out.transfers.push(Transfer { name: raw.trim().to_string(), count: 1, bytes, time_s });
                continue;
            }
            let mut counters = Counters::default();
            if let Some(t) = time_s {
                counters.set(Counter::TimeS, t);
            }
            let device = device.and_then(|d| devices.named(cell(&rec, d)));
            out.launches.push(Launch { id: None, kernel: names::clean(raw), count: 1, counters, device });
        }
        if out.launches.is_empty() && out.transfers.is_empty() {
            return Err(ImportError::new(file, Some(line), "the nvprof trace has no rows"));
        }
        out.devices = devices.into_devices();
        Ok(out)
    }
}
