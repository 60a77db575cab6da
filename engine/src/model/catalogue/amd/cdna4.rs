//! CDNA 4 (gfx950): Instinct MI350X and MI355X, one chip at two power limits and clocks.

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

/// AMD Instinct MI350X (1000 W, air-cooled) at its 2200 MHz peak engine clock.
///
/// - Peaks (ROCm docs, "AMD Instinct MI350 Series microarchitecture", MI350X column, dense,
///   printed as 72.1 TF FP64, 2.3 PF FP16/BF16, 4.6 PF FP8/INT8, 9.2 PF MXFP6/MXFP4): the
///   MI355X's chip (256 CUs, gfx950 rates per CU per clock as in `arch.rs`) at 2.2 GHz
///   (AMD, Hot Chips 2025: "max clock 2.2 GHz" for the MI350X, 2.4 for the MI355X). Per CU
///   per clock × 256 × 2.2 GHz: FP64 vector and matrix 128 → 72.09, FP32 vector and matrix
///   256 → 144.2, FP16 vector 256 → 144.2, FP16/BF16 matrix 4096 → 2306.9, FP8 and INT8
///   8192 → 4613.7, FP6/FP4 16384 → 9227.5; no TF32 matrix.
/// - Memory: as the MI355X, 8 HBM3E stacks, "8 TB/s", 288 GiB, L2 32 MiB (4 per XCD).
///   L1/LDS/L2 bandwidths: absent.
/// - Link: PCIe 5.0 x16.
///
/// rocprof-compute names it "MI350" (`mi_gpu_spec.yaml`, chip id 30112).
pub fn mi350x() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 72.09));
    compute.extend(vec_tf(ComputeKind::Fp32, 144.2));
    compute.extend(vec_tf(ComputeKind::Fp16, 144.2));
    compute.push(matrix(DataType::Fp16, 2306.9));
    compute.push(matrix(DataType::Bf16, 2306.9));
    compute.push(matrix(DataType::Fp8, 4613.7));
    compute.push(matrix(DataType::Fp6, 9227.5));
    compute.push(matrix(DataType::Fp4, 9227.5));
    compute.push(matrix(DataType::Fp32, 144.2));
    compute.push(matrix(DataType::Fp64, 72.09));
    compute.push(matrix(DataType::Int8, 4613.7));
    Gpu {
        id: "mi350x",
        name: "AMD Instinct MI350X",
        vendor: Vendor::Amd,
        arch: "gfx950",
        generation: "CDNA 4",
        sms: 256,
        base_mhz: 2200.0,
        boost_mhz: 2200.0,
        clock_mhz: 2200.0,
        memory_gib: 288.0,
        l2_mib: Some(32.0),
        source: "ROCm docs: MI350 Series microarchitecture, GPU specifications (MI350X); AMD Hot Chips 2025 (2.2 GHz)",
        compute,
        memory: vec![gbps("HBM3E", Level::Dram, 8000.0)],
        empirical: None,
        links: vec![Link::pcie_x16(5)],
    }
    .build()
}
