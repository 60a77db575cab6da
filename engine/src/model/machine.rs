//! A machine: the ceilings a kernel's performance is bounded by.

use serde::{Deserialize, Serialize};

/// What a compute ceiling counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputeKind {
    Fp64,
    Fp32,
    Fp16,
    /// Matrix/tensor units (Tensor Cores, MFMA, XMX), any data type.
    Tensor,
    /// Integer operations (Advisor INTOP).
    Int,
}

/// A compute ceiling: peak operations per second of one pipe/precision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ceiling {
    pub name: String,
    pub kind: ComputeKind,
    pub flops_per_s: f64,
}

/// A level of the memory hierarchy a kernel's bytes can be counted at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    L1,
    Shared,
    L2,
    /// DRAM or HBM: the device's main memory.
    Dram,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::L1 => "L1",
            Level::Shared => "Shared",
            Level::L2 => "L2",
            Level::Dram => "DRAM",
        }
    }
}

/// A memory ceiling: sustained bandwidth of one level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryLevel {
    pub name: String,
    pub level: Level,
    pub bytes_per_s: f64,
}

/// A machine's ceilings. Catalogue machines cite their sources in [`super::catalogue`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Catalogue id (`v100`), or a name derived from the file it came from.
    pub id: String,
    pub name: String,
    /// Where the numbers come from.
    pub source: String,
    pub compute: Vec<Ceiling>,
    pub memory: Vec<MemoryLevel>,
    /// FLOPs per tensor-pipe warp instruction (512 for V100 HMMA.884, NERSC recipe).
    pub flops_per_tensor_inst: Option<f64>,
}

impl Machine {
    pub fn memory_level(&self, level: Level) -> Option<&MemoryLevel> {
        self.memory.iter().find(|m| m.level == level)
    }

    pub fn compute_ceiling(&self, kind: ComputeKind) -> Option<&Ceiling> {
        self.compute.iter().find(|c| c.kind == kind)
    }
}
