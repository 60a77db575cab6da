//! A small, fast CSV reader for profiler output: RFC 4180 quoting (quotes doubled inside
//! quoted fields, separators and newlines inside quotes), CRLF or LF, and 1-based line numbers
//! for error messages. It borrows from the input where a field has no escaped quote.
//!
//! Two ways to read: the [`Iterator`] yields a [`Record`] of owned-or-borrowed cells (simple,
//! one `Vec` per record, for the small tables of most formats); [`Reader::next_spans`] writes
//! the fields' byte ranges into a caller's reused `Vec<Span>` and allocates nothing, for the
//! hot loops of large files (Nsight Compute pages). Both share one tokenizer, which finds
//! field ends with `memchr` (SIMD natively).
//!
//! Streaming: [`Reader::complete_only`] stops before a record that is not terminated by a line
//! end (the rest of it is in the next chunk of the file), leaving [`Reader::pos`] at its start.

use std::borrow::Cow;

/// One record and the line it starts on.
#[derive(Debug, PartialEq)]
pub struct Record<'a> {
    pub line: usize,
    pub fields: Vec<Cow<'a, str>>,
}

/// Where a field's content is in the text: `start..end` (inside the quotes of a quoted field),
/// and whether it contains doubled quotes (`""`) that [`Span::text`] unescapes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub escaped: bool,
}

impl Span {
    /// The field's value: borrowed from `text`, or unescaped (`""` → `"`) into a new string.
    pub fn text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let raw = text.get(self.start..self.end).unwrap_or("");
        if self.escaped {
            Cow::Owned(raw.replace("\"\"", "\""))
        } else {
            Cow::Borrowed(raw)
        }
    }
}

/// The text of field `i` of a record read with [`Reader::next_spans`], or "" when the row is short.
pub fn span_cell<'a>(text: &'a str, spans: &[Span], i: usize) -> Cow<'a, str> {
    spans.get(i).map_or(Cow::Borrowed(""), |s| s.text(text))
}

/// Iterates over the records of `text` starting at byte `start`.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    sep: u8,
    complete_only: bool,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Reader::at(text, 0, 1)
    }

    /// Starts reading at byte `pos`, which is on line `line` (1-based).
    pub fn at(text: &'a str, pos: usize, line: usize) -> Self {
        Reader { text, pos, line, sep: b',', complete_only: false }
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

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Reads one field starting at `self.pos`, leaving `self.pos` on the byte after it (a
    /// separator, a line end, or the end of the text). `None` for an unterminated quote.
    fn field(&mut self) -> Option<Span> {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        if bytes.get(start) != Some(&b'"') {
            let end = find3(bytes.get(start..).unwrap_or(&[]), self.sep, b'\n', b'\r').map_or(bytes.len(), |i| start + i);
            self.pos = end;
            return Some(Span { start, end, escaped: false });
        }
        let mut i = start + 1;
        let mut escaped = false;
        let end = loop {
            match find2(bytes.get(i..).unwrap_or(&[]), b'"', b'\n').map(|k| i + k) {
                None => {
                    // Unterminated quote: the field runs to the end of the text.
                    self.pos = bytes.len();
                    return if self.complete_only { None } else { Some(Span { start: start + 1, end: bytes.len(), escaped }) };
                }
                Some(q) if bytes.get(q) == Some(&b'\n') => {
                    self.line += 1;
                    i = q + 1;
                }
                Some(q) if bytes.get(q + 1) == Some(&b'"') => {
                    escaped = true;
                    i = q + 2;
                }
                Some(q) => break q,
            }
        };
        // Skip the closing quote and anything up to the separator (lenient).
        let after = end + 1;
        self.pos = match bytes.get(after) {
            Some(&b) if b == self.sep || b == b'\n' || b == b'\r' => after,
            _ => find3(bytes.get(after..).unwrap_or(&[]), self.sep, b'\n', b'\r').map_or(bytes.len(), |k| after + k),
        };
        Some(Span { start: start + 1, end, escaped })
    }

    /// Reads the next record's fields into `spans` (cleared first) and returns the line it
    /// starts on; `None` at the end of the text (or, with [`Reader::complete_only`], before a
    /// record not terminated by a line end, the position then unchanged). Allocates nothing
    /// once `spans` has grown to the widest record.
    pub fn next_spans(&mut self, spans: &mut Vec<Span>) -> Option<usize> {
        let bytes = self.text.as_bytes();
        spans.clear();
        if self.pos >= bytes.len() {
            return None;
        }
        let (start_pos, start_line) = (self.pos, self.line);
        let incomplete = |r: &mut Self| {
            r.pos = start_pos;
            r.line = start_line;
            None
        };
        loop {
            let Some(span) = self.field() else { return incomplete(self) };
            spans.push(span);
            match bytes.get(self.pos) {
                Some(&b) if b == self.sep => self.pos += 1,
                Some(b'\r') => {
                    self.pos += 1;
                    match bytes.get(self.pos) {
                        Some(b'\n') => self.pos += 1,
                        // A CR ending the chunk may be the first half of a CRLF split over chunks.
                        None if self.complete_only => return incomplete(self),
                        _ => {}
                    }
                    self.line += 1;
                    break;
                }
                Some(b'\n') => {
                    self.pos += 1;
                    self.line += 1;
                    break;
                }
                _ if self.complete_only => return incomplete(self),
                _ => break,
            }
        }
        Some(start_line)
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        let mut spans = Vec::new();
        let line = self.next_spans(&mut spans)?;
        let text = self.text;
        Some(Record { line, fields: spans.iter().map(|s| s.text(text)).collect() })
    }
}

/// How many bytes [`find2`]/[`find3`] look at one by one before calling `memchr`: profiler
/// cells are mostly a few bytes long, where a call costs more than the loop (measured: 60 %
/// of the time went to `memchr` calls on 6-byte cells); kernel names (hundreds of bytes)
/// get memchr's SIMD scan.
const SHORT_FIELD_BYTES: usize = 16;

/// The first position of `a` or `b` in `hay`.
#[inline]
fn find2(hay: &[u8], a: u8, b: u8) -> Option<usize> {
    let head = hay.get(..SHORT_FIELD_BYTES).unwrap_or(hay);
    if let Some(i) = head.iter().position(|&c| c == a || c == b) {
        return Some(i);
    }
    memchr::memchr2(a, b, hay.get(head.len()..)?).map(|i| i + head.len())
}

/// The first position of `a`, `b` or `c` in `hay`.
#[inline]
fn find3(hay: &[u8], a: u8, b: u8, c: u8) -> Option<usize> {
    let head = hay.get(..SHORT_FIELD_BYTES).unwrap_or(hay);
    if let Some(i) = head.iter().position(|&x| x == a || x == b || x == c) {
        return Some(i);
    }
    memchr::memchr3(a, b, c, hay.get(head.len()..)?).map(|i| i + head.len())
}

/// Splits `text` into its lines with their starting byte offsets (1-based line numbers).
pub fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').enumerate().map(move |(i, l)| {
        let start = offset;
        offset += l.len();
        (i + 1, start, l.trim_end_matches(['\n', '\r']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str) -> Vec<(usize, Vec<String>)> {
        Reader::new(text).map(|r| (r.line, r.fields.into_iter().map(|c| c.into_owned()).collect())).collect()
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
    fn line_numbers_count_embedded_newlines() {
        let got = rows("\"x\ny\"\nz\n");
        assert_eq!(got[1].0, 3);
    }

    #[test]
    fn unterminated_quote_and_last_line_without_newline() {
        assert_eq!(rows("a,\"b"), vec![(1, vec!["a".to_string(), "b".to_string()])]);
        assert_eq!(rows("a,b\nc"), vec![(1, vec!["a".to_string(), "b".to_string()]), (2, vec!["c".to_string()])]);
    }

    #[test]
    fn complete_only_stops_before_a_partial_record() {
        let text = "a,b\n\"c\nd\",e\n\"f,g";
        let mut r = Reader::new(text).complete_only();
        let mut spans = Vec::new();
        assert_eq!(r.next_spans(&mut spans), Some(1));
        assert_eq!(r.next_spans(&mut spans), Some(2));
        assert_eq!(span_cell(text, &spans, 0), "c\nd");
        assert_eq!((r.pos(), r.line()), (12, 4));
        assert_eq!(r.next_spans(&mut spans), None, "unterminated quote at the end of a chunk");
        assert_eq!((r.pos(), r.line()), (12, 4), "position unchanged");
        let mut r = Reader::new("x,y").complete_only();
        assert_eq!(r.next_spans(&mut spans), None, "no line end yet");
        let mut r = Reader::new("x,y\r").complete_only();
        assert_eq!(r.next_spans(&mut spans), None, "CR may be half of a CRLF");
    }

    #[test]
    fn byte_search_agrees_with_a_plain_scan() {
        // Mostly plain bytes, special ones sparse: matches land before, at and after the
        // 16-byte short scan.
        let table = b"ab\"\n,\rxyz\x80\xff0xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
        let hay: Vec<u8> = (0..300usize).map(|i| table[i * 7 % table.len()]).collect();
        for start in 0..hay.len() {
            for len in 0..60.min(hay.len() - start) {
                let h = &hay[start..start + len];
                assert_eq!(find2(h, b'"', b'\n'), h.iter().position(|&c| c == b'"' || c == b'\n'));
                assert_eq!(find3(h, b',', b'\n', b'\r'), h.iter().position(|&c| c == b',' || c == b'\n' || c == b'\r'));
            }
        }
        let long = [vec![b'x'; 100], b"\"".to_vec()].concat();
        assert_eq!(find2(&long, b'"', b'\n'), Some(100));
        assert_eq!(find3(&long, b',', b'\n', b'\r'), None);
    }

    #[test]
    fn spans_unescape_only_when_needed() {
        let text = "\"a\"\"b\",c\n";
        let mut spans = Vec::new();
        Reader::new(text).next_spans(&mut spans);
        assert!(matches!(span_cell(text, &spans, 0), Cow::Owned(ref s) if s == "a\"b"));
        assert!(matches!(span_cell(text, &spans, 1), Cow::Borrowed("c")));
        assert_eq!(span_cell(text, &spans, 9), "");
    }
}
