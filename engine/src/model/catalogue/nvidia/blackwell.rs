//! Blackwell data-centre GPUs (sm_100): B200 (HGX, 1000 W) and one Blackwell GPU of a GB200
//! superchip (1200 W).
//!
//! NVIDIA's Blackwell data sheet states per-GPU peaks that no single clock explains with the
//! 148 SMs a B200 reports: HGX B200 FP64 40 and FP32 80 TFLOPS need 40e12 ÷ (148 × 128) =
//! 2111 MHz, its dense FP16 2.25 PFLOPS needs 2.25e15 ÷ (148 × 8192) = 1856 MHz, and the B200
//! in the Roofline-Analysis Nsight Compute report (`shared/samples/ncu/`) reports a maximum SM
//! clock of 1965 MHz. We normalise every peak to one `clock_hz` (the data sheet's value ×
//! clock ÷ the clock it implies), so `at_clock` scales them consistently; the data-sheet
//! values come back at the clocks named above.

use super::super::gpu::{at, Gpu, UNPUBLISHED};
use super::super::{gbps, matrix, vec_tf};
use super::nvlink;
use crate::domain::{DataType, Vendor};
use crate::model::machine::{Ceiling, ComputeKind, Level, Link, Machine};

/// Blackwell compute from the data sheet's per-GPU dense values: vector and FP64 tensor stated
/// at `vector_mhz`, the other tensor types at `tensor_mhz`, all scaled to `clock_mhz`.
#[allow(clippy::too_many_arguments)]
fn gb100(clock_mhz: f64, vector_mhz: f64, tensor_mhz: f64, fp64: f64, fp32: f64, fp16: f64, tf32: f64, fp8: f64, fp4: f64) -> Vec<Ceiling> {
    let v = |tf: f64| at(tf, vector_mhz, clock_mhz);
    let t = |tf: f64| at(tf, tensor_mhz, clock_mhz);
    let mut compute = Vec::new();
    compute.extend(vec_tf(ComputeKind::Fp64, v(fp64)));
    compute.extend(vec_tf(ComputeKind::Fp32, v(fp32)));
    compute.push(matrix(DataType::Fp16, t(fp16)));
    compute.push(matrix(DataType::Bf16, t(fp16)));
    compute.push(matrix(DataType::Tf32, t(tf32)));
    compute.push(matrix(DataType::Fp8, t(fp8)));
    compute.push(matrix(DataType::Fp6, t(fp8)));
    compute.push(matrix(DataType::Fp4, t(fp4)));
    compute.push(matrix(DataType::Fp64, v(fp64)));
    compute.push(matrix(DataType::Int8, t(fp8)));
    compute
}

/// NVIDIA B200 (HGX B200, 1000 W) at the 1965 MHz maximum SM clock it reports.
///
/// - Peaks (NVIDIA Blackwell data sheet, HGX B200, per GPU, dense; as tabulated by Glenn
///   Klockwood): FP64 and FP64 tensor 40, FP32 80 TFLOPS (at 2111 MHz, see the module doc);
///   FP16/BF16 2250, TF32 1100, FP8/FP6 4500, INT8 4500 TOPS, FP4 9000 (at 1856 MHz). All
///   scaled to 1965 MHz: FP64 37.2, FP32 74.5, FP16 2382, FP4 9529. TF32 1100 is 2.2% below
///   FP16 ÷ 2 (1125), the ratio of every other NVIDIA part: kept as printed.
/// - Device (Nsight Compute attributes of a B200 in the Roofline-Analysis sample): 148 SMs,
///   1965 MHz, L2 132644864 bytes (126.5 MiB), 7680-bit bus at 3996 MHz.
/// - Memory: HBM3e. The data sheet says 8 TB/s; the device's bus gives 2 × 3996 MHz × 7680 /
///   8 = 7672 GB/s (15 of 16 HBM channels: the 180 GB of 8 × 24 GB stacks). Disagreement; we
///   use the device's 7672 GB/s. Capacity 180 GiB ("1.4 TB" for 8 GPUs; the device reports
///   191503138816 bytes).
/// - Base clock: none. NVIDIA publishes no base clock for B200; the 1856 MHz its tensor peaks
///   imply is the clock those peaks are stated at, not a clock Nsight Compute locks to.
/// - Links: the host link of HGX B200, PCIe 5.0 x16 per GPU (NVIDIA HGX B200 specifications:
///   "PCIe Gen5 x16" to the host, 63.0 GB/s per direction), and NVLink 5, "1.8 TB/s" (900 GB/s
///   per direction) between GPUs: a host↔device copy is judged against PCIe, not NVLink.
///   L1/shared/L2 bandwidths: absent.
pub fn b200() -> Machine {
    Gpu {
        id: "b200",
        name: "NVIDIA B200",
        vendor: Vendor::Nvidia,
        arch: "sm_100",
        generation: "Blackwell",
        sms: 148,
        base_mhz: UNPUBLISHED,
        boost_mhz: 1965.0,
        clock_mhz: 1965.0,
        memory_gib: 180.0,
        l2_mib: Some(132644864.0 / (1024.0 * 1024.0)),
        source: "NVIDIA Blackwell data sheet (HGX B200); B200 device attributes (SMs, clock, HBM bus, L2)",
        compute: gb100(1965.0, 2111.0, 1856.0, 40.0, 80.0, 2250.0, 1100.0, 4500.0, 9000.0),
        memory: vec![gbps("HBM3e", Level::Dram, 2.0 * 3996.0 * 7680.0 / 8.0 / 1000.0)],
        empirical: None,
        links: vec![Link::pcie_x16(5), nvlink("NVLink 5", 900.0)],
    }
    .build()
}

/// One Blackwell GPU of an NVIDIA GB200 Grace Blackwell Superchip (1200 W per GPU).
///
/// - Peaks (NVIDIA Blackwell data sheet, GB200, per GPU, dense; as tabulated by Glenn
///   Klockwood): FP64 and FP64 tensor 45, FP32 90 TFLOPS; FP16/BF16 2500, TF32 1250, FP8/FP6
///   5000, INT8 5000 TOPS, FP4 10000. With 148 SMs (hmc-tech lists 2 × 18,944 CUDA cores per
///   superchip; the B200 die pair), FP16 2500 implies 2.5e15 ÷ (148 × 8192) = 2062 MHz and
///   FP64 45 implies 45e12 ÷ (148 × 128) = 2376 MHz. NVIDIA publishes no GB200 clocks: we take
///   the tensor clock, 2062 MHz, as `clock_hz` and boost, state no base clock, and scale the
///   vector peaks to it (FP64 39.1, FP32 78.1 TFLOPS). Disagreement: the data sheet's FP64/FP32
///   are 15% above.
/// - Memory: HBM3e 8000 GB/s (GB200 NVL72: "576 TB/s" for 72 GPUs), 192 GiB (GB200 superchip
///   "384 GB" for two GPUs). L2: absent (no source).
/// - Links: NVLink-C2C to the superchip's Grace CPU, "900 GB/s" (450 per direction: the host
///   link a host↔device copy crosses), and NVLink 5, 900 GB/s per direction between GPUs.
///   L1/shared/L2 bandwidths: absent.
pub fn gb200() -> Machine {
    Gpu {
        id: "gb200",
        name: "NVIDIA GB200 (one Blackwell GPU)",
        vendor: Vendor::Nvidia,
        arch: "sm_100",
        generation: "Blackwell",
        sms: 148,
        base_mhz: UNPUBLISHED,
        boost_mhz: 2062.0,
        clock_mhz: 2062.0,
        memory_gib: 192.0,
        l2_mib: None,
        source: "NVIDIA Blackwell data sheet (GB200 NVL72); clocks implied by its tensor peaks",
        compute: gb100(2062.0, 2376.0, 2062.0, 45.0, 90.0, 2500.0, 1250.0, 5000.0, 10000.0),
        memory: vec![gbps("HBM3e", Level::Dram, 8000.0)],
        empirical: None,
        links: vec![nvlink("NVLink-C2C", 450.0), nvlink("NVLink 5", 900.0)],
    }
    .build()
}
