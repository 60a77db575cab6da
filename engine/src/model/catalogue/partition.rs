//! A part of a catalogue GPU: a MIG slice of an A100 or H100, an AMD compute partition (CPX,
//! DPX, QPX of an MI300X), a cut-down part sold under a listed name. The device's own SM (CU)
//! count decides, not the name its profiler prints (docs/MODEL.md, "Which machine").
//!
//! What scales with the part:
//! - **Compute** (vector, matrix, integer) and the issue rate are per-SM rates × SMs × clock,
//!   so the part's roofs are the whole GPU's × its share of SMs. The whole GPU's entry is
//!   used rather than the architecture's rates so that a data sheet's own numbers (and its
//!   known departures from the rates) carry over.
//! - **L1 and shared memory** are per SM: the same share.
//! - **DRAM and L2** of a MIG slice: NVIDIA's MIG user guide partitions memory and L2 into
//!   slices that go with the GPU instance ("3g.20gb": 3 compute slices, 20 GB of memory
//!   slices, and the L2 and memory controllers of those slices), so they scale with the
//!   slice's memory over the whole GPU's (20 of an A100 40GB's 40: half).
//! - **DRAM and L2 of any other part** (an AMD compute partition shares the whole HBM and
//!   Infinity Cache in NPS1 mode; a cut-down SKU's memory system is unknown): kept as the
//!   whole GPU's, an upper bound, and the note says so. Where the device reports its memory
//!   clock and bus width, DRAM is 2 × clock × width / 8 instead ([`super::arch::dram_bytes_per_s`]).

use super::arch::dram_bytes_per_s;
use super::gpu::GIB;
use crate::domain::Device;
use crate::model::machine::{Level, Machine};

/// A device name split at its MIG profile, lower-cased: "NVIDIA A100-SXM4-80GB MIG 3g.40gb" →
/// ("nvidia a100-sxm4-80gb", Some("3g.40gb")); a name without one → (name, None). The GPU's
/// name is what the catalogue's name rules read (the profile's memory word is the slice's).
pub fn split_mig(name: &str) -> (String, Option<String>) {
    let lower = name.to_ascii_lowercase();
    match lower.split_once("mig") {
        Some((gpu, profile)) => (gpu.trim_end().to_string(), Some(profile.trim().to_string())),
        None => (lower, None),
    }
}

/// A MIG profile in a device name, "NVIDIA A100-SXM4-40GB MIG 3g.20gb" → (3, 20.0): compute
/// slices and memory, GB. `None` without one.
pub fn mig_profile(name: &str) -> Option<(u32, f64)> {
    let (_, after) = split_mig(name);
    let token = after?.split(|c: char| c.is_whitespace() || c == ')' || c == '(').find(|t| !t.is_empty())?.to_string();
    let (g, gb) = token.split_once("g.")?;
    let slices = g.parse::<u32>().ok().filter(|n| *n > 0)?;
    let gb = gb.strip_suffix("gb")?.parse::<f64>().ok().filter(|v| v.is_finite() && *v > 0.0)?;
    Some((slices, gb))
}

/// The machine of `device` when it is a part of `whole` (fewer SMs than the entry), and the
/// sentence that says what was derived; `None` when the device has the entry's SM count or
/// does not say its own.
pub fn part_of(whole: &Machine, device: &Device) -> Option<(Machine, String)> {
    let sms = device.sm_count.filter(|n| *n > 0)?;
    let all = whole.sm_count.filter(|n| *n > 0)?;
    if sms >= all {
        return None;
    }
    let share = f64::from(sms) / f64::from(all);
    let unit = if whole.vendor == Some(crate::domain::Vendor::Amd) { "CUs" } else { "SMs" };
    let mig = device.name.as_deref().and_then(mig_profile);
    let whole_gb = whole.memory_bytes.map(|b| (b / GIB).round()).filter(|g| *g > 0.0);
    let memory_share = match (mig, whole_gb) {
        (Some((_, gb)), Some(all_gb)) => Some((gb / all_gb).min(1.0)),
        _ => None,
    };
    let derived_dram = match (device.memory_clock_hz, device.memory_bus_bits) {
        (Some(c), Some(bits)) if mig.is_none() && c.is_finite() && c > 0.0 && bits > 0 => Some(dram_bytes_per_s(c, bits)),
        _ => None,
    };
    let mut m = whole.clone();
    m.edit_peaks(|compute, memory| {
        compute.iter_mut().for_each(|c| c.flops_per_s *= share);
        for l in memory.iter_mut() {
            match l.level {
                Level::L1 | Level::Shared => l.bytes_per_s *= share,
                Level::L2 | Level::Dram => {
                    if let Some(ms) = memory_share {
                        l.bytes_per_s *= ms;
                    } else if let (Level::Dram, Some(d)) = (l.level, derived_dram) {
                        l.bytes_per_s = d;
                    }
                }
                Level::L3 => {}
            }
        }
    });
    if let Some(i) = m.issue.as_mut() {
        i.compute_units = sms;
    }
    m.sm_count = Some(sms);
    m.memory_bytes = device.memory_bytes.or(whole.memory_bytes.map(|b| b * memory_share.unwrap_or(1.0)));
    m.l2_bytes = match memory_share {
        Some(ms) => whole.l2_bytes.map(|b| b * ms),
        None => device.l2_bytes.or(whole.l2_bytes),
    };
    m.name = device.name.clone().unwrap_or_else(|| format!("{} ({sms} {unit})", whole.name));
    let (id, note) = match (mig, memory_share, whole_gb) {
        (Some((g, gb)), Some(ms), Some(all_gb)) => (
            format!("{}-mig-{g}g.{gb}gb", whole.id),
            format!(
                "a MIG slice ({g}g.{gb}gb) of the {}: compute roofs of its {sms} of {all} {unit}; DRAM and L2 of its {gb} of {all_gb} GB of memory slices ({:.0}%)",
                whole.name,
                ms * 100.0
            ),
        ),
        _ => (
            format!("{}-{sms}{}", whole.id, unit.to_ascii_lowercase()),
            format!(
                "{} has {sms} of the {}'s {all} {unit} (a partition or a cut-down part): compute roofs scaled to its {sms} {unit}; {}",
                device.name.as_deref().unwrap_or("the device"),
                whole.name,
                if derived_dram.is_some() { "DRAM from its memory clock and bus width, L2 the whole GPU's (an upper bound)" } else { "DRAM and L2 the whole GPU's (an upper bound)" }
            ),
        ),
    };
    m.id = id;
    m.source = format!("{}; {note}", whole.source);
    Some((m, note))
}

/// An AMD Instinct MI300X in CPX (core-partitioned) mode, one of its eight partitions: one
/// XCD, 38 of the 304 CUs (AMD's MI300X compute-partitioning guide: SPX one partition of all
/// 8 XCDs, DPX 2 × 4, QPX 4 × 2, CPX 8 × 1). Compute roofs are the whole MI300X's ÷ 8; in NPS1
/// memory mode every partition reaches the whole HBM and Infinity Cache, so DRAM is the whole
/// MI300X's, an upper bound for one partition (its note says so). ROCm shows each partition as
/// a device named as the whole GPU with 38 CUs, which [`part_of`] derives the same way.
pub fn mi300x_cpx() -> Machine {
    let device = Device { name: Some("AMD Instinct MI300X (CPX partition)".into()), arch: Some("gfx942".into()), sm_count: Some(38), ..Device::default() };
    let whole = super::mi300x();
    match part_of(&whole, &device) {
        Some((mut m, _)) => {
            m.id = "mi300x-cpx".into();
            m
        }
        None => whole,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::DataType;
    use crate::model::catalogue::{a100_40gb, h100, mi300x};
    use crate::model::ComputeKind;

    #[test]
    fn mig_profiles_from_names() {
        assert_eq!(mig_profile("NVIDIA A100-SXM4-40GB MIG 3g.20gb"), Some((3, 20.0)));
        assert_eq!(mig_profile("NVIDIA H100 80GB HBM3 MIG 1g.10gb"), Some((1, 10.0)));
        assert_eq!(mig_profile("NVIDIA A100-SXM4-40GB"), None);
        assert_eq!(mig_profile("NVIDIA A100 MIG xg.20gb"), None);
    }

    /// An A100 40GB's 3g.20gb slice as Nsight Compute reports it: 42 SMs.
    #[test]
    fn a_mig_slice_gets_its_sms_and_memory_slices() {
        let d = Device { name: Some("NVIDIA A100-SXM4-40GB MIG 3g.20gb".into()), compute_capability: Some((8, 0)), sm_count: Some(42), ..Device::default() }.normalised();
        let whole = a100_40gb();
        let (m, note) = part_of(&whole, &d).expect("a slice");
        // FP64: 108 SMs × 64 FLOPs × 1.41 GHz = 9.75 TFLOP/s for the whole (data sheet 9.7);
        // 42 of 108 SMs: 42 × 64 × 1.41e9 = 3.79 TFLOP/s. BF16 matrix 42 × 2048 × 1.41e9 =
        // 121.28 TFLOP/s (the whole: 312).
        let fp64 = m.compute_ceiling(ComputeKind::Fp64).map_or(0.0, |c| c.flops_per_s);
        assert!((fp64 / (42.0 * 64.0 * 1.41e9) - 1.0).abs() < 0.01, "{fp64}");
        let bf16 = m.matrix_ceiling(DataType::Bf16).map_or(0.0, |c| c.flops_per_s);
        assert!((bf16 / (42.0 * 2048.0 * 1.41e9) - 1.0).abs() < 0.01, "{bf16}");
        // DRAM: 20 of 40 GB of memory slices, half of 1555 GB/s = 777.5 GB/s.
        let dram = |x: &Machine| x.memory_level(Level::Dram).map_or(0.0, |l| l.bytes_per_s);
        assert_eq!(dram(&m), dram(&whole) / 2.0);
        assert!((dram(&m) - 777.5e9).abs() < 1e6, "{}", dram(&m));
        assert_eq!(m.issue.as_ref().map(|i| i.compute_units), Some(42));
        assert_eq!((m.id.as_str(), m.sm_count), ("a100-40gb-mig-3g.20gb", Some(42)));
        assert_eq!(note, "a MIG slice (3g.20gb) of the NVIDIA A100 SXM4 40GB: compute roofs of its 42 of 108 SMs; DRAM and L2 of its 20 of 40 GB of memory slices (50%)");
    }

    /// An MI300X in CPX mode shows each XCD as a device: 38 of its 304 CUs.
    #[test]
    fn an_amd_compute_partition_keeps_the_whole_hbm_as_an_upper_bound() {
        let d = Device { name: Some("AMD Instinct MI300X".into()), arch: Some("gfx942".into()), sm_count: Some(38), ..Device::default() }.normalised();
        let whole = mi300x();
        let (m, note) = part_of(&whole, &d).expect("a partition");
        let f = |x: &Machine, k| x.compute_ceiling(k).map_or(0.0, |c| c.flops_per_s);
        // 38 / 304 = 1/8 of every compute roof.
        assert!((f(&m, ComputeKind::Fp64) / f(&whole, ComputeKind::Fp64) - 0.125).abs() < 1e-12);
        assert_eq!(m.memory_level(Level::Dram), whole.memory_level(Level::Dram));
        assert!(note.contains("38 of the AMD Instinct MI300X's 304 CUs") && note.contains("upper bound"), "{note}");
        // The catalogue's CPX entry is that partition: FP64 vector 304 × 128 × 2.1 GHz ÷ 8 =
        // 38 × 128 × 2.1e9 = 10.2144 TFLOP/s.
        let cpx = mi300x_cpx();
        assert_eq!((cpx.id.as_str(), cpx.sm_count), ("mi300x-cpx", Some(38)));
        assert_eq!(f(&cpx, ComputeKind::Fp64), f(&m, ComputeKind::Fp64));
        assert!((f(&cpx, ComputeKind::Fp64) / (38.0 * 128.0 * 2.1e9) - 1.0).abs() < 0.02, "{}", f(&cpx, ComputeKind::Fp64));
    }

    #[test]
    fn the_whole_gpu_is_no_part() {
        let d = Device { name: Some("NVIDIA H100 80GB HBM3".into()), sm_count: Some(132), ..Device::default() };
        assert!(part_of(&h100(), &d).is_none());
        assert!(part_of(&h100(), &Device::default()).is_none());
    }
}
