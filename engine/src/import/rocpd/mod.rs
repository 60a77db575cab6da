//! rocprofv3's SQLite databases ("rocpd", `<name>_results.db`: ROCm 7.0's default output of
//! `rocprofv3 --kernel-trace` and `rocprofv3 --pmc …`).
//!
//! Detected by content: SQLite's 16-byte header string ([`SQLITE_MAGIC`]), never the file
//! name. The schema is rocprofiler-sdk's `share/rocprofiler-sdk-rocpd/*.sql` (version 3;
//! docs/FORMATS.md). What is read, one file per job:
//!
//! * [`open`]: the database opened (from bytes, or natively from its path) and its tables
//!   found, one set per writing process (UUID-suffixed names);
//! * [`agents`]: GPU agents → [`Device`]s (product name, gfx target, CUs, clock);
//! * [`dispatches`]: kernel dispatches → launches (kernel name, device, duration);
//! * [`pmc`]: counter values → the rocprof readers' counters ([`crate::import::rocprof`]:
//!   the same names, the same formulas as the CSV files of the same counters).
//!
//! Not read: memory copies and allocations, API regions, markers, samples.

mod agents;
mod dispatches;
mod open;
mod pmc;

pub use super::binary::{is_database, SQLITE_MAGIC};
pub use dispatches::Dispatch;
/// The SQLite binding this module reads with, for callers that open the connection themselves
/// (the web app's SQLite worker): the same version as the engine's.
pub use rusqlite;

use super::binary::{BinaryImporter, BinaryParser};
use super::rocprof::{AssumedSizes, Generation};
use super::stream::{LaunchRef, LaunchSink};
use super::Imported;
use crate::domain::counters::Counter;
use crate::domain::profile::Launch;
use crate::domain::Device;
use crate::error::ImportError;
use crate::import::sink::CounterSink;
use std::collections::HashMap;

/// The schema versions this reader was written against (`rocpd_metadata.schema_version`);
/// others are read the same way, with a warning.
const KNOWN_MAJOR: &str = "3";

/// Reads everything from an open database (read-only is enough): GPU devices, one launch per
/// kernel dispatch with its duration and, where counters were collected, its FLOPs and bytes.
pub fn import_connection(file_name: &str, conn: &rusqlite::Connection) -> Result<Imported, ImportError> {
    let file = file_name;
    let mut devices: Vec<Device> = Vec::new();
    let mut launches = Vec::new();
    let mut warnings = Vec::new();
    let mut assumed = AssumedSizes::default();
    let mut untimed = 0usize;
    for seg in open::segments(file, conn)? {
        if let Some(v) = open::schema_version(file, conn, &seg)? {
            if v.trim().split('.').next() != Some(KNOWN_MAJOR) {
                warnings.push(ImportError::new(file, None, format!("rocpd schema version {v:?}: this reader knows version 3 (3.x); read as version 3")));
            }
        }
        let agents = agents::read(file, conn, &seg)?;
        let mut counters = pmc::read(file, conn, &seg)?;
        // Device index of each agent, given when its first dispatch is seen: a GPU that ran
        // nothing is not listed.
        let mut index_of: HashMap<usize, u16> = HashMap::new();
        for d in dispatches::read(file, conn, &seg)? {
            let agent = d.agent_id.and_then(|id| agents.iter().position(|a| a.id == id && a.guid == d.guid).or_else(|| agents.iter().position(|a| a.id == id)));
            let device = match agent {
                Some(a) => match index_of.get(&a) {
                    Some(&i) => Some(i),
                    None => {
                        let i = u16::try_from(devices.len()).ok();
                        if let (Some(i), Some(ag)) = (i, agents.get(a)) {
                            devices.push(ag.device.clone());
                            index_of.insert(a, i);
                        }
                        i
                    }
                },
                None => None,
            };
            let mut sink = CounterSink::default();
            match d.duration_ns().filter(|ns| *ns > 0) {
                Some(ns) => sink.put(Counter::TimeS, false, ns as f64 * 1e-9),
                None => untimed += 1,
            }
            if let Some(mut acc) = counters.take(&d.guid, d.row) {
                let ag = agent.and_then(|a| agents.get(a));
                // The GPU's own generation (its gfx target) where the counter names do not
                // show it: bytes per L1 access and L2 request (rocprof module doc).
                let arch = ag.and_then(|a| a.device.arch.as_deref()).map_or(Generation::Unknown, Generation::of_arch);
                acc.generation = acc.generation.or(arch);
                assumed.note(&acc.finish(ag.map_or(64.0, |a| a.wave_size), &mut sink));
            }
            launches.push(Launch { id: d.dispatch_id, kernel: d.kernel, count: 1, counters: sink.into_counters(), device });
        }
    }
    if launches.is_empty() {
        return Err(ImportError::new(file, None, "the rocprofv3 database holds no kernel dispatch (rocpd_kernel_dispatch is empty): collect with `rocprofv3 --kernel-trace` or `--pmc …`"));
    }
    if untimed > 0 {
        warnings.push(ImportError::new(file, None, format!("{untimed} kernel dispatch(es) have no duration (end not after start): counted without time")));
    }
    warnings.extend(assumed.warning(file));
    Ok(Imported { launches, devices, warnings, ..Imported::default() })
}

/// Reads a database held in memory (a file read whole, a dropped file's bytes).
pub fn import_bytes(file_name: &str, bytes: &[u8]) -> Result<Imported, ImportError> {
    if !is_database(bytes) {
        return Err(ImportError::new(file_name, None, "not an SQLite database (expected the header \"SQLite format 3\")"));
    }
    let conn = open::open_bytes(file_name, bytes)?;
    import_connection(file_name, &conn)
}

/// Reads a database file where it lies, opened read-only (natively: no copy of the file in
/// memory; the CLI's path).
#[cfg(not(target_arch = "wasm32"))]
pub fn import_path(file_name: &str, path: &std::path::Path) -> Result<Imported, ImportError> {
    let conn = open::open_path(file_name, path)?;
    import_connection(file_name, &conn)
}

/// The tool line of a database's file entry.
pub const TOOL: &str = "rocprofv3 (rocpd database)";

/// rocprofv3 databases as a binary format of the dataset builder: the chunks are gathered
/// (SQLite reads a database by page, from anywhere in the file) and read at the end.
pub struct RocpdDatabase;

impl BinaryImporter for RocpdDatabase {
    fn format(&self) -> &'static str {
        "rocpd"
    }

    fn detect(&self, head: &[u8]) -> bool {
        is_database(head)
    }

    fn reader(&self, file: &str) -> Box<dyn BinaryParser> {
        Box::new(DatabaseReader { file: file.to_string(), bytes: Vec::new(), devices: Vec::new() })
    }
}

/// Gathers one database's bytes, then reads it with [`import_bytes`].
struct DatabaseReader {
    file: String,
    bytes: Vec<u8>,
    devices: Vec<Device>,
}

impl BinaryParser for DatabaseReader {
    fn push(&mut self, chunk: &[u8], _out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        crate::limits::check_held(&self.file, self.bytes.len().saturating_add(chunk.len()))?;
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }

    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<Vec<ImportError>, ImportError> {
        let bytes = std::mem::take(&mut self.bytes);
        let imported = import_bytes(&self.file, &bytes)?;
        drop(bytes);
        for l in &imported.launches {
            out.launch(LaunchRef { id: l.id, kernel: &l.kernel, count: l.count, counters: &l.counters, device: l.device });
        }
        self.devices = imported.devices;
        Ok(imported.warnings)
    }

    fn tool(&self) -> Option<String> {
        Some(TOOL.to_string())
    }

    fn devices(&self) -> Vec<Device> {
        self.devices.clone()
    }
}
