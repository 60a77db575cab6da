//! Intel data-centre GPUs.

use super::gpu::Gpu;
use super::{gbps, matrix, vector};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{ComputeKind, Level, Link, Machine};
use crate::units::MEGA;

/// Intel Data Center GPU Max 1550 (Ponte Vecchio, both stacks) at its 1600 MHz peak clock.
///
/// Intel ARK (product 232873) and Glenn Klockwood's notes quoting it: 128 Xe-cores, 8 vector
/// engines (512-bit) and 8 XMX matrix engines (4096-bit) per Xe-core, 900 MHz base, 1.6 GHz
/// peak, 128 GB HBM2e at 3.2768 TB/s, 408 MB L2, PCIe 5.0 x16. All peaks at 1600 MHz: vector
/// FP64 and FP32 128 × 8 engines × 16 lanes × 2 (FMA) × 1.6 GHz = 52.4 TFLOP/s; XMX FP16/BF16
/// 128 × 8 × 256 FMA × 2 × 1.6 GHz = 838.9 TFLOP/s, TF32 half that, INT8 twice that (TOPS).
/// L1/SLM/L2 bandwidths: absent. Intel Advisor's memory levels map as SLM → Shared, L1/CARM →
/// L1, L2 → L2, GTI/HBM → DRAM.
pub fn max_1550() -> Machine {
    let clock = 1600.0 * MEGA;
    let vec_flops = 128.0 * 8.0 * 16.0 * 2.0 * clock;
    let xmx_fp16 = 128.0 * 8.0 * 256.0 * 2.0 * clock;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, vec_flops));
    compute.extend(vector("FP32", ComputeKind::Fp32, vec_flops));
    compute.push(matrix(DataType::Fp16, xmx_fp16 / 1e12));
    compute.push(matrix(DataType::Bf16, xmx_fp16 / 1e12));
    compute.push(matrix(DataType::Tf32, xmx_fp16 / 2e12));
    compute.push(matrix(DataType::Int8, 2.0 * xmx_fp16 / 1e12));
    Gpu {
        id: "max1550",
        name: "Intel Data Center GPU Max 1550",
        vendor: Vendor::Intel,
        arch: "pvc",
        generation: "Xe-HPC",
        sms: 128,
        base_mhz: 900.0,
        boost_mhz: 1600.0,
        clock_mhz: 1600.0,
        memory_gib: 128.0,
        l2_mib: Some(408.0),
        source: "Intel ARK 232873 (Data Center GPU Max 1550); Intel Xe-HPC architecture overview",
        compute,
        memory: vec![gbps("HBM2e", Level::Dram, 3276.8)],
        empirical: None,
        links: vec![Link::pcie_x16(5)],
    }
    .build()
}
