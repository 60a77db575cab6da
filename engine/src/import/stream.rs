//! Streaming import: formats whose records are lines (the Nsight Compute pages) are read as
//! the file arrives, in chunks of any size, and hand each launch over as soon as it is
//! complete, so memory does not grow with the file (a 1 GB raw page loads in a few MB; see
//! docs/PERFORMANCE.md).
//!
//! An [`super::Importer`] that can stream returns a [`RecordParser`] from
//! [`super::Importer::stream`]. The parser is a state machine (preamble → header → units
//! row → rows) fed text that ends on a line end; it consumes the complete records and says
//! how many bytes it used, the caller keeping the rest for the next chunk
//! ([`super::chunks::ChunkFeeder`]). Launches go to a [`LaunchSink`] as borrowed
//! [`LaunchRef`]s: nothing is allocated per launch (kernel names are interned per file by
//! [`NameCache`]). The in-memory [`super::Importer::import`] of these formats is the same
//! parser fed the whole text at once, so both paths give the same launches.

use crate::domain::counters::Counters;
use crate::domain::Device;
use crate::error::ImportError;
use crate::domain::names;
use crate::domain::profile::Launch;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// A launch as a streaming importer hands it over, borrowed from the parser.
#[derive(Clone, Copy, Debug)]
pub struct LaunchRef<'a> {
    pub id: Option<u64>,
    /// The cleaned kernel name ([`names::clean`]).
    pub kernel: &'a str,
    pub count: u64,
    pub counters: &'a Counters,
    /// Index into the parser's [`RecordParser::devices`].
    pub device: Option<u16>,
}

impl LaunchRef<'_> {
    pub fn to_launch(&self) -> Launch {
        Launch { id: self.id, kernel: self.kernel.to_string(), count: self.count, counters: self.counters.clone(), device: self.device }
    }
}

/// Receives launches in file order.
pub trait LaunchSink {
    fn launch(&mut self, launch: LaunchRef<'_>);
}

/// Collects launches into owned [`Launch`]es (the in-memory [`super::Importer::import`]).
#[derive(Default)]
pub struct Collect(pub Vec<Launch>);

impl LaunchSink for Collect {
    fn launch(&mut self, launch: LaunchRef<'_>) {
        self.0.push(launch.to_launch());
    }
}

/// A chunk-fed reader of one file (see the module doc).
pub trait RecordParser {
    /// Reads the complete records at the start of `text` and returns how many bytes it
    /// consumed; the caller passes the rest again, followed by more of the file. `last` says
    /// that no more text follows, so a final record without a line end is complete.
    fn feed(&mut self, text: &str, last: bool, out: &mut dyn LaunchSink) -> Result<usize, ImportError>;
    /// The line (1-based) of the first byte not yet consumed: where errors found by the
    /// caller in the text that follows (invalid UTF-8) are.
    fn line(&self) -> usize;
    /// Ends the file (after a `feed` with `last`): hands over a launch still open, and fails
    /// for a file with a header but no rows, or no header at all.
    fn finish(&mut self, out: &mut dyn LaunchSink) -> Result<(), ImportError>;
    /// The devices the file described so far, indexed by [`LaunchRef::device`]; complete
    /// after [`RecordParser::finish`].
    fn devices(&self) -> Vec<Device> {
        Vec::new()
    }
    /// What the file holds that the reader could not use, worth telling the user (a metric
    /// whose unit it does not understand); complete after [`RecordParser::finish`].
    fn warnings(&self) -> Vec<ImportError> {
        Vec::new()
    }
    /// Reading a file in parts, in parallel ([`crate::dataset::part`]): reads the start of the
    /// file, `head`, up to where its rows start, so that this parser can then be fed the rows
    /// of a later part of the file. Returns the bytes of `head` read; `None` where the
    /// format's rows do not stand alone (a launch spread over rows) or do not start in `head`.
    fn read_head(&mut self, _head: &str) -> Result<Option<usize>, ImportError> {
        Ok(None)
    }
    /// What this parser, fed a later part of the file after [`RecordParser::read_head`],
    /// learnt that the parser of the part before needs ([`RecordParser::absorb`]).
    fn part_state(&self) -> Option<PartState> {
        None
    }
    /// Takes over `part`, the state of the parser of the part that follows the text read
    /// here: returns, for each of its device indices, the index in this parser's
    /// [`RecordParser::devices`]; `None` where this format cannot be read in parts.
    fn absorb(&mut self, _part: &PartState) -> Option<Vec<Option<u16>>> {
        None
    }
}

/// What a parser of a later part of a file learnt ([`RecordParser::part_state`]), sent from
/// the worker that read the part to the one that read the file's start.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PartState {
    /// Its devices, in the order first seen, with their CUDA index.
    pub devices: Vec<(Option<u32>, Device)>,
    /// Metrics it met in a unit it does not understand: (metric, unit).
    pub unknown_units: Vec<(String, String)>,
    /// Rows it read.
    pub rows: usize,
}

/// Reads a whole in-memory text with a streaming parser.
pub fn read_whole(parser: &mut dyn RecordParser, text: &str, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
    parser.feed(text, true, out)?;
    parser.finish(out)
}

/// Kernel names of one file, each raw cell cleaned ([`names::clean`], which may demangle)
/// once, however many launches share it; lookups by the raw `&str` allocate nothing.
#[derive(Default)]
pub struct NameCache {
    /// FxHash: looked up once per row (docs/PERFORMANCE.md).
    by_raw: FxHashMap<String, usize>,
    clean: Vec<String>,
}

impl NameCache {
    /// The index of the cleaned name of `raw`.
    pub fn intern(&mut self, raw: &str) -> usize {
        if let Some(&i) = self.by_raw.get(raw) {
            return i;
        }
        let i = self.clean.len();
        self.clean.push(names::clean(raw));
        self.by_raw.insert(raw.to_string(), i);
        i
    }

    /// The cleaned name at `index` ("" for an index this cache never gave).
    pub fn name(&self, index: usize) -> &str {
        self.clean.get(index).map_or("", String::as_str)
    }
}
