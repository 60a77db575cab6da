//! Roofs of the silicon that ran (issue 42): a device's own attributes over a similar name,
//! a GeForce card's two FP16 accumulations, pipes that overlap. Expected values are computed by
//! hand in the comments from the data sheets the catalogue cites.

mod samples;

use roofline_engine::choice::{choose, ClockChoice};
use roofline_engine::domain::{Counter, DataType, KernelProfile};
use roofline_engine::model::guidance::guide;
use roofline_engine::model::{catalogue, identify::identify, Level};
use roofline_engine::{load_dataset, SourceFile};

const H200_PAGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/ncu-hopper/h200/simt-boost.raw.csv");

/// The H200 raw page of tests/fixtures/ncu-hopper with the device attributes an H100 NVL
/// reports in their place: its name, 93 GiB of memory (99,857,989,632 bytes: 94 GB less what
/// the driver keeps) and a 2593 MHz memory clock (3.9 TB/s on 6016 bits). The rest of the page
/// is the real capture.
fn h100_nvl_page() -> SourceFile {
    let text = std::fs::read_to_string(H200_PAGE).expect("the H200 fixture");
    for needle in ["\"NVIDIA H200\"", "\"150,109,880,320\"", "\"3,201,000\""] {
        assert!(text.contains(needle), "{needle} is in the fixture");
    }
    let text = text.replace("\"NVIDIA H200\"", "\"NVIDIA H100 NVL\"").replace("\"150,109,880,320\"", "\"99,857,989,632\"").replace("\"3,201,000\"", "\"2,593,000\"");
    SourceFile { name: "h100-nvl.raw.csv".into(), bytes: text.into_bytes() }
}

#[test]
fn an_h100_nvl_raw_page_is_an_nvl_not_an_h100_pcie() {
    let ds = load_dataset(&[h100_nvl_page()]).expect("loads");
    let d = &ds.main_device().expect("a device").device;
    assert_eq!((d.name.as_deref(), d.sm_count), (Some("NVIDIA H100 NVL"), Some(132)));
    let found = identify(d, ds.measured_sm_clock_hz()).expect("identified");
    assert_eq!(found.machine.id, "h100-nvl");
    // 132 SMs and the NVL's 3.9 TB/s, not the H100 PCIe's 114 SMs and 2.0 TB/s: a kernel at
    // 3 TB/s is at 77% of its DRAM roof, not "above its roof (150%)".
    assert_eq!(found.machine.sm_count, Some(132));
    let dram = found.machine.memory_level(Level::Dram).map_or(0.0, |l| l.bytes_per_s);
    assert!(dram >= 3.5e12 && (dram - 3.9e12).abs() < 1.0, "{dram}");
    let c = choose(&ds, None, ClockChoice::Measured).expect("a clock").expect("a machine");
    assert_eq!(c.machine.sm_count, Some(132));
    assert!(c.machine.memory_level(Level::Dram).is_some_and(|l| l.bytes_per_s >= 3.5e12));
    assert!(c.alternatives.iter().chain(std::iter::once(&c.machine)).any(|m| m.id.starts_with("h100-nvl")), "{}", c.machine.id);
}

fn matrix_kernel(name: &str, t: DataType, flops: f64, time_s: f64) -> KernelProfile {
    KernelProfile::from_counters(name, &[(Counter::TimeS, time_s), (t.matrix_counter(), flops)])
}

/// An RTX 4090's FP16 GEMM accumulating in FP32 at its full 165.2 TFLOP/s is at its roof,
/// not at 50% of the FP16-accumulate 330.3; one accumulating in FP16 at 330 is judged
/// against that rate, not flagged above its roof.
#[test]
fn a_geforce_fp16_gemm_is_judged_at_its_accumulation() {
    let m = catalogue::rtx4090();
    // 165.2e12 FLOP/s × 1 ms = 165.2e9 FLOPs.
    let fp32_acc = matrix_kernel("hgemm_f32acc", DataType::Fp16, 165.2e9, 1e-3);
    let g = guide(&fp32_acc, &m).expect("guidance");
    assert_eq!(g.binding.name, "FP16 matrix compute");
    assert!((g.attained_fraction - 1.0).abs() < 1e-12, "{}", g.attained_fraction);
    // 320e9 FLOPs in 1 ms = 320 TFLOP/s: above 165.2, below 330.3 → 320 / 330.3 = 96.9%.
    let fp16_acc = matrix_kernel("hgemm_f16acc", DataType::Fp16, 320e9, 1e-3);
    let g = guide(&fp16_acc, &m).expect("guidance");
    assert_eq!(g.binding.name, "FP16 matrix (FP16 accumulate) compute");
    assert!((g.attained_fraction - 320.0 / 330.3).abs() < 1e-12 && !g.above_roof, "{}", g.attained_fraction);
    // Above both: flagged against the faster one.
    let impossible = matrix_kernel("too_fast", DataType::Fp16, 400e9, 1e-3);
    assert!(guide(&impossible, &m).is_some_and(|g| g.above_roof && g.binding.name == "FP16 matrix (FP16 accumulate) compute"));
}

/// A V100 kernel whose FP64 and FP32 work would each take 0.6 ms at peak ran in 1 ms: its
/// pipes overlapped, so their 1.2 ms sum is no bound; it is judged by its slower pipe (60%),
/// and the summary says the sum was not assessed instead of blaming the peaks.
#[test]
fn overlapping_pipes_are_not_bound_by_their_sum() {
    let m = catalogue::v100();
    // FP64 80 SMs × 64 × 1.53 GHz = 7.8336 TFLOP/s; FP32 twice that, 15.6672.
    let k = KernelProfile::from_counters("mixed", &[(Counter::TimeS, 1e-3), (Counter::Fp64Flops, 0.6 * 7.8336e9), (Counter::Fp32Flops, 0.6 * 15.6672e9)]);
    let g = guide(&k, &m).expect("guidance");
    assert!(!g.above_roof);
    assert!((g.attained_fraction - 0.6).abs() < 1e-9, "{}", g.attained_fraction);
    assert!(!g.binding.name.contains(" + "), "{}", g.binding.name);
    assert!(g.not_assessed.iter().any(|n| n.ends_with("(the sum of its pipes' times) is not assessed: the kernel ran faster, so its pipes overlapped")), "{:?}", g.not_assessed);
    // Slower than the sum: the sum binds as before (1.2 ms of 2 ms = 60%).
    let slow = KernelProfile::from_counters("mixed", &[(Counter::TimeS, 2e-3), (Counter::Fp64Flops, 0.6 * 7.8336e9), (Counter::Fp32Flops, 0.6 * 15.6672e9)]);
    let g = guide(&slow, &m).expect("guidance");
    assert!(g.binding.name.contains(" + ") && (g.attained_fraction - 0.6).abs() < 1e-9, "{} {}", g.binding.name, g.attained_fraction);
}

/// The cs599k GH200 reports name an "NVIDIA GH200 480GB" whose memory the driver reports
/// below the data sheet's 96 GB: the name's GH200, never the 94 GB H100 NVL that sits nearer
/// that memory size (the memory refinement stays among the entries the name's words name).
#[test]
fn a_gh200_report_stays_a_gh200_beside_the_h100_nvl() {
    for rel in ["ncu-rep/cs599k__profile.ncu-rep", "ncu-rep/cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep"] {
        let ds = load_dataset(&[samples::sample(rel)]).expect("loads");
        let d = &ds.main_device().expect("a device").device;
        assert_eq!(d.name.as_deref(), Some("NVIDIA GH200 480GB"), "{rel}");
        assert_eq!(identify(d, ds.measured_sm_clock_hz()).map(|i| i.machine.id).as_deref(), Some("gh200"), "{rel}");
    }
}
