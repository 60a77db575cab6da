//! The catalogue of bad inputs (docs/FUZZING.md has the table): each input and the exact
//! message a user gets, never a panic. Regressions for what fuzzing found are at the end,
//! each with its minimised input inline. Real samples are read in place from `shared/samples/`.

use roofline_engine::chart::{self, svg, ChartInput, Mode};
use roofline_engine::domain::counters::Counter;
use roofline_engine::limits::{check_size, check_size_within, MAX_FILE_BYTES, MAX_IN_MEMORY_FILE_BYTES};
use roofline_engine::model::catalogue;
use roofline_engine::{load_dataset, Dataset, ImportError, SourceFile};
use std::time::{Duration, Instant};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples");

fn file(name: &str, bytes: impl Into<Vec<u8>>) -> SourceFile {
    SourceFile { name: name.into(), bytes: bytes.into() }
}

fn sample(rel: &str) -> Vec<u8> {
    let path = format!("{SAMPLES}/{rel}");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn err(f: SourceFile) -> ImportError {
    match load_dataset(&[f]) {
        Ok(ds) => panic!("expected an error, loaded {} kernels", ds.kernels.len()),
        Err(e) => e,
    }
}

fn load(f: SourceFile) -> Dataset {
    load_dataset(&[f]).unwrap_or_else(|e| panic!("{e}"))
}

/// `(file, line, message)` of an error, the part the catalogue pins.
fn what(e: &ImportError) -> (&str, Option<usize>, &str) {
    (e.file.as_str(), e.line, e.message.as_str())
}

#[test]
fn empty_file() {
    let e = err(file("empty.csv", ""));
    assert_eq!(what(&e), ("empty.csv", None, "the file is empty; expected a profiler's CSV or text output"));
    let e = err(file("blank.csv", "\n  \r\n\t\n"));
    assert_eq!(e.message, "the file is empty; expected a profiler's CSV or text output");
}

#[test]
fn binary_file() {
    // A PNG: invalid UTF-8 in its first bytes.
    let e = err(file("chart.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec()));
    assert_eq!(what(&e), ("chart.png", Some(1), "the file is not text (invalid UTF-8); expected a profiler's CSV or text output"));
    // An SQLite database's header, cut at 24 bytes: read as a rocprofv3 database (rocpd) by
    // its first 16 bytes, and named as cut short, not as text that is not UTF-8.
    let e = err(file("profile.nvvp", b"SQLite format 3\0\x10\0\x01\x01\0@  ".to_vec()));
    assert_eq!(what(&e), ("profile.nvvp", None, "a rocprofv3 database (SQLite) cut short: 24 bytes, less than its 100-byte header"));
    // Invalid UTF-8 after two good lines: the line is named.
    let e = err(file("mixed.csv", b"kernel,time_s\nk,1\n\xC3\x28,2\n".to_vec()));
    assert_eq!(what(&e), ("mixed.csv", Some(3), "the file is not text (invalid UTF-8); expected a profiler's CSV or text output"));
}

#[test]
fn utf16_file() {
    let utf16 = |bom: [u8; 2], big_endian: bool| {
        let mut b = bom.to_vec();
        for u in "kernel,time_s\nk,1\n".encode_utf16() {
            b.extend(if big_endian { u.to_be_bytes() } else { u.to_le_bytes() });
        }
        b
    };
    let message = "the file is UTF-16 text; save it as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`)";
    assert_eq!(what(&err(file("le.csv", utf16([0xFF, 0xFE], false)))), ("le.csv", None, message));
    assert_eq!(what(&err(file("be.csv", utf16([0xFE, 0xFF], true)))), ("be.csv", None, message));
}

/// The first `cut` bytes of a real sample, moved back to the middle of a row.
fn cut_mid_row(bytes: &[u8], cut: usize) -> (Vec<u8>, usize) {
    let mut end = cut;
    while bytes.get(end.saturating_sub(1)) == Some(&b'\n') || bytes.get(end) == Some(&b'\n') {
        end -= 1;
    }
    let head = bytes.get(..end).unwrap_or(bytes).to_vec();
    let line = 1 + head.iter().filter(|&&b| b == b'\n').count();
    (head, line)
}

#[test]
fn truncated_file() {
    let message = "the file ends in the middle of a row (was it cut short?); the rows before it were read";
    // Nsight Compute details page, cut inside a kernel name (an open quote).
    let ncu = sample("ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.dram__bytes.sum");
    let (head, line) = cut_mid_row(&ncu, 20_000);
    let ds = load(file("cut.csv", head));
    assert!(!ds.kernels.is_empty(), "the rows before the cut load");
    let w = ds.warnings.first().expect("a warning");
    assert_eq!(what(w), ("cut.csv", Some(line), message));
    // nvprof metrics, cut after a few cells (quotes balanced, fewer cells than the row before).
    let nvprof = sample("nvprof/magus__apps_rodinia30_lavaMD_metrics.csv");
    let (head, line) = cut_mid_row(&nvprof, 5_000);
    let ds = load(file("cut.csv", head));
    // (Other warnings may say what the cut left out, e.g. DRAM transactions.)
    assert_eq!(ds.warnings.iter().find(|w| w.message == message).map(what), Some(("cut.csv", Some(line), message)));
    // The whole files load without that warning.
    for whole in [ncu, nvprof] {
        assert!(load(file("whole.csv", whole)).warnings.iter().all(|w| w.message != message));
    }
}

#[test]
fn european_excel_csv() {
    let decimals = "the file uses ';' separators and ',' decimals (Excel export?): save as CSV with ',' separators and '.' decimals";
    let e = err(file("euro.csv", "kernel;time_s;flops_fp64;bytes_dram\nstencil;0,5;2,0e10;8,0e9\n"));
    assert_eq!(what(&e), ("euro.csv", None, decimals));
    assert_eq!(e.hint.as_deref(), Some("in Excel or LibreOffice, save as \"CSV (comma delimited)\" with '.' as the decimal separator"));
    let ncu = "\"ID\";\"Process ID\";\"Process Name\";\"Host Name\";\"Kernel Name\";\"Context\";\"Stream\";\"Section Name\";\"Metric Name\";\"Metric Unit\";\"Metric Value\"\n\
               \"0\";\"1\";\"a\";\"h\";\"k\";\"1\";\"7\";\"s\";\"gpu__time_duration.sum\";\"usecond\";\"12,5\"\n";
    assert_eq!(err(file("ncu.csv", ncu)).message, decimals);
    let e = err(file("semi.csv", "kernel;time_s\nstencil;1\n"));
    assert_eq!(e.message, "the file uses ';' separators (Excel export?): save as CSV with ',' separators");
}

#[test]
fn duplicate_columns() {
    let e = err(file("dup.csv", "kernel,time_s,bytes_dram,time_s\nk,1,2,3\n"));
    assert_eq!(what(&e), ("dup.csv", Some(1), "column \"time_s\" appears twice (columns 2 and 4)"));
}

#[test]
fn nan_inf_negative_and_zero_times() {
    let body = "kernel,time_s,flops_fp64,bytes_dram\n\
                nan_k,NaN,1e9,1e9\n\
                inf_k,inf,1e9,1e9\n\
                neg_k,-1,1e9,1e9\n\
                zero_k,0,1e9,1e9\n\
                ok,1e-3,1e9,1e9\n";
    let ds = load(file("times.csv", body));
    assert_eq!(ds.kernels.len(), 5, "every kernel stays in the table");
    let w = ds.warnings.first().expect("a warning");
    assert_eq!(
        what(w),
        (
            "times.csv",
            None,
            "4 kernels have no usable time (zero, negative, NaN or infinite): nan_k (NaN), inf_k (infinite), neg_k (-1 s), zero_k (0 s); listed without time and left out of the charts"
        )
    );
    for k in &ds.kernels[..4] {
        assert_eq!(k.time_s(), None, "{}", k.name);
        assert_eq!(k.counters.get(Counter::Fp64Flops), Some(1e9), "other counters stay");
    }
    // Derived times: cycles over a zero or infinite clock.
    let ds = load(file("clock.csv", "kernel,cycles,clock_hz,flops_fp64\nslow,100,inf,1\ncycles_nan,nan,1e9,1\n"));
    assert_eq!(ds.warnings.first().map(|w| w.message.as_str()), Some("2 kernels have no usable time (zero, negative, NaN or infinite): slow (0 s), cycles_nan (NaN); listed without time and left out of the charts"));
    // No dot for them in any chart, and nothing at infinity.
    let ds = load(file("times.csv", body));
    let machine = catalogue::v100();
    for mode in Mode::ALL {
        let scene = chart::build(&ChartInput::new(&ds.kernels, &machine, 800.0, 500.0).with_mode(mode));
        assert!(scene.hits.iter().all(|h| h.kernel == 4 && h.cx.is_finite() && h.cy.is_finite()), "{mode:?}: {:?}", scene.hits);
        let text = svg::render(&scene);
        assert!(!text.contains("NaN") && !text.contains("inf"), "{mode:?}");
    }
    // Text a number parser refuses stays an error naming the cell.
    let e = err(file("bad.csv", "kernel,time_s\nk,fast\n"));
    assert_eq!(what(&e), ("bad.csv", Some(2), "expected a number in column \"time_s\", found \"fast\""));
}

#[test]
fn huge_launch_counts_are_refused() {
    let e = err(file("many.csv", "kernel,launches,time_s\nk,1e19,1\n"));
    assert_eq!(what(&e), ("many.csv", Some(2), "\"launches\" must be a whole number from 1 to 10^12, found \"1e19\""));
}

#[test]
fn ten_thousand_columns() {
    // rocprof with 10,000 per-channel counter columns (summed) and 20 dispatches.
    let mut text = String::from("Index,KernelName,gpu-id,DurationNs");
    for i in 0..10_000 {
        text.push_str(&format!(",TCC_HIT[{i}]"));
    }
    text.push('\n');
    for row in 0..20 {
        text.push_str(&format!("{row},\"k(int)\",0,1000"));
        text.push_str(&",1".repeat(10_000));
        text.push('\n');
    }
    let t0 = Instant::now();
    let ds = load(file("wide.csv", text));
    assert_eq!(ds.kernels.len(), 1);
    assert_eq!(ds.kernels[0].launches, 20);
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    // A tidy row with 10,000 cells under a 3-column header: the extra cells are ignored.
    let ds = load(file("long-row.csv", format!("kernel,time_s,flops\nk,1,2{}\n", ",9".repeat(10_000))));
    assert_eq!(ds.kernels[0].counters.get(Counter::OtherFlops), Some(2.0));
    // A tidy header with 10,000 columns: the first unknown one is named.
    let e = err(file("wide-tidy.csv", format!("kernel{}\nk\n", (0..10_000).map(|i| format!(",c{i}")).collect::<String>())));
    assert_eq!(what(&e), ("wide-tidy.csv", Some(1), "unknown tidy CSV column \"c0\""));
}

/// One-line files of `len` bytes: no format, a tidy header with one huge column name, an
/// Nsight Compute header with a huge last cell, and a tidy row holding one huge number.
fn one_line_files(len: usize) -> Vec<SourceFile> {
    let padded = |start: &str, fill: u8| {
        let mut b = start.as_bytes().to_vec();
        b.resize(len, fill);
        file("one-line.csv", b)
    };
    vec![
        padded("\"ID\",\"Process ID\",\"x", b'a'),
        padded("kernel,time_s,", b'x'),
        padded("\"ID\",\"Process ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"", b'b'),
        padded("kernel,time_s\nk,1", b'0'),
    ]
}

/// Loads each of [`one_line_files`]: the errors, and the time all of them took.
fn load_one_line_files(len: usize) -> (Vec<String>, Duration) {
    let files = one_line_files(len);
    let t0 = Instant::now();
    let results = files
        .iter()
        .map(|f| match load_dataset(std::slice::from_ref(f)) {
            Ok(ds) => format!("loaded {} kernel(s); {}", ds.kernels.len(), ds.warnings.first().map_or("", |w| w.message.as_str())),
            Err(e) => format!("{:?}: {}", e.line, e.message),
        })
        .collect();
    (results, t0.elapsed())
}

#[test]
fn one_line_files_get_their_messages() {
    let (results, _) = load_one_line_files(1_000_000);
    assert_eq!(
        results,
        [
            "None: not a recognised profiler output (expected Nsight Compute, nvprof, rocprof, Intel Advisor, ERT or tidy CSV)",
            "Some(1): unknown tidy CSV column \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\"",
            "Some(1): the Nsight Compute table has a header but no kernel rows",
            // A million-digit time is infinite: the kernel loads without a time.
            "loaded 1 kernel(s); 1 kernel has no usable time (zero, negative, NaN or infinite): k (infinite); listed without time and left out of the charts",
        ]
    );
    // No timing is asserted here (speed is measured by benchmarks, docs/PERFORMANCE.md); the
    // 100 MB case below would not finish in CI's time if reading one line were quadratic.
}

/// The catalogue's 100 MB one-line files, generated here: the same answers as at 1 MB, in
/// 0.3–9 s each in a debug build (about 17 s in all), a few times less in release.
#[test]
fn one_line_100_mb_files() {
    let (results, _) = load_one_line_files(100_000_000);
    let (expected, _) = load_one_line_files(1_000);
    assert_eq!(results, expected);
}

#[test]
fn files_over_the_size_limit_are_refused_before_reading() {
    assert_eq!(check_size("big.csv", MAX_FILE_BYTES), Ok(()));
    let e = check_size("big.csv", 3 << 30).unwrap_err();
    assert_eq!(what(&e), ("big.csv", None, "the file is too large: 3222 MB, limit 2147 MB"));
    assert!(e.hint.as_deref().is_some_and(|h| h.contains("--launch-count")));
    let e = check_size_within("big.csv", 600_000_000, MAX_IN_MEMORY_FILE_BYTES).unwrap_err();
    assert_eq!(e.message, "the file is too large: 600 MB, limit 536 MB");
}

// ---- Regressions found by fuzzing (docs/FUZZING.md), minimised inputs inline. ----

/// Found by reading the importers for `as u64` while the fuzzers ran (the `load_dataset`
/// target reaches it too): launch counts near `u64::MAX` overflowed when summed (a panic in
/// debug builds, a wrapped count in release). Counts now saturate.
#[test]
fn regression_launch_count_overflow() {
    let summary = "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n,%,ms,,ms,ms,ms,\n\
                   \"GPU activities\",50,1,1e19,1,1,1,\"k\"\n\"GPU activities\",50,1,1e19,1,1,1,\"k\"\n";
    let ds = load(file("summary.csv", summary));
    assert_eq!(ds.kernels[0].launches, u64::MAX);
    // The same across files (two runs: overlapping counters add launches).
    let one = "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n,%,ms,,ms,ms,ms,\n\"GPU activities\",50,1,1e19,1,1,1,\"k\"\n";
    let ds = load_dataset(&[file("a.csv", one), file("b.csv", one)]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ds.kernels[0].launches, u64::MAX);
}

/// Found by reading `names::demangle` while the `names` target ran: a length prefix near
/// `usize::MAX` overflowed `digits + len` (a panic in debug builds). Now checked.
#[test]
fn regression_demangle_length_overflow() {
    use roofline_engine::domain::names::{clean, demangle};
    assert_eq!(demangle("_Z18446744073709551615a"), None);
    assert_eq!(demangle("_ZN3foo18446744073709551614aE"), None);
    assert_eq!(clean("_Z18446744073709551615a"), "_Z18446744073709551615a");
    let ds = load(file("t.csv", "kernel,time_s\n_Z18446744073709551615a,1\n"));
    assert_eq!(ds.kernels[0].name, "_Z18446744073709551615a");
}

/// Found by the `load_dataset` fuzz target (crash-a5c0251e…, 4 kB, minimised by hand): a file
/// starting with `{` that holds an Nsight Compute header and, further on, the
/// `"roofline_view"` marker. Read whole it is a (broken) `.roofline.json`; pushed in chunks,
/// the builder decided from the header alone that it was an Nsight Compute page. Both paths
/// must read a file the same way: a file starting with `{` is now always read whole.
#[test]
fn regression_json_with_an_ncu_header_reads_the_same_in_chunks() {
    use roofline_engine::dataset::DatasetBuilder;
    let text = "{\n\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\
                \"0\",\"1\",\"a\",\"h\",\"k\",\"1\",\"7\",\"s\",\"dram__bytes.sum\",\"byte\",\"12\"\n\
                \"roofline_view\"\n";
    let whole = load_dataset(&[file("f0.csv", text)]);
    let e = whole.as_ref().expect_err("a broken view file");
    assert_eq!(what(e), ("f0.csv", Some(2), "invalid JSON in a Roofline Explorer view file: expected `:` at line 2 column 5"));
    for chunk in [1, 7, 64, text.len()] {
        let mut b = DatasetBuilder::new();
        let pushed = text.as_bytes().chunks(chunk).try_for_each(|c| b.push_chunk("f0.csv", c));
        assert_eq!(pushed.and_then(|()| b.finish()), whole, "chunks of {chunk}");
    }
}
