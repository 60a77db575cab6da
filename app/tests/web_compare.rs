//! Run comparison in the browser: a trajectory example shows its whole path (N steps give
//! N − 1 earlier runs, the last step current), every step has a change from the one before,
//! and the canvas paints the engine's arrow in its colour.

use roofline_app::{canvas, compare, example_picker, examples};
use roofline_engine::chart::{self, ChartInput, RunRef, Shape, Theme};
use roofline_engine::compare::changes;
use roofline_engine::model::catalogue;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn berkeleygw_example_yields_its_path_as_runs() {
    let ex = examples::by_id("berkeleygw-gpp").expect("example");
    let n = ex.runs.len();
    assert_eq!(n, 9, "v1…v9");
    let (runs, current) = example_picker::trajectory(&ex, Vec::new());
    // N − 1 earlier runs, oldest first, named as the slides' steps; v9 is current.
    assert_eq!(runs.len(), n - 1);
    assert_eq!(runs[0].0, "v1.collapse3");
    assert_eq!(runs[n - 2].0, "v8.abs");
    assert_eq!(current, ex.runs[n - 1]);
    // Each step has a time change from the previous one (N − 1 arrows' worth); v8 → v9:
    // 0.57 s / 0.62 s − 1 = −8.06 %.
    let path: Vec<_> = runs.iter().map(|(_, ks)| ks.clone()).chain([current.clone()]).collect();
    let steps: Vec<_> = path.windows(2).map(|w| changes(&w[0], &w[1])).collect();
    assert_eq!(steps.len(), n - 1);
    assert!(steps.iter().all(|c| c.len() == 1 && c[0].time_change.is_some()));
    let last = steps[n - 2][0].time_change.unwrap();
    assert!((last - (0.57 / 0.62 - 1.0)).abs() < 1e-12, "{last}");
    assert_eq!(compare::percent(Some(last)), "-8.1%");
    // On the chart only v8 and v9 have DRAM bytes (dots): one arrow, v8 → v9.
    let refs: Vec<RunRef> = runs.iter().map(|(name, ks)| RunRef::new(name, ks)).collect();
    let m = catalogue::v100();
    let s = chart::build(&ChartInput::new(&current, &m, 800.0, 500.0).with_runs(&refs));
    assert_eq!(s.shapes.iter().filter(|sh| matches!(sh, Shape::Arrow { .. })).count(), 1);
    // A single-run example has no runs.
    let course = examples::by_id("course-v100").expect("example");
    let (runs, current) = example_picker::trajectory(&course, examples::course_v100());
    assert!(runs.is_empty());
    assert_eq!(current, examples::course_v100());
}

#[wasm_bindgen_test]
fn canvas_paints_the_arrow() {
    let ex = examples::by_id("berkeleygw-gpp").expect("example");
    let (runs, current) = example_picker::trajectory(&ex, Vec::new());
    let refs: Vec<RunRef> = runs.iter().map(|(name, ks)| RunRef::new(name, ks)).collect();
    let m = catalogue::v100();
    let scene = chart::build(&ChartInput::new(&current, &m, 800.0, 500.0).with_theme(Theme::Light).with_runs(&refs));
    let Some(Shape::Arrow { from, to, color, .. }) = scene.shapes.iter().find(|sh| matches!(sh, Shape::Arrow { .. })).cloned() else { panic!("an arrow") };
    let document = web_sys::window().unwrap().document().unwrap();
    let el: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    document.body().unwrap().append_child(&el).unwrap();
    canvas::paint_scaled(&el, &scene, 1.0).unwrap();
    let ctx: web_sys::CanvasRenderingContext2d = el.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    // Midway along the shaft, clear of both markers, the pixel is the arrow's colour.
    let (x, y) = ((from.0 + to.0) / 2.0, (from.1 + to.1) / 2.0);
    let px = ctx.get_image_data(x.round(), y.round(), 1.0, 1.0).unwrap().data();
    let dist = (px[0] as i32 - color.0 as i32).abs() + (px[1] as i32 - color.1 as i32).abs() + (px[2] as i32 - color.2 as i32).abs();
    assert!(dist < 120, "{:?} vs {color:?} at ({x}, {y})", (px[0], px[1], px[2]));
}
