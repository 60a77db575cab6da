//! Chart scenes at the reference numbers of shared/reference/: where roofs, walls and dots
//! land on the V100 (Ding & Williams §III-A ceilings, the hierarchical roofline of the Nsight
//! Compute post), read back from the shapes' pixels through the scene's axes.

use roofline_engine::chart::{self, ChartInput, Hit, Marker, Mode, Scene, Shape, Theme, WordSize};
use roofline_engine::domain::counters::Counter;
use roofline_engine::domain::Transfer;
use roofline_engine::model::catalogue::v100;
use roofline_engine::model::Level;
use roofline_engine::KernelProfile;

fn kernel(name: &str, pairs: &[(Counter, f64)]) -> KernelProfile {
    KernelProfile::from_counters(name, pairs)
}

fn texts(s: &Scene) -> Vec<&str> {
    s.shapes.iter().filter_map(|sh| if let Shape::Text { text, .. } = sh { Some(text.as_str()) } else { None }).collect()
}

/// Lines of one colour and width 2 or 1.5 (ceilings), as pixel points.
fn lines_of(s: &Scene, color: chart::Color) -> Vec<&Vec<(f64, f64)>> {
    s.shapes
        .iter()
        .filter_map(|sh| match sh {
            Shape::Line { points, color: c, width, .. } if *c == color && *width >= 1.5 => Some(points),
            _ => None,
        })
        .collect()
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

/// A V100 kernel with FP64 FLOPs and bytes at L1, L2 and DRAM.
fn three_level_kernel() -> KernelProfile {
    kernel("stencil", &[(Counter::Fp64Flops, 4e9), (Counter::L1Bytes, 16e9), (Counter::L2Bytes, 8e9), (Counter::DramBytes, 2e9), (Counter::TimeS, 2e-3)])
}

#[test]
fn hierarchical_dots_share_a_height_and_the_l2_roof_passes_one_flop_per_byte_at_2996() {
    let m = v100();
    let ks = [three_level_kernel()];
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Hierarchical).with_selected(Some(0)));
    assert_eq!(s.hits.len(), 3, "{:?}", s.hits);
    assert!(s.hits.iter().all(|h| h.kernel == 0 && h.marker == Marker::Level && (h.cy - s.hits[0].cy).abs() < 1e-9));
    let at = |l: Level| s.hits.iter().find(|h| h.level == Some(l)).map(|h| s.x.from_px(h.cx)).unwrap_or(f64::NAN);
    assert!(rel(at(Level::L1), 0.25) < 1e-9 && rel(at(Level::L2), 0.5) < 1e-9 && rel(at(Level::Dram), 2.0) < 1e-9);
    assert!(rel(s.y.from_px(s.hits[0].cy), 2e12) < 1e-9);
    // The L2 roof (in the L2 dots' colour) is y = 2996 GB/s × x: at 1 FLOP/B, 2996 GFLOP/s.
    let pal = Theme::Light.palette();
    let l2 = lines_of(&s, pal.level(Level::L2));
    assert_eq!(l2.len(), 1);
    let (p0, p1) = (l2[0][0], l2[0][1]);
    let x1 = s.x.to_px(1.0);
    assert!(p0.0 < x1 && x1 < p1.0, "1 FLOP/B is on the drawn roof");
    let y_at = p0.1 + (x1 - p0.0) * (p1.1 - p0.1) / (p1.0 - p0.0);
    assert!(rel(s.y.from_px(y_at), 2996e9) < 1e-9, "{}", s.y.from_px(y_at));
    // It ends on the FP64 roof, at the L2 ridge 7833.6 / 2996 = 2.61 FLOP/B.
    assert!(rel(s.x.from_px(p1.0), 7833.6 / 2996.0) < 1e-9 && rel(s.y.from_px(p1.1), 7833.6e9) < 1e-9);
    let t = texts(&s);
    for label in ["L1 14000 GB/s", "L2 2996 GB/s", "HBM 828 GB/s", "FP64 7.83 TFLOP/s", "L1", "L2", "HBM", "dot area ∝ share of run time"] {
        assert!(t.contains(&label), "{label} in {t:?}");
    }
    assert!(t.contains(&"Performance (GFLOP/s)") && t.iter().any(|x| x.starts_with("Arithmetic intensity (FLOP/byte")));
    // Ridge marks on the FP64 roof, one per level: 7833.6 / 828 = 9.46.
    assert!(t.contains(&"9.46"), "{t:?}");
    // No tensor FLOPs, no tensor roof; with tensor instructions, the tensor roof appears.
    assert!(!t.iter().any(|x| x.contains("matrix")));
    let mut tk = three_level_kernel();
    tk.counters.set(Counter::TensorInst, 1e6);
    let ks = [tk];
    for mode in [Mode::Classic, Mode::Hierarchical] {
        let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(mode));
        assert!(texts(&s).contains(&"FP16 matrix 125 TFLOP/s"), "{mode:?}: {:?}", texts(&s));
    }
}

#[test]
fn hidden_levels_and_ceilings_switch_off() {
    let m = v100();
    let ks = [three_level_kernel()];
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Hierarchical).with_hidden_levels(&[Level::L1]));
    assert_eq!(s.hits.len(), 2);
    assert!(!texts(&s).contains(&"L1 14000 GB/s"));
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Hierarchical).with_ceilings(false));
    assert_eq!(s.hits.len(), 3);
    assert!(!texts(&s).iter().any(|t| t.ends_with("GB/s") || t.ends_with("FLOP/s")));
    // Levels of one bandwidth share one roof (V100 L1 and shared memory are one array).
    let mut k = three_level_kernel();
    k.counters.set(Counter::SharedBytes, 1e9);
    let ks = [k];
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Hierarchical));
    assert_eq!(s.hits.len(), 4);
    assert!(texts(&s).contains(&"L1 / Shared 14000 GB/s"), "{:?}", texts(&s));
}

/// Ding & Williams Fig. 2(b), GSRB_BRANCH: half of each warp's threads active.
fn predicated_kernel() -> KernelProfile {
    kernel(
        "gsrb_branch",
        &[(Counter::WarpInst, 1e9), (Counter::ThreadInst, 16e9), (Counter::GlobalTxn, 2e8), (Counter::L2Txn, 1e8), (Counter::DramTxn, 5e7), (Counter::TimeS, 1e-2)],
    )
}

#[test]
fn instruction_roofline_l1_ceiling_is_437_5_gtxn_until_489_6_gips() {
    let m = v100();
    let ks = [predicated_kernel()];
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Instruction));
    let pal = Theme::Light.palette();
    let l1 = lines_of(&s, pal.level(Level::L1));
    assert_eq!(l1.len(), 1);
    for &(px, py) in l1[0] {
        assert!(rel(s.y.from_px(py) / s.x.from_px(px), 437.5e9) < 1e-9);
    }
    let end = l1[0][1];
    assert!(rel(s.y.from_px(end.1), 489.6e9) < 1e-9, "the L1 roof stops at the peak: {}", s.y.from_px(end.1));
    assert!(rel(s.x.from_px(end.0), 489.6 / 437.5) < 1e-9);
    let peak = lines_of(&s, pal.compute);
    assert!(peak.iter().any(|p| p.len() == 2 && p.iter().all(|q| rel(s.y.from_px(q.1), 489.6e9) < 1e-9)), "flat peak");
    let t = texts(&s);
    for label in ["L1 437.5 GTXN/s", "L2 93.62 GTXN/s", "HBM 25.88 GTXN/s", "Peak 489.6 warp GIPS", "Performance (warp GIPS)", "Instruction intensity (warp inst/transaction)"] {
        assert!(t.contains(&label), "{label} in {t:?}");
    }
    // One warp dot per level at 100 warp GIPS; thread dots at half (2× predication loss).
    let warp: Vec<&Hit> = s.hits.iter().filter(|h| h.marker == Marker::Level).collect();
    let thread: Vec<&Hit> = s.hits.iter().filter(|h| h.marker == Marker::Thread).collect();
    assert_eq!((warp.len(), thread.len()), (3, 3));
    assert!(warp.iter().all(|h| rel(s.y.from_px(h.cy), 100e9) < 1e-9));
    assert!(thread.iter().all(|h| rel(s.y.from_px(h.cy), 50e9) < 1e-9));
    let l1_dot = warp.iter().find(|h| h.level == Some(Level::L1)).map(|h| s.x.from_px(h.cx));
    assert!(rel(l1_dot.unwrap_or(0.0), 5.0) < 1e-9, "1e9 warp inst / 2e8 transactions");
    // The dashed warp-GIPS line through the warp dots.
    assert!(s.shapes.iter().any(|sh| matches!(sh, Shape::Line { dash: true, points, .. } if points.len() == 3 && points.iter().all(|p| (p.1 - warp[0].cy).abs() < 1e-9))));
    assert!(!t.iter().any(|x| x.starts_with("HMMA")), "no tensor instructions, no HMMA ceiling");
}

#[test]
fn instruction_roofline_hmma_ceiling_for_tensor_kernels() {
    let m = v100();
    let mut k = predicated_kernel();
    k.counters.set(Counter::TensorInst, 1e8);
    let ks = [k];
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Instruction));
    assert!(texts(&s).contains(&"HMMA 244.1 GIPS"), "{:?}", texts(&s));
    let tensor: Vec<&Hit> = s.hits.iter().filter(|h| h.marker == Marker::Tensor).collect();
    assert_eq!(tensor.len(), 3);
    assert!(tensor.iter().all(|h| rel(s.y.from_px(h.cy), 10e9) < 1e-9), "1e8 HMMA in 10 ms");
}

/// Vertical lines of a colour: (x in data units, top in data units).
fn walls_of(s: &Scene, color: chart::Color) -> Vec<(f64, f64)> {
    s.shapes
        .iter()
        .filter_map(|sh| match sh {
            Shape::Line { points, color: c, .. } if *c == color && points.len() == 2 && points[0].0 == points[1].0 => Some((s.x.from_px(points[0].0), s.y.from_px(points[1].1))),
            _ => None,
        })
        .collect()
}

#[test]
fn memory_walls_on_the_v100_stand_at_their_intensities_capped_by_gtxn() {
    let m = v100();
    let k = kernel(
        "transpose",
        &[(Counter::WarpInst, 4e8), (Counter::GlobalTxn, 4e8), (Counter::GlobalLdStInst, 1e8), (Counter::SharedTxn, 1.6e8), (Counter::SharedLdStInst, 1e7), (Counter::TimeS, 1e-2)],
    );
    let ks = [k];
    let pal = Theme::Light.palette();
    let close = |got: &[(f64, f64)], want: &[(f64, f64)]| {
        got.len() == want.len() && want.iter().all(|w| got.iter().any(|g| rel(g.0, w.0) < 1e-9 && rel(g.1, w.1) < 1e-9))
    };
    // Global walls: min(489.6, 437.5 × x) warp GIPS; shared: 109.375 × x.
    let s = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Walls));
    let global = walls_of(&s, pal.level(Level::L1));
    assert!(close(&global, &[(1.0, 437.5e9), (0.25, 109.375e9), (1.0 / 32.0, 437.5e9 / 32.0)]), "{global:?}");
    let shared = walls_of(&s, pal.level(Level::Shared));
    assert!(close(&shared, &[(1.0, 109.375e9), (1.0 / 32.0, 109.375e9 / 32.0)]), "{shared:?}");
    let s64 = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Walls).with_word(WordSize::Bits64));
    let global = walls_of(&s64, pal.level(Level::L1));
    assert!(close(&global, &[(1.0, 437.5e9), (0.125, 437.5e9 / 8.0), (1.0 / 32.0, 437.5e9 / 32.0)]), "{global:?}");
    let t = texts(&s);
    for label in ["stride-0", "stride-1", "stride-8", "no bank conflict", "32-way bank conflict", "L1 437.5 GTXN/s", "Shared 109.4 GTXN/s", "Peak 489.6 warp GIPS"] {
        assert!(t.contains(&label), "{label} in {t:?}");
    }
    assert!(texts(&s64).contains(&"stride-4"), "the 1/32 wall of 64-bit words is the paper's stride-4");
    // LD/ST dots are open circles: global 1e8 / 4e8 = 1/4 at 10 GIPS, shared 1e7 / 1.6e8 = 1/16.
    for (marker, x, y) in [(Marker::GlobalLdSt, 0.25, 10e9), (Marker::SharedLdSt, 1.0 / 16.0, 1e9)] {
        let h = s.hits.iter().find(|h| h.marker == marker).copied();
        let h = h.unwrap_or_else(|| panic!("{marker:?} in {:?}", s.hits));
        assert!(rel(s.x.from_px(h.cx), x) < 1e-9 && rel(s.y.from_px(h.cy), y) < 1e-9);
        let open = s.shapes.iter().any(|sh| matches!(sh, Shape::Circle { cx, cy, fill: None, .. } if *cx == h.cx && *cy == h.cy));
        assert!(open, "{marker:?} is an open marker");
    }
    // The solid dot: all instructions per L1 transaction, 4e8 / (4e8 + 4 × 1.6e8).
    let solid = s.hits.iter().find(|h| h.marker == Marker::Level).map(|h| s.x.from_px(h.cx)).unwrap_or(0.0);
    assert!(rel(solid, 4e8 / 10.4e8) < 1e-9);
    // Walls off: no vertical walls, dots stay.
    let off = chart::build(&ChartInput::new(&ks, &m, 900.0, 560.0).with_mode(Mode::Walls).with_walls(false));
    assert!(walls_of(&off, pal.level(Level::Shared)).is_empty() && off.hits.len() == 3);
}

#[test]
fn transfers_sit_under_the_pcie_roof() {
    let m = v100();
    let ts = [
        Transfer { name: "[CUDA memcpy HtoD]".into(), count: 4, bytes: Some(4e9), time_s: Some(0.4) },
        Transfer { name: "[CUDA memset]".into(), count: 1, bytes: Some(1e9), time_s: Some(0.002) },
        Transfer { name: "[CUDA memcpy DtoH]".into(), count: 1, bytes: None, time_s: Some(0.1) },
    ];
    let s = chart::build(&ChartInput::new(&[], &m, 900.0, 560.0).with_mode(Mode::Transfers).with_transfers(&ts));
    assert_eq!(s.hits.len(), 2, "the copy without bytes has no dot");
    let h = s.hits[0];
    assert_eq!((h.kernel, h.marker), (0, Marker::Transfer));
    assert!(rel(s.x.from_px(h.cx), 1e9) < 1e-9 && rel(s.y.from_px(h.cy), 10e9) < 1e-9);
    let t = texts(&s);
    assert!(t.contains(&"PCIe 3.0 x16 15.75 GB/s") && t.contains(&"HBM 828 GB/s"), "{t:?}");
}
