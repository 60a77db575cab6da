//! Machines with published peaks. Every number cites its source.

use super::machine::{Ceiling, ComputeKind, Level, Machine, MemoryLevel};
use crate::units::GIGA;

fn ceiling(name: &str, kind: ComputeKind, gflops_per_s: f64) -> Ceiling {
    Ceiling { name: name.into(), kind, flops_per_s: gflops_per_s * GIGA }
}

fn memory(name: &str, level: Level, gbytes_per_s: f64) -> MemoryLevel {
    MemoryLevel { name: name.into(), level, bytes_per_s: gbytes_per_s * GIGA }
}

/// NVIDIA Tesla V100 SXM2 at its 1530 MHz boost clock.
///
/// Bandwidths are the empirical values of Ding & Williams (2019), §IV (L1 14000, L2 2996,
/// HBM 828 GB/s). Compute peaks: 80 SMs × 64 FP32 lanes × 2 × 1.53 GHz = 15.7 TFLOP/s FP32,
/// half that for FP64 (7.8 TFLOP/s; the GPU course's slides round to "∼7 000 GFlops" and
/// "∼900 GB/s" theoretical HBM), tensor 125 TFLOP/s (paper §IV-D; 512 FLOPs per HMMA.884).
pub fn v100() -> Machine {
    Machine {
        id: "v100".into(),
        name: "NVIDIA V100 SXM2 (1530 MHz)".into(),
        source: "Ding & Williams 2019 (empirical bandwidths); NVIDIA V100 whitepaper (peaks)".into(),
        compute: vec![
            ceiling("FP64", ComputeKind::Fp64, 7833.6),
            ceiling("FP32", ComputeKind::Fp32, 15667.2),
            ceiling("FP16", ComputeKind::Fp16, 31334.4),
            ceiling("Tensor", ComputeKind::Tensor, 125000.0),
        ],
        memory: vec![
            memory("L1", Level::L1, 14000.0),
            memory("L2", Level::L2, 2996.0),
            memory("HBM", Level::Dram, 828.0),
        ],
        flops_per_tensor_inst: Some(512.0),
    }
}

/// Every catalogue machine.
pub fn all() -> Vec<Machine> {
    vec![v100()]
}

/// The catalogue machine with this id (case-insensitive).
pub fn by_id(id: &str) -> Option<Machine> {
    all().into_iter().find(|m| m.id.eq_ignore_ascii_case(id))
}
