//! From files to kernels: detect each file's format, import it, join files of one run,
//! and aggregate launches per kernel.

use crate::counters::{Counter, Counters};
use crate::error::ImportError;
use crate::import::{self, Transfer};
use crate::model::Machine;
use crate::profile::{KernelProfile, Launch};
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
    /// Kernels in order of first appearance.
    pub kernels: Vec<KernelProfile>,
    pub transfers: Vec<Transfer>,
    /// A machine described by one of the files (ERT, Advisor roofs, rocprof-compute).
    pub machine: Option<Machine>,
}

/// Reads `files` as one dataset. Fails on the first file that cannot be read.
pub fn load_dataset(files: &[SourceFile]) -> Result<Dataset, ImportError> {
    let mut ds = Dataset::default();
    let mut launches: Vec<Launch> = Vec::new();
    for file in files {
        let text = import::decode(file)?;
        let importer = import::detect(text).ok_or_else(|| {
            ImportError::new(&file.name, None, "not a recognised profiler output (expected Nsight Compute, nvprof, rocprof, Intel Advisor or ERT)")
        })?;
        let imported = importer.import(&file.name, text)?;
        ds.files.push(FileInfo { path: file.name.clone(), format: importer.format() });
        join_launches(&mut launches, imported.launches);
        ds.transfers.extend(imported.transfers);
        if imported.machine.is_some() {
            ds.machine = imported.machine;
        }
    }
    ds.kernels = aggregate(&launches);
    Ok(ds)
}

/// Joins launches of one run split over several files (the NERSC recipe collects one metric
/// per run): a launch with the same id and kernel name as one already read gains its counters.
fn join_launches(all: &mut Vec<Launch>, new: Vec<Launch>) {
    let index: HashMap<(u64, String), usize> = all
        .iter()
        .enumerate()
        .filter_map(|(i, l)| Some(((l.id?, l.kernel.clone()), i)))
        .collect();
    for launch in new {
        match launch.id.and_then(|id| index.get(&(id, launch.kernel.clone()))) {
            Some(&i) => all[i].counters.fill_from(&launch.counters),
            None => all.push(launch),
        }
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
        let k = &mut order[i];
        k.launches += l.count;
        for (c, v) in l.counters.iter() {
            if c.is_rate() {
                let w = rate_weights[i].entry(c).or_insert(0.0);
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

    #[test]
    fn files_of_one_run_join_by_id_and_name() {
        let mut all = vec![launch(0, "a", &[(Counter::DramBytes, 64.0)]), launch(1, "b", &[(Counter::DramBytes, 32.0)])];
        join_launches(&mut all, vec![launch(0, "a", &[(Counter::Cycles, 100.0)]), launch(1, "c", &[(Counter::Cycles, 7.0)])]);
        assert_eq!(all.len(), 3, "id 1 names another kernel: not the same launch");
        assert_eq!(all[0].counters.get(Counter::Cycles), Some(100.0));
        assert_eq!(all[0].counters.get(Counter::DramBytes), Some(64.0));
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
}
