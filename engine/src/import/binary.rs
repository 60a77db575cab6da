//! Binary formats: files that are not text (Nsight Compute's `.ncu-rep` reports), recognised
//! by their first bytes and read from chunks of bytes, never decoded as UTF-8.
//!
//! They stream like the CSV pages ([`super::stream`]): a [`BinaryParser`] is fed the file as
//! it arrives and hands each launch to a [`LaunchSink`] as soon as it is complete.

use super::stream::LaunchSink;
use crate::domain::Device;
use crate::error::ImportError;

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

/// Every binary importer (none without the `ncu-rep` feature: the app's page module and the
/// link chart, which read no file; the parser worker has it).
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

/// The binary importer for a file starting with `head`.
pub fn detect(head: &[u8]) -> Option<&'static dyn BinaryImporter> {
    binary_importers().iter().copied().find(|imp| imp.detect(head))
}
