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

/// Classic roofline points: total FLOPs over DRAM bytes, against time. Kernels lacking time,
/// FLOPs or DRAM bytes, or with zero of either, have no point (log axes).
pub fn classic_points(kernels: &[KernelProfile], machine: &Machine) -> Vec<RooflinePoint> {
    kernels
        .iter()
        .enumerate()
        .filter_map(|(i, k)| {
            let flops = k.total_flops(machine.flops_per_tensor_inst)?;
            let bytes = k.counters.get(crate::domain::counters::Counter::DramBytes)?;
            let time_s = k.time_s()?;
            (flops > 0.0 && bytes > 0.0 && time_s > 0.0).then(|| RooflinePoint {
                kernel: i,
                level: Level::Dram,
                flops_per_byte: flops / bytes,
                flops_per_s: flops / time_s,
            })
        })
        .collect()
}
