//! NVIDIA data-centre GPUs.

use super::{finish, gbps, matrix, set, tflops, vector};
use crate::domain::{DataType, Vendor};
use crate::model::machine::{ComputeKind, Issue, Level, Link, Machine, TransactionSizes};
use crate::units::{GIGA, MEGA};

/// Four warp schedulers per SM, one warp instruction per scheduler per cycle, 32 threads per
/// warp: Volta, Ampere and Hopper SMs alike (Ding & Williams §III-A for GV100; NVIDIA A100 and
/// H100 whitepapers, "four processing blocks per SM").
fn sm_issue(sms: u32) -> Option<Issue> {
    Some(Issue { compute_units: sms, schedulers_per_unit: 4, inst_per_cycle_per_scheduler: 1.0, threads_per_warp: 32 })
}

/// NVIDIA Tesla V100 SXM2 (16/32 GB), at its 1530 MHz boost clock.
///
/// - Issue: 80 SMs × 4 schedulers × 1 inst/cycle × 1.53 GHz = 489.6 warp GIPS (Ding &
///   Williams 2019, §III-A).
/// - Compute (NVIDIA Tesla V100 whitepaper / data sheet "7.8 / 15.7 / 125 TFLOPS"): FP64
///   80 SMs × 32 FP64 lanes × 2 FLOP (FMA) × 1.53 GHz = 7833.6 GFLOP/s; FP32 twice that
///   (64 lanes); FP16 (non-tensor, half2) twice FP32; Tensor 125 TFLOP/s (paper §IV-E, with
///   512 FLOPs per HMMA.884 → 244 HMMA GIPS); INT32 80 × 64 lanes × 1.53 GHz.
/// - Memory, theoretical: HBM2 900 GB/s (data sheet; the GPU course's "∼900 GB/s").
/// - Memory, empirical (Ding & Williams §III-A, measured with Yang et al.'s methodology):
///   L1 14000, L2 2996, HBM 828 GB/s → 437.5 / 93.6 / 25.9 GTXN/s at 32 bytes. Shared memory
///   is the same unified L1/shared array: 14000 GB/s / 128-byte transactions = 109.4 GTXN/s,
///   the paper's shared ceiling.
/// - Clocks: boost 1530 MHz; base 1312 MHz, the default application clock Nsight Compute
///   locks to (`--clock-control base`), at which FP64 peak / 900 GB/s = 7.46 FLOP/byte, the
///   "machine balance point for the V100 in double-precision … 7.5" of the Nsight Compute
///   roofline post.
/// - Links: PCIe 3.0 x16 (15.75 GB/s per direction); NVLink 2.0, 6 links × 25 GB/s per
///   direction (V100 whitepaper: 300 GB/s total).
pub fn v100() -> Machine {
    let clock = 1530.0 * MEGA;
    let fp64 = 80.0 * 32.0 * 2.0 * clock;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
    compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
    compute.extend(vector("FP16", ComputeKind::Fp16, 4.0 * fp64));
    compute.push(matrix(DataType::Fp16, 125.0));
    compute.push(tflops("INT32", ComputeKind::Int, 80.0 * 64.0 * clock / 1e12));
    finish(Machine {
        id: "v100".into(),
        vendor: Some(Vendor::Nvidia),
        arch: Some("sm_70".into()),
        generation: Some("Volta".into()),
        sm_count: Some(80),
        memory_bytes: Some(16e9),
        name: "NVIDIA V100 SXM2 (1530 MHz)".into(),
        source: "Ding & Williams 2019 (empirical L1/L2/HBM bandwidths, issue model); NVIDIA V100 whitepaper and data sheet (peaks)".into(),
        flops_per_tensor_inst: Some(512.0),
        clock_hz: Some(clock),
        base_clock_hz: Some(1312.0 * MEGA),
        boost_clock_hz: Some(clock),
        issue: sm_issue(80),
        transaction_bytes: Some(TransactionSizes::NVIDIA),
        theoretical: set("NVIDIA Tesla V100 whitepaper / SXM2 data sheet", compute, vec![gbps("HBM", Level::Dram, 900.0)]),
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
        links: vec![Link::pcie_x16(3), Link { name: "NVLink 2.0 (6 links)".into(), bytes_per_s: 150.0 * GIGA }],
        ..Default::default()
    })
}

/// NVIDIA Tesla V100 PCIe (16 GB), at its 1380 MHz boost clock: the GPU of the GPU course's
/// roofline slides ("∼7 000 GFlops", "∼14 000" FP32, "∼112 000" half/tensor, "∼900 GB/s",
/// optimal intensity "∼7.7 Flop/Byte").
///
/// NVIDIA V100 PCIe data sheet: 7 TFLOPS FP64, 14 FP32, 112 tensor, 900 GB/s HBM2, boost
/// 1380 MHz, base 1245 MHz. Per-clock: 80 SMs × 32 FP64 lanes × 2 × 1.38 GHz = 7065.6
/// GFLOP/s (the data sheet rounds to 7). No measured values are cited for this card.
pub fn v100_pcie() -> Machine {
    let clock = 1380.0 * MEGA;
    let fp64 = 80.0 * 32.0 * 2.0 * clock;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
    compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
    compute.extend(vector("FP16", ComputeKind::Fp16, 4.0 * fp64));
    compute.push(matrix(DataType::Fp16, 112.0));
    compute.push(tflops("INT32", ComputeKind::Int, 80.0 * 64.0 * clock / 1e12));
    finish(Machine {
        id: "v100-pcie".into(),
        vendor: Some(Vendor::Nvidia),
        arch: Some("sm_70".into()),
        generation: Some("Volta".into()),
        sm_count: Some(80),
        memory_bytes: Some(16e9),
        name: "NVIDIA V100 PCIe (1380 MHz)".into(),
        source: "NVIDIA Tesla V100 PCIe data sheet; GPU course roofline slides".into(),
        flops_per_tensor_inst: Some(512.0),
        clock_hz: Some(clock),
        base_clock_hz: Some(1245.0 * MEGA),
        boost_clock_hz: Some(clock),
        issue: sm_issue(80),
        transaction_bytes: Some(TransactionSizes::NVIDIA),
        theoretical: set("NVIDIA Tesla V100 PCIe data sheet", compute, vec![gbps("HBM", Level::Dram, 900.0)]),
        links: vec![Link::pcie_x16(3)],
        ..Default::default()
    })
}

/// NVIDIA A100 SXM4 80 GB, at its 1410 MHz boost clock.
///
/// NVIDIA A100 data sheet (and Glenn Klockwood's A100 notes, which quote it): FP64 9.7,
/// FP64 Tensor 19.5, FP32 19.5, TF32 Tensor 156, FP16/BF16 Tensor 312, INT8 Tensor 624 TOPS
/// (dense); HBM2e 2039 GB/s (80 GB; 1555 GB/s for the 40 GB part). 108 SMs: FP64 108 × 32 ×
/// 2 × 1.41 GHz = 9746 GFLOP/s; FP16 (non-tensor) 4 × FP32 = 78 TFLOP/s; INT32 108 × 64 ×
/// 1.41 GHz. Links: PCIe 4.0 x16; NVLink 3, 300 GB/s per direction ("300+300 GB/s").
///
/// FLOPs per tensor instruction are left unset: they depend on the MMA shape (HMMA.16816 does
/// 4096, HMMA.1688 2048), so profile tensor FLOPs directly on Ampere and later.
pub fn a100() -> Machine {
    let clock = 1410.0 * MEGA;
    let fp64 = 108.0 * 32.0 * 2.0 * clock;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
    compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
    compute.extend(vector("FP16", ComputeKind::Fp16, 8.0 * fp64));
    compute.push(matrix(DataType::Fp16, 312.0));
    compute.push(matrix(DataType::Bf16, 312.0));
    compute.push(matrix(DataType::Tf32, 156.0));
    compute.push(matrix(DataType::Fp64, 19.5));
    compute.push(matrix(DataType::Int8, 624.0));
    compute.push(tflops("INT32", ComputeKind::Int, 108.0 * 64.0 * clock / 1e12));
    finish(Machine {
        id: "a100".into(),
        vendor: Some(Vendor::Nvidia),
        arch: Some("sm_80".into()),
        generation: Some("Ampere".into()),
        sm_count: Some(108),
        memory_bytes: Some(80e9),
        name: "NVIDIA A100 SXM4 80GB (1410 MHz)".into(),
        source: "NVIDIA A100 data sheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf); NVIDIA Ampere whitepaper".into(),
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        issue: sm_issue(108),
        transaction_bytes: Some(TransactionSizes::NVIDIA),
        theoretical: set("NVIDIA A100 data sheet", compute, vec![gbps("HBM2e", Level::Dram, 2039.0)]),
        links: vec![Link::pcie_x16(4), Link { name: "NVLink 3".into(), bytes_per_s: 300.0 * GIGA }],
        ..Default::default()
    })
}

/// The compute of an H100/H200 SXM (both GH100 with 132 SMs): NVIDIA H100 data sheet and
/// Glenn Klockwood's H100 table (dense): FP64 33.5 (data sheet "34"), FP64 Tensor 66.9, FP32
/// 66.9, FP16 133.8 (non-tensor), Tensor FP16/BF16 989.4, TF32 494.7, FP8 1978.9, INT32 33.5
/// TOPS. Vector peaks are at 1.98 GHz (132 × 64 FP64 lanes × 2 × 1.98 GHz = 33.45 TFLOP/s);
/// NVIDIA computes the tensor peaks at 1.83 GHz, so [`Machine::at_clock`] scales them from
/// 1.98 GHz only approximately.
fn gh100_compute() -> Vec<crate::model::Ceiling> {
    let clock = 1980.0 * MEGA;
    let fp64 = 132.0 * 64.0 * 2.0 * clock;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
    compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
    compute.extend(vector("FP16", ComputeKind::Fp16, 4.0 * fp64));
    compute.push(matrix(DataType::Fp16, 989.4));
    compute.push(matrix(DataType::Bf16, 989.4));
    compute.push(matrix(DataType::Tf32, 494.7));
    compute.push(matrix(DataType::Fp8, 1978.9));
    compute.push(matrix(DataType::Fp64, 66.9));
    compute.push(tflops("INT32", ComputeKind::Int, 132.0 * 64.0 * clock / 1e12));
    compute
}

fn gh100(id: &str, name: &str, source: &str, hbm: (&str, f64), memory_bytes: f64) -> Machine {
    let clock = 1980.0 * MEGA;
    finish(Machine {
        id: id.into(),
        name: name.into(),
        source: source.into(),
        vendor: Some(Vendor::Nvidia),
        arch: Some("sm_90".into()),
        generation: Some("Hopper".into()),
        sm_count: Some(132),
        memory_bytes: Some(memory_bytes),
        clock_hz: Some(clock),
        boost_clock_hz: Some(clock),
        issue: sm_issue(132),
        transaction_bytes: Some(TransactionSizes::NVIDIA),
        theoretical: set(source, gh100_compute(), vec![gbps(hbm.0, Level::Dram, hbm.1)]),
        links: vec![Link::pcie_x16(5), Link { name: "NVLink 4".into(), bytes_per_s: 450.0 * GIGA }],
        ..Default::default()
    })
}

/// NVIDIA H100 SXM5 80 GB at its 1980 MHz boost clock: compute as [`gh100_compute`], HBM3
/// 3350 GB/s, PCIe 5.0 x16 ("128 GB/s" both directions), NVLink 4 "900 GB/s" (450 per
/// direction). FLOPs per tensor instruction unset (see [`a100`]). H100 data sheet.
pub fn h100() -> Machine {
    gh100("h100", "NVIDIA H100 SXM5 80GB (1980 MHz)", "NVIDIA H100 data sheet; Glenn Klockwood's H100 notes", ("HBM3", 3350.0), 80e9)
}

/// NVIDIA H200 SXM 141 GB: the H100's GH100 compute with HBM3e at 4800 GB/s (NVIDIA H200 data
/// sheet: "same … compute", "4.8 TB/s").
pub fn h200() -> Machine {
    gh100("h200", "NVIDIA H200 SXM 141GB (1980 MHz)", "NVIDIA H200 data sheet; H100 data sheet (compute)", ("HBM3e", 4800.0), 141e9)
}
