//! Volta (GV100, sm_70): Tesla V100. The GPU of Ding & Williams' Instruction Roofline paper
//! and of the GPU course; its values pin the reference numbers of `model_reference_numbers`.

use super::super::gpu::Gpu;
use super::super::{gbps, matrix, set, tflops, vector};
use super::nvlink;
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine};
use crate::units::MEGA;

/// V100 compute at `mhz`, per SM and clock: 80 SMs × 32 FP64 lanes × 2 (FMA); FP32 twice that
/// (64 lanes); FP16 (non-tensor, half2) twice FP32; INT32 80 × 64 lanes × 2 (an IMAD counted
/// as 2 operations, as the A100 whitepaper's comparison table counts V100's "15.7 INT32
/// TOPS"); then the tensor peak.
fn gv100(mhz: f64, tensor_tflops: f64) -> Vec<Ceiling> {
    let clock = mhz * MEGA;
    let fp64 = 80.0 * 32.0 * 2.0 * clock;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
    compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
    compute.extend(vector("FP16", ComputeKind::Fp16, 4.0 * fp64));
    compute.push(matrix(DataType::Fp16, tensor_tflops));
    compute.push(tflops("INT32", ComputeKind::Int, 80.0 * 64.0 * 2.0 * clock / 1e12));
    compute
}

/// NVIDIA Tesla V100 SXM2 (16 GB; the 32 GB part has the same peaks), at its 1530 MHz boost.
///
/// - Issue: 80 SMs × 4 schedulers × 1 inst/cycle × 1.53 GHz = 489.6 warp GIPS (Ding &
///   Williams 2019, §III-A).
/// - Compute (NVIDIA Tesla V100 whitepaper / data sheet "7.8 / 15.7 / 125 TFLOPS"), all at
///   1530 MHz: FP64 80 × 32 × 2 × 1.53 GHz = 7833.6 GFLOP/s; FP32 15.7; FP16 (half2) 31.3;
///   FP16 tensor 125 TFLOPS (= 80 × 1024 × 1.53 GHz; paper §IV-E, 512 FLOPs per HMMA.884 →
///   244 HMMA GIPS); INT32 15.7 TOPS, IMAD = 2 (80 × 64 × 2 × 1.53 GHz).
/// - Memory, theoretical: HBM2 900 GB/s (data sheet), 16 GiB; L2 6 MiB.
/// - Memory, empirical (Ding & Williams §III-A): L1 14000, L2 2996, HBM 828 GB/s → 437.5 /
///   93.6 / 25.9 GTXN/s at 32 bytes. Shared memory is the same unified L1/shared array: 14000
///   GB/s / 128-byte transactions = 109.4 GTXN/s, the paper's shared ceiling. No data-sheet
///   L1/L2 bandwidth: the measured ones are the only ones.
/// - Clocks: boost 1530 MHz; base 1312 MHz, the default application clock Nsight Compute
///   locks to (`--clock-control base`), at which FP64 peak / 900 GB/s = 7.46 FLOP/byte, the
///   "machine balance point for the V100 in double-precision … 7.5" of the Nsight Compute
///   roofline post.
/// - Links: PCIe 3.0 x16 (15.75 GB/s per direction); NVLink 2.0, 6 links × 25 GB/s per
///   direction (V100 whitepaper: 300 GB/s total).
pub fn v100() -> Machine {
    Gpu {
        id: "v100",
        name: "NVIDIA V100 SXM2",
        vendor: Vendor::Nvidia,
        arch: "sm_70",
        generation: "Volta",
        sms: 80,
        base_mhz: 1312.0,
        boost_mhz: 1530.0,
        clock_mhz: 1530.0,
        memory_gib: 16.0,
        l2_mib: Some(6.0),
        source: "Ding & Williams 2019 (empirical L1/L2/HBM bandwidths, issue model); NVIDIA V100 whitepaper and data sheet (peaks)",
        compute: gv100(1530.0, 125.0),
        memory: vec![gbps("HBM", Level::Dram, 900.0)],
        empirical: set(
            "Ding & Williams 2019, §III-A",
            vec![],
            vec![
                gbps("L1", Level::L1, 14000.0),
                gbps("Shared", Level::Shared, 14000.0),
                gbps("L2", Level::L2, 2996.0),
                gbps("HBM", Level::Dram, 828.0),
            ],
        ),
        links: vec![Link::pcie_x16(3), nvlink("NVLink 2.0 (6 links)", 150.0)],
    }
    .build()
}

/// NVIDIA Tesla V100 PCIe (16 GB), at its 1380 MHz boost clock: the GPU of the GPU course's
/// roofline slides ("∼7 000 GFlops", "∼14 000" FP32, "∼112 000" half/tensor, "∼900 GB/s",
/// optimal intensity "∼7.7 Flop/Byte").
///
/// NVIDIA V100 PCIe data sheet: 7 TFLOPS FP64, 14 FP32, 112 tensor, 900 GB/s HBM2, boost
/// 1380 MHz, base 1245 MHz (TechPowerUp agrees). Per clock, all at 1380 MHz: 80 SMs × 32 FP64
/// lanes × 2 × 1.38 GHz = 7065.6 GFLOP/s (the data sheet rounds to 7); tensor 112 (80 × 1024 ×
/// 1.38 GHz = 113.0; the data sheet's 112 kept); INT32 80 × 64 × 2 × 1.38 GHz (IMAD = 2).
/// 16 GiB, L2 6 MiB. No measured values are cited for this card. Link: PCIe 3.0 x16.
pub fn v100_pcie() -> Machine {
    Gpu {
        id: "v100-pcie",
        name: "NVIDIA V100 PCIe",
        vendor: Vendor::Nvidia,
        arch: "sm_70",
        generation: "Volta",
        sms: 80,
        base_mhz: 1245.0,
        boost_mhz: 1380.0,
        clock_mhz: 1380.0,
        memory_gib: 16.0,
        l2_mib: Some(6.0),
        source: "NVIDIA Tesla V100 PCIe data sheet; GPU course roofline slides",
        compute: gv100(1380.0, 112.0),
        memory: vec![gbps("HBM", Level::Dram, 900.0)],
        empirical: None,
        links: vec![Link::pcie_x16(3)],
    }
    .build()
}
