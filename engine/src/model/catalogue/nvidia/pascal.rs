//! Pascal (GP100, sm_60): Tesla P100. No tensor cores; no Instruction Roofline issue model
//! (Ding & Williams define it from Volta on; a GP100 SM has two schedulers, not four).

use super::super::gpu::{at, Gpu};
use super::super::{gbps, vec_tf};
use super::nvlink;
use crate::domain::Vendor;
use crate::model::machine::{ComputeKind, Level, Link, Machine};

/// NVIDIA Tesla P100 SXM2 (NVLink) 16 GB at its 1480 MHz boost clock.
///
/// - Peaks (NVIDIA Tesla P100 data sheet, NVLink version): FP64 5.3, FP32 10.6, FP16 21.2
///   TFLOPS; 56 SMs × 64 FP64 FLOPs × 1.48 GHz = 5.30 TFLOPS. All at 1480 MHz.
/// - Clocks: base 1328, boost 1480 MHz (P100 launch specification; TechPowerUp GPU Database).
/// - Memory: HBM2 732 GB/s, 16 GiB; L2 4 MiB (data sheet; TechPowerUp: 4096 bits × 715 MHz ×
///   2 / 8 = 732.2). NVIDIA's launch table said 720 GB/s (1.4 Gb/s pins); we use 732.
/// - L1/shared/L2 bandwidths: absent (none published).
/// - Links: PCIe 3.0 x16; NVLink 1.0, 4 links × 20 GB/s per direction (data sheet "160 GB/s"
///   bidirectional).
pub fn p100() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 5.3));
    compute.extend(vec_tf(ComputeKind::Fp32, 10.6));
    compute.extend(vec_tf(ComputeKind::Fp16, 21.2));
    Gpu {
        id: "p100",
        name: "NVIDIA Tesla P100 SXM2",
        vendor: Vendor::Nvidia,
        arch: "sm_60",
        generation: "Pascal",
        sms: 56,
        base_mhz: 1328.0,
        boost_mhz: 1480.0,
        clock_mhz: 1480.0,
        memory_gib: 16.0,
        l2_mib: Some(4.0),
        source: "NVIDIA Tesla P100 data sheet; TechPowerUp GPU Database (clocks)",
        compute,
        memory: vec![gbps("HBM2", Level::Dram, 732.0)],
        empirical: None,
        links: vec![Link::pcie_x16(3), nvlink("NVLink 1.0 (4 links)", 80.0)],
    }
    .build()
}

/// NVIDIA Tesla P100 PCIe 16 GB at its 1329 MHz maximum clock.
///
/// - Peaks: the data sheet's FP64 4.7, FP32 9.3, FP16 18.7 TFLOPS are at the 1300 MHz boost
///   NVIDIA announced (56 × 64 × 1.30 GHz = 4.66); TechPowerUp lists base 1190 and boost
///   1329 MHz. Disagreement: the boost clock; we keep the higher 1329 MHz (a roof must not be
///   below what the card can do) and scale the data-sheet peaks to it (× 1329/1300).
/// - Memory: HBM2 732 GB/s (16 GB version; the 12 GB version has 549), 16 GiB; L2 4 MiB.
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 3.0 x16.
pub fn p100_pcie() -> Machine {
    let s = |tf: f64| at(tf, 1300.0, 1329.0);
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, s(4.7)));
    compute.extend(vec_tf(ComputeKind::Fp32, s(9.3)));
    compute.extend(vec_tf(ComputeKind::Fp16, s(18.7)));
    Gpu {
        id: "p100-pcie",
        name: "NVIDIA Tesla P100 PCIe 16GB",
        vendor: Vendor::Nvidia,
        arch: "sm_60",
        generation: "Pascal",
        sms: 56,
        base_mhz: 1190.0,
        boost_mhz: 1329.0,
        clock_mhz: 1329.0,
        memory_gib: 16.0,
        l2_mib: Some(4.0),
        source: "NVIDIA Tesla P100 PCIe data sheet; TechPowerUp GPU Database (clocks)",
        compute,
        memory: vec![gbps("HBM2", Level::Dram, 732.0)],
        empirical: None,
        links: vec![Link::pcie_x16(3)],
    }
    .build()
}
