//! Every error a user can meet when loading files, and the hints that say how to collect
//! what is missing. Real samples are read in place from `shared/samples/`.

use roofline_engine::domain::counters::Counter;
use roofline_engine::dataset::roofline_requirements;
use roofline_engine::{load_dataset, ImportError, SourceFile};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples");

fn sample(rel: &str) -> SourceFile {
    let path = format!("{SAMPLES}/{rel}");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    SourceFile { name: rel.rsplit('/').next().unwrap_or(rel).to_string(), bytes }
}

fn text(name: &str, body: &str) -> SourceFile {
    SourceFile { name: name.into(), bytes: body.as_bytes().to_vec() }
}

fn err(files: &[SourceFile]) -> ImportError {
    match load_dataset(files) {
        Ok(ds) => panic!("expected an error, loaded {} kernels", ds.kernels.len()),
        Err(e) => e,
    }
}

#[test]
fn a_file_that_is_not_a_profile() {
    let e = err(&[text("notes.txt", "hello\nthis is not a profile\n")]);
    assert_eq!(e.file, "notes.txt");
    assert!(e.message.contains("not a recognised profiler output"), "{e}");
    assert!(e.hint.as_deref().is_some_and(|h| h.contains("FORMATS.md")), "{e}");
}

#[test]
fn the_failed_run_log_says_the_application_failed() {
    let e = err(&[sample("ncu/Roofline-Analysis__decodebench_results_ncu_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64.ncu.csv")]);
    assert!(e.message.contains("the profiled application failed"), "{e}");
    assert!(e.message.contains("==ERROR== The application returned an error code (1)."), "{e}");
    assert_eq!(e.line, Some(35), "the ==ERROR== line is the file's last (35th) line");
}

#[test]
fn a_log_with_no_table_and_no_error() {
    let e = err(&[text("log.csv", "==PROF== Connected to process 1 (/usr/bin/python3)\n==PROF== Disconnected from process 1\n")]);
    assert!(e.message.contains("no kernel was profiled"), "{e}");
    assert!(e.hint.as_deref().is_some_and(|h| h.contains("ncu --csv --metrics")), "{e}");
}

#[test]
fn missing_counters_name_the_metrics_and_the_ncu_command() {
    let ds = load_dataset(&[sample(
        "ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.dram__bytes.sum",
    )])
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ds.kernels.len(), 49, "partial data still loads");
    let w = ds.warnings.first().expect("a warning");
    // One short sentence; what was found and the metrics to collect beside it.
    assert_eq!(w.message, "This file has byte counts but no time or FLOP counters");
    let gap = w.gap.as_deref().expect("what was found and what is missing");
    assert_eq!(gap.found, ["DRAM bytes"]);
    assert!(gap.missing.iter().any(|m| m == "sm__cycles_elapsed.avg.per_second"), "{w}");
    assert!(gap.missing.iter().any(|m| m == "sm__sass_thread_inst_executed_op_dfma_pred_on.sum"), "{w}");
    assert!(!gap.missing.iter().any(|m| m == "dram__bytes.sum"), "{w}");
    // The CLI's one line still names them.
    assert!(w.to_string().contains("missing metrics: gpu__time_duration.sum,"), "{w}");
    let hint = w.hint.as_deref().unwrap_or("");
    assert!(hint.starts_with("ncu --csv --metrics gpu__time_duration.sum,sm__cycles_elapsed.avg,"), "{hint}");
    assert!(hint.contains("sm__inst_executed_pipe_tensor.sum"), "{hint}");
    assert!(!hint.contains("dram__bytes.sum"), "bytes are there: {hint}");
    assert_eq!(roofline_requirements(&ds), Err(w.clone()));
}

#[test]
fn missing_time_names_the_nvprof_summary_command() {
    let ds = load_dataset(&[sample("nvprof/magus__apps_devid_parboil_metrics_metrics_parboil_sgemm.csv")]).unwrap_or_else(|e| panic!("{e}"));
    let w = ds.warnings.first().expect("a warning");
    assert_eq!(w.message, "This file has FLOP counts and byte counts but no time counters");
    assert!(w.gap.as_ref().is_some_and(|g| g.found.iter().any(|f| f == "FP32 FLOPs")), "{:?}", w.gap);
    assert_eq!(w.hint.as_deref(), Some("nvprof --csv --print-gpu-summary ./app 2> summary.csv"));
    let ds = load_dataset(&[sample("nvprof/magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv")]).unwrap_or_else(|e| panic!("{e}"));
    let hint = ds.warnings.first().and_then(|w| w.hint.clone()).unwrap_or_default();
    assert!(hint.starts_with("nvprof --csv --metrics flop_count_dp,flop_count_sp,flop_count_hp,dram_read_transactions,"), "{hint}");
}

#[test]
fn time_only_files_list_kernels_by_time() {
    let ds = load_dataset(&[sample("rocprof/HPCTrainingExamples__rocm-blogs-codes_finite-difference_examples_results.stats.csv")])
        .unwrap_or_else(|e| panic!("{e}"));
    let top = roofline_engine::dataset::top_by_time(&ds.kernels, 2);
    assert_eq!(top[0].display_name(), "laplacian_kernel<…>");
    assert_eq!(top[1].display_name(), "test_function_kernel<…>");
    let hint = ds.warnings.first().and_then(|w| w.hint.clone()).unwrap_or_default();
    assert!(hint.starts_with("echo 'pmc: SQ_INSTS_VALU_ADD_F64"), "{hint}");
    assert!(hint.contains("FETCH_SIZE WRITE_SIZE"), "{hint}");
}

#[test]
fn a_bad_launch_id_names_the_line() {
    let body = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\
                \"x\",\"1\",\"a\",\"h\",\"k\",\"1\",\"7\",\"s\",\"dram__bytes.sum\",\"byte\",\"12\"\n";
    let e = err(&[text("bad.csv", body)]);
    assert_eq!(e.line, Some(2));
    assert!(e.message.contains("expected a launch number in column \"ID\""), "{e}");
}

#[test]
fn a_header_without_rows() {
    let body = "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    let e = err(&[text("empty.csv", body)]);
    assert!(e.message.contains("no kernel rows"), "{e}");
}

#[test]
fn tidy_csv_unknown_column_lists_the_valid_ones() {
    let e = err(&[text("mine.csv", "kernel,time_s,bytes_dam\nk,1,2\n")]);
    assert!(e.message.contains("unknown tidy CSV column \"bytes_dam\""), "{e}");
    assert!(e.hint.as_deref().is_some_and(|h| h.contains("bytes_dram")), "{e}");
    let e = err(&[text("mine.csv", "kernel,time_s\nk,fast\n")]);
    assert_eq!(e.line, Some(2));
}

#[test]
fn ncu_details_with_bom_crlf_preamble_and_both_rule_layouts() {
    // A 2024-style file: BOM, CRLF, ==PROF== and application output before the header, rule
    // columns that metric rows omit, thousands separators, and the parts of dram__bytes.sum.
    let body = "\u{feff}==PROF== Connected to process 7 (/usr/bin/app)\r\n\
        step 1 done\r\n\
        ==PROF== Disconnected from process 7\r\n\
        \"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\r\n\
        \"0\",\"7\",\"app\",\"h\",\"void k<float, 2>(float*, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"8.0\",\"Command line profiler metrics\",\"dram__bytes_read.sum\",\"Mbyte\",\"1,000.5\",\r\n\
        \"0\",\"7\",\"app\",\"h\",\"void k<float, 2>(float*, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"8.0\",\"Command line profiler metrics\",\"dram__bytes_write.sum\",\"Kbyte\",\"500\",\r\n\
        \"0\",\"7\",\"app\",\"h\",\"void k<float, 2>(float*, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"8.0\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"usecond\",\"1,234.5\",\r\n\
        \"0\",\"7\",\"app\",\"h\",\"void k<float, 2>(float*, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"8.0\",\"SpeedOfLight\",\"\",\"\",\"\",\"SOLBottleneck\",\"OPT\",\"text\",\"global\",\"12\"\r\n\
        \"0\",\"7\",\"app\",\"h\",\"void k<float, 2>(float*, int)\",\"1\",\"7\",\"(256, 1, 1)\",\"(1024, 1, 1)\",\"0\",\"8.0\",\"Command line profiler metrics\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"2,000\",\r\n\
        ==PROF== Report: done\r\n";
    let ds = load_dataset(&[text("weird.csv", body)]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ds.files[0].format, "ncu-details");
    let k = &ds.kernels[0];
    assert_eq!(k.name, "void k<float, 2>(float*, int)");
    assert_eq!(k.display_name(), "k<…>");
    assert_eq!(k.counters.get(Counter::DramBytes), Some(1_000.5e6 + 500e3));
    assert_eq!(k.counters.get(Counter::Fp32Fma), Some(2_000.0));
    assert!((k.time_s().unwrap_or(0.0) - 1_234.5e-6).abs() < 1e-15);
}

#[test]
fn utf16_files_are_refused_with_the_fix() {
    let e = err(&[SourceFile { name: "u16.csv".into(), bytes: vec![0xFF, 0xFE, b'I', 0, b'D', 0] }]);
    assert!(e.message.contains("UTF-16") && e.message.contains("iconv"), "{e}");
}
