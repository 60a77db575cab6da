//! CDNA 3 (gfx942): Instinct MI300A (APU), MI300X, MI325X.
//!
//! Per CU and clock (ROCm docs, "AMD Instinct MI300 series microarchitecture", peak FLOPS/
//! clock/CU): matrix FP64 256, vector FP64 128, matrix FP32 256, vector FP32 256, TF32 1024,
//! FP16/BF16 2048, FP8 and INT8 4096. All three parts run at a 2100 MHz peak engine clock.
//! Infinity Cache: 256 MiB (ROCm "GPU hardware specifications", L3) at 17.2 TB/s peak (AMD
//! CDNA 3 whitepaper), on the I/O dies all three share.

use super::super::gpu::Gpu;
use super::super::{gbps, matrix, vec_tf};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine, MemoryLevel};

/// Peaks of a CDNA 3 part from its data sheet (TFLOPS, dense): vector FP64, vector/matrix
/// FP32, matrix FP64, TF32, FP16/BF16, FP8/INT8.
fn cdna3(fp64: f64, fp32: f64, fp64_matrix: f64, tf32: f64, fp16: f64, fp8: f64) -> Vec<Ceiling> {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, fp64));
    compute.extend(vec_tf(ComputeKind::Fp32, fp32));
    compute.push(matrix(DataType::Fp16, fp16));
    compute.push(matrix(DataType::Bf16, fp16));
    compute.push(matrix(DataType::Tf32, tf32));
    compute.push(matrix(DataType::Fp8, fp8));
    compute.push(matrix(DataType::Fp32, fp32));
    compute.push(matrix(DataType::Fp64, fp64_matrix));
    compute.push(matrix(DataType::Int8, fp8));
    compute
}

fn memory(hbm: &str, gbytes_per_s: f64) -> Vec<MemoryLevel> {
    vec![gbps("Infinity Cache", Level::L3, 17200.0), gbps(hbm, Level::Dram, gbytes_per_s)]
}

/// AMD Instinct MI300X at its 2100 MHz peak engine clock.
///
/// AMD MI300X data sheet and ROCm "MI300 microarchitecture" (the table's "Peak TFLOPS"): 304
/// CUs; FP64 vector 81.7 (304 × 128 × 2.1 GHz), FP64 matrix 163.4, FP32 vector and matrix
/// 163.4, TF32 653.7, FP16/BF16 1307.4, FP8 2614.9 TFLOP/s, INT8 2614.9 TOPS (dense); HBM3
/// 5.3 TB/s, 192 GiB; L2 32 MiB (4 per XCD); Infinity Cache as the module doc. L1/LDS/L2
/// bandwidths: absent. Link: PCIe 5.0 x16 (ROCm: "PCIe Gen 5 x16 links").
pub fn mi300x() -> Machine {
    Gpu {
        id: "mi300x",
        name: "AMD Instinct MI300X",
        vendor: Vendor::Amd,
        arch: "gfx942",
        generation: "CDNA 3",
        sms: 304,
        base_mhz: 2100.0,
        boost_mhz: 2100.0,
        clock_mhz: 2100.0,
        memory_gib: 192.0,
        l2_mib: Some(32.0),
        source: "AMD Instinct MI300X data sheet; AMD CDNA 3 whitepaper (Infinity Cache)",
        compute: cdna3(81.7, 163.4, 163.4, 653.7, 1307.4, 2614.9),
        memory: memory("HBM3", 5300.0),
        empirical: None,
        links: vec![Link::pcie_x16(5)],
    }
    .build()
}

/// AMD Instinct MI325X at its 2100 MHz peak engine clock: the MI300X's 304 CUs and compute
/// (AMD: "FP16 1,307 TFLOPS", the same 1307.4) with 256 GiB HBM3E at 6.0 TB/s (AMD MI325X
/// product page); L2 32 MiB, Infinity Cache 256 MiB (ROCm "GPU hardware specifications").
/// L1/LDS/L2 bandwidths: absent. Link: PCIe 5.0 x16.
pub fn mi325x() -> Machine {
    Gpu {
        id: "mi325x",
        name: "AMD Instinct MI325X",
        vendor: Vendor::Amd,
        arch: "gfx942",
        generation: "CDNA 3",
        sms: 304,
        base_mhz: 2100.0,
        boost_mhz: 2100.0,
        clock_mhz: 2100.0,
        memory_gib: 256.0,
        l2_mib: Some(32.0),
        source: "AMD Instinct MI325X product page; ROCm GPU specifications",
        compute: cdna3(81.7, 163.4, 163.4, 653.7, 1307.4, 2614.9),
        memory: memory("HBM3E", 6000.0),
        empirical: None,
        links: vec![Link::pcie_x16(5)],
    }
    .build()
}

/// AMD Instinct MI300A (APU: 6 XCDs, 3 Zen 4 CCDs) at its 2100 MHz peak engine clock.
///
/// 228 CUs (38 per XCD), 128 GiB HBM3 shared with the CPU cores at 5.3 TB/s, L2 24 MiB (ROCm
/// "GPU hardware specifications"); Infinity Cache as the module doc. Peaks: the MI300 per-CU
/// rates × 228 × 2.1 GHz, as the AMD MI300A data sheet prints them: FP64 vector 61.3, FP64
/// matrix 122.6, FP32 122.6, TF32 490.3, FP16/BF16 980.6, FP8/INT8 1961.2. No host link: the
/// CPU shares the GPU's memory. L1/LDS/L2 bandwidths: absent.
pub fn mi300a() -> Machine {
    Gpu {
        id: "mi300a",
        name: "AMD Instinct MI300A",
        vendor: Vendor::Amd,
        arch: "gfx942",
        generation: "CDNA 3",
        sms: 228,
        base_mhz: 2100.0,
        boost_mhz: 2100.0,
        clock_mhz: 2100.0,
        memory_gib: 128.0,
        l2_mib: Some(24.0),
        source: "AMD Instinct MI300A data sheet; ROCm MI300 microarchitecture and GPU specifications",
        compute: cdna3(61.3, 122.6, 122.6, 490.3, 980.6, 1961.2),
        memory: memory("HBM3", 5300.0),
        empirical: None,
        links: vec![],
    }
    .build()
}
