//! Binary formats: files that are not text (Nsight Compute's `.ncu-rep` reports, rocprofv3's
//! SQLite databases), recognised by their first bytes and read from chunks of bytes, never
//! decoded as UTF-8.
//!
//! They stream like the CSV pages ([`super::stream`]): a [`BinaryParser`] is fed the file as
//! it arrives and hands each launch to a [`LaunchSink`] as soon as it is complete.

use super::stream::LaunchSink;
use crate::domain::Device;
use crate::error::ImportError;

/// How many first bytes [`detect`] needs to decide: SQLite's 16-byte header string.
pub const DETECT_BYTES: usize = 16;

/// The first 16 bytes of every SQLite 3 database file ("The Database Header", sqlite.org
/// fileformat2): rocprofv3's `<name>_results.db` ([`super::rocpd`]).
pub const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Whether a file starting with `head` is an SQLite database (its first 16 bytes).
pub fn is_database(head: &[u8]) -> bool {
    head.starts_with(SQLITE_MAGIC)
}

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

/// Every binary importer. Nsight Compute reports need the `ncu-rep` feature (the app's page
/// module and the link chart read no file; the parser worker has it). Databases are always
/// recognised: without the `rocpd` feature [`UnreadDatabase`] says where they are read,
/// rather than the UTF-8 error a text reader would give.
pub fn binary_importers() -> &'static [&'static dyn BinaryImporter] {
    &[
        #[cfg(feature = "ncu-rep")]
        &super::ncu_rep::NsightComputeReport,
        #[cfg(feature = "rocpd")]
        &super::rocpd::RocpdDatabase,
        #[cfg(not(feature = "rocpd"))]
        &UnreadDatabase,
    ]
}

/// A rocprofv3 database in a build without SQLite (the `rocpd` feature): recognised by its
/// header, refused with where it can be read. Keeps nothing of the file.
#[cfg(not(feature = "rocpd"))]
pub struct UnreadDatabase;

#[cfg(not(feature = "rocpd"))]
impl BinaryImporter for UnreadDatabase {
    fn format(&self) -> &'static str {
        "rocpd"
    }

    fn detect(&self, head: &[u8]) -> bool {
        is_database(head)
    }

    fn reader(&self, file: &str) -> Box<dyn BinaryParser> {
        Box::new(Refused { file: file.to_string() })
    }
}

#[cfg(not(feature = "rocpd"))]
struct Refused {
    file: String,
}

#[cfg(not(feature = "rocpd"))]
impl BinaryParser for Refused {
    fn push(&mut self, _chunk: &[u8], _out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        Ok(())
    }

    fn finish(&mut self, _out: &mut dyn LaunchSink) -> Result<Vec<ImportError>, ImportError> {
        Err(ImportError::new(
            &self.file,
            None,
            "a rocprofv3 database (SQLite); this build reads it in the `roofline` CLI and the web app, not here (the engine's `rocpd` feature)",
        ))
    }
}

/// The binary importer for a file starting with `head`.
pub fn detect(head: &[u8]) -> Option<&'static dyn BinaryImporter> {
    binary_importers().iter().copied().find(|imp| imp.detect(head))
}
