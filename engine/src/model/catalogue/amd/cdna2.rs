//! CDNA 2 (gfx90a): Instinct MI210, MI250X and one MI250X GCD.

use super::super::gpu::Gpu;
use super::super::{gbps, matrix, set, vec_tf};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine};

/// MI250X peaks × `share` (1 for both GCDs, ½ for one): AMD MI250X data sheet, at 1700 MHz:
/// "Up to 47.9 TF" FP64 vector (220 CUs × 128 × 1.7 GHz), **"95.7 TF" packed FP32** (220 ×
/// 256 × 1.7: `v_pk_fma_f32` does two FP32 FMAs per lane; the sheet's "FP32 vector" 47.9 is
/// the unpacked rate, which the FP32 no-FMA line, half the packed FMA rate, equals), "95.7 TF"
/// FP64/FP32 matrix, "383.0 TF" FP16/BF16 (220 × 1024 × 1.7 = 383.0), "383.0 TOPS" INT8. The
/// FP32 roof is the packed one, as on CDNA 3, whose "FP32 vector" peak counts packing (MI300X
/// 163.4 = 304 × 256 × 2.1): an FP32 kernel above 47.9 TF is packed, not above its roof.
fn mi250x_compute(share: f64) -> Vec<Ceiling> {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 47.9 * share));
    compute.extend(vec_tf(ComputeKind::Fp32, 95.7 * share));
    compute.push(matrix(DataType::Fp16, 383.0 * share));
    compute.push(matrix(DataType::Bf16, 383.0 * share));
    compute.push(matrix(DataType::Fp32, 95.7 * share));
    compute.push(matrix(DataType::Fp64, 95.7 * share));
    compute.push(matrix(DataType::Int8, 383.0 * share));
    compute
}

/// AMD Instinct MI250X (OAM, both GCDs), at its 1700 MHz peak engine clock (base: see the
/// module doc of `amd`).
///
/// Compute as [`mi250x_compute`]. 220 CUs (110 per GCD), 128 GiB HBM2e, L2 16 MiB (8 per GCD;
/// ROCm "GPU hardware specifications"). HBM2e 8192 bits × 3.2 Gb/s / 8 = 3276.8 GB/s ("3.2
/// TB/sec"). L1/LDS/L2 bandwidths: absent. Link: PCIe 4.0 x16.
pub fn mi250x() -> Machine {
    Gpu {
        id: "mi250x",
        name: "AMD Instinct MI250X, both GCDs",
        vendor: Vendor::Amd,
        arch: "gfx90a",
        generation: "CDNA 2",
        sms: 220,
        base_mhz: 1700.0,
        boost_mhz: 1700.0,
        clock_mhz: 1700.0,
        memory_gib: 128.0,
        l2_mib: Some(16.0),
        source: "AMD Instinct MI250X data sheet",
        compute: mi250x_compute(1.0),
        memory: vec![gbps("HBM2e", Level::Dram, 3276.8)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}

/// One GCD of an MI250X (what ROCm calls a device and a kernel runs on): half of [`mi250x`]'s
/// data-sheet peaks and HBM (110 CUs, 1638.4 GB/s, 64 GiB, L2 8 MiB).
pub fn mi250x_gcd() -> Machine {
    Gpu {
        id: "mi250x-gcd",
        name: "AMD Instinct MI250X, one GCD",
        vendor: Vendor::Amd,
        arch: "gfx90a",
        generation: "CDNA 2",
        sms: 110,
        base_mhz: 1700.0,
        boost_mhz: 1700.0,
        clock_mhz: 1700.0,
        memory_gib: 64.0,
        l2_mib: Some(8.0),
        source: "AMD Instinct MI250X data sheet, halved per GCD",
        compute: mi250x_compute(0.5),
        memory: vec![gbps("HBM2e", Level::Dram, 1638.4)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}

/// AMD Instinct MI210 at its 1700 MHz peak engine clock: data-sheet and measured values side
/// by side.
///
/// - Theoretical: AMD MI210 data sheet (104 CUs; FP64 vector 22.6, packed FP32 45.3 (104 ×
///   256 × 1.7 GHz; the sheet's unpacked "FP32 vector" 22.6 is the FP32 no-FMA line, see
///   [`mi250x_compute`]), matrix FP64/FP32 45.3, FP16/
///   BF16/INT8 matrix 181.0 TFLOP/s or TOPS; HBM2e 1638.4 GB/s, which rocprof-compute's
///   `sysinfo.csv` also reports as `hbm_bw`: 2 × 1600 MHz × 4096 bits / 8). 64 GiB, L2 8 MiB
///   (ROCm "GPU hardware specifications").
/// - Empirical: Omniperf 2.0 roofline micro-benchmark on an MI210, device 0, from
///   `ROCm/omniperf` `tests/workloads/vcopy/MI200/roofline.csv` (HBM 1388.9, L2 5018.3, vL1D
///   9226.7, LDS 17717.8 GB/s; FP64 20272.5, FP32 20942.0, MFMA F16 164938.2, BF16 170483.2,
///   F32 41438.7, F64 41497.6 GFLOP/s, I8 166402.3 GOP/s). The on-chip levels are measured
///   only: no data-sheet L1/LDS/L2 bandwidth.
/// - Link: PCIe 4.0 x16.
pub fn mi210() -> Machine {
    let g = |name: &str, kind, gf: f64| Ceiling::vector(name, kind, gf * 1e9);
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 22.6));
    compute.extend(vec_tf(ComputeKind::Fp32, 45.3));
    compute.push(matrix(DataType::Fp16, 181.0));
    compute.push(matrix(DataType::Bf16, 181.0));
    compute.push(matrix(DataType::Fp32, 45.3));
    compute.push(matrix(DataType::Fp64, 45.3));
    compute.push(matrix(DataType::Int8, 181.0));
    Gpu {
        id: "mi210",
        name: "AMD Instinct MI210",
        vendor: Vendor::Amd,
        arch: "gfx90a",
        generation: "CDNA 2",
        sms: 104,
        base_mhz: 1700.0,
        boost_mhz: 1700.0,
        clock_mhz: 1700.0,
        memory_gib: 64.0,
        l2_mib: Some(8.0),
        source: "AMD Instinct MI210 data sheet; Omniperf roofline benchmark (ROCm/omniperf tests, MI200 vcopy)",
        compute,
        memory: vec![gbps("HBM2e", Level::Dram, 1638.4)],
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
    }
    .build()
}
