//! CPUs, one socket each, with the roofs Intel Advisor's CPU roofline draws: L1, L2, L3 and
//! DRAM bandwidths beside the FP64/FP32 compute roofs.
//!
//! Peaks are at the base clock with every core busy: AVX-512-heavy code may run below base
//! (Intel's AVX-512 frequency licence), so the FP peak is an upper bound. FLOPs per cycle per
//! core: FMA units × vector lanes × 2. Cache roofs are the all-core sums, bytes per cycle per
//! core (from the vendors' optimisation manuals and microarchitecture disclosures) × cores ×
//! base clock; the per-core values are in each doc comment. L1 and L2 scale with the core
//! clock in [`Machine::at_clock`]; L3 and DRAM do not (an approximation for L3, which runs on
//! the core clock on AMD and on the mesh/uncore clock on Intel).

use super::{finish, gbps, set, vector};
use crate::domain::Vendor;
use crate::model::machine::{ComputeKind, Level, Machine, MemoryLevel};
use crate::units::{GIGA, MEGA};

/// DDR bandwidth: channels × MT/s × 8 bytes.
fn ddr(channels: f64, mega_transfers: f64) -> f64 {
    channels * mega_transfers * MEGA * 8.0 / GIGA
}

/// One CPU socket. `*_bytes_per_cycle` are per core; `None` where no source states it.
struct Cpu {
    id: &'static str,
    name: &'static str,
    vendor: Vendor,
    arch: &'static str,
    generation: &'static str,
    source: &'static str,
    cores: u32,
    base_hz: f64,
    boost_hz: f64,
    fp64_per_cycle: f64,
    l1_bytes_per_cycle: f64,
    l2_bytes_per_cycle: f64,
    l3_bytes_per_cycle: Option<f64>,
    l3_bytes: f64,
    dram_gbps: f64,
}

impl Cpu {
    fn machine(self) -> Machine {
        let cores = self.cores as f64;
        let fp64 = cores * self.fp64_per_cycle * self.base_hz;
        let mut compute = Vec::new();
        compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
        compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
        let all_cores = |per_cycle: f64| cores * per_cycle * self.base_hz / GIGA;
        let mut memory: Vec<MemoryLevel> = vec![gbps("L1", Level::L1, all_cores(self.l1_bytes_per_cycle)), gbps("L2", Level::L2, all_cores(self.l2_bytes_per_cycle))];
        memory.extend(self.l3_bytes_per_cycle.map(|b| gbps("L3", Level::L3, all_cores(b))));
        memory.push(gbps("DRAM", Level::Dram, self.dram_gbps));
        Machine {
            id: self.id.into(),
            name: self.name.into(),
            source: self.source.into(),
            vendor: Some(self.vendor),
            arch: Some(self.arch.into()),
            generation: Some(self.generation.into()),
            sm_count: Some(self.cores),
            l2_bytes: Some(self.l3_bytes),
            clock_hz: Some(self.base_hz),
            base_clock_hz: Some(self.base_hz),
            boost_clock_hz: Some(self.boost_hz),
            theoretical: set(self.source, compute, memory),
            ..Default::default()
        }
    }
}

/// The catalogue's CPUs, by id: what [`is_cpu`] knows as one.
pub const CPU_IDS: [&str; 3] = ["epyc-7763", "xeon-gold-6132", "xeon-8480"];

/// Whether `m` is one of the catalogue's CPUs ([`CPU_IDS`]): a CPU profile (Intel Advisor's
/// loops) is never drawn against a GPU, and its sentence says "CPU".
pub fn is_cpu(m: &Machine) -> bool {
    CPU_IDS.contains(&m.id.as_str())
}

/// The CPU a CPU profile is drawn against when its files describe no roofs and name no CPU
/// (Intel Advisor's survey names neither): the Xeon Gold 6132, an AVX-512 Skylake-SP Xeon of
/// the kind Advisor's CPU roofline is mostly run on. A stand-in, which the sentence calls the
/// chosen machine and a warning asks to replace with the CPU that ran the profile.
pub fn default_cpu() -> Machine {
    xeon_gold_6132()
}

/// Intel Xeon Gold 6132 (Skylake-SP), the GPU course's "14-core Intel Xeon Gold 6132 CPU
/// (∼1 200 GFlops)", "∼100 GB/s".
///
/// - Intel ARK: 14 cores, 2.6 GHz base, 3.7 GHz turbo, two AVX-512 FMA units, 19.25 MB L3, 6
///   channels DDR4-2666. FP64 14 × 32 FLOP/cycle × 2.6 GHz = 1164.8 GFLOP/s; DRAM 6 × 2666
///   MT/s × 8 B = 128.0 GB/s.
/// - L1: two 64-byte loads per cycle per core (AnandTech, Skylake-SP vs Skylake-S caches:
///   "Skylake-SP offers double" the 2 × 32-byte loads) = 128 B/cycle: 332.8 GB/s per core,
///   4659.2 all-core. L2 (1 MB per core): 64 B/cycle (Intel 64 and IA-32 Optimization
///   Reference Manual, Skylake cache parameters: L2 peak 64 bytes/cycle; TechReport states 128
///   between L1 and L2 for Skylake-X: disagreement, we use Intel's 64): 166.4 GB/s per core,
///   2329.6 all-core. L3: no per-core bandwidth published for the Skylake-SP mesh: absent.
/// - Empirical: the course's AX run (x ← αx, 16 bytes per element) attains 91 GB/s DRAM.
pub fn xeon_gold_6132() -> Machine {
    let mut m = Cpu {
        id: "xeon-gold-6132",
        name: "Intel Xeon Gold 6132, 14 cores",
        vendor: Vendor::Intel,
        arch: "skylake-sp",
        generation: "Skylake-SP",
        source: "Intel ARK (Xeon Gold 6132); Intel optimization manual; GPU course roofline slides (AX measurement)",
        cores: 14,
        base_hz: 2.6e9,
        boost_hz: 3.7e9,
        fp64_per_cycle: 32.0,
        l1_bytes_per_cycle: 128.0,
        l2_bytes_per_cycle: 64.0,
        l3_bytes_per_cycle: None,
        l3_bytes: 19.25 * 1024.0 * 1024.0,
        dram_gbps: ddr(6.0, 2666.0),
    }
    .machine();
    m.empirical = set("GPU course roofline slides: AX with 14 threads, 91 GB/s", vec![], vec![gbps("DRAM", Level::Dram, 91.0)]);
    finish(m)
}

/// AMD EPYC 7763 (Milan, Zen 3): 64 cores, 2.45 GHz base, 3.5 GHz boost, 256 MB L3, 8
/// channels DDR4-3200 (204.8 GB/s). AMD EPYC 7003 product page; the CPU of NERSC Perlmutter's
/// nodes.
///
/// - Compute: two 256-bit FMA pipes, 16 FP64 FLOP/cycle: 64 × 16 × 2.45 GHz = 2508.8 GFLOP/s.
/// - L1: three loads per cycle, two of them 256-bit (AnandTech Zen 3 deep dive: "3 loads and
///   2 stores per cycle"; AMD Software Optimization Guide for family 19h) = 64 B/cycle: 156.8
///   GB/s per core, 10035.2 all-core. L2 (512 KB per core): 32 B/cycle to L1 (family 19h
///   guide): 78.4 GB/s per core, 5017.6 all-core. L3 (32 MB per 8-core CCX): 32 B/cycle per
///   core (family 19h guide): 78.4 GB/s per core, 5017.6 all-core.
pub fn epyc_7763() -> Machine {
    finish(
        Cpu {
            id: "epyc-7763",
            name: "AMD EPYC 7763, 64 cores",
            vendor: Vendor::Amd,
            arch: "zen3",
            generation: "Zen 3",
            source: "AMD EPYC 7003 series specifications (EPYC 7763); AMD family 19h software optimization guide",
            cores: 64,
            base_hz: 2.45e9,
            boost_hz: 3.5e9,
            fp64_per_cycle: 16.0,
            l1_bytes_per_cycle: 64.0,
            l2_bytes_per_cycle: 32.0,
            l3_bytes_per_cycle: Some(32.0),
            l3_bytes: 256.0 * 1024.0 * 1024.0,
            dram_gbps: ddr(8.0, 3200.0),
        }
        .machine(),
    )
}

/// Intel Xeon Platinum 8480+ (Sapphire Rapids, Golden Cove cores): 56 cores (four 14-core
/// tiles), 2.0 GHz base, 3.8 GHz turbo, 105 MB L3, 8 channels DDR5-4800 = 307.2 GB/s. Intel
/// ARK (Xeon Platinum 8480+). AMX tile units are not listed.
///
/// - Compute: two AVX-512 FMA units (32 FP64 FLOP/cycle): 56 × 32 × 2.0 GHz = 3584 GFLOP/s.
/// - L1 (48 KB): two 64-byte loads per cycle (Chips and Cheese, "Sapphire Rapids: Golden Cove
///   Hits Servers": 2 × 512-bit) = 128 B/cycle: 256 GB/s per core, 14336 all-core. L2 (2 MB):
///   64 B/cycle (Intel optimization manual, Golden Cove): 128 GB/s per core, 7168 all-core.
///   L3: no per-core bandwidth published for the mesh: absent.
pub fn xeon_platinum_8480() -> Machine {
    finish(
        Cpu {
            id: "xeon-8480",
            name: "Intel Xeon Platinum 8480+, 56 cores",
            vendor: Vendor::Intel,
            arch: "sapphire-rapids",
            generation: "Sapphire Rapids",
            source: "Intel ARK (Xeon Platinum 8480+); Intel optimization manual",
            cores: 56,
            base_hz: 2.0e9,
            boost_hz: 3.8e9,
            fp64_per_cycle: 32.0,
            l1_bytes_per_cycle: 128.0,
            l2_bytes_per_cycle: 64.0,
            l3_bytes_per_cycle: None,
            l3_bytes: 105.0 * 1024.0 * 1024.0,
            dram_gbps: ddr(8.0, 4800.0),
        }
        .machine(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::catalogue::{all, by_id};

    #[test]
    fn the_cpu_ids_are_the_catalogues_cpus() {
        // Every id names a catalogue machine built as a CPU (L1 and L2 roofs, which no GPU
        // entry lists both of beside a DRAM roof at CPU bandwidths).
        for id in CPU_IDS {
            let m = by_id(id).unwrap_or_else(|| panic!("{id} is not in the catalogue"));
            assert!(is_cpu(&m), "{id}");
            assert!(m.memory_level(Level::L1).is_some() && m.memory_level(Level::L2).is_some(), "{id}");
        }
        // And no other catalogue machine is one: the GPUs.
        let cpus: Vec<String> = all().into_iter().filter(is_cpu).map(|m| m.id).collect();
        assert_eq!(cpus, ["epyc-7763", "xeon-gold-6132", "xeon-8480"]);
        assert!(!is_cpu(&by_id("v100").expect("v100")));
        assert_eq!(default_cpu().id, "xeon-gold-6132");
    }
}
