//! From files to kernels: detect each file's format, import it, join files of one run,
//! and aggregate launches per kernel.
//!
//! Joining rules (see `docs/FORMATS.md`):
//! * launches with an id (Nsight Compute `ID`, rocprof dispatch index) that have the same id
//!   and kernel name as a launch of an earlier file, and measure *other* counters, are the
//!   same launch (the NERSC recipe collects one metric per run): the per-launch view
//!   ([`Dataset::launches`]) joins them;
//! * per kernel, each file's totals are combined with the earlier files': a file that
//!   measures counters the dataset lacks for that kernel adds them (nvprof metrics + GPU
//!   summary/trace, ncu one-metric files, rocprof counters + `--stats`), a file that measures
//!   the same counters again adds launches (two runs of an application);
//! * a GPU summary and a GPU trace of one run (same kernels, same launch counts, same times)
//!   count once, with the trace's per-launch durations, and a warning ([`same_run`]).

mod builder;
pub mod devices;
pub mod file_read;
mod imported;
mod join;
pub mod part;
mod reading;
pub mod same_run;
mod totals;
pub mod wire;

pub use builder::DatasetBuilder;
pub use devices::{DeviceRun, Devices};
pub use totals::{cycle_time_s, KernelTotals};
use join::LaunchJoin;

use crate::domain::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::hints;
#[cfg(test)]
use crate::import::stream::LaunchRef;
use crate::domain::Transfer;
use crate::model::Machine;
use crate::domain::profile::{KernelProfile, Launch, Precision};
use std::collections::HashMap;

/// How many launch records [`Dataset::launches`] keeps: per-launch detail is bounded so that
/// memory does not grow with the file (a 1 GB Nsight Compute raw page has ~350 000 launches,
/// ~1 KB each with the name). Kernel totals always count every launch.
pub const MAX_KEPT_LAUNCHES: usize = 10_000;

pub use crate::domain::{FileInfo, SourceFile};

/// Everything read from a set of files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    pub files: Vec<FileInfo>,
    /// Kernels in order of first appearance; names are full (demangled) names, see
    /// [`KernelProfile::display_name`] for the short form.
    pub kernels: Vec<KernelProfile>,
    /// Launches read, launches of one run split over files joined (per-launch detail): the
    /// first [`MAX_KEPT_LAUNCHES`] launch records.
    pub launches: Vec<Launch>,
    /// Launch records beyond [`MAX_KEPT_LAUNCHES`], counted in `kernels` but not kept in `launches`.
    pub launches_omitted: u64,
    pub transfers: Vec<Transfer>,
    /// A machine described by the files (ERT, Advisor roofs, rocprof-compute); several
    /// machine files are merged, the first file's numbers winning.
    pub machine: Option<Machine>,
    /// Other machines the files describe, to pick instead of [`Dataset::machine`] (Intel
    /// Advisor's single-threaded roofs): listed in the app's machine picker, never merged.
    pub machine_alternatives: Vec<Machine>,
    /// Not fatal: what the data lacks for a roofline, with the command that collects it.
    pub warnings: Vec<ImportError>,
    /// The devices the files name, with the kernel time and clock measured on each.
    pub devices: Devices,
    /// The clock sums of [`Dataset::launches`] where the records themselves were left behind
    /// (a dataset that crossed from the app's worker to its page, [`wire`]): what
    /// [`Dataset::measured_sm_clock_hz`] uses in their place. `None` when `launches` is whole.
    pub launch_clock: Option<devices::ClockStats>,
}

impl Dataset {
    /// The device that ran the most kernel time, if any file named one.
    pub fn main_device(&self) -> Option<&DeviceRun> {
        self.devices.main()
    }

    /// The SM clock the kernels ran at, measured, Hz: on the main device (time-weighted over
    /// its launches, [`devices`]), else Σcycles / Σ(cycles / clock) over the launches that
    /// measured both once files of one run are joined (the NERSC recipe), else cycles ÷
    /// duration, else `None`.
    pub fn measured_sm_clock_hz(&self) -> Option<f64> {
        if let Some(hz) = self.devices.main().and_then(DeviceRun::measured_sm_clock_hz) {
            return Some(hz);
        }
        let joined = self.launch_clock.unwrap_or_else(|| self.launches_clock());
        if joined.from_clock_metric() {
            return joined.clock_hz();
        }
        self.devices.measured_sm_clock_hz()
    }
}

impl Dataset {
    /// The clock sums of the kept launch records (joined across files).
    pub fn launches_clock(&self) -> devices::ClockStats {
        let mut joined = devices::ClockStats::default();
        for l in &self.launches {
            joined.add(&l.counters, l.count);
        }
        joined
    }
}

/// Gives kernels whose cycles and clock came from different files of one run (the NERSC
/// recipe collects one metric per file) their Σ over launches of cycles / clock, from the
/// launches joined across files: only where every launch of the kernel was kept and measured
/// both, else the kernel keeps Σcycles / mean clock.
pub(crate) fn fill_joined_cycle_times(ds: &mut Dataset) {
    // FxHash: one lookup per kept launch (10 000 on a large raw page; SipHash was ≈ 0.4 % of
    // reading one, docs/PERFORMANCE.md). Only looked up, never iterated.
    let mut per_kernel: rustc_hash::FxHashMap<&str, (u64, f64, bool)> = rustc_hash::FxHashMap::default();
    for l in &ds.launches {
        let e = per_kernel.entry(l.kernel.as_str()).or_insert((0, 0.0, true));
        e.0 = e.0.saturating_add(l.count);
        // Only records of single launches carry a launch's own cycles and clock.
        match cycle_time_s(&l.counters).filter(|_| l.count == 1) {
            Some(t) => e.1 += t,
            None => e.2 = false,
        }
    }
    for k in &mut ds.kernels {
        if k.counters.get(Counter::CycleTimeS).is_some() || k.counters.get(Counter::Cycles).is_none() || k.counters.get(Counter::ClockHz).is_none() {
            continue;
        }
        if let Some(&(launches, t, complete)) = per_kernel.get(k.name.as_str()) {
            if complete && launches == k.launches && t > 0.0 {
                k.counters.set(Counter::CycleTimeS, t);
            }
        }
    }
}

/// Reads `files` as one dataset. Fails on the first file that cannot be read. Files
/// arriving in chunks go through [`DatasetBuilder`] instead, with the same result.
pub fn load_dataset(files: &[SourceFile]) -> Result<Dataset, ImportError> {
    let mut b = DatasetBuilder::new();
    for file in files {
        b.add_file(file)?;
    }
    b.finish()
}

/// Whether two counter sets measure any counter in common, other than a clock they agree on.
///
/// Every Nsight Compute section that draws a roof repeats the clocks it ran at ("SM
/// Frequency", "DRAM Frequency": a `--section SpeedOfLight_RooflineChart` export lists them
/// under each body item), so two exports of one launch (its details page and its roofline
/// chart's) both carry the SM clock: the same launch, not another run, where the clocks agree
/// to the 3 significant digits the page prints them with (issue 42: they made two launches).
/// A shared count (time, bytes, instructions) still means another run.
fn overlaps(a: &Counters, b: &Counters) -> bool {
    a.iter().any(|(c, x)| b.get(c).is_some_and(|y| !(c.is_rate() && same_clock(x, y))))
}

/// Two clocks that agree to the half percent a 3-significant-digit print ("1.98 Ghz") allows.
fn same_clock(x: f64, y: f64) -> bool {
    (x - y).abs() <= 0.005 * x.abs().max(y.abs())
}

/// Adds one file's kernel totals to the dataset's (module doc: disjoint → union, overlapping → more launches).
fn merge_kernel(kernels: &mut Vec<KernelProfile>, index: &mut HashMap<String, usize>, k: KernelProfile) {
    let Some(&i) = index.get(&k.name) else {
        index.insert(k.name.clone(), kernels.len());
        kernels.push(k);
        return;
    };
    let Some(have) = kernels.get_mut(i) else { return };
    if overlaps(&have.counters, &k.counters) {
        let (n_have, n_new) = (have.launches as f64, k.launches as f64);
        for (c, v) in k.counters.iter() {
            match have.counters.get(c) {
                Some(prev) if c.is_rate() => have.counters.set(c, (prev * n_have + v * n_new) / (n_have + n_new).max(1.0)),
                _ => have.counters.add(c, v),
            }
        }
        have.launches = have.launches.saturating_add(k.launches);
    } else {
        have.counters.fill_from(&k.counters);
        have.launches = have.launches.max(k.launches);
    }
}

/// Sums launches per kernel name (counts, bytes, time); rates (the clock) become the
/// launch-weighted mean, so time = Σcycles / mean clock as in the NERSC recipe.
pub fn aggregate(launches: &[Launch]) -> Vec<KernelProfile> {
    let mut totals = KernelTotals::default();
    for l in launches {
        totals.add(&l.kernel, l.count, &l.counters);
    }
    totals.into_kernels()
}

/// Which of time, FLOPs and bytes no kernel has.
pub fn missing_for(kernels: &[KernelProfile]) -> hints::Missing {
    let any = |f: &dyn Fn(&KernelProfile) -> bool| kernels.iter().any(f);
    hints::Missing {
        time: !any(&|k| k.time_s().is_some()),
        flops: !any(&|k| k.total_flops(None).is_some() || k.counters.get(Counter::TensorInst).is_some()),
        bytes: !any(&|k| {
            [Counter::DramBytes, Counter::L2Bytes, Counter::L1Bytes, Counter::SharedBytes].iter().any(|&c| k.counters.get(c).is_some())
        }),
    }
}

/// The error a chart shows when the dataset cannot be drawn as a classic roofline: the
/// missing metrics and the exact command for the profiler the files came from.
pub fn roofline_requirements(ds: &Dataset) -> Result<(), ImportError> {
    let m = missing_for(&ds.kernels);
    if !m.any() {
        return Ok(());
    }
    let format = ds.files.iter().find(|f| hints::family(f.format) != hints::Family::Other).map_or("tidy", |f| f.format);
    let file = ds.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ");
    let (message, metrics, hint) = hints::missing_message(hints::family(format), m, ds.files.len());
    let hint = match format {
        "ncu-rep" => hints::for_report(&hint),
        // A report's details page has times (and bytes) but no FLOPs.
        "ncu-details" | "ncu-text" if m.flops && !m.time => hints::for_details_page(&hint),
        _ => hint,
    };
    let mut e = ImportError::new(&file, None, message).with_hint(hint);
    e.gap = Some(Box::new(crate::error::CounterGap { found: found_for(&ds.kernels), missing: metrics }));
    Err(e)
}

/// The warning for a FLOP metric set collected in part (issue 43): FLOP counters were
/// collected, but some precisions or operations were not, so kernels that run those show fewer
/// FLOPs than they did, or none. Names what is missing (the metrics) and the command that
/// collects them, and how many kernels show no FLOPs and their share of the run's time.
/// `None` when every FLOP metric of the files' profiler was collected, or none was (then
/// [`roofline_requirements`] speaks).
pub fn uncollected_flops(ds: &Dataset) -> Option<ImportError> {
    let kernels = &ds.kernels;
    if missing_for(kernels).flops {
        return None;
    }
    let counted = |c: Counter| kernels.iter().any(|k| k.counters.get(c).is_some());
    let format = ds.files.iter().find(|f| hints::family(f.format) != hints::Family::Other)?.format;
    let family = hints::family(format);
    // The metrics not collected, and the same in words ("FP32 add", "tensor-pipe instructions").
    let mut missing: Vec<&str> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    if family == hints::Family::Ncu {
        let direct = |c: Counter| match c {
            Counter::Fp64Add | Counter::Fp64Mul | Counter::Fp64Fma => counted(Counter::Fp64Flops),
            Counter::Fp32Add | Counter::Fp32Mul | Counter::Fp32Fma => counted(Counter::Fp32Flops),
            Counter::Fp16Add | Counter::Fp16Mul | Counter::Fp16Fma => counted(Counter::Fp16Flops),
            // Tensor work counted per data type, or as FLOPs, stands for the pipe's instructions.
            _ => counted(Counter::TensorFlops) || kernels.iter().any(|k| k.has_typed_matrix_work()),
        };
        for (metric, _) in hints::NCU_FLOP_COUNTERS.iter().filter(|(_, c)| !counted(*c) && !direct(*c)) {
            missing.push(metric);
            words.push(hints::ncu_op_name(metric).unwrap_or_else(|| "tensor-pipe instructions".to_string()));
        }
    } else {
        for (precision, direct, metrics) in hints::flop_metrics_by_precision(family) {
            if !counted(direct) {
                missing.extend_from_slice(metrics);
                words.push(format!("{precision} FLOPs"));
            }
        }
    }
    if missing.is_empty() {
        return None;
    }
    let total_s: f64 = kernels.iter().filter_map(|k| k.time_s()).sum();
    // No FLOPs of any kind, tensor-pipe instructions included (their FLOPs per instruction
    // are the machine's, not known here).
    let none = |v: Option<f64>| v.is_none_or(|f| f == 0.0);
    let flopless: Vec<&KernelProfile> = kernels.iter().filter(|k| none(k.total_flops(None)) && none(k.counters.get(Counter::TensorInst))).collect();
    let flopless_s: f64 = flopless.iter().filter_map(|k| k.time_s()).sum();
    let share = if total_s > 0.0 { format!(", {:.0}% of the run's time", 100.0 * flopless_s / total_s) } else { String::new() };
    let tail = if flopless.is_empty() { String::new() } else { format!("; {} of {} kernels show no FLOPs{share}", flopless.len(), kernels.len()) };
    let files = ds.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>().join(", ");
    let hint = match family {
        hints::Family::Nvprof => hints::nvprof_command(&missing),
        hints::Family::Rocprof => hints::rocprof_command(&missing),
        _ => hints::ncu_command(&missing),
    };
    let message = format!(
        "FLOPs were collected in part, without {}: kernels that run them show fewer FLOPs than they did{tail}",
        words.join(", "),
    );
    let mut e = ImportError::new(&files, None, message).with_hint(hint);
    e.gap = Some(Box::new(crate::error::CounterGap { found: found_for(kernels), missing: missing.iter().map(|m| m.to_string()).collect() }));
    Some(e)
}

/// What some kernel measured, in words ("time", "FP32 FLOPs", "tensor instructions", "DRAM
/// bytes"), in that order: the "found" half of a missing-counters warning.
pub fn found_for(kernels: &[KernelProfile]) -> Vec<String> {
    let any = |f: &dyn Fn(&KernelProfile) -> bool| kernels.iter().any(f);
    let counted = |c: Counter| any(&|k| k.counters.get(c).is_some());
    let mut out: Vec<String> = Vec::new();
    if any(&|k| k.time_s().is_some()) {
        out.push("time".into());
    }
    for (p, name) in [(Precision::Fp64, "FP64 FLOPs"), (Precision::Fp32, "FP32 FLOPs"), (Precision::Fp16, "FP16 FLOPs")] {
        if any(&|k| k.flops(p).is_some()) {
            out.push(name.into());
        }
    }
    if any(&|k| k.has_typed_matrix_work() || k.counters.get(Counter::TensorFlops).is_some()) {
        out.push("tensor FLOPs".into());
    } else if counted(Counter::TensorInst) {
        out.push("tensor instructions".into());
    }
    for (c, name) in [(Counter::DramBytes, "DRAM bytes"), (Counter::L2Bytes, "L2 bytes"), (Counter::L1Bytes, "L1 bytes"), (Counter::SharedBytes, "shared-memory bytes")] {
        if counted(c) {
            out.push(name.into());
        }
    }
    out
}

/// Sums every kernel whose full name matches `pattern` into one kernel called `group_name`
/// (placed where the first match was), e.g. TensorFlow housekeeping kernels into one op.
/// Counters add up; the clock is launch-weighted. A pattern that is not a valid regular
/// expression is an error naming it.
pub fn group_kernels(kernels: &[KernelProfile], pattern: &str, group_name: &str) -> Result<Vec<KernelProfile>, String> {
    let re = regex_lite::Regex::new(pattern).map_err(|e| format!("invalid pattern {pattern:?}: {e}"))?;
    let mut out: Vec<KernelProfile> = Vec::with_capacity(kernels.len());
    let mut group: Option<usize> = None;
    let mut weight = 0.0;
    for k in kernels {
        if !re.is_match(&k.name) {
            out.push(k.clone());
            continue;
        }
        let i = *group.get_or_insert_with(|| {
            out.push(KernelProfile { name: group_name.to_string(), launches: 0, counters: Counters::default() });
            out.len() - 1
        });
        let Some(g) = out.get_mut(i) else { continue };
        let n = k.launches as f64;
        for (c, v) in k.counters.iter() {
            if c.is_rate() {
                let prev = g.counters.get(c).unwrap_or(0.0);
                g.counters.set(c, (prev * weight + v * n) / (weight + n).max(1.0));
            } else {
                g.counters.add(c, v);
            }
        }
        weight += n;
        g.launches = g.launches.saturating_add(k.launches);
    }
    Ok(out)
}

/// The `n` kernels with the largest total time, longest first; kernels without a time come
/// last, in their original order.
pub fn top_by_time(kernels: &[KernelProfile], n: usize) -> Vec<KernelProfile> {
    let mut sorted: Vec<&KernelProfile> = kernels.iter().collect();
    crate::order::sort_by(&mut sorted, |a, b| match (a.time_s(), b.time_s()) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    sorted.into_iter().take(n).cloned().collect()
}

/// Total FLOPs of one precision over kernels, for summaries.
pub fn total_flops(kernels: &[KernelProfile], p: Precision) -> Option<f64> {
    let v: Vec<f64> = kernels.iter().filter_map(|k| k.flops(p)).collect();
    (!v.is_empty()).then(|| v.iter().sum())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(id: u64, kernel: &str, pairs: &[(Counter, f64)]) -> Launch {
        let mut counters = Counters::default();
        for &(c, v) in pairs {
            counters.set(c, v);
        }
        Launch { id: Some(id), kernel: kernel.into(), count: 1, counters, device: None }
    }

    fn kernel(name: &str, launches: u64, pairs: &[(Counter, f64)]) -> KernelProfile {
        let mut counters = Counters::default();
        for &(c, v) in pairs {
            counters.set(c, v);
        }
        KernelProfile { name: name.into(), launches, counters }
    }

    fn join_launches(all: &mut Vec<Launch>, join: &mut LaunchJoin, new: Vec<Launch>) -> u64 {
        let mut omitted = 0;
        for l in &new {
            join.add(all, &mut omitted, LaunchRef { id: l.id, kernel: &l.kernel, count: l.count, counters: &l.counters, device: l.device });
        }
        omitted
    }

    #[test]
    fn files_of_one_run_join_by_id_and_name() {
        let mut all = Vec::new();
        let mut index = LaunchJoin::default();
        join_launches(&mut all, &mut index, vec![launch(0, "a", &[(Counter::DramBytes, 64.0)]), launch(1, "b", &[(Counter::DramBytes, 32.0)])]);
        join_launches(&mut all, &mut index, vec![launch(0, "a", &[(Counter::Cycles, 100.0)]), launch(1, "c", &[(Counter::Cycles, 7.0)])]);
        assert_eq!(all.len(), 3, "id 1 names another kernel: not the same launch");
        assert_eq!(all[0].counters.get(Counter::Cycles), Some(100.0));
        assert_eq!(all[0].counters.get(Counter::DramBytes), Some(64.0));
        join_launches(&mut all, &mut index, vec![launch(0, "a", &[(Counter::DramBytes, 1.0)])]);
        assert_eq!(all.len(), 4, "the same counter again is another run, not the same launch");
        join_launches(&mut all, &mut index, vec![launch(1, "c", &[(Counter::DramBytes, 5.0)])]);
        assert_eq!((all.len(), all[2].counters.get(Counter::DramBytes)), (4, Some(5.0)), "the second kernel of an id joins too");
    }

    #[test]
    fn kept_launches_are_capped_but_still_join() {
        let mut all = Vec::new();
        let mut index = LaunchJoin::default();
        let many: Vec<Launch> = (0..MAX_KEPT_LAUNCHES as u64 + 5).map(|i| launch(i, "k", &[(Counter::DramBytes, 1.0)])).collect();
        assert_eq!(join_launches(&mut all, &mut index, many), 5);
        assert_eq!(all.len(), MAX_KEPT_LAUNCHES);
        assert_eq!(join_launches(&mut all, &mut index, vec![launch(3, "k", &[(Counter::Cycles, 9.0)])]), 0);
        assert_eq!(all[3].counters.get(Counter::Cycles), Some(9.0));
    }

    #[test]
    fn aggregation_sums_counts_and_averages_the_clock() {
        let ls = vec![
            launch(0, "k", &[(Counter::Cycles, 100.0), (Counter::ClockHz, 1e9)]),
            launch(1, "k", &[(Counter::Cycles, 300.0), (Counter::ClockHz, 2e9)]),
        ];
        let ks = aggregate(&ls);
        assert_eq!(ks.len(), 1);
        assert_eq!(ks[0].launches, 2);
        assert_eq!(ks[0].counters.get(Counter::Cycles), Some(400.0));
        assert_eq!(ks[0].counters.get(Counter::ClockHz), Some(1.5e9));
        // Σ over launches of cycles / clock: 100 / 1e9 + 300 / 2e9 = 2.5e-7 s (not
        // Σcycles / mean clock = 400 / 1.5e9 = 2.67e-7 s).
        assert_eq!(ks[0].time_s(), Some(2.5e-7));
    }

    #[test]
    fn kernels_merge_disjoint_counters_and_add_overlapping_ones() {
        let mut ks = Vec::new();
        let mut idx = HashMap::new();
        merge_kernel(&mut ks, &mut idx, kernel("k", 200, &[(Counter::Fp32Flops, 1e9)]));
        merge_kernel(&mut ks, &mut idx, kernel("k", 200, &[(Counter::TimeS, 2.0)]));
        assert_eq!((ks[0].launches, ks[0].counters.get(Counter::Fp32Flops), ks[0].time_s()), (200, Some(1e9), Some(2.0)));
        merge_kernel(&mut ks, &mut idx, kernel("k", 100, &[(Counter::TimeS, 1.0)]));
        assert_eq!((ks[0].launches, ks[0].time_s()), (300, Some(3.0)));
    }

    #[test]
    fn grouping_and_top_n() {
        let ks = vec![
            kernel("Eigen::a", 1, &[(Counter::TimeS, 1.0)]),
            kernel("gemm", 2, &[(Counter::TimeS, 5.0)]),
            kernel("Eigen::b", 3, &[(Counter::TimeS, 2.0), (Counter::DramBytes, 8.0)]),
        ];
        let g = group_kernels(&ks, "^Eigen::", "Eigen housekeeping").unwrap();
        assert_eq!(g.len(), 2);
        assert_eq!((g[0].name.as_str(), g[0].launches, g[0].time_s()), ("Eigen housekeeping", 4, Some(3.0)));
        assert!(group_kernels(&ks, "(", "x").is_err());
        let top = top_by_time(&g, 1);
        assert_eq!(top[0].name, "gemm");
    }
}
