//! Inputs of the criterion benches: the real samples (read from `shared/samples/`, beside the
//! clone as in CI) and generated large files, all in memory.

use roofline_engine::SourceFile;

pub const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples");
pub const RAW_SAMPLE: &str = "ncu/Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv";
pub const DETAILS_SAMPLE: &str = "ncu/nsightful__tests_copy_blocked.csv";
/// The NERSC one-metric-per-file run (details page, joined by launch id).
pub const NERSC_RUN: &str = "ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.";
pub const NERSC_METRICS: [&str; 5] = [
    "dram__bytes.sum",
    "sm__cycles_elapsed.avg",
    "sm__cycles_elapsed.avg.per_second",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
    "sm__inst_executed_pipe_tensor.sum",
];

/// A sample file; the benches cannot run without them, so a missing one stops with its path.
pub fn sample(rel: &str) -> SourceFile {
    let path = format!("{SAMPLES}/{rel}");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e} (the benches read shared/samples beside the clone)"));
    SourceFile { name: rel.to_string(), bytes }
}

pub fn nersc_run() -> Vec<SourceFile> {
    NERSC_METRICS.iter().map(|m| sample(&format!("{NERSC_RUN}{m}"))).collect()
}

pub fn total_bytes(files: &[SourceFile]) -> u64 {
    files.iter().map(|f| f.bytes.len() as u64).sum()
}
