//! AMD Instinct GPUs. ROCm shows each graphics compute die (GCD) as its own device, and a
//! kernel runs on one: profiles of an MI250X kernel belong on [`mi250x_gcd`], not [`mi250x`].
//! AMD's instruction roofline differs from Ding & Williams' (64-wide wavefronts, other
//! transaction sizes), so these machines have no issue model.

use super::{finish, gbps, matrix, set, tflops};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine};
use crate::units::MEGA;

fn t(name: &str, kind: ComputeKind, tf: f64) -> Ceiling {
    tflops(name, kind, tf)
}

/// AMD Instinct MI250X (OAM, both GCDs), at its 1700 MHz peak engine clock.
///
/// AMD MI250X data sheet ("Up to 47.9 TF" FP64/FP32 vector, "95.7 TF" FP64/FP32 matrix,
/// "383.0 TF" FP16/BF16, "383.0 TOPS" INT8, "3.2 TB/sec" HBM2e), 220 CUs: FP64 vector 220 ×
/// 64 lanes × 2 × 1.7 GHz = 47.9 TFLOP/s. HBM2e 8192 bits × 3.2 Gb/s / 8 = 3276.8 GB/s.
/// No-FMA ceilings are half the vector peaks. Link: PCIe 4.0 x16.
pub fn mi250x() -> Machine {
    let clock = 1700.0 * MEGA;
    finish(Machine {
        id: "mi250x".into(),
        vendor: Some(Vendor::Amd),
        arch: Some("gfx90a".into()),
        generation: Some("CDNA 2".into()),
        sm_count: Some(220),
        memory_bytes: Some(1.280000e+11),
        name: "AMD Instinct MI250X, both GCDs (1700 MHz)".into(),
        source: "AMD Instinct MI250X data sheet".into(),
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        theoretical: set("AMD Instinct MI250X data sheet", mi250x_compute(1.0), vec![gbps("HBM2e", Level::Dram, 3276.8)]),
        links: vec![Link::pcie_x16(4)],
        ..Default::default()
    })
}

fn mi250x_compute(share: f64) -> Vec<Ceiling> {
    vec![
        t("FP64", ComputeKind::Fp64, 47.9 * share),
        t("FP64 no-FMA", ComputeKind::Fp64, 47.9 * share / 2.0),
        t("FP32", ComputeKind::Fp32, 47.9 * share),
        t("FP32 no-FMA", ComputeKind::Fp32, 47.9 * share / 2.0),
        matrix(DataType::Fp16, 383.0 * share),
        matrix(DataType::Bf16, 383.0 * share),
        matrix(DataType::Fp32, 95.7 * share),
        matrix(DataType::Fp64, 95.7 * share),
        matrix(DataType::Int8, 383.0 * share),
    ]
}

/// One GCD of an MI250X (what ROCm calls a device and a kernel runs on): half of [`mi250x`]'s
/// data-sheet peaks and HBM (110 CUs, 1638.4 GB/s).
pub fn mi250x_gcd() -> Machine {
    let clock = 1700.0 * MEGA;
    finish(Machine {
        id: "mi250x-gcd".into(),
        vendor: Some(Vendor::Amd),
        arch: Some("gfx90a".into()),
        generation: Some("CDNA 2".into()),
        sm_count: Some(110),
        memory_bytes: Some(6.400000e+10),
        name: "AMD Instinct MI250X, one GCD (1700 MHz)".into(),
        source: "AMD Instinct MI250X data sheet, halved per GCD".into(),
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        theoretical: set("AMD Instinct MI250X data sheet ÷ 2", mi250x_compute(0.5), vec![gbps("HBM2e", Level::Dram, 1638.4)]),
        links: vec![Link::pcie_x16(4)],
        ..Default::default()
    })
}

/// AMD Instinct MI210 at its 1700 MHz peak engine clock: data-sheet and measured values side
/// by side.
///
/// - Theoretical: AMD MI210 data sheet (104 CUs; FP64/FP32 vector 22.6, matrix 45.3, FP16/
///   BF16/INT8 matrix 181.0 TFLOP/s or TOPS; HBM2e 1638.4 GB/s, which rocprof-compute's
///   `sysinfo.csv` also reports as `hbm_bw`).
/// - Empirical: Omniperf 2.0 roofline micro-benchmark on an MI210, device 0, from
///   `ROCm/omniperf` `tests/workloads/vcopy/MI200/roofline.csv` (HBM 1388.9, L2 5018.3, vL1D
///   9226.7, LDS 17717.8 GB/s; FP64 20272.5, FP32 20942.0, MFMA F16 164938.2, BF16 170483.2,
///   F32 41438.7, F64 41497.6 GFLOP/s, I8 166402.3 GOP/s).
pub fn mi210() -> Machine {
    let clock = 1700.0 * MEGA;
    let g = |name: &str, kind, gf: f64| Ceiling::vector(name, kind, gf * 1e9);
    finish(Machine {
        id: "mi210".into(),
        vendor: Some(Vendor::Amd),
        arch: Some("gfx90a".into()),
        generation: Some("CDNA 2".into()),
        sm_count: Some(104),
        memory_bytes: Some(6.400000e+10),
        name: "AMD Instinct MI210 (1700 MHz)".into(),
        source: "AMD Instinct MI210 data sheet; Omniperf roofline benchmark (ROCm/omniperf tests, MI200 vcopy)".into(),
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        theoretical: set(
            "AMD Instinct MI210 data sheet",
            vec![
                t("FP64", ComputeKind::Fp64, 22.6),
                t("FP64 no-FMA", ComputeKind::Fp64, 11.3),
                t("FP32", ComputeKind::Fp32, 22.6),
                t("FP32 no-FMA", ComputeKind::Fp32, 11.3),
                matrix(DataType::Fp16, 181.0),
                matrix(DataType::Bf16, 181.0),
                matrix(DataType::Fp32, 45.3),
                matrix(DataType::Fp64, 45.3),
                matrix(DataType::Int8, 181.0),
            ],
            vec![gbps("HBM2e", Level::Dram, 1638.4)],
        ),
        empirical: set(
            "Omniperf roofline benchmark, MI210 device 0 (ROCm/omniperf tests/workloads/vcopy/MI200/roofline.csv)",
            vec![
                g("FP64", ComputeKind::Fp64, 20272.537),
                g("FP32", ComputeKind::Fp32, 20941.971),
                Ceiling::matrix(DataType::Fp16, 164938.17 * 1e9),
                Ceiling::matrix(DataType::Bf16, 170483.16 * 1e9),
                Ceiling::matrix(DataType::Fp32, 41438.68 * 1e9),
                Ceiling::matrix(DataType::Fp64, 41497.562 * 1e9),
                Ceiling::matrix(DataType::Int8, 166402.27 * 1e9),
            ],
            vec![
                gbps("vL1D", Level::L1, 9226.7266),
                gbps("LDS", Level::Shared, 17717.834),
                gbps("L2", Level::L2, 5018.2891),
                gbps("HBM2e", Level::Dram, 1388.9302),
            ],
        ),
        links: vec![Link::pcie_x16(4)],
        ..Default::default()
    })
}

/// AMD Instinct MI300X at its 2100 MHz peak engine clock.
///
/// AMD MI300X data sheet and ROCm "MI300 microarchitecture" page: 304 CUs; FP64 vector 81.7
/// (304 × 64 × 2 × 2.1 GHz), FP64 matrix 163.4, FP32 vector 163.4, FP32 matrix 163.4, TF32
/// 653.7, FP16/BF16 1307.4, FP8 2614.9 TFLOP/s, INT8 2614.9 TOPS (dense); HBM3 5.3 TB/s;
/// 256 MB Infinity Cache at 17.2 TB/s peak (AMD CDNA 3 whitepaper). Link: PCIe 5.0 x16.
pub fn mi300x() -> Machine {
    let clock = 2100.0 * MEGA;
    finish(Machine {
        id: "mi300x".into(),
        vendor: Some(Vendor::Amd),
        arch: Some("gfx942".into()),
        generation: Some("CDNA 3".into()),
        sm_count: Some(304),
        memory_bytes: Some(1.920000e+11),
        name: "AMD Instinct MI300X (2100 MHz)".into(),
        source: "AMD Instinct MI300X data sheet; AMD CDNA 3 whitepaper (Infinity Cache)".into(),
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        theoretical: set(
            "AMD Instinct MI300X data sheet; CDNA 3 whitepaper",
            vec![
                t("FP64", ComputeKind::Fp64, 81.7),
                t("FP64 no-FMA", ComputeKind::Fp64, 81.7 / 2.0),
                t("FP32", ComputeKind::Fp32, 163.4),
                t("FP32 no-FMA", ComputeKind::Fp32, 163.4 / 2.0),
                matrix(DataType::Fp16, 1307.4),
                matrix(DataType::Bf16, 1307.4),
                matrix(DataType::Tf32, 653.7),
                matrix(DataType::Fp8, 2614.9),
                matrix(DataType::Fp32, 163.4),
                matrix(DataType::Fp64, 163.4),
                matrix(DataType::Int8, 2614.9),
            ],
            vec![gbps("Infinity Cache", Level::L3, 17200.0), gbps("HBM3", Level::Dram, 5300.0)],
        ),
        links: vec![Link::pcie_x16(5)],
        ..Default::default()
    })
}
