//! The start's own work on the built-in example, run once by the worker that compiles the
//! app's wasm (public/wasm-compile.js) in a throwaway instance, before it hands the module to
//! the page: no DOM, no JavaScript.
//!
//! Why: V8 compiles a wasm function on the page's main thread at its first call (lazy
//! compilation; wasm compilation hints are still behind a flag). The task that mounts the app
//! compiled about 1,200 functions, 400 KB, 70 ms of its 160 ms on the development machine
//! (tests/bench/start-trace.mjs, 2026-11-29), and Lighthouse's total blocking time is that
//! task's (docs/PERFORMANCE.md). A module posted from a worker keeps its compiled code: V8
//! shares one compiled module between the instances of every thread of the page, so a
//! function this run calls in the worker is already compiled when the page's instance calls
//! it (a first call measured 14–42 ms cold against 0.3 ms so warmed; the same section).
//!
//! What it runs is what the page's start runs that needs no browser: the state and the
//! example (`AppState::start_with`), the memos the first chart, the table and the notes read,
//! the chart's scene at the default size, the table's cells and order, the address's view;
//! then the same for a shared link's view (decoded, applied, and encoded for the address). The
//! DOM's and the canvas's code (Leptos's views, the painter on the canvas) stay the page's to
//! compile. A function that calls into JavaScript cannot run here: the worker instantiates the
//! module with imports that throw, so one would end the run there (the page then compiles the
//! rest itself). `tests/e2e/warm-start.test.mjs` runs this with such imports and fails if one
//! is called.

use crate::state::AppState;
use crate::kernel_table::{sort_rows, Column};
use crate::{chart_view, compare, export, start_link};
use leptos::prelude::*;
use roofline_engine::dataset::devices::ClockStats;
use roofline_engine::dataset::wire::DatasetWire;
use roofline_engine::dataset::DeviceRun;
use roofline_engine::domain::{Counter, Counters, Device, Vendor};
use roofline_engine::{share, Dataset, ImportError, KernelProfile};
use wasm_bindgen::prelude::*;

/// Runs the start's browser-free work once (the module's doc says why). Called by the worker
/// that compiles the wasm, never by the page; the page's state is not touched (this builds its
/// own, in the worker's instance).
#[wasm_bindgen]
pub fn warm_start() {
    let state = AppState::new_with(false);
    state.start_with(None);
    show(state);
    let _ = start_link::known(&state.view());
    // A shared link's start: its view decoded and applied. Its address is then written by
    // encoding the view, as every later change of view is (the link's deflate code).
    let linked = AppState::new_with(false);
    linked.start_with(Some(share::decode(start_link::START_FRAGMENT)));
    show(linked);
    let _ = share::encode_with_short_names(&linked.view(), None);
}

/// What the first chart, the table and the notes read of `state`, as their effects read it
/// (the scene reads the kernels shown and their names).
fn show(state: AppState) {
    state.controls.with(|_| ());
    state.kernel_note.with(|_| ());
    state.machine_note.with(|_| ());
    let (width, height) = export::DEFAULT_SIZE;
    let _ = chart_view::current_scene(state, width, height);
    let mut rows = state.visible.get().unwrap_or_default();
    let _ = compare::changes_by_kernel(state);
    state.report.with(|report| {
        sort_rows(&mut rows, &report.kernels, Column::Time, true);
        for r in &report.kernels {
            for c in Column::ALL {
                let _ = c.text(r, report.total_time_s);
            }
        }
    });
}

/// What the page runs when a load's answer arrives, on a dataset like a parsed Nsight Compute
/// raw page's (an H100 named and measured, a few kernels, a warning): the machine chosen for
/// the named device (the catalogue, the memory and clock rules), the dataset shown, and what
/// the first chart, the table and the notes then read ([`show`]). Run by the worker that
/// compiles the app's wasm after it has handed the module to the page (public/wasm-compile.js),
/// in its throwaway instance: no DOM, no JavaScript, nothing of the page's state.
///
/// Why: a first load compiled these functions in the page's task that shows the answer, on
/// the load's critical path (276 functions, 23 ms of the main thread's CPU after a 50 MB raw
/// page's answer, against none on a second load of the same file; docs/PERFORMANCE.md,
/// 2026-12-01, late). V8 shares a module's compiled code between its instances in every
/// thread, whenever it was compiled. What it cannot reach: reading the answer from its
/// JavaScript value (serde-wasm-bindgen calls JavaScript) and the table's DOM.
#[wasm_bindgen]
pub fn warm_load() {
    let state = AppState::new_with(false);
    state.start_with(None);
    state.show_loaded_now(loaded());
    show(state);
}

/// A dataset as the parser worker's answer gives it ([`DatasetWire`], then [`Dataset`], as the
/// page reads it): 6 kernels of 3 launches on an "NVIDIA H100 80GB HBM3" (its attributes as a
/// raw page states them), with times, cycles, clocks, FP32 FMAs and bytes at three levels.
fn loaded() -> Dataset {
    let device = Device {
        name: Some("NVIDIA H100 80GB HBM3".into()),
        vendor: Some(Vendor::Nvidia),
        compute_capability: Some((9, 0)),
        arch: Some("sm_90".into()),
        sm_count: Some(132),
        memory_bytes: Some(84_929_216_512.0),
        l2_bytes: Some(52_428_800.0),
        max_sm_clock_hz: Some(1.98e9),
        memory_clock_hz: Some(2.619e9),
        memory_bus_bits: Some(5120),
        peaks: None,
    };
    let kernels: Vec<KernelProfile> = (1..=6u32)
        .map(|i| {
            let k = f64::from(i);
            let counters = Counters::from_pairs(&[
                (Counter::TimeS, 3.0e-5 * k),
                (Counter::Cycles, 5.2e4 * k),
                (Counter::ClockHz, 3.0 * 1.755e9),
                (Counter::Fp32Fma, 1.0e8 * k),
                (Counter::DramBytes, 4.0e7 * k),
                (Counter::L2Bytes, 9.0e7 * k),
                (Counter::L1Bytes, 2.0e8 * k),
            ]);
            KernelProfile { name: format!("void warm_kernel_{i}<float>(float*, int)"), launches: 3, counters }
        })
        .collect();
    let mut clock = ClockStats::default();
    for k in &kernels {
        clock.add(&k.counters, k.launches);
    }
    let mut run = DeviceRun::default();
    run.device = device;
    run.kernel_time_s = kernels.iter().map(|k| k.counters.get(Counter::TimeS).unwrap_or(0.0)).sum();
    run.launches = 18;
    Dataset::from(DatasetWire {
        files: vec![("warm-up.csv".into(), "ncu-raw".into(), None)],
        kernels,
        launch_clock: clock,
        launches: 18,
        warnings: vec![ImportError::new("warm-up.csv", Some(3), "a warning the page shows")],
        devices: vec![(run, clock)],
        ..DatasetWire::default()
    })
}

