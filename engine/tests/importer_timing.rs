//! A GPU summary and a GPU trace of one run give each kernel one time (the trace's), not their
//! sum; genuinely different runs still add up (engine/src/dataset/same_run.rs).

use roofline_engine::domain::counters::Counter;
use roofline_engine::{load_dataset, Dataset, SourceFile};

mod samples;
use samples::{read, sample};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const TRACE: &str = "nvprof/magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv";

fn load(files: &[SourceFile]) -> Dataset {
    load_dataset(files).unwrap_or_else(|e| panic!("{e}"))
}

fn summary() -> SourceFile {
    read(&format!("{FIXTURES}/nvprof-interval-gpu-summary.csv"))
}

fn time_s(ds: &Dataset) -> f64 {
    ds.kernels[0].time_s().unwrap_or(0.0)
}

/// Σ Duration of the trace's 100 kernel rows, ms (python3 on the sample).
const TRACE_MS: f64 = 33.522205;

#[test]
fn summary_then_trace_of_one_run_counts_once_with_the_trace_times() {
    let ds = load(&[summary(), sample(TRACE)]);
    assert_eq!(ds.kernels.len(), 1);
    let k = &ds.kernels[0];
    // 100 launches, 33.522205 ms: the trace's per-launch durations, not 2 × 33.522205.
    assert_eq!(k.launches, 100);
    assert!((time_s(&ds) - TRACE_MS * 1e-3).abs() < 1e-15, "{}", time_s(&ds));
    // The per-launch view holds the trace's 100 launches, not the summary's one record of 100.
    assert_eq!(ds.launches.len(), 100);
    assert!(ds.launches.iter().all(|l| l.count == 1));
    // The copies: the trace's two (128 MiB and 0.25 MiB), not also the summary's row of 2.
    assert_eq!(ds.transfers.len(), 2);
    assert_eq!(ds.transfers.iter().filter_map(|t| t.bytes).sum::<f64>(), 128.0 * 1_048_576.0 + 262_144.0);
    // One warning says which file's times are used.
    let w = ds.warnings.iter().find(|w| w.message.contains("GPU summary")).expect("a warning");
    assert!(w.message.contains("time the same 1 kernel(s) with the same launch counts"), "{}", w.message);
    assert!(w.message.contains("the trace's per-launch durations (magus__apps_devid_cudasdk80_traces_traces_cudasdk_interval.csv)"), "{}", w.message);
    // The device ran the trace's kernel time once.
    assert_eq!(ds.devices.runs.len(), 1);
    assert!((ds.devices.runs[0].kernel_time_s - TRACE_MS * 1e-3).abs() < 1e-15);
}

#[test]
fn trace_then_summary_of_one_run_leaves_the_summary_out() {
    let ds = load(&[sample(TRACE), summary()]);
    assert_eq!(ds.files.len(), 2, "both files are listed");
    assert_eq!(ds.kernels[0].launches, 100);
    assert!((time_s(&ds) - TRACE_MS * 1e-3).abs() < 1e-15);
    assert_eq!((ds.launches.len(), ds.transfers.len()), (100, 2));
    assert_eq!(ds.warnings.iter().filter(|w| w.message.contains("GPU summary")).count(), 1);
}

#[test]
fn the_summary_alone_and_two_runs_still_add_up() {
    // The summary alone: 33.522205 ms over 100 calls.
    let ds = load(&[summary()]);
    assert!((time_s(&ds) - TRACE_MS * 1e-3).abs() < 1e-15);
    // The same trace twice (the same counters again): two runs, 200 launches, 67.04441 ms.
    let ds = load(&[sample(TRACE), sample(TRACE)]);
    assert_eq!(ds.kernels[0].launches, 200);
    assert!((time_s(&ds) - 2.0 * TRACE_MS * 1e-3).abs() < 1e-15);
    // A summary of another run: the same kernel and calls, but 34.000000 ms (1.4% more, as the
    // two rocprof `--stats` runs in shared/samples differ): another run, added.
    let text = String::from_utf8(summary().bytes).unwrap_or_default().replace(",33.522205,", ",34.000000,");
    let other = SourceFile { name: "other-run.csv".into(), bytes: text.into_bytes() };
    let ds = load(&[other, sample(TRACE)]);
    assert_eq!(ds.kernels[0].launches, 200);
    assert!((time_s(&ds) - (34.0 + TRACE_MS) * 1e-3).abs() < 1e-15);
    assert!(!ds.warnings.iter().any(|w| w.message.contains("GPU summary")));
}

#[test]
fn metrics_summary_and_trace_of_one_kernel_give_one_time_and_the_metrics() {
    // A metric table of the same kernel (its FLOPs) joins by name; the summary and the trace
    // then give one time between them.
    let metrics = "==1== Metric result:\n\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\",\"Avg\"\n\
                   \"GeForce GTX 1080 Ti (0)\",\"void test_interval_newton<double>(interval_gpu<double>*, int*, interval_gpu<double>, int)\",100,\"flop_count_dp\",\"Floating Point Operations(Double Precision)\",1000,1000,1000\n";
    let m = SourceFile { name: "metrics.csv".into(), bytes: metrics.as_bytes().to_vec() };
    let ds = load(&[m, summary(), sample(TRACE)]);
    let k = &ds.kernels[0];
    // 1000 FLOPs × 100 invocations; 100 launches; 33.522205 ms once.
    assert_eq!(k.counters.get(Counter::Fp64Flops), Some(100_000.0));
    assert_eq!(k.launches, 100);
    assert!((time_s(&ds) - TRACE_MS * 1e-3).abs() < 1e-15);
}
