//! Two timings of one run: a GPU summary and a GPU trace of the same run give each kernel's
//! time twice (nvprof `--print-gpu-summary` and `--print-gpu-trace`, rocprof `--stats`'s
//! `results.stats.csv` and `results.csv`). Adding them, as two runs of an application add up,
//! would double every kernel's time; this module tells the two cases apart.
//!
//! **Same run** when a file that holds only kernel times (no other counter) arrives and an
//! earlier time-only file of the same profiler is the other kind (per-launch trace vs per-kernel
//! summary) and lists exactly the same kernels with the same launch counts, each kernel's total
//! time agreeing within [`SAME_TIME_REL`] (+ [`SAME_TIME_ABS_S`]): what the printed precision of
//! a summary allows (nvprof CSV prints `Time` in s with 6 decimals, ±0.5 µs; its text form 5
//! significant digits; rocprof's `TotalDurationNs` is the exact sum). Two runs differ by more:
//! the rocprof `--stats` summary and trace in `shared/samples` (two runs) differ by 1.4% on
//! their main kernel. Anything else (another summary, other counts, other times) is another
//! run, whose launches add up as before.
//!
//! **Which time is kept:** the trace's per-launch durations. Their sum is the summary's total
//! to the summary's rounding, and they also give the per-launch view, the device of each
//! launch and each copy. A summary after its trace is left out; a trace after its summary
//! replaces it (kernel times, launch records, transfers and device times of the summary are
//! taken back). Either way a warning says which file's times are used.

use crate::domain::{Counter, Device, Launch};
use crate::error::ImportError;
use crate::import::hints::{self, Family};
use std::ops::Range;

/// Relative tolerance on a kernel's total time for two files to be one run's (module doc).
pub const SAME_TIME_REL: f64 = 1e-3;
/// Absolute tolerance, seconds: half a microsecond of rounding on each side.
pub const SAME_TIME_ABS_S: f64 = 1e-6;

/// Formats that list one row per launch (traces) and one row per kernel (summaries).
const PER_LAUNCH: [&str; 2] = ["nvprof-trace", "rocprof-dispatch"];
const PER_KERNEL: [&str; 3] = ["nvprof-summary", "nvprof-summary-text", "rocprof-stats"];

/// One kernel of a time-only file: name, launches, total time (s).
#[derive(Clone, Debug, PartialEq)]
pub struct KernelTime {
    pub name: String,
    pub launches: u64,
    pub time_s: f64,
}

/// A time-only file already in the dataset, and where its records went.
#[derive(Debug)]
pub struct TimedFile {
    pub path: String,
    pub family: Family,
    pub per_launch: bool,
    pub kernels: Vec<KernelTime>,
    /// Its records in [`super::Dataset::launches`] and [`super::Dataset::transfers`], and the
    /// records beyond the kept-launch cap it counted in `launches_omitted`.
    pub launches: Range<usize>,
    pub omitted: u64,
    pub transfers: Range<usize>,
    /// Kernel time and launches it attributed to each device.
    pub devices: Vec<(Device, f64, u64)>,
    /// Replaced by a trace of the same run: its records are gone.
    pub replaced: bool,
}

/// What to do with a time-only file.
#[derive(Debug, PartialEq)]
pub enum Verdict {
    /// Another run (or nothing to compare with): add it.
    NewRun,
    /// A summary of a run whose trace is in: leave it out.
    Skip(ImportError),
    /// A trace of a run whose summary (file `index` of the recorded ones) is in: replace it.
    Replace(usize, ImportError),
}

/// Whether a file is a time-only table, and of which kind (`Some(true)`: per launch).
pub fn timing_kind(format: &str, launches: &[Launch]) -> Option<bool> {
    let per_launch = if PER_LAUNCH.contains(&format) {
        true
    } else if PER_KERNEL.contains(&format) {
        false
    } else {
        return None;
    };
    let time_only = !launches.is_empty() && launches.iter().all(|l| l.counters.iter().all(|(c, _)| c == Counter::TimeS));
    time_only.then_some(per_launch)
}

/// The kernels of a file: totals per name, in order of first appearance.
pub fn kernel_times(launches: &[Launch]) -> Vec<KernelTime> {
    let mut out: Vec<KernelTime> = Vec::new();
    for l in launches {
        let t = l.counters.get(Counter::TimeS).unwrap_or(0.0) * l.count as f64;
        match out.iter_mut().find(|k| k.name == l.kernel) {
            Some(k) => {
                k.launches = k.launches.saturating_add(l.count);
                k.time_s += t;
            }
            None => out.push(KernelTime { name: l.kernel.clone(), launches: l.count, time_s: t }),
        }
    }
    out
}

fn same_time(a: f64, b: f64) -> bool {
    (a - b).abs() <= SAME_TIME_REL * a.abs().max(b.abs()) + SAME_TIME_ABS_S
}

/// Whether two files list the same kernels, launch counts and (within tolerance) times.
fn same_kernels(a: &[KernelTime], b: &[KernelTime]) -> bool {
    a.len() == b.len() && a.iter().all(|k| b.iter().any(|o| o.name == k.name && o.launches == k.launches && same_time(o.time_s, k.time_s)))
}

/// The time-only files of a dataset being built.
#[derive(Debug, Default)]
pub struct SameRun {
    pub files: Vec<TimedFile>,
}

impl SameRun {
    /// What to do with the time-only file `path` (`per_launch`: a trace).
    pub fn judge(&self, path: &str, format: &str, per_launch: bool, kernels: &[KernelTime]) -> Verdict {
        let family = hints::family(format);
        let Some((i, other)) = self
            .files
            .iter()
            .enumerate()
            .find(|(_, f)| !f.replaced && f.family == family && f.per_launch != per_launch && same_kernels(&f.kernels, kernels))
        else {
            return Verdict::NewRun;
        };
        let (trace, summary) = if per_launch { (path, other.path.as_str()) } else { (other.path.as_str(), path) };
        let message = format!(
            "{summary} (GPU summary) and {trace} (GPU trace) time the same {} kernel(s) with the same launch counts: one run, counted once, with the trace's per-launch durations ({trace}); the summary's times are not added",
            kernels.len()
        );
        let warning = ImportError::new(&format!("{summary}, {trace}"), None, message);
        if per_launch {
            Verdict::Replace(i, warning)
        } else {
            Verdict::Skip(warning)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Counters;

    fn timed(kernel: &str, count: u64, per_launch_s: f64) -> Launch {
        Launch { id: None, kernel: kernel.into(), count, counters: Counters::from_pairs(&[(Counter::TimeS, per_launch_s)]), device: None }
    }

    fn file(per_launch: bool, kernels: Vec<KernelTime>) -> TimedFile {
        TimedFile { path: "a".into(), family: Family::Nvprof, per_launch, kernels, launches: 0..0, omitted: 0, transfers: 0..0, devices: Vec::new(), replaced: false }
    }

    #[test]
    fn kinds_and_totals() {
        let trace = vec![timed("k", 1, 1e-3), timed("k", 1, 2e-3), timed("j", 1, 5e-3)];
        assert_eq!(timing_kind("nvprof-trace", &trace), Some(true));
        assert_eq!(timing_kind("nvprof-summary", &trace), Some(false));
        assert_eq!(timing_kind("ncu-raw", &trace), None);
        let mut with_flops = trace.clone();
        with_flops[0].counters.set(Counter::Fp32Flops, 1.0);
        assert_eq!(timing_kind("nvprof-trace", &with_flops), None, "not time only");
        // k: 1 ms + 2 ms over 2 launches; j: 5 ms.
        let k = kernel_times(&trace);
        assert_eq!((k[0].launches, k[0].time_s, k[1].time_s), (2, 3e-3, 5e-3));
    }

    #[test]
    fn a_summary_and_a_trace_of_one_run_are_told_from_two_runs() {
        let summary = vec![KernelTime { name: "k".into(), launches: 100, time_s: 0.033522 }];
        let mut s = SameRun::default();
        s.files.push(file(false, summary));
        // Σ trace durations 33.522205 ms vs the summary's 0.033522 s: 0.2 µs apart.
        let trace = vec![KernelTime { name: "k".into(), launches: 100, time_s: 0.033_522_205 }];
        assert!(matches!(s.judge("t.csv", "nvprof-trace", true, &trace), Verdict::Replace(0, _)));
        // Another run: 1.4% slower (the rocprof samples' two runs differ by that much).
        let other = vec![KernelTime { name: "k".into(), launches: 100, time_s: 0.0340 }];
        assert_eq!(s.judge("t.csv", "nvprof-trace", true, &other), Verdict::NewRun);
        // Other launch counts, another profiler, or a second summary: other runs.
        let fewer = vec![KernelTime { name: "k".into(), launches: 99, time_s: 0.033_522_205 }];
        assert_eq!(s.judge("t.csv", "nvprof-trace", true, &fewer), Verdict::NewRun);
        assert_eq!(s.judge("t.csv", "rocprof-dispatch", true, &trace), Verdict::NewRun);
        assert_eq!(s.judge("s2.csv", "nvprof-summary", false, &trace), Verdict::NewRun);
    }
}
