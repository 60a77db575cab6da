//! Kernels placed on a roofline chart.

use super::machine::{Level, Machine};
use crate::domain::profile::KernelProfile;
use serde::{Deserialize, Serialize};

/// One dot: a kernel's performance at its intensity against one memory level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RooflinePoint {
    /// Index into the dataset's kernels.
    pub kernel: usize,
    pub level: Level,
    /// Arithmetic intensity, FLOP/byte.
    pub flops_per_byte: f64,
    /// Achieved performance, FLOP/s.
    pub flops_per_s: f64,
}

/// The level a classic chart's dots take their bytes at: DRAM/HBM where any kernel measured
/// DRAM bytes; else L1 where any measured L1 bytes — Intel Advisor's cache-aware roofline
/// (CARM), whose intensity counts the data as the cores consume it, "the most effective access
/// with true, or pure payload, amount of data consumed by an algorithm" (Intel Advisor GPU
/// roofline recipe, `shared/reference/intel-advisor-gpu-roofline-memory-bound.txt`), drawn
/// against every level's roof; else DRAM.
pub fn classic_level(kernels: &[KernelProfile], machine: &Machine) -> Level {
    let s = super::hierarchical::sizes(Some(machine));
    let has = |level: Level| kernels.iter().any(|k| super::hierarchical::level_bytes(k, level, &s).is_some_and(|b| b > 0.0));
    if !has(Level::Dram) && has(Level::L1) {
        Level::L1
    } else {
        Level::Dram
    }
}

/// Classic roofline points: total FLOPs over the bytes at [`classic_level`] (DRAM, or L1 for a
/// cache-aware roofline), against time. Kernels lacking time, FLOPs or those bytes, or with zero
/// of either, have no point (log axes).
pub fn classic_points(kernels: &[KernelProfile], machine: &Machine) -> Vec<RooflinePoint> {
    let level = classic_level(kernels, machine);
    let s = super::hierarchical::sizes(Some(machine));
    kernels
        .iter()
        .enumerate()
        .filter_map(|(i, k)| {
            let flops = k.total_flops(machine.flops_per_tensor_inst)?;
            let bytes = super::hierarchical::level_bytes(k, level, &s)?;
            let time_s = k.time_s()?;
            (flops > 0.0 && bytes > 0.0 && time_s > 0.0).then(|| RooflinePoint { kernel: i, level, flops_per_byte: flops / bytes, flops_per_s: flops / time_s })
        })
        .collect()
}
