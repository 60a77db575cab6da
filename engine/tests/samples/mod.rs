//! The shared profiler samples, read in place from `../shared/samples/` beside the
//! repository (never copied into it): paths and loading helpers the test files share.

#![allow(dead_code)] // each test file uses part of it

use roofline_engine::SourceFile;

/// Relative agreement to 1e-9 (the tolerance of values written to nine digits by hand).
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-30)
}

/// `assert!(close(a, b))` naming the expression; test files that use it declare
/// `#[macro_use] mod samples;` and `use samples::close;`.
#[allow(unused_macros)]
macro_rules! assert_close {
    ($a:expr, $b:expr) => {{
        let (a, b): (f64, f64) = ($a, $b);
        assert!(close(a, b), "{} = {a}, expected {b}", stringify!($a));
    }};
}

pub const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples");

/// A file as the user would give it: its bytes, named by its last path component.
pub fn read(path: &str) -> SourceFile {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    SourceFile { name: path.rsplit('/').next().unwrap_or(path).to_string(), bytes }
}

/// A sample by its path under `shared/samples/` (e.g. `ncu/…csv`).
pub fn sample(rel: &str) -> SourceFile {
    read(&format!("{SAMPLES}/{rel}"))
}

/// Every sample file's path, sorted, format folder by format folder.
pub fn all_paths() -> Vec<String> {
    let mut out = Vec::new();
    for sub in ["ncu", "ncu-rep", "nvprof", "rocprof", "advisor", "advisor-html", "ert"] {
        let dir = format!("{SAMPLES}/{sub}");
        let mut paths: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path().to_string_lossy().into_owned()))
            .collect();
        paths.sort();
        out.extend(paths);
    }
    out
}

/// The metrics of the NERSC hierarchical-roofline run, one Nsight Compute file each.
pub const NERSC_METRICS: [&str; 5] = [
    "dram__bytes.sum",
    "sm__cycles_elapsed.avg",
    "sm__cycles_elapsed.avg.per_second",
    "sm__inst_executed_pipe_tensor.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
];

/// The five one-metric-per-file files of that run (shared/samples/ncu/DeepLearningProfiling__*),
/// each named by its metric.
pub fn nersc_run() -> Vec<SourceFile> {
    NERSC_METRICS
        .iter()
        .map(|m| {
            let path = format!("{SAMPLES}/ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.{m}");
            SourceFile { name: (*m).into(), ..read(&path) }
        })
        .collect()
}
