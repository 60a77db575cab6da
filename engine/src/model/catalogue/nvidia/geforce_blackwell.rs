//! GeForce RTX 50 series (Blackwell GB20x, sm_120; compute capability 12.0 on every model).
//!
//! NVIDIA's specifications give CUDA cores, boost and base clocks, memory and "AI TOPS": FP4
//! tensor operations with sparsity (RTX 5090: 3352 = 170 SMs × 8192 × 2.407 GHz). Per SM and
//! clock the RTX 5090's dense figures are FP4 4096, FP8 2048 (838), FP16 with FP16
//! accumulation 1024 (419; "838.4 TFLOPS" with sparsity), FP16 with FP32 accumulation and
//! BF16 512 (209.5, GeForce's half rate), TF32 256 (104.8: half BF16). The FP16 roof is the
//! FP32-accumulate rate, the FP16-accumulate one a second ceiling (`catalogue::geforce_fp16`).
//! Each card's tensor
//! peaks are its AI TOPS ÷ 2 (dense) and those ratios; FP32 is CUDA cores × 2 × boost; FP16
//! (non-tensor) equals FP32 and FP64 is 1/64 of it (TechPowerUp: "FP16 (1:1)", "FP64
//! (1:64)"). INT8 and FP6 tensor rates are not given: absent. L1/shared/L2 bandwidths:
//! absent. GeForce boost often runs above the rated boost: profile the clock.

use super::super::gpu::Gpu;
use super::super::{gbps, geforce_fp16, matrix, vec_tf};
use super::pcie5_x8;
use crate::domain::{DataType, Vendor};
use crate::model::machine::{ComputeKind, Level, Link, Machine};

struct Rtx50 {
    id: &'static str,
    name: &'static str,
    sms: u32,
    base_mhz: f64,
    boost_mhz: f64,
    /// NVIDIA's "AI TOPS" (FP4, with sparsity).
    ai_tops: f64,
    memory_gib: f64,
    l2_mib: Option<f64>,
    gbytes_per_s: f64,
    link: Link,
}

impl Rtx50 {
    fn build(self) -> Machine {
        // CUDA cores = 128 per SM.
        let fp32 = self.sms as f64 * 128.0 * 2.0 * self.boost_mhz * 1e6 / 1e12;
        let fp4 = self.ai_tops / 2.0;
        let mut compute = Vec::new();
        compute.extend(vec_tf(ComputeKind::Fp64, fp32 / 64.0));
        compute.extend(vec_tf(ComputeKind::Fp32, fp32));
        compute.extend(vec_tf(ComputeKind::Fp16, fp32));
        compute.extend(geforce_fp16(fp4 / 8.0, fp4 / 4.0));
        compute.push(matrix(DataType::Bf16, fp4 / 8.0));
        compute.push(matrix(DataType::Tf32, fp4 / 16.0));
        compute.push(matrix(DataType::Fp8, fp4 / 2.0));
        compute.push(matrix(DataType::Fp4, fp4));
        Gpu {
            id: self.id,
            name: self.name,
            vendor: Vendor::Nvidia,
            arch: "sm_120",
            generation: "Blackwell",
            sms: self.sms,
            base_mhz: self.base_mhz,
            boost_mhz: self.boost_mhz,
            clock_mhz: self.boost_mhz,
            memory_gib: self.memory_gib,
            l2_mib: self.l2_mib,
            source: "NVIDIA GeForce RTX 50 series specifications; TechPowerUp GPU Database",
            compute,
            memory: vec![gbps("GDDR7", Level::Dram, self.gbytes_per_s)],
            empirical: None,
            links: vec![self.link],
        }
        .build()
    }
}

/// GeForce RTX 5090 (GB202): 21,760 CUDA cores (170 SMs), boost 2.41 GHz (2407 MHz: 3352 AI
/// TOPS ÷ (170 × 8192)), base 2.01 GHz; 3352 AI TOPS; 32 GB GDDR7, 512 bits × 28 Gbps = 1792
/// GB/s; L2 96 MB (HardwareLuxx, TechPowerUp). FP32 104.8 TFLOPS. PCIe 5.0 x16.
pub fn rtx5090() -> Machine {
    Rtx50 {
        id: "rtx5090",
        name: "NVIDIA GeForce RTX 5090",
        sms: 170,
        base_mhz: 2010.0,
        boost_mhz: 2407.0,
        ai_tops: 3352.0,
        memory_gib: 32.0,
        l2_mib: Some(96.0),
        gbytes_per_s: 1792.0,
        link: Link::pcie_x16(5),
    }
    .build()
}

/// GeForce RTX 5080 (GB203): 10,752 CUDA cores (84 SMs), boost 2.62 GHz (2617 MHz: 1801 ÷
/// (84 × 8192)), base 2.30 GHz; 1801 AI TOPS; 16 GB GDDR7, 256 bits × 30 Gbps = 960 GB/s; L2
/// 64 MB (HardwareLuxx). PCIe 5.0 x16.
pub fn rtx5080() -> Machine {
    Rtx50 {
        id: "rtx5080",
        name: "NVIDIA GeForce RTX 5080",
        sms: 84,
        base_mhz: 2300.0,
        boost_mhz: 2617.0,
        ai_tops: 1801.0,
        memory_gib: 16.0,
        l2_mib: Some(64.0),
        gbytes_per_s: 960.0,
        link: Link::pcie_x16(5),
    }
    .build()
}

/// GeForce RTX 5070 Ti (GB203): 8,960 CUDA cores (70 SMs), boost 2.45 GHz (2452 MHz: 1406 ÷
/// (70 × 8192)), base 2.30 GHz; 1406 AI TOPS; 16 GB GDDR7, 256 bits × 28 Gbps = 896 GB/s. L2:
/// no source found, absent. PCIe 5.0 x16.
pub fn rtx5070ti() -> Machine {
    Rtx50 {
        id: "rtx5070ti",
        name: "NVIDIA GeForce RTX 5070 Ti",
        sms: 70,
        base_mhz: 2300.0,
        boost_mhz: 2452.0,
        ai_tops: 1406.0,
        memory_gib: 16.0,
        l2_mib: None,
        gbytes_per_s: 896.0,
        link: Link::pcie_x16(5),
    }
    .build()
}

/// GeForce RTX 5070 (GB205): 6,144 CUDA cores (48 SMs), boost 2.51 GHz (2512 MHz: 988 ÷ (48 ×
/// 8192)), base 2.16 GHz (NVIDIA; TechPowerUp lists 2325 MHz: we use NVIDIA's); 988 AI TOPS;
/// 12 GB GDDR7, 192 bits × 28 Gbps = 672 GB/s; L2 48 MB (TechPowerUp). PCIe 5.0 x16.
pub fn rtx5070() -> Machine {
    Rtx50 {
        id: "rtx5070",
        name: "NVIDIA GeForce RTX 5070",
        sms: 48,
        base_mhz: 2160.0,
        boost_mhz: 2512.0,
        ai_tops: 988.0,
        memory_gib: 12.0,
        l2_mib: Some(48.0),
        gbytes_per_s: 672.0,
        link: Link::pcie_x16(5),
    }
    .build()
}

/// GeForce RTX 5060 Ti 16 GB (GB206): 4,608 CUDA cores (36 SMs), boost 2572, base 2407 MHz;
/// GDDR7 128 bits × 28 Gbps = 448 GB/s (an 8 GB version has the same bandwidth); L2 32 MB
/// (TechPowerUp). Its AI TOPS were not found: computed as 36 × 8192 × 2.572 GHz = 758.5 (the
/// sm_120 rate of the four cards above, each within 0.1% of its published AI TOPS). PCIe 5.0
/// x8.
pub fn rtx5060ti() -> Machine {
    Rtx50 {
        id: "rtx5060ti",
        name: "NVIDIA GeForce RTX 5060 Ti",
        sms: 36,
        base_mhz: 2407.0,
        boost_mhz: 2572.0,
        ai_tops: 36.0 * 8192.0 * 2.572e9 / 1e12,
        memory_gib: 16.0,
        l2_mib: Some(32.0),
        gbytes_per_s: 448.0,
        link: pcie5_x8(),
    }
    .build()
}

/// GeForce RTX 5060 (GB206): 3,840 CUDA cores (30 SMs), boost 2497, base 2280 MHz; 8 GB GDDR7,
/// 128 bits × 28 Gbps = 448 GB/s. AI TOPS computed as for [`rtx5060ti`]: 30 × 8192 × 2.497 GHz
/// = 613.7. L2: no source found, absent. PCIe 5.0 x8.
pub fn rtx5060() -> Machine {
    Rtx50 {
        id: "rtx5060",
        name: "NVIDIA GeForce RTX 5060",
        sms: 30,
        base_mhz: 2280.0,
        boost_mhz: 2497.0,
        ai_tops: 30.0 * 8192.0 * 2.497e9 / 1e12,
        memory_gib: 8.0,
        l2_mib: None,
        gbytes_per_s: 448.0,
        link: pcie5_x8(),
    }
    .build()
}
