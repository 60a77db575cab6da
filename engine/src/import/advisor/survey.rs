//! Intel Advisor survey report as CSV, after a roofline collection:
//! `advisor --collect=roofline --project-dir=./adv -- ./app` then
//! `advisor --report=survey --show-all-columns --format=csv --project-dir=./adv --report-output=survey.csv`
//! (`advixe-cl` in 2019–2020). Each loop or function row becomes a "kernel".
//!
//! Read: `Function Call Sites and Loops` (name), `ID`, `Self Elapsed Time` (`28.970s`;
//! `< 0.001s` is treated as unknown, then recovered as `Self GFLOP` / `Self GFLOPS`),
//! `Self GFLOP` (FLOPs: FP64 or FP32 when `Data Types` names only that float type, else of
//! unknown precision), `Self GINTOP`, `Self Memory GB` (bytes between registers and L1:
//! Advisor's cache-aware roofline), `Self L2 GB`, `Self L3 GB`, `Self DRAM GB` (zero means the cache
//! simulation was not run: treated as not measured). Sizes are decimal (GB = 1e9 bytes).
//!
//! Loop parts: a vectorised loop's row (`Vectorized (Body; Remainder)`) is followed by rows of
//! its parts, named `[child]-[loop …]` (the vector body, remainders, peel), whose times and
//! counts add up to the loop's own (in the sample, loop 541: 0.830 s = 0.770 + 0.040 + 0.020).
//! Counted beside their loop they would count it twice, so a part is dropped when its loop
//! has a row; a part whose loop has none (a filtered report) is counted under the loop's name,
//! where the parts add up to the loop.

use super::strip_html;
use crate::domain::counters::Counter;
use crate::error::ImportError;
use crate::import::sink::CounterSink;
use crate::import::table::{cell, find_line, header_starts_with, header_has, open_table};
use crate::import::{parse_number, split_unit, time_unit_s, Imported, Importer};
use crate::domain::profile::Launch;
use crate::units::GIGA;
use rustc_hash::FxHashSet;

/// How Advisor names a loop part: `[child]-[loop in f at a.f90:12]`.
const PART_PREFIX: &str = "[child]-";

pub struct AdvisorSurvey;

fn is_header(l: &str) -> bool {
    header_starts_with(l, &["ID"]) && header_has(l, "Function Call Sites and Loops") && header_has(l, "Self Time")
}

/// `28.970s` → 28.97; `< 0.001s`, empty → `None`.
fn seconds(cell: &str) -> Option<f64> {
    let t = cell.trim();
    if t.starts_with('<') {
        return None;
    }
    let (v, unit) = split_unit(t)?;
    Some(v * if unit.is_empty() { 1.0 } else { time_unit_s(unit)? })
}

impl Importer for AdvisorSurvey {
    fn format(&self) -> &'static str {
        "advisor-survey"
    }

    fn detect(&self, text: &str) -> bool {
        find_line(text, is_header).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let (line, start, _) = find_line(text, is_header).ok_or_else(|| ImportError::new(file, None, "no Advisor survey header found"))?;
        let (cols, records) = open_table(text, line, start);
        let id = cols.need(file, line, &["ID"])?;
        let name = cols.need(file, line, &["Function Call Sites and Loops"])?;
        let time = cols.any(&["Self Elapsed Time", "Self Time"]);
        let gflop = cols.get("Self GFLOP");
        let gflops = cols.get("Self GFLOPS");
        let gintop = cols.get("Self GINTOP");
        let types = cols.get("Data Types");
        let bytes = [
            (cols.get("Self Memory GB"), Counter::L1Bytes, false),
            (cols.get("Self L2 GB"), Counter::L2Bytes, true),
            (cols.get("Self L3 GB"), Counter::L3Bytes, true),
            (cols.get("Self DRAM GB"), Counter::DramBytes, true),
        ];
        // (launch, whether the row is a loop part)
        let mut rows: Vec<(Launch, bool)> = Vec::new();
        for rec in records {
            let n = strip_html(cell(&rec, name));
            if n.is_empty() {
                continue; // trailing blank line
            }
            let (n, is_part) = match n.strip_prefix(PART_PREFIX) {
                Some(whole) => (whole.to_string(), true),
                None => (n, false),
            };
            let row_id = parse_number(cell(&rec, id)).filter(|v| *v >= 0.0).map(|v| v as u64);
            let mut sink = CounterSink::default();
            let flop = gflop.and_then(|c| parse_number(cell(&rec, c))).map(|g| g * GIGA);
            let t = time.and_then(|c| seconds(cell(&rec, c))).or_else(|| {
                let rate = gflops.and_then(|c| parse_number(cell(&rec, c)))? * GIGA;
                (rate > 0.0).then(|| flop.unwrap_or(0.0) / rate)
            });
            if let Some(t) = t {
                sink.put(Counter::TimeS, false, t);
            }
            if let Some(f) = flop {
                let ty = types.map(|c| strip_html(cell(&rec, c))).unwrap_or_default();
                let (f64s, f32s) = (ty.contains("Float64"), ty.contains("Float32"));
                let counter = match (f64s, f32s) {
                    (true, false) => Counter::Fp64Flops,
                    (false, true) => Counter::Fp32Flops,
                    _ => Counter::OtherFlops,
                };
                sink.put(counter, false, f);
            }
            if let Some(g) = gintop.and_then(|c| parse_number(cell(&rec, c))) {
                sink.put(Counter::IntOps, false, g * GIGA);
            }
            for (col, counter, zero_is_unknown) in bytes {
                if let Some(gb) = col.and_then(|c| parse_number(cell(&rec, c))) {
                    if !(zero_is_unknown && gb == 0.0) {
                        sink.put(counter, false, gb * GIGA);
                    }
                }
            }
            if row_id.is_none() && sink.is_empty() {
                continue; // a loop part (remainder, peel) without its own data
            }
            rows.push((Launch { id: row_id, kernel: n, count: 1, counters: sink.into_counters(), device: None }, is_part));
        }
        let loops: FxHashSet<String> = rows.iter().filter(|(_, part)| !part).map(|(l, _)| l.kernel.clone()).collect();
        let launches: Vec<Launch> = rows.into_iter().filter(|(l, part)| !part || !loops.contains(&l.kernel)).map(|(l, _)| l).collect();
        if launches.is_empty() {
            return Err(ImportError::new(file, Some(line), "the Advisor survey has no loop or function rows"));
        }
        Ok(Imported { launches, ..Imported::default() })
    }
}
