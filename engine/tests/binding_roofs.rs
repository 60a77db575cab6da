//! Issue 43, "the chart shows what the words say": the roof that binds the selected kernel
//! (`guide`'s binding bound) is drawn and labelled in every chart that judges it, for every
//! kernel of every sample on the machine the engine chooses for it; the issue and combined
//! roofs by hand; and every roof keeps a label on a phone-sized chart with all roofs on.

mod samples;

use roofline_engine::chart::binding::judging_modes;
use roofline_engine::chart::labels::shape_box;
use roofline_engine::chart::{self, ChartInput, Mode, RoofKey, Scene, Shape};
use roofline_engine::choice::{choose, ClockChoice};
use roofline_engine::domain::counters::Counter;
use roofline_engine::model::guidance::{guide, Bound, BoundKind};
use roofline_engine::model::{catalogue, Machine};
use roofline_engine::{load_dataset, KernelProfile};
use samples::{all_paths, read};

/// The roof marked as the selected kernel's binding one; exactly one.
fn binding_roof<'s>(s: &'s Scene, what: &str) -> &'s RoofKey {
    let marked: Vec<&RoofKey> = s.roofs.iter().filter(|r| r.binding).collect();
    assert_eq!(marked.len(), 1, "{what}: binding roofs {marked:?} among {:?}", s.roofs.iter().map(|r| &r.name).collect::<Vec<_>>());
    marked[0]
}

/// Whether a box lies in the plot (half a pixel of rounding).
/// The performance (FLOP/s) of the scene's first dashed flat roof: a bound without a roof of
/// its own, drawn flat (chart::binding).
fn flat_roof_y(s: &Scene) -> f64 {
    s.shapes
        .iter()
        .find_map(|sh| match sh {
            Shape::Line { points, dash: true, .. } if points.len() == 2 && points[0].1 == points[1].1 => Some(s.y.from_px(points[0].1)),
            _ => None,
        })
        .expect("a dashed flat roof")
}

fn in_plot(s: &Scene, b: &[f64; 4]) -> bool {
    let p = s.plot;
    b[0] >= p[0] - 0.5 && b[1] >= p[1] - 0.5 && b[2] <= p[2] + 0.5 && b[3] <= p[3] + 0.5
}

/// Whether a box lies in the chart.
fn in_chart(s: &Scene, b: &[f64; 4]) -> bool {
    b[0] >= -0.5 && b[1] >= -0.5 && b[2] <= s.width + 0.5 && b[3] <= s.height + 0.5
}

/// The texts of a scene with their boxes.
fn texts(s: &Scene) -> Vec<(&str, [f64; 4])> {
    s.shapes.iter().filter_map(|sh| if let Shape::Text { text, .. } = sh { Some((text.as_str(), shape_box(sh)?)) } else { None }).collect()
}

/// Every roof's label is drawn (a text of the scene at its box, in the chart); a number is
/// explained by a key line "N full label".
fn assert_labelled(s: &Scene, what: &str) {
    let ts = texts(s);
    for r in &s.roofs {
        assert!(ts.iter().any(|(t, b)| *t == r.label && *b == r.label_box), "{what}: {r:?} has no text");
        assert!(in_chart(s, &r.label_box), "{what}: {r:?} outside the chart");
        if r.label.chars().all(|c| c.is_ascii_digit()) {
            let key = format!("{} {}", r.label, r.name);
            assert!(ts.iter().any(|(t, _)| *t == key), "{what}: no key {key:?}");
        }
    }
}

/// What the binding roof of `b` is called on `mode`'s chart (its full label starts so).
fn expected_name(b: &Bound, m: &Machine, mode: Mode) -> String {
    match b.kind {
        BoundKind::Issue => "Peak ".into(),
        BoundKind::Memory => {
            let level = b.level.and_then(|l| m.memory_level(l)).map_or(String::new(), |l| l.name.clone());
            // A level shares its roof with a level of the same bandwidth ("L1 / Shared").
            let _ = mode;
            level
        }
        BoundKind::Compute => {
            let own = b.name.strip_suffix(" compute").filter(|n| m.compute.iter().any(|c| c.name == *n));
            match own {
                Some(n) => format!("{n} "),
                None => b.name.clone(),
            }
        }
    }
}

/// Whether a roof's label names `want` ("BF16 matrix "): it starts with it, or it is the
/// label of roofs of one rate ("FP16 / BF16 matrix 1.07 PFLOP/s", "L1 / Shared 14000 GB/s")
/// with `want`'s first word among theirs, matrix roofs matching matrix roofs.
fn names_roof(label: &str, want: &str) -> bool {
    if label.starts_with(want) {
        return true;
    }
    let first = |s: &str| s.split(' ').next().unwrap_or("").to_string();
    let matrix = want.contains(" matrix") == label.contains(" matrix");
    matrix && label.contains(" / ") && label.split(" / ").any(|piece| first(piece) == first(want))
}

#[test]
fn names_of_shared_roofs() {
    assert!(names_roof("FP16 / BF16 matrix 1.07 PFLOP/s", "BF16 matrix "));
    assert!(names_roof("FP16 / BF16 matrix 1.07 PFLOP/s", "FP16 matrix "));
    assert!(!names_roof("FP32 / FP64 matrix 66.9 TFLOP/s", "FP64 "));
    assert!(names_roof("L1 / Shared 14000 GB/s", "Shared"));
}

#[test]
fn every_samples_binding_roof_is_drawn_where_it_is_judged() {
    let (mut checked, mut files, mut others) = (0usize, 0usize, 0usize);
    let mut kinds = std::collections::BTreeSet::new();
    for p in all_paths() {
        let Ok(ds) = load_dataset(&[read(&p)]) else { continue };
        let Ok(Some(choice)) = choose(&ds, None, ClockChoice::Measured) else { continue };
        let m = &choice.machine;
        files += 1;
        // A large run is charted kernel by kernel (the binding roof depends on the kernel and
        // the machine alone), so the test stays linear in the kernels.
        let whole = ds.kernels.len() <= 200;
        for (i, k) in ds.kernels.iter().enumerate() {
            let Some(g) = guide(k, m) else { continue };
            let (kernels, selected) = if whole { (&ds.kernels[..], i) } else { (std::slice::from_ref(k), 0) };
            for &mode in judging_modes(&g.binding) {
                let what = format!("{p} kernel {i} {:?} bound by {:?} on {mode:?}", k.name, g.binding.name);
                let s = chart::build(&ChartInput::new(kernels, m, 960.0, 595.0).with_mode(mode).with_selected(Some(selected)));
                let r = binding_roof(&s, &what);
                let want = expected_name(&g.binding, m, mode);
                assert!(names_roof(&r.name, &want), "{what}: {r:?}, expected {want:?}");
                assert!(in_plot(&s, &r.label_box) || in_chart(&s, &r.label_box), "{what}: {r:?}");
                assert_labelled(&s, &what);
                checked += 1;
                kinds.insert(format!("{:?}{}", g.binding.kind, if g.binding.name.contains(" + ") { " (pipes summed)" } else { "" }));
            }
            // The FLOP charts that do not judge it still show it: a roof of the kernel's own
            // (its FLOPs ÷ the bound's time), or a note naming the bound where it has no FLOPs.
            for mode in [Mode::Classic, Mode::Hierarchical].into_iter().filter(|m| !judging_modes(&g.binding).contains(m)) {
                let what = format!("{p} kernel {i} bound by {:?} on {mode:?}", g.binding.name);
                let s = chart::build(&ChartInput::new(kernels, m, 960.0, 595.0).with_mode(mode).with_selected(Some(selected)));
                let note = format!("bound by {}: see ", g.binding.name);
                if !texts(&s).iter().any(|(t, _)| t.starts_with(&note)) {
                    assert!(binding_roof(&s, &what).name.starts_with(&format!("{} ≈ ", g.binding.name)), "{what}");
                }
                others += 1;
            }
        }
    }
    // Every format's samples with a machine, and every kind of bound among them.
    // The samples with a machine (16 files: 8 Nsight Compute ones, the Advisor report, the
    // rocprof-compute sysinfo and ERT files with no kernels) give 11 kernels with guidance,
    // bound by memory (a level or DRAM) or by instruction issue: 20 charts that judge them.
    eprintln!("{files} files, {checked} judging charts, {others} others, {kinds:?}");
    assert!(files >= 16 && checked >= 20 && others >= 1, "{files} files, {checked} charts, {others} others");
    assert!(kinds.contains("Issue") && kinds.contains("Memory"), "{kinds:?}");
}

/// V100 (catalogue): 80 SMs × 4 schedulers × 1 warp instruction per cycle × 1.53 GHz =
/// 489.6 warp GIPS (Ding & Williams §III-A: "80(SM) × 4(warp scheduler) × 1(instruction/cycle)
/// × 1.53(GHz) = 489.6 GIPS"); HBM 828 GB/s
/// (their measured bandwidth); FP32 80 × 64 lanes × 2 FLOPs × 1.53 GHz = 15.667 TFLOP/s.
fn issue_bound_kernel() -> KernelProfile {
    // 1 ms; 489.6e9 × 0.69e-3 = 3.37824e8 warp instructions: issue needs 0.69 ms (69%);
    // 0.4 × 828e9 × 1e-3 = 3.312e8 DRAM bytes: 0.4 ms (40%); 1e9 FP32 FLOPs: 0.064 ms.
    KernelProfile::from_counters("issue_bound", &[(Counter::TimeS, 1e-3), (Counter::WarpInst, 3.37824e8), (Counter::DramBytes, 3.312e8), (Counter::Fp32Flops, 1e9)])
}

#[test]
fn an_issue_bound_kernel_gets_the_issue_roof() {
    let m = catalogue::v100();
    assert!((m.warp_inst_per_s().unwrap_or(0.0) - 489.6e9).abs() < 1.0);
    let ks = [issue_bound_kernel()];
    let g = guide(&ks[0], &m).expect("guidance");
    assert_eq!(g.binding.name, "instruction issue");
    assert!((g.attained_fraction - 0.69).abs() < 1e-9, "{}", g.attained_fraction);
    assert_eq!(judging_modes(&g.binding), &[Mode::Instruction]);

    // The instruction chart: its peak warp GIPS roof, marked, at 489.6 GIPS.
    let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_mode(Mode::Instruction).with_selected(Some(0)));
    let r = binding_roof(&s, "instruction");
    assert_eq!(r.name, "Peak 489.6 warp GIPS");
    assert!(in_plot(&s, &r.label_box), "{r:?}");
    // Not selected: the same roof, not marked.
    let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_mode(Mode::Instruction));
    assert!(s.roofs.iter().any(|r| r.name == "Peak 489.6 warp GIPS") && !s.roofs.iter().any(|r| r.binding));

    // The classic chart has no issue roof of its own: a dashed flat roof at the kernel's FLOPs
    // ÷ its issue time, 1e9 ÷ 0.69e-3 = 1.449 TFLOP/s, under which its dot (1 TFLOP/s) sits
    // at 69%, as the words say (not at 40% of the HBM roof alone).
    let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_selected(Some(0)));
    let r = binding_roof(&s, "classic");
    assert_eq!(r.name, "instruction issue ≈ 1.45 TFLOP/s");
    let flat_y = flat_roof_y(&s);
    assert!((flat_y / 1.449_275_362e12 - 1.0).abs() < 1e-6, "{flat_y}");
    assert!((s.y.from_px(s.hits[0].cy) / flat_y - 0.69).abs() < 1e-6);
}

#[test]
fn a_bf16_matrix_and_fp32_kernel_gets_the_combined_roof() {
    // H100 SXM5 at 1980 MHz: BF16 matrix 989.4 TFLOP/s at 1830 MHz × 1980/1830 =
    // 1070.498 TFLOP/s; FP32 66.9 TFLOP/s. 2e12 BF16 FLOPs need 1.86829 ms, 6.69e10 FP32
    // FLOPs 1 ms: the pipes summed 2.86829 ms, in a kernel of 3 ms (not faster than the sum).
    // The combined roof: (2e12 + 6.69e10) ÷ 2.86829e-3 = 720.60 TFLOP/s, "721 T".
    let m = catalogue::h100();
    let k = KernelProfile::from_counters("flash_fwd", &[(Counter::TimeS, 3e-3), (Counter::MatrixBf16, 2e12), (Counter::Fp32Flops, 6.69e10), (Counter::DramBytes, 1e9)]);
    let ks = [k];
    let g = guide(&ks[0], &m).expect("guidance");
    assert_eq!(g.binding.name, "BF16 matrix + FP32 compute");
    assert!((g.binding.time_s - 2.868_288_709e-3).abs() < 1e-12, "{}", g.binding.time_s);
    for mode in [Mode::Classic, Mode::Hierarchical] {
        // Even with the roof filter hiding the matrix kind: the combined roof is the kernel's own.
        let hidden = [roofline_engine::model::ComputeKind::Tensor];
        let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_mode(mode).with_selected(Some(0)).with_hidden_compute(&hidden));
        let r = binding_roof(&s, &format!("{mode:?}"));
        assert_eq!(r.name, "BF16 matrix + FP32 compute 721 TFLOP/s", "{mode:?}");
        let flat_y = flat_roof_y(&s);
        assert!((flat_y / 720.603_889_6e12 - 1.0).abs() < 1e-6, "{mode:?}: {flat_y}");
        // The dot, 2.0669e12 ÷ 3e-3 = 688.97 TFLOP/s, sits at 2.86829 ÷ 3 = 95.6% of it.
        let dot = s.y.from_px(s.hits[0].cy);
        assert!((dot / flat_y - 2.868_288_709 / 3.0).abs() < 1e-6, "{mode:?}: {dot}");
    }
}

#[test]
fn a_one_pipe_bound_draws_its_roof_even_when_hidden() {
    // A BF16 GEMM on an H100: 1e12 BF16 FLOPs need 1e12 ÷ 1070.498e12 = 0.934 ms of its 1 ms.
    // Its roof is drawn with matrix roofs hidden, and marked.
    let m = catalogue::h100();
    let ks = [KernelProfile::from_counters("gemm", &[(Counter::TimeS, 1e-3), (Counter::MatrixBf16, 1e12), (Counter::DramBytes, 1e9)])];
    assert_eq!(guide(&ks[0], &m).expect("guidance").binding.name, "BF16 matrix compute");
    let hidden = [roofline_engine::model::ComputeKind::Tensor];
    let input = ChartInput::new(&ks, &m, 960.0, 595.0).with_selected(Some(0)).with_hidden_compute(&hidden).with_compute(Some(roofline_engine::model::ComputeKind::Fp32));
    let s = chart::build(&input);
    assert_eq!(binding_roof(&s, "classic").name, "BF16 matrix 1.07 PFLOP/s");
}

#[test]
fn every_roof_keeps_a_label_on_a_phone_with_all_roofs() {
    // A 390 × 300 chart (a phone's width) with all of the H100's roofs: FP64, FP32, FP16,
    // FP16/BF16/TF32/FP8/FP64/INT8 matrix, INT32 and HBM3: every drawn roof has a label (its
    // text, short form or number) inside the plot, and every number its key.
    let m = catalogue::h100();
    let ks = [
        KernelProfile::from_counters("gemm", &[(Counter::TimeS, 1e-3), (Counter::MatrixBf16, 1e12), (Counter::DramBytes, 1e9)]),
        KernelProfile::from_counters("flash_fwd", &[(Counter::TimeS, 3e-3), (Counter::MatrixBf16, 2e12), (Counter::Fp32Flops, 6.69e10), (Counter::DramBytes, 1e9)]),
        KernelProfile::from_counters("axpy", &[(Counter::TimeS, 1e-4), (Counter::Fp32Flops, 1e8), (Counter::DramBytes, 1.2e9)]),
    ];
    for mode in [Mode::Classic, Mode::Hierarchical] {
        for selected in [None, Some(1)] {
            let s = chart::build(&ChartInput::new(&ks, &m, 390.0, 300.0).with_mode(mode).with_all_roofs(true).with_selected(selected));
            let what = format!("{mode:?} selected {selected:?}");
            // The H100's 11 ceilings on 6 lines (roofs of one rate share a line and a label:
            // FP64 / INT32 33.5, FP32 / FP64 matrix 66.9, FP16 134 TFLOP/s, FP16 / BF16
            // matrix 1.07, TF32 matrix 535 TFLOP/s, FP8 / INT8 matrix 2.14 PFLOP/s), HBM3, and
            // the selected kernel's combined roof.
            assert_eq!(s.roofs.len(), 7 + usize::from(selected.is_some()), "{what}: {:?}", s.roofs);
            let names: Vec<&str> = s.roofs.iter().map(|r| r.name.as_str()).collect();
            assert!(names.contains(&"FP16 / BF16 matrix 1.07 PFLOP/s") && names.contains(&"FP32 / FP64 matrix 66.9 TFLOP/s"), "{names:?}");
            for r in &s.roofs {
                assert!(in_plot(&s, &r.label_box), "{what}: {r:?} not in the plot {:?}", s.plot);
            }
            assert_labelled(&s, &what);
            if selected.is_some() {
                assert_eq!(binding_roof(&s, &what).name, "BF16 matrix + FP32 compute 721 TFLOP/s");
            }
        }
    }
}

#[test]
fn an_l2_bound_kernel_gets_the_l2_roof_where_it_is_judged() {
    // V100, Ding & Williams' measured bandwidths: L2 2996 GB/s, HBM 828 GB/s. 1 ms; 0.8 ×
    // 2996e9 × 1e-3 = 2.3968e9 L2 bytes need 0.8 ms (80%), 3.312e8 DRAM bytes 0.4 ms, 1e9
    // FP32 FLOPs 0.064 ms: bound by L2 bandwidth.
    let m = catalogue::v100();
    let ks = [KernelProfile::from_counters("stencil", &[(Counter::TimeS, 1e-3), (Counter::L2Bytes, 2.3968e9), (Counter::DramBytes, 3.312e8), (Counter::Fp32Flops, 1e9)])];
    let g = guide(&ks[0], &m).expect("guidance");
    assert_eq!(g.binding.name, "L2 bandwidth");
    assert!((g.attained_fraction - 0.8).abs() < 1e-9);
    assert_eq!(judging_modes(&g.binding), &[Mode::Hierarchical]);
    // Hierarchical, with the L2 level switched off: its roof is drawn all the same.
    let hidden = [roofline_engine::model::Level::L2];
    let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_mode(Mode::Hierarchical).with_selected(Some(0)).with_hidden_levels(&hidden));
    assert_eq!(binding_roof(&s, "hierarchical").name, "L2 2996 GB/s");
    // Classic, whose x axis is DRAM intensity: a flat roof at 1e9 ÷ 0.8e-3 = 1.25 TFLOP/s.
    let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_selected(Some(0)));
    assert_eq!(binding_roof(&s, "classic").name, "L2 bandwidth ≈ 1.25 TFLOP/s");
}

#[test]
fn a_bound_without_a_roof_or_a_dot_is_named_in_a_note() {
    // The issue-bound kernel of above without its FLOPs: no dot on the classic chart, no
    // roof to draw there; a note names its bound and the chart that shows it.
    let m = catalogue::v100();
    let ks = [KernelProfile::from_counters("issue_bound", &[(Counter::TimeS, 1e-3), (Counter::WarpInst, 3.37824e8), (Counter::DramBytes, 3.312e8)])];
    assert_eq!(guide(&ks[0], &m).expect("guidance").binding.name, "instruction issue");
    let s = chart::build(&ChartInput::new(&ks, &m, 960.0, 595.0).with_selected(Some(0)));
    assert!(!s.roofs.iter().any(|r| r.binding), "{:?}", s.roofs);
    let note = "bound by instruction issue: see the instruction chart";
    let (_, b) = texts(&s).into_iter().find(|(t, _)| *t == note).expect("the note");
    assert!(in_plot(&s, &b), "{b:?}");
}
