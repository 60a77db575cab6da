//! One file read from its chunks, whatever its format: the first bytes kept until they say
//! the format ([`decide`]), then the file streamed to a [`LaunchSink`] (the Nsight Compute
//! pages and reports) or kept whole for its importer (formats small by nature).
//!
//! Why a module of its own: two readers share it. [`super::DatasetBuilder`] reads a file into
//! the dataset (its sink sums kernels and joins launches), and [`super::file_read::FileParser`]
//! reads a whole file in the app's second parser, its sink encoding the launches for the first
//! parser to replay; the same decisions and parsers on both sides are what makes the second's
//! file the one the first would have read.

use crate::error::ImportError;
use crate::import::binary::{self, BinaryImporter, BinaryParser};
use crate::import::chunks::{utf8, ChunkFeeder};
use crate::import::ncu::is_ncu_header;
use crate::import::stream::{LaunchSink, RecordParser};
use crate::import::table::DETECT_LINES;
use crate::import::{self, Importer};

/// A UTF-8 byte-order mark (a file is read without it; [`super::part`] too).
pub(super) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How far a file has been read.
pub(super) enum Reading {
    /// The first bytes, until the format is known; `scanned`/`lines`: complete lines looked
    /// at for a header so far.
    Head { bytes: Vec<u8>, scanned: usize, lines: usize },
    /// A format with a streaming reader, fed as chunks arrive.
    Streaming { importer: &'static dyn Importer, parser: Box<dyn RecordParser>, feeder: ChunkFeeder },
    /// A format read whole at the end of the file.
    Whole { bytes: Vec<u8> },
    /// A binary format (Nsight Compute reports), read from its chunks as they arrive.
    Binary { importer: &'static dyn BinaryImporter, parser: Box<dyn BinaryParser> },
}

impl Default for Reading {
    fn default() -> Self {
        Reading::Head { bytes: Vec::new(), scanned: 0, lines: 0 }
    }
}

impl Reading {
    /// Feeds `chunk` of `file` (launches to `out`); `eof` after its last chunk, which always
    /// decides the format.
    pub(super) fn push(&mut self, file: &str, chunk: &[u8], eof: bool, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        match self {
            Reading::Whole { bytes } => {
                crate::limits::check_held(file, bytes.len().saturating_add(chunk.len()))?;
                bytes.extend_from_slice(chunk);
                Ok(())
            }
            Reading::Streaming { parser, feeder, .. } => feeder.push(file, chunk, parser.as_mut(), out),
            Reading::Binary { parser, .. } => parser.push(chunk, out),
            Reading::Head { bytes, scanned, lines } => {
                // Decide on the chunk in place when nothing is kept yet (a whole file, or a
                // first chunk holding the header): no copy.
                let in_place = bytes.is_empty();
                if !in_place {
                    bytes.extend_from_slice(chunk);
                }
                let data: &[u8] = if in_place { chunk } else { bytes };
                let bom = if data.starts_with(BOM) || (!eof && BOM.starts_with(data)) { BOM.len().min(data.len()) } else { 0 };
                let fresh = data.len().saturating_sub(chunk.len()).saturating_sub(bom);
                match decide(file, data.get(bom..).unwrap_or(&[]), fresh, eof, *scanned, *lines)? {
                    Decision::Undecided { scanned: s, lines: l } => {
                        (*scanned, *lines) = (s, l);
                        if in_place {
                            bytes.extend_from_slice(chunk);
                        }
                        Ok(())
                    }
                    Decision::Binary(importer) => {
                        // Everything so far (BOM detection never strips from a binary head).
                        let kept = if in_place { Vec::new() } else { std::mem::take(bytes) };
                        *self = Reading::Binary { importer, parser: importer.reader(file) };
                        let body: &[u8] = if in_place { chunk } else { &kept };
                        self.push(file, body, false, out)
                    }
                    Decision::Whole => {
                        let kept = if in_place { chunk.to_vec() } else { std::mem::take(bytes) };
                        *self = Reading::Whole { bytes: kept };
                        Ok(())
                    }
                    Decision::Stream(importer) => {
                        let kept = if in_place { Vec::new() } else { std::mem::take(bytes) };
                        let Some(parser) = importer.stream(file) else { return Ok(()) };
                        *self = Reading::Streaming { importer, parser, feeder: ChunkFeeder::default() };
                        // Now streaming: feed what was read so far.
                        let body: &[u8] = if in_place { chunk } else { &kept };
                        self.push(file, body.get(bom..).unwrap_or(&[]), false, out)
                    }
                }
            }
        }
    }
}

/// What the first bytes of a file say.
enum Decision {
    Undecided { scanned: usize, lines: usize },
    Stream(&'static dyn Importer),
    Binary(&'static dyn BinaryImporter),
    Whole,
}

/// Decides how to read a file from its first bytes `head` (BOM removed); `eof` when that is
/// all of it. Lines from byte `scanned` (line `lines` + 1) on have not been looked at yet;
/// bytes from `fresh` on were just pushed.
fn decide(file: &str, head: &[u8], fresh: usize, eof: bool, mut scanned: usize, mut lines: usize) -> Result<Decision, ImportError> {
    if !eof && head.len() < binary::DETECT_BYTES {
        return Ok(Decision::Undecided { scanned, lines });
    }
    if let Some(imp) = binary::detect(head) {
        return Ok(Decision::Binary(imp));
    }
    if head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        return Ok(Decision::Whole); // decoding the whole file gives the UTF-16 error
    }
    // A JSON object may be a `.roofline.json` view, detected before the Nsight Compute pages
    // by a key anywhere in it: the head cannot decide, read it whole (as `load_dataset` does).
    // Only the first KB is looked at (linear pushes); a file starting with more blank space
    // than that is read whole too.
    let prefix = head.get(..head.len().min(1024)).unwrap_or(head);
    let valid = std::str::from_utf8(prefix).unwrap_or_else(|e| std::str::from_utf8(prefix.get(..e.valid_up_to()).unwrap_or(&[])).unwrap_or(""));
    let blank = valid.trim_start_matches('\u{feff}').trim_start().is_empty();
    if crate::import::view_file::starts_like_json(valid) || (blank && head.len() > prefix.len()) {
        return Ok(Decision::Whole);
    }
    // A line end can only be new in the bytes just pushed (from `fresh` on): search those
    // only, so that pushing a long line byte by byte stays linear.
    let from = fresh.max(scanned);
    let complete = if eof { head.len() } else { memchr::memrchr(b'\n', head.get(from..).unwrap_or(&[])).map_or(scanned, |i| from + i + 1) };
    let mut found = false;
    while scanned < complete && lines < DETECT_LINES && !found {
        let rest = head.get(scanned..complete).unwrap_or(&[]);
        let end = memchr::memchr(b'\n', rest).map_or(complete, |i| scanned + i + 1);
        let line = utf8(file, head.get(scanned..end).unwrap_or(&[]), lines + 1)?;
        found = is_ncu_header(line.trim_end_matches(['\n', '\r']).trim_start_matches('\u{feff}'));
        scanned = end;
        lines += 1;
    }
    if found {
        // The header decides the Nsight Compute formats (their detection looks at the first
        // header only), and the formats before them in `importers()` are not CSV: the
        // answer for the head is the answer for the whole file.
        let text = utf8(file, head.get(..complete).unwrap_or(&[]), 1)?;
        return Ok(match import::detect(text) {
            Some(imp) if imp.stream(file).is_some() => Decision::Stream(imp),
            _ => Decision::Whole,
        });
    }
    if eof || lines >= DETECT_LINES {
        return Ok(Decision::Whole);
    }
    Ok(Decision::Undecided { scanned, lines })
}
