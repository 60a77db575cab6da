//! A machine: the ceilings a kernel's performance is bounded by.
//!
//! Units are in the field names and always base units: `flops_per_s` (FLOP/s, or integer
//! operations per second for [`ComputeKind::Int`]), `bytes_per_s`, `_hz`, `_bytes`.
//! Prefixes are decimal (see [`crate::units`]).

use crate::domain::{DataType, Vendor};
use serde::{Deserialize, Serialize};

/// What a compute ceiling counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputeKind {
    Fp64,
    Fp32,
    Fp16,
    /// Matrix/tensor units (Tensor Cores, MFMA, XMX): one ceiling per data type
    /// ([`Ceiling::data_type`]), named "FP16 matrix", "BF16 matrix", ….
    Tensor,
    /// Integer operations (Advisor INTOP); `flops_per_s` then counts integer ops per second.
    Int,
}

impl ComputeKind {
    pub fn label(self) -> &'static str {
        match self {
            ComputeKind::Fp64 => "FP64",
            ComputeKind::Fp32 => "FP32",
            ComputeKind::Fp16 => "FP16",
            ComputeKind::Tensor => "Tensor",
            ComputeKind::Int => "INT",
        }
    }
}

/// A compute ceiling: peak operations per second of one pipe/precision.
///
/// A machine may list several ceilings of one kind (FMA and no-FMA, matrix by data type).
/// The first vector ceiling of a kind is that kind's roof ([`Machine::compute_ceiling`]),
/// the others are drawn as lower ceilings; each matrix data type has its own roof
/// ([`Machine::matrix_ceiling`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ceiling {
    pub name: String,
    pub kind: ComputeKind,
    /// The data type it computes on: a vector ceiling's precision, a matrix ceiling's input
    /// type; `None` for integer ceilings and ceilings read from files that do not say.
    #[serde(default)]
    pub data_type: Option<DataType>,
    pub flops_per_s: f64,
}

impl Ceiling {
    /// A vector (or integer) ceiling; its data type follows from the kind.
    pub fn vector(name: &str, kind: ComputeKind, flops_per_s: f64) -> Ceiling {
        let data_type = match kind {
            ComputeKind::Fp64 => Some(DataType::Fp64),
            ComputeKind::Fp32 => Some(DataType::Fp32),
            ComputeKind::Fp16 => Some(DataType::Fp16),
            ComputeKind::Tensor | ComputeKind::Int => None,
        };
        Ceiling { name: name.into(), kind, data_type, flops_per_s }
    }

    /// A matrix ceiling of one data type, named "BF16 matrix".
    pub fn matrix(data_type: DataType, flops_per_s: f64) -> Ceiling {
        Ceiling { name: format!("{} matrix", data_type.label()), kind: ComputeKind::Tensor, data_type: Some(data_type), flops_per_s }
    }
}

/// A level of the memory hierarchy a kernel's bytes can be counted at.
///
/// Vendors' names map onto these: NVIDIA L1/TEX → `L1`, shared memory, AMD LDS and Intel SLM
/// → `Shared`, Intel Advisor's CARM (register/L1 traffic) → `L1`, GTI (the GPU's interface to
/// memory) → `Dram`. The vendor's own name is kept in [`MemoryLevel::name`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    L1,
    Shared,
    L2,
    /// Last-level cache of a CPU (or AMD's Infinity Cache, Intel's LLC).
    L3,
    /// DRAM or HBM: the device's main memory.
    Dram,
}

impl Level {
    /// Every level, nearest the cores first.
    pub const ALL: [Level; 5] = [Level::L1, Level::Shared, Level::L2, Level::L3, Level::Dram];

    pub fn label(self) -> &'static str {
        match self {
            Level::L1 => "L1",
            Level::Shared => "Shared",
            Level::L2 => "L2",
            Level::L3 => "L3",
            Level::Dram => "DRAM",
        }
    }

    /// Whether the level's bandwidth is bytes per cycle of the core clock on a machine of this
    /// vendor, so it scales with [`Machine::at_clock`]: L1 and shared memory (in the SMs,
    /// CUs, cores) always; L2 except on NVIDIA GPUs, whose L2 runs on a clock of its own (the
    /// H200 fixtures of tests/fixtures/ncu-hopper: `lts__cycles_elapsed.avg.per_second` 1.68
    /// GHz while the SMs ran at 1.36–1.51, Nsight Compute having locked the SM clock only), so
    /// a locked SM clock leaves it where it was; DRAM/HBM and L3 never.
    pub fn scales_with_core_clock(self, vendor: Option<Vendor>) -> bool {
        match self {
            Level::L1 | Level::Shared => true,
            Level::L2 => vendor != Some(Vendor::Nvidia),
            Level::L3 | Level::Dram => false,
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

/// How a GPU issues instructions: the Instruction Roofline's peak (Ding & Williams 2019,
/// §III-A: "80 (SM) × 4 (warp scheduler) × 1 (instruction/cycle) × 1.53 (GHz) = 489.6 GIPS").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Issue {
    /// Streaming multiprocessors (NVIDIA SM, AMD CU, Intel Xe-core).
    pub compute_units: u32,
    /// Warp schedulers (processing blocks) per unit.
    pub schedulers_per_unit: u32,
    /// Warp instructions each scheduler issues per cycle.
    pub inst_per_cycle_per_scheduler: f64,
    /// Threads per warp (32 on NVIDIA): thread instructions / this = warp-normalised.
    pub threads_per_warp: u32,
}

/// Transaction sizes of the Instruction Roofline (Ding & Williams §III-A): "The transaction
/// size for global/local memory, the L2 cache, and HBM are 32 bytes. The shared memory
/// transaction size is 128 bytes."
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TransactionSizes {
    /// Bytes of one global/local (L1), L2 or DRAM transaction (sector).
    pub sector_bytes: f64,
    /// Bytes of one shared-memory transaction.
    pub shared_bytes: f64,
}

impl TransactionSizes {
    /// NVIDIA since Volta: 32-byte sectors, 128-byte shared transactions.
    pub const NVIDIA: TransactionSizes = TransactionSizes { sector_bytes: 32.0, shared_bytes: 128.0 };

    /// The transaction size at a level.
    pub fn bytes(&self, level: Level) -> f64 {
        if level == Level::Shared {
            self.shared_bytes
        } else {
            self.sector_bytes
        }
    }
}

/// A set of published peaks of one kind (all theoretical, or all measured).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PeakSet {
    /// Where these numbers come from.
    pub source: String,
    pub compute: Vec<Ceiling>,
    pub memory: Vec<MemoryLevel>,
}

/// Theoretical (data-sheet) or empirical (measured) peaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    Theoretical,
    Empirical,
}

/// A host↔device link (PCIe, NVLink), for the transfer roofline (GPU course slides, "PCI-E
/// bandwidth (roofline model)"). Bandwidth per direction: a copy goes one way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    pub name: String,
    pub bytes_per_s: f64,
}

impl Link {
    /// PCIe x16 bandwidth per direction: GT/s × 16 lanes × encoding efficiency / 8 bits.
    /// Gen3+ use 128b/130b encoding (PCI-SIG): Gen3 15.754, Gen4 31.508, Gen5 63.015 GB/s.
    pub fn pcie_x16(generation: u32) -> Link {
        let gt_per_s = match generation {
            3 => 8.0,
            4 => 16.0,
            _ => 32.0,
        };
        Link { name: format!("PCIe {generation}.0 x16"), bytes_per_s: gt_per_s * 1e9 * 16.0 * (128.0 / 130.0) / 8.0 }
    }
}

/// A machine's ceilings. Catalogue machines cite their sources in [`super::catalogue`].
///
/// `compute` and `memory` are the ceilings the model uses. Catalogue machines fill them with
/// measured values where a cited measurement exists and data-sheet values otherwise, and keep
/// both sets side by side in `theoretical` and `empirical` ([`Machine::with_basis`] switches).
/// Construct with `..Default::default()` for the optional parts.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// Catalogue id (`v100`), or a name derived from the file it came from.
    pub id: String,
    pub name: String,
    /// Where the numbers come from.
    pub source: String,
    #[serde(default)]
    pub vendor: Option<Vendor>,
    /// The architecture as compilers name it (`sm_90`, `gfx942`); what a profile's device is
    /// matched on ([`super::identify`]).
    #[serde(default)]
    pub arch: Option<String>,
    /// The product generation, for grouping in the machine picker ("Hopper", "CDNA 3").
    #[serde(default)]
    pub generation: Option<String>,
    /// SMs (NVIDIA), CUs (AMD), Xe-cores (Intel) or cores (CPUs).
    #[serde(default)]
    pub sm_count: Option<u32>,
    /// Device memory, bytes (tells an A100 40 GB from an 80 GB, an H100 from an H200).
    #[serde(default)]
    pub memory_bytes: Option<f64>,
    /// Last-level on-chip cache (L2 on GPUs), bytes.
    #[serde(default)]
    pub l2_bytes: Option<f64>,
    pub compute: Vec<Ceiling>,
    pub memory: Vec<MemoryLevel>,
    /// FLOPs per tensor-pipe warp instruction (512 for V100 HMMA.884, NERSC recipe; Ding &
    /// Williams §IV-E: "there are 512 floating-point operations per HMMA instruction").
    pub flops_per_tensor_inst: Option<f64>,
    /// The core clock `compute` (and the on-chip bandwidths) are stated at, Hz.
    #[serde(default)]
    pub clock_hz: Option<f64>,
    /// Base clock, Hz (what `ncu --clock-control base`, the default, locks to).
    #[serde(default)]
    pub base_clock_hz: Option<f64>,
    /// Boost clock, Hz (what data-sheet peaks are usually computed at).
    #[serde(default)]
    pub boost_clock_hz: Option<f64>,
    /// Instruction issue, for the Instruction Roofline (GPUs that have the model).
    #[serde(default)]
    pub issue: Option<Issue>,
    /// Transaction sizes, for the Instruction Roofline.
    #[serde(default)]
    pub transaction_bytes: Option<TransactionSizes>,
    /// Data-sheet peaks, side by side with `empirical`.
    #[serde(default)]
    pub theoretical: Option<PeakSet>,
    /// Measured peaks (ERT, the Ding & Williams paper), where known.
    #[serde(default)]
    pub empirical: Option<PeakSet>,
    /// Host↔device links, for the transfer roofline.
    #[serde(default)]
    pub links: Vec<Link>,
    /// Whether each kernel is judged at the SM clock it ran at (its own measured clock, as
    /// Nsight Compute judges each launch) rather than at [`Machine::clock_hz`], the run's mean:
    /// set when the clock is the measured one ([`crate::choice::at_clock`]), cleared by any
    /// fixed clock ([`Machine::at_clock`]). `model::guidance` applies it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub per_kernel_clock: bool,
}

impl Machine {
    /// The name without its clock, as the toolbar shows it (the sentence above the chart gives
    /// the clock): "NVIDIA V100 SXM2 (1530 MHz)" → "NVIDIA V100 SXM2".
    pub fn short_name(&self) -> &str {
        self.name.split(" (").next().unwrap_or(&self.name)
    }

    pub fn memory_level(&self, level: Level) -> Option<&MemoryLevel> {
        self.memory.iter().find(|m| m.level == level)
    }

    /// The roof of one kind: the first ceiling of that kind (catalogue machines list the peak
    /// first, lower ceilings such as no-FMA after it).
    pub fn compute_ceiling(&self, kind: ComputeKind) -> Option<&Ceiling> {
        self.compute.iter().find(|c| c.kind == kind)
    }

    /// The matrix roof of one data type: its first matrix ceiling of that type.
    pub fn matrix_ceiling(&self, data_type: DataType) -> Option<&Ceiling> {
        self.compute.iter().find(|c| c.kind == ComputeKind::Tensor && c.data_type == Some(data_type))
    }

    /// The fastest matrix roof: the bound for matrix FLOPs whose data type was not counted
    /// (the shortest time they could take).
    pub fn fastest_matrix_ceiling(&self) -> Option<&Ceiling> {
        self.compute
            .iter()
            .filter(|c| c.kind == ComputeKind::Tensor && c.data_type.is_none_or(DataType::is_float) && c.flops_per_s > 0.0)
            .max_by(|a, b| a.flops_per_s.total_cmp(&b.flops_per_s))
    }

    /// Whether shared memory is the same on-chip array as the L1 cache, so that L1 and shared
    /// traffic compete for one bandwidth (NVIDIA's unified L1/shared memory, Intel's L1/SLM):
    /// Ding & Williams combine "the combined effect of global, local, and shared transactions"
    /// at L1. AMD's LDS is its own array beside the vector L1 cache. A machine of unknown
    /// vendor combines them unless it lists a shared level of its own bandwidth.
    pub fn shared_in_l1(&self) -> bool {
        match self.vendor {
            Some(Vendor::Amd) => false,
            Some(Vendor::Nvidia | Vendor::Intel) => true,
            None => match (self.memory_level(Level::Shared), self.memory_level(Level::L1)) {
                (Some(s), Some(l1)) => s.bytes_per_s == l1.bytes_per_s,
                _ => true,
            },
        }
    }

    /// Peak warp instructions per second: compute units × schedulers × issue/cycle × clock
    /// (Ding & Williams §III-A; 489.6e9 for V100 at 1.53 GHz).
    pub fn warp_inst_per_s(&self) -> Option<f64> {
        let i = self.issue.as_ref()?;
        Some(i.compute_units as f64 * i.schedulers_per_unit as f64 * i.inst_per_cycle_per_scheduler * self.clock_hz?)
    }

    /// Bandwidth of a level in transactions per second: bytes/s ÷ transaction size (Ding &
    /// Williams §III-A: 14000, 2996, 828 GB/s "sustain 437, 93.6, and 25.9 GTXN/s when
    /// normalized to the typical 32-byte transaction size"). Shared memory uses the shared
    /// level's bandwidth, or L1's where the machine lists none (V100: 14000 / 128 = 109.4).
    pub fn txn_per_s(&self, level: Level) -> Option<f64> {
        let sizes = self.transaction_bytes.as_ref()?;
        let bw = match level {
            Level::Shared => self.memory_level(Level::Shared).or_else(|| self.memory_level(Level::L1))?,
            _ => self.memory_level(level)?,
        };
        Some(bw.bytes_per_s / sizes.bytes(level))
    }

    /// Peak tensor instructions per second: tensor FLOP/s ÷ FLOPs per instruction (Ding &
    /// Williams §IV-E: 125 TFLOP/s ÷ 512 = 244 HMMA GIPS on V100).
    pub fn tensor_inst_per_s(&self) -> Option<f64> {
        let per = self.flops_per_tensor_inst.filter(|f| *f > 0.0)?;
        Some(self.compute_ceiling(ComputeKind::Tensor)?.flops_per_s / per)
    }

    /// The machine at another core clock. Compute peaks are per-cycle rates × clock, and so
    /// are the core's own bandwidths ([`Level::scales_with_core_clock`]); DRAM/HBM, L3, an
    /// NVIDIA L2 and links are not. Nsight Compute locks the clock to base by default, so its
    /// ceilings (and the V100 FP64 balance point of 7.5 FLOP/byte in the Nsight Compute
    /// roofline post) are at base. A fixed clock for every kernel: clears
    /// [`Machine::per_kernel_clock`]. Unchanged if the machine states no clock.
    pub fn at_clock(&self, hz: f64) -> Machine {
        let mut m = self.clone();
        let Some(old) = self.clock_hz.filter(|c| *c > 0.0) else { return m };
        if !(hz.is_finite() && hz > 0.0) {
            return m;
        }
        m.per_kernel_clock = false;
        let f = hz / old;
        let vendor = self.vendor;
        m.edit_peaks(|compute, memory| {
            compute.iter_mut().for_each(|c| c.flops_per_s *= f);
            memory.iter_mut().filter(|l| l.level.scales_with_core_clock(vendor)).for_each(|l| l.bytes_per_s *= f);
        });
        m.clock_hz = Some(hz);
        m
    }

    /// Applies `edit` to every set of peaks the machine keeps: the ceilings the model uses and
    /// the data-sheet and measured sets beside them ([`Machine::with_basis`]), so that a
    /// rescaled machine (another clock, a part of a GPU) switches basis consistently.
    pub fn edit_peaks(&mut self, edit: impl Fn(&mut [Ceiling], &mut [MemoryLevel])) {
        edit(&mut self.compute, &mut self.memory);
        for set in [self.theoretical.as_mut(), self.empirical.as_mut()].into_iter().flatten() {
            edit(&mut set.compute, &mut set.memory);
        }
    }

    /// The machine with ceilings of one basis: each ceiling and level that the chosen set
    /// lists takes that value; the others keep theirs.
    pub fn with_basis(&self, basis: Basis) -> Machine {
        let mut m = self.clone();
        let set = match basis {
            Basis::Theoretical => self.theoretical.as_ref(),
            Basis::Empirical => self.empirical.as_ref(),
        };
        if let Some(set) = set {
            for c in &mut m.compute {
                if let Some(v) = set.compute.iter().find(|s| s.name == c.name) {
                    c.flops_per_s = v.flops_per_s;
                }
            }
            for l in &mut m.memory {
                if let Some(v) = set.memory.iter().find(|s| s.level == l.level) {
                    l.bytes_per_s = v.bytes_per_s;
                }
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_lose_their_clock() {
        let named = |name: &str| Machine { name: name.into(), ..crate::model::catalogue::v100() };
        assert_eq!(named("NVIDIA V100 SXM2 (1530 MHz)").short_name(), "NVIDIA V100 SXM2");
        assert_eq!(named("AMD GPU 0").short_name(), "AMD GPU 0");
        assert_eq!(named("custom").short_name(), "custom");
    }

    #[test]
    fn pcie_x16_per_direction() {
        // 8 GT/s × 16 lanes × 128/130 / 8 bits = 15.754 GB/s (usually quoted as 15.75).
        assert!((Link::pcie_x16(3).bytes_per_s / 1e9 - 15.754).abs() < 1e-3);
        assert!((Link::pcie_x16(4).bytes_per_s / 1e9 - 31.508).abs() < 1e-3);
        assert!((Link::pcie_x16(5).bytes_per_s / 1e9 - 63.015).abs() < 1e-3);
    }

    #[test]
    fn clock_scales_compute_and_on_chip_levels_only() {
        let m = Machine {
            compute: vec![Ceiling::vector("FP64", ComputeKind::Fp64, 2e12)],
            memory: vec![
                MemoryLevel { name: "L1".into(), level: Level::L1, bytes_per_s: 10e12 },
                MemoryLevel { name: "HBM".into(), level: Level::Dram, bytes_per_s: 1e12 },
            ],
            clock_hz: Some(2e9),
            ..Default::default()
        };
        let half = m.at_clock(1e9);
        assert_eq!(half.compute[0].flops_per_s, 1e12);
        assert_eq!(half.memory[0].bytes_per_s, 5e12);
        assert_eq!(half.memory[1].bytes_per_s, 1e12);
        assert_eq!(half.clock_hz, Some(1e9));
        assert_eq!(Machine::default().at_clock(1e9), Machine::default());
    }

    /// An NVIDIA L2 keeps its bandwidth when the SM clock is locked; an AMD one scales. The
    /// A100 PCIe 40GB locked at 765 MHz: L1 (per SM) scales by 765/1410; L2, 5120 B × 1.41 GHz
    /// = 7219.2 GB/s, stays (7.2 TB/s, not 765/1410 of it, 3.9).
    #[test]
    fn an_nvidia_l2_is_not_on_the_sm_clock() {
        let a100 = crate::model::catalogue::a100_pcie_40gb();
        let l2 = |m: &Machine| m.memory_level(Level::L2).map_or(0.0, |l| l.bytes_per_s);
        let l1 = |m: &Machine| m.memory_level(Level::L1).map_or(0.0, |l| l.bytes_per_s);
        let locked = a100.at_clock(765e6);
        assert_eq!(l2(&locked), l2(&a100));
        assert!((l2(&locked) - 7219.2e9).abs() < 1e3, "{}", l2(&locked));
        assert!((l1(&locked) / l1(&a100) - 765.0 / 1410.0).abs() < 1e-12);
        let mi = crate::model::catalogue::mi210();
        let half = mi.at_clock(mi.clock_hz.unwrap_or(0.0) / 2.0);
        assert!(l2(&mi) > 0.0 && l2(&half) == l2(&mi) / 2.0);
        assert!(!Machine { per_kernel_clock: true, ..a100.clone() }.at_clock(765e6).per_kernel_clock);
    }
}
