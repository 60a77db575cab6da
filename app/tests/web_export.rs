//! wasm tests (headless Chromium) of the examples, the machine editor's edits and the exports:
//! every built-in example loads with its kernels and the numbers its source states, the SVG
//! export carries the ceilings' labels, the CSV one row per kernel under a header with units,
//! and an edited HBM bandwidth moves the ridge.

use roofline_app::examples::{self, Data};
use roofline_app::{canvas, example_picker, export, machine_editor};
use roofline_engine::chart::Mode;
use roofline_engine::model::classic::ridges;
use roofline_engine::model::{catalogue, Basis, Level, Machine};
use roofline_engine::report::{self, AnalyzeReport};
use roofline_engine::share::View;
use roofline_engine::{Dataset, KernelProfile, SourceFile};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The files shipped in public/examples/ (the page fetches them; here they are compiled in).
fn shipped(name: &str) -> Vec<u8> {
    match name {
        "ncu-nsightful-copy_blocked.csv" => include_bytes!("../../public/examples/ncu-nsightful-copy_blocked.csv").to_vec(),
        "nvprof-magus-parboil_sgemm.csv" => include_bytes!("../../public/examples/nvprof-magus-parboil_sgemm.csv").to_vec(),
        "rocprof-omniperf-vcopy-MI200-pmc_perf.csv" => include_bytes!("../../public/examples/rocprof-omniperf-vcopy-MI200-pmc_perf.csv").to_vec(),
        "rocprof-omniperf-vcopy-MI200-roofline.csv" => include_bytes!("../../public/examples/rocprof-omniperf-vcopy-MI200-roofline.csv").to_vec(),
        "rocprof-omniperf-vcopy-MI200-sysinfo.csv" => include_bytes!("../../public/examples/rocprof-omniperf-vcopy-MI200-sysinfo.csv").to_vec(),
        other => panic!("{other} is not in public/examples (add it there and here)"),
    }
}

/// An example's dataset as the picker loads it.
fn dataset(e: &examples::Example) -> Dataset {
    match &e.data {
        Data::Kernels(ks) => Dataset { kernels: ks.clone(), ..Dataset::default() },
        Data::Files(names) => {
            let files: Vec<SourceFile> = names.iter().map(|n| SourceFile { name: n.to_string(), bytes: shipped(n) }).collect();
            example_picker::read_example_files(&files).unwrap_or_else(|err| panic!("{}: {err}", e.id))
        }
    }
}

fn machine_of(e: &examples::Example, ds: &Dataset) -> Machine {
    e.machine.clone().or_else(|| ds.machine.clone()).unwrap_or_else(catalogue::v100)
}

fn analyze(e: &examples::Example) -> AnalyzeReport {
    let ds = dataset(e);
    let m = machine_of(e, &ds);
    report::analyze(&ds, Some(&m))
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

#[wasm_bindgen_test]
fn every_example_loads_with_its_kernels() {
    let all = examples::all();
    let ids: Vec<_> = all.iter().map(|e| e.id).collect();
    assert_eq!(ids, ["course-v100", "berkeleygw-gpp", "nsight-gpp", "ncu-nsightful", "nvprof-magus", "omniperf-mi200"]);
    let expected = [("course-v100", 2, 0), ("berkeleygw-gpp", 9, 9), ("nsight-gpp", 4, 4), ("ncu-nsightful", 1, 0), ("nvprof-magus", 1, 0), ("omniperf-mi200", 1, 0)];
    for (e, (id, kernels, runs)) in all.iter().zip(expected) {
        assert_eq!(e.id, id);
        assert!(!e.source.is_empty() && !e.title.is_empty());
        let ds = dataset(e);
        assert_eq!(ds.kernels.len(), kernels, "{id}");
        assert_eq!(e.runs.len(), runs, "{id}");
        assert_eq!(e.run_names.len(), runs, "{id}");
        // Runs of a path hold the same kernel name, so runs compare kernel by kernel.
        if let Some(first) = e.runs.first() {
            assert!(e.runs.iter().all(|r| r.len() == 1 && r[0].name == first[0].name), "{id}");
        }
    }
    // File examples are fetched relative to the page (works under /roofline/ and at /).
    let ncu = examples::by_id("ncu-nsightful").unwrap();
    assert_eq!(ncu.urls(), ["examples/ncu-nsightful-copy_blocked.csv"]);
}

#[wasm_bindgen_test]
fn course_ax_sits_at_one_sixteenth_and_47_25_gflops() {
    let e = examples::by_id("course-v100").unwrap();
    let ds = dataset(&e);
    let m = machine_of(&e, &ds);
    let scene = export::scene_of(&ds.kernels, &m, Mode::Classic, None, 800.0, 500.0);
    assert_eq!(scene.hits.len(), 2);
    let ax = scene.hits.iter().find(|h| h.kernel == 0).unwrap();
    assert!((scene.x.from_px(ax.cx) - 0.0625).abs() < 1e-9);
    assert!((scene.y.from_px(ax.cy) / 1e9 - 47.25).abs() < 0.01, "{}", scene.y.from_px(ax.cy));
}

#[wasm_bindgen_test]
fn berkeleygw_steps_are_the_slides_numbers() {
    let steps = examples::berkeleygw_steps();
    assert_eq!(steps.len(), 9);
    assert_eq!(steps[0].name, "v1.collapse3");
    assert_eq!(steps[8].name, "v9.block");
    // FLOPs ÷ time reproduces each slide's TFLOP/s column (inputs rounded to 3 digits: 1%).
    for s in &steps {
        let rate = s.flops.unwrap() / s.time_s.unwrap();
        assert!(close(rate, s.stated_flops_per_s.unwrap(), 0.01), "{}: {rate}", s.name);
    }
    let r = analyze(&examples::by_id("berkeleygw-gpp").unwrap());
    // v1: 3.71 TFLOP in 1.63 s; no bytes in the text, so no intensity.
    assert_eq!(r.kernels[0].flops.fp64, Some(3.71e12));
    assert_eq!(r.kernels[0].time_s, Some(1.63));
    assert_eq!(r.kernels[0].bytes.dram, None);
    // v9: 131.85 GB/s × 0.57 s of DRAM traffic → 2.00e12 / 75.15e9 = 26.6 FLOP/byte.
    let v9 = &r.kernels[8];
    let ai = v9.flops.total.unwrap() / v9.bytes.dram.unwrap();
    assert!(close(ai, 26.61, 0.001), "{ai}");
    assert!(close(v9.flops_per_s.unwrap(), 3.5e12, 0.01));
    // v8: the v9 throughput is 78.99% below v8's: 627.56 GB/s × 0.62 s → 5.11 FLOP/byte.
    let v8 = &r.kernels[7];
    assert!(close(v8.flops.total.unwrap() / v8.bytes.dram.unwrap(), 5.114, 0.001));
    // Only v8 and v9 have dots.
    let ds = dataset(&examples::by_id("berkeleygw-gpp").unwrap());
    let scene = export::scene_of(&ds.kernels, &catalogue::v100(), Mode::Classic, None, 800.0, 500.0);
    let mut dots: Vec<usize> = scene.hits.iter().map(|h| h.kernel).collect();
    dots.sort();
    assert_eq!(dots, [7, 8]);
}

#[wasm_bindgen_test]
fn nsight_post_step_3_is_6_3_flop_per_byte_at_2_9_tflops_on_a_7_5_ridge() {
    let e = examples::by_id("nsight-gpp").unwrap();
    let r = analyze(&e);
    let step3 = r.kernels.iter().find(|k| k.name.starts_with("Step 3")).unwrap();
    assert!(close(step3.flops.total.unwrap() / step3.bytes.dram.unwrap(), 6.3, 1e-9));
    assert!(close(step3.flops_per_s.unwrap(), 2.9e12, 1e-9));
    let baseline = r.kernels.iter().find(|k| k.name.starts_with("Baseline")).unwrap();
    assert_eq!(baseline.time_s, Some(1.74));
    assert_eq!(baseline.flops.total, None, "the post states no FLOP/s for the baseline");
    // The post's V100 balance point, "7.5": FP64 at the 1312 MHz base clock over 900 GB/s.
    let m = e.machine.unwrap();
    let ridge = ridges(&m).into_iter().find(|r| r.compute == "FP64" && r.memory == "HBM").unwrap();
    assert!(close(ridge.flops_per_byte, 7.46, 0.002), "{}", ridge.flops_per_byte);
}

#[wasm_bindgen_test]
fn real_profiles_keep_their_numbers() {
    let sgemm = analyze(&examples::by_id("nvprof-magus").unwrap());
    assert!(sgemm.kernels[0].name.starts_with("mysgemmNT("));
    assert_eq!(sgemm.kernels[0].flops.fp32, Some(3993600.0));
    let vcopy = analyze(&examples::by_id("omniperf-mi200").unwrap());
    assert_eq!(vcopy.kernels[0].launches, 3);
    let m = vcopy.machine.unwrap();
    assert_eq!(m.id, "rocprof-compute-device-0", "the machine comes from the shipped roofline.csv");
    let ncu = analyze(&examples::by_id("ncu-nsightful").unwrap());
    assert!(ncu.kernels[0].name.starts_with("copy_blocked"));
    assert!(close(ncu.kernels[0].time_s.unwrap(), 0.021058944, 1e-9));
}

#[wasm_bindgen_test]
fn svg_export_has_the_ceiling_labels() {
    let kernels = examples::course_v100();
    let scene = export::scene_of(&kernels, &catalogue::v100(), Mode::Classic, Some(0), 960.0, 595.0);
    let svg = export::svg(&scene);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.contains(">HBM 828 GB/s</text>"), "HBM roof label");
    assert!(svg.contains(">FP64 7.83 TFLOP/s"), "FP64 roof label");
    assert!(svg.contains(">ridge 9.46"), "ridge label");
    assert!(svg.ends_with("</svg>"));
}

#[wasm_bindgen_test]
fn csv_export_has_a_header_with_units_and_one_row_per_kernel() {
    let r = analyze(&examples::by_id("berkeleygw-gpp").unwrap());
    let csv = export::kernels_csv(&r);
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines[0], export::CSV_HEADER);
    assert!(lines[0].starts_with("kernel,launches,time [s],FLOPs [FLOP]"));
    assert!(lines[0].contains("DRAM bytes [B]") && lines[0].contains("performance [FLOP/s]"));
    assert_eq!(lines.len(), 1 + 9);
    let columns = export::CSV_HEADER.split(',').count();
    // v9 (a name without commas): 2.00e12 FLOP in 0.57 s, 131.85e9 × 0.57 DRAM bytes.
    let v9: Vec<&str> = lines[9].split(',').collect();
    assert_eq!(v9.len(), columns, "{}", lines[9]);
    assert_eq!(v9[0], "v9.block: cache blocking");
    assert_eq!(&v9[1..4], ["1", "0.57", "2000000000000"]);
    assert!(close(v9[10].parse::<f64>().unwrap(), 75.1545e9, 1e-9));
    // v2: DRAM bytes not measured: empty, not 0.
    assert!(lines[2].contains(",1.73,3710000000000,3710000000000,,,,,,,,"), "{}", lines[2]);
    // Names with commas are quoted (RFC 4180).
    assert!(lines[1].starts_with("\"v1.collapse3: collapse n′, G′ and G loops\","), "{}", lines[1]);
    let sgemm = export::kernels_csv(&analyze(&examples::by_id("nvprof-magus").unwrap()));
    assert!(sgemm.contains("\r\n\"mysgemmNT(float const *, int, float const *, int, float*, int, int, float, float)\",1,"), "{sgemm}");
}

#[wasm_bindgen_test]
fn json_export_is_the_cli_report() {
    let r = analyze(&examples::by_id("course-v100").unwrap());
    let json = export::kernels_json(&r).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["kernels"].as_array().unwrap().len(), 2);
    assert_eq!(v["kernels"][0]["flops"]["fp64"], 500e6);
    assert_eq!(v["machine"]["id"], "v100");
}

/// The view file and a dropped ERT roofline.json through the browser's JSON.parse and
/// JSON.stringify (app/src/json.rs), as the app reads and writes them.
#[wasm_bindgen_test]
fn json_files_go_through_the_browser() {
    use roofline_app::json::{load_sources, BrowserJson};
    use roofline_engine::chart::Zoom;
    use roofline_engine::share::{self, SharedKernel};
    let view = View {
        mode: "walls".into(),
        zoom: Some(Zoom { x: [0.01, 100.0], y: [1e9, 1e13] }),
        top_n: Some(10),
        word_bytes: 4,
        kernels: vec![SharedKernel { name: "ax".into(), launches: 3, counters: roofline_engine::domain::counters::Counters::default() }],
        ..View::new(&catalogue::a100().at_clock(1e9), &examples::course_v100())
    };
    let text = export::view_json(&view).unwrap();
    assert!(text.starts_with("{\n  \"roofline_view\": \"v1\",\n  \"machine_id\": \"a100\","), "{text}");
    assert!(text.ends_with("}\n"));
    assert_eq!(share::file::from_document(&BrowserJson::new(&text)), Ok(view.clone()), "exact: JavaScript numbers round-trip");
    // Dropped like a profiler file: the kernels and the custom machine.
    let ds = load_sources(&[SourceFile { name: "v.roofline.json".into(), bytes: text.into_bytes() }]).unwrap();
    assert_eq!((ds.files[0].format, ds.kernels.len(), ds.machine.as_ref()), ("roofline-view", 1, view.machine().as_ref()));
    // ERT: 1 GB/s of DRAM, 2 GFLOP/s at FP32 (its config's precision), from the browser's parse.
    let ert = r#"{"empirical": {"gbytes": {"data": [["DRAM", 1.0]]}, "gflops": {"data": [["GFLOPs", 2.0]]}, "metadata": {"HOSTNAME": "n1", "CONFIG": {"ERT_PRECISION": ["FP32"]}}}}"#;
    let m = load_sources(&[SourceFile { name: "roofline.json".into(), bytes: ert.as_bytes().to_vec() }]).unwrap().machine.unwrap();
    assert_eq!((m.name.as_str(), m.memory[0].bytes_per_s, m.compute[0].name.as_str(), m.compute[0].flops_per_s), ("n1 (ERT)", 1e9, "FP32", 2e9));
    // A broken file names itself.
    let e = load_sources(&[SourceFile { name: "b.roofline.json".into(), bytes: b"{\"roofline_view\": \"v1\", \"kernels\": [}".to_vec() }]).unwrap_err();
    assert!(e.to_string().contains("b.roofline.json") && e.to_string().contains("invalid JSON in a Roofline Explorer view file"), "{e}");
}

#[wasm_bindgen_test]
fn editing_hbm_bandwidth_moves_the_ridge() {
    let m = catalogue::v100();
    let hbm = m.memory.iter().position(|l| l.level == Level::Dram).unwrap();
    let fp64_hbm = |m: &Machine| ridges(m).into_iter().find(|r| r.compute == "FP64" && r.memory == "HBM").unwrap().flops_per_byte;
    assert!(close(fp64_hbm(&m), 9.46, 0.001));
    let edited = machine_editor::set_memory_gbps(&m, hbm, 414.0).unwrap();
    assert_eq!(edited.memory[hbm].bytes_per_s, 414e9);
    assert!(close(fp64_hbm(&edited), 18.92, 0.001), "half the bandwidth, twice the ridge");
    assert_eq!(edited.id, machine_editor::CUSTOM_ID);
    assert!(edited.name.ends_with("(edited)"));
    // The link carries an edited machine in full.
    let mut view = View::default();
    view.set_machine(&edited);
    assert_eq!(view.custom_machine.as_ref(), Some(&edited));
    // Bad values change nothing.
    assert_eq!(machine_editor::set_memory_gbps(&m, hbm, 0.0), None);
    assert_eq!(machine_editor::set_memory_gbps(&m, hbm, f64::NAN), None);
    assert_eq!(machine_editor::set_memory_gbps(&m, 99, 1.0), None);
    // A compute edit moves it the other way.
    let fp64 = m.compute.iter().position(|c| c.name == "FP64").unwrap();
    let faster = machine_editor::set_compute_gflops(&m, fp64, 15667.2).unwrap();
    assert!(close(fp64_hbm(&faster), 18.92, 0.001));
}

#[wasm_bindgen_test]
fn clock_and_basis_switches() {
    let m = catalogue::v100();
    assert_eq!(machine_editor::clock_of(&m), Some(machine_editor::Clock::Boost));
    assert_eq!(machine_editor::basis_of(&m), Basis::Empirical);
    let base = machine_editor::at_clock(&m, machine_editor::Clock::Base).unwrap();
    assert_eq!(machine_editor::clock_of(&base), Some(machine_editor::Clock::Base));
    assert_eq!(base.name, "NVIDIA V100 SXM2", "names carry no clock");
    let sheet = base.with_basis(Basis::Theoretical);
    assert_eq!(machine_editor::basis_of(&sheet), Basis::Theoretical);
    assert_eq!(sheet.memory_level(Level::Dram).unwrap().bytes_per_s, 900e9);
    assert_eq!(sheet, examples::v100_nsight_compute().clone_with_name(&sheet.name));
    assert_eq!(machine_editor::giga_text(7833.6e9), "7833.6");
    assert_eq!(machine_editor::giga_text(828e9), "828");
}

trait WithName {
    fn clone_with_name(&self, name: &str) -> Machine;
}

impl WithName for Machine {
    fn clone_with_name(&self, name: &str) -> Machine {
        Machine { name: name.into(), ..self.clone() }
    }
}

#[wasm_bindgen_test]
fn png_export_paints_at_twice_the_scene() {
    let document = web_sys::window().unwrap().document().unwrap();
    let el: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    let kernels: Vec<KernelProfile> = examples::course_v100();
    let scene = export::scene_of(&kernels, &catalogue::v100(), Mode::Classic, None, 600.0, 372.0);
    canvas::paint_scaled(&el, &scene, export::PNG_SCALE).unwrap();
    assert_eq!((el.width(), el.height()), (1200, 744));
    // The AX dot's centre, at 2×, is painted in its colour (Okabe–Ito blue).
    let ctx: web_sys::CanvasRenderingContext2d = el.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
    let h = scene.hits.iter().find(|h| h.kernel == 0).unwrap();
    let px = ctx.get_image_data(h.cx * 2.0, h.cy * 2.0, 1.0, 1.0).unwrap().data();
    assert_eq!((px[0], px[1], px[2]), (0, 114, 178));
    assert!(el.to_data_url().unwrap().starts_with("data:image/png;base64,iVBORw0KGgo"));
}
