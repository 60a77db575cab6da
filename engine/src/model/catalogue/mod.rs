//! Machines with published peaks. Every number cites its source in the machine's doc comment.
//!
//! Each machine keeps data-sheet values (`theoretical`) and, where a cited measurement exists,
//! measured values (`empirical`) side by side; the ceilings the model uses (`compute`,
//! `memory`) take the measured value where there is one and the data-sheet value otherwise.
//! Every peak of a machine holds at its [`Machine::clock_hz`] (usually the boost clock; peaks a
//! data sheet states at another clock are scaled to it, and the doc comment says so), so
//! [`Machine::at_clock`] rescales them to the base clock Nsight Compute locks to or to the
//! clock a profile measured.
//!
//! Layout: `nvidia/`, `amd/` (one file per generation), `intel.rs`, `cpu.rs`; `gpu.rs` builds
//! a GPU entry from its data; `arch.rs` holds the per-architecture rates and machines derived
//! from a device's attributes; `checks.rs` tests the catalogue against those rates.
//!
//! Conventions: vector pipes get an FMA ceiling and a no-FMA ceiling at half of it (Ding &
//! Williams §II: "additional compute ceilings (e.g. "no FMA" peak)"); tensor/matrix ceilings
//! are dense (no structured sparsity: data sheets' "with sparsity" values are halved), one per
//! data type, with the FP16 one first, since that is the tensor roof; INT32 ceilings count an
//! IMAD as 2 operations, as NVIDIA's whitepapers do. Names carry no clock: the clock is chosen
//! per profile and shown apart.

mod amd;
pub mod arch;
pub mod partition;
#[cfg(test)]
mod checks;
mod cpu;
mod gpu;
mod intel;
mod nvidia;
#[cfg(test)]
mod table;

use super::machine::{Ceiling, ComputeKind, Level, Machine, MemoryLevel, PeakSet};
use crate::domain::DataType;
use crate::units::{GIGA, TERA};

pub use amd::{mi210, mi250x, mi250x_gcd, mi300a, mi300x, mi325x, mi350x, mi355x};
pub use arch::{arch_rates, derived_machine, ArchRates};
pub use cpu::{default_cpu, epyc_7763, is_cpu, xeon_gold_6132, xeon_platinum_8480, CPU_IDS};
pub use intel::max_1550;
pub use nvidia::{
    a10, a100, a100_40gb, a100_pcie, a100_pcie_40gb, b200, gb200, gh200, h100, h100_nvl, h100_pcie, h20, h200, l4, l40, l40s, p100, p100_pcie, rtx4090, rtx5060,
    rtx5060ti, rtx5070, rtx5070ti, rtx5080, rtx5090, t4, v100, v100_pcie,
};

/// A vector or integer compute ceiling from TFLOP/s (decimal: × 1e12).
fn tflops(name: &str, kind: ComputeKind, tflop_per_s: f64) -> Ceiling {
    Ceiling::vector(name, kind, tflop_per_s * TERA)
}

/// A dense matrix ceiling of one data type from TFLOP/s (TOPS for INT8), named "BF16 matrix".
fn matrix(data_type: DataType, tflop_per_s: f64) -> Ceiling {
    Ceiling::matrix(data_type, tflop_per_s * TERA)
}

/// The name of a GeForce card's second FP16 matrix ceiling: FP16 inputs with FP16
/// accumulation, twice the rate of FP32 accumulation on GeForce ([`arch::ArchRates::matrix_geforce`]).
pub const FP16_ACCUMULATE: &str = "FP16 matrix (FP16 accumulate)";

/// A GeForce card's FP16 matrix ceilings: the FP32-accumulate rate first (the FP16 roof, the
/// rate Nsight Compute's `sm__ops_path_tensor_src_fp16` peak gives and the one most FP16
/// GEMMs, which accumulate in FP32, can reach), then the FP16-accumulate rate, named
/// [`FP16_ACCUMULATE`]. The counters do not tell the two accumulations apart, so guidance
/// judges a kernel faster than the first against the second (`model::guidance`).
fn geforce_fp16(fp32_acc_tflop_per_s: f64, fp16_acc_tflop_per_s: f64) -> [Ceiling; 2] {
    let mut fast = Ceiling::matrix(DataType::Fp16, fp16_acc_tflop_per_s * TERA);
    fast.name = FP16_ACCUMULATE.into();
    [Ceiling::matrix(DataType::Fp16, fp32_acc_tflop_per_s * TERA), fast]
}

/// A vector pipe's FMA ceiling and its no-FMA ceiling (half: one FLOP per lane per cycle
/// instead of two).
fn vector(name: &str, kind: ComputeKind, fma_flops_per_s: f64) -> [Ceiling; 2] {
    [
        Ceiling::vector(name, kind, fma_flops_per_s),
        Ceiling::vector(&format!("{name} no-FMA"), kind, fma_flops_per_s / 2.0),
    ]
}

/// A vector pipe's FMA and no-FMA ceilings from the FMA peak in TFLOP/s, named by the kind
/// ("FP64", "FP64 no-FMA").
fn vec_tf(kind: ComputeKind, fma_tflop_per_s: f64) -> [Ceiling; 2] {
    vector(kind.label(), kind, fma_tflop_per_s * TERA)
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

/// A catalogue machine's constructor.
type Builder = fn() -> Machine;

/// Every catalogue machine's id and how to build it, in the order the machine picker shows
/// them: by vendor (NVIDIA, AMD, Intel), each vendor's GPUs by generation, oldest first, then
/// its CPUs. A table of builders rather than a list of machines, so [`by_id`] builds the one
/// machine asked for: the page's start looks up the example's machine, and building all of them
/// there cost 2-4 ms and compiled every builder's wasm on the main thread (docs/PERFORMANCE.md,
/// "2026-11-29, afternoon"). `ids_name_the_machines_they_build` checks each id.
const MACHINES: &[(&str, Builder)] = &[
    // NVIDIA: Pascal, Volta, Turing, Ampere, Ada Lovelace, Hopper, Blackwell.
    ("p100", p100),
    ("p100-pcie", p100_pcie),
    ("v100", v100),
    ("v100-pcie", v100_pcie),
    ("t4", t4),
    ("a100", a100),
    ("a100-40gb", a100_40gb),
    ("a100-pcie", a100_pcie),
    ("a100-pcie-40gb", a100_pcie_40gb),
    ("a10", a10),
    ("l4", l4),
    ("l40", l40),
    ("l40s", l40s),
    ("rtx4090", rtx4090),
    ("h100", h100),
    ("h100-pcie", h100_pcie),
    ("h100-nvl", h100_nvl),
    ("h200", h200),
    ("gh200", gh200),
    ("h20", h20),
    ("b200", b200),
    ("gb200", gb200),
    ("rtx5090", rtx5090),
    ("rtx5080", rtx5080),
    ("rtx5070ti", rtx5070ti),
    ("rtx5070", rtx5070),
    ("rtx5060ti", rtx5060ti),
    ("rtx5060", rtx5060),
    // AMD: CDNA 2, CDNA 3, CDNA 4; Zen 3.
    ("mi210", mi210),
    ("mi250x", mi250x),
    ("mi250x-gcd", mi250x_gcd),
    ("mi300a", mi300a),
    ("mi300x", mi300x),
    ("mi300x-cpx", partition::mi300x_cpx),
    ("mi325x", mi325x),
    ("mi350x", mi350x),
    ("mi355x", mi355x),
    ("epyc-7763", epyc_7763),
    // Intel: Xe-HPC; Skylake-SP, Sapphire Rapids.
    ("max1550", max_1550),
    ("xeon-gold-6132", xeon_gold_6132),
    ("xeon-8480", xeon_platinum_8480),
];

/// Every catalogue machine, in the order the machine picker shows them ([`MACHINES`]).
pub fn all() -> Vec<Machine> {
    MACHINES.iter().map(|(_, build)| build()).collect()
}

/// The catalogue machine with this id (case-insensitive), the only one built.
pub fn by_id(id: &str) -> Option<Machine> {
    MACHINES.iter().find(|(known, _)| known.eq_ignore_ascii_case(id)).map(|(_, build)| build())
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

    /// `by_id` finds a machine by its table entry without building it: each entry's id must be
    /// the id its builder gives, or a lookup would return another machine than the one named.
    #[test]
    fn ids_name_the_machines_they_build() {
        for (id, build) in MACHINES {
            assert_eq!(build().id, *id);
            assert_eq!(by_id(&id.to_uppercase()).map(|m| m.id).as_deref(), Some(*id));
        }
        assert_eq!(MACHINES.len(), 41);
        assert!(by_id("v100 ").is_none() && by_id("").is_none() && by_id("a100-80gb").is_none());
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
