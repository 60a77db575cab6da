//! CSV records for the importers: the `csv-core` crate tokenizes (RFC 4180 quoting: quotes
//! doubled inside quoted fields, separators and newlines inside quotes; CRLF, LF or CR line
//! ends); this module adds what the importers need around it: 1-based line numbers for error
//! messages, reused buffers, and reading only complete records of a chunk of a longer file.
//!
//! Most records are *simple* (one line of fields that are plain or quoted with nothing to
//! unescape, as every Nsight Compute row is) and are read by this module's own reader
//! ([`simple_record`]), which gives exactly `csv-core`'s fields at a fraction of its cost;
//! `csv-core` reads every other record from its first byte.
//!
//! Two ways to read: the [`Iterator`] yields a [`Record`] with its own [`Fields`] (simple, two
//! allocations per record, for the small tables of most formats); [`Reader::next_fields`]
//! refills a caller's [`Fields`] and allocates nothing once it has grown to the widest
//! record, for the hot loops of large files (Nsight Compute pages).
//!
//! A reader of wide rows that needs a few of their fields says which ([`Fields::want`]): a
//! simple record of quoted fields is then checked sixty-four bytes at a time and only those
//! fields' ranges found ([`wanted`]); the others are still there, found when asked for.
//!
//! Streaming: [`Reader::complete_only`] stops before a record that is not terminated by a
//! line end (the rest of it is in the next chunk of the file), leaving [`Reader::pos`] at its
//! start. `csv-core` keeps its state across inputs, but the chunk feeder
//! ([`super::chunks`]) hands over text that ends on a line end and carries the incomplete
//! record itself, so a record is always tokenized from its first byte by one reader.
//!
//! Line numbers: a record's line is the one it starts on; an LF inside a quoted field and
//! every line end between records (LF, CRLF, or a lone CR, all of which end a record) count
//! one. A blank line is a record of one empty field (`csv-core` would skip it): importers
//! read it as the end of a table (nvprof's summary).
//!
//! A byte-order mark is left in the text: files start without one ([`super::decode`] and the
//! chunked reader strip it), and keeping one met elsewhere makes a record read the same
//! whether or not a chunk starts with it.

mod wanted;

use csv_core::ReadRecordResult;
use std::cell::Cell;
use wanted::{wanted_fields, Wanted};

/// The fields of one record, unescaped, in buffers reused from record to record.
#[derive(Clone, Debug, Default)]
pub struct Fields {
    /// The record's text: a simple record ([`simple_record`]) copied whole, quotes and commas
    /// included, or the fields `csv-core` wrote, one after another, quotes removed. Text, not
    /// bytes: the record was cut from a `&str` at ASCII bytes, so a field is a slice of it, not
    /// checked as UTF-8 again each time it is read (that check was 4 % of reading a raw page).
    text: String,
    /// What `csv-core` writes a record's fields into, before they become `text`.
    bytes: Vec<u8>,
    /// Where each field starts in `text`.
    starts: Vec<usize>,
    /// Where each field ends in `text` (`csv-core`'s end positions): field `i` is
    /// `starts[i]..ends[i]`.
    ends: Vec<usize>,
    /// How many fields the record has (`starts` and `ends` may be longer: they are never shrunk).
    len: usize,
    /// The fields the reader asked for ([`Fields::want`]); empty: all.
    wanted: Wanted,
    /// Whether this record's `starts` and `ends` hold only the wanted fields' ranges (an
    /// all-quoted record read by [`wanted_record`]); any other field is then found in `text`.
    sparse: bool,
}

/// The first sizes of a [`Fields`]' buffers; both double when a record needs more.
const FIRST_BYTES: usize = 256;
const FIRST_FIELDS: usize = 16;

impl Fields {
    /// Asks for the fields `cols` only: a simple all-quoted record then has only their ranges
    /// found ([`wanted_record`]), which is most of reading a wide row (a raw page's, one field a
    /// metric). Any other field still reads right, found when asked for, at the cost of a
    /// search through the record.
    pub fn want(&mut self, cols: impl IntoIterator<Item = usize>) {
        self.wanted = Wanted::new(cols);
    }

    /// How many fields the record has (rows may be shorter than their header).
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Field `i`, or `None` past the end of the record.
    pub fn get(&self, i: usize) -> Option<&str> {
        if i >= self.len {
            return None;
        }
        let (start, end) = if self.sparse { self.sparse_range(i)? } else { (*self.starts.get(i)?, *self.ends.get(i)?) };
        // On character boundaries: `csv-core` removes only ASCII bytes (quotes, separators,
        // line ends) and a simple record's fields are cut at such bytes.
        self.text.get(start..end)
    }

    /// Field `i`, or "" when the row is short (rule rows, truncated last lines).
    pub fn cell(&self, i: usize) -> &str {
        self.get(i).unwrap_or("")
    }

    /// Field `i`'s range in a sparse record (all-quoted, copied whole into `text`): a wanted
    /// field's is known, any other's lies between the record's quotes `2i` and `2i + 1`. Out of
    /// line: only the raw page's reader makes sparse records, and every importer calls `get`.
    #[inline(never)]
    fn sparse_range(&self, i: usize) -> Option<(usize, usize)> {
        if self.wanted.has(i) {
            return Some((*self.starts.get(i)?, *self.ends.get(i)?));
        }
        let mut quotes = memchr::memchr_iter(b'"', self.text.as_bytes()).skip(2 * i);
        let open = quotes.next()?;
        Some((open + 1, quotes.next()?))
    }

    /// Makes this the record of a blank line: one empty field.
    fn set_one_empty(&mut self) {
        self.grow_to(0);
        if let (Some(start), Some(end)) = (self.starts.first_mut(), self.ends.first_mut()) {
            (*start, *end) = (0, 0);
            self.len = 1;
        }
    }

    /// Makes field `n` of a simple record ([`simple_record`]) `from..to` of the record's text.
    /// Inlined, its growth out of line: it runs once a field, 1,800 times a raw page's row, and
    /// as a call of its own it was 14–20 % of each browser parser's samples
    /// (docs/PERFORMANCE.md, "2026-11-29, late night").
    #[inline(always)]
    fn set_range(&mut self, n: usize, from: usize, to: usize) -> Option<()> {
        if n >= self.starts.len() || n >= self.ends.len() {
            self.grow_to(n);
        }
        *self.starts.get_mut(n)? = from;
        *self.ends.get_mut(n)? = to;
        Some(())
    }

    /// Grows `starts` and `ends` to hold field `n` (nothing when they do).
    fn grow_to(&mut self, n: usize) {
        grow_ranges(&mut self.starts, &mut self.ends, n);
    }

    /// Ends a simple record of `n` fields that starts at `start` and whose last field ends at
    /// `after`, where its line end must be: copies the record's text (its fields are ranges of
    /// it) and returns where the record ends, past the LF or CRLF. `None` for anything else
    /// there, a CR that may be half of a CRLF cut by a chunk's end included.
    fn copy_record(&mut self, text: &str, start: usize, after: usize, n: usize) -> Option<usize> {
        let bytes = text.as_bytes();
        let end = match (bytes.get(after)?, bytes.get(after + 1)) {
            (b'\n', _) => after + 1,
            (b'\r', Some(b'\n')) => after + 2,
            _ => return None,
        };
        let record = text.get(start..after)?;
        self.text.clear();
        self.text.push_str(record);
        self.len = n;
        Some(end)
    }

    /// Makes the `n` fields `csv-core` wrote, one after another into `bytes[..written]`, the
    /// record's fields. Always UTF-8 (`csv-core` removes only ASCII bytes from a `&str`); were
    /// it not, the record would read as empty fields.
    fn set_starts_from_ends(&mut self, n: usize, written: usize) {
        self.text.clear();
        if let Some(Ok(written)) = self.bytes.get(..written).map(std::str::from_utf8) {
            self.text.push_str(written);
        }
        if self.starts.len() < n {
            self.starts.resize(n, 0);
        }
        let mut start = 0;
        for (s, &end) in self.starts.iter_mut().zip(&self.ends).take(n) {
            (*s, start) = (start, end);
        }
        self.len = n;
    }

    /// The fields in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.len).map(|i| self.cell(i))
    }
}

/// One record and the line it starts on.
#[derive(Clone, Debug)]
pub struct Record {
    pub line: usize,
    pub fields: Fields,
}

/// Reads the records of `text` from byte `pos`.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    complete_only: bool,
    /// Whether simple records are read by [`simple_record`] (always, but in the tests that
    /// compare it with `csv-core` alone).
    simple: bool,
    core: csv_core::Reader,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Reader::at(text, 0, 1)
    }

    /// Starts reading at byte `pos`, which is on line `line` (1-based).
    pub fn at(text: &'a str, pos: usize, line: usize) -> Self {
        Reader { text, pos, line, complete_only: false, simple: true, core: core_reader() }
    }

    /// Reads only records terminated by a line end: `text` is a chunk of a longer file, and a
    /// record running to its end continues in the next chunk.
    pub fn complete_only(mut self) -> Self {
        self.complete_only = true;
        self
    }

    /// The byte offset of the next unread record.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// The line (1-based) the next unread record starts on.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Reads the next record into `fields` and returns the line it starts on; `None` at the
    /// end of the text (or, with [`Reader::complete_only`], before a record not terminated by
    /// a line end, the position then unchanged). Allocates nothing once `fields` has grown to
    /// the widest record.
    pub fn next_fields(&mut self, fields: &mut Fields) -> Option<usize> {
        (fields.len, fields.sparse) = (0, false);
        let bytes = self.text.as_bytes();
        let start = self.pos;
        let first = *bytes.get(start)?;
        let record_line = self.line;
        if first == b'\n' || first == b'\r' {
            // A blank line, which csv-core would skip: importers read it as the end of a table.
            let Some(after) = self.after_line_end(start) else { return self.incomplete(fields) };
            fields.set_one_empty();
            (self.pos, self.line) = (after, self.line + 1);
            return Some(record_line);
        }
        if let Some(end) = self.simple.then(|| simple_record(self.text, start, fields)).flatten() {
            (self.pos, self.line) = (end, self.line + 1);
            return Some(record_line);
        }
        let lines_before = self.core.line();
        let (mut read, mut written, mut ended) = (0, 0, 0);
        let at_end_of_text = loop {
            let input = bytes.get(start + read..).unwrap_or(&[]);
            let output = fields.bytes.get_mut(written..).unwrap_or(&mut []);
            let ends = fields.ends.get_mut(ended..).unwrap_or(&mut []);
            let (result, n_in, n_out, n_ends) = self.core.read_record(input, output, ends);
            (read, written, ended) = (read + n_in, written + n_out, ended + n_ends);
            match result {
                ReadRecordResult::Record => break input.is_empty(),
                ReadRecordResult::OutputFull => grow(&mut fields.bytes, FIRST_BYTES, 0),
                ReadRecordResult::OutputEndsFull => grow(&mut fields.ends, FIRST_FIELDS, 0),
                // More of the record is in the next chunk: read it again from its start then.
                ReadRecordResult::InputEmpty if self.complete_only => return self.incomplete(fields),
                // The end of the text ends the record: the next call, with no input, says so.
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::End => return self.incomplete(fields),
            }
        };
        // csv-core counted the LFs it read (inside quotes, and one ending the record); a record
        // it ended at a CR leaves that line end (CR or CRLF) to us.
        let mut end = start + read;
        let mut lines = usize::try_from(self.core.line().saturating_sub(lines_before)).unwrap_or(0);
        if !at_end_of_text && end.checked_sub(1).and_then(|i| bytes.get(i)) == Some(&b'\r') {
            let Some(after) = self.after_line_end(end - 1) else { return self.incomplete(fields) };
            (end, lines) = (after, lines + 1);
        }
        fields.set_starts_from_ends(ended, written);
        (self.pos, self.line) = (end, self.line + lines);
        Some(record_line)
    }

    /// Where the line end at `at` (an LF, a CRLF or a lone CR, as csv-core ends records)
    /// ends; `None` for a CR ending a chunk, which may be the first half of a CRLF split over
    /// chunks.
    fn after_line_end(&self, at: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        match (bytes.get(at), bytes.get(at + 1)) {
            (Some(b'\r'), Some(b'\n')) => Some(at + 2),
            (Some(b'\r'), None) if self.complete_only => None,
            _ => Some(at + 1),
        }
    }

    /// Forgets a record read in part: the next call starts it again from its first byte.
    fn incomplete(&mut self, fields: &mut Fields) -> Option<usize> {
        fields.len = 0;
        self.core.reset();
        keep_bom(&mut self.core);
        None
    }
}

impl Iterator for Reader<'_> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        let mut fields = Fields::default();
        let line = self.next_fields(&mut fields)?;
        Some(Record { line, fields })
    }
}

thread_local! {
    /// A built `csv-core` reader left by the last [`Reader`], for the next: building one
    /// computes its transition table (≈ 6 µs, measured: 1.5 % of streaming a raw page, where a
    /// reader is made for every chunk).
    static SPARE_CORE: Cell<Option<csv_core::Reader>> = const { Cell::new(None) };
}

/// A `csv-core` reader with the defaults (comma, `"` doubled inside quotes, CR/LF/CRLF line
/// ends, no comments) that keeps a leading byte-order mark as text: the spare one, else a new
/// one. Never a clone: in csv-core 0.1.13, `Clone` copies the transition table but not the
/// byte classes, and the copy misreads every record.
fn core_reader() -> csv_core::Reader {
    SPARE_CORE.try_with(Cell::take).ok().flatten().unwrap_or_else(|| {
        let mut core = csv_core::Reader::new();
        keep_bom(&mut core);
        core
    })
}

impl Drop for Reader<'_> {
    /// Leaves the `csv-core` reader, reset, for the next [`Reader`].
    fn drop(&mut self) {
        // `Default` is an unbuilt reader: no table computed.
        let mut core = std::mem::take(&mut self.core);
        core.reset();
        keep_bom(&mut core);
        // `try_with`: a reader dropped while the thread ends has nowhere to leave it.
        let _ = SPARE_CORE.try_with(|spare| spare.set(Some(core)));
    }
}

/// `csv-core` drops a byte-order mark at the start of its first input; reading nothing first
/// (which at the start of a record ends nothing and leaves the reader at the start of a
/// record) makes that first input past.
fn keep_bom(core: &mut csv_core::Reader) {
    let _ = core.read_record(&[], &mut [], &mut []);
}

/// Reads the record at `start` into `fields` when it is *simple*, and returns where it ends
/// (past its LF or CRLF); `None`, with `fields` to be overwritten, when it is not, for `csv-core`
/// to read it from its first byte. A simple record is one line ended by an LF or a CRLF, whose
/// fields are each either quoted with no quote, CR or LF inside (`"1.5"`), or unquoted with no
/// quote or CR (`1.5`). On such a record `csv-core` gives exactly these fields (RFC 4180 with
/// nothing to unescape), so the fast path changes no result; anything else (a doubled quote, a
/// line end inside quotes, a lone CR, text after a closing quote, the end of the text before
/// the line end) is left to `csv-core`.
///
/// Why by hand (ARCHITECTURE.md, "Hand-written pieces"): Nsight Compute quotes every field and
/// most are a few bytes (`"0","1","416",…`, 4 bytes a field on a raw page), where `csv-core`'s
/// byte-at-a-time state machine was 51–65 % of each browser parser's time
/// (docs/PERFORMANCE.md, "2026-11-29, simple CSV records").
fn simple_record(text: &str, start: usize, fields: &mut Fields) -> Option<usize> {
    let bytes = text.as_bytes();
    if bytes.get(start) == Some(&b'"') {
        if !fields.wanted.is_empty() {
            if let Some(end) = wanted_record(text, start, fields) {
                return Some(end);
            }
        }
        if let Some(end) = quoted_record(text, start, fields) {
            return Some(end);
        }
    }
    let (mut at, mut n) = (start, 0);
    loop {
        let (from, to, after) = if *bytes.get(at)? == b'"' {
            let from = at + 1;
            let len = bytes.get(from..)?.iter().position(|&b| matches!(b, b'"' | b'\n' | b'\r'))?;
            if bytes.get(from + len) != Some(&b'"') {
                return None;
            }
            (from, from + len, from + len + 1)
        } else {
            let len = bytes.get(at..)?.iter().position(|&b| matches!(b, b',' | b'\n' | b'"' | b'\r'))?;
            (at, at + len, at + len)
        };
        fields.set_range(n, from - start, to - start)?;
        n += 1;
        match bytes.get(after)? {
            b',' => at = after + 1,
            _ => return fields.copy_record(text, start, after, n),
        }
    }
}

// The portable `stops16`'s word arithmetic.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const ONES: u64 = 0x0101_0101_0101_0101;
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const HIGH: u64 = 0x8080_8080_8080_8080;

/// 0x80 in each byte of `word` that is `byte`, 0 in the others (exact: no carry crosses bytes).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn bytes_equal(word: u64, byte: u8) -> u64 {
    let x = word ^ (ONES * u64::from(byte));
    !(((x & !HIGH) + !HIGH) | x) & HIGH
}

/// [`simple_record`] for a record whose fields are all quoted (`"a","b",…`), the caller having
/// seen its opening quote at `start`. Inside such a field only its closing quote can come
/// next, so each field is one look for the next stop (quote, LF or CR) in a mask of sixteen
/// bytes' stops ([`stops16`], made once for every sixteen bytes, not once a field), and a look
/// at the two bytes after it: `","` goes on to the next field, a line end ends the record.
/// `None` also where the simple reader may still read the record (an unquoted field; fewer
/// than sixteen bytes left to look at).
fn quoted_record(text: &str, start: usize, fields: &mut Fields) -> Option<usize> {
    let (n, after) = quoted_fields(text.as_bytes(), start, &mut fields.starts, &mut fields.ends)?;
    // A line end ends the record; anything else after the last quote (an unquoted field next,
    // text after the quote) is not for this reader, and `copy_record` says `None`.
    fields.copy_record(text, start, after, n)
}

/// [`quoted_record`] with only the wanted fields' ranges found ([`Fields::want`],
/// [`wanted::wanted_fields`]): `fields` is then *sparse*. `None` as [`quoted_record`] says it, and
/// also where the record's line end is not within whole blocks of 64 bytes of the text (the
/// last record of a chunk, a short record near the end), which [`quoted_record`] then reads.
fn wanted_record(text: &str, start: usize, fields: &mut Fields) -> Option<usize> {
    let width = fields.wanted.width();
    if width > fields.starts.len().min(fields.ends.len()) {
        grow_ranges(&mut fields.starts, &mut fields.ends, width - 1);
    }
    let (n, after) = wanted_fields(text.as_bytes(), start, &fields.wanted, &mut fields.starts, &mut fields.ends)?;
    let end = fields.copy_record(text, start, after, n)?;
    fields.sparse = true;
    Some(end)
}

/// The fields of [`quoted_record`]: their ranges into `starts` and `ends` (grown as needed),
/// their number and where the last one's closing quote is followed by something other than
/// `","`. The two buffers are written through slices held across fields, so their pointers
/// and lengths stay in locals: written through `Fields` (`set_range`), each field reloaded
/// both from memory, since a store into a buffer might, for all the compiler knows, have
/// changed the `Fields` it came from (docs/PERFORMANCE.md, 2026-12-01).
#[inline(always)]
fn quoted_fields(bytes: &[u8], start: usize, starts: &mut Vec<usize>, ends: &mut Vec<usize>) -> Option<(usize, usize)> {
    // Where the open field's text starts, and where the next stop is looked for from.
    let (mut n, mut from) = (0, start + 1);
    let mut look = from;
    // The stops of bytes `base..base + 16`, bit k for byte `base + k`.
    let (mut base, mut stops) = (from, stops16(bytes, from)?);
    loop {
        if n >= starts.len() || n >= ends.len() {
            grow_ranges(starts, ends, n);
        }
        let room = starts.len().min(ends.len());
        let (starts, ends) = (starts.as_mut_slice(), ends.as_mut_slice());
        while n < room {
            let i = loop {
                if look >= base + STOPS_PER_MASK {
                    (base, stops) = (look, stops16(bytes, look)?);
                }
                let ahead = stops >> (look - base);
                if ahead != 0 {
                    break look + ahead.trailing_zeros() as usize;
                }
                look = base + STOPS_PER_MASK;
            };
            // A line end inside the field: not a simple record.
            if *bytes.get(i)? != b'"' {
                return None;
            }
            *starts.get_mut(n)? = from - start;
            *ends.get_mut(n)? = i - start;
            n += 1;
            match (*bytes.get(i + 1)?, bytes.get(i + 2)) {
                (b',', Some(b'"')) => (from, look) = (i + 3, i + 3),
                _ => return Some((n, i + 1)),
            }
        }
    }
}

/// Grows a record's field `starts` and `ends` to hold field `n` (nothing when they do).
#[cold]
#[inline(never)]
fn grow_ranges(starts: &mut Vec<usize>, ends: &mut Vec<usize>, n: usize) {
    while starts.len() <= n {
        grow(starts, FIRST_FIELDS, 0);
    }
    while ends.len() <= n {
        grow(ends, FIRST_FIELDS, 0);
    }
}

/// Bytes a mask of [`stops16`] covers.
const STOPS_PER_MASK: usize = 16;

/// The quotes, LFs and CRs of `bytes[at..at + 16]`, bit k set for byte `at + k`; `None` where
/// fewer than 16 bytes are left. With wasm SIMD (the site's builds, `.cargo/config.toml`) it is
/// one 16-byte load, three compares and `i8x16.bitmask`: a raw page's fields are 4–7 bytes, so
/// a mask serves two to four fields. The compiler does not find this by itself (tried: a loop
/// of byte compares into a mask became lane extractions).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn stops16(bytes: &[u8], at: usize) -> Option<u32> {
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128_or};
    let v = load16(bytes.get(at..at + 16)?.try_into().ok()?);
    let found = v128_or(v128_or(u8x16_eq(v, u8x16_splat(b'"')), u8x16_eq(v, u8x16_splat(b'\n'))), u8x16_eq(v, u8x16_splat(b'\r')));
    Some(u32::from(u8x16_bitmask(found)))
}

/// Sixteen bytes as one wasm SIMD value (the compiler makes it one `v128.load`), for
/// [`stops16`] and [`wanted::wanted_fields`]' masks.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn load16(b: &[u8; 16]) -> core::arch::wasm32::v128 {
    core::arch::wasm32::u8x16(b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
}

/// [`stops16`] elsewhere (native builds, the CLI): two words of plain `u64` arithmetic (SWAR),
/// each word's per-byte flags gathered into eight bits.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn stops16(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at + 16)?;
    let word = |k: usize| -> Option<u32> {
        let w = u64::from_le_bytes(b.get(k..k + 8)?.try_into().ok()?);
        Some(gather(bytes_equal(w, b'"') | bytes_equal(w, b'\n') | bytes_equal(w, b'\r')))
    };
    Some(word(0)? | word(8)? << 8)
}

/// The high bits of a word's eight bytes (`bytes_equal`'s flags) as eight bits, byte k's as
/// bit k: the multiply moves each flag to the top byte without carries (each product term
/// lands on its own bit).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn gather(high_bits: u64) -> u32 {
    ((high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// Doubles `buf` (at least to `first` elements), filled with `fill` for `csv-core` to overwrite.
fn grow<T: Copy>(buf: &mut Vec<T>, first: usize, fill: T) {
    let len = (buf.len() * 2).max(first);
    buf.resize(len, fill);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(usize, Vec<String>)> {
        Reader::new(text).map(|r| (r.line, r.fields.iter().map(str::to_string).collect())).collect()
    }

    /// [`rows`] with every record read by `csv-core`.
    fn rows_by_csv_core(text: &str) -> Vec<(usize, Vec<String>)> {
        let mut reader = Reader::new(text);
        reader.simple = false;
        reader.map(|r| (r.line, r.fields.iter().map(str::to_string).collect())).collect()
    }

    /// The fields [`simple_record`] reads at `start`, and where it ends; `None` when it leaves
    /// the record to `csv-core`.
    fn simple(text: &str, start: usize) -> Option<(Vec<String>, usize)> {
        let mut fields = Fields::default();
        let end = simple_record(text, start, &mut fields)?;
        Some((fields.iter().map(str::to_string).collect(), end))
    }

    /// What [`quoted_record`] alone reads at `start`.
    fn quoted(text: &str, start: usize) -> Option<(Vec<String>, usize)> {
        let mut fields = Fields::default();
        let end = quoted_record(text, start, &mut fields)?;
        Some((fields.iter().map(str::to_string).collect(), end))
    }

    #[test]
    fn simple_records_are_read_without_csv_core() {
        let text = "\"ID\",\"Kernel Name\",\"x\"\n\"0\",\"f(int, float)\",\"1,024.5\"\r\n\"\",\"\"\n";
        let first = Some((vec!["ID".into(), "Kernel Name".into(), "x".into()], 23));
        // A CRLF ends a record as an LF does; the quoted reader needs 16 bytes to look at.
        let second = Some((vec!["0".into(), "f(int, float)".into(), "1,024.5".into()], 54));
        assert_eq!((simple(text, 0), quoted(text, 0)), (first.clone(), first));
        assert_eq!((simple(text, 23), quoted(text, 23)), (second.clone(), second));
        assert_eq!((simple(text, 54), quoted(text, 54)), (Some((vec!["".into(), "".into()], 60)), None));
        // An unquoted field: the quoted reader leaves the record, the simple one reads it.
        let mixed = "\"a\",1,\"b\"\n\"c\"\n";
        assert_eq!(quoted(mixed, 0), None);
        assert_eq!(simple(mixed, 0), Some((vec!["a".into(), "1".into(), "b".into()], 10)));
        let trailing_comma = "\"a\",\"b\",\n\"c\"\n";
        assert_eq!(quoted(trailing_comma, 0), None);
        assert_eq!(simple(trailing_comma, 0), Some((vec!["a".into(), "b".into(), "".into()], 9)));
        // Unquoted fields, empty fields (quoted or not) and a trailing comma.
        assert_eq!(simple("a,,\"\",b c,\n", 0), Some((vec!["a".into(), "".into(), "".into(), "b c".into(), "".into()], 11)));
        // Multi-byte text and a byte-order mark are text, as csv-core keeps them.
        assert_eq!(simple("\u{feff}é,\"ü\"\n", 0), Some((vec!["\u{feff}é".into(), "ü".into()], 11)));
    }

    /// [`rows`] with the fields `cols` wanted ([`Fields::want`]), every field read all the
    /// same, and how many records were read sparse.
    fn rows_wanting(text: &str, cols: &[usize]) -> (Vec<(usize, Vec<String>)>, usize) {
        let (mut reader, mut fields) = (Reader::new(text), Fields::default());
        fields.want(cols.iter().copied());
        let (mut got, mut sparse) = (Vec::new(), 0);
        while let Some(line) = reader.next_fields(&mut fields) {
            sparse += usize::from(fields.sparse);
            got.push((line, fields.iter().map(str::to_string).collect()));
        }
        (got, sparse)
    }

    #[test]
    fn wanted_fields_of_wide_quoted_records() {
        // Three rows of 40 quoted fields (3 to 25 bytes, commas and multi-byte text inside):
        // fields cross the 64-byte blocks at every place; the last row ends the text, so its
        // line end is not within whole blocks and the 16-byte reader reads it.
        let row = |r: usize| (0..40).map(|i| format!("\"{}\"", "é,x".repeat((i * 7 + r) % 9))).collect::<Vec<_>>().join(",");
        let text = format!("{}\r\n{}\n{}\n", row(0), row(1), row(2));
        let want = [0, 3, 17, 39, 45];
        let (got, sparse) = rows_wanting(&text, &want);
        assert_eq!(got, rows_by_csv_core(&text));
        assert_eq!(sparse, 2, "the first two rows read sparse");
        // A wanted field is its range; another is found in the record.
        let (mut reader, mut fields) = (Reader::new(&text), Fields::default());
        fields.want(want);
        assert_eq!(reader.next_fields(&mut fields), Some(1));
        assert!(fields.sparse);
        assert_eq!((fields.len(), fields.get(45)), (40, None));
        assert_eq!((fields.cell(3).len(), fields.cell(4).len()), ("é,x".len() * 3, "é,x".len()));
        assert_eq!(reader.next_fields(&mut fields), Some(2));
        assert_eq!(fields.cell(17), "é,x".repeat((17 * 7 + 1) % 9));
    }

    #[test]
    fn wanted_fields_leave_records_that_are_not_simple() {
        // Each in the second row of a text long enough for whole blocks: a doubled quote, a line
        // end inside quotes, text after a quote, an unquoted field, a tab inside a field (below
        // 14, the wasm mask's line-end test), a lone CR, a trailing comma.
        let long = (0..20).map(|i| format!("\"field {i}\"")).collect::<Vec<_>>().join(",");
        for odd in ["\"a\"\"b\"", "\"a\nb\"", "\"a\"b", "7", "\"a\tb\"", "\"a\"\rx", "\"a\","] {
            let text = format!("{long}\n{long},{odd},{long}\n{long}\n{long}\n");
            let (got, _) = rows_wanting(&text, &[0, 20, 21, 40]);
            assert_eq!(got, rows_by_csv_core(&text), "{odd:?}");
        }
    }

    #[test]
    fn stops16_marks_the_quotes_and_line_ends_of_sixteen_bytes() {
        let text = b"\"0\",\"12\"\r\n\"abc\",x\"\n,\"";
        for at in 0..text.len() {
            let by_byte = text.get(at..at + 16).map(|b| b.iter().enumerate().filter(|(_, c)| matches!(c, b'"' | b'\n' | b'\r')).fold(0u32, |m, (k, _)| m | 1 << k));
            assert_eq!(stops16(text, at), by_byte, "at {at}");
        }
        // Bytes 0 (a quote), 2 (a quote), 4, 7, 8 (CR), 9 (LF), 10, 14.
        assert_eq!(stops16(text, 0), Some(0b0100_0111_1001_0101));
    }

    #[test]
    fn records_that_are_not_simple_are_left_to_csv_core() {
        // Each followed by a record long enough for the quoted reader's sixteen-byte masks.
        let next = "\"padding\",\"padding\"\n";
        let followed = [
            "\"say \"\"hi\"\"\"\n",  // a doubled quote
            "\"a\nb\",\"c\"\n",      // a line end inside quotes
            "\"a\rb\",\"c\"\n",      // a CR inside quotes
            "\"a\n,\"b\"\n",        // a line end inside quotes, then what looks like fields
            "\"a\r,\"b\"\n",        // the same with a CR
            "a,b\rc\n",             // a lone CR ends a record
            "\"a\",\"b\"\rc,d,e\n",   // the same after quoted fields
            "\"a\"b,c\n",           // text after a closing quote
            "a\"b\",c\n",           // a quote inside an unquoted field
            "\"a\",x\"b\",\"c\"\n",  // the same after a quoted field
            "\"a\",\"b\"c\n",       // text after the last closing quote
        ];
        // At the end of the text the quoted reader never has sixteen bytes past the last
        // field's start, so it is the simple reader that must leave these.
        let at_the_end = [
            "\"abcdefgh\",\"ijklmnop\"\r", // a CR that may be half of a CRLF cut by a chunk
            "\"abcdefgh\",\"ijklmnop\"",   // no line end yet (the end of the text or a chunk)
            "\"abcdefgh\",\"ijklmnop",     // an unterminated quote
        ];
        let texts = followed.iter().map(|t| format!("{t}{next}")).chain(at_the_end.iter().map(|t| t.to_string()));
        for text in texts {
            assert_eq!((simple(&text, 0), quoted(&text, 0)), (None, None), "{text:?}");
            assert_eq!(rows(&text), rows_by_csv_core(&text), "{text:?}");
        }
    }

    #[test]
    fn quoted_fields_with_commas_quotes_and_newlines() {
        let got = rows("a,\"b,c\",\"say \"\"hi\"\"\"\r\n\"multi\nline\",x\n");
        assert_eq!(got[0], (1, vec!["a".into(), "b,c".into(), "say \"hi\"".into()]));
        assert_eq!(got[1], (2, vec!["multi\nline".into(), "x".into()]));
        assert_eq!(got.len(), 2);
    }

    #[test]
    fn trailing_comma_gives_an_empty_last_field() {
        assert_eq!(rows("\"a\",\"b\",\n")[0].1, vec!["a", "b", ""]);
    }

    #[test]
    fn line_numbers_count_embedded_newlines_and_blank_lines() {
        let got = rows("\"x\ny\"\nz\n");
        assert_eq!(got[1].0, 3);
        // Blank lines (LF, CRLF, lone CR) are records of one empty field, on their own lines;
        // a lone CR ends a record and a line, a CR inside quotes does not.
        let got = rows("a\r\n\r\n\nb,\"c\r\nd\"\r\ne\rf,\"g\rh\"\r\r\ni");
        let want: Vec<(usize, Vec<String>)> = vec![
            (1, vec!["a".into()]),
            (2, vec!["".into()]),
            (3, vec!["".into()]),
            (4, vec!["b".into(), "c\r\nd".into()]),
            (6, vec!["e".into()]),
            (7, vec!["f".into(), "g\rh".into()]),
            (8, vec!["".into()]),
            (9, vec!["i".into()]),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn unterminated_quote_and_last_line_without_newline() {
        assert_eq!(rows("a,\"b"), vec![(1, vec!["a".to_string(), "b".to_string()])]);
        assert_eq!(rows("a,b\nc"), vec![(1, vec!["a".to_string(), "b".to_string()]), (2, vec!["c".to_string()])]);
    }

    #[test]
    fn short_rows_and_missing_cells() {
        let mut r = Reader::new("a,b,c\nd\n");
        let (first, second) = (r.next(), r.next());
        assert_eq!(first.map(|r| r.fields.len()), Some(3));
        let second = second.map(|r| r.fields);
        assert_eq!(second.as_ref().map(Fields::len), Some(1));
        assert_eq!(second.as_ref().map(|f| (f.cell(0), f.cell(1), f.get(1))), Some(("d", "", None)));
    }

    #[test]
    fn complete_only_stops_before_a_partial_record() {
        let text = "a,b\n\"c\nd\",e\n\"f,g";
        let mut r = Reader::new(text).complete_only();
        let mut fields = Fields::default();
        assert_eq!(r.next_fields(&mut fields), Some(1));
        assert_eq!(r.next_fields(&mut fields), Some(2));
        assert_eq!(fields.cell(0), "c\nd");
        assert_eq!((r.pos(), r.line()), (12, 4));
        assert_eq!(r.next_fields(&mut fields), None, "unterminated quote at the end of a chunk");
        assert_eq!((r.pos(), r.line(), fields.len()), (12, 4, 0), "position unchanged, no fields");
        let mut r = Reader::new("x,y").complete_only();
        assert_eq!(r.next_fields(&mut fields), None, "no line end yet");
        let mut r = Reader::new("x,y\r").complete_only();
        assert_eq!(r.next_fields(&mut fields), None, "CR may be half of a CRLF");
        assert_eq!(r.pos(), 0);
    }

    #[test]
    fn a_record_is_read_again_whole_after_an_incomplete_attempt() {
        // The chunk feeder's pattern: the first chunk ends inside a quoted field, the same
        // reader position is then read with the rest of the record.
        let whole = "h\n\"a\nb\",\"c\"\"d\"\n";
        let mut fields = Fields::default();
        let mut r = Reader::at(&whole[..9], 2, 2).complete_only();
        assert_eq!(r.next_fields(&mut fields), None);
        let mut r = Reader::at(whole, r.pos(), r.line()).complete_only();
        assert_eq!(r.next_fields(&mut fields), Some(2));
        assert_eq!((fields.cell(0), fields.cell(1), r.line()), ("a\nb", "c\"d", 4));
    }

    #[test]
    fn wide_records_grow_the_buffers_and_reuse_them() {
        let wide = (0..1000).map(|i| format!("\"cell number {i}\"")).collect::<Vec<_>>().join(",");
        let text = format!("{wide}\n{wide}\n");
        let mut r = Reader::new(&text);
        let mut fields = Fields::default();
        assert_eq!(r.next_fields(&mut fields), Some(1));
        let (text_bytes, ends) = (fields.text.capacity(), fields.ends.capacity());
        assert_eq!((fields.len(), fields.cell(999)), (1000, "cell number 999"));
        assert_eq!(r.next_fields(&mut fields), Some(2));
        assert_eq!((fields.len(), fields.cell(0)), (1000, "cell number 0"));
        assert_eq!((fields.text.capacity(), fields.ends.capacity()), (text_bytes, ends), "no new allocation");
    }

    /// Reads `text` as the chunk feeder does ([`super::super::chunks`]): each piece up to its
    /// last line end, with [`Reader::complete_only`], the unread rest carried into the next.
    fn rows_in_pieces(text: &str, cuts: &[usize]) -> Vec<(usize, Vec<String>)> {
        let (mut got, mut fields) = (Vec::new(), Fields::default());
        let (mut start, mut line) = (0, 1);
        for &cut in cuts.iter().filter(|&&c| text.is_char_boundary(c)) {
            let Some(nl) = text.get(start..cut).and_then(|t| t.rfind('\n')) else { continue };
            let mut r = Reader::at(&text[start..start + nl + 1], 0, line).complete_only();
            while let Some(l) = r.next_fields(&mut fields) {
                got.push((l, fields.iter().map(str::to_string).collect()));
            }
            (start, line) = (start + r.pos(), r.line());
        }
        let mut r = Reader::at(&text[start..], 0, line);
        while let Some(l) = r.next_fields(&mut fields) {
            got.push((l, fields.iter().map(str::to_string).collect()));
        }
        got
    }

    proptest::proptest! {
        /// Records and their lines do not depend on where the text was cut: quotes, CR, LF,
        /// CRLF, BOMs and multi-byte characters anywhere.
        #[test]
        fn pieces_read_like_the_whole(
            parts in proptest::collection::vec(proptest::sample::select(vec!["a", "1,5", ",", "\"", "\"\"", "\n", "\r", "\r\n", "é", "\u{feff}"]), 0..60),
            mut cuts in proptest::collection::vec(0usize..200, 0..8),
        ) {
            let text = parts.concat();
            cuts.sort_unstable();
            proptest::prop_assert_eq!(rows_in_pieces(&text, &cuts), rows(&text));
        }

        /// The fast path for simple records reads every text as `csv-core` alone does.
        #[test]
        fn quoted_records_read_as_csv_core_reads_them(
            parts in proptest::collection::vec(proptest::sample::select(vec!["\"1\",", "\"22\",", "\"\",", "\"a long field of 21 b\",", "\"7\"\n", "\"8\"\r\n", "\n", "\"", ",", "\r", "x"]), 0..80),
        ) {
            // Mostly records of quoted fields, short and longer than a mask's 16 bytes, with now
            // and then what makes one not simple.
            let text = parts.concat();
            proptest::prop_assert_eq!(rows(&text), rows_by_csv_core(&text));
        }

        /// With some fields wanted, every field of every text reads as `csv-core` reads it.
        #[test]
        fn wanted_fields_read_as_csv_core_reads_them(
            parts in proptest::collection::vec(proptest::sample::select(vec!["\"1\",", "\"22\",", "\"\",", "\"a long field, of 31 bytes, é\",", "\"7\"\n", "\"8\"\r\n", "\n", "\"", ",", "\r", "x", "\t"]), 0..120),
            cols in proptest::collection::vec(0usize..12, 0..5),
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(rows_wanting(&text, &cols).0, rows_by_csv_core(&text));
        }

        /// The fast path for simple records reads every text as `csv-core` alone does.
        #[test]
        fn simple_records_read_as_csv_core_reads_them(
            parts in proptest::collection::vec(proptest::sample::select(vec!["a", "\"1\"", "\"x,y\"", "", ",", "\"", "\"\"", "\n", "\r", "\r\n", "é", "\u{feff}"]), 0..60),
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(rows(&text), rows_by_csv_core(&text));
        }
    }

    #[test]
    fn a_byte_order_mark_is_kept_as_text() {
        assert_eq!(rows("\u{feff}a,b\n")[0].1, vec!["\u{feff}a", "b"]);
        assert_eq!(rows("x\n\u{feff}a\n")[1].1, vec!["\u{feff}a"]);
    }
}
