//! Binary formats: files that are not text (Nsight Compute's `.ncu-rep` reports), recognised
//! by their first bytes and read from chunks of bytes, never decoded as UTF-8.
//!
//! They stream like the CSV pages ([`super::stream`]): a [`BinaryParser`] is fed the file as
//! it arrives and hands each launch to a [`LaunchSink`] as soon as it is complete.

use super::stream::LaunchSink;
use crate::domain::profile::Launch;
use crate::domain::Device;
use crate::error::ImportError;
use serde::{Deserialize, Serialize};

/// How many first bytes [`detect`] needs to decide.
pub const DETECT_BYTES: usize = 4;

/// A binary profiler format.
pub trait BinaryImporter: Sync {
    /// Stable identifier, printed as `format` in the CLI's JSON (public contract).
    fn format(&self) -> &'static str;
    /// Whether a file starting with `head` (at least [`DETECT_BYTES`] bytes, or the whole
    /// file if shorter) is in this format.
    fn detect(&self, head: &[u8]) -> bool;
    /// A reader for one file.
    fn reader(&self, file: &str) -> Box<dyn BinaryParser>;
}

/// A chunk-fed reader of one binary file.
pub trait BinaryParser {
    /// Reads the next `chunk` (any size) of the file.
    fn push(&mut self, chunk: &[u8], out: &mut dyn LaunchSink) -> Result<(), ImportError>;
    /// Ends the file: an error when it held nothing usable, else warnings (a file cut short).
    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<Vec<ImportError>, ImportError>;
    /// The tool and version that wrote the file, when it says ("Nsight Compute 2025.1.0.0
    /// (build 35237751)"); complete after [`BinaryParser::finish`].
    fn tool(&self) -> Option<String> {
        None
    }
    /// The devices the file describes, indexed by [`super::stream::LaunchRef::device`];
    /// complete after [`BinaryParser::finish`].
    fn devices(&self) -> Vec<Device> {
        Vec::new()
    }
}

/// Every binary importer (none without the `ncu-rep` feature: the web app's first-visit
/// module, which hands reports to its worker module, [`starts_like_report`]).
pub fn binary_importers() -> &'static [&'static dyn BinaryImporter] {
    #[cfg(feature = "ncu-rep")]
    {
        &[&super::ncu_rep::NsightComputeReport]
    }
    #[cfg(not(feature = "ncu-rep"))]
    {
        &[]
    }
}

/// Whether a file starting with `head` is an Nsight Compute report (`NVR\0`) or
/// zstd-compressed (`.ncu-repz`), whether or not this build can read it.
pub fn starts_like_report(head: &[u8]) -> bool {
    head.starts_with(b"NVR\0") || head.starts_with(&[0x28, 0xB5, 0x2F, 0xFD])
}

/// The binary importer for a file starting with `head`.
pub fn detect(head: &[u8]) -> Option<&'static dyn BinaryImporter> {
    binary_importers().iter().copied().find(|imp| imp.detect(head))
}

/// Every binary format's id, whether or not this build reads it (the app's first-visit
/// module takes the worker's results by these).
pub const FORMATS: [&str; 1] = ["ncu-rep"];

/// What a binary file gave, in a form that crosses from a worker module to the page's
/// (serde): [`crate::dataset::DatasetBuilder::add_binary_read`] adds it as the builder's own
/// reader would have.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BinaryRead {
    /// One of [`FORMATS`].
    pub format: String,
    pub tool: Option<String>,
    pub launches: Vec<Launch>,
    /// Indexed by [`Launch::device`].
    pub devices: Vec<Device>,
    /// Warnings' messages (cut file, units not understood).
    pub warnings: Vec<String>,
}

/// Reads a binary file pushed in chunks into a [`BinaryRead`] (the worker module's side).
pub struct BinaryReader {
    format: &'static str,
    parser: Box<dyn BinaryParser>,
    launches: super::stream::Collect,
}

impl BinaryReader {
    /// A reader for the file starting with `head`; `None` if no importer of this build knows it.
    pub fn for_head(file: &str, head: &[u8]) -> Option<BinaryReader> {
        let imp = detect(head)?;
        Some(BinaryReader { format: imp.format(), parser: imp.reader(file), launches: super::stream::Collect::default() })
    }

    pub fn push(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.parser.push(chunk, &mut self.launches)
    }

    pub fn finish(mut self) -> Result<BinaryRead, ImportError> {
        let warnings = self.parser.finish(&mut self.launches)?;
        Ok(BinaryRead {
            format: self.format.to_string(),
            tool: self.parser.tool(),
            launches: self.launches.0,
            devices: self.parser.devices(),
            warnings: warnings.into_iter().map(|w| w.message).collect(),
        })
    }
}
