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
