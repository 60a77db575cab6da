//! Cutting a file that arrives in chunks of any size (a `Blob.stream()` in the browser, `read`
//! calls natively) into text a [`RecordParser`] can read: whole lines, valid UTF-8.
//!
//! Each chunk is read in place up to its last line end; what follows (part of a record) is
//! carried over and completed with the next chunk's first line(s). A record with newlines
//! inside quotes is handled by the parser, which consumes only complete records: the carry
//! then simply grows by another line. Memory is the carry, about one record.

use super::stream::{LaunchSink, RecordParser};
use crate::error::ImportError;

/// The error for bytes that are not UTF-8, on 1-based `line` (shared with [`super::decode`]).
pub fn invalid_utf8(file: &str, line: usize) -> ImportError {
    ImportError::new(file, Some(line), "the file is not text (invalid UTF-8); expected a profiler's CSV or text output")
}

/// `bytes` as text; the error names the line of the first invalid byte, counted from
/// `first_line`, the line `bytes` start on.
///
/// Every byte of a file read passes here once. With the `simd-utf8` feature (the parser
/// worker, the CLI) `simdutf8` checks 16 bytes at a time (wasm SIMD; SSE4.2/AVX2 natively)
/// where `std` checks a word (4 bytes in wasm32): in the parser worker the check fell from
/// 3.5 % of its time to 0.7 % (docs/PERFORMANCE.md). Only a failure asks `std` where the first
/// bad byte is. The page's own modules leave the feature out: they read only small files, and
/// it would add 350 B gzipped to them.
pub fn utf8<'a>(file: &str, bytes: &'a [u8], first_line: usize) -> Result<&'a str, ImportError> {
    #[cfg(feature = "simd-utf8")]
    if let Ok(text) = simdutf8::basic::from_utf8(bytes) {
        return Ok(text);
    }
    std::str::from_utf8(bytes).map_err(|e| {
        let before = bytes.get(..e.valid_up_to()).unwrap_or(&[]);
        invalid_utf8(file, first_line + memchr::memchr_iter(b'\n', before).count())
    })
}

/// The bytes of an incomplete record carried from one chunk to the next.
#[derive(Default)]
pub struct ChunkFeeder {
    carry: Vec<u8>,
    /// The last line of the text consumed so far (with its line end): with the carry, the
    /// end of the file [`crate::limits::truncated_row`] looks at.
    last_line: Vec<u8>,
}

impl ChunkFeeder {
    /// Feeds the next `chunk` of the file `file` to `parser`.
    ///
    /// An invalid UTF-8 byte is reported when the line holding it is read, so in a file that
    /// also has a malformed row before it, the row's error comes first (the in-memory path
    /// checks the whole file's encoding first).
    pub fn push(&mut self, file: &str, chunk: &[u8], parser: &mut dyn RecordParser, out: &mut dyn LaunchSink) -> Result<(), ImportError> {
        let mut rest = chunk;
        // Complete the carried record with the chunk's first line(s).
        while !self.carry.is_empty() {
            let Some(nl) = memchr::memchr(b'\n', rest) else {
                self.carry.extend_from_slice(rest);
                return Ok(());
            };
            let (line, tail) = rest.split_at(nl + 1);
            self.carry.extend_from_slice(line);
            rest = tail;
            let used = parser.feed(utf8(file, &self.carry, parser.line())?, false, out)?;
            let consumed = self.carry.get(..used).unwrap_or(&[]);
            keep_last_line(&mut self.last_line, consumed);
            self.carry.drain(..used.min(self.carry.len()));
        }
        // The rest in place, up to its last line end.
        let Some(last_nl) = memchr::memrchr(b'\n', rest) else {
            self.carry.extend_from_slice(rest);
            return Ok(());
        };
        let (lines, tail) = rest.split_at(last_nl + 1);
        let used = parser.feed(utf8(file, lines, parser.line())?, false, out)?;
        keep_last_line(&mut self.last_line, lines.get(..used).unwrap_or(&[]));
        self.carry.extend_from_slice(lines.get(used..).unwrap_or(&[]));
        self.carry.extend_from_slice(tail);
        Ok(())
    }

    /// Ends the file: reads what is carried (a last line without a line end) and finishes the
    /// parser. Returns the warning for a file cut in the middle of a row, as the in-memory
    /// path gives it ([`crate::limits::truncated_row`] on the file's last two lines).
    pub fn finish(&mut self, file: &str, parser: &mut dyn RecordParser, out: &mut dyn LaunchSink) -> Result<Option<ImportError>, ImportError> {
        let cut = self.end(file, parser, out)?;
        parser.finish(out)?;
        Ok(cut)
    }

    /// Whether everything pushed so far was read: the text pushed ends at the end of a record.
    pub fn at_record_start(&self) -> bool {
        self.carry.is_empty()
    }

    /// [`ChunkFeeder::finish`] without [`RecordParser::finish`]: for the parser of the last
    /// part of a file read in parts, whose checks are the whole file's ([`crate::dataset::part`]).
    pub fn end(&mut self, file: &str, parser: &mut dyn RecordParser, out: &mut dyn LaunchSink) -> Result<Option<ImportError>, ImportError> {
        let carry = std::mem::take(&mut self.carry);
        let carry_line = parser.line();
        parser.feed(utf8(file, &carry, carry_line)?, true, out)?;
        if carry.is_empty() {
            return Ok(None); // the file ends with a line end (or is empty)
        }
        // The last complete line, then the carry: line 1 of this tail is the last consumed line.
        let tail_first_line = if self.last_line.is_empty() { carry_line } else { carry_line.saturating_sub(1) };
        let tail = [self.last_line.as_slice(), carry.as_slice()].concat();
        let Ok(tail) = std::str::from_utf8(&tail) else { return Ok(None) };
        Ok(crate::limits::truncated_row(file, tail).map(|mut w| {
            w.line = w.line.map(|l| l + tail_first_line - 1);
            w
        }))
    }
}

/// Keeps the last line of `consumed` (complete records, starting at a line start) in `last`.
fn keep_last_line(last: &mut Vec<u8>, consumed: &[u8]) {
    let Some(body) = consumed.len().checked_sub(1).and_then(|n| consumed.get(..n)) else { return };
    let start = memchr::memrchr(b'\n', body).map_or(0, |i| i + 1);
    last.clear();
    last.extend_from_slice(consumed.get(start..).unwrap_or(&[]));
}

#[cfg(test)]
mod tests {
    use super::utf8;

    /// Long enough for the SIMD check's own path (it hands inputs under 64 bytes to a scalar
    /// one): valid text comes back whole, and an invalid byte is found on its line.
    #[test]
    fn utf8_checks_long_text_and_names_the_line_of_a_bad_byte() {
        let mut text = "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n".repeat(40).into_bytes();
        text.extend_from_slice("\"1\",\"gemm_µ\",\"2.5\"\n".as_bytes());
        assert_eq!(utf8("a.csv", &text, 1).map(str::len), Ok(text.len()));
        // Line 41 is the µ line; a lone continuation byte in the middle of line 23 instead.
        let at = 22 * 44 + 10;
        assert_eq!(text[at], b'e');
        text[at] = 0x80;
        let e = utf8("a.csv", &text, 1).unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("a.csv", Some(23)));
        // Counted from the line the bytes start on.
        assert_eq!(utf8("a.csv", &text, 100).unwrap_err().line, Some(122));
    }
}
