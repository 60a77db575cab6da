//! Keeps the page address in step with the view (`url_state::write`) without slowing
//! interaction: encoding a view deflates all its kernels, ~100 ms or more for 10,000 kernels,
//! far over a frame. While writes are cheap (under [`CHEAP_MS`]: views of a usual size),
//! every change is written at once. Once they are not, a change after a quiet spell is still
//! written at once (so a link is current as soon as a load or a click is done), but changes
//! that follow it within [`QUIET_MS`] (a wheel zoom, a drag) are written once, [`QUIET_MS`]
//! after the last of them, so zoom and pan keep their frame rate (docs/PERFORMANCE.md).
//!
//! "At once" is the task right after the change's: the chart the change redraws is painted
//! first (a write before it held a 50 MB load's chart back by 2–25 ms, measured 2026-11-25),
//! and several changes of one task are written once. Copy link writes what is pending first
//! ([`flush`]).

use crate::state::AppState;
use crate::url_state;
use leptos::prelude::*;
use roofline_engine::share::View;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// How long the view must stay unchanged before a deferred write: longer than the gap between
/// two events of one gesture (a frame while dragging, a wheel notch), short enough that the
/// address is current a moment after the gesture.
pub const QUIET_MS: i32 = 80;
/// A write that takes less than this (a few milliseconds for views of up to a few hundred
/// kernels) never defers the next one: such views keep an always-current address.
pub const CHEAP_MS: f64 = 12.0;

thread_local! {
    /// The view waiting to be written, and the timer that will write it.
    static PENDING: RefCell<Option<View>> = const { RefCell::new(None) };
    static TIMER: Cell<Option<i32>> = const { Cell::new(None) };
    /// When the last change arrived or was written (`performance.now()`), to tell a quiet spell.
    static LAST_CHANGE: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
    /// How long the last write took, ms.
    static LAST_WRITE_MS: Cell<f64> = const { Cell::new(0.0) };
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Writes `view` now, and says what the user should be told (names shortened, too large).
/// Its cost is the `roofline:address` measure.
fn write(state: AppState, view: &View) {
    // A `#url=` page's address while it shows the fetched file (open_url.rs).
    if crate::open_url::write_address(state, view) {
        return;
    }
    let t = now();
    crate::perf::mark("roofline:address-start");
    // The page's short names, when they are this view's kernels' (a view waiting for its
    // timer is the latest, so they are; comparing the names costs far less than working the
    // short names out again).
    let notice = state.kernels.with_untracked(|ks| {
        let same = ks.len() == view.kernels.len() && ks.iter().zip(&view.kernels).all(|(k, v)| k.name == v.name);
        state.names.with_untracked(|names| url_state::write(view, same.then_some(names.as_slice())))
    });
    crate::perf::measure_latest("roofline:address", "roofline:address-start");
    LAST_WRITE_MS.with(|c| c.set(now() - t));
    state.link_notice.set(notice);
}

/// Installs the effect that writes every view change to the address (module doc).
pub fn keep_in_step(state: AppState) {
    Effect::new(move |_| {
        let view = state.view();
        // The first view (the page's start) is written after the first chart too: a link is
        // not needed before that, and the start task is the page's longest (Lighthouse's
        // total blocking time).
        let first = LAST_CHANGE.with(Cell::get) == f64::NEG_INFINITY;
        let cheap = LAST_WRITE_MS.with(Cell::get) < CHEAP_MS && !first;
        let quiet = !first && now() - LAST_CHANGE.with(Cell::get) >= f64::from(QUIET_MS) && TIMER.with(Cell::get).is_none();
        // A write at once is timed from its end (the next change is not after a quiet spell);
        // a deferred one from the change.
        let at_once = first || cheap || quiet;
        LAST_CHANGE.with(|c| c.set(now()));
        PENDING.with(|p| *p.borrow_mut() = Some(view));
        let Some(w) = web_sys::window() else { return };
        if let Some(id) = TIMER.with(Cell::take) {
            w.clear_timeout_with_handle(id);
        }
        let fire = Closure::once_into_js(move || {
            TIMER.with(|t| t.set(None));
            if write_pending(state) && at_once {
                LAST_CHANGE.with(|c| c.set(now()));
            }
        });
        match w.set_timeout_with_callback_and_timeout_and_arguments_0(fire.unchecked_ref(), if at_once { 0 } else { QUIET_MS }) {
            Ok(id) => TIMER.with(|t| t.set(Some(id))),
            // No timer (cannot happen in a window): write now rather than never.
            Err(_) => flush(state),
        }
    });
}

/// Writes the view waiting for its timer now (Copy link copies the address: it must be current).
pub fn flush(state: AppState) {
    if let (Some(id), Some(w)) = (TIMER.with(Cell::take), web_sys::window()) {
        w.clear_timeout_with_handle(id);
    }
    write_pending(state);
}

/// Writes the view waiting to be written, if any; whether there was one.
fn write_pending(state: AppState) -> bool {
    let Some(view) = PENDING.with(|p| p.borrow_mut().take()) else { return false };
    write(state, &view);
    true
}
