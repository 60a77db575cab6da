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
//!   the same counters again adds launches (two runs of an application).

use crate::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::{self, hints, Transfer};
use crate::model::Machine;
use crate::profile::{KernelProfile, Launch, Precision};
use std::collections::HashMap;

/// A file as the user gave it: a display name and its bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A file that was read and the format it was read as.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FileInfo {
    pub path: String,
    pub format: &'static str,
}

/// Everything read from a set of files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    pub files: Vec<FileInfo>,
    /// Kernels in order of first appearance; names are full (demangled) names, see
    /// [`KernelProfile::display_name`] for the short form.
    pub kernels: Vec<KernelProfile>,
    /// Every launch read, launches of one run split over files joined (per-launch detail).
    pub launches: Vec<Launch>,
    pub transfers: Vec<Transfer>,
    /// A machine described by the files (ERT, Advisor roofs, rocprof-compute); several
    /// machine files are merged, the first file's numbers winning.
    pub machine: Option<Machine>,
    /// Not fatal: what the data lacks for a roofline, with the command that collects it.
    pub warnings: Vec<ImportError>,
}

/// Reads `files` as one dataset. Fails on the first file that cannot be read.
pub fn load_dataset(files: &[SourceFile]) -> Result<Dataset, ImportError> {
    let mut ds = Dataset::default();
    let mut kernel_index: HashMap<String, usize> = HashMap::new();
    let mut launch_index: HashMap<(u64, String), usize> = HashMap::new();
    for file in files {
        let text = import::decode(file)?;
        let importer = import::detect(text).ok_or_else(|| {
            ImportError::new(&file.name, None, "not a recognised profiler output (expected Nsight Compute, nvprof, rocprof, Intel Advisor, ERT or tidy CSV)")
                .with_hint("docs/FORMATS.md lists the supported formats and the commands that produce them")
        })?;
        let imported = importer.import(&file.name, text)?;
        ds.files.push(FileInfo { path: file.name.clone(), format: importer.format() });
        for k in aggregate(&imported.launches) {
            merge_kernel(&mut ds.kernels, &mut kernel_index, k);
        }
        join_launches(&mut ds.launches, &mut launch_index, imported.launches);
        ds.transfers.extend(imported.transfers);
        if let Some(m) = imported.machine {
            match ds.machine.as_mut() {
                Some(existing) => import::machine::merge(existing, m),
                None => ds.machine = Some(m),
            }
        }
    }
    if !ds.kernels.is_empty() {
        if let Err(w) = roofline_requirements(&ds) {
            ds.warnings.push(w);
        }
    }
    Ok(ds)
}

/// Whether two counter sets measure any counter in common.
fn overlaps(a: &Counters, b: &Counters) -> bool {
    a.iter().any(|(c, _)| b.get(c).is_some())
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
        have.launches += k.launches;
    } else {
        have.counters.fill_from(&k.counters);
        have.launches = have.launches.max(k.launches);
    }
}

/// Joins launches of one run split over several files: a launch with the same id and kernel
/// name as one already read, measuring other counters, gains its counters.
fn join_launches(all: &mut Vec<Launch>, index: &mut HashMap<(u64, String), usize>, new: Vec<Launch>) {
    for launch in new {
        if let Some(id) = launch.id {
            let key = (id, launch.kernel.clone());
            if let Some(existing) = index.get(&key).and_then(|&i| all.get_mut(i)) {
                if !overlaps(&existing.counters, &launch.counters) {
                    existing.counters.fill_from(&launch.counters);
                    continue;
                }
            } else {
                index.insert(key, all.len());
            }
        }
        all.push(launch);
    }
}

/// Sums launches per kernel name (counts, bytes, time); rates (the clock) become the
/// launch-weighted mean, so time = Σcycles / mean clock as in the NERSC recipe.
pub fn aggregate(launches: &[Launch]) -> Vec<KernelProfile> {
    let mut order: Vec<KernelProfile> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let mut rate_weights: Vec<HashMap<Counter, f64>> = Vec::new();
    for l in launches {
        let i = *by_name.entry(&l.kernel).or_insert_with(|| {
            order.push(KernelProfile { name: l.kernel.clone(), launches: 0, counters: Counters::default() });
            rate_weights.push(HashMap::new());
            order.len() - 1
        });
        let (Some(k), Some(weights)) = (order.get_mut(i), rate_weights.get_mut(i)) else { continue };
        k.launches += l.count;
        for (c, v) in l.counters.iter() {
            if c.is_rate() {
                let w = weights.entry(c).or_insert(0.0);
                let prev = k.counters.get(c).unwrap_or(0.0);
                let n = l.count as f64;
                k.counters.set(c, (prev * *w + v * n) / (*w + n));
                *w += n;
            } else {
                k.counters.add(c, v * l.count as f64);
            }
        }
    }
    order
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
    let (message, hint) = hints::missing_message(hints::family(format), m);
    Err(ImportError::new(&file, None, message).with_hint(hint))
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
        g.launches += k.launches;
    }
    Ok(out)
}

/// The `n` kernels with the largest total time, longest first; kernels without a time come
/// last, in their original order.
pub fn top_by_time(kernels: &[KernelProfile], n: usize) -> Vec<KernelProfile> {
    let mut sorted: Vec<&KernelProfile> = kernels.iter().collect();
    sorted.sort_by(|a, b| match (a.time_s(), b.time_s()) {
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
        Launch { id: Some(id), kernel: kernel.into(), count: 1, counters }
    }

    fn kernel(name: &str, launches: u64, pairs: &[(Counter, f64)]) -> KernelProfile {
        let mut counters = Counters::default();
        for &(c, v) in pairs {
            counters.set(c, v);
        }
        KernelProfile { name: name.into(), launches, counters }
    }

    #[test]
    fn files_of_one_run_join_by_id_and_name() {
        let mut all = Vec::new();
        let mut index = HashMap::new();
        join_launches(&mut all, &mut index, vec![launch(0, "a", &[(Counter::DramBytes, 64.0)]), launch(1, "b", &[(Counter::DramBytes, 32.0)])]);
        join_launches(&mut all, &mut index, vec![launch(0, "a", &[(Counter::Cycles, 100.0)]), launch(1, "c", &[(Counter::Cycles, 7.0)])]);
        assert_eq!(all.len(), 3, "id 1 names another kernel: not the same launch");
        assert_eq!(all[0].counters.get(Counter::Cycles), Some(100.0));
        assert_eq!(all[0].counters.get(Counter::DramBytes), Some(64.0));
        join_launches(&mut all, &mut index, vec![launch(0, "a", &[(Counter::DramBytes, 1.0)])]);
        assert_eq!(all.len(), 4, "the same counter again is another run, not the same launch");
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
        assert_eq!(ks[0].time_s(), Some(400.0 / 1.5e9));
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
