//! A file read outside the builder, added whole: the web app reads rocprofv3 databases in a
//! SQLite worker of their own (`rocpd-worker/`), which posts back the file's [`Imported`]; the
//! parser worker adds it here, in the list's order, as [`DatasetBuilder::add_read`] adds what
//! its second parser read ([`super::file_read`]): the launches replayed into the same sums,
//! launch join and devices as if the builder had read the file itself.

use super::file_read::FileRead;
use super::part::LaunchCodec;
use super::DatasetBuilder;
use crate::error::ImportError;
use crate::import::stream::{LaunchRef, LaunchSink};
use crate::import::Imported;

impl FileRead {
    /// What a whole-file reading of a binary format gave (`imported`: launches, devices,
    /// warnings), in the form [`DatasetBuilder::add_read`] takes. `format`: the binary
    /// importer's ([`crate::import::binary::BinaryImporter::format`], `"rocpd"`).
    pub fn of_imported(format: &str, tool: Option<String>, imported: Imported) -> FileRead {
        let mut codec = LaunchCodec::default();
        for l in &imported.launches {
            codec.launch(LaunchRef { id: l.id, kernel: &l.kernel, count: l.count, counters: &l.counters, device: l.device });
        }
        FileRead {
            format: format.to_string(),
            names: codec.names,
            launches: codec.bytes,
            devices: imported.devices,
            tool,
            warnings: imported.warnings,
            error: None,
        }
    }
}

impl DatasetBuilder {
    /// Adds the file `path` as another reader read it whole (`format` a binary importer's, the
    /// web app's SQLite worker: `"rocpd"`): the same dataset as pushing the file's bytes here.
    /// For formats whose reading gives launches, devices and warnings only: an `imported`
    /// carrying a machine or transfers is refused (those are read by the builder itself).
    pub fn add_imported_file(&mut self, path: &str, format: &'static str, tool: Option<String>, imported: Imported) -> Result<(), ImportError> {
        if imported.machine.is_some() || !imported.alternatives.is_empty() || !imported.transfers.is_empty() {
            return Err(ImportError::new(path, None, format!("a {format} reading with a machine or transfers cannot be added as a read file (an internal error; reload the page)")));
        }
        self.add_read(path, &FileRead::of_imported(format, tool, imported))
    }
}
