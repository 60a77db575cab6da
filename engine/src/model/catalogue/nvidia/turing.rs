//! Turing (TU104, sm_75): NVIDIA T4.

use super::super::gpu::Gpu;
use super::super::{gbps, matrix, vec_tf};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{ComputeKind, Level, Link, Machine};

/// NVIDIA T4 (16 GB GDDR6, 70 W) at its 1590 MHz boost clock.
///
/// - Peaks (NVIDIA T4 data sheet), all at 1590 MHz: FP32 8.1 TFLOPS (40 SMs × 128 × 1.59 GHz
///   = 8.14); FP16 mixed-precision tensor 65 (40 × 1024 × 1.59 = 65.1); INT8 130 TOPS (INT4
///   260 has no roof here). Not in the data sheet: FP64 at 1/32 of FP32, 0.254 TFLOPS, and
///   FP16 (non-tensor) at twice FP32, 16.2 TFLOPS (Turing SM; TechPowerUp lists FP64 254.4
///   GFLOPS).
/// - Clocks: base 585, boost 1590 MHz (TechPowerUp GPU Database; the T4 reports 1590 MHz as
///   `max_gpu_frequency` in the cuda-mlp-inference Nsight Compute report).
/// - Memory: GDDR6 320 GB/s (256 bits × 5001 MHz × 2 / 8 = 320.06, the data sheet's "320+");
///   16 GiB; L2 4 MiB (device attribute 4194304).
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 3.0 x16.
pub fn t4() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 8.1 / 32.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 8.1));
    compute.extend(vec_tf(ComputeKind::Fp16, 2.0 * 8.1));
    compute.push(matrix(DataType::Fp16, 65.0));
    compute.push(matrix(DataType::Int8, 130.0));
    Gpu {
        id: "t4",
        name: "NVIDIA T4",
        vendor: Vendor::Nvidia,
        arch: "sm_75",
        generation: "Turing",
        sms: 40,
        base_mhz: 585.0,
        boost_mhz: 1590.0,
        clock_mhz: 1590.0,
        memory_gib: 16.0,
        l2_mib: Some(4.0),
        source: "NVIDIA T4 data sheet; TechPowerUp GPU Database (clocks)",
        compute,
        memory: vec![gbps("GDDR6", Level::Dram, 320.0)],
        empirical: None,
        links: vec![Link::pcie_x16(3)],
    }
    .build()
}
