//! Guidance with one roof per data type (issue 13): matrix work is judged against its own
//! type's roof, vector work against its precision's, several pipes add up, and what a machine
//! has no ceiling for is named. Every expected value is computed by hand in the comments.

use roofline_engine::domain::{Counter, DataType, KernelProfile};
use roofline_engine::model::catalogue;
use roofline_engine::model::guidance::{guide, summary, BoundKind};
use roofline_engine::model::{Ceiling, ComputeKind, Level, Machine, MemoryLevel};

fn kernel(pairs: &[(Counter, f64)]) -> KernelProfile {
    KernelProfile::from_counters("k", pairs)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1e-30)
}

#[test]
fn fp64_matrix_work_is_judged_against_the_fp64_matrix_roof() {
    // 4.785e12 FP64 matrix FLOPs in 0.1 s = 47.85 TFLOP/s: 50% of the MI250X's 95.7 TFLOP/s
    // FP64 matrix peak (not 47.85 / 383 = 12.5% of its FP16 one).
    let k = kernel(&[(Counter::MatrixFp64, 4.785e12), (Counter::TimeS, 0.1)]);
    let g = guide(&k, &catalogue::mi250x()).expect("guidance");
    assert_eq!(g.binding.name, "FP64 matrix compute");
    assert_eq!((g.binding.kind, g.binding.data_type), (BoundKind::Compute, Some(DataType::Fp64)));
    assert!(close(g.attained_fraction, 0.5), "{}", g.attained_fraction);
    // On an MI300X at 60% of its 163.4 TFLOP/s: 0.6 × 163.4e12 × 0.1 s = 9.804e12 FLOPs
    // (the "runs at 60% of its FP64 matrix peak", not "7.5% of roof, 13× faster").
    // HBM bytes collected too (1 MB: far below the compute bound), so both sides are measured.
    let k = kernel(&[(Counter::MatrixFp64, 9.804e12), (Counter::TimeS, 0.1), (Counter::DramBytes, 1e6)]);
    let g = guide(&k, &catalogue::mi300x()).expect("guidance");
    assert!(close(g.attained_fraction, 0.6), "{}", g.attained_fraction);
    assert!(close(g.headroom.expect("headroom"), 1.0 / 0.6));
    assert!(summary(&k, Some(&g), None).starts_with("bound by FP64 matrix compute at 60% of its roof"));
}

#[test]
fn bf16_matrix_work_against_the_bf16_roofs() {
    // 1.915e13 BF16 FLOPs in 0.1 s = 191.5 TFLOP/s: 191.5 / 383 = 50% on the MI250X,
    // 191.5 / 1307.4 = 14.647% on the MI300X.
    let k = kernel(&[(Counter::MatrixBf16, 1.915e13), (Counter::TimeS, 0.1)]);
    let on = |m: Machine| guide(&k, &m).map(|g| (g.binding.name.clone(), g.attained_fraction));
    let (name, f) = on(catalogue::mi250x()).expect("MI250X");
    assert_eq!(name, "BF16 matrix compute");
    assert!(close(f, 0.5), "{f}");
    let (_, f) = on(catalogue::mi300x()).expect("MI300X");
    assert!(close(f, 191.5 / 1307.4), "{f}");
}

#[test]
fn fp8_work_faster_than_the_fp16_roof_is_not_above_its_own() {
    // 1.5e15 FP8 FLOP/s on an H100 SXM at 1830 MHz, the clock NVIDIA rates its matrix peaks
    // at (the catalogue states them at the 1980 MHz boost): above the 989.4 TFLOP/s FP16 roof,
    // but 1500 / 1978.9 = 75.80% of the FP8 one; neither flagged nor judged against FP16.
    let k = kernel(&[(Counter::MatrixFp8, 1.5e15), (Counter::TimeS, 1.0)]);
    let m = catalogue::h100().at_clock(1830e6);
    assert!((m.matrix_ceiling(DataType::Fp16).map_or(0.0, |c| c.flops_per_s) - 989.4e12).abs() < 0.1e12);
    let peak = m.matrix_ceiling(DataType::Fp8).map(|c| c.flops_per_s).expect("an FP8 roof");
    let g = guide(&k, &m).expect("guidance");
    assert_eq!(g.binding.name, "FP8 matrix compute");
    assert!(!g.above_roof);
    assert!(close(g.attained_fraction, 1.5e15 / peak));
    assert!((g.attained_fraction - 0.758).abs() < 0.001, "{}", g.attained_fraction);
}

/// A machine of round numbers: FP32 10 TFLOP/s, FP16 matrix 100 TFLOP/s, L1 10 TB/s, DRAM
/// 1 TB/s, no L2 ceiling, no FP8 matrix ceiling, and the vendor left open.
fn round_machine() -> Machine {
    Machine {
        id: "round".into(),
        compute: vec![Ceiling::vector("FP32", ComputeKind::Fp32, 10e12), Ceiling::vector("FP64", ComputeKind::Fp64, 5e12), Ceiling::vector("FP16", ComputeKind::Fp16, 20e12), Ceiling::matrix(DataType::Fp16, 100e12)],
        memory: vec![MemoryLevel { name: "L1".into(), level: Level::L1, bytes_per_s: 10e12 }, MemoryLevel { name: "DRAM".into(), level: Level::Dram, bytes_per_s: 1e12 }],
        ..Machine::default()
    }
}

#[test]
fn pipes_add_up_and_the_longest_names_the_bound() {
    // FP32: 1e10 FLOPs / 10e12 = 1 ms; FP16 matrix: 5e10 / 100e12 = 0.5 ms; together 1.5 ms.
    // Measured 3 ms: 50% of the summed roof.
    let k = kernel(&[(Counter::Fp32Fma, 0.5e10), (Counter::MatrixFp16, 5e10), (Counter::TimeS, 3e-3)]);
    let g = guide(&k, &round_machine()).expect("guidance");
    assert_eq!(g.binding.name, "FP32 + FP16 matrix compute");
    assert!(close(g.roof_time_s, 1.5e-3), "{}", g.roof_time_s);
    assert!(close(g.attained_fraction, 0.5));
    assert_eq!(g.binding.data_type, Some(DataType::Fp32), "the longest pipe's");
    let names: Vec<&str> = g.bounds.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["FP32 + FP16 matrix compute", "FP32 compute", "FP16 matrix compute"]);
}

#[test]
fn l1_and_shared_are_one_resource_where_they_share_the_array() {
    // L1 4e9 bytes + shared 6e9 bytes = 1e10 bytes / 10 TB/s = 1 ms (separately each would
    // be 0.4 and 0.6 ms); the machine's vendor is unknown and it lists no shared level of its
    // own, so they are one array. Measured 2 ms: 50%.
    let k = kernel(&[(Counter::L1Bytes, 4e9), (Counter::SharedBytes, 6e9), (Counter::TimeS, 2e-3)]);
    let g = guide(&k, &round_machine()).expect("guidance");
    assert_eq!(g.binding.name, "L1 (with shared memory) bandwidth");
    assert!(close(g.roof_time_s, 1e-3));
    assert!(close(g.attained_fraction, 0.5));
    // AMD's LDS is its own resource: on an MI210 (vL1D 9226.7 GB/s, LDS 17717.8 GB/s measured)
    // the same bytes give two bounds, the larger 4e9 / 9226.7e9 = 0.43352 ms (vL1D).
    let g = guide(&k, &catalogue::mi210()).expect("guidance");
    let memory: Vec<&str> = g.bounds.iter().filter(|b| b.kind == BoundKind::Memory).map(|b| b.name.as_str()).collect();
    assert_eq!(memory, ["vL1D bandwidth", "LDS bandwidth"]);
    assert!(close(g.roof_time_s, 4e9 / 9226.7266e9), "{}", g.roof_time_s);
}

#[test]
fn work_without_a_ceiling_is_named_not_ignored() {
    // DRAM 1e9 bytes / 1 TB/s = 1 ms binds; the L2 bytes and FP8 FLOPs have no ceiling here.
    let k = kernel(&[(Counter::DramBytes, 1e9), (Counter::L2Bytes, 5e9), (Counter::MatrixFp8, 1e9), (Counter::TimeS, 4e-3)]);
    let g = guide(&k, &round_machine()).expect("guidance");
    assert_eq!(g.binding.name, "DRAM bandwidth");
    assert_eq!(g.not_assessed, ["FP8 matrix not assessed: no FP8 matrix ceiling for this machine", "L2 not assessed: no L2 ceiling for this machine"]);
    let s = summary(&k, Some(&g), None);
    assert_eq!(
        s,
        "bound by DRAM bandwidth at 25% of its roof; FP8 matrix not assessed: no FP8 matrix ceiling for this machine; L2 not assessed: no L2 ceiling for this machine; could run 4.0x faster at this intensity"
    );
}

#[test]
fn flops_of_unknown_precision_are_not_bounded_by_the_fp16_roof() {
    // 1e10 FLOPs of unknown precision: judged at the faster of FP32 (10 TFLOP/s) and FP64
    // (5 TFLOP/s) = 1 ms, not at FP16's 20 TFLOP/s (0.5 ms).
    let k = kernel(&[(Counter::OtherFlops, 1e10), (Counter::TimeS, 2e-3)]);
    let g = guide(&k, &round_machine()).expect("guidance");
    assert_eq!(g.binding.name, "FP32 (FLOPs of unknown precision) compute");
    assert!(close(g.roof_time_s, 1e-3));
}

#[test]
fn volta_tensor_instructions_are_fp16_matrix_work() {
    // NERSC recipe: 1e9 HMMA × 512 FLOPs = 5.12e11 FLOPs / 125 TFLOP/s = 4.096 ms on a V100.
    let k = kernel(&[(Counter::TensorInst, 1e9), (Counter::TimeS, 8.192e-3)]);
    let g = guide(&k, &catalogue::v100()).expect("guidance");
    assert_eq!(g.binding.name, "FP16 matrix compute");
    assert!(close(g.attained_fraction, 0.5));
}
