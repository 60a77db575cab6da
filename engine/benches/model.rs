//! The model and guidance for 10,000 kernels: `report::analyze` (every roofline, memory-wall
//! position, binding roof, headroom, Amdahl rank) of a dataset as large as a long training
//! run gives, against a catalogue GPU; and the chart scenes of those kernels (the hierarchical
//! one has 30,000 dots: issue 8's redraw budget), which the app builds on every redraw, and
//! a zoomed hierarchical redraw with and without the model's results kept (`ModelCache`).
//! Throughput in kernels (criterion `Elements`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use roofline_engine::chart::{self, raster, ChartInput, Mode};
use roofline_engine::domain::counters::{Counter, Counters};
use roofline_engine::model::catalogue;
use roofline_engine::report::{analyze, analyze_kernels};
use roofline_engine::{Dataset, KernelProfile};
use std::hint::black_box;
use std::time::Duration;

const KERNELS: usize = 10_000;

/// Kernels spread over four decades of intensity and time, with every counter the views use.
fn dataset() -> Dataset {
    let kernels = (0..KERNELS)
        .map(|i| {
            let x = (i % 97) as f64 / 97.0;
            let mut c = Counters::default();
            c.set(Counter::TimeS, 1e-5 * (1.0 + 1000.0 * x));
            c.set(Counter::Fp32Fma, 1e6 * (1.0 + (i % 13) as f64) * 10f64.powf(4.0 * x));
            c.set(Counter::Fp64Add, 1e4 * (1 + i % 7) as f64);
            c.set(Counter::TensorInst, 1e3 * (i % 5) as f64);
            c.set(Counter::DramBytes, 1e8 * (1.0 + x));
            c.set(Counter::L2Bytes, 3e8 * (1.0 + x));
            c.set(Counter::L1Bytes, 9e8 * (1.0 + x));
            c.set(Counter::WarpInst, 1e7 * (1.0 + x));
            c.set(Counter::GlobalTxn, 2e6 * (1.0 + x));
            c.set(Counter::Cycles, 1.4e4 * (1.0 + 1000.0 * x));
            c.set(Counter::ClockHz, 1.4e9);
            KernelProfile { name: format!("void kernel_{i}<float, {}>(Params)", i % 31), launches: 1 + (i % 4) as u64, counters: c }
        })
        .collect();
    Dataset { kernels, ..Dataset::default() }
}

fn model(c: &mut Criterion) {
    let ds = dataset();
    let machine = catalogue::by_id("a100").or_else(|| catalogue::all().into_iter().next());
    let mut g = c.benchmark_group("model_10k_kernels");
    g.throughput(Throughput::Elements(KERNELS as u64));
    g.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    g.bench_function("analyze_with_guidance", |b| b.iter(|| black_box(analyze(black_box(&ds), machine.as_ref()))));
    // The web app's report of its kernels: before, copied into a Dataset first; now in place.
    g.bench_function("app_report_copied", |b| {
        b.iter(|| black_box(analyze(&Dataset { kernels: black_box(&ds).kernels.clone(), ..Dataset::default() }, machine.as_ref())))
    });
    g.bench_function("app_report_in_place", |b| b.iter(|| black_box(analyze_kernels(black_box(&ds.kernels), machine.as_ref()))));
    g.finish();
}

/// Scene building at the app's default chart size (960 × 595 CSS pixels), one mode each.
fn scenes(c: &mut Criterion) {
    let ds = dataset();
    let Some(machine) = catalogue::by_id("a100") else { return };
    let mut g = c.benchmark_group("scene_10k_kernels");
    g.throughput(Throughput::Elements(KERNELS as u64));
    g.sample_size(20).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    // The names the app computes once per dataset and passes to every redraw.
    let names = roofline_engine::domain::short_names::distinct_display_names(&ds.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>());
    for mode in [Mode::Classic, Mode::Hierarchical, Mode::Instruction] {
        let input = ChartInput::new(&ds.kernels, &machine, 960.0, 595.0).with_mode(mode).with_selected(Some(17)).with_names(&names);
        g.bench_function(mode.id(), |b| b.iter(|| black_box(chart::build(black_box(&input)))));
    }
    // A zoom or pan redraw in the app: the model's results kept between redraws
    // (chart::ModelCache, made once per dataset, machine and mode), a zoomed view.
    let cache = chart::ModelCache::new(&ds.kernels, &machine, Mode::Hierarchical);
    let zoom = chart::Zoom { x: [0.1, 100.0], y: [1e9, 1e13] };
    let input = ChartInput::new(&ds.kernels, &machine, 960.0, 595.0).with_mode(Mode::Hierarchical).with_selected(Some(17)).with_names(&names).with_zoom(Some(zoom));
    g.bench_function("hierarchical_zoomed", |b| b.iter(|| black_box(chart::build(black_box(&input)))));
    let cached = ChartInput::new(&ds.kernels, &machine, 960.0, 595.0).with_mode(Mode::Hierarchical).with_selected(Some(17)).with_names(&names).with_zoom(Some(zoom)).with_cache(&cache);
    g.bench_function("hierarchical_zoomed_cached", |b| b.iter(|| black_box(chart::build(black_box(&cached)))));
    // What the canvas does with the hierarchical scene: its long runs of dots and lines as
    // images (chart::raster), at a 1× and a 2× device pixel ratio.
    let input = ChartInput::new(&ds.kernels, &machine, 960.0, 595.0).with_mode(Mode::Hierarchical);
    let scene = chart::build(&input);
    for dpr in [1.0, 2.0] {
        let (w, h) = ((scene.width * dpr) as u32, (scene.height * dpr) as u32);
        g.bench_function(format!("hierarchical_raster_{dpr}x"), |b| {
            b.iter(|| {
                for (range, raster) in raster::plan(&scene.shapes) {
                    if raster {
                        black_box(raster::rasterize(&scene.shapes[range], dpr, w, h));
                    }
                }
            })
        });
    }
    // The same scene through the plotters painter on plotters-svg (the CLI's `plot`, the SVG
    // export), every dot an element.
    g.bench_function("hierarchical_svg", |b| b.iter(|| black_box(chart::svg::render(black_box(&scene)))));
    g.finish();
}

criterion_group!(benches, model, scenes);
criterion_main!(benches);
