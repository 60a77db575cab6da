//! The CSV reader's fast path for records of quoted fields as the site's builds run it: on
//! wasm32 with SIMD, where it finds quotes and line ends sixteen bytes at a time
//! (`engine/src/import/records.rs`, `stops16`). The engine's own tests run natively, on the
//! portable path; this one runs the SIMD path in a browser, with fields of every length from 0
//! to 40 bytes, so that they start and end at every offset of a sixteen-byte mask. What it can
//! catch is a wrong field: the fast path reads each stop's byte again before it trusts it, so a
//! fault in the mask that only makes it give a record up to `csv-core` changes no field, and
//! shows as a slower load (`tests/bench/load-ab.mjs`), not here.
//!
//! The same holds for the reader of wanted fields (`records/wanted.rs`, sixty-four bytes a
//! block): its SIMD masks decide alone whether a record is simple, so wide records with and
//! without what makes one not simple are read with some fields wanted and compared, field by
//! field, with the reader that finds them all.

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

/// [`rows`] with the fields `cols` wanted.
fn rows_wanting(text: &str, cols: &[usize]) -> Vec<(usize, Vec<String>)> {
    let (mut reader, mut fields, mut out) = (Reader::new(text), Fields::default(), Vec::new());
    fields.want(cols.iter().copied());
    while let Some(line) = reader.next_fields(&mut fields) {
        out.push((line, fields.iter().map(str::to_string).collect()));
    }
    out
}

/// A small linear congruential generator from `seed`: `next(below)` is in `0..below`, the same
/// numbers on every run.
fn numbers(seed: u32) -> impl FnMut(u32) -> u32 {
    let mut state = seed;
    move |below| {
        state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (state >> 16) % below
    }
}

#[wasm_bindgen_test]
fn wanted_fields_of_wide_records_read_as_all_fields_do() {
    // 300 records of 20 to 80 quoted fields, 0 to 12 bytes each (commas and multi-byte text
    // inside), LF or CRLF ended; one record in ten has, at a random field, what makes it not
    // simple: a doubled quote, a line end inside quotes, an unquoted field, text after a
    // closing quote or a lone CR; or a tab, simple but below 14, the mask's line-end test.
    let mut next = numbers(54_321);
    let odd = ["\"a\"\"b\"", "\"a\nb\"", "7", "\"a\"b", "\"a\"\rb", "\"a\tb\""];
    let mut text = String::new();
    for _ in 0..300 {
        let n = 20 + next(61);
        let spoilt = (next(10) == 0).then(|| (next(n), odd[next(odd.len() as u32) as usize]));
        let fields: Vec<String> = (0..n)
            .map(|i| match spoilt {
                Some((at, bad)) if at == i => bad.to_string(),
                _ => format!("\"{}\"", (0..next(13)).map(|k| ["a", ",", "é", "z"][(k + next(4)) as usize % 4]).collect::<String>()),
            })
            .collect();
        text.push_str(&fields.join(","));
        text.push_str(if next(2) == 0 { "\n" } else { "\r\n" });
    }
    let all = rows(&text);
    assert_eq!(all.len(), 300 + text.matches("\"a\"\rb").count(), "300 records, and a lone CR ends one");
    for cols in [vec![0], vec![0, 3, 17, 40, 79], vec![1, 2, 5, 8, 13, 21, 34, 55], (0..80).collect()] {
        assert_eq!(rows_wanting(&text, &cols), all, "{cols:?}");
    }
}

#[wasm_bindgen_test]
fn quoted_records_read_the_same_at_every_offset() {
    // Records of 1 to 9 quoted fields, 0 to 40 letters each, LF or CRLF ended, the same on
    // every run.
    let mut next = numbers(12_345);
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
