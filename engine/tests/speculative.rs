//! Chunks read ahead of their turn on the guess that they start at a record
//! (`import::speculate`, the CLI's parallel path: `DatasetBuilder::chunk_parser`,
//! `push_parsed`) give the dataset `load_dataset` gives: on every real sample, on generated
//! raw pages with CRLF, a BOM, commas and newlines inside quoted kernel names, and where the
//! guess is wrong (a chunk starting on a line inside a quoted name), which must be read again
//! in order, with errors and their line numbers unchanged.

#[path = "../benches/support/big_ncu.rs"]
mod big_ncu;

use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::import::speculate::ParsedChunk;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{read, SAMPLES};
const RAW: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";

/// How the chunks of one run went.
#[derive(Debug, Default)]
struct Tally {
    taken: usize,
    read_again: usize,
}

/// The file cut as the CLI's reader cuts it: each chunk ends after its last LF within
/// `chunk_bytes` (a window without one is a chunk whole).
fn line_chunks(bytes: &[u8], chunk_bytes: usize) -> Vec<&[u8]> {
    let mut chunks = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let window = &rest[..chunk_bytes.min(rest.len())];
        let n = if window.len() < rest.len() { window.iter().rposition(|&b| b == b'\n').map_or(window.len(), |i| i + 1) } else { window.len() };
        chunks.push(&rest[..n]);
        rest = &rest[n..];
    }
    chunks
}

/// The file pushed in `chunks`: on this thread until the builder offers a chunk parser, then
/// every later chunk read first, all of them, by `readers` parsers in turn (as far ahead as
/// speculation can go), and pushed in order with `push_parsed`.
fn speculated(file: &SourceFile, chunks: &[&[u8]], readers: usize) -> (Result<Dataset, String>, Tally) {
    let mut tally = Tally::default();
    let mut b = DatasetBuilder::new();
    let run = |b: &mut DatasetBuilder, tally: &mut Tally| -> Result<(), String> {
        b.push_chunk(&file.name, &[]).map_err(|e| e.to_string())?;
        let mut i = 0;
        let parser = loop {
            let Some(chunk) = chunks.get(i) else { return Ok(()) };
            b.push_chunk(&file.name, chunk).map_err(|e| e.to_string())?;
            i += 1;
            if let Some(p) = b.chunk_parser() {
                break p;
            }
        };
        let mut parsers = vec![parser; readers.max(1)];
        let n = parsers.len();
        let readings: Vec<ParsedChunk> = chunks[i..].iter().enumerate().map(|(k, c)| parsers[k % n].parse(c)).collect();
        for (chunk, mut parsed) in chunks[i..].iter().zip(readings) {
            match b.push_parsed(&file.name, chunk, &mut parsed).map_err(|e| e.to_string())? {
                true => tally.taken += 1,
                false => tally.read_again += 1,
            }
        }
        b.end_file().map_err(|e| e.to_string())
    };
    let result = run(&mut b, &mut tally).and_then(|()| b.finish().map_err(|e| e.to_string()));
    (result, tally)
}

fn in_memory(file: &SourceFile) -> Result<Dataset, String> {
    load_dataset(std::slice::from_ref(file)).map_err(|e| e.to_string())
}

/// Checks `file` in line chunks of each size; returns the tallies added up.
fn assert_same(file: &SourceFile, chunk_sizes: &[usize]) -> Tally {
    let want = in_memory(file);
    let mut all = Tally::default();
    for &size in chunk_sizes {
        for readers in [1, 2] {
            let (got, tally) = speculated(file, &line_chunks(&file.bytes, size), readers);
            assert!(got == want, "{}: chunks of {size} bytes, {readers} readers, differ from the whole file:\n{got:?}\nvs\n{want:?}", file.name);
            all.taken += tally.taken;
            all.read_again += tally.read_again;
        }
    }
    all
}

fn raw_sample() -> String {
    String::from_utf8(read(&format!("{SAMPLES}/{RAW}")).bytes).unwrap_or_default()
}

fn big_page(name: &str, text: String) -> SourceFile {
    SourceFile { name: name.into(), bytes: text.into_bytes() }
}

#[test]
fn every_sample_reads_the_same_speculated() {
    let paths = samples::all_paths();
    assert!(paths.len() > 20, "samples not found in {SAMPLES}");
    let mut taken = 0;
    for p in &paths {
        taken += assert_same(&read(p), &[97, 4096]).taken;
    }
    assert!(taken > 0, "no sample was read ahead");
}

#[test]
fn generated_raw_pages_read_the_same_speculated() {
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 1_500_000)).unwrap_or_default();
    let crlf = big.replace('\n', "\r\n");
    let bom = format!("\u{feff}{big}");
    // Kernel names with commas and newlines inside their quotes: a record spans two lines,
    // so some chunks start on a line inside a record. In every launch of a kernel: chunks
    // ending at the last line end lock onto the names' newlines (the CLI's reader cuts
    // before a quote for that reason) and are all read again; in a few: most are taken.
    let name = "void flash_fwd_splitkv_kernel<";
    let quoted_all = big.replace(name, "void flash_fwd_splitkv_kernel,\n<");
    let quoted_few = big.replacen(name, "void flash_fwd_splitkv_kernel,\n<", 40);
    for (name, text) in [("big.csv", big), ("crlf.csv", crlf), ("bom.csv", bom), ("quoted_all.csv", quoted_all), ("quoted_few.csv", quoted_few)] {
        let f = big_page(name, text);
        let tally = assert_same(&f, &[997, 7_001, 65_536, 70_001]);
        assert!(tally.taken > 10 || name == "quoted_all.csv", "{name}: {tally:?}");
    }
}

/// Rows whose kernel name holds a line that tokenizes as a profiler message when read from
/// its own start: `…<\n==PROF== note…`. A chunk starting there is read without an error and
/// to its end, so only the check that the file's reader stopped exactly there rejects it.
#[test]
fn a_chunk_starting_inside_a_quoted_name_is_read_again() {
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 300_000)).unwrap_or_default();
    let text = big.replacen("void flash_fwd_splitkv_kernel<", "void flash_fwd_splitkv_kernel<\n==PROF== note <", 30);
    let f = big_page("inside.csv", text);
    let want = in_memory(&f);
    // The renamed launches are a kernel of their own.
    assert_eq!(want.as_ref().map(|ds| ds.kernels.len()), Ok(3));
    // Cut right after a newline inside a kernel name, a few rows in, and at line ends
    // elsewhere: the chunk after that cut starts inside a record.
    let bytes = f.bytes.as_slice();
    let inner = memchr_all(bytes, b"<\n==PROF==");
    let cut = inner[inner.len() / 2] + 2;
    let mut chunks = line_chunks(&bytes[..cut], 40_000);
    let after = line_chunks(&bytes[cut..], 40_000);
    let first_after = after[0];
    chunks.extend(after);
    assert_eq!(chunks.concat(), bytes);

    // The guess looks right from inside the chunk: read whole, no error.
    let mut b = DatasetBuilder::new();
    b.push_chunk("inside.csv", chunks[0]).unwrap_or_else(|e| panic!("{e}"));
    let mut parser = b.chunk_parser().unwrap_or_else(|| panic!("no chunk parser after the header"));
    let reading = parser.parse(first_after);
    assert!(reading.covers(first_after.len()) && reading.launch_count() > 0, "the reading should look complete");

    for readers in [1, 2] {
        let (got, tally) = speculated(&f, &chunks, readers);
        assert!(got == want, "{readers} readers:\n{got:?}\nvs\n{want:?}");
        assert!(tally.read_again >= 1 && tally.taken >= 1, "{tally:?}");
    }
}

#[test]
fn a_wrong_guess_that_fails_to_read_is_read_again() {
    // From its own start, the line inside the name reads as a row whose ID is not a number.
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 300_000)).unwrap_or_default();
    let text = big.replacen("void flash_fwd_splitkv_kernel<", "void flash_fwd_splitkv_kernel<\nnot an id,<", 20);
    let f = big_page("fails.csv", text);
    let tally = assert_same(&f, &[3_001, 7_001, 20_000, 21_011]);
    assert!(tally.read_again > 0 && tally.taken > 0, "{tally:?}");
}

#[test]
fn errors_and_cut_files_are_the_same_speculated() {
    let big = String::from_utf8(big_ncu::big_ncu(&raw_sample(), 300_000)).unwrap_or_default();
    // A launch deep in the file with an unreadable ID: the same error, on the same line.
    let at = big.find("\n\"70\",").unwrap_or_else(|| panic!("no launch 70"));
    let mut bad = big.clone();
    bad.replace_range(at + 2..at + 4, "xx");
    let bad = big_page("bad.csv", bad);
    let want = in_memory(&bad);
    assert!(want.as_ref().is_err_and(|e| e.contains("line ")), "{want:?}");
    for size in [997, 65536] {
        assert_eq!(speculated(&bad, &line_chunks(&bad.bytes, size), 2).0, want, "chunks of {size}");
    }
    // Invalid UTF-8 deep in the file.
    let mut latin1 = big.clone().into_bytes();
    let at = latin1.len() * 3 / 4;
    latin1.splice(at..at, [0xE9]);
    let latin1 = SourceFile { name: "l.csv".into(), bytes: latin1 };
    let want = in_memory(&latin1);
    assert!(want.is_err());
    assert_eq!(speculated(&latin1, &line_chunks(&latin1.bytes, 4096), 2).0, want);
    // Cut inside a row (a quoted name): the same "cut short" warning.
    let cut = big.len() * 2 / 3;
    let cut = big_page("cut.csv", big[..(0..=cut).rev().find(|&i| big.is_char_boundary(i)).unwrap_or(0)].to_string());
    assert_same(&cut, &[997, 4096]);
}

/// Where `needle` starts in `hay`, every time.
fn memchr_all(hay: &[u8], needle: &[u8]) -> Vec<usize> {
    hay.windows(needle.len()).enumerate().filter(|(_, w)| *w == needle).map(|(i, _)| i).collect()
}



