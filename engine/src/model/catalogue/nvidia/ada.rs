//! Ada Lovelace (AD10x, sm_89): L4, L40, L40S (data centre) and GeForce RTX 4090. The L4 and
//! L40S run FP32-accumulate tensor work (BF16, TF32) at full rate; GeForce at half, and the
//! L40 at half for every tensor type (its data sheet: FP16 181.05 dense where the L40S, the same
//! 142 SMs, has 366.5).

use super::super::gpu::Gpu;
use super::super::{gbps, geforce_fp16, matrix, vec_tf};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{ComputeKind, Level, Link, Machine};

/// NVIDIA L4 (AD104, 24 GB GDDR6, 72 W) at its 2040 MHz boost clock.
///
/// - Peaks (NVIDIA L4 data sheet; its tensor values are "with sparsity", halved here), all at
///   2040 MHz: FP32 30.3 TFLOPS (58 SMs × 256 × 2.04 GHz = 30.29); TF32 120 → 60; FP16 and
///   BF16 242 → 121 (58 × 1024 × 2.04 = 121.2); FP8 485 → 242.5; INT8 485 → 242.5 TOPS. Not in
///   the data sheet: FP64 at 1/64 of FP32 (0.473 TFLOPS, TechPowerUp) and FP16 (non-tensor)
///   at the FP32 rate (AD10x SM).
/// - Clocks: base 795, boost 2040 MHz (TechPowerUp GPU Database).
/// - Memory: GDDR6 300 GB/s, 24 GiB; L2 48 MiB (TechPowerUp).
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 4.0 x16.
pub fn l4() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 30.3 / 64.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 30.3));
    compute.extend(vec_tf(ComputeKind::Fp16, 30.3));
    compute.push(matrix(DataType::Fp16, 121.0));
    compute.push(matrix(DataType::Bf16, 121.0));
    compute.push(matrix(DataType::Tf32, 60.0));
    compute.push(matrix(DataType::Fp8, 242.5));
    compute.push(matrix(DataType::Int8, 242.5));
    Gpu {
        id: "l4",
        name: "NVIDIA L4",
        vendor: Vendor::Nvidia,
        arch: "sm_89",
        generation: "Ada Lovelace",
        sms: 58,
        base_mhz: 795.0,
        boost_mhz: 2040.0,
        clock_mhz: 2040.0,
        memory_gib: 24.0,
        l2_mib: Some(48.0),
        source: "NVIDIA L4 data sheet; TechPowerUp GPU Database (clocks, FP64)",
        compute,
        memory: vec![gbps("GDDR6", Level::Dram, 300.0)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}

/// NVIDIA L40S (AD102, 48 GB GDDR6, 350 W) at its 2520 MHz boost clock.
///
/// - Peaks (NVIDIA L40S data sheet), all at 2520 MHz: FP32 91.6 TFLOPS (142 SMs × 256 × 2.52
///   GHz = 91.6); TF32 183 (366 sparse); FP8 733 (1466 sparse; 142 × 2048 × 2.52 = 732.9).
///   FP16/BF16: the data sheet prints 362.05 dense but 733 sparse; 362.05 = 142 × 1024 × 2.49
///   GHz, the L40's boost clock, while 733 ÷ 2 = 366.5 = 142 × 1024 × 2.52 GHz. Disagreement;
///   we use 366.5, consistent with the sparse value, TF32 and FP8 at 2520 MHz. INT8: the data
///   sheet's "Peak INT8 Tensor TOPS" 1466 is with sparsity, 733 dense (142 × 2048 × 2.52 GHz =
///   732.9, as FP8). Not in the data sheet: FP64 at 1/64 of FP32 (1.43 TFLOPS, TechPowerUp) and
///   FP16 (non-tensor) at the FP32 rate.
/// - Clocks: base 1110, boost 2520 MHz (TechPowerUp GPU Database).
/// - Memory: GDDR6 864 GB/s, 48 GiB. L2 96 MiB: AD102 with all 12 memory controllers, as
///   TechPowerUp lists for the L40 (142 SMs, 384 bits); its L40S page says 48 MB. Disagreement;
///   we use 96 MiB.
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 4.0 x16.
pub fn l40s() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 91.6 / 64.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 91.6));
    compute.extend(vec_tf(ComputeKind::Fp16, 91.6));
    compute.push(matrix(DataType::Fp16, 733.0 / 2.0));
    compute.push(matrix(DataType::Bf16, 733.0 / 2.0));
    compute.push(matrix(DataType::Tf32, 183.0));
    compute.push(matrix(DataType::Fp8, 733.0));
    compute.push(matrix(DataType::Int8, 733.0));
    Gpu {
        id: "l40s",
        name: "NVIDIA L40S",
        vendor: Vendor::Nvidia,
        arch: "sm_89",
        generation: "Ada Lovelace",
        sms: 142,
        base_mhz: 1110.0,
        boost_mhz: 2520.0,
        clock_mhz: 2520.0,
        memory_gib: 48.0,
        l2_mib: Some(96.0),
        source: "NVIDIA L40S data sheet; TechPowerUp GPU Database (clocks, FP64, L2)",
        compute,
        memory: vec![gbps("GDDR6", Level::Dram, 864.0)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}

/// NVIDIA L40 (AD102, 48 GB GDDR6, 300 W) at its 2490 MHz boost clock: the L40S's 142 SMs
/// with every tensor type at half the L40S's per-SM rate.
///
/// - Peaks (NVIDIA L40 data sheet; tensor values dense, the asterisked sparse ones halved), all
///   at 2490 MHz: FP32 90.5 TFLOPS (142 × 256 × 2.49 GHz = 90.5); TF32 90.5; FP16 and BF16
///   181.05 (142 × 512 × 2.49 = 181.0); FP8 362; INT8 362 TOPS. Not in the data sheet: FP64 at
///   1/64 of FP32 (1.41 TFLOPS) and FP16 (non-tensor) at the FP32 rate (TechPowerUp).
/// - Clocks: base 735, boost 2490 MHz (TechPowerUp GPU Database).
/// - Memory: GDDR6 864 GB/s, 48 GiB; L2 96 MiB (TechPowerUp).
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 4.0 x16.
pub fn l40() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 90.5 / 64.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 90.5));
    compute.extend(vec_tf(ComputeKind::Fp16, 90.5));
    compute.push(matrix(DataType::Fp16, 181.05));
    compute.push(matrix(DataType::Bf16, 181.05));
    compute.push(matrix(DataType::Tf32, 90.5));
    compute.push(matrix(DataType::Fp8, 362.0));
    compute.push(matrix(DataType::Int8, 362.0));
    Gpu {
        id: "l40",
        name: "NVIDIA L40",
        vendor: Vendor::Nvidia,
        arch: "sm_89",
        generation: "Ada Lovelace",
        sms: 142,
        base_mhz: 735.0,
        boost_mhz: 2490.0,
        clock_mhz: 2490.0,
        memory_gib: 48.0,
        l2_mib: Some(96.0),
        source: "NVIDIA L40 data sheet; TechPowerUp GPU Database (clocks, FP64, L2)",
        compute,
        memory: vec![gbps("GDDR6", Level::Dram, 864.0)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}

/// NVIDIA GeForce RTX 4090 (AD102, 24 GB GDDR6X) at its 2520 MHz boost clock.
///
/// - Peaks (NVIDIA Ada Lovelace whitepaper, RTX 4090 appendix; dense), all at 2520 MHz: FP32
///   82.6 TFLOPS (128 SMs × 256 × 2.52 GHz = 82.58), FP16 (non-tensor) 82.6, FP64 1/64 of FP32
///   (1.29); tensor FP16 with FP32 accumulation 165.2 (GeForce's half rate) and with FP16
///   accumulation 330.3, BF16 165.2, TF32 82.6, FP8 660.6, INT8 660.6 TOPS. The FP16 roof is the
///   FP32-accumulate rate, as Nsight Compute's FP16 path peak on this card; the FP16-accumulate
///   rate is the second FP16 ceiling ([`super::super::FP16_ACCUMULATE`]).
/// - Clocks: base 2235, boost 2520 MHz (NVIDIA; the CudaProgramming Nsight Compute report
///   shows `max_gpu_frequency` 2520 MHz). GeForce boost often runs above the rated boost:
///   profile the clock (the measured clock rescales the roofs).
/// - Memory: GDDR6X 1008 GB/s (384 bits × 10501 MHz × 2 / 8 = 1008.1), 24 GiB; L2 72 MiB
///   (device attribute 75497472).
/// - L1/shared/L2 bandwidths: absent. Link: PCIe 4.0 x16.
pub fn rtx4090() -> Machine {
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, 82.6 / 64.0));
    compute.extend(vec_tf(ComputeKind::Fp32, 82.6));
    compute.extend(vec_tf(ComputeKind::Fp16, 82.6));
    compute.extend(geforce_fp16(165.2, 330.3));
    compute.push(matrix(DataType::Bf16, 165.2));
    compute.push(matrix(DataType::Tf32, 82.6));
    compute.push(matrix(DataType::Fp8, 660.6));
    compute.push(matrix(DataType::Int8, 660.6));
    Gpu {
        id: "rtx4090",
        name: "NVIDIA GeForce RTX 4090",
        vendor: Vendor::Nvidia,
        arch: "sm_89",
        generation: "Ada Lovelace",
        sms: 128,
        base_mhz: 2235.0,
        boost_mhz: 2520.0,
        clock_mhz: 2520.0,
        memory_gib: 24.0,
        l2_mib: Some(72.0),
        source: "NVIDIA Ada Lovelace GPU architecture whitepaper (RTX 4090)",
        compute,
        memory: vec![gbps("GDDR6X", Level::Dram, 1008.0)],
        empirical: None,
        links: vec![Link::pcie_x16(4)],
    }
    .build()
}
