//! Property tests of the model: roofs bound performance, dots move the right way, unit
//! conversions round-trip.

use proptest::prelude::*;
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue::{all, v100};
use roofline_engine::model::classic::attainable_flops_per_s;
use roofline_engine::model::guidance::guide;
use roofline_engine::model::hierarchical::{kernel_points, level_bytes};
use roofline_engine::model::instruction::level_txn;
use roofline_engine::model::{ComputeKind, Level, TransactionSizes};
use roofline_engine::units::{GIGA, KIBI, TERA};
use roofline_engine::KernelProfile;

fn kernel(time_s: f64, fp64: f64, l1: f64, l2: f64, dram: f64) -> KernelProfile {
    let mut c = Counters::default();
    c.set(Counter::TimeS, time_s);
    c.set(Counter::Fp64Flops, fp64);
    c.set(Counter::L1Bytes, l1);
    c.set(Counter::L2Bytes, l2);
    c.set(Counter::DramBytes, dram);
    KernelProfile { name: "k".into(), launches: 1, counters: c }
}

proptest! {
    #[test]
    fn attainable_is_under_both_roofs(ai in 1e-4f64..1e4, peak in 1e9f64..1e16, bw in 1e9f64..1e14) {
        let a = attainable_flops_per_s(ai, peak, bw);
        prop_assert!(a <= peak && a <= bw * ai);
        prop_assert!(a == peak || a == bw * ai);
    }

    /// The roof guidance finds is under every ceiling the kernel meets: the FP64 peak and
    /// each level's bandwidth × that level's intensity (hierarchical roofline).
    #[test]
    fn hierarchical_attainable_is_under_every_ceiling(
        time_s in 1e-6f64..10.0, fp64 in 1e3f64..1e15, l1 in 1e3f64..1e15, l2 in 1e3f64..1e15, dram in 1e3f64..1e15,
    ) {
        let m = v100();
        let k = kernel(time_s, fp64, l1, l2, dram);
        let g = guide(&k, &m).expect("kernel has time and counters");
        let attainable = fp64 / g.roof_time_s;
        let peak = m.compute_ceiling(ComputeKind::Fp64).map(|c| c.flops_per_s).unwrap_or(0.0);
        prop_assert!(attainable <= peak * (1.0 + 1e-12));
        for (level, bytes) in [(Level::L1, l1), (Level::L2, l2), (Level::Dram, dram)] {
            let bw = m.memory_level(level).map(|l| l.bytes_per_s).unwrap_or(0.0);
            prop_assert!(attainable <= bw * (fp64 / bytes) * (1.0 + 1e-12), "{level:?}");
        }
        prop_assert!((g.attained_fraction * g.headroom.expect("both sides measured") - 1.0).abs() < 1e-9);
    }

    /// Fewer bytes at a level (better locality) moves that level's dot right, at the same height.
    #[test]
    fn dots_move_right_when_bytes_fall(dram in 1e3f64..1e15, factor in 0.01f64..0.99) {
        let s = TransactionSizes::NVIDIA;
        let before = kernel_points(0, &kernel(1e-3, 1e9, 1e9, 1e9, dram), None, &s);
        let after = kernel_points(0, &kernel(1e-3, 1e9, 1e9, 1e9, dram * factor), None, &s);
        let at = |ps: &[roofline_engine::model::RooflinePoint]| ps.iter().find(|p| p.level == Level::Dram).map(|p| (p.flops_per_byte, p.flops_per_s));
        let (Some((x0, y0)), Some((x1, y1))) = (at(&before), at(&after)) else { return Err(TestCaseError::fail("no DRAM dot")) };
        prop_assert!(x1 > x0);
        prop_assert_eq!(y0, y1);
    }

    /// Decimal prefixes and binary kibibytes convert and convert back.
    #[test]
    fn unit_conversions_round_trip(v in 1e-3f64..1e6) {
        prop_assert!(((v * GIGA) / GIGA - v).abs() <= v * 1e-15);
        prop_assert!(((v * TERA) / TERA - v).abs() <= v * 1e-15);
        prop_assert!(((v * KIBI) / KIBI - v).abs() <= v * 1e-15);
    }

    /// Bytes → transactions → bytes at each level, and a clock change undone.
    #[test]
    fn transactions_and_clocks_round_trip(sectors in 1.0f64..1e12, shared in 1.0f64..1e12, mhz in 500.0f64..3000.0) {
        let s = TransactionSizes::NVIDIA;
        let mut c = Counters::default();
        c.set(Counter::DramTxn, sectors);
        c.set(Counter::SharedTxn, shared);
        let k = KernelProfile { name: "k".into(), launches: 1, counters: c };
        let bytes = level_bytes(&k, Level::Dram, &s).unwrap_or(f64::NAN);
        prop_assert!((bytes / s.sector_bytes - sectors).abs() <= sectors * 1e-12);
        let mut c = Counters::default();
        c.set(Counter::DramBytes, bytes);
        c.set(Counter::SharedBytes, level_bytes(&k, Level::Shared, &s).unwrap_or(f64::NAN));
        let k2 = KernelProfile { name: "k".into(), launches: 1, counters: c };
        prop_assert!((level_txn(&k2, Level::Dram, &s).unwrap_or(f64::NAN) - sectors).abs() <= sectors * 1e-12);
        prop_assert!((level_txn(&k2, Level::Shared, &s).unwrap_or(f64::NAN) - shared).abs() <= shared * 1e-12);

        for m in all() {
            let there = m.at_clock(mhz * 1e6);
            let back = there.at_clock(m.clock_hz.unwrap_or(1.0));
            for (a, b) in m.compute.iter().zip(&back.compute) {
                prop_assert!((a.flops_per_s - b.flops_per_s).abs() <= a.flops_per_s * 1e-12, "{}", m.id);
            }
            for (a, b) in m.memory.iter().zip(&back.memory) {
                prop_assert!((a.bytes_per_s - b.bytes_per_s).abs() <= a.bytes_per_s * 1e-12, "{}", m.id);
            }
        }
    }
}
