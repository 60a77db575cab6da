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
}

impl ReportParser {
    pub fn new(file: &str) -> Self {
        ReportParser { file: file.to_string(), reader: ReportReader::new(file), names: NameCache::default() }
    }

    /// The visitor handing each result to `out` as a launch.
    fn visit<'s>(file: &'s str, names: &'s mut NameCache, out: &'s mut dyn LaunchSink) -> impl FnMut(&ResultView<'_>) -> Result<(), ImportError> + 's {
        move |view| {
            let l = launch::launch_from_result(file, view)?;
            let kernel = names.intern(l.kernel);
            out.launch(LaunchRef { id: Some(view.index), kernel: names.name(kernel), count: 1, counters: &l.counters });
            Ok(())
        }
    }
}

impl BinaryParser for ReportParser {
    fn push(&mut self, chunk: &[u8], out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        let ReportParser { file, reader, names } = self;
        reader.push(chunk, &mut Self::visit(file, names, out))
    }

    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<Vec<ImportError>, ImportError> {
        let ReportParser { file, reader, names } = self;
        let cut = reader.finish(&mut Self::visit(file, names, out))?;
        Ok(cut.into_iter().collect())
    }

    fn tool(&self) -> Option<String> {
        self.reader.session().tool_version().map(|v| format!("Nsight Compute {v}"))
    }
}
