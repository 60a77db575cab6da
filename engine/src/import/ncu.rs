//! Nsight Compute CSV, "details" (long) page: one row per (launch, metric), as written by
//! `ncu --csv` / `ncu --csv --metrics …` (and `nv-nsight-cu-cli --csv`, 2019–2026).
//!
//! Variants handled: with or without `"Kernel Time"`, `Block Size`/`Grid Size`/`Device`/`CC`
//! columns, and the five rule columns (`Rule Name` … `Estimated Speedup`), which metric rows
//! of 2024+ versions simply omit; `==PROF==` lines and the application's stdout before the
//! header; thousands separators (`4,963,609,951.19`); BOM; CRLF. Columns are found by name.
//!
//! Metric names and units become counters in [`super::ncu_metrics`], shared with the raw page
//! ([`super::ncu_raw`]) and the reports (`ncu_rep`). Read as a
//! stream ([`super::stream`]): rows are split into fields in a reused buffer, and a launch is
//! handed over when its last row has been read.

use super::records::{Fields, Reader};
use super::hints;
use super::ncu_devices::FileDevices;
use super::ncu_metrics::{unknown_units_warning, LaunchMetrics};
use super::stream::{read_whole, Collect, LaunchRef, LaunchSink, NameCache, RecordParser};
use super::table::{find_line, header_has, header_starts_with, is_chatter_fields, Columns, DETECT_LINES};
use super::{parse_number, Imported, Importer};
use crate::error::ImportError;

/// The details page of `ncu --csv`.
pub struct NsightComputeLong;

/// Whether `line` is the header of an Nsight Compute table (details or raw page).
pub fn is_ncu_header(line: &str) -> bool {
    header_starts_with(line, &["ID", "Process ID"]) && header_has(line, "Kernel Name")
}

/// Multiplier from an Nsight Compute unit to the base unit, or `None` if the unit is not a
/// scale of a base unit (`%`, `inst/cycle`, …) and the value must not be used as a counter.
pub fn unit_scale(unit: &str) -> Option<f64> {
    Some(match unit.trim() {
        "" | "byte" | "inst" | "sector" | "cycle" | "request" | "warp" | "thread" | "wavefront" => 1.0,
        "Kbyte" | "KB" => 1e3,
        "Mbyte" | "MB" => 1e6,
        "Gbyte" | "GB" => 1e9,
        "Tbyte" | "TB" => 1e12,
        "Kinst" => 1e3,
        "Minst" => 1e6,
        "Ginst" => 1e9,
        "Kcycle" => 1e3,
        "Mcycle" => 1e6,
        "Gcycle" => 1e9,
        "Ksector" => 1e3,
        "Msector" => 1e6,
        "Gsector" => 1e9,
        "Krequest" => 1e3,
        "Mrequest" => 1e6,
        "ns" | "nsecond" => 1e-9,
        "us" | "usecond" => 1e-6,
        "ms" | "msecond" => 1e-3,
        "s" | "second" => 1.0,
        "hz" | "cycle/second" => 1.0,
        "khz" | "Khz" | "cycle/msecond" => 1e3,
        "mhz" | "Mhz" | "cycle/usecond" => 1e6,
        "ghz" | "Ghz" | "cycle/nsecond" => 1e9,
        _ => return None,
    })
}

/// Bytes per second per unit of a throughput (`byte/s`, `Gbyte/second`, …), for the
/// details page's "Memory Throughput" in bytes/s.
pub fn rate_scale(unit: &str) -> Option<f64> {
    let (bytes, per) = unit.trim().split_once('/')?;
    let b = match bytes {
        "byte" => 1.0,
        "Kbyte" => 1e3,
        "Mbyte" => 1e6,
        "Gbyte" => 1e9,
        "Tbyte" => 1e12,
        _ => return None,
    };
    let s = match per {
        "s" | "second" => 1.0,
        "msecond" => 1e-3,
        "usecond" => 1e-6,
        "nsecond" => 1e-9,
        _ => return None,
    };
    Some(b / s)
}

/// Advances `pos`/`line` over the preamble (profiler chatter, application output) to the
/// Nsight Compute header line: `Ok(true)` when `pos` is at it, `Ok(false)` when the text ends
/// first (more is needed; `pos` at the start of an incomplete line). Like
/// [`super::table::find_line`], only the first [`DETECT_LINES`] lines are searched.
pub(super) fn skip_to_header(file: &str, text: &str, pos: &mut usize, line: &mut usize, last: bool) -> Result<bool, ImportError> {
    let no_header = || ImportError::new(file, None, "no Nsight Compute header line (\"ID\",\"Process ID\",…) found");
    while *pos < text.len() {
        if *line > DETECT_LINES {
            return Err(no_header());
        }
        let rest = text.get(*pos..).unwrap_or("");
        let end = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => *pos + i + 1,
            None if last => text.len(),
            None => return Ok(false),
        };
        let l = text.get(*pos..end).unwrap_or("").trim_end_matches(['\n', '\r']);
        if is_ncu_header(l.trim_start_matches('\u{feff}')) {
            return Ok(true);
        }
        *pos = end;
        *line += 1;
    }
    if last {
        return Err(no_header());
    }
    Ok(false)
}

/// One launch being read: its metrics ([`LaunchMetrics`] turns them into counters and a
/// device at the end of the launch).
struct Pending {
    id: u64,
    /// Index of the kernel's name in the parser's [`NameCache`].
    kernel: usize,
    metrics: LaunchMetrics,
}

/// What the launches of one Nsight Compute file share: their devices, and the metrics whose
/// unit was not understood.
#[derive(Default)]
pub(super) struct FileState {
    pub devices: FileDevices,
    pub unknown_units: Vec<(String, String)>,
}

impl FileState {
    /// Hands a finished launch over, its device found in (or added to) the file's devices,
    /// and empties `metrics` for the next launch.
    pub fn hand_over(&mut self, id: u64, kernel: &str, metrics: &mut LaunchMetrics, out: &mut dyn LaunchSink) {
        let (counters, device) = metrics.take(&mut self.devices, &mut self.unknown_units);
        out.launch(LaunchRef { id: Some(id), kernel, count: 1, counters, device });
    }

    pub fn warnings(&self, file: &str) -> Vec<ImportError> {
        unknown_units_warning(file, &self.unknown_units).into_iter().collect()
    }
}

impl Pending {
    fn finish(mut self, names: &NameCache, state: &mut FileState, out: &mut dyn LaunchSink) {
        state.hand_over(self.id, names.name(self.kernel), &mut self.metrics, out);
    }
}

impl Importer for NsightComputeLong {
    fn format(&self) -> &'static str {
        "ncu-details"
    }

    /// The file's first Nsight Compute header has "Metric Name" and "Metric Value" columns.
    fn detect(&self, text: &str) -> bool {
        find_line(text, is_ncu_header).is_some_and(|(_, _, l)| header_has(l, "Metric Name") && header_has(l, "Metric Value"))
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let mut launches = Collect::default();
        let mut parser = LongParser::new(file);
        read_whole(&mut parser, text, &mut launches)?;
        Ok(Imported { launches: launches.0, devices: parser.devices(), warnings: parser.warnings(), ..Imported::default() })
    }

    fn stream(&self, file: &str) -> Option<Box<dyn RecordParser>> {
        Some(Box::new(LongParser::new(file)))
    }
}

/// Columns of the details page, found by name in its header.
struct LongColumns {
    id: usize,
    kernel: usize,
    metric: usize,
    unit: usize,
    value: usize,
    section: Option<usize>,
    /// The device's index and compute capability, on every row of pages that have them.
    device: Option<usize>,
    cc: Option<usize>,
}

/// The details page's chunk-fed reader: rows of one launch are consecutive, so a launch is
/// handed over when a row of the next one (or the end of the file) arrives.
struct LongParser {
    file: String,
    /// `None` until the header has been read.
    cols: Option<LongColumns>,
    /// The line of the first unconsumed byte.
    line: usize,
    header_line: usize,
    fields: Fields,
    names: NameCache,
    pending: Option<Pending>,
    rows: usize,
    state: FileState,
}

impl LongParser {
    fn new(file: &str) -> Self {
        LongParser {
            file: file.to_string(),
            cols: None,
            line: 1,
            header_line: 0,
            fields: Fields::default(),
            names: NameCache::default(),
            pending: None,
            rows: 0,
            state: FileState::default(),
        }
    }

    /// Reads the header at `pos`: `Ok(None)` when it is not complete yet.
    fn header(&mut self, text: &str, pos: usize, last: bool) -> Result<Option<usize>, ImportError> {
        let mut reader = Reader::at(text, pos, self.line);
        if !last {
            reader = reader.complete_only();
        }
        let Some(header) = reader.next() else { return Ok(None) };
        let c = Columns::new(&header);
        let (file, line) = (self.file.as_str(), header.line);
        self.cols = Some(LongColumns {
            id: c.need(file, line, &["ID"])?,
            kernel: c.need(file, line, &["Kernel Name"])?,
            metric: c.need(file, line, &["Metric Name"])?,
            unit: c.need(file, line, &["Metric Unit"])?,
            value: c.need(file, line, &["Metric Value"])?,
            section: c.get("Section Name"),
            device: c.get("Device"),
            cc: c.get("CC"),
        });
        self.header_line = line;
        self.line = reader.line();
        Ok(Some(reader.pos()))
    }

    /// One (launch, metric) row, in `self.fields`.
    fn row(&mut self, line: usize, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        let (fields, Some(cols)) = (&self.fields, &self.cols) else { return Ok(()) };
        if is_chatter_fields(fields.len(), fields.cell(0)) || fields.len() <= cols.value {
            return Ok(()); // ==PROF== lines, blank lines, rule rows without a metric
        }
        self.rows += 1;
        let metric = fields.cell(cols.metric);
        let id_cell = fields.cell(cols.id);
        let id_text = id_cell.trim();
        let id = parse_number(id_text).filter(|v| *v >= 0.0 && v.fract() == 0.0).ok_or_else(|| {
            ImportError::new(&self.file, Some(line), format!("expected a launch number in column \"ID\", found {id_text:?}"))
        })? as u64;
        if self.pending.as_ref().is_none_or(|p| p.id != id) {
            if let Some(p) = self.pending.take() {
                p.finish(&self.names, &mut self.state, out);
            }
            let kernel = self.names.intern(fields.cell(cols.kernel));
            let mut metrics = LaunchMetrics::new();
            for (col, name) in [(cols.device, "Device"), (cols.cc, "CC")] {
                if let Some(c) = col {
                    metrics.text(name, fields.cell(c));
                }
            }
            self.pending = Some(Pending { id, kernel, metrics });
        }
        let Some(p) = self.pending.as_mut() else { return Ok(()) };
        let unit = fields.cell(cols.unit);
        let value = fields.cell(cols.value);
        // The details page (default `--set`) has no DRAM byte count, but its "Memory Workload
        // Analysis" section gives "Memory Throughput" in byte/s (= `dram__bytes.sum.per_second`,
        // used × the duration when no byte count was read); the Speed Of Light section's
        // "Memory Throughput" is a percentage of peak and is not used.
        let metric = if metric == "Memory Throughput" {
            if cols.section.is_none_or(|s| fields.cell(s) != "Memory Workload Analysis") {
                return Ok(());
            }
            "dram__bytes.sum.per_second"
        } else {
            metric
        };
        match parse_number(value) {
            Some(v) => p.metrics.number(metric, unit, v),
            None => p.metrics.text(metric, value),
        }
        Ok(())
    }
}

impl RecordParser for LongParser {
    fn feed(&mut self, text: &str, last: bool, out: &mut dyn LaunchSink) -> Result<usize, ImportError> {
        let mut pos = 0;
        if self.cols.is_none() {
            if !skip_to_header(&self.file, text, &mut pos, &mut self.line, last)? {
                return Ok(pos);
            }
            match self.header(text, pos, last)? {
                Some(after) => pos = after,
                None => return Ok(pos),
            }
        }
        let mut reader = Reader::at(text, pos, self.line);
        if !last {
            reader = reader.complete_only();
        }
        while let Some(line) = reader.next_fields(&mut self.fields) {
            self.row(line, out)?;
        }
        self.line = reader.line();
        Ok(reader.pos())
    }

    fn line(&self) -> usize {
        self.line
    }

    fn devices(&self) -> Vec<crate::domain::Device> {
        self.state.devices.devices()
    }

    fn warnings(&self) -> Vec<ImportError> {
        self.state.warnings(&self.file)
    }

    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        if self.cols.is_none() {
            return Err(ImportError::new(&self.file, None, "no Nsight Compute header line (\"ID\",\"Process ID\",…) found"));
        }
        if let Some(p) = self.pending.take() {
            p.finish(&self.names, &mut self.state, out);
        }
        if self.rows == 0 {
            return Err(ImportError::new(&self.file, Some(self.header_line), "the Nsight Compute table has a header but no kernel rows")
                .with_hint(hints::ncu_profiled_nothing()));
        }
        Ok(())
    }
}
