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
pub mod device;
pub mod launch;
pub mod messages;
pub mod report;
pub mod value;
pub mod zstd;

use super::binary::{BinaryImporter, BinaryParser};
use super::stream::{LaunchRef, LaunchSink, NameCache};
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
    devices: ReportDevices,
}

/// The devices launches ran on, in order of first use: the device id (`launch__device_id`)
/// and the device as the first result on it describes it.
#[derive(Default)]
struct ReportDevices(Vec<(u32, Device)>);

impl ReportDevices {
    /// The index of the device with `id`, added with `seen` if new (at most `u16::MAX` devices).
    fn index(&mut self, id: u32, seen: Device) -> Option<u16> {
        let i = match self.0.iter().position(|(d, _)| *d == id) {
            Some(i) => i,
            None => {
                self.0.push((id, seen));
                self.0.len() - 1
            }
        };
        u16::try_from(i).ok()
    }
}

impl ReportParser {
    pub fn new(file: &str) -> Self {
        ReportParser { file: file.to_string(), reader: ReportReader::new(file), names: NameCache::default(), devices: ReportDevices::default() }
    }

    /// The visitor handing each result to `out` as a launch.
    fn visit<'s>(file: &'s str, names: &'s mut NameCache, devices: &'s mut ReportDevices, out: &'s mut dyn LaunchSink) -> impl FnMut(&ResultView<'_>) -> Result<(), ImportError> + 's {
        move |view| {
            let l = launch::launch_from_result(file, view)?;
            let kernel = names.intern(l.kernel);
            let device = devices.index(l.device_id.unwrap_or(0), l.device);
            out.launch(LaunchRef { id: Some(view.index), kernel: names.name(kernel), count: 1, counters: &l.counters, device });
            Ok(())
        }
    }
}

impl BinaryParser for ReportParser {
    fn push(&mut self, chunk: &[u8], out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        let ReportParser { file, reader, names, devices } = self;
        reader.push(chunk, &mut Self::visit(file, names, devices, out))
    }

    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<Vec<ImportError>, ImportError> {
        let ReportParser { file, reader, names, devices } = self;
        let cut = reader.finish(&mut Self::visit(file, names, devices, out))?;
        Ok(cut.into_iter().collect())
    }

    fn tool(&self) -> Option<String> {
        self.reader.session().tool_version().map(|v| format!("Nsight Compute {v}"))
    }

    /// Each device launches ran on: its results' attributes, completed by the session's.
    fn devices(&self) -> Vec<Device> {
        let session = &self.reader.session().devices;
        self.devices
            .0
            .iter()
            .map(|(id, seen)| {
                let mut d = seen.clone();
                if let Some(s) = session.iter().find(|s| s.id.unwrap_or(0) == *id) {
                    let mut from_session = Device::default();
                    for a in &s.attributes {
                        device::add_attribute(&mut from_session, a.name.as_deref().unwrap_or(""), value::value_of(a.value.as_ref()));
                    }
                    if from_session.name.is_none() {
                        from_session.name = s.name.as_deref().map(crate::domain::device::clean_name);
                    }
                    d.fill_from(&from_session);
                }
                d.normalised()
            })
            .collect()
    }
}
