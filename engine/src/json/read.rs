//! Reading: a parsed value ([`Json`]) and syntax errors in serde_json's words.
//!
//! Syntax errors use serde_json's wording and positions ("expected `:` at line 2 column 5",
//! the column of the offending byte), so messages stay what users and tests saw before.
//! Nesting deeper than [`MAX_DEPTH`] is an error, not a stack overflow.

use std::fmt;

/// Deepest nesting of arrays and objects accepted (as serde_json, whose limit is 128 levels
/// minus one).
pub const MAX_DEPTH: usize = 127;

/// A parsed JSON value. Numbers keep their source text, so integers read back exactly
/// ([`Json::as_u64`]) and floats are parsed once, when asked for ([`Json::as_f64`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(String),
    String(String),
    Array(Vec<Json>),
    /// Members in file order; a repeated key is looked up as its last occurrence.
    Object(Vec<(String, Json)>),
}

/// A syntax error: what was expected, where (1-based line and byte column).
#[derive(Clone, Debug, PartialEq)]
pub struct JsonError {
    pub message: &'static str,
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

impl Json {
    /// The member `key` of an object (the last one if repeated); `None` for other values.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Item `i` of an array; `None` for other values or past the end.
    pub fn at(&self, i: usize) -> Option<&Json> {
        self.as_array()?.get(i)
    }

    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// A number as f64 (integers too). The parser has checked that it is finite.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    /// A number written as a whole number ≥ 0 that fits in u64 (`3`, not `3.0` or `3e0`, as
    /// serde_json reads integers).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(text) => text.parse().ok(),
            _ => None,
        }
    }

    /// What the value is, for messages: "a string", "an object", …
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }
}

/// Parses a whole JSON text (one value, surrounded by whitespace only).
pub fn parse(text: &str) -> Result<Json, JsonError> {
    let mut p = Parser { text, bytes: text.as_bytes(), pos: 0 };
    let value = p.value(0)?;
    p.skip_ws();
    if p.pos < p.bytes.len() {
        return Err(p.error("trailing characters"));
    }
    Ok(value)
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    /// An error at the current byte (or the last byte at the end of the text), positioned
    /// as serde_json positions the byte it peeked at.
    fn error(&self, message: &'static str) -> JsonError {
        let end = (self.pos + 1).min(self.bytes.len());
        let before = &self.bytes[..end];
        let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let line = 1 + before[..line_start].iter().filter(|&&b| b == b'\n').count();
        JsonError { message, line, column: end - line_start }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.skip_ws();
        match self.peek() {
            None => Err(self.error("EOF while parsing a value")),
            Some(b'{') => self.object(depth + 1),
            Some(b'[') => self.array(depth + 1),
            Some(b'"') => Ok(Json::String(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected value")),
        }
    }

    fn literal(&mut self, word: &str, value: Json) -> Result<Json, JsonError> {
        for &b in word.as_bytes() {
            match self.peek() {
                Some(c) if c == b => self.pos += 1,
                None => return Err(self.error("EOF while parsing a value")),
                Some(_) => return Err(self.error("expected ident")),
            }
        }
        Ok(value)
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    /// `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`, finite as an f64.
    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        if self.peek() == Some(b'0') {
            self.pos += 1;
            if matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error("invalid number"));
            }
        } else if self.digits() == 0 {
            return Err(self.missing_digits());
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.missing_digits());
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.missing_digits());
            }
        }
        let text = &self.text[start..self.pos];
        if !text.parse::<f64>().is_ok_and(f64::is_finite) {
            // At the number's last digit, where serde_json reports it.
            self.pos -= 1;
            return Err(self.error("number out of range"));
        }
        Ok(Json::Number(text.to_string()))
    }

    /// A number that stops where a digit must follow.
    fn missing_digits(&self) -> JsonError {
        self.error(if self.peek().is_none() { "EOF while parsing a value" } else { "invalid number" })
    }

    /// A string starting at the opening quote; escapes decoded.
    fn string(&mut self) -> Result<String, JsonError> {
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.error("EOF while parsing a string")),
                Some(b'"') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    let c = match self.peek() {
                        None => return Err(self.error("EOF while parsing a string")),
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => self.unicode_escape()?,
                        Some(_) => return Err(self.error("invalid escape")),
                    };
                    out.push(c);
                    self.pos += 1;
                    run = self.pos;
                }
                Some(0..=0x1f) => return Err(self.error("control character (\\u0000-\\u001F) found while parsing a string")),
                Some(_) => self.pos += 1,
            }
        }
    }

    /// Four hex digits after `\u` (the `u` is the current byte), then a low surrogate's if
    /// the first is a high surrogate. Leaves `pos` on the last hex digit.
    fn unicode_escape(&mut self) -> Result<char, JsonError> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF if self.bytes.get(self.pos + 1..self.pos + 3) == Some(b"\\u") => {
                self.pos += 2;
                let low = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&low) {
                    return Err(self.error("lone leading surrogate in hex escape"));
                }
                0x10000 + ((first - 0xD800) << 10) + (low - 0xDC00)
            }
            other => other,
        };
        // A lone surrogate is no character.
        char::from_u32(code).ok_or_else(|| self.error("lone leading surrogate in hex escape"))
    }

    /// The four hex digits after the current byte; leaves `pos` on the last one.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let Some(digits) = self.bytes.get(self.pos + 1..self.pos + 5) else {
            self.pos = self.bytes.len();
            return Err(self.error("EOF while parsing a string"));
        };
        self.pos += 4;
        digits.iter().try_fold(0, |v, &b| Ok(v * 16 + (b as char).to_digit(16).ok_or_else(|| self.error("invalid escape"))?))
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.pos += 1;
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek().is_none() {
            return Err(self.error("EOF while parsing a list"));
        }
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            items.push(self.value(depth)?);
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        return Err(self.error("trailing comma"));
                    }
                }
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                None => return Err(self.error("EOF while parsing a list")),
                Some(_) => return Err(self.error("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("recursion limit exceeded"));
        }
        self.pos += 1;
        let mut members = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b'"') => {}
                None => return Err(self.error("EOF while parsing an object")),
                Some(b'}') => return Err(self.error("trailing comma")),
                Some(_) => return Err(self.error("key must be a string")),
            }
            let key = self.string()?;
            self.skip_ws();
            match self.peek() {
                Some(b':') => self.pos += 1,
                None => return Err(self.error("EOF while parsing an object")),
                Some(_) => return Err(self.error("expected `:`")),
            }
            let value = self.value(depth)?;
            members.push((key, value));
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                None => return Err(self.error("EOF while parsing an object")),
                Some(_) => return Err(self.error("expected `,` or `}`")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Json {
        Json::Number(s.into())
    }

    #[test]
    fn values_of_every_kind() {
        let v = parse(" {\"a\": [1, -2.5e3, true, false, null], \"b\": {\"c\": \"x\\n\\u00e9\\ud83d\\ude00\\/\"}, \"a\": 0}\n").unwrap();
        assert_eq!(v.get("b").and_then(|b| b.get("c")).and_then(Json::as_str), Some("x\né😀/"));
        assert_eq!(v.get("a"), Some(&num("0")), "a repeated key reads as its last value");
        let Json::Object(members) = &v else { panic!("an object") };
        assert_eq!(members[0].1, Json::Array(vec![num("1"), num("-2.5e3"), Json::Bool(true), Json::Bool(false), Json::Null]));
        assert_eq!(members[0].1.at(1).and_then(Json::as_f64), Some(-2500.0));
        assert_eq!(parse("[]"), Ok(Json::Array(vec![])));
        assert_eq!(parse("{}"), Ok(Json::Object(vec![])));
        assert_eq!(parse("\"ü\""), Ok(Json::String("ü".into())));
    }

    #[test]
    fn integers_are_exact_and_floats_are_not_integers() {
        assert_eq!(parse("18446744073709551615").unwrap().as_u64(), Some(u64::MAX));
        assert_eq!(parse("3.0").unwrap().as_u64(), None);
        assert_eq!(parse("-1").unwrap().as_u64(), None);
        assert_eq!(parse("3").unwrap().as_f64(), Some(3.0));
        assert_eq!(parse("0.1").unwrap().as_f64(), Some(0.1));
    }

    #[test]
    fn errors_say_what_and_where_as_serde_json_does() {
        assert_eq!(parse("{\n\"ID\",\"x\"}").unwrap_err(), JsonError { message: "expected `:`", line: 2, column: 5 });
        // Every kind of syntax error, message and position compared with serde_json's own.
        let cases = [
            "{", "[", "[1", "[1,", "[1 2]", "{\"a\":1 \"b\":2}", "[1,]", "{\"a\":1,}", "{1:2}", "{\"a\"", "{\"a\":",
            "{\"a\":1", "[01]", "[1e999]", "[-1e400]", "[-]", "-", "[1.]", "1e", "[1.5e]", "tru", "nul1", "fals",
            "\"a\u{1}\"", "\"\\q\"", "\"\\udc00\"", "\"\\u12\"", "\"\\u12x4\"", "\"abc", "1 2", "", "x",
            "\u{feff}{}", "  \n  x", "{\"a\" 1}", "[true false]",
        ];
        for c in cases {
            let theirs = serde_json::from_str::<serde_json::Value>(c).map(|_| ()).map_err(|e| e.to_string());
            assert_eq!(parse(c).map(|_| ()).map_err(|e| e.to_string()), theirs, "{c:?}");
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(parse(&ok).is_ok());
        let deep = "[".repeat(100_000);
        assert_eq!(parse(&deep).unwrap_err().message, "recursion limit exceeded");
        let deep_objects = "{\"a\":".repeat(MAX_DEPTH + 1);
        assert_eq!(parse(&deep_objects).unwrap_err().message, "recursion limit exceeded");
        for text in ["[".repeat(MAX_DEPTH + 1), deep_objects] {
            let theirs = serde_json::from_str::<serde_json::Value>(&text).map_err(|e| e.to_string());
            assert_eq!(parse(&text).map_err(|e| e.to_string()).err(), theirs.err());
        }
    }

    #[test]
    fn agrees_with_serde_json_on_what_is_valid() {
        let cases = ["{\"k\": [1, 2.5, -0, 1E+2, 1e-2, \"\\t\", \"\\ud83d\\ude00\"]}", "{\"a\":{\"b\":[{}]}}", "[\"\u{7f}\"]", "\"\\ud800x\""];
        for c in cases {
            assert_eq!(parse(c).is_ok(), serde_json::from_str::<serde_json::Value>(c).is_ok(), "{c:?}");
        }
    }
}
