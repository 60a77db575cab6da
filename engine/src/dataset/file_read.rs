//! Several files parsed at once (issue 17): while the app's parser reads the first files of a
//! list, its second parser (a copy of it, `worker/src/share.rs`) reads the last ones whole, and
//! the first then adds them in the list's order ([`super::DatasetBuilder::add_read`]), so the
//! dataset is the one a single parser makes of the list, to the bit.
//!
//! ARCHITECTURE:
//!
//! ```text
//! second worker:  let mut p = FileParser::new(name);
//!                 for chunk in file { p.push(&chunk); if !p.wanted() { break } }
//!                 let read = p.finish();                    // None: the first reads this file
//! first worker:   for file in list {                        // in order
//!                     match read_elsewhere(file) {
//!                         Some(read) => builder.add_read(name, &read)?,
//!                         None => push the file's chunks to the builder,
//!                     }
//!                 }
//! ```
//!
//! Why it is exact: both parsers read a file with the same decisions and parsers
//! ([`super::reading::Reading`]); the second hands each launch to a [`LaunchCodec`] instead of
//! the dataset, and the first replays them in file order into the same sums, launch join and
//! devices as when it reads the file itself. What crosses is only what a file adds beyond its
//! launches: its format, devices, tool, warnings and first error. Formats read whole (the
//! small tables of nvprof, rocprof, Advisor, JSON) are not read by the second: a whole-file
//! importer's result meets the dataset's state (a GPU summary and a trace of one run counted
//! once, machines merged), so the first reads those itself ([`FileParser::finish`] is `None`).

use super::part::LaunchCodec;
use std::ops::RangeInclusive;
use super::reading::Reading;
use crate::domain::Device;
use crate::error::ImportError;
use serde::{Deserialize, Serialize};

/// What another parser read of a whole file: its launches and what else the file adds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FileRead {
    /// The format as the other parser detected it ([`crate::import::Importer::format`]).
    pub format: String,
    /// Kernel names of [`FileRead::launches`].
    pub names: Vec<String>,
    /// The launches, encoded ([`LaunchCodec`]); moved between workers as a byte buffer.
    #[serde(skip)]
    pub launches: Vec<u8>,
    /// The devices the file describes, indexed by the launches' devices.
    pub devices: Vec<Device>,
    /// The tool that wrote the file, where a report says.
    pub tool: Option<String>,
    /// Its warnings, in the order the builder adds them (units not understood, then a file
    /// cut in the middle of a row).
    pub warnings: Vec<ImportError>,
    /// The file's first error: adding it fails the load with it, as reading it would.
    pub error: Option<ImportError>,
}

/// Reads one whole file for another parser (see the module doc).
pub struct FileParser {
    file: String,
    reading: Reading,
    codec: LaunchCodec,
    error: Option<ImportError>,
}

impl FileParser {
    pub fn new(file: &str) -> FileParser {
        FileParser { file: file.to_string(), reading: Reading::default(), codec: LaunchCodec::default(), error: None }
    }

    /// Pushes the file's next bytes (in order, of any size). After an error the rest is
    /// ignored: the error is the file's.
    pub fn push(&mut self, chunk: &[u8]) {
        if self.wanted() {
            if let Err(e) = self.reading.push(&self.file, chunk, false, &mut self.codec) {
                self.error = Some(e);
            }
        }
    }

    /// Whether more of the file is worth pushing: not once it has failed, nor once its first
    /// bytes say it is a format read whole, which the first parser reads itself.
    pub fn wanted(&self) -> bool {
        self.error.is_none() && !matches!(self.reading, Reading::Whole { .. })
    }

    /// Ends the file: what the first parser adds in its place; `None` for a format read whole
    /// (the first parser reads the file itself).
    pub fn finish(mut self) -> Option<FileRead> {
        if self.error.is_none() {
            if let Err(e) = self.reading.push(&self.file, &[], true, &mut self.codec) {
                self.error = Some(e);
            }
        }
        let mut read = FileRead::default();
        match self.reading {
            Reading::Whole { .. } => return None,
            Reading::Head { .. } => {} // only after an error in the first bytes
            Reading::Streaming { importer, mut parser, mut feeder } => {
                read.format = importer.format().to_string();
                if self.error.is_none() {
                    match feeder.finish(&self.file, parser.as_mut(), &mut self.codec) {
                        Ok(cut) => {
                            read.warnings = parser.warnings();
                            read.warnings.extend(cut);
                        }
                        Err(e) => self.error = Some(e),
                    }
                }
                read.devices = parser.devices();
            }
            Reading::Binary { importer, mut parser } => {
                read.format = importer.format().to_string();
                if self.error.is_none() {
                    match parser.finish(&mut self.codec) {
                        Ok(warnings) => read.warnings = warnings,
                        Err(e) => self.error = Some(e),
                    }
                }
                read.devices = parser.devices();
                read.tool = parser.tool();
            }
        }
        read.names = self.codec.names;
        read.launches = self.codec.bytes;
        read.error = self.error;
        Some(read)
    }
}

/// Of a list of files of these sizes, bytes, read in order, the first file the second parser
/// reads: it reads that file and those after it while the first parser reads those before.
/// The split leaves the larger of the two shares smallest (adding the second's files costs the
/// first parser a replay of their launches, far less than parsing them: not weighed). The second's share
/// is at most `max_second` bytes, since its launches are held until the first takes them.
/// `sizes.len()` (the first reads everything) for fewer than two files, or where no split
/// keeps the second's share under `max_second`.
pub fn second_share(sizes: &[u64], max_second: u64) -> usize {
    let total: u64 = sizes.iter().sum();
    let mut best = (sizes.len(), total);
    let mut before = 0u64;
    for (i, &size) in sizes.iter().enumerate() {
        let after = total - before;
        if i > 0 && after <= max_second && before.max(after) < best.1 {
            best = (i, before.max(after));
        }
        before += size;
    }
    best.0
}

/// How the app's two parsers share a list of files (the worker's choice, here to be tested).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plan {
    /// The first parser reads everything.
    One,
    /// The file at this index is read in two parts ([`super::part`]); the first parser reads
    /// the other files.
    Split(usize),
    /// The second parser reads the files from this index on ([`second_share`]).
    Share(usize),
}

/// The plan that leaves the busier parser the fewest bytes: sharing the list's files (from
/// `min_share` bytes in all) or splitting its largest file (a file whose size is in `split`:
/// the busier parser then reads the other files and half of it). Splitting wins where one file
/// is most of the list (a 50 MB page and its 1 MB summary), sharing where the files are
/// alike; both cost the first parser a replay of the second's launches, not weighed.
pub fn plan(sizes: &[u64], split: RangeInclusive<u64>, min_share: u64) -> Plan {
    let total: u64 = sizes.iter().sum();
    let mut best = (Plan::One, total);
    let from = second_share(sizes, *split.end());
    if from < sizes.len() && total >= min_share {
        let before: u64 = sizes.iter().take(from).sum();
        best = (Plan::Share(from), before.max(total - before));
    }
    let largest = sizes.iter().enumerate().max_by_key(|&(i, &s)| (s, std::cmp::Reverse(i)));
    if let Some((i, &size)) = largest.filter(|(_, s)| split.contains(s)) {
        let busier = (total - size / 2).max(size.div_ceil(2));
        if busier < best.1 {
            best = (Plan::Split(i), busier);
        }
    }
    best.0
}
