//! CPUs, one socket each. Peaks are at the base clock with every core busy: AVX-512-heavy
//! code may run below base (Intel's AVX-512 frequency licence), so the FP peak is an upper
//! bound. FLOPs per cycle per core: two FMA units × vector lanes × 2.

use super::{finish, gbps, set, vector};
use crate::model::machine::{ComputeKind, Level, Machine};
use crate::units::{GIGA, MEGA};

/// DDR bandwidth: channels × MT/s × 8 bytes.
fn ddr(channels: f64, mega_transfers: f64) -> f64 {
    channels * mega_transfers * MEGA * 8.0 / GIGA
}

fn cpu(id: &str, name: &str, source: &str, cores: f64, clock_hz: f64, fp64_per_cycle: f64, dram_gbps: f64) -> Machine {
    let fp64 = cores * fp64_per_cycle * clock_hz;
    let mut compute = Vec::new();
    compute.extend(vector("FP64", ComputeKind::Fp64, fp64));
    compute.extend(vector("FP32", ComputeKind::Fp32, 2.0 * fp64));
    Machine {
        id: id.into(),
        name: name.into(),
        source: source.into(),
        clock_hz: Some(clock_hz),
        base_clock_hz: Some(clock_hz),
        theoretical: set(source, compute, vec![gbps("DRAM", Level::Dram, dram_gbps)]),
        ..Default::default()
    }
}

/// Intel Xeon Gold 6132 (Skylake-SP), the GPU course's "14-core Intel Xeon Gold 6132 CPU
/// (∼1 200 GFlops)", "∼100 GB/s".
///
/// Intel ARK: 14 cores, 2.6 GHz base, 3.7 GHz turbo, two AVX-512 FMA units, 6 channels
/// DDR4-2666. FP64 14 × 32 FLOP/cycle × 2.6 GHz = 1164.8 GFLOP/s; DRAM 6 × 2666 MT/s × 8 B =
/// 128.0 GB/s. Empirical: the course's AX run (x ← αx, 16 bytes per element) attains 91 GB/s.
pub fn xeon_gold_6132() -> Machine {
    let mut m = cpu(
        "xeon-gold-6132",
        "Intel Xeon Gold 6132, 14 cores (2.6 GHz)",
        "Intel ARK (Xeon Gold 6132); GPU course roofline slides (AX measurement)",
        14.0,
        2.6e9,
        32.0,
        ddr(6.0, 2666.0),
    );
    m.boost_clock_hz = Some(3.7e9);
    m.empirical = set("GPU course roofline slides: AX with 14 threads, 91 GB/s", vec![], vec![gbps("DRAM", Level::Dram, 91.0)]);
    finish(m)
}

/// AMD EPYC 7763 (Milan, Zen 3): 64 cores, 2.45 GHz base, 3.5 GHz boost, 256 MB L3, 8
/// channels DDR4-3200 (204.8 GB/s). Zen 3 has two 256-bit FMA pipes: 16 FP64 FLOP/cycle, so
/// 64 × 16 × 2.45 GHz = 2508.8 GFLOP/s. AMD EPYC 7003 product page; the CPU of NERSC
/// Perlmutter's nodes.
pub fn epyc_7763() -> Machine {
    let mut m = cpu(
        "epyc-7763",
        "AMD EPYC 7763, 64 cores (2.45 GHz)",
        "AMD EPYC 7003 series specifications (EPYC 7763)",
        64.0,
        2.45e9,
        16.0,
        ddr(8.0, 3200.0),
    );
    m.boost_clock_hz = Some(3.5e9);
    finish(m)
}

/// Intel Xeon Platinum 8480+ (Sapphire Rapids): 56 cores (four 14-core tiles), 2.0 GHz base,
/// two AVX-512 FMA units (32 FP64 FLOP/cycle): 56 × 32 × 2.0 GHz = 3584 GFLOP/s; 8 channels
/// DDR5-4800 = 307.2 GB/s. Intel ARK (Xeon Platinum 8480+). AMX tile units are not listed.
pub fn xeon_platinum_8480() -> Machine {
    let mut m = cpu(
        "xeon-8480",
        "Intel Xeon Platinum 8480+, 56 cores (2.0 GHz)",
        "Intel ARK (Xeon Platinum 8480+)",
        56.0,
        2.0e9,
        32.0,
        ddr(8.0, 4800.0),
    );
    m.boost_clock_hz = Some(3.8e9);
    finish(m)
}
