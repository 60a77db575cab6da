//! wasm tests in a real browser (headless Chromium via chromedriver): the engine compiled to
//! wasm32 reads a real Nsight Compute sample, the canvas painter draws the engine's scene, and
//! the address round-trips a view.

use roofline_app::{canvas, examples};
use roofline_engine::chart::{self, ChartInput, Theme};
use roofline_engine::model::catalogue;
use roofline_engine::share;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The DRAM-bytes file of the NERSC climate-seg run, embedded at compile time from
/// ../shared/samples (not copied into the repository).
const DRAM_SAMPLE: &[u8] = include_bytes!(
    "../../../shared/samples/ncu/DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.dram__bytes.sum"
);

#[wasm_bindgen_test]
fn engine_in_wasm_reads_a_real_ncu_file() {
    let files = [roofline_engine::SourceFile { name: "dram.csv".into(), bytes: DRAM_SAMPLE.to_vec() }];
    let ds = roofline_engine::load_dataset(&files).expect("sample loads");
    // 559 launches of 49 distinct kernels (shared/samples/SOURCES.md).
    assert_eq!(ds.kernels.len(), 49);
    assert_eq!(ds.kernels.iter().map(|k| k.launches).sum::<u64>(), 559);
}

/// A canvas in the page and the course example's classic chart, 600 × 400, light.
fn course_chart() -> (web_sys::HtmlCanvasElement, chart::Scene) {
    let document = web_sys::window().unwrap().document().unwrap();
    let el: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&el).unwrap();
    let kernels = examples::course_v100();
    let m = catalogue::v100();
    (el, chart::build(&ChartInput::new(&kernels, &m, 600.0, 400.0).with_theme(Theme::Light)))
}

#[wasm_bindgen_test]
fn canvas_is_painted_at_device_pixel_ratio() {
    let (el, scene) = course_chart();
    canvas::paint(&el, &scene).unwrap();
    let dpr = web_sys::window().unwrap().device_pixel_ratio();
    assert_eq!(el.width(), (600.0 * dpr).round() as u32);
    // The AX dot's centre is painted in its colour (Okabe–Ito blue), not background.
    let ctx: web_sys::CanvasRenderingContext2d = el.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let h = scene.hits[0];
    let px = ctx.get_image_data(h.cx * dpr, h.cy * dpr, 1.0, 1.0).unwrap().data();
    assert_eq!((px[0], px[1], px[2]), (0, 114, 178));
}

#[wasm_bindgen_test]
fn view_round_trips_through_the_address() {
    let kernels = examples::course_v100();
    let view = share::View { selected: Some(1), ..share::View::new(&catalogue::v100(), &kernels) };
    roofline_app::url_state::write(&view, None);
    let back = roofline_app::url_state::read().expect("a fragment").expect("decodes");
    // Counter values travel as 24-bit floats: compare with the view as a link carries it.
    let link = share::encode(&view).expect("fits a link");
    assert_eq!(Some(back), share::decode(&link.fragment).ok());
}

#[wasm_bindgen_test]
fn canvas_draws_dashes_and_quarter_pixels_through_plotters() {
    use roofline_engine::chart::{Color, LogScale, Scene, Shape};
    let document = web_sys::window().unwrap().document().unwrap();
    let el: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    let red = Color(255, 0, 0);
    // A 1 px dashed line along the middle of pixel row 10 (4 px dashes, 3 px gaps from x = 0),
    // and a solid one along row 20 starting at x = 5.5: half of pixel 5 is covered.
    let shapes = vec![
        Shape::Line { points: vec![(0.0, 10.5), (20.0, 10.5)], color: red, width: 1.0, dash: true },
        Shape::Line { points: vec![(5.5, 20.5), (15.0, 20.5)], color: red, width: 1.0, dash: false },
    ];
    let sc = LogScale { min: 1.0, max: 10.0, px0: 0.0, px1: 1.0 };
    let scene = Scene::new(30.0, 30.0, Color(255, 255, 255), shapes, vec![], [0.0; 4], sc, sc);
    canvas::paint_scaled(&el, &scene, 1.0).unwrap();
    let ctx: web_sys::CanvasRenderingContext2d = el.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let at = |x: f64, y: f64| {
        let d = ctx.get_image_data(x, y, 1.0, 1.0).unwrap().data();
        (d[0], d[1], d[2])
    };
    // Dashes cover x 0–4, 7–11, 14–18; gaps 4–7, 11–14.
    assert_eq!(at(2.0, 10.0), (255, 0, 0));
    assert_eq!(at(5.0, 10.0), (255, 255, 255));
    assert_eq!(at(9.0, 10.0), (255, 0, 0));
    assert_eq!(at(12.0, 10.0), (255, 255, 255));
    assert_eq!(at(16.0, 10.0), (255, 0, 0));
    // Row 20: pixel 5 half covered (pink), pixel 8 fully red, rows 19 and 21 untouched.
    let (r, g, b) = at(5.0, 20.0);
    assert!(r == 255 && (100..=160).contains(&g) && g == b, "{:?}", (r, g, b));
    assert_eq!(at(8.0, 20.0), (255, 0, 0));
    assert_eq!((at(8.0, 19.0), at(8.0, 21.0)), ((255, 255, 255), (255, 255, 255)));
}

#[wasm_bindgen_test]
fn a_gestures_frame_moves_the_last_exact_image() {
    use roofline_app::canvas::preview::Snapshot;
    use roofline_engine::chart::Zoom;
    let (el, scene) = course_chart();
    canvas::paint_scaled(&el, &scene, 1.0).unwrap();
    let snap = Snapshot::take(&el, &scene, None).unwrap();
    // The x range moved down by the decades of 40 px: every pixel of the plot moves 40 px right.
    let [l, t, r, b] = scene.plot;
    let (x0, x1) = (scene.x.min.log10(), scene.x.max.log10());
    let d = 40.0 / (r - l) * (x1 - x0);
    let to = Zoom { x: [10f64.powf(x0 - d), 10f64.powf(x1 - d)], y: [scene.y.min, scene.y.max] };
    let preview = snap.preview((600.0, 400.0), to).expect("a move of 40 px is drawn as a frame");
    assert!((preview.x.offset - 40.0).abs() < 1e-9 && (preview.x.scale - 1.0).abs() < 1e-12, "{preview:?}");
    snap.draw(&el, &preview).unwrap();
    let ctx: web_sys::CanvasRenderingContext2d = el.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let at = |x: f64, y: f64| {
        let px = ctx.get_image_data(x.round(), y.round(), 1.0, 1.0).unwrap().data();
        (px[0], px[1], px[2])
    };
    // The AX dot (Okabe–Ito blue) is drawn 40 px right of where the scene put it.
    let h = scene.hits[0];
    assert!(h.cx + 40.0 < r - 2.0, "the dot stays in the plot: {h:?}");
    assert_eq!(at(h.cx + 40.0, h.cy), (0, 114, 178));
    // The strip the image left at the plot's left is the chart's background; the frame line
    // and what lies outside the plot and its tick labels are as the exact chart drew them.
    let bg = scene.background;
    assert_eq!(at(l + 20.0, (t + b) / 2.0), (bg.0, bg.1, bg.2));
    // Too far to stand for the chart: the view moved by 60 % of the x range.
    let far = Zoom { x: [10f64.powf(x0 - 0.6 * (x1 - x0)), 10f64.powf(x1 - 0.6 * (x1 - x0))], y: to.y };
    assert_eq!(snap.preview((600.0, 400.0), far), None);
    // Nor is a frame drawn at another size than the image's.
    assert_eq!(snap.preview((601.0, 400.0), to), None);
}
