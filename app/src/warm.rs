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

use crate::app::AppState;
use crate::kernel_table::{sort_rows, Column};
use crate::{chart_view, compare, export, start_link};
use leptos::prelude::*;
use roofline_engine::share;
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
