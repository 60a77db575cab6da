//! What the CLI test files share: the built binary and the NERSC run's five sample files
//! (read in place from shared/samples/, never copied into the repository).

#![allow(dead_code)] // each test file uses part of it

use std::process::{Command, Output};

/// Path prefix of the five one-metric-per-file Nsight Compute runs; append a metric name.
pub const NCU_DL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/samples/ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.");
pub const NCU_METRICS: [&str; 5] = [
    "dram__bytes.sum",
    "sm__cycles_elapsed.avg",
    "sm__cycles_elapsed.avg.per_second",
    "sm__inst_executed_pipe_tensor.sum",
    "sm__sass_thread_inst_executed_op_ffma_pred_on.sum",
];

/// Runs the built `roofline` with `args`.
pub fn roofline(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_roofline")).args(args).output().expect("the roofline binary runs")
}
