//! Layout properties of every chart mode on a dense dataset: labels never overlap each other
//! or dots, zoom is honoured, scenes are deterministic, bad numbers never panic, SVG output
//! is well formed, hover finds the dot.

use roofline_engine::chart::labels::{overlaps, shape_boxes};
use roofline_engine::chart::{self, svg, ChartInput, Mode, Scene, Shape, Zoom};
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::domain::Transfer;
use roofline_engine::model::catalogue;
use roofline_engine::KernelProfile;

/// A deterministic xorshift stream in [0, 1).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Log-uniform in [lo, hi].
    fn log(&mut self, lo: f64, hi: f64) -> f64 {
        10f64.powf(lo.log10() + self.next() * (hi.log10() - lo.log10()))
    }
}

/// `n` kernels with every counter the charts read, spread over several decades.
fn dense(n: usize) -> Vec<KernelProfile> {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    (0..n)
        .map(|i| {
            let mut c = Counters::default();
            let time = r.log(1e-5, 1e-1);
            let warp = r.log(1e6, 1e10) * time * 1e2;
            c.set(Counter::TimeS, time);
            c.set(Counter::Fp64Fma, r.log(1e6, 1e12) * time * 1e2);
            c.set(Counter::Fp32Fma, r.log(1e6, 1e12) * time * 1e2);
            if i % 5 == 0 {
                c.set(Counter::TensorInst, r.log(1e4, 1e9) * time * 1e2);
            }
            c.set(Counter::L1Bytes, r.log(1e6, 1e12) * time * 1e3);
            c.set(Counter::L2Bytes, r.log(1e6, 1e11) * time * 1e3);
            c.set(Counter::DramBytes, r.log(1e6, 1e11) * time * 1e3);
            c.set(Counter::SharedBytes, r.log(1e6, 1e11) * time * 1e3);
            c.set(Counter::WarpInst, warp);
            c.set(Counter::ThreadInst, warp * 32.0 * r.log(0.3, 1.0));
            c.set(Counter::GlobalTxn, warp * r.log(0.01, 1.0));
            c.set(Counter::SharedTxn, warp * r.log(0.001, 0.1));
            c.set(Counter::L2Txn, warp * r.log(0.01, 0.5));
            c.set(Counter::DramTxn, warp * r.log(0.001, 0.2));
            c.set(Counter::GlobalLdStInst, warp * r.log(0.01, 0.3));
            c.set(Counter::SharedLdStInst, warp * r.log(0.001, 0.1));
            KernelProfile { name: format!("kernel_{i}"), launches: 1, counters: c }
        })
        .collect()
}

fn transfers() -> Vec<Transfer> {
    let names = ["[CUDA memcpy HtoD]", "[CUDA memcpy DtoH]", "[CUDA memcpy DtoD]", "[CUDA memset]", "[CUDA memcpy PtoP]"];
    (0..40).map(|i| Transfer { name: names[i % names.len()].into(), count: 1 + i as u64, bytes: Some(1e3 * 1.6f64.powi(i as i32)), time_s: Some(1e-5 * 1.5f64.powi(i as i32)) }).collect()
}

/// Every text's boxes (slanted text: a few boxes along it), with the text.
fn text_boxes(s: &Scene) -> Vec<(String, [f64; 4])> {
    s.shapes
        .iter()
        .filter_map(|sh| if let Shape::Text { text, .. } = sh { Some((text, shape_boxes(sh))) } else { None })
        .flat_map(|(t, bs)| bs.into_iter().map(move |b| (t.clone(), b)))
        .collect()
}

fn assert_no_overlaps(s: &Scene, what: &str) {
    let boxes = text_boxes(s);
    assert!(boxes.len() > 5, "{what}: {} texts", boxes.len());
    for (i, (ta, a)) in boxes.iter().enumerate() {
        for (tb, b) in boxes[i + 1..].iter().filter(|(tb, _)| tb != ta) {
            assert!(!overlaps(a, b), "{what}: {ta:?} {a:?} overlaps {tb:?} {b:?}");
        }
        for h in &s.hits {
            let d = [h.cx - h.r, h.cy - h.r, h.cx + h.r, h.cy + h.r];
            assert!(!overlaps(a, &d), "{what}: {ta:?} {a:?} covers the dot of kernel {} at {d:?}", h.kernel);
        }
    }
}

#[test]
fn labels_never_overlap_in_any_mode() {
    let m = catalogue::v100();
    let ts = transfers();
    for n in [1, 12, 300] {
        let ks = dense(n);
        for mode in Mode::ALL {
            for (w, h) in [(960.0, 595.0), (420.0, 300.0)] {
                let s = chart::build(&ChartInput::new(&ks, &m, w, h).with_mode(mode).with_selected(Some(0)).with_transfers(&ts));
                assert!(!s.hits.is_empty(), "{mode:?} n={n}");
                assert_no_overlaps(&s, &format!("{mode:?} n={n} {w}x{h}"));
            }
        }
    }
}

#[test]
fn every_mode_honours_zoom_and_keeps_dots_inside() {
    let m = catalogue::v100();
    let (ks, ts) = (dense(200), transfers());
    for mode in Mode::ALL {
        let full = chart::build(&ChartInput::new(&ks, &m, 800.0, 500.0).with_mode(mode).with_transfers(&ts));
        let zoom = Zoom { x: [full.x.min * 10.0, full.x.max / 10.0], y: [full.y.min * 10.0, full.y.max / 10.0] };
        let s = chart::build(&ChartInput::new(&ks, &m, 800.0, 500.0).with_mode(mode).with_transfers(&ts).with_zoom(Some(zoom)));
        assert_eq!([s.x.min, s.x.max, s.y.min, s.y.max], [zoom.x[0], zoom.x[1], zoom.y[0], zoom.y[1]], "{mode:?}");
        assert!(s.hits.len() <= full.hits.len(), "{mode:?}: zooming in drops dots outside the view");
        for h in &s.hits {
            assert!(h.cx >= s.plot[0] - 1.0 && h.cx <= s.plot[2] + 1.0 && h.cy >= s.plot[1] - 1.0 && h.cy <= s.plot[3] + 1.0, "{mode:?}");
        }
        // An invalid zoom falls back to the automatic ranges.
        let bad = Zoom { x: [0.0, f64::NAN], y: [5.0, 1.0] };
        let s = chart::build(&ChartInput::new(&ks, &m, 800.0, 500.0).with_mode(mode).with_transfers(&ts).with_zoom(Some(bad)));
        assert_eq!((s.x, s.y), (full.x, full.y), "{mode:?}");
    }
}

#[test]
fn scenes_are_deterministic() {
    let m = catalogue::v100();
    let (ks, ts) = (dense(100), transfers());
    for mode in Mode::ALL {
        let build = || chart::build(&ChartInput::new(&ks, &m, 800.0, 500.0).with_mode(mode).with_selected(Some(3)).with_transfers(&ts));
        assert_eq!(build(), build(), "{mode:?}");
    }
}

#[test]
fn bad_numbers_never_panic_and_draw_no_dots() {
    let bad = [f64::NAN, 0.0, -1.0, f64::INFINITY, f64::NEG_INFINITY];
    let mut ks = Vec::new();
    for &v in &bad {
        let mut c = Counters::default();
        for counter in Counter::ALL {
            c.set(counter, v);
        }
        ks.push(KernelProfile { name: format!("bad {v}"), launches: 1, counters: c });
    }
    let ts: Vec<Transfer> = bad.iter().map(|&v| Transfer { name: "[CUDA memcpy HtoD]".into(), count: 0, bytes: Some(v), time_s: Some(v) }).collect();
    for m in catalogue::all().iter().chain([&roofline_engine::model::Machine::default()]) {
        for mode in Mode::ALL {
            for (w, h) in [(800.0, 500.0), (0.0, f64::NAN), (-5.0, 1e9)] {
                let s = chart::build(&ChartInput::new(&ks, m, w, h).with_mode(mode).with_transfers(&ts).with_selected(Some(99)));
                assert!(s.hits.is_empty(), "{mode:?} on {}: {:?}", m.id, s.hits);
                assert!(s.width.is_finite() && s.height.is_finite());
                let _ = svg::render(&s);
            }
        }
    }
}

/// Tags of an SVG document balance: every opened element is closed, in order.
fn balanced(svg: &str) -> Result<(), String> {
    let mut stack: Vec<&str> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').ok_or("unterminated tag")? + start;
        let tag = &rest[start + 1..end];
        if let Some(name) = tag.strip_prefix('/') {
            let open = stack.pop().ok_or(format!("stray </{name}>"))?;
            if open != name {
                return Err(format!("<{open}> closed by </{name}>"));
            }
        } else if !tag.ends_with('/') {
            stack.push(tag.split_whitespace().next().ok_or("empty tag")?);
        }
        rest = &rest[end + 1..];
    }
    if stack.is_empty() {
        Ok(())
    } else {
        Err(format!("unclosed {stack:?}"))
    }
}

#[test]
fn svg_of_every_mode_is_balanced_and_labels_its_ceilings() {
    let m = catalogue::v100();
    let (mut ks, ts) = (dense(30), transfers());
    ks[0].name = "evil<script>&\"".into();
    let expect: [(Mode, &[&str]); 5] = [
        (Mode::Classic, &["HBM 828 GB/s", "FP64 7.83 TFLOP/s"]),
        (Mode::Hierarchical, &["L2 2996 GB/s", "HBM 828 GB/s"]),
        (Mode::Instruction, &["L1 437.5 GTXN/s", "Peak 489.6 warp GIPS"]),
        (Mode::Walls, &["stride-0", "32-way bank conflict"]),
        (Mode::Transfers, &["PCIe 3.0 x16 15.75 GB/s"]),
    ];
    for (mode, labels) in expect {
        let out = svg::render(&chart::build(&ChartInput::new(&ks, &m, 1000.0, 640.0).with_mode(mode).with_transfers(&ts)));
        balanced(&out).unwrap_or_else(|e| panic!("{mode:?}: {e}"));
        for l in labels {
            assert!(out.contains(&format!(">{l}</text>")), "{mode:?}: {l}");
        }
    }
}

#[test]
fn hover_finds_kernel_and_level() {
    let m = catalogue::v100();
    let ks = dense(50);
    let s = chart::build(&ChartInput::new(&ks, &m, 800.0, 500.0).with_mode(Mode::Hierarchical));
    for h in &s.hits {
        let got = s.hit_dot(h.cx, h.cy).map(|g| (g.cx, g.cy));
        assert_eq!(got, Some((h.cx, h.cy)), "the dot under its own centre is itself");
        assert!(s.hit(h.cx, h.cy).is_some());
    }
    assert_eq!(s.hit(-100.0, -100.0), None);
}
