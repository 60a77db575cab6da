//! The CSV reader's fast path for records of quoted fields as the site's builds run it: on
//! wasm32 with SIMD, where it finds quotes and line ends sixteen bytes at a time
//! (`engine/src/import/records.rs`, `stops16`). The engine's own tests run natively, on the
//! portable path; this one runs the SIMD path in a browser, with fields of every length from 0
//! to 40 bytes, so that they start and end at every offset of a sixteen-byte mask. What it can
//! catch is a wrong field: the fast path reads each stop's byte again before it trusts it, so a
//! fault in the mask that only makes it give a record up to `csv-core` changes no field, and
//! shows as a slower load (`tests/bench/load-ab.mjs`), not here.

use roofline_engine::import::records::{Fields, Reader};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Every record of `text`, as the reader gives it: its line and its fields.
fn rows(text: &str) -> Vec<(usize, Vec<String>)> {
    let (mut reader, mut fields, mut out) = (Reader::new(text), Fields::default(), Vec::new());
    while let Some(line) = reader.next_fields(&mut fields) {
        out.push((line, fields.iter().map(str::to_string).collect()));
    }
    out
}

#[wasm_bindgen_test]
fn quoted_records_read_the_same_at_every_offset() {
    // Records of 1 to 9 quoted fields, 0 to 40 letters each, LF or CRLF ended; a small
    // linear congruential generator makes them the same on every run.
    let mut state: u32 = 12_345;
    let mut next = |below: u32| {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (state >> 16) % below
    };
    let (mut text, mut want) = (String::new(), Vec::new());
    for line in 1..=400 {
        let fields: Vec<String> = (0..1 + next(9)).map(|_| (0..next(41)).map(|k| char::from(b'a' + (k % 26) as u8)).collect()).collect();
        let quoted: Vec<String> = fields.iter().map(|f| format!("\"{f}\"")).collect();
        text.push_str(&quoted.join(","));
        text.push_str(if next(2) == 0 { "\n" } else { "\r\n" });
        want.push((line, fields));
    }
    assert_eq!(rows(&text), want);
}

#[wasm_bindgen_test]
fn records_the_fast_path_leaves_read_whole() {
    // Each within a run of quoted records longer than a mask: a doubled quote, a quoted line
    // end (the record spans lines 2 and 3), an unquoted field, a trailing comma.
    let text = "\"abcdefghijklmnop\",\"1\"\n\"say \"\"hi\"\"\",\"a\nb\",\"x\"\n\"q\",7,\"r\"\n\"s\",\"t\",\n\"u\",\"v\"\n";
    let row = |line: usize, f: &[&str]| (line, f.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(
        rows(text),
        vec![row(1, &["abcdefghijklmnop", "1"]), row(2, &["say \"hi\"", "a\nb", "x"]), row(4, &["q", "7", "r"]), row(5, &["s", "t", ""]), row(6, &["u", "v"])]
    );
}
