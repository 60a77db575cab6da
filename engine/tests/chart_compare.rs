//! Comparing runs: trajectory arrows join a kernel's dots in consecutive runs (paired by
//! `compare::pair`, or the user's pairing), kernels in one run only have none but a mark, the % changes are the hand-computed ones, and
//! labels still keep clear of dots, earlier runs' markers and arrowheads.

use roofline_engine::chart::labels::{overlaps, shape_boxes};
use roofline_engine::chart::{self, arrow_geometry, svg, ChartInput, Mode, RunRef, Scene, Shape};
use roofline_engine::compare::{changes, Change};
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue;
use roofline_engine::KernelProfile;

/// A kernel with FP64 FLOPs, bytes at L1, L2 and DRAM, warp instructions and transactions.
fn kernel(name: &str, flops: f64, dram: f64, time_s: f64) -> KernelProfile {
    let mut c = Counters::default();
    c.set(Counter::Fp64Flops, flops);
    c.set(Counter::DramBytes, dram);
    c.set(Counter::L2Bytes, dram * 3.0);
    c.set(Counter::L1Bytes, dram * 9.0);
    c.set(Counter::TimeS, time_s);
    c.set(Counter::WarpInst, flops / 40.0);
    c.set(Counter::GlobalTxn, dram / 8.0);
    c.set(Counter::L2Txn, dram / 16.0);
    c.set(Counter::DramTxn, dram / 32.0);
    KernelProfile { name: name.into(), launches: 1, counters: c }
}

fn arrows(s: &Scene) -> Vec<((f64, f64), (f64, f64))> {
    s.shapes.iter().filter_map(|sh| if let Shape::Arrow { from, to, .. } = sh { Some((*from, *to)) } else { None }).collect()
}

/// Open circles that are not selection rings: earlier runs' markers.
fn ghosts(s: &Scene) -> Vec<(f64, f64, f64)> {
    s.shapes.iter().filter_map(|sh| if let Shape::Circle { cx, cy, r, fill: None, width, .. } = sh { (*width == 1.5).then_some((*cx, *cy, *r)) } else { None }).collect()
}

/// Before: a, b, gone. After: b, a (other order), new.
fn two_runs() -> (Vec<KernelProfile>, Vec<KernelProfile>) {
    let before = vec![kernel("a", 1e12, 1e11, 1.0), kernel("b", 4e11, 1e9, 0.5), kernel("gone", 1e11, 1e10, 0.1)];
    let after = vec![kernel("b", 4e11, 5e8, 0.2), kernel("a", 1e12, 2e10, 0.4), kernel("new", 3e11, 1e10, 0.3)];
    (before, after)
}

#[test]
fn arrows_join_the_two_dots_centres_and_only_shared_names() {
    let m = catalogue::v100();
    let (before, after) = two_runs();
    let runs = [RunRef::new("before", &before)];
    let s = chart::build(&ChartInput::new(&after, &m, 900.0, 560.0).with_runs(&runs));
    let dot = |i: usize| s.hits.iter().find(|h| h.kernel == i).map(|h| (h.cx, h.cy)).expect("current dot");
    let earlier = |k: &KernelProfile| {
        let f = k.counters.get(Counter::Fp64Flops).unwrap();
        (s.x.to_px(f / k.counters.get(Counter::DramBytes).unwrap()), s.y.to_px(f / k.time_s().unwrap()))
    };
    // In the current run's order: b (index 0), then a (index 1); "gone" and "new" have none.
    assert_eq!(arrows(&s), vec![(earlier(&before[1]), dot(0)), (earlier(&before[0]), dot(1))]);
    // Every earlier kernel has its open marker where its arrow starts; current dots stay hits.
    let g = ghosts(&s);
    assert_eq!(g.len(), 3, "{g:?}");
    for k in &before {
        assert!(g.iter().any(|&(x, y, _)| (x, y) == earlier(k)), "{}", k.name);
    }
    assert_eq!(s.hits.len(), 3, "earlier runs add no hit areas");
    assert!(arrows(&s).iter().all(|(_, to)| *to != dot(2)), "no arrow to a kernel new in this run");
    // Earlier markers are smaller than the current dots they came from.
    assert!(g.iter().all(|&(_, _, r)| s.hits.iter().all(|h| r < h.r || r <= 2.5)), "{g:?}");
}

#[test]
fn a_path_of_runs_draws_one_arrow_per_step_and_keeps_it_in_view() {
    let m = catalogue::v100();
    // The same kernel over four runs: three arrows, head to tail.
    let steps: Vec<Vec<KernelProfile>> = (0..4).map(|i| vec![kernel("gpp", 3e12, 4e11 / 3f64.powi(i), 1.6 / (1.0 + i as f64))]).collect();
    let runs: Vec<RunRef> = steps[..3].iter().map(|ks| RunRef::new("step", ks)).collect();
    let s = chart::build(&ChartInput::new(&steps[3], &m, 900.0, 560.0).with_runs(&runs));
    let a = arrows(&s);
    assert_eq!(a.len(), 3);
    assert_eq!(a[0].1, a[1].0);
    assert_eq!(a[1].1, a[2].0);
    assert_eq!(a[2].1, (s.hits[0].cx, s.hits[0].cy));
    // The automatic ranges hold the first run too.
    assert!(s.x.min <= 3e12 / 4e11 && s.y.min <= 3e12 / 1.6);
    // The legend says what the markers are.
    assert!(s.shapes.iter().any(|sh| matches!(sh, Shape::Text { text, .. } if text == "open: 3 earlier runs; arrows to the next run")));
}

#[test]
fn hierarchical_and_instruction_arrows_keep_the_level() {
    let m = catalogue::v100();
    let (before, after) = two_runs();
    let runs = [RunRef::new("before", &before)];
    // Two shared kernels × three levels.
    for mode in [Mode::Hierarchical, Mode::Instruction] {
        let s = chart::build(&ChartInput::new(&after, &m, 960.0, 600.0).with_mode(mode).with_runs(&runs));
        assert_eq!(arrows(&s).len(), 6, "{mode:?}");
        for (_, to) in arrows(&s) {
            assert!(s.hits.iter().any(|h| (h.cx, h.cy) == to), "{mode:?}: every arrow ends on a current dot");
        }
        let colours: std::collections::HashSet<_> = s.shapes.iter().filter_map(|sh| if let Shape::Arrow { color, .. } = sh { Some(color.css()) } else { None }).collect();
        assert_eq!(colours.len(), 3, "{mode:?}: one colour per level");
    }
    // Walls and transfers ignore runs altogether.
    for mode in [Mode::Walls, Mode::Transfers] {
        let with = chart::build(&ChartInput::new(&after, &m, 960.0, 600.0).with_mode(mode).with_runs(&runs));
        assert_eq!(with, chart::build(&ChartInput::new(&after, &m, 960.0, 600.0).with_mode(mode)), "{mode:?}");
    }
}

#[test]
fn selected_kernel_path_is_bold_and_svg_draws_heads() {
    let m = catalogue::v100();
    let (before, after) = two_runs();
    let runs = [RunRef::new("before", &before)];
    let s = chart::build(&ChartInput::new(&after, &m, 900.0, 560.0).with_runs(&runs).with_selected(Some(1)));
    let widths: Vec<f64> = s.shapes.iter().filter_map(|sh| if let Shape::Arrow { width, .. } = sh { Some(*width) } else { None }).collect();
    assert_eq!(widths, vec![1.5, 2.5], "a (selected) is bold, b is not");
    let out = svg::render(&s);
    assert_eq!(out.matches("<polygon").count(), 2);
    assert_eq!(out.matches("<line ").count(), 2);
    assert!(arrow_geometry((1.0, 1.0), (1.0, 1.0), 1.5, [0.0, 0.0]).is_none(), "no direction, no head");
    assert!(arrow_geometry((0.0, 0.0), (10.0, 0.0), 1.5, [4.0, 4.0]).is_none(), "no room between the markers");
    let g = arrow_geometry((0.0, 0.0), (100.0, 0.0), 1.5, [5.0, 10.0]).unwrap();
    assert_eq!((g.start, g.head[0]), ((5.0, 0.0), (90.0, 0.0)), "trimmed by the markers' reach");
    assert_eq!(g.base, (82.0, 0.0), "the shaft ends where the 8 px head begins");
    // Every drawn arrow starts outside the earlier marker and its tip stops outside the dot.
    for sh in &s.shapes {
        if let Shape::Arrow { from, to, width, trim, .. } = sh {
            let g = arrow_geometry(*from, *to, *width, *trim).expect("drawn arrows have room");
            let dist = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).hypot(a.1 - b.1);
            let dot = s.hits.iter().find(|h| (h.cx, h.cy) == *to).expect("ends on a dot");
            assert!(dist(g.head[0], *to) > dot.r, "the head is beside the dot, not under it");
            assert!(dist(g.start, *from) > 2.5);
        }
    }
    let build = || chart::build(&ChartInput::new(&after, &m, 900.0, 560.0).with_runs(&runs).with_mode(Mode::Hierarchical));
    assert_eq!(build(), build(), "deterministic");
}

#[test]
fn berkeleygw_v1_to_v9_changes_are_the_slides_numbers() {
    // app/src/examples.rs, from the NERSC slides: v1.collapse3 3.71 TFLOPs in 1.63 s;
    // v9.block 2.00 TFLOPs in 0.57 s. Time: 0.57 / 1.63 − 1 = −65.03 %. FLOP/s: 2.00/0.57 =
    // 3.509 TFLOP/s against 3.71/1.63 = 2.276 TFLOP/s: (2.00 × 1.63) / (0.57 × 3.71) − 1 = +54.16 %.
    let v1 = [kernel("GPP", 3.71e12, 1e12, 1.63)];
    let v9 = [kernel("GPP", 2.00e12, 75.15e9, 0.57)];
    let got = changes(&v1, &v9);
    assert_eq!(got.len(), 1);
    let Change { name, time_change, perf_change } = &got[0];
    assert_eq!(name, "GPP");
    assert!((time_change.unwrap() - (-0.650307)).abs() < 1e-6, "{time_change:?}");
    assert!((perf_change.unwrap() - 0.541590).abs() < 1e-6, "{perf_change:?}");
    // Halving a kernel's time doubles its FLOP/s; a kernel in one run only has no change.
    let (before, after) = two_runs();
    let c = changes(&before, &after);
    assert_eq!(c.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["b", "a"]);
    assert!((c[0].time_change.unwrap() + 0.6).abs() < 1e-12 && (c[0].perf_change.unwrap() - 1.5).abs() < 1e-12, "{c:?}");
    assert!((c[1].time_change.unwrap() + 0.6).abs() < 1e-12);
}

/// A dense, deterministic set of kernels, and an earlier run of each moved by a factor.
fn dense(n: usize, scale: f64) -> Vec<KernelProfile> {
    (0..n)
        .map(|i| {
            let f = 1.0 + i as f64;
            let wobble = 1.0 + 0.37 * ((i * 7919) % 13) as f64;
            kernel(&format!("kernel_{i}"), 1e9 * f * f * wobble * scale, 1e8 * f * scale * scale / wobble, 1e-3 * f / scale)
        })
        .collect()
}

#[test]
fn labels_never_cover_dots_markers_arrowheads_or_each_other() {
    let m = catalogue::v100();
    for n in [3, 40, 200] {
        let (a, b, now) = (dense(n, 0.3), dense(n, 0.6), dense(n, 1.0));
        let runs = [RunRef::new("a", &a), RunRef::new("b", &b)];
        for mode in Mode::ALL {
            for (w, h) in [(960.0, 595.0), (420.0, 300.0)] {
                let s = chart::build(&ChartInput::new(&now, &m, w, h).with_mode(mode).with_runs(&runs).with_selected(Some(0)));
                let what = format!("{mode:?} n={n} {w}x{h}");
                let texts: Vec<(String, [f64; 4])> = s
                    .shapes
                    .iter()
                    .filter_map(|sh| if let Shape::Text { text, .. } = sh { Some((text.clone(), shape_boxes(sh))) } else { None })
                    .flat_map(|(t, bs)| bs.into_iter().map(move |b| (t.clone(), b)))
                    .collect();
                let mut keep_clear: Vec<[f64; 4]> = s.hits.iter().map(|h| [h.cx - h.r, h.cy - h.r, h.cx + h.r, h.cy + h.r]).collect();
                keep_clear.extend(ghosts(&s).into_iter().map(|(x, y, r)| [x - r, y - r, x + r, y + r]));
                keep_clear.extend(s.shapes.iter().filter_map(|sh| match sh {
                    Shape::Arrow { from, to, width, trim, .. } => arrow_geometry(*from, *to, *width, *trim).map(|g| {
                        let (xs, ys) = (g.head.map(|p| p.0), g.head.map(|p| p.1));
                        [xs.iter().copied().fold(f64::MAX, f64::min), ys.iter().copied().fold(f64::MAX, f64::min), xs.iter().copied().fold(f64::MIN, f64::max), ys.iter().copied().fold(f64::MIN, f64::max)]
                    }),
                    _ => None,
                }));
                for (i, (ta, x)) in texts.iter().enumerate() {
                    for (tb, y) in texts[i + 1..].iter().filter(|(tb, _)| tb != ta) {
                        assert!(!overlaps(x, y), "{what}: {ta:?} overlaps {tb:?}");
                    }
                    for d in &keep_clear {
                        assert!(!overlaps(x, d), "{what}: {ta:?} {x:?} covers {d:?}");
                    }
                }
                if matches!(mode, Mode::Classic | Mode::Hierarchical | Mode::Instruction) {
                    assert!(!arrows(&s).is_empty(), "{what}: arrows drawn");
                }
            }
        }
    }
}

fn texts(s: &Scene) -> Vec<&str> {
    s.shapes.iter().filter_map(|sh| if let Shape::Text { text, .. } = sh { Some(text.as_str()) } else { None }).collect()
}

#[test]
fn arrows_are_labelled_with_the_speedup_and_unpaired_kernels_marked() {
    let m = catalogue::v100();
    let (before, after) = two_runs();
    let runs = [RunRef::new("before", &before)];
    let s = chart::build(&ChartInput::new(&after, &m, 900.0, 560.0).with_runs(&runs));
    let t = texts(&s);
    // a: 1.0 s → 0.4 s, 2.5×; b: 0.5 s → 0.2 s, 2.5×: one label on each arrow.
    assert_eq!(t.iter().filter(|x| **x == "2.5×").count(), 2, "{t:?}");
    // The kernel named "new" has its name label and the "new" mark; "gone" its mark.
    assert_eq!((t.iter().filter(|x| **x == "new").count(), t.iter().filter(|x| **x == "gone").count()), (2, 1), "{t:?}");
    // "gone" is crossed out: two 1 px strokes over its marker, which pairing it removes.
    let thin = |s: &Scene| s.shapes.iter().filter(|sh| matches!(sh, Shape::Line { width, dash: false, .. } if *width == 1.0)).count();
    let names = |ks: &[KernelProfile]| ks.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    let user = roofline_engine::compare::UserPairs { pairs: vec![("gone".into(), "new".into())], unpair: vec![] };
    let pairing = roofline_engine::compare::pair(&names(&before), &names(&after), &user).unwrap();
    let paired = [RunRef { pairing: Some(&pairing), ..RunRef::new("before", &before) }];
    assert_eq!(thin(&s), thin(&chart::build(&ChartInput::new(&after, &m, 900.0, 560.0).with_runs(&paired))) + 2);
}

#[test]
fn a_users_pair_draws_its_arrow_and_label() {
    use roofline_engine::compare::{pair, UserPairs};
    let m = catalogue::v100();
    let (before, after) = two_runs();
    let names = |ks: &[KernelProfile]| ks.iter().map(|k| k.name.clone()).collect::<Vec<_>>();
    let user = UserPairs { pairs: vec![("gone".into(), "new".into())], unpair: vec![] };
    let pairing = pair(&names(&before), &names(&after), &user).unwrap();
    assert!(pairing.added.is_empty() && pairing.removed.is_empty());
    let runs = [RunRef { pairing: Some(&pairing), ..RunRef::new("before", &before) }];
    let s = chart::build(&ChartInput::new(&after, &m, 900.0, 560.0).with_runs(&runs));
    assert_eq!(arrows(&s).len(), 3);
    let t = texts(&s);
    // gone → new: 0.1 s → 0.3 s, a slow-down of 0.1 / 0.3 = 0.33×.
    assert!(t.contains(&"0.33×") && !t.contains(&"gone"), "{t:?}");
    assert_eq!(t.iter().filter(|x| **x == "new").count(), 1, "only the kernel's name: {t:?}");
    assert_eq!(chart::compare::speedup_label(17.268), "17.3×");
    assert_eq!(chart::compare::speedup_label(2.94), "2.9×");
}

#[test]
fn an_earlier_run_on_another_machine_draws_its_roofs_dashed() {
    let (v100, a100) = (catalogue::v100(), catalogue::a100());
    let (before, after) = two_runs();
    let dashed = |s: &Scene| s.shapes.iter().filter(|sh| matches!(sh, Shape::Line { dash: true, .. })).count();
    let same = chart::build(&ChartInput::new(&after, &v100, 900.0, 560.0).with_runs(&[RunRef { machine: Some(&v100), ..RunRef::new("before", &before) }]));
    let other = chart::build(&ChartInput::new(&after, &v100, 900.0, 560.0).with_runs(&[RunRef { machine: Some(&a100), ..RunRef::new("before", &before) }]));
    // The A100's HBM roof and its FP64 roof: two more dashed lines; the same machine, none.
    assert_eq!(dashed(&other), dashed(&same) + 2);
    let legend = format!("open: 1 earlier run; dashed: its roofs ({}); arrows to the next run", a100.name);
    assert!(texts(&other).contains(&legend.as_str()), "{:?}", texts(&other));
}
