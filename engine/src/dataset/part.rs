//! One large file read in parts, in parallel (issue 17): a second worker parses the file's
//! second half while the first parses the first half; the first then takes the second's
//! launches over, in order, and the dataset is the one reading the whole file in one go makes.
//!
//! ARCHITECTURE (the app's parser worker, `worker/src/parts.rs`, is the host):
//!
//! ```text
//! second worker:  let mut p = PartParser::new(name, &head, cut)?;   // head: the file's first bytes
//!                 for chunk in file[cut..] { p.push(&chunk); }        // skips to the first line end
//!                 let part = p.finish();                              // launches, encoded
//! first worker:   builder.push_chunk(name, …file[..part.start]…)?;   // the same bytes, up to its start
//!                 builder.take_part(name, part)?                      // false: read the rest yourself
//! ```
//!
//! Where the part starts is a rule both sides apply to the same bytes: after the first line
//! end at or after `cut`. That line end ends a record unless it is inside a quoted field;
//! the first worker checks it by having read exactly up to it with nothing left over
//! ([`super::DatasetBuilder::take_part`]), and reads the rest itself otherwise.
//!
//! Why it is exact: the rows of a raw page stand alone (one launch each), so a parser that
//! read the file's head (preamble, header, units row: the same column plan,
//! [`RecordParser::read_head`]) reads the part's rows as the whole file's parser would. What
//! a parser keeps across rows (devices, units it does not understand, the row count) is
//! handed over ([`RecordParser::absorb`]), and the launches are replayed into the dataset one
//! by one in file order, so every sum is added in the same order as when read in one go.
//! Line numbers in the part's errors and warnings are its own, moved by the lines before it.
//!
//! The launches cross between workers as bytes ([`LaunchCodec`]) rather than as serde values:
//! 8,000 launches of ~20 counters as JavaScript objects took longer to build and read than
//! the parse they saved (docs/PERFORMANCE.md, 2026-11-25).

use crate::domain::{Counter, Counters};
use crate::error::ImportError;
use crate::import::chunks::ChunkFeeder;
use crate::import::stream::{LaunchRef, LaunchSink, PartState, RecordParser};
use crate::import;
use super::reading::BOM;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// What the second worker read: the part's launches and its parser's state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PartRead {
    /// The format of the file as the part's parser read it ([`Importer::format`]).
    pub format: String,
    /// Where the part starts in the file, bytes (after the first line end at or after the
    /// cut); `None` when no line end follows the cut (the first worker reads everything).
    pub start: Option<u64>,
    /// The line the part's parser numbered its first line (its own count, from the head).
    pub first_line: usize,
    /// Kernel names of [`PartRead::launches`].
    pub names: Vec<String>,
    /// The launches, encoded ([`LaunchCodec`]); moved between workers as a byte buffer.
    #[serde(skip)]
    pub launches: Vec<u8>,
    pub state: PartState,
    /// The warning for a file cut in the middle of a row (it ends in the part).
    pub tail: Option<ImportError>,
    /// The first error in the part (its lines the part's own).
    pub error: Option<ImportError>,
}

/// Reads a part of a file from its `cut` on (see the module doc).
pub struct PartParser {
    file: String,
    format: &'static str,
    parser: Box<dyn RecordParser>,
    feeder: ChunkFeeder,
    codec: LaunchCodec,
    first_line: usize,
    /// Bytes of the file before the next pushed byte.
    at: u64,
    start: Option<u64>,
    error: Option<ImportError>,
}

impl PartParser {
    /// A parser for the part of `file` from byte `cut` on, given `head`, the file's first
    /// bytes. `None` where the head does not say the format (or the format's rows do not
    /// stand alone, or they do not start in `head`): the first worker then reads it all.
    pub fn new(file: &str, head: &[u8], cut: u64) -> Option<PartParser> {
        let bom = if head.starts_with(BOM) { BOM.len() } else { 0 };
        let head = head.get(bom..).unwrap_or(&[]);
        let lines = head.get(..memchr::memrchr(b'\n', head)? + 1)?;
        let text = std::str::from_utf8(lines).ok()?;
        let importer = import::detect(text)?;
        let mut parser = importer.stream(file)?;
        let read = parser.read_head(text).ok()??;
        // The part must start after the head, or the head's last rows would be read twice.
        if (read + bom) as u64 > cut {
            return None;
        }
        let first_line = parser.line();
        Some(PartParser { file: file.to_string(), format: importer.format(), parser, feeder: ChunkFeeder::default(), codec: LaunchCodec::default(), first_line, at: cut, start: None, error: None })
    }

    /// Pushes the file's next bytes (from the cut on, in order). Bytes up to and including
    /// the first line end belong to the part before and are skipped.
    pub fn push(&mut self, chunk: &[u8]) {
        if self.error.is_some() {
            return;
        }
        let mut chunk = chunk;
        if self.start.is_none() {
            let Some(i) = start_in(self.at, self.at, chunk) else {
                self.at += chunk.len() as u64;
                return;
            };
            self.start = Some(self.at + i as u64);
            chunk = chunk.get(i..).unwrap_or(&[]);
        }
        if let Err(e) = self.feeder.push(&self.file, chunk, self.parser.as_mut(), &mut self.codec) {
            self.error = Some(e);
        }
    }

    /// Ends the part (the file's end): what the first worker takes over.
    pub fn finish(mut self) -> PartRead {
        let mut tail = None;
        if self.start.is_some() && self.error.is_none() {
            match self.feeder.end(&self.file, self.parser.as_mut(), &mut self.codec) {
                Ok(t) => tail = t,
                Err(e) => self.error = Some(e),
            }
        }
        let state = self.parser.part_state().unwrap_or_default();
        PartRead { format: self.format.to_string(), start: self.start, first_line: self.first_line, names: self.codec.names, launches: self.codec.bytes, state, tail, error: self.error }
    }
}

/// Where a part cut at byte `cut` starts in `bytes`, which begin at byte `at` of the file:
/// just after the first line end at or after the cut; `None` if there is none in `bytes`. The
/// rule both parsers apply to the same bytes (this one, and the first parser reading up to it).
pub fn start_in(at: u64, cut: u64, bytes: &[u8]) -> Option<usize> {
    let from = usize::try_from(cut.saturating_sub(at)).ok()?;
    Some(from + memchr::memchr(b'\n', bytes.get(from..)?)? + 1)
}

/// Launches as bytes, little-endian, one after another: a flags byte (1: has an id, 2: has
/// a device), the id (u64), the kernel's index in the names (u32), the count (u64), the
/// device (u16), the number of counters (u8) and each counter's index in [`Counter::ALL`]
/// (u8) and value (f64). Absent fields are written as zeros.
#[derive(Default)]
pub struct LaunchCodec {
    /// The kernels' names, in the order first met.
    pub(super) names: Vec<String>,
    by_name: FxHashMap<String, u32>,
    /// The launches written so far.
    pub(super) bytes: Vec<u8>,
}

impl LaunchSink for LaunchCodec {
    fn launch(&mut self, l: LaunchRef<'_>) {
        let kernel = match self.by_name.get(l.kernel) {
            Some(&i) => i,
            None => {
                let i = self.names.len() as u32;
                self.names.push(l.kernel.to_string());
                self.by_name.insert(l.kernel.to_string(), i);
                i
            }
        };
        let b = &mut self.bytes;
        b.push(u8::from(l.id.is_some()) | (u8::from(l.device.is_some()) << 1));
        b.extend_from_slice(&l.id.unwrap_or(0).to_le_bytes());
        b.extend_from_slice(&kernel.to_le_bytes());
        b.extend_from_slice(&l.count.to_le_bytes());
        b.extend_from_slice(&l.device.unwrap_or(0).to_le_bytes());
        let n = b.len();
        b.push(0);
        let mut count = 0u8;
        for (c, v) in l.counters.iter() {
            b.push(c as u8);
            b.extend_from_slice(&v.to_le_bytes());
            count += 1;
        }
        if let Some(slot) = b.get_mut(n) {
            *slot = count;
        }
    }
}

/// Reads `launches` that [`LaunchCodec`] wrote (their kernels' `names`), handing each to
/// `out` with its device index mapped through `devices` (`None`: kept as it is).
pub(super) fn replay(file: &str, names: &[String], launches: &[u8], devices: Option<&[Option<u16>]>, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
    let unreadable = || ImportError::new(file, None, "the second reader's launches are unreadable (an internal error; reload the page)");
    let mut r = Bytes(launches);
    let mut counters = Counters::default();
    while !r.0.is_empty() {
        let flags = r.u8().ok_or_else(unreadable)?;
        let id = r.u64().ok_or_else(unreadable)?;
        let kernel = r.u32().ok_or_else(unreadable)?;
        let count = r.u64().ok_or_else(unreadable)?;
        let device = r.u16().ok_or_else(unreadable)?;
        let n = r.u8().ok_or_else(unreadable)?;
        counters.clear();
        for _ in 0..n {
            let c = r.u8().and_then(|i| Counter::ALL.get(usize::from(i)).copied()).ok_or_else(unreadable)?;
            counters.set(c, r.f64().ok_or_else(unreadable)?);
        }
        let kernel = names.get(kernel as usize).ok_or_else(unreadable)?;
        let device = match devices {
            _ if flags & 2 == 0 => None,
            Some(map) => *map.get(usize::from(device)).ok_or_else(unreadable)?,
            None => Some(device),
        };
        out.launch(LaunchRef { id: (flags & 1 != 0).then_some(id), kernel, count, counters: &counters, device });
    }
    Ok(())
}

/// A reader of little-endian numbers.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_first_chunk::<N>()?;
        self.0 = rest;
        Some(*head)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|[b]| b)
    }
    fn u16(&mut self) -> Option<u16> {
        self.take().map(u16::from_le_bytes)
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
    fn f64(&mut self) -> Option<f64> {
        self.take().map(f64::from_le_bytes)
    }
}

/// Moves an error's line from the part's count to the file's: `shift` lines come before the
/// part's first line that its parser did not count.
pub(super) fn shifted(mut e: ImportError, shift: usize) -> ImportError {
    e.line = e.line.map(|l| l + shift);
    e
}
