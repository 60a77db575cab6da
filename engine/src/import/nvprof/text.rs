//! nvprof's default (non-CSV) text output, printed on stderr:
//!
//! * metric tables (`nvprof --metrics … ./app`): a header `Invocations  Metric Name  Metric
//!   Description  Min  Max  Avg`, then `Device "GeForce GTX 1070 (0)"` and `    Kernel: <name>`
//!   group lines and one metric per line, values with glued units (`975.74MB/s`, `44.47%`);
//! * event tables (`nvprof --events … ./app`): the same groups under `Invocations  Event Name
//!   Min  Max  Avg  Total`; the average is the second-to-last column;
//! * the summary (`nvprof ./app`): `Time(%)  Time  Calls  Avg  Min  Max  Name` (with a
//!   `Type` column and `GPU activities:` / `API calls:` row labels since CUDA 9), times with
//!   glued units (`5.2583ms`, `52.583us`, `735ns`). The API-calls part is ignored; a
//!   `Device "…"` line (per-GPU summaries) names the GPU of the rows after it.

use super::{device_line, is_transfer, metric_warnings, KernelMetrics};
use crate::domain::counters::{Counter, Counters};
use crate::domain::names;
use crate::domain::profile::Launch;
use crate::error::ImportError;
use crate::import::table::lines_with_offsets;
use crate::import::device_list::DeviceList;
use crate::import::table::find_line;
use crate::import::{split_unit, time_unit_s, Imported, Importer, Transfer};

pub struct NvprofTextMetrics;
pub struct NvprofTextSummary;

/// Which table a text metric section is: where its average is.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    /// `… Min Max Avg`: the last column.
    Metrics,
    /// `… Min Max Avg Total`: the second-to-last column.
    Events,
}

fn section_of(l: &str) -> Option<Section> {
    let l = l.trim_start();
    if !l.starts_with("Invocations") {
        return None;
    }
    if l.contains("Metric Name") && l.contains("Metric Description") {
        Some(Section::Metrics)
    } else if l.contains("Event Name") && l.trim_end().ends_with("Total") {
        Some(Section::Events)
    } else {
        None
    }
}

fn is_metrics_header(l: &str) -> bool {
    section_of(l).is_some()
}

fn is_summary_header(l: &str) -> bool {
    // The first word is `Type` or `Time(%)`: checked first, since detection asks this of up to
    // 5,000 lines of every file that is not an earlier format's (a data line fails at once).
    let t = l.trim_start();
    if !(t.starts_with("Type") || t.starts_with("Time(%)")) {
        return false;
    }
    let mut words = l.split_whitespace();
    let first = words.next();
    let first = if first == Some("Type") { words.next() } else { first };
    first == Some("Time(%)") && words.next() == Some("Time") && words.next() == Some("Calls") && l.trim_end().ends_with("Name")
}

/// Splits off the first `n` whitespace-separated words; the rest (a kernel name with spaces) is kept whole.
fn split_words(line: &str, n: usize) -> Option<(Vec<&str>, &str)> {
    let mut words = Vec::with_capacity(n);
    let mut rest = line.trim_start();
    for _ in 0..n {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        if end == 0 {
            return None;
        }
        words.push(&rest[..end]);
        rest = rest[end..].trim_start();
    }
    Some((words, rest))
}

/// One `Kernel:` group on one device.
struct Group {
    kernel: String,
    device: Option<u16>,
    invocations: u64,
    metrics: KernelMetrics,
}

impl Importer for NvprofTextMetrics {
    fn format(&self) -> &'static str {
        "nvprof-metrics-text"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_metrics_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (header, _, first) = find_line(text, is_metrics_header).ok_or_else(|| ImportError::new(file, None, "no nvprof metric or event header found"))?;
        let mut section = section_of(first).unwrap_or(Section::Metrics);
        let mut devices = DeviceList::default();
        let mut device = None;
        // Groups by (device, kernel): an event and a metric section list the same kernels.
        let mut groups: Vec<Group> = Vec::new();
        let mut current: Option<usize> = None;
        for (n, _, l) in lines_with_offsets(text).skip(header) {
            let t = l.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(s) = section_of(t) {
                section = s;
                current = None;
                continue;
            }
            if let Some(d) = device_line(t) {
                device = devices.named(d);
                current = None;
                continue;
            }
            if t.starts_with("==") {
                continue;
            }
            if let Some(name) = t.strip_prefix("Kernel:") {
                let kernel = names::clean(name);
                current = Some(match groups.iter().position(|g| g.kernel == kernel && g.device == device) {
                    Some(i) => i,
                    None => {
                        groups.push(Group { kernel, device, invocations: 0, metrics: KernelMetrics::default() });
                        groups.len() - 1
                    }
                });
                continue;
            }
            let words: Vec<&str> = t.split_whitespace().collect();
            let avg_from_end = if section == Section::Events { 2 } else { 1 };
            let (Some(inv), Some(metric), Some(avg)) = (words.first(), words.get(1), words.len().checked_sub(avg_from_end).and_then(|i| words.get(i))) else {
                continue;
            };
            let Ok(inv) = inv.parse::<u64>() else {
                return Err(ImportError::new(file, Some(n), format!("expected a metric or event line starting with the invocation count, found {t:?}")));
            };
            let Some(g) = current.and_then(|i| groups.get_mut(i)) else {
                return Err(ImportError::new(file, Some(n), "a metric line comes before any `Kernel:` line"));
            };
            g.invocations = g.invocations.max(inv);
            g.metrics.apply(metric, avg);
        }
        if groups.is_empty() {
            return Err(ImportError::new(file, Some(header), "the nvprof metric output lists no kernel"));
        }
        let warnings = metric_warnings(file, groups.iter().map(|g| &g.metrics));
        let launches = groups
            .into_iter()
            .map(|g| Launch { id: None, kernel: g.kernel, count: g.invocations.max(1), counters: g.metrics.into_counters(), device: g.device })
            .collect();
        Ok(Imported { launches, devices: devices.into_devices(), warnings, ..Imported::default() })
    }
}

/// A time with a glued unit (`5.2583ms`), in seconds.
fn time_s(cell: &str) -> Option<f64> {
    let (v, unit) = split_unit(cell)?;
    Some(v * time_unit_s(unit)?)
}

impl Importer for NvprofTextSummary {
    fn format(&self) -> &'static str {
        "nvprof-summary-text"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_summary_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (header, offset, _) = find_line(text, is_summary_header).ok_or_else(|| ImportError::new(file, None, "no nvprof summary header found"))?;
        let mut devices = DeviceList::default();
        let mut device = text.get(..offset).and_then(|pre| pre.lines().rev().find_map(device_line)).and_then(|d| devices.named(d));
        let mut out = Imported::default();
        for (n, _, l) in lines_with_offsets(text).skip(header) {
            let mut t = l.trim();
            if t.is_empty() || is_summary_header(t) {
                continue;
            }
            if let Some(d) = device_line(t) {
                device = devices.named(d);
                continue;
            }
            if t.starts_with("==") || t.starts_with("API calls:") {
                break; // the GPU part ends here; API calls (or another section) follow
            }
            if let Some(rest) = t.strip_prefix("GPU activities:") {
                t = rest.trim_start();
            }
            let Some((w, name)) = split_words(t, 6) else {
                return Err(ImportError::new(file, Some(n), format!("expected `Time(%) Time Calls Avg Min Max Name`, found {t:?}")));
            };
            let total = w.get(1).and_then(|c| time_s(c));
            let count = w.get(2).and_then(|c| c.parse::<u64>().ok()).filter(|c| *c >= 1).ok_or_else(|| {
                ImportError::new(file, Some(n), format!("expected a number of calls, found {:?}", w.get(2).copied().unwrap_or("")))
            })?;
            if is_transfer(name) {
                out.transfers.push(Transfer { name: name.to_string(), count, bytes: None, time_s: total });
                continue;
            }
            let mut counters = Counters::default();
            if let Some(t) = total {
                counters.set(Counter::TimeS, t / count as f64);
            }
            out.launches.push(Launch { id: None, kernel: names::clean(name), count, counters, device });
        }
        if out.launches.is_empty() && out.transfers.is_empty() {
            return Err(ImportError::new(file, Some(header), "the nvprof summary lists no GPU activity"));
        }
        out.devices = devices.into_devices();
        Ok(out)
    }
}
