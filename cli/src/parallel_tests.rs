//! The parallel path gives the dataset the sequential one gives (`load_dataset`, whole files
//! in memory), and so the same `roofline analyze --json` text, byte for byte: on every real
//! sample, on generated raw pages with a BOM, CRLF, and quoted kernel names holding newlines
//! and commas where chunks are cut, and where a guess is wrong.

use super::{read_file, Tally};
use crate::big_ncu;
use crate::samples::{self, read, SAMPLES};
use roofline_engine::choice::{choose, ClockChoice};
use roofline_engine::dataset::DatasetBuilder;
use roofline_engine::report::analyze_choice;
use roofline_engine::{load_dataset, Dataset, SourceFile};

const RAW: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";

/// `file` read by [`read_file`] in chunks of `chunk_bytes` with `workers` threads.
fn parallel(file: &SourceFile, chunk_bytes: usize, workers: usize) -> (Result<Dataset, String>, Tally) {
    let mut b = DatasetBuilder::new();
    let tally = match read_file(file.bytes.as_slice(), &file.name, &mut b, chunk_bytes, workers) {
        Ok(t) => t,
        Err(crate::read_ahead::Stop::Chunk(e)) => return (Err(e.to_string()), Tally::default()),
        Err(crate::read_ahead::Stop::Read(e)) => panic!("{}: {e}", file.name),
    };
    let ds = b.end_file().and_then(|()| b.finish()).map_err(|e| e.to_string());
    (ds, tally)
}

fn in_memory(file: &SourceFile) -> Result<Dataset, String> {
    load_dataset(std::slice::from_ref(file)).map_err(|e| e.to_string())
}

/// What `roofline analyze --json` prints for `ds` (the default machine and clock), or the
/// error it reports; `None` where the choice fails (a usage error, the same either way).
fn analyze_json(ds: &Result<Dataset, String>) -> Option<Result<String, String>> {
    let Ok(ds) = ds else { return ds.clone().err().map(Err) };
    let picked = choose(ds, None, ClockChoice::Measured).ok()?;
    crate::json(&analyze_choice(ds, picked.as_ref())).ok().map(Ok)
}

/// Checks `file` in chunks of each size with 2 and 3 workers: the same dataset, and the same
/// `analyze --json` text; the tallies added up.
fn assert_same(file: &SourceFile, chunk_sizes: &[usize]) -> Tally {
    let want = in_memory(file);
    let want_json = analyze_json(&want);
    let mut all = Tally::default();
    for &size in chunk_sizes {
        for workers in [2, 3] {
            let (got, t) = parallel(file, size, workers);
            assert!(got == want, "{}: chunks of {size}, {workers} workers: {t:?}; differs from the whole file", file.name);
            assert!(analyze_json(&got) == want_json, "{}: chunks of {size}, {workers} workers: another analyze JSON", file.name);
            all.here += t.here;
            all.taken += t.taken;
            all.read_again += t.read_again;
        }
    }
    all
}

fn raw_page(bytes: u64) -> String {
    let sample = String::from_utf8(read(&format!("{SAMPLES}/{RAW}")).bytes).unwrap_or_default();
    String::from_utf8(big_ncu::big_ncu(&sample, bytes)).unwrap_or_default()
}

fn page(name: &str, text: String) -> SourceFile {
    SourceFile { name: name.into(), bytes: text.into_bytes() }
}

#[test]
fn every_sample_reads_the_same_in_parallel() {
    let paths = samples::all_paths();
    assert!(paths.len() > 20, "samples not found in {SAMPLES}");
    let mut taken = 0;
    for p in &paths {
        taken += assert_same(&read(p), &[4096, 1 << 20]).taken;
    }
    assert!(taken > 0, "no sample was read in parallel");
}

#[test]
fn a_large_page_reads_the_same_in_parallel() {
    let big = page("big.csv", raw_page(3_000_000));
    let t = assert_same(&big, &[65_536, 1 << 20]);
    assert!(t.taken > 50 && t.read_again == 0, "{t:?}");
    // One worker: no parallel reading, all here.
    let (got, t) = parallel(&big, 65_536, 1);
    assert_eq!((got == in_memory(&big), t.taken + t.read_again), (true, 0), "{t:?}");
}

#[test]
fn quoted_newlines_and_commas_at_the_cuts_read_the_same() {
    let big = raw_page(400_000);
    let name = "void flash_fwd_splitkv_kernel<";
    // Every launch of a kernel, and a few: a record of two lines, a comma before the newline.
    let all = page("all.csv", big.replace(name, "void flash_fwd_splitkv_kernel,\n<"));
    let few = page("few.csv", big.replacen(name, "void flash_fwd_splitkv_kernel,\n<", 25));
    // CRLF line ends, and one inside the name.
    let crlf = page("crlf.csv", big.replace('\n', "\r\n").replacen(name, "void flash_fwd_splitkv_kernel\r\n,<", 25));
    // A byte-order mark before the preamble (stripped by the first chunk's reading, here).
    let bom = page("bom.csv", format!("\u{feff}{}", big.replacen(name, "void flash_fwd_splitkv_kernel,\n<", 25)));
    // Chunks of about one row (≈ 3 KB): many hold no record start at all; of two to four
    // rows: cuts land everywhere in a row, and each window holds a record start.
    let small: Vec<usize> = (0..6).map(|i| 2_900 + i * 517).collect();
    let large: Vec<usize> = (0..8).map(|i| 7_000 + i * 917).collect();
    for f in [all, few, crlf, bom] {
        assert_same(&f, &small);
        let t = assert_same(&f, &large);
        // The reader cuts before a quote, never after the newline inside a name.
        assert!(t.taken > 100 && t.read_again == 0, "{}: {t:?}", f.name);
    }
}

#[test]
fn a_wrong_guess_is_read_again_in_order() {
    let big = raw_page(400_000);
    // A newline inside a name followed by a (doubled) quote: the reader may cut there, and
    // the line after it reads, from its own start, as a profiler message: whole, no error.
    // Only the check that the reading before stopped exactly there rejects it.
    let tricky = page("tricky.csv", big.replacen("void flash_fwd_splitkv_kernel<", "void flash_fwd_splitkv_kernel<\n\"\"==PROF== note <", 30));
    // And one whose line reads as a row with a bad ID: the reading fails.
    let failing = page("failing.csv", big.replacen("void flash_fwd_splitkv_kernel<", "void flash_fwd_splitkv_kernel<\n\"\"x\"\",<", 30));
    let sizes: Vec<usize> = (0..12).map(|i| 2_900 + i * 917).collect();
    for f in [tricky, failing] {
        assert!(in_memory(&f).is_ok(), "{}", f.name);
        let t = assert_same(&f, &sizes);
        assert!(t.read_again > 0 && t.taken > 0, "{}: {t:?}", f.name);
    }
}

#[test]
fn errors_are_the_same_in_parallel() {
    let big = raw_page(400_000);
    let at = big.find("\n\"90\",").unwrap_or_else(|| panic!("no launch 90"));
    let mut bad = big.clone();
    bad.replace_range(at + 2..at + 4, "xx");
    let bad = page("bad.csv", bad);
    let want = in_memory(&bad);
    // The error names the line the bad row starts on: the line ends before it, plus one.
    let line = big[..=at].matches('\n').count() + 1;
    assert!(want.as_ref().is_err_and(|e| e.starts_with(&format!("bad.csv, line {line}: expected a launch number"))), "line {line}: {want:?}");
    for size in [4_096, 65_536] {
        assert_eq!(parallel(&bad, size, 2).0, want, "chunks of {size}");
    }
    // A file cut inside a row: the same "cut short" warning.
    let mut cut = big.len() * 2 / 3;
    while !big.is_char_boundary(cut) {
        cut -= 1;
    }
    let cut = page("cut.csv", big[..cut].to_string());
    assert_same(&cut, &[4_096, 65_536]);
}
