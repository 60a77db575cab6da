//! A [`Dataset`] as it crosses from the module that parsed it to the one that shows it (the
//! web app parses in a worker, `worker/`, and paints in the page): a serde form of every
//! field the page uses, the per-device clock sums included (the CLI's JSON leaves them out, so
//! `DeviceRun`'s own `Serialize` cannot carry them). The launch records (up to 10,000, which
//! the page never lists) stay behind: their clock sums cross instead
//! ([`Dataset::launch_clock`]), so the page's [`Dataset::measured_sm_clock_hz`], kernels,
//! machine choice and warnings are exactly those of the dataset parsed in place (tested), and
//! the message stays small (measured: docs/PERFORMANCE.md).

use super::devices::{ClockStats, DeviceRun, Devices};
use super::Dataset;
use crate::domain::profile::KernelProfile;
use crate::domain::{FileInfo, Transfer};
use crate::error::ImportError;
use crate::model::Machine;
use serde::{Deserialize, Serialize};

/// Every field of a [`Dataset`], in a form serde can write and read back.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DatasetWire {
    /// Each file's path, format id and the tool that wrote it.
    pub files: Vec<(String, String, Option<String>)>,
    pub kernels: Vec<KernelProfile>,
    /// The clock sums of the launch records, which are not carried.
    pub launch_clock: ClockStats,
    /// Launch records kept and omitted.
    pub launches: u64,
    pub launches_omitted: u64,
    pub transfers: Vec<Transfer>,
    pub machine: Option<Machine>,
    pub machine_alternatives: Vec<Machine>,
    pub warnings: Vec<ImportError>,
    /// Each device run with the clock sums behind its measured clock.
    pub devices: Vec<(DeviceRun, ClockStats)>,
    pub unattributed: ClockStats,
}

impl From<Dataset> for DatasetWire {
    fn from(ds: Dataset) -> Self {
        let launch_clock = ds.launch_clock.unwrap_or_else(|| ds.launches_clock());
        DatasetWire {
            files: ds.files.into_iter().map(|f| (f.path, f.format.to_string(), f.tool)).collect(),
            launch_clock,
            launches: ds.launches.len() as u64,
            kernels: ds.kernels,
            launches_omitted: ds.launches_omitted,
            transfers: ds.transfers,
            machine: ds.machine,
            machine_alternatives: ds.machine_alternatives,
            warnings: ds.warnings,
            devices: ds.devices.runs.into_iter().map(|r| {
                let stats = *r.clock_stats();
                (r, stats)
            }).collect(),
            unattributed: ds.devices.unattributed,
        }
    }
}

impl From<DatasetWire> for Dataset {
    fn from(w: DatasetWire) -> Self {
        Dataset {
            files: w.files.into_iter().map(|(path, format, tool)| FileInfo { path, format: crate::domain::source::intern_format(&format), tool }).collect(),
            kernels: w.kernels,
            launches: Vec::new(),
            launch_clock: Some(w.launch_clock),
            launches_omitted: w.launches_omitted.saturating_add(w.launches),
            transfers: w.transfers,
            machine: w.machine,
            machine_alternatives: w.machine_alternatives,
            warnings: w.warnings,
            devices: Devices { runs: w.devices.into_iter().map(|(r, stats)| r.with_stats(stats)).collect(), unattributed: w.unattributed },
        }
    }
}

#[cfg(all(test, feature = "json"))]
mod tests {
    use super::*;
    use crate::SourceFile;
    use std::path::Path;

    fn sample(rel: &str) -> SourceFile {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples").join(rel);
        SourceFile { name: rel.to_string(), bytes: std::fs::read(path).expect("sample") }
    }

    /// Through serde's JSON (a self-describing format, as the app's JavaScript values are)
    /// and back: the same dataset but for the launch records, and the same measured clock.
    #[test]
    fn a_dataset_survives_the_wire() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/ncu");
        let Ok(entries) = std::fs::read_dir(&dir) else { return };
        let mut files: Vec<SourceFile> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("DeepLearningProfiling__"))
            .map(|n| sample(&format!("ncu/{n}")))
            .collect();
        files.sort_by(|a, b| a.name.cmp(&b.name));
        let ds = crate::load_dataset(&files).expect("the NERSC run loads");
        assert!(!ds.launches.is_empty() && !ds.kernels.is_empty());
        let text = serde_json::to_string(&DatasetWire::from(ds.clone())).expect("serialises");
        let back: Dataset = serde_json::from_str::<DatasetWire>(&text).expect("reads back").into();
        assert!(ds.measured_sm_clock_hz().is_some());
        assert_eq!(back.measured_sm_clock_hz(), ds.measured_sm_clock_hz());
        assert_eq!((back.launches.len(), back.launches_omitted), (0, ds.launches.len() as u64 + ds.launches_omitted));
        let without_records = Dataset { launches: Vec::new(), launches_omitted: back.launches_omitted, launch_clock: back.launch_clock, ..ds.clone() };
        assert_eq!(back, without_records);
        assert_eq!(crate::choice::profile_machines(&back), crate::choice::profile_machines(&ds));
    }
}
