//! Hopper (GH100, sm_90): H100 SXM5, H100 PCIe, H100 NVL, H200, GH200, H20.
//!
//! NVIDIA states Hopper's vector and FP64 tensor peaks at the maximum boost clock (SXM 1980
//! MHz, PCIe 1755) but its FP16/BF16/TF32/FP8/INT8 tensor peaks at a lower clock (SXM 1830
//! MHz, "1.83 GHz (low precision), 1.98 GHz (high precision)" in Glenn Klockwood's H100
//! notes; PCIe 756 TFLOPS ÷ (114 SMs × 4096) = 1620 MHz). Every peak here holds at the boost
//! clock: the low-precision ones are the data sheet's × boost ÷ tensor clock, so
//! `at_clock(1830 MHz)` gives the data sheet's 989.4 back. That 1830 MHz is not a base clock.
//!
//! Base clocks are stated only where a source publishes one: the H100 SXM5's 1590 MHz and the
//! H100 PCIe's 1095 MHz (TechPowerUp GPU Database). NVIDIA publishes none for the H200, GH200,
//! H100 NVL and H20: those entries state none ([`super::super::gpu::UNPUBLISHED`]), so a
//! `--clock base` chart is refused rather than drawn at an invented clock. Nsight Compute locks
//! Hopper near 1.5–1.6 GHz (the H200 fixtures of tests/fixtures/ncu-hopper measured 1.36–1.50
//! GHz), which the measured clock gives where the profile has it.

use super::super::gpu::{at, Gpu, UNPUBLISHED};
use super::super::{gbps, matrix, tflops, vec_tf};
use super::nvlink;
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine};

/// The compute of a GH100 with 132 SMs (H100 SXM5, H200, GH200), at 1980 MHz: NVIDIA H100
/// data sheet as tabulated by Glenn Klockwood (dense): FP64 33.5 (132 × 128 × 1.98 GHz =
/// 33.45), FP32 66.9, FP16 (non-tensor) 133.8, INT32 33.5 TOPS (IMAD = 2), FP64 tensor 66.9,
/// all at 1980 MHz; TF32 494.7, FP16/BF16 989.4 (132 × 4096 × 1.83 GHz), FP8 1978.9, INT8
/// 1978.9 TOPS at 1830 MHz, scaled to 1980 (× 1980/1830: FP16 1070.5).
fn gh100_sxm() -> Vec<Ceiling> {
    let t = |tf: f64| at(tf, 1830.0, 1980.0);
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 33.5));
    compute.extend(vec_tf(ComputeKind::Fp32, 66.9));
    compute.extend(vec_tf(ComputeKind::Fp16, 133.8));
    compute.push(matrix(DataType::Fp16, t(989.4)));
    compute.push(matrix(DataType::Bf16, t(989.4)));
    compute.push(matrix(DataType::Tf32, t(494.7)));
    compute.push(matrix(DataType::Fp8, t(1978.9)));
    compute.push(matrix(DataType::Fp64, 66.9));
    compute.push(matrix(DataType::Int8, t(1978.9)));
    compute.push(tflops("INT32", ComputeKind::Int, 33.5));
    compute
}

#[allow(clippy::too_many_arguments)]
fn gh100(id: &'static str, name: &'static str, source: &'static str, base_mhz: f64, memory_gib: f64, l2_mib: f64, hbm: (&str, f64), links: Vec<Link>) -> Machine {
    Gpu {
        id,
        name,
        vendor: Vendor::Nvidia,
        arch: "sm_90",
        generation: "Hopper",
        sms: 132,
        base_mhz,
        boost_mhz: 1980.0,
        clock_mhz: 1980.0,
        memory_gib,
        l2_mib: Some(l2_mib),
        source,
        compute: gh100_sxm(),
        memory: vec![gbps(hbm.0, Level::Dram, hbm.1)],
        empirical: None,
        links,
    }
    .build()
}

/// NVIDIA H100 SXM5 80 GB at its 1980 MHz boost clock: compute as [`gh100_sxm`], HBM3 3350
/// GB/s, 80 GiB, L2 50 MiB (H100 data sheet), base 1590 MHz (TechPowerUp GPU Database). Links:
/// PCIe 5.0 x16 ("128 GB/s" both directions); NVLink 4 "900 GB/s" (450 per direction).
/// L1/shared/L2 bandwidths: absent. FLOPs per tensor instruction unset (see `a100`).
pub fn h100() -> Machine {
    gh100(
        "h100",
        "NVIDIA H100 SXM5 80GB",
        "NVIDIA H100 data sheet; Glenn Klockwood's H100 notes; TechPowerUp GPU Database (base clock)",
        1590.0,
        80.0,
        50.0,
        ("HBM3", 3350.0),
        vec![Link::pcie_x16(5), nvlink("NVLink 4", 450.0)],
    )
}

/// NVIDIA H200 SXM 141 GB (no published base clock): the H100 SXM5's GH100 compute ("same …
/// compute", H200 data sheet)
/// with HBM3e at 4800 GB/s, 141 GiB. L2 60 MiB, not the H100's 50: an H200's Nsight Compute
/// report gives `device__attribute_l2_cache_size` = 62914560 bytes (tests/fixtures/ncu-hopper/
/// h200; the H100 fixture's is 52428800), as the GH200's. Links as [`h100`].
pub fn h200() -> Machine {
    gh100(
        "h200",
        "NVIDIA H200 SXM 141GB",
        "NVIDIA H200 data sheet; H100 data sheet (compute); device attributes (L2)",
        UNPUBLISHED,
        141.0,
        60.0,
        ("HBM3e", 4800.0),
        vec![Link::pcie_x16(5), nvlink("NVLink 4", 450.0)],
    )
}

/// NVIDIA GH200 Grace Hopper Superchip, its Hopper GPU with 96 GB HBM3 (the "GH200 480GB"
/// configuration: 96 GB GPU + 480 GB Grace memory). No published base clock.
///
/// - Compute: as [`gh100_sxm`]; the GH200 data sheet prints the same (FP64 34, FP32 67, TF32
///   494, BF16/FP16 990, FP8/INT8 1979 dense).
/// - Memory: HBM3 4000 GB/s ("4 TB/s"), 96 GiB. The cs599k Nsight Compute reports
///   (`shared/samples/ncu-rep/`, "NVIDIA GH200 480GB") show 132 SMs, 1980 MHz, a 6144-bit bus
///   at 2619 MHz (2 × 2619 × 6144 / 8 = 4022.8 GB/s, 0.6% above the data sheet) and an L2 of
///   62914560 bytes: 60 MiB, not the H100's 50; we use the device's 60 MiB. (A 144 GB HBM3e
///   GH200 at 4.9 TB/s also exists; this entry is the 96 GB one.)
/// - Links: NVLink-C2C to the Grace CPU, "900 GB/s" (450 per direction); NVLink 4 450 per
///   direction. L1/shared/L2 bandwidths: absent.
pub fn gh200() -> Machine {
    gh100(
        "gh200",
        "NVIDIA GH200 96GB",
        "NVIDIA GH200 data sheet; H100 data sheet (compute); device attributes (L2)",
        UNPUBLISHED,
        96.0,
        60.0,
        ("HBM3", 4000.0),
        vec![nvlink("NVLink-C2C", 450.0), nvlink("NVLink 4", 450.0)],
    )
}

/// NVIDIA H100 PCIe 80 GB (114 SMs) at its 1755 MHz boost clock.
///
/// - Peaks (NVIDIA H100 data sheet, PCIe column; tensor values halved from "with sparsity"):
///   FP64 26 (114 × 128 × 1.755 GHz = 25.6), FP32 51, FP64 tensor 51, all at 1755 MHz; TF32
///   378, FP16/BF16 756, FP8 1513, INT8 1513 TOPS at 1620 MHz (756 ÷ (114 × 4096)), scaled to
///   1755 (FP16 819.0). FP16 (non-tensor) at twice FP32 as on every GH100 (102), not printed.
/// - Clocks: boost 1755 MHz (NVIDIA), base 1095 MHz (TechPowerUp GPU Database).
/// - Memory: HBM2e 2000 GB/s ("2TB/s"), 80 GiB; L2 50 MiB.
/// - Links: PCIe 5.0 x16; NVLink bridge "600 GB/s" (300 per direction). L1/shared/L2
///   bandwidths: absent.
pub fn h100_pcie() -> Machine {
    let t = |tf: f64| at(tf, 1620.0, 1755.0);
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 26.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 51.0));
    compute.extend(vec_tf(ComputeKind::Fp16, 2.0 * 51.0));
    compute.push(matrix(DataType::Fp16, t(756.0)));
    compute.push(matrix(DataType::Bf16, t(756.0)));
    compute.push(matrix(DataType::Tf32, t(378.0)));
    compute.push(matrix(DataType::Fp8, t(1513.0)));
    compute.push(matrix(DataType::Fp64, 51.0));
    compute.push(matrix(DataType::Int8, t(1513.0)));
    Gpu {
        id: "h100-pcie",
        name: "NVIDIA H100 PCIe 80GB",
        vendor: Vendor::Nvidia,
        arch: "sm_90",
        generation: "Hopper",
        sms: 114,
        base_mhz: 1095.0,
        boost_mhz: 1755.0,
        clock_mhz: 1755.0,
        memory_gib: 80.0,
        l2_mib: Some(50.0),
        source: "NVIDIA H100 data sheet (PCIe); TechPowerUp GPU Database (base clock)",
        compute,
        memory: vec![gbps("HBM2e", Level::Dram, 2000.0)],
        empirical: None,
        links: vec![Link::pcie_x16(5), nvlink("NVLink bridge", 300.0)],
    }
    .build()
}

/// NVIDIA H100 NVL (94 GB, PCIe card with an NVLink bridge, 350–400 W): the full 132-SM GH100
/// of the SXM5 at a lower power, not an H100 PCIe (114 SMs, 2 TB/s).
///
/// - Peaks (NVIDIA H100 data sheet, H100 NVL column; tensor values halved from "with
///   sparsity"): FP64 30, FP64 tensor 60, FP32 60 TFLOPS; TF32 835 → 417.5, FP16/BF16 1671 →
///   835.5, FP8 3341 → 1670.5, INT8 3341 → 1670.5 TOPS. FP16 (non-tensor) at twice FP32 as on
///   every GH100 (120), not printed.
/// - Clocks: NVIDIA publishes neither; the vector peaks imply 30e12 ÷ (132 × 128) = 1776 MHz,
///   within 0.5% of the 1785 MHz boost its devices report, so the vector peaks hold at 1785
///   MHz; the tensor peaks imply 835.5e12 ÷ (132 × 4096) = 1545 MHz and are scaled from it to
///   1785 (FP16 965.3), as the SXM5's are from 1830 to 1980. Base: unpublished.
/// - Memory: HBM3 3900 GB/s ("3.9TB/s"), 94 GiB; L2 50 MiB (as every GH100 product of 80–94
///   GB).
/// - Links: PCIe 5.0 x16; NVLink bridge "600 GB/s" (300 per direction).
pub fn h100_nvl() -> Machine {
    let t = |tf: f64| at(tf, 1545.0, 1785.0);
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 30.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 60.0));
    compute.extend(vec_tf(ComputeKind::Fp16, 2.0 * 60.0));
    compute.push(matrix(DataType::Fp16, t(835.5)));
    compute.push(matrix(DataType::Bf16, t(835.5)));
    compute.push(matrix(DataType::Tf32, t(417.5)));
    compute.push(matrix(DataType::Fp8, t(1670.5)));
    compute.push(matrix(DataType::Fp64, 60.0));
    compute.push(matrix(DataType::Int8, t(1670.5)));
    Gpu {
        id: "h100-nvl",
        name: "NVIDIA H100 NVL 94GB",
        vendor: Vendor::Nvidia,
        arch: "sm_90",
        generation: "Hopper",
        sms: 132,
        base_mhz: UNPUBLISHED,
        boost_mhz: 1785.0,
        clock_mhz: 1785.0,
        memory_gib: 94.0,
        l2_mib: Some(50.0),
        source: "NVIDIA H100 data sheet (H100 NVL); clocks implied by its peaks",
        compute,
        memory: vec![gbps("HBM3", Level::Dram, 3900.0)],
        empirical: None,
        links: vec![Link::pcie_x16(5), nvlink("NVLink bridge", 300.0)],
    }
    .build()
}

/// NVIDIA H20 (96 GB HBM3, 400 W): a GH100 cut for export, 78 SMs, whose peaks NVIDIA caps
/// far below the Hopper per-SM rates (its FP16 tensor 148 TFLOPS is 23% of 78 SMs × 4096 ×
/// 1.98 GHz = 632.6).
///
/// - Peaks (NVIDIA H20 specifications as published by the press, dense): FP64 1, FP32 44,
///   TF32 74, FP16/BF16 148, FP8 296 TFLOPS, INT8 296 TOPS. These do not follow SMs × rate ×
///   clock (FP32 44 would need 2.2 GHz at 256 FLOPs per SM cycle): the caps are the product's,
///   so `catalogue::checks` lists the H20 apart. FP64 tensor, FP16 (non-tensor): not published.
/// - Clocks: unpublished. The peaks are taken to hold at 1980 MHz, the GH100 SXM boost, so that
///   a measured clock below it scales them down (a bound still at or below the data sheet's).
/// - Memory: HBM3 4000 GB/s ("4.0 TB/s"), 96 GiB; L2 60 MiB.
/// - Links: PCIe 5.0 x16; NVLink "900 GB/s" (450 per direction).
pub fn h20() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 1.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 44.0));
    compute.push(matrix(DataType::Fp16, 148.0));
    compute.push(matrix(DataType::Bf16, 148.0));
    compute.push(matrix(DataType::Tf32, 74.0));
    compute.push(matrix(DataType::Fp8, 296.0));
    compute.push(matrix(DataType::Int8, 296.0));
    Gpu {
        id: "h20",
        name: "NVIDIA H20",
        vendor: Vendor::Nvidia,
        arch: "sm_90",
        generation: "Hopper",
        sms: 78,
        base_mhz: UNPUBLISHED,
        boost_mhz: 1980.0,
        clock_mhz: 1980.0,
        memory_gib: 96.0,
        l2_mib: Some(60.0),
        source: "NVIDIA H20 specifications (press); peaks capped below the Hopper per-SM rates",
        compute,
        memory: vec![gbps("HBM3", Level::Dram, 4000.0)],
        empirical: None,
        links: vec![Link::pcie_x16(5), nvlink("NVLink 4", 450.0)],
    }
    .build()
}
