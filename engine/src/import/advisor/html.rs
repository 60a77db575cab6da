//! Intel Advisor's interactive roofline report: `advisor --report=roofline [--gpu]
//! --project-dir=./adv --report-output=roofline.html` (or the GUI's "Export as HTML"), the page
//! Advisor users share. Its chart is drawn by the page's own script from JSON written into a
//! `<script>`: this reader parses that JSON, never the page's markup or script.
//!
//! What the JSON holds (keys as in the oneAPI samples' DG1 and Gen9 reports, Advisor 2022):
//! - `"rooflineData": {…}`: the chart as first shown — `measureY` (the performance unit,
//!   `GFLOPS`; `GINTOPS` for an INT chart), `roofs` (`name`, `val`, `isMem`; names as
//!   `advisor --report=roofs` prints them, read by [`super::roofs::Roofs`]) and `loops`
//!   (`id`, `name`, `memoryLevelPref` such as `DRAM-`, `selfElapsedTime` in seconds, `selfMem`
//!   in GB, `x` and `y` the dot's intensity and performance, `children` the loops nested in it);
//! - `"rooflineAdditionalDataLoopData": {…}`: the same loops at the other memory levels (`CARM-`,
//!   `L3-`, `SLM-`), one entry per loop and level, for the memory-level dots;
//! - `"summaryInfo": {…}`: `platformInfo["GPU Info"]` (name, vendor, maximum core frequency) in
//!   a GPU report. Advisor's own page tells a GPU report from a CPU one by that entry.
//!
//! **Scale.** `x`, `y` and each roof's `val` are chart coordinates: the base-10 logarithm of
//! the value (the page's script draws `Math.pow(10, v)`). `selfElapsedTime` and `selfMem` are
//! plain. The reader checks this on the report's own numbers: a dot's performance ÷ intensity
//! is its bandwidth, `selfMem` ÷ time, so `y − x = log10(selfMem / t)` on a logarithmic chart
//! (and `y ÷ x = selfMem / t` on a linear one). The scale most dots agree with is used;
//! dots that fit neither are named in a warning. Roofs share the dots' axes.
//!
//! **Per loop:** time = `selfElapsedTime` (or `selfTime`); FLOPs (INTOPs) = performance × time,
//! so 10^y × 10^9 × t for `GFLOPS`; bytes per level = `selfMem` × 10^9 for each level its
//! `memoryLevelPref` names (`-`-separated: `CARM` → L1 bytes, Advisor's cache-aware traffic as
//! in the survey; `L1`, `L2`, `L3`; `SLM` → shared; `DRAM`, `GTI`, `HBM`, `MCDRAM` → DRAM); no
//! pref is CARM. Entries of one loop (`id`) are one kernel. FLOPs are of no stated precision
//! (Advisor's chart counts every float type together).

use super::roofs::Roofs;
use crate::domain::counters::Counter;
use crate::domain::profile::Launch;
use crate::domain::{Device, Vendor};
use crate::error::ImportError;
use crate::import::json::Loose;
use crate::import::sink::CounterSink;
use crate::import::{Imported, Importer};
use crate::units::GIGA;
use serde::de::DeserializeOwned;
use serde::Deserialize;

pub struct AdvisorHtml;

/// The key of the chart's data: a page holding it (as a key, followed by `:`) is a report.
const CHART_KEY: &str = "\"rooflineData\"";
const LEVELS_KEY: &str = "\"rooflineAdditionalDataLoopData\"";
const SUMMARY_KEY: &str = "\"summaryInfo\"";

/// One chart's data (`rooflineData`, `rooflineAdditionalDataLoopData`).
#[derive(Debug, Default, Deserialize)]
struct Chart {
    #[serde(rename = "measureY", default)]
    measure_y: Option<String>,
    // Loops and roofs are read strictly (every field optional, none of another type): an odd
    // entry is an error naming its line, not a dot silently missing.
    #[serde(default)]
    roofs: Vec<Roof>,
    #[serde(default)]
    loops: Vec<Loop>,
}

#[derive(Debug, Deserialize)]
struct Roof {
    name: String,
    /// log10 of GB/s (memory) or of `measureY` (compute).
    #[serde(default)]
    val: Option<f64>,
    #[serde(rename = "isMem", default)]
    is_mem: Option<Flag>,
}

/// `isMem` is `0`/`1` in the reports seen; a boolean is read too.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Flag {
    Number(f64),
    Bool(bool),
}

impl Flag {
    fn is_set(&self) -> bool {
        match self {
            Flag::Number(n) => *n != 0.0,
            Flag::Bool(b) => *b,
        }
    }
}

/// A loop's id: a number (a pointer, in the reports seen) or a string.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Id {
    Number(u64),
    Text(String),
    Other(f64),
}

#[derive(Debug, Deserialize)]
struct Loop {
    #[serde(default)]
    id: Option<Id>,
    name: String,
    #[serde(rename = "memoryLevelPref", default)]
    memory_level_pref: Option<String>,
    #[serde(rename = "selfElapsedTime", default)]
    self_elapsed_time_s: Option<f64>,
    #[serde(rename = "selfTime", default)]
    self_time_s: Option<f64>,
    #[serde(rename = "selfMem", default)]
    self_mem_gb: Option<f64>,
    /// Intensity, in the chart's scale.
    #[serde(default)]
    x: Option<f64>,
    /// Performance in `measureY`, in the chart's scale.
    #[serde(default)]
    y: Option<f64>,
    /// Nested loops (`""` when none).
    #[serde(default)]
    children: Option<Children>,
}

/// A loop's `children`: its nested loops, or `""` (none).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Children {
    Loops(Vec<Loop>),
    /// `""` in the reports seen: read so that any other value is an error.
    #[allow(dead_code)]
    None(String),
}

impl Loop {
    fn time_s(&self) -> Option<f64> {
        self.self_elapsed_time_s.or(self.self_time_s).filter(|t| t.is_finite() && *t >= 0.0)
    }

    fn key(&self) -> String {
        match &self.id {
            Some(Id::Number(n)) => n.to_string(),
            Some(Id::Text(t)) => t.clone(),
            Some(Id::Other(f)) => f.to_string(),
            None => format!("name:{}", self.name),
        }
    }
}

#[derive(Debug, Default, Deserialize)]
struct Summary {
    #[serde(rename = "platformInfo", default)]
    platform_info: Option<Loose<PlatformInfo>>,
}

#[derive(Debug, Default, Deserialize)]
struct PlatformInfo {
    #[serde(rename = "GPU Info", default)]
    gpu: Option<Vec<Loose<InfoItem>>>,
}

#[derive(Debug, Deserialize)]
struct InfoItem {
    title: String,
    #[serde(default)]
    value: Option<Loose<InfoValue>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum InfoValue {
    Number(f64),
    Text(String),
}

/// How the chart's coordinates relate to the values (module doc, "Scale").
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scale {
    Log10,
    Linear,
}

impl Scale {
    fn value(self, v: f64) -> f64 {
        match self {
            Scale::Log10 => 10f64.powf(v),
            Scale::Linear => v,
        }
    }
}

/// What the performance axis counts and its prefix: `GFLOPS` → (FLOPs, 10^9).
fn performance_unit(measure: &str) -> Option<(Counter, f64)> {
    let m = measure.trim().to_ascii_uppercase();
    let m = m.strip_suffix("/S").or_else(|| m.strip_suffix("/SEC")).unwrap_or(&m);
    let (scale, rest) = match m.chars().next()? {
        'T' => (1e12, &m[1..]),
        'G' => (GIGA, &m[1..]),
        'M' => (1e6, &m[1..]),
        _ => (1.0, m),
    };
    let counter = match rest {
        "FLOPS" | "FLOP" => Counter::OtherFlops,
        "INTOPS" | "INTOP" | "IOPS" => Counter::IntOps,
        _ => return None,
    };
    Some((counter, scale))
}

/// The counter of one `memoryLevelPref` item.
fn level_counter(item: &str) -> Option<Counter> {
    let t = item.trim().to_ascii_uppercase();
    let first = t.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
    Some(match first {
        "CARM" | "L1" => Counter::L1Bytes,
        "L2" => Counter::L2Bytes,
        "L3" | "LLC" => Counter::L3Bytes,
        "SLM" => Counter::SharedBytes,
        "DRAM" | "GTI" | "HBM" | "MCDRAM" | "MEMORY" => Counter::DramBytes,
        _ => return None,
    })
}

/// Whether the text is an HTML page (its first non-blank bytes open a tag).
fn is_html(text: &str) -> bool {
    let head = text.trim_start_matches('\u{feff}').trim_start();
    let head = head.get(..head.len().min(16)).unwrap_or("").to_ascii_lowercase();
    head.starts_with("<!doctype html") || head.starts_with("<html")
}

/// The byte offset of `key`'s value: after the key's first occurrence that a `:` follows.
fn value_at(text: &str, key: &str) -> Option<usize> {
    let finder = memchr::memmem::Finder::new(key.as_bytes());
    finder.find_iter(text.as_bytes()).map(|at| at + key.len()).find_map(|after| {
        let rest = text.get(after..)?;
        let colon = rest.len() - rest.trim_start().len();
        rest.trim_start().starts_with(':').then_some(after + colon + 1)
    })
}

/// 1-based line of byte `at`.
fn line_of(text: &str, at: usize) -> usize {
    memchr::memchr_iter(b'\n', text.as_bytes().get(..at).unwrap_or(&[])).count() + 1
}

/// The JSON value after `key`, as a `T`; `None` when the page has no such key.
fn read_value<T: DeserializeOwned>(file: &str, text: &str, key: &str) -> Result<Option<T>, ImportError> {
    let Some(at) = value_at(text, key) else { return Ok(None) };
    let start = line_of(text, at);
    let mut values = serde_json::Deserializer::from_str(text.get(at..).unwrap_or("")).into_iter::<T>();
    match values.next() {
        Some(Ok(v)) => Ok(Some(v)),
        Some(Err(e)) => {
            let line = start + e.line().saturating_sub(1);
            Err(ImportError::new(file, Some(line), format!("expected the report's {key} data as Advisor writes it: {e}")))
        }
        None => Err(ImportError::new(file, Some(start), format!("expected a JSON value after {key}"))),
    }
}

/// Every loop of a chart, nested ones (`children`) after their parent.
fn flatten(loops: Vec<Loop>, out: &mut Vec<Loop>) {
    for mut l in loops {
        let children = l.children.take();
        out.push(l);
        if let Some(Children::Loops(c)) = children {
            flatten(c, out);
        }
    }
}

/// The scale most dots agree with (module doc), and the first dot that fits neither.
fn scale_of(loops: &[Loop]) -> (Scale, Option<&Loop>) {
    let (mut log, mut linear, mut odd) = (0usize, 0usize, None);
    for l in loops {
        let (Some(x), Some(y), Some(mem), Some(t)) = (l.x, l.y, l.self_mem_gb, l.time_s()) else { continue };
        if !(mem > 0.0 && t > 0.0 && x.is_finite() && y.is_finite()) {
            continue;
        }
        let bandwidth = mem / t;
        let fits_log = (y - x - bandwidth.log10()).abs() < 0.01; // within 2.3 %
        let fits_linear = x > 0.0 && ((y / x) / bandwidth - 1.0).abs() < 0.023;
        match (fits_log, fits_linear) {
            (true, _) => log += 1,
            (false, true) => linear += 1,
            (false, false) => odd = odd.or(Some(l)),
        }
    }
    (if linear > log { Scale::Linear } else { Scale::Log10 }, odd)
}

/// The GPU a GPU report names (`summaryInfo.platformInfo["GPU Info"]`).
fn gpu_device(summary: &Summary) -> Option<Device> {
    let Some(Loose::Value(info)) = &summary.platform_info else { return None };
    let items = info.gpu.as_ref()?;
    let mut d = Device::default();
    for item in items.iter().filter_map(Loose::value) {
        let value = item.value.as_ref().and_then(Loose::value);
        match (item.title.as_str(), value) {
            ("Name", Some(InfoValue::Text(n))) if !n.trim().is_empty() => d.name = Some(n.trim().to_string()),
            ("Vendor", Some(InfoValue::Text(v))) if v.to_ascii_lowercase().contains("intel") => d.vendor = Some(Vendor::Intel),
            ("Max Core Frequency", Some(InfoValue::Number(hz))) if hz.is_finite() && *hz > 0.0 => d.max_sm_clock_hz = Some(*hz),
            _ => {}
        }
    }
    // A GPU report names its GPU; an entry without a name still says the loops ran on a GPU.
    if d.name.is_none() {
        d.name = Some("an Intel GPU".into());
    }
    Some(d.normalised())
}

impl Importer for AdvisorHtml {
    fn format(&self) -> &'static str {
        "advisor-html"
    }

    fn detect(&self, text: &str) -> bool {
        is_html(text) && value_at(text, CHART_KEY).is_some()
    }

    fn import(&self, file: &str, text: &str) -> Result<Imported, ImportError> {
        let chart: Chart = read_value(file, text, CHART_KEY)?
            .ok_or_else(|| ImportError::new(file, None, "expected an Intel Advisor roofline report: the page holds no \"rooflineData\" chart data"))?;
        let levels: Chart = read_value(file, text, LEVELS_KEY)?.unwrap_or_default();
        let summary: Summary = read_value(file, text, SUMMARY_KEY)?.unwrap_or_default();
        let chart_line = value_at(text, CHART_KEY).map(|at| line_of(text, at));
        let measure = chart.measure_y.clone().unwrap_or_else(|| "GFLOPS".into());
        let (work, work_scale) = performance_unit(&measure).ok_or_else(|| {
            ImportError::new(file, chart_line, format!("expected the chart's performance unit (measureY) to be GFLOPS or GINTOPS, found {measure:?}"))
        })?;
        let mut loops = Vec::new();
        flatten(chart.loops, &mut loops);
        flatten(levels.loops, &mut loops);
        let (scale, odd) = scale_of(&loops);
        let mut warnings = Vec::new();
        if let Some(l) = odd {
            warnings.push(ImportError::new(
                file,
                chart_line,
                format!("the dot of {:?} does not agree with its own traffic and time (performance ÷ intensity ≠ selfMem ÷ time): its values are read as the other dots'", l.name),
            ));
        }

        let device = gpu_device(&summary);
        let mut order: Vec<String> = Vec::new();
        let mut sinks: rustc_hash::FxHashMap<String, (String, CounterSink)> = rustc_hash::FxHashMap::default();
        for l in &loops {
            let key = l.key();
            let (_, sink) = sinks.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                (l.name.clone(), CounterSink::default())
            });
            let t = l.time_s();
            if let (Some(t), None) = (t, sink.get(Counter::TimeS)) {
                sink.put(Counter::TimeS, false, t);
            }
            // Performance is the loop's, whatever the level: read it once, from the first chart first.
            if let (Some(t), Some(y), None) = (t, l.y, sink.get(work)) {
                let ops = scale.value(y) * work_scale * t;
                if ops.is_finite() {
                    sink.put(work, false, ops);
                }
            }
            let Some(gb) = l.self_mem_gb.filter(|g| g.is_finite() && *g >= 0.0) else { continue };
            let pref = l.memory_level_pref.as_deref().unwrap_or("");
            let mut items: Vec<&str> = pref.split('-').filter(|s| !s.trim().is_empty()).collect();
            if items.is_empty() {
                items.push("CARM");
            }
            for item in items {
                match level_counter(item) {
                    Some(c) if sink.get(c).is_none() => sink.put(c, false, gb * GIGA),
                    Some(_) => {}
                    None => warnings.push(ImportError::new(file, chart_line, format!("memory level {item:?} of {:?} is not one this reader knows; its traffic is left out", l.name))),
                }
            }
        }
        let launches: Vec<Launch> = order
            .into_iter()
            .filter_map(|key| sinks.remove(&key))
            .map(|(name, sink)| Launch { id: None, kernel: name, count: 1, counters: sink.into_counters(), device: device.as_ref().map(|_| 0) })
            .collect();

        let mut roofs = Roofs::default();
        for r in &chart.roofs {
            let Some(val) = r.val else { continue };
            let is_mem = r.is_mem.as_ref().is_some_and(Flag::is_set);
            // Memory roofs are GB/s; compute roofs are in the performance axis' unit.
            let unit = if is_mem { GIGA } else { work_scale };
            roofs.add(&r.name, is_mem, scale.value(val) * unit);
        }
        let source = format!("Intel Advisor roofline report ({file})");
        let machines = roofs.into_machines(file, &source, &mut warnings);
        if launches.is_empty() && machines.is_none() {
            return Err(ImportError::new(file, chart_line, "expected loops or roofs in the report's chart data, found neither"));
        }
        let (machine, alternatives) = match machines {
            Some((m, alts)) => (Some(m), alts),
            None => (None, Vec::new()),
        };
        Ok(Imported { launches, machine, alternatives, devices: device.into_iter().collect(), warnings, ..Imported::default() })
    }
}
