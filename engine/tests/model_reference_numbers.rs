//! The reference numbers of shared/reference/, reproduced by the model.

use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue::{v100, v100_pcie};
use roofline_engine::model::classic::{attainable_flops_per_s, intensity, ridge_flops_per_byte};
use roofline_engine::model::guidance::{guide, summary};
use roofline_engine::model::walls::{walls, WallMemory};
use roofline_engine::model::{Basis, ComputeKind, Level};
use roofline_engine::KernelProfile;

fn close(actual: f64, expected: f64, tol: f64) -> bool {
    (actual - expected).abs() <= tol
}

/// Ding & Williams §III-A and §IV-E: the V100's Instruction Roofline ceilings. The paper prints
/// them rounded to one decimal (437.5 → "437", 93.625 → "93.6", 25.875 → "25.9", 109.375 →
/// "109.4") and 125000 / 512 = 244.14 as "244"; tolerances are half a unit of the last digit
/// printed.
#[test]
fn v100_instruction_roofline_ceilings() {
    let m = v100();
    let gips = |v: Option<f64>| v.map(|v| v / 1e9).unwrap_or(f64::NAN);
    assert!(close(gips(m.warp_inst_per_s()), 489.6, 1e-9), "{:?}", m.warp_inst_per_s());
    assert!(close(gips(m.txn_per_s(Level::L1)), 437.5, 1e-9));
    assert!(close(gips(m.txn_per_s(Level::L2)), 93.6, 0.05));
    assert!(close(gips(m.txn_per_s(Level::Dram)), 25.9, 0.05));
    assert!(close(gips(m.txn_per_s(Level::Shared)), 109.4, 0.05));
    assert!(close(gips(m.tensor_inst_per_s()), 244.0, 0.5));
    assert_eq!(m.flops_per_tensor_inst, Some(512.0));
}

/// The memory walls at 1, 1/4, 1/8, 1/32 (global) and 1, 1/32 (shared), each capped by its
/// GTXN/s ceiling (and never above the 489.6 peak GIPS).
#[test]
fn v100_walls() {
    let m = v100();
    let ws = walls(&m);
    let global: Vec<f64> = ws.iter().filter(|w| w.memory == WallMemory::Global).map(|w| w.inst_per_txn).collect();
    let shared: Vec<f64> = ws.iter().filter(|w| w.memory == WallMemory::Shared).map(|w| w.inst_per_txn).collect();
    assert_eq!(global, [1.0, 0.25, 0.125, 1.0 / 32.0]);
    assert_eq!(shared, [1.0, 1.0 / 32.0]);
    for w in &ws {
        let cap = w.cap_inst_per_s.expect("V100 has the ceilings");
        let level = if w.memory == WallMemory::Global { Level::L1 } else { Level::Shared };
        let by_bw = m.txn_per_s(level).unwrap_or(0.0) * w.inst_per_txn;
        assert!(close(cap, by_bw.min(489.6e9), 1.0), "{w:?}");
    }
    // Stride-0 on L1: 437.5 GTXN/s × 1 is under the 489.6 GIPS peak.
    assert!(close(ws[0].cap_inst_per_s.unwrap_or(0.0) / 1e9, 437.5, 1e-9));
}

fn ax() -> KernelProfile {
    // GPU course slides: x ← αx over n = 500e6 doubles, 0.010582 s on a V100: n FLOPs, 16n bytes.
    let n = 500e6;
    let mut c = Counters::default();
    c.set(Counter::Fp64Flops, n);
    c.set(Counter::DramBytes, 16.0 * n);
    c.set(Counter::TimeS, 0.010582);
    KernelProfile { name: "ax_kernel".into(), launches: 1, counters: c }
}

/// The course's AX: intensity 1/16, "Floprate = 47 GFlops", "Memory throughput = 756 GB/s".
#[test]
fn ax_intensity_floprate_and_throughput() {
    let k = ax();
    let ai = intensity(k.total_flops(None), k.counters.get(Counter::DramBytes));
    assert_eq!(ai, Some(1.0 / 16.0));
    let t = k.time_s().unwrap_or(f64::NAN);
    let gflops = 500e6 / t / 1e9;
    let gbps = 8e9 / t / 1e9;
    assert_eq!(gflops.round(), 47.0, "{gflops}");
    assert_eq!(gbps.round(), 756.0, "{gbps}");
    // Under the 900 GB/s roof: min(7 TFLOP/s, 900 GB/s × 1/16) = 56.25 GFLOP/s.
    assert!(close(attainable_flops_per_s(1.0 / 16.0, 7000e9, 900e9) / 1e9, 56.25, 1e-9));
}

/// The course's V100 (the PCIe card: "∼7 000 GFlops", "∼900 GB/s") runs AX at 84% of its HBM
/// roof, as Nsight Compute's "SOL FB 84,58 %" on the same slide says.
#[test]
fn ax_guidance_on_the_course_v100() {
    let m = v100_pcie();
    let k = ax();
    let g = guide(&k, &m).expect("guidance");
    assert_eq!(g.binding.name, "HBM bandwidth");
    assert_eq!(g.binding.level, Some(Level::Dram));
    assert!(close(g.attained_fraction, 756.0 / 900.0, 0.001), "{}", g.attained_fraction);
    assert_eq!(summary(&k, Some(&g), Some(&m)), "bound by HBM bandwidth at 84% of its roof; could run 1.2x faster at this intensity");
}

/// FP64 ridge points. The course: 7000 GFLOP/s over 900 GB/s = 7.78 ("∼7.7 Flop/Byte"); its
/// V100 is the PCIe card, 80 SMs × 32 × 2 × 1.38 GHz = 7065.6 GFLOP/s at boost → 7.85. The
/// tolerance is 0.1 because the slide rounds both peaks ("∼7 000", "∼900"). Nsight Compute
/// locks the clock to base, 1312 MHz on the SXM2 V100 of the BerkeleyGW post: 6717.4 / 900 =
/// 7.46, "the machine balance point for the V100 in double-precision is … 7.5" (to 0.05, half
/// its last digit). At the SXM2's 1530 MHz boost it would be 8.70.
#[test]
fn v100_fp64_ridges() {
    assert!(close(ridge_flops_per_byte(7000e9, 900e9), 7.8, 0.05));

    let pcie = v100_pcie().with_basis(Basis::Theoretical);
    let ridge = |m: &roofline_engine::model::Machine| {
        let fp64 = m.compute_ceiling(ComputeKind::Fp64).map(|c| c.flops_per_s).unwrap_or(f64::NAN);
        let hbm = m.memory_level(Level::Dram).map(|l| l.bytes_per_s).unwrap_or(f64::NAN);
        ridge_flops_per_byte(fp64, hbm)
    };
    assert_eq!(pcie.clock_hz, pcie.boost_clock_hz);
    assert!(close(ridge(&pcie), 7.8, 0.1), "{}", ridge(&pcie));

    let sxm2 = v100().with_basis(Basis::Theoretical);
    let base = sxm2.at_clock(sxm2.base_clock_hz.unwrap_or(f64::NAN));
    assert!(close(base.clock_hz.unwrap_or(0.0), 1312e6, 1e-3));
    assert!(close(ridge(&base), 7.5, 0.05), "{}", ridge(&base));
    assert!(close(ridge(&sxm2), 8.70, 0.01), "{}", ridge(&sxm2));
}

/// The course's GEMM: 2n³ FLOPs for n = 5000 in "0.041 s", "6077 GFlops". The slide prints
/// the time to the millisecond, so the true time is in [0.0405, 0.0415) s and the rate within
/// ±1.25% of 2n³ / 0.041 = 6098 GFLOP/s; 6077 is inside that band (and Nsight Compute's
/// "Duration 41,06 msecond" on the next slide gives 6089).
#[test]
fn gemm_floprate() {
    let n: f64 = 5000.0;
    let flops = 2.0 * n.powi(3);
    let gflops = flops / 0.041 / 1e9;
    assert!((gflops - 6077.0).abs() / 6077.0 < 0.0125, "{gflops}");
    assert!(flops / 0.0415 / 1e9 <= 6077.0 && 6077.0 <= flops / 0.0405 / 1e9);
    // 88% of the course's "∼7 000 GFlops" ("between 46% and 88% of the peak").
    assert_eq!((6077.0 / 7000.0_f64 * 100.0).round(), 87.0);
}
