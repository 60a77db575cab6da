//! Nsight Compute's own report files: `.ncu-rep` (`.nsight-cuprof-report` before 2020) and
//! `.ncu-repz` (the same, zstd-compressed), recognised by their first bytes.
//!
//! A report is a sequence of protobuf messages in a small framing of little-endian lengths
//! (docs/FORMATS.md, "Nsight Compute report"): [`container`] cuts it into messages as chunks
//! arrive, [`messages`] declares the few messages read (decoded with `prost`), [`report`]
//! keeps the string table and session and hands over each result, [`launch`] turns a result
//! into a launch's counters. Memory stays at about one result (under a megabyte for a
//! `--set full` result) whatever the size of the report: SASS binaries and everything else
//! not needed is skipped as it streams past.

pub mod container;
pub mod launch;
pub mod messages;
pub mod report;
pub mod value;
pub mod zstd;

use super::binary::{BinaryImporter, BinaryParser};
use super::stream::{LaunchRef, LaunchSink, NameCache};
use super::ncu_devices::FileDevices;
use super::ncu_metrics::unknown_units_warning;
use crate::domain::Device;
use crate::error::ImportError;
use report::{ReportReader, ResultView};

/// Nsight Compute reports (module doc).
pub struct NsightComputeReport;

impl BinaryImporter for NsightComputeReport {
    fn format(&self) -> &'static str {
        "ncu-rep"
    }

    /// `NVR\0`, or the zstd frame magic (`.ncu-repz`).
    fn detect(&self, head: &[u8]) -> bool {
        report::looks_like_report(head)
    }

    fn reader(&self, file: &str) -> Box<dyn BinaryParser> {
        Box::new(ReportParser::new(file))
    }
}

/// A report read as launches (the importer's [`BinaryParser`]).
pub struct ReportParser {
    file: String,
    reader: ReportReader,
    names: NameCache,
    devices: FileDevices,
    unknown_units: Vec<(String, String)>,
}

impl ReportParser {
    pub fn new(file: &str) -> Self {
        ReportParser { file: file.to_string(), reader: ReportReader::new(file), names: NameCache::default(), devices: FileDevices::default(), unknown_units: Vec::new() }
    }

    /// The visitor handing each result to `out` as a launch.
    fn visit<'s>(
        file: &'s str,
        names: &'s mut NameCache,
        devices: &'s mut FileDevices,
        unknown_units: &'s mut Vec<(String, String)>,
        out: &'s mut dyn LaunchSink,
    ) -> impl FnMut(&ResultView<'_>) -> Result<(), ImportError> + 's {
        move |view| {
            let l = launch::launch_from_result(file, view)?;
            for u in &l.unknown_units {
                if !unknown_units.contains(u) {
                    unknown_units.push(u.clone());
                }
            }
            let kernel = names.intern(view.kernel_name());
            let device = devices.index_of(&l);
            out.launch(LaunchRef { id: Some(view.index), kernel: names.name(kernel), count: 1, counters: &l.counters, device });
            Ok(())
        }
    }
}

impl BinaryParser for ReportParser {
    fn push(&mut self, chunk: &[u8], out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        let ReportParser { file, reader, names, devices, unknown_units } = self;
        reader.push(chunk, &mut Self::visit(file, names, devices, unknown_units, out))
    }

    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<Vec<ImportError>, ImportError> {
        let ReportParser { file, reader, names, devices, unknown_units } = self;
        let mut warnings = reader.finish(&mut Self::visit(file, names, devices, unknown_units, out))?;
        warnings.extend(unknown_units_warning(&self.file, &self.unknown_units));
        Ok(warnings)
    }

    fn tool(&self) -> Option<String> {
        self.reader.session().tool_version().map(|v| format!("Nsight Compute {v}"))
    }

    /// Each device launches ran on, as its results describe it, completed by the session's
    /// description of the same device (attributes the results lack).
    fn devices(&self) -> Vec<Device> {
        let session: Vec<Device> = self.reader.session().devices.iter().filter_map(launch::session_device).collect();
        self.devices
            .devices()
            .into_iter()
            .map(|mut d| {
                if let Some(s) = session.iter().find(|s| s.agrees_with(&d)) {
                    d.fill_from(s);
                }
                d
            })
            .collect()
    }
}
