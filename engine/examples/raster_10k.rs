//! The browser benchmark's redraw, natively: the hierarchical scene of the 10,000 kernels that
//! `tests/bench/browser.mjs` loads (`tidyKernels`, tests/bench/redraw.mjs), built and
//! rasterised as the app's canvas does, `N` times. Prints milliseconds per scene and per image
//! and a checksum of the pixels, so a change to the rasteriser can be timed and shown to draw
//! the same image (development aid; docs/PERFORMANCE.md). Built with the page's profile it is
//! what callgrind counts:
//!
//! ```sh
//! cargo build --profile wasm-release -p roofline-engine --example raster_10k
//! valgrind --tool=callgrind target/wasm-release/examples/raster_10k 3
//! ```
use roofline_engine::chart::{self, raster, ChartInput, Mode};
use roofline_engine::model::catalogue;
use roofline_engine::SourceFile;
use std::time::Instant;

/// The same rows as `tidyKernels` in tests/bench/redraw.mjs.
fn tidy_kernels(n: usize) -> String {
    let mut rows = vec!["kernel,time_s,flops_fp32,bytes_l1,bytes_l2,bytes_dram".to_string()];
    for i in 0..n {
        let (t, f, b) = (1e-5 * (1 + i % 97) as f64, 1e9 * (1 + i % 389) as f64, 1e8 * (1 + i % 211) as f64);
        rows.push(format!("kernel_{i},{t},{f},{},{},{b}", b * 4.0, b * 2.0));
    }
    rows.join("\n") + "\n"
}

/// The scene's long runs as images, as the canvas backend draws them (a function of its own so
/// that callgrind can count it alone: `--toggle-collect='*rasterize_runs*'`).
#[inline(never)]
fn rasterize_runs(r: &mut raster::Rasterizer, shapes: &[chart::Shape], dpr: f64, w: u32, h: u32) -> Vec<raster::Pixmap> {
    raster::plan(shapes).into_iter().filter(|(_, run)| *run).filter_map(|(range, _)| r.rasterize(&shapes[range], dpr, w, h)).collect()
}

fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let dpr: f64 = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let file = SourceFile { name: "kernels-10000.csv".into(), bytes: tidy_kernels(10_000).into_bytes() };
    let ds = match roofline_engine::load_dataset(&[file]) {
        Ok(ds) => ds,
        Err(e) => return eprintln!("{e}"),
    };
    let Some(machine) = catalogue::by_id("a100") else { return eprintln!("no a100 in the catalogue") };
    let cache = chart::ModelCache::new(&ds.kernels, &machine, Mode::Hierarchical);
    // The names the app computes once per dataset and passes to every redraw.
    let names = roofline_engine::domain::short_names::distinct_display_names(&ds.kernels.iter().map(|k| k.name.as_str()).collect::<Vec<_>>());
    let input = ChartInput::new(&ds.kernels, &machine, 960.0, 595.0).with_mode(Mode::Hierarchical).with_names(&names).with_cache(&cache);
    // Kept from image to image, as the canvas keeps it.
    let mut rasterizer = raster::Rasterizer::default();
    let (mut scene_s, mut raster_s, mut sum) = (0.0, 0.0, 0xcbf2_9ce4_8422_2325u64);
    for _ in 0..runs {
        let t = Instant::now();
        let scene = chart::build(&input);
        scene_s += t.elapsed().as_secs_f64();
        let (w, h) = ((scene.width * dpr) as u32, (scene.height * dpr) as u32);
        let t = Instant::now();
        let images = rasterize_runs(&mut rasterizer, &scene.shapes, dpr, w, h);
        raster_s += t.elapsed().as_secs_f64();
        for p in &images {
            for b in p.rgba() {
                sum = (sum ^ b as u64).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    println!("scene {:.2} ms, raster {:.2} ms per image (mean of {runs}); checksum {sum:016x}", scene_s * 1e3 / runs as f64, raster_s * 1e3 / runs as f64);
}
