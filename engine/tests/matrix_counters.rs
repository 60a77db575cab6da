//! Matrix work per data type read from AMD profilers (rocprof v1 on an MI250X, rocprofv3 on
//! an MI300X: `SQ_INSTS_VALU_MFMA_MOPS_*` × 512), and Intel Advisor's roof sets (all-core and
//! single-threaded machines; typed matrix roofs). Fixtures: engine/tests/fixtures/README.md,
//! which also gives the attained fractions against the MI250X / MI300X matrix peaks.

use roofline_engine::domain::counters::Counter;
use roofline_engine::domain::DataType;
use roofline_engine::model::{ComputeKind, Level};
use roofline_engine::{load_dataset, Dataset, KernelProfile};

mod samples;
use samples::read;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn load(fixture: &str) -> Dataset {
    load_dataset(&[read(&format!("{FIXTURES}/{fixture}"))]).unwrap_or_else(|e| panic!("{e}"))
}

fn kernel<'a>(ds: &'a Dataset, prefix: &str) -> &'a KernelProfile {
    ds.kernels.iter().find(|k| k.name.starts_with(prefix)).unwrap_or_else(|| panic!("no kernel {prefix}"))
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() <= 1e-12 * b.abs())
}

#[test]
fn mi250x_rocprof_v1_mfma_counters_per_type() {
    let ds = load("rocprof-mi250x-mfma.csv");
    assert_eq!(ds.files[0].format, "rocprof-dispatch");
    let f64k = kernel(&ds, "dgemm_mfma_f64(");
    // SQ_INSTS_VALU_MFMA_MOPS_F64 9345703125 × 512 = 4.785e12 FP64 matrix FLOPs; the BF16
    // counter was measured and is 0.
    assert_eq!(f64k.matrix_flops(DataType::Fp64), Some(4.785e12));
    assert_eq!(f64k.matrix_flops(DataType::Bf16), Some(0.0));
    assert_eq!(f64k.matrix_flops(DataType::Fp16), None, "not collected: not zero");
    // EndNs − BeginNs = 100000000 ns.
    assert!(close(f64k.time_s(), 0.1));
    // 4.785e12 / 0.1 s = 47.85 TFLOP/s: 50% of MI250X's 95.7 TFLOP/s FP64 matrix peak.
    let rate = f64k.matrix_flops(DataType::Fp64).unwrap_or(0.0) / f64k.time_s().unwrap_or(1.0);
    assert!((rate / 95.7e12 - 0.5).abs() < 1e-12, "{rate}");
    let bf16 = kernel(&ds, "gemm_mfma_bf16(");
    // 18701171875 × 512 = 9.575e12 BF16 FLOPs in 0.1 s = 95.75 TFLOP/s = 25% of 383.
    assert_eq!(bf16.matrix_flops(DataType::Bf16), Some(9.575e12));
    assert_eq!(bf16.tensor_flops(None), Some(9.575e12));
    assert_eq!(bf16.counters.get(Counter::TensorFlops), None, "typed, not untyped");
    let rate = 9.575e12 / bf16.time_s().unwrap_or(1.0);
    assert!((rate / 383e12 - 0.25).abs() < 1e-12, "{rate}");
    // gpu-id 8.
    assert_eq!(ds.devices.runs[0].device.name.as_deref(), Some("GPU 8"));
}

#[test]
fn mi300x_rocprofv3_mfma_counters_per_type_with_fp8() {
    let ds = load("rocprofv3-mi300x-mfma.csv");
    assert_eq!(ds.files[0].format, "rocprofv3-counters");
    assert_eq!(ds.kernels.len(), 3);
    // 15957031250 × 512 = 8.17e12 FP64; 63837890625 × 512 = 3.2685e13 BF16;
    // 255361328125 × 512 = 1.30745e14 FP8 (integers: exact).
    let expected = [("dgemm_mfma_f64(", DataType::Fp64, 8.17e12, 163.4e12, 0.5), ("gemm_mfma_bf16(", DataType::Bf16, 3.2685e13, 1307.4e12, 0.25), ("gemm_mfma_fp8(", DataType::Fp8, 1.30745e14, 2614.9e12, 0.5)];
    for (name, t, flops, peak, fraction) in expected {
        let k = kernel(&ds, name);
        assert_eq!(k.matrix_flops(t), Some(flops), "{name}");
        assert!(close(k.time_s(), 0.1), "{name}");
        // Attained FLOP/s ÷ MI300X's peak of that type: 81.7 / 163.4, 326.85 / 1307.4, 1307.45 / 2614.9.
        let attained = flops / k.time_s().unwrap_or(1.0) / peak;
        assert!((attained - fraction).abs() < 1e-12, "{name}: {attained}");
        // Only this type's work: the other types' counters read 0.
        assert_eq!(k.typed_matrix_flops(), Some(flops), "{name}");
    }
    assert_eq!(ds.devices.runs[0].device.name.as_deref(), Some("GPU 2"));
}

#[test]
fn advisor_keeps_all_core_and_single_threaded_roofs() {
    let ds = load("advisor-roofs-broadwell.csv");
    let m = ds.machine.as_ref().expect("machine");
    assert_eq!((m.id.as_str(), m.name.as_str()), ("advisor-roofs", "Intel Advisor roofs"));
    // All cores: DRAM Bandwidth 125993278750 B/s first (above the single-node 63206331080),
    // L1 11360856466728, DP Vector FMA Peak 1379752337990, Int32 Vector Add Peak 1494880413924.
    assert_eq!(m.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(125_993_278_750.0));
    assert!(m.memory.iter().any(|l| l.name == "DRAM Bandwidth (single node)" && l.bytes_per_s == 63_206_331_080.0));
    assert_eq!(m.memory_level(Level::L1).map(|l| l.bytes_per_s), Some(11_360_856_466_728.0));
    assert_eq!(m.compute_ceiling(ComputeKind::Fp64).map(|c| c.flops_per_s), Some(1_379_752_337_990.0));
    assert_eq!(m.compute_ceiling(ComputeKind::Int).map(|c| c.flops_per_s), Some(1_494_880_413_924.0));
    assert!(!m.memory.iter().map(|l| &l.name).chain(m.compute.iter().map(|c| &c.name)).any(|n| n.contains("single-threaded")));
    // One thread: the alternative machine, names without the suffix.
    assert_eq!(ds.machine_alternatives.len(), 1);
    let one = &ds.machine_alternatives[0];
    assert_eq!((one.id.as_str(), one.name.as_str()), ("advisor-roofs-1t", "Intel Advisor roofs (single-threaded)"));
    assert_eq!(one.memory_level(Level::Dram).map(|l| (l.name.as_str(), l.bytes_per_s)), Some(("DRAM Bandwidth", 12_715_570_803.0)));
    assert_eq!(one.memory_level(Level::L1).map(|l| (l.name.as_str(), l.bytes_per_s)), Some(("L1 bandwidth", 315_579_346_298.0)));
    assert_eq!(one.compute_ceiling(ComputeKind::Fp64).map(|c| c.flops_per_s), Some(49_563_336_304.0));
    assert_eq!(one.compute_ceiling(ComputeKind::Fp32).map(|c| c.flops_per_s), Some(98_956_234_406.0));
}

#[test]
fn advisor_fixture_single_threaded_roof_is_an_alternative_not_dropped() {
    // advisor-roofs.csv: "L1 Bandwidth (single-threaded)" 153600000000 is its only
    // single-threaded roof: an alternative machine with that one L1 roof.
    let ds = load("advisor-roofs.csv");
    assert_eq!(ds.machine.as_ref().and_then(|m| m.memory_level(Level::L1)).map(|l| l.bytes_per_s), Some(1843.2e9));
    let one = ds.machine_alternatives.first().expect("single-threaded machine");
    assert_eq!(one.memory.len(), 1);
    assert_eq!(one.memory_level(Level::L1).map(|l| (l.name.as_str(), l.bytes_per_s)), Some(("L1 Bandwidth", 153.6e9)));
    assert!(one.compute.is_empty());
}

#[test]
fn real_rocprof_compute_tables_carry_measured_zero_matrix_work() {
    // The Omniperf vcopy runs on an MI200 and an MI300X collected SQ_INSTS_VALU_MFMA_MOPS_{I8,
    // F16,BF16,F32,F64} (all 0 for a copy kernel, python3 over the 3 dispatches); no F8 column
    // (Omniperf 2.0 skips the FP8 counters under rocprof v1/v2).
    for f in ["rocprof/omniperf__tests_workloads_vcopy_MI200_pmc_perf.csv", "rocprof/omniperf__tests_workloads_vcopy_MI300X_A1_pmc_perf.csv"] {
        let ds = load_dataset(&[samples::sample(f)]).unwrap_or_else(|e| panic!("{e}"));
        let k = kernel(&ds, "vecCopy(");
        for t in [DataType::Fp64, DataType::Fp32, DataType::Fp16, DataType::Bf16, DataType::Int8] {
            assert_eq!(k.matrix_flops(t), Some(0.0), "{f}: {t:?} measured, zero");
        }
        assert_eq!(k.matrix_flops(DataType::Fp8), None, "{f}: not collected");
        assert_eq!(k.counters.get(Counter::IntOps), None, "{f}: INT8 matrix ops are not INTOPs");
    }
}
