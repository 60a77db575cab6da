//! CDNA 4 (gfx950): Instinct MI355X.

use super::super::gpu::Gpu;
use super::super::{gbps, matrix, vec_tf};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{ComputeKind, Level, Link, Machine};

/// AMD Instinct MI355X (1400 W, liquid-cooled) at its 2400 MHz peak engine clock.
///
/// - Peaks (ROCm docs, "AMD Instinct MI350 Series microarchitecture", MI355X column, dense):
///   vector and matrix FP64 78.6 (256 CUs × 128 × 2.4 GHz = 78.64), vector and matrix FP32
///   157.3, FP16 vector 157.3, FP16/BF16 matrix 2.5 PF (256 × 4096 × 2.4 = 2516.6), FP8 5.0
///   PF, MXFP6/MXFP4 10 PF, INT8 5.0 POPs; no TF32 matrix. The printed petaflops are rounded
///   to two digits (0.7% below the per-CU arithmetic). Peak engine clock 2.4 GHz (AMD, Hot
///   Chips 2025; base: see the module doc of `amd`).
/// - Memory: 8 HBM3E stacks at 8 Gbps, "up to 8 TB/s", 288 GiB; L2 32 MiB (4 per XCD);
///   Infinity Cache 256 MiB, bandwidth not published: absent (ROCm docs). L1/LDS/L2
///   bandwidths: absent.
/// - Link: PCIe 5.0 x16 (ROCm: "one PCIe Gen 5 x16 link").
pub fn mi355x() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 78.6));
    compute.extend(vec_tf(ComputeKind::Fp32, 157.3));
    compute.extend(vec_tf(ComputeKind::Fp16, 157.3));
    compute.push(matrix(DataType::Fp16, 2500.0));
    compute.push(matrix(DataType::Bf16, 2500.0));
    compute.push(matrix(DataType::Fp8, 5000.0));
    compute.push(matrix(DataType::Fp6, 10000.0));
    compute.push(matrix(DataType::Fp4, 10000.0));
    compute.push(matrix(DataType::Fp32, 157.3));
    compute.push(matrix(DataType::Fp64, 78.6));
    compute.push(matrix(DataType::Int8, 5000.0));
    Gpu {
        id: "mi355x",
        name: "AMD Instinct MI355X",
        vendor: Vendor::Amd,
        arch: "gfx950",
        generation: "CDNA 4",
        sms: 256,
        base_mhz: 2400.0,
        boost_mhz: 2400.0,
        clock_mhz: 2400.0,
        memory_gib: 288.0,
        l2_mib: Some(32.0),
        source: "ROCm docs: MI350 Series microarchitecture, GPU specifications",
        compute,
        memory: vec![gbps("HBM3E", Level::Dram, 8000.0)],
        empirical: None,
        links: vec![Link::pcie_x16(5)],
    }
    .build()
}
