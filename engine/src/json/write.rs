//! Writing: serde_json's pretty format (`to_string_pretty`), byte for byte: two-space
//! indentation, `"key": value`, empty containers as `{}`/`[]`, non-finite numbers as `null`,
//! and floats through serde_json's own formatter (zmij: `8000000000.0`, `1.5e-7`, `1e+16`).

use std::fmt::Write as _;

/// Builds one JSON document. Containers are opened and closed explicitly; object members
/// start with [`Writer::key`], array items with [`Writer::item`]. The methods are not
/// inlined: a report writes hundreds of members, and a call per member is the small form.
pub struct Writer {
    out: String,
    depth: usize,
    /// No member or item written yet in the innermost open container.
    first: bool,
}

impl Default for Writer {
    fn default() -> Self {
        Self::new()
    }
}

impl Writer {
    pub fn new() -> Writer {
        Writer { out: String::new(), depth: 0, first: true }
    }

    pub fn finish(self) -> String {
        self.out
    }

    /// A new line at the current depth, after a comma unless this is the first entry.
    fn entry(&mut self) {
        self.out.push_str(if self.first { "\n" } else { ",\n" });
        self.first = false;
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }

    fn open(&mut self, bracket: char) {
        self.out.push(bracket);
        self.depth += 1;
        self.first = true;
    }

    fn close(&mut self, bracket: char) {
        self.depth -= 1;
        if !self.first {
            self.out.push('\n');
            for _ in 0..self.depth {
                self.out.push_str("  ");
            }
        }
        self.out.push(bracket);
        self.first = false;
    }

    #[inline(never)]
    pub fn begin_object(&mut self) {
        self.open('{');
    }

    #[inline(never)]
    pub fn end_object(&mut self) {
        self.close('}');
    }

    #[inline(never)]
    pub fn begin_array(&mut self) {
        self.open('[');
    }

    #[inline(never)]
    pub fn end_array(&mut self) {
        self.close(']');
    }

    /// Starts an object member; its value follows.
    #[inline(never)]
    pub fn key(&mut self, key: &str) {
        self.entry();
        self.string(key);
        self.out.push_str(": ");
    }

    /// Starts an array item; its value follows.
    #[inline(never)]
    pub fn item(&mut self) {
        self.entry();
    }

    #[inline(never)]
    pub fn null(&mut self) {
        self.out.push_str("null");
    }

    #[inline(never)]
    pub fn bool(&mut self, v: bool) {
        self.out.push_str(if v { "true" } else { "false" });
    }

    #[inline(never)]
    pub fn u64(&mut self, v: u64) {
        let _ = write!(self.out, "{v}");
    }

    /// A string, escaped as serde_json escapes: `"` `\` and control characters.
    #[inline(never)]
    pub fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                c if c < ' ' => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    /// A number; `null` when not finite (as serde_json writes NaN and infinities). The digits
    /// come from zmij, serde_json's own float formatter: Rust's `{:e}` picks a different last
    /// digit for some 17-digit values.
    #[inline(never)]
    pub fn f64(&mut self, v: f64) {
        if !v.is_finite() {
            return self.null();
        }
        self.out.push_str(zmij::Buffer::new().format_finite(v));
    }

    #[inline(never)]
    pub fn opt_f64(&mut self, v: Option<f64>) {
        match v {
            Some(v) => self.f64(v),
            None => self.null(),
        }
    }

    #[inline(never)]
    pub fn opt_str(&mut self, v: Option<&str>) {
        match v {
            Some(v) => self.string(v),
            None => self.null(),
        }
    }

    // One call per member, for the writers of the reports.

    #[inline(never)]
    pub fn str_field(&mut self, key: &str, v: &str) {
        self.key(key);
        self.string(v);
    }

    #[inline(never)]
    pub fn f64_field(&mut self, key: &str, v: f64) {
        self.key(key);
        self.f64(v);
    }

    #[inline(never)]
    pub fn opt_f64_field(&mut self, key: &str, v: Option<f64>) {
        self.key(key);
        self.opt_f64(v);
    }

    #[inline(never)]
    pub fn u64_field(&mut self, key: &str, v: u64) {
        self.key(key);
        self.u64(v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(v: f64) -> String {
        let mut w = Writer::new();
        w.f64(v);
        w.finish()
    }

    #[test]
    fn numbers_as_serde_json_writes_them() {
        let cases = [
            0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 1e15, 1e16, 1.5e16, 2f64.powi(60), 1e16 - 2.0, 1e-5, 1.5e-5, 1e-6, 1.2345e-7,
            1e21, 1e22, 5e-324, f64::MAX, f64::MIN_POSITIVE, 2996e9, 8e9, 0.010582, 1e8 / 3.0, 1.38e9, 7833.6e9, 1.0 / 3.0, 100.0, 1234.5,
            f64::NAN, f64::INFINITY, f64::NEG_INFINITY,
        ];
        for v in cases {
            assert_eq!(number(v), serde_json::to_string(&v).unwrap_or_default(), "{v:e}");
        }
        // Every bit pattern class: a deterministic walk over exponents and mantissas.
        let mut bits: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..20_000 {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            let v = f64::from_bits(bits);
            assert_eq!(number(v), serde_json::to_string(&v).unwrap_or_default(), "{v:e}");
        }
    }

    #[test]
    fn containers_and_strings_as_serde_json_writes_them() {
        let mut w = Writer::new();
        w.begin_object();
        w.str_field("name", "a \"b\" \\ \n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f} é ←");
        w.key("empty");
        w.begin_array();
        w.end_array();
        w.key("none");
        w.begin_object();
        w.end_object();
        w.key("list");
        w.begin_array();
        for v in [1.0, 2.5] {
            w.item();
            w.f64(v);
        }
        w.item();
        w.begin_object();
        w.u64_field("n", u64::MAX);
        w.key("b");
        w.bool(true);
        w.key("s");
        w.opt_str(None);
        w.end_object();
        w.end_array();
        w.opt_f64_field("x", None);
        w.end_object();
        #[derive(serde::Serialize)]
        struct Inner {
            n: u64,
            b: bool,
            s: Option<String>,
        }
        #[derive(serde::Serialize)]
        #[serde(untagged)]
        enum Item {
            Number(f64),
            Object(Inner),
        }
        #[derive(serde::Serialize)]
        struct Empty {}
        #[derive(serde::Serialize)]
        struct Doc {
            name: &'static str,
            empty: Vec<f64>,
            none: Empty,
            list: Vec<Item>,
            x: Option<f64>,
        }
        let expected = Doc {
            name: "a \"b\" \\ \n\r\t\u{8}\u{c}\u{1}\u{1f}\u{7f} é ←",
            empty: vec![],
            none: Empty {},
            list: vec![Item::Number(1.0), Item::Number(2.5), Item::Object(Inner { n: u64::MAX, b: true, s: None })],
            x: None,
        };
        assert_eq!(w.finish(), serde_json::to_string_pretty(&expected).unwrap_or_default());
    }
}
