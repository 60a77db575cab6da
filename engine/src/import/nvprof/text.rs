//! nvprof's default (non-CSV) text output, printed on stderr:
//!
//! * metric tables (`nvprof --metrics … ./app`): a header `Invocations  Metric Name  Metric
//!   Description  Min  Max  Avg`, then `Device "…"` and `    Kernel: <name>` group lines and
//!   one metric per line, values with glued units (`975.74MB/s`, `44.47%`);
//! * the summary (`nvprof ./app`): `Time(%)  Time  Calls  Avg  Min  Max  Name` (with a
//!   `Type` column and `GPU activities:` / `API calls:` row labels since CUDA 9), times with
//!   glued units (`5.2583ms`, `52.583us`, `735ns`). The API-calls part is ignored.

use super::{apply_metric, is_transfer};
use crate::domain::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::csv::lines_with_offsets;
use crate::import::sink::CounterSink;
use crate::import::table::find_line;
use crate::domain::names;
use crate::import::{split_unit, time_unit_s, Imported, Importer, Transfer};
use crate::domain::profile::Launch;

pub struct NvprofTextMetrics;
pub struct NvprofTextSummary;

fn is_metrics_header(l: &str) -> bool {
    let l = l.trim_start();
    l.starts_with("Invocations") && l.contains("Metric Name") && l.contains("Metric Description")
}

fn is_summary_header(l: &str) -> bool {
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

impl Importer for NvprofTextMetrics {
    fn format(&self) -> &'static str {
        "nvprof-metrics-text"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_metrics_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (header, _, _) = find_line(text, is_metrics_header).ok_or_else(|| ImportError::new(file, None, "no nvprof metric header found"))?;
        let mut launches: Vec<Launch> = Vec::new();
        let mut current: Option<(String, u64, CounterSink)> = None;
        let flush = |cur: &mut Option<(String, u64, CounterSink)>, out: &mut Vec<Launch>| {
            if let Some((kernel, count, sink)) = cur.take() {
                out.push(Launch { id: None, kernel, count: count.max(1), counters: sink.into_counters(), device: None });
            }
        };
        for (n, _, l) in lines_with_offsets(text).skip(header) {
            let t = l.trim();
            if t.is_empty() || t.starts_with("==") || t.starts_with("Device ") {
                continue;
            }
            if let Some(name) = t.strip_prefix("Kernel:") {
                flush(&mut current, &mut launches);
                current = Some((names::clean(name), 0, CounterSink::default()));
                continue;
            }
            let words: Vec<&str> = t.split_whitespace().collect();
            let (Some(inv), Some(metric), Some(avg)) = (words.first(), words.get(1), words.last()) else { continue };
            let Ok(inv) = inv.parse::<u64>() else {
                return Err(ImportError::new(file, Some(n), format!("expected a metric line starting with the invocation count, found {t:?}")));
            };
            let Some(cur) = current.as_mut() else {
                return Err(ImportError::new(file, Some(n), "a metric line comes before any `Kernel:` line"));
            };
            cur.1 = cur.1.max(inv);
            apply_metric(&mut cur.2, metric, avg);
        }
        flush(&mut current, &mut launches);
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(header), "the nvprof metric output lists no kernel"));
        }
        Ok(Imported { launches, ..Imported::default() })
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
        let (header, _, _) = find_line(text, is_summary_header).ok_or_else(|| ImportError::new(file, None, "no nvprof summary header found"))?;
        let mut out = Imported::default();
        for (n, _, l) in lines_with_offsets(text).skip(header) {
            let mut t = l.trim();
            if t.is_empty() || t.starts_with("==") || t.starts_with("API calls:") {
                break; // the GPU part ends here; API calls follow
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
            out.launches.push(Launch { id: None, kernel: names::clean(name), count, counters, device: None });
        }
        if out.launches.is_empty() && out.transfers.is_empty() {
            return Err(ImportError::new(file, Some(header), "the nvprof summary lists no GPU activity"));
        }
        Ok(out)
    }
}
