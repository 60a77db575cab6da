//! Ampere: GA100 (sm_80: the four A100s) and GA102 (sm_86: A10).

use super::super::gpu::Gpu;
use super::super::{gbps, matrix, tflops, vec_tf};
use super::nvlink;
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine, MemoryLevel};

/// The compute of every A100 (108 SMs, 1410 MHz boost): NVIDIA A100 data sheet and Ampere
/// whitepaper, all at 1410 MHz. FP64 9.7 (108 × 64 × 1.41 GHz = 9.75), FP32 19.5, FP16
/// (non-tensor) 78, FP64 tensor 19.5, TF32 156, FP16/BF16 312 (108 × 2048 × 1.41 = 311.9),
/// INT8 624 TOPS, all dense ("*with sparsity" values halved); INT32 19.5 TOPS, an IMAD
/// counted as 2 (108 × 64 lanes × 2 × 1.41 GHz), as the whitepaper counts it.
fn ga100() -> Vec<Ceiling> {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 9.7));
    compute.extend(vec_tf(ComputeKind::Fp32, 19.5));
    compute.extend(vec_tf(ComputeKind::Fp16, 78.0));
    compute.push(matrix(DataType::Fp16, 312.0));
    compute.push(matrix(DataType::Bf16, 312.0));
    compute.push(matrix(DataType::Tf32, 156.0));
    compute.push(matrix(DataType::Fp64, 19.5));
    compute.push(matrix(DataType::Int8, 624.0));
    compute.push(tflops("INT32", ComputeKind::Int, 19.5));
    compute
}

/// The on-chip bandwidths of an A100 at 1410 MHz, published per clock: shared memory (the
/// unified L1/shared array) 128 bytes per clock per SM, L2 5120 bytes per clock ("2.3x the L2
/// cache read bandwidth of V100", 2048 B/clk; A100 whitepaper; both per-clock figures
/// tabulated in Table 3 of PMC10448217). L1 = shared = 108 × 128 × 1.41 GHz = 19491.84 GB/s;
/// L2 = 5120 × 1.41 GHz = 7219.2 GB/s. Data-sheet rates, not measured: kernels reach less.
fn ga100_on_chip() -> Vec<MemoryLevel> {
    let l1 = 108.0 * 128.0 * 1.41;
    vec![gbps("L1", Level::L1, l1), gbps("Shared", Level::Shared, l1), gbps("L2", Level::L2, 5120.0 * 1.41)]
}

#[allow(clippy::too_many_arguments)]
fn a100_variant(id: &'static str, name: &'static str, base_mhz: f64, memory_gib: f64, hbm: (&str, f64), source: &'static str, links: Vec<Link>) -> Machine {
    let mut memory = ga100_on_chip();
    memory.push(gbps(hbm.0, Level::Dram, hbm.1));
    Gpu {
        id,
        name,
        vendor: Vendor::Nvidia,
        arch: "sm_80",
        generation: "Ampere",
        sms: 108,
        base_mhz,
        boost_mhz: 1410.0,
        clock_mhz: 1410.0,
        memory_gib,
        l2_mib: Some(40.0),
        source,
        compute: ga100(),
        memory,
        empirical: None,
        links,
    }
    .build()
}

/// NVIDIA A100 SXM4 80 GB at its 1410 MHz boost: compute as [`ga100`], HBM2e 2039 GB/s (A100
/// data sheet), 80 GiB, L2 40 MiB, on-chip as [`ga100_on_chip`]. Base 1275 MHz (TechPowerUp
/// GPU Database). Links: PCIe 4.0 x16; NVLink 3, 12 links, 300 GB/s per direction ("600
/// GB/s").
///
/// FLOPs per tensor instruction are left unset: they depend on the MMA shape (HMMA.16816 does
/// 4096, HMMA.1688 2048), so profile tensor FLOPs directly on Ampere and later.
pub fn a100() -> Machine {
    a100_variant(
        "a100",
        "NVIDIA A100 SXM4 80GB",
        1275.0,
        80.0,
        ("HBM2e", 2039.0),
        "NVIDIA A100 data sheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf); NVIDIA Ampere whitepaper",
        vec![Link::pcie_x16(4), nvlink("NVLink 3", 300.0)],
    )
}

/// NVIDIA A100 SXM4 40 GB: as [`a100`] with HBM2 1555 GB/s (5 stacks × 1024 bits × 2.43 Gb/s;
/// the data sheet's "1,555GB/s"), 40 GiB; base 1095 MHz (TechPowerUp).
pub fn a100_40gb() -> Machine {
    a100_variant(
        "a100-40gb",
        "NVIDIA A100 SXM4 40GB",
        1095.0,
        40.0,
        ("HBM2", 1555.0),
        "NVIDIA A100 data sheet; NVIDIA Ampere whitepaper",
        vec![Link::pcie_x16(4), nvlink("NVLink 3", 300.0)],
    )
}

/// NVIDIA A100 PCIe 80 GB: the A100 compute at the same 1410 MHz boost (data sheet: identical
/// peaks for PCIe and SXM), HBM2e 1935 GB/s, 80 GiB; base 1065 MHz (TechPowerUp). Links:
/// PCIe 4.0 x16; NVLink bridge for two GPUs, "600 GB/s" (300 per direction).
pub fn a100_pcie() -> Machine {
    a100_variant(
        "a100-pcie",
        "NVIDIA A100 PCIe 80GB",
        1065.0,
        80.0,
        ("HBM2e", 1935.0),
        "NVIDIA A100 data sheet; NVIDIA Ampere whitepaper",
        vec![Link::pcie_x16(4), nvlink("NVLink bridge", 300.0)],
    )
}

/// NVIDIA A100 PCIe 40 GB: HBM2 1555 GB/s, 40 GiB; base 765 MHz (TechPowerUp). The
/// MiSTIC Nsight Compute report (`shared/samples/ncu-rep/`) shows this card's attributes:
/// 108 SMs, 1410 MHz, 5120-bit bus at 1215 MHz (2 × 1215 × 5120 / 8 = 1555.2 GB/s), L2
/// 41943040 bytes (40 MiB). Links as [`a100_pcie`].
pub fn a100_pcie_40gb() -> Machine {
    a100_variant(
        "a100-pcie-40gb",
        "NVIDIA A100 PCIe 40GB",
        765.0,
        40.0,
        ("HBM2", 1555.0),
        "NVIDIA A100 data sheet; NVIDIA Ampere whitepaper",
        vec![Link::pcie_x16(4), nvlink("NVLink bridge", 300.0)],
    )
}

/// NVIDIA A10 (GA102, 24 GB GDDR6, 150 W) at its 1695 MHz boost clock.
///
/// - Peaks (NVIDIA A10 data sheet, dense; "*with sparsity" halved), all at 1695 MHz: FP32
///   31.2 TFLOPS (72 SMs × 256 × 1.695 GHz = 31.24), TF32 62.5, BF16 125, FP16 125 (72 ×
///   1024 × 1.695 = 124.96), INT8 250 TOPS. Not in the data sheet: FP64 at 1/32 of FP32
///   (0.976 TFLOPS, TechPowerUp) and FP16 (non-tensor) at the FP32 rate (GA10x SM).
///   The A10 runs FP32-accumulate tensor work at full rate; GeForce GA10x halves it.
/// - Clocks: base 885, boost 1695 MHz (TechPowerUp GPU Database).
/// - Memory: GDDR6 600 GB/s, 24 GiB; L2 6 MiB (TechPowerUp).
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 4.0 x16.
pub fn a10() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 31.2 / 32.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 31.2));
    compute.extend(vec_tf(ComputeKind::Fp16, 31.2));
    compute.push(matrix(DataType::Fp16, 125.0));
    compute.push(matrix(DataType::Bf16, 125.0));
    compute.push(matrix(DataType::Tf32, 62.5));
    compute.push(matrix(DataType::Int8, 250.0));
    Gpu {
        id: "a10",
        name: "NVIDIA A10",
        vendor: Vendor::Nvidia,
        arch: "sm_86",
        generation: "Ampere",
        sms: 72,
        base_mhz: 885.0,
        boost_mhz: 1695.0,
        clock_mhz: 1695.0,
        memory_gib: 24.0,
        l2_mib: Some(6.0),
        source: "NVIDIA A10 data sheet; TechPowerUp GPU Database (clocks, FP64)",
        compute,
        memory: vec![gbps("GDDR6", Level::Dram, 600.0)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}
