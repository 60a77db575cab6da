//! Nsight Compute's console output (`ncu ./app` without `--csv`, as pasted into issues and
//! chats): per launch a header line, then sections of fixed-width tables.
//!
//! ```text
//!   saxpy(float *, float *) (1056, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
//!     Section: GPU Speed Of Light Throughput
//!     ----------------------- ----------- ------------
//!     Metric Name             Metric Unit Metric Value
//!     ----------------------- ----------- ------------
//!     SM Frequency                    Ghz         1.52
//!     Duration                         us       777.95
//! ```
//!
//! Before 2021 the header line carries a timestamp instead of the launch configuration
//! (`  saxpy(float *, float *), 2020-Jun-09 12:14:11, Context 1, Stream 7`) and tables have
//! no "Metric Name" row; `==PROF==` lines, the application's own output and rule paragraphs
//! (`OPT`, `INF`, `WRN`) may come anywhere. Columns are cut where the table's dashed rule
//! line has its gaps, so names with spaces (`# SMs`, `DRAM Frequency`) stay whole. Labels
//! go to the assembler every Nsight Compute format shares ([`LaunchMetrics`]) as the details
//! page's do (`Duration`, `Elapsed Cycles`, `SM Frequency`, …), with their auto-scaled units
//! (`us`, `Ghz`, `Kbyte`); percentages are not counters.

use super::ncu_devices::FileDevices;
use super::ncu_metrics::{unknown_units_warning, LaunchMetrics};
use super::stream::NameCache;
use super::table::DETECT_LINES;
use super::{parse_number, Imported, Importer};
use crate::domain::profile::Launch;
use crate::error::ImportError;

/// ncu's console output.
pub struct NsightComputeText;

/// A launch header line: kernel name, device index and compute capability as printed.
struct Header<'a> {
    kernel: &'a str,
    device: Option<&'a str>,
    cc: Option<&'a str>,
}

/// Parses `  <name> (gx, gy, gz)x(bx, by, bz), Context 1, Stream 7[, Device 0, CC 9.0]`
/// (or `  <name>, <date> <time>, Context 1, Stream 7`). `None` for any other line.
fn launch_header(line: &str) -> Option<Header<'_>> {
    let body = line.strip_prefix("  ")?;
    if body.starts_with(' ') {
        return None; // table rows and rule text are indented further
    }
    let (before, after) = body.rsplit_once(", Context ")?;
    if !after.contains("Stream ") {
        return None;
    }
    let field = |key: &str| after.split(", ").find_map(|f| f.trim().strip_prefix(key)).map(str::trim);
    Some(Header { kernel: strip_launch_suffix(before), device: field("Device "), cc: field("CC ") })
}

/// The kernel name without the launch configuration `(1056, 1, 1)x(256, 1, 1)` or the
/// timestamp `, 2020-Jun-09 12:14:11` that follows it on a header line.
fn strip_launch_suffix(s: &str) -> &str {
    let s = s.trim_end();
    if let Some(i) = s.rfind(" (") {
        let tail = s.get(i + 1..).unwrap_or("");
        let is_dim = |d: &str| {
            let parts: Vec<&str> = d.split(", ").collect();
            parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        };
        if let Some((grid, block)) = tail.strip_prefix('(').and_then(|t| t.strip_suffix(')')).and_then(|t| t.split_once(")x(")) {
            if is_dim(grid) && is_dim(block) {
                return s.get(..i).unwrap_or(s).trim_end();
            }
        }
    }
    if let Some((name, date)) = s.rsplit_once(", ") {
        let looks_like_time = date.len() >= 19 && date.as_bytes().get(4) == Some(&b'-') && date.contains(':');
        if looks_like_time {
            return name.trim_end();
        }
    }
    s
}

/// The column spans of a table's rule line (`----- ---- -----`): one per run of dashes.
fn rule_columns(line: &str) -> Option<Vec<(usize, usize)>> {
    let t = line.trim_end();
    if t.trim_start().is_empty() || !t.trim_start().bytes().all(|b| b == b'-' || b == b' ') {
        return None;
    }
    let mut cols = Vec::new();
    let mut start = None;
    for (i, b) in t.bytes().enumerate() {
        match (b, start) {
            (b'-', None) => start = Some(i),
            (b' ', Some(s)) => {
                cols.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        cols.push((s, t.len()));
    }
    (cols.len() == 3).then_some(cols)
}

/// One launch being read.
struct Pending {
    kernel: usize,
    metrics: LaunchMetrics,
}

/// What the file gives beyond launches.
#[derive(Default)]
struct FileState {
    devices: FileDevices,
    unknown_units: Vec<(String, String)>,
}

impl Pending {
    fn finish(self, id: u64, names: &NameCache, state: &mut FileState) -> Launch {
        let l = self.metrics.finish();
        for u in l.unknown_units.iter() {
            if !state.unknown_units.contains(u) {
                state.unknown_units.push(u.clone());
            }
        }
        let device = state.devices.index_of(&l);
        Launch { id: Some(id), kernel: names.name(self.kernel).to_string(), count: 1, counters: l.counters, device }
    }
}

/// Where the reader is.
#[derive(Default)]
struct Table {
    section: String,
    columns: Option<Vec<(usize, usize)>>,
    rows: usize,
}

/// Whether `line` opens a section (`Section: GPU Speed Of Light Throughput`).
fn section_name(line: &str) -> Option<&str> {
    line.trim().strip_prefix("Section: ").map(str::trim)
}

impl Importer for NsightComputeText {
    fn format(&self) -> &'static str {
        "ncu-text"
    }

    /// A launch header line and a `Section:` line among the first lines.
    fn detect(&self, text: &str) -> bool {
        let (mut header, mut section) = (false, false);
        for line in text.lines().take(DETECT_LINES) {
            header |= launch_header(line).is_some();
            section |= header && section_name(line).is_some();
            if section {
                return true;
            }
        }
        false
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let mut names = NameCache::default();
        let mut state = FileState::default();
        let mut launches = Vec::new();
        let mut pending: Option<Pending> = None;
        let mut table = Table::default();
        for line in text.lines() {
            let line = line.trim_end_matches('\r');
            if let Some(h) = launch_header(line) {
                if let Some(p) = pending.take() {
                    launches.push(p.finish(launches.len() as u64, &names, &mut state));
                }
                let mut metrics = LaunchMetrics::new();
                for (name, v) in [("Device", h.device), ("CC", h.cc)] {
                    if let Some(v) = v {
                        metrics.text(name, v);
                    }
                }
                pending = Some(Pending { kernel: names.intern(h.kernel), metrics });
                table = Table::default();
                continue;
            }
            let Some(p) = pending.as_mut() else { continue };
            if let Some(name) = section_name(line) {
                table = Table { section: name.to_string(), ..Table::default() };
                continue;
            }
            if let Some(cols) = rule_columns(line) {
                if table.columns.is_some() && table.rows > 0 {
                    table.columns = None; // the closing rule
                } else {
                    table.columns = Some(cols);
                }
                continue;
            }
            let Some(cols) = &table.columns else { continue };
            if line.trim().is_empty() {
                table.columns = None;
                continue;
            }
            let cell = |i: usize, to_end: bool| {
                let (s, e) = cols.get(i).copied().unwrap_or((0, 0));
                let end = if to_end { line.len() } else { e.min(line.len()) };
                line.get(s.min(end)..end).unwrap_or("").trim()
            };
            let (name, unit, value) = (cell(0, false), cell(1, false), cell(2, true));
            if name == "Metric Name" && value == "Metric Value" {
                continue;
            }
            table.rows += 1;
            // As on the details page: "Memory Throughput" of "Memory Workload Analysis" is
            // `dram__bytes.sum.per_second`; Speed Of Light's is a percentage.
            let name = match name {
                "Memory Throughput" if table.section == "Memory Workload Analysis" => "dram__bytes.sum.per_second",
                "Memory Throughput" => continue,
                n => n,
            };
            match parse_number(value) {
                Some(v) => p.metrics.number(name, unit, v),
                None => p.metrics.text(name, value),
            }
        }
        if let Some(p) = pending.take() {
            launches.push(p.finish(launches.len() as u64, &names, &mut state));
        }
        if launches.is_empty() {
            return Err(ImportError::new(file, None, "no kernel launch header (\"  <kernel> …, Context 1, Stream 7…\") found in the Nsight Compute output"));
        }
        let warnings = unknown_units_warning(file, &state.unknown_units).into_iter().collect();
        Ok(Imported { launches, devices: state.devices.devices(), warnings, ..Imported::default() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::counters::Counter;

    #[test]
    fn header_lines_of_both_generations() {
        let h = launch_header("  void k<4>(int, T2) (524288, 1, 1)x(128, 1, 1), Context 1, Stream 7, Device 0, CC 9.0").unwrap();
        assert_eq!((h.kernel, h.device, h.cc), ("void k<4>(int, T2)", Some("0"), Some("9.0")));
        let h = launch_header("  vectorAdd(float const*, float*, int), 2020-Jun-09 12:14:11, Context 1, Stream 7").unwrap();
        assert_eq!((h.kernel, h.device, h.cc), ("vectorAdd(float const*, float*, int)", None, None));
        assert!(launch_header("    Duration   us   1.0").is_none());
        assert!(launch_header("==PROF== Connected to process 31440").is_none());
    }

    #[test]
    fn tables_are_cut_at_the_rule_line_gaps() {
        let text = "  k() (1, 1, 1)x(32, 1, 1), Context 1, Stream 7, Device 0, CC 8.0\n    Section: GPU Speed Of Light Throughput\n    -------------- ----------- ------------\n    Metric Name    Metric Unit Metric Value\n    -------------- ----------- ------------\n    SM Frequency           Ghz         1.52\n    Elapsed Cycles       cycle    1,187,722\n    Duration                us       777.95\n    DRAM Throughput          %        33.42\n    -------------- ----------- ------------\n";
        assert!(NsightComputeText.detect(text));
        let imp = NsightComputeText.import("t.txt", text).unwrap();
        let c = &imp.launches[0].counters;
        assert_eq!(c.get(Counter::ClockHz), Some(1.52e9));
        assert_eq!(c.get(Counter::Cycles), Some(1_187_722.0));
        assert_eq!(c.get(Counter::TimeS), Some(777.95e-6));
        assert_eq!(imp.devices[0].arch.as_deref(), Some("sm_80"));
    }
}
