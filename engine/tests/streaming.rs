//! Reading files in chunks (`DatasetBuilder::push_chunk`, the CLI's path for large files and
//! the app's for `Blob.stream()`) gives the dataset `load_dataset` gives with the whole files
//! in memory: on every real sample, for chunk sizes from 1 byte up, and on generated large
//! Nsight Compute raw pages (CRLF, BOM, quoted newlines in kernel names, the launch cap).

#[path = "../benches/support/big_ncu.rs"]
mod big_ncu;

use roofline_engine::dataset::{DatasetBuilder, MAX_KEPT_LAUNCHES};
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{read, SAMPLES};
const RAW: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";
const NERSC_RUN: &str = "ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.";


/// The dataset (or the error, as text) of `files` pushed in chunks of `chunk_bytes`.
fn streamed(files: &[SourceFile], chunk_bytes: usize) -> Result<Dataset, String> {
    let mut b = DatasetBuilder::new();
    for f in files {
        // An empty chunk opens the file, so an empty file is read (and refused) too.
        b.push_chunk(&f.name, &[]).map_err(|e| e.to_string())?;
        for chunk in f.bytes.chunks(chunk_bytes.max(1)) {
            b.push_chunk(&f.name, chunk).map_err(|e| e.to_string())?;
        }
        b.end_file().map_err(|e| e.to_string())?;
    }
    b.finish().map_err(|e| e.to_string())
}

fn in_memory(files: &[SourceFile]) -> Result<Dataset, String> {
    load_dataset(files).map_err(|e| e.to_string())
}

fn assert_same(files: &[SourceFile], chunk_sizes: &[usize]) {
    let want = in_memory(files);
    for &n in chunk_sizes {
        let got = streamed(files, n);
        assert!(got == want, "{}: chunks of {n} bytes differ from the whole file:\n{got:?}\nvs\n{want:?}", files[0].name);
    }
}

fn all_samples() -> Vec<SourceFile> {
    samples::all_paths().iter().map(|p| read(p)).collect()
}

#[test]
fn every_sample_streams_to_the_same_dataset() {
    let samples = all_samples();
    assert!(samples.len() > 20, "samples not found in {SAMPLES}");
    for f in &samples {
        // Byte by byte for the small ones (debug builds are slow at 1-byte pushes).
        let smallest = if f.bytes.len() < 100_000 { 1 } else { 7 };
        assert_same(std::slice::from_ref(f), &[smallest, 4096, usize::MAX]);
    }
}

#[test]
fn files_of_one_run_join_the_same_streamed() {
    let files: Vec<SourceFile> = ["dram__bytes.sum", "sm__cycles_elapsed.avg", "sm__cycles_elapsed.avg.per_second"]
        .iter()
        .map(|m| read(&format!("{SAMPLES}/{NERSC_RUN}{m}")))
        .collect();
    assert_same(&files, &[13, 65536]);
    // Mixed: one file whole, the next in chunks.
    let mut b = DatasetBuilder::new();
    b.add_file(&files[0]).unwrap_or_else(|e| panic!("{e}"));
    for c in files[1].bytes.chunks(1000) {
        b.push_chunk(&files[1].name, c).unwrap_or_else(|e| panic!("{e}"));
    }
    b.add_file(&files[2]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(Ok(b.finish().unwrap_or_else(|e| panic!("{e}"))), in_memory(&files));
}

fn raw_sample() -> String {
    String::from_utf8(read(&format!("{SAMPLES}/{RAW}")).bytes).unwrap_or_default()
}

#[test]
fn generated_raw_pages_stream_to_the_same_dataset() {
    let big = SourceFile { name: "big.csv".into(), bytes: big_ncu::big_ncu(&raw_sample(), 1_500_000) };
    let ds = in_memory(std::slice::from_ref(&big)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ds.files[0].format, "ncu-raw");
    assert!(ds.launches.len() > 400, "{} launches", ds.launches.len());
    assert_same(std::slice::from_ref(&big), &[997, 65536, 1 << 20]);
}

#[test]
fn crlf_bom_and_quoted_newlines_split_anywhere() {
    let sample = raw_sample();
    let crlf = SourceFile { name: "crlf.csv".into(), bytes: sample.replace('\n', "\r\n").into_bytes() };
    let bom = SourceFile { name: "bom.csv".into(), bytes: [b"\xEF\xBB\xBF".as_slice(), sample.as_bytes()].concat() };
    // A kernel name with a newline inside its quotes: the record spans two lines.
    let newline = SourceFile { name: "nl.csv".into(), bytes: sample.replacen("void flash_fwd_splitkv_kernel<", "void flash_fwd_splitkv_kernel\n<", 3).into_bytes() };
    for f in [crlf, bom, newline] {
        assert!(in_memory(std::slice::from_ref(&f)).is_ok(), "{}", f.name);
        assert_same(std::slice::from_ref(&f), &[1, 2, 3, 5, 1000]);
    }
}

#[test]
fn cut_files_warn_the_same_streamed() {
    let sample = raw_sample();
    let details = String::from_utf8(read(&format!("{SAMPLES}/ncu/nsightful__tests_copy_blocked.csv")).bytes).unwrap_or_default();
    // Cut inside a quoted kernel name, after a comma, and inside a number; raw and details pages.
    let mut warned = 0;
    for (text, tag) in [(&sample, "raw"), (&details, "details")] {
        for frac in [0.37, 0.61, 0.93] {
            let mut cut = (text.len() as f64 * frac) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let f = SourceFile { name: format!("cut-{tag}-{frac}.csv"), bytes: text.as_bytes()[..cut].to_vec() };
            let want = in_memory(std::slice::from_ref(&f));
            assert_same(std::slice::from_ref(&f), &[1, 333, 4096]);
            if let Ok(ds) = want {
                warned += ds.warnings.iter().filter(|w| w.message.contains("cut short")).count();
            }
        }
    }
    assert!(warned >= 3, "only {warned} cut files warned");
}

#[test]
fn errors_are_the_same_streamed() {
    let sample = raw_sample();
    let bad_id = SourceFile { name: "bad.csv".into(), bytes: sample.replacen("\"0\",\"234883\"", "\"x\",\"234883\"", 1).into_bytes() };
    let header_only = SourceFile { name: "h.csv".into(), bytes: sample.lines().take(4).collect::<Vec<_>>().join("\n").into_bytes() };
    let utf16 = SourceFile { name: "u.csv".into(), bytes: vec![0xFF, 0xFE, b'a', 0] };
    let latin1 = SourceFile { name: "l.csv".into(), bytes: [sample.as_bytes().get(..200).unwrap_or(&[]), b"\xE9\n"].concat() };
    let empty = SourceFile { name: "e.csv".into(), bytes: Vec::new() };
    for f in [bad_id, header_only, utf16, latin1, empty] {
        let want = in_memory(std::slice::from_ref(&f));
        assert!(want.is_err(), "{}", f.name);
        for n in [1, 64, usize::MAX] {
            assert_eq!(streamed(std::slice::from_ref(&f), n), want, "{} in chunks of {n}", f.name);
        }
    }
}

#[test]
fn per_launch_detail_is_capped_not_the_totals() {
    // Enough launches to pass the cap: the sample's 16 launches repeated.
    let sample = raw_sample();
    let page = big_ncu::split_raw_page(&sample).unwrap_or_else(|e| panic!("{e}"));
    let row_bytes: usize = page.rows.iter().map(|r| r.len() + 1).sum::<usize>() / page.rows.len();
    let big = SourceFile { name: "capped.csv".into(), bytes: big_ncu::big_ncu(&sample, ((MAX_KEPT_LAUNCHES + 100) * row_bytes) as u64) };
    let ds = streamed(std::slice::from_ref(&big), 1 << 20).unwrap_or_else(|e| panic!("{e}"));
    let total: u64 = ds.kernels.iter().map(|k| k.launches).sum();
    assert_eq!(ds.launches.len(), MAX_KEPT_LAUNCHES);
    assert_eq!(ds.launches.len() as u64 + ds.launches_omitted, total);
    assert!(total > MAX_KEPT_LAUNCHES as u64);
}
