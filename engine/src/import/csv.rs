//! A small, fast CSV reader for profiler output: RFC 4180 quoting (quotes doubled inside
//! quoted fields, separators and newlines inside quotes), CRLF or LF, and 1-based line numbers
//! for error messages. It borrows from the input where a field has no escaped quote.

use std::borrow::Cow;

/// One record and the line it starts on.
#[derive(Debug, PartialEq)]
pub struct Record<'a> {
    pub line: usize,
    pub fields: Vec<Cow<'a, str>>,
}

/// Iterates over the records of `text` starting at byte `start`.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    sep: u8,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Self {
        Reader { text, pos: 0, line: 1, sep: b',' }
    }

    /// Starts reading at byte `pos`, which is on line `line` (1-based).
    pub fn at(text: &'a str, pos: usize, line: usize) -> Self {
        Reader { text, pos, line, sep: b',' }
    }

    fn field(&mut self) -> (Cow<'a, str>, bool) {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        if bytes.get(start) == Some(&b'"') {
            let mut i = start + 1;
            let mut owned: Option<String> = None;
            let mut seg = i;
            loop {
                match bytes.get(i) {
                    None => break,
                    Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                        let s = owned.get_or_insert_with(String::new);
                        s.push_str(&self.text[seg..=i]);
                        i += 2;
                        seg = i;
                    }
                    Some(b'"') => break,
                    Some(b'\n') => {
                        self.line += 1;
                        i += 1;
                    }
                    Some(_) => i += 1,
                }
            }
            let end = i.min(bytes.len());
            let value = match owned {
                Some(mut s) => {
                    s.push_str(&self.text[seg..end]);
                    Cow::Owned(s)
                }
                None => Cow::Borrowed(&self.text[start + 1..end]),
            };
            // Skip the closing quote and anything up to the separator (lenient).
            let mut j = (end + 1).min(bytes.len());
            while j < bytes.len() && bytes[j] != self.sep && bytes[j] != b'\n' && bytes[j] != b'\r' {
                j += 1;
            }
            self.pos = j;
            (value, true)
        } else {
            let mut j = start;
            while j < bytes.len() && bytes[j] != self.sep && bytes[j] != b'\n' && bytes[j] != b'\r' {
                j += 1;
            }
            self.pos = j;
            (Cow::Borrowed(&self.text[start..j]), false)
        }
    }
}

impl<'a> Iterator for Reader<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        let bytes = self.text.as_bytes();
        if self.pos >= bytes.len() {
            return None;
        }
        let line = self.line;
        let mut fields = Vec::new();
        loop {
            let (f, _) = self.field();
            fields.push(f);
            match bytes.get(self.pos) {
                Some(&b) if b == self.sep => self.pos += 1,
                Some(b'\r') => {
                    self.pos += 1;
                    if bytes.get(self.pos) == Some(&b'\n') {
                        self.pos += 1;
                    }
                    self.line += 1;
                    break;
                }
                Some(b'\n') => {
                    self.pos += 1;
                    self.line += 1;
                    break;
                }
                _ => break,
            }
        }
        Some(Record { line, fields })
    }
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
}
