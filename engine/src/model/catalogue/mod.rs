//! Machines with published peaks. Every number cites its source in the machine's doc comment.
//!
//! Each machine keeps data-sheet values (`theoretical`) and, where a cited measurement exists,
//! measured values (`empirical`) side by side; the ceilings the model uses (`compute`,
//! `memory`) take the measured value where there is one and the data-sheet value otherwise.
//! Peaks are stated at the boost clock ([`Machine::clock_hz`]); [`Machine::at_clock`] rescales
//! them (e.g. to the base clock Nsight Compute locks to).
//!
//! Conventions: vector pipes get an FMA ceiling and a no-FMA ceiling at half of it (Ding &
//! Williams §II: "additional compute ceilings (e.g. "no FMA" peak)"); tensor/matrix ceilings
//! are dense (no structured sparsity) and listed with the FP16 one first, since that is the
//! tensor roof; integer ceilings count one operation per lane per cycle.

mod amd;
mod cpu;
mod intel;
mod nvidia;

use super::machine::{Ceiling, ComputeKind, Level, Machine, MemoryLevel, PeakSet};
use crate::domain::DataType;
use crate::units::{GIGA, TERA};

pub use amd::{mi210, mi250x, mi250x_gcd, mi300x};
pub use cpu::{epyc_7763, xeon_gold_6132, xeon_platinum_8480};
pub use intel::max_1550;
pub use nvidia::{a100, h100, h200, v100, v100_pcie};

/// A vector or integer compute ceiling from TFLOP/s (decimal: × 1e12).
fn tflops(name: &str, kind: ComputeKind, tflop_per_s: f64) -> Ceiling {
    Ceiling::vector(name, kind, tflop_per_s * TERA)
}

/// A dense matrix ceiling of one data type from TFLOP/s (TOPS for INT8), named "BF16 matrix".
fn matrix(data_type: DataType, tflop_per_s: f64) -> Ceiling {
    Ceiling::matrix(data_type, tflop_per_s * TERA)
}

/// A vector pipe's FMA ceiling and its no-FMA ceiling (half: one FLOP per lane per cycle
/// instead of two).
fn vector(name: &str, kind: ComputeKind, fma_flops_per_s: f64) -> [Ceiling; 2] {
    [
        Ceiling::vector(name, kind, fma_flops_per_s),
        Ceiling::vector(&format!("{name} no-FMA"), kind, fma_flops_per_s / 2.0),
    ]
}

/// A memory level from GB/s (decimal: × 1e9).
fn gbps(name: &str, level: Level, gbytes_per_s: f64) -> MemoryLevel {
    MemoryLevel { name: name.into(), level, bytes_per_s: gbytes_per_s * GIGA }
}

/// Fills `compute` and `memory` from the peak sets: measured where known, else data sheet.
fn finish(mut m: Machine) -> Machine {
    let theo = m.theoretical.clone().unwrap_or_default();
    let emp = m.empirical.clone().unwrap_or_default();
    m.compute = theo
        .compute
        .iter()
        .map(|c| emp.compute.iter().find(|e| e.name == c.name).unwrap_or(c).clone())
        .chain(emp.compute.iter().filter(|e| !theo.compute.iter().any(|c| c.name == e.name)).cloned())
        .collect();
    m.memory = Level::ALL
        .iter()
        .filter_map(|&l| emp.memory.iter().find(|e| e.level == l).or_else(|| theo.memory.iter().find(|t| t.level == l)))
        .cloned()
        .collect();
    m
}

fn set(source: &str, compute: Vec<Ceiling>, memory: Vec<MemoryLevel>) -> Option<PeakSet> {
    Some(PeakSet { source: source.into(), compute, memory })
}

/// Every catalogue machine.
pub fn all() -> Vec<Machine> {
    vec![
        v100(),
        v100_pcie(),
        a100(),
        h100(),
        h200(),
        mi250x(),
        mi250x_gcd(),
        mi210(),
        mi300x(),
        max_1550(),
        xeon_gold_6132(),
        epyc_7763(),
        xeon_platinum_8480(),
    ]
}

/// The catalogue machine with this id (case-insensitive).
pub fn by_id(id: &str) -> Option<Machine> {
    all().into_iter().find(|m| m.id.eq_ignore_ascii_case(id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_every_machine_is_complete() {
        let ms = all();
        for (i, m) in ms.iter().enumerate() {
            assert!(ms[..i].iter().all(|o| o.id != m.id), "duplicate id {}", m.id);
            assert!(!m.source.is_empty() && !m.compute.is_empty(), "{}", m.id);
            assert!(m.memory_level(Level::Dram).is_some(), "{} has no DRAM/HBM level", m.id);
            assert!(m.clock_hz.is_some(), "{} states no clock", m.id);
            assert!(m.compute.iter().all(|c| c.flops_per_s > 0.0) && m.memory.iter().all(|l| l.bytes_per_s > 0.0));
        }
        assert_eq!(by_id("V100").map(|m| m.id), Some("v100".to_string()));
    }

    #[test]
    fn measured_values_win_over_the_data_sheet() {
        let m = v100();
        assert_eq!(m.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(828e9));
        let theo = m.with_basis(crate::model::Basis::Theoretical);
        assert_eq!(theo.memory_level(Level::Dram).map(|l| l.bytes_per_s), Some(900e9));
        assert_eq!(theo.memory_level(Level::L2).map(|l| l.bytes_per_s), Some(2996e9), "no data-sheet L2: kept");
    }
}
