//! A gesture's frames for a chart slow to redraw (see `chart_view.rs`'s module doc and engine
//! `chart::preview`): the zoom the wheel or a drag step has just asked for, the last exact
//! image and how long it took to draw, whether the canvas shows a moved image now, and the
//! timer of the exact redraw at the gesture's pause.
//!
//! Plain state of the page's one chart, outside the reactive graph: none of it is shown, and
//! reactive cells for each would cost 8 KB of wasm in generic code (measured 2026-11-28).

use crate::canvas::preview::Snapshot;
use leptos::prelude::TimeoutHandle;
use roofline_engine::chart::{Scene, Zoom};
use std::cell::RefCell;
use web_sys::HtmlCanvasElement;

/// An exact redraw slower than this, ms, is not repeated for every frame of a wheel or drag
/// gesture: the frames move its image and the exact chart follows the gesture's pause. Under a
/// 60 Hz frame, with room for the page's other work in it.
pub const PREVIEW_ABOVE_MS: f64 = 10.0;

#[derive(Default)]
struct Frames {
    asked: Option<Zoom>,
    snapshot: Option<Snapshot>,
    exact_ms: f64,
    showing: bool,
    settle: Option<TimeoutHandle>,
}

thread_local! {
    static FRAMES: RefCell<Frames> = RefCell::new(Frames::default());
}

/// A wheel notch or a drag step is about to set the zoom to `zoom`.
pub fn ask(zoom: Zoom) {
    FRAMES.with_borrow_mut(|f| f.asked = Some(zoom));
}

/// The zoom a gesture asked for since the last redraw, forgotten once read: a redraw for any
/// other reason draws exactly.
pub fn take_asked() -> Option<Zoom> {
    FRAMES.with_borrow_mut(|f| f.asked.take())
}

/// Draws `zoom` on `canvas` (at `size`) as the last exact image moved, when that image took
/// longer than [`PREVIEW_ABOVE_MS`] and the move is near enough; true when it did.
pub fn draw(canvas: &HtmlCanvasElement, size: (f64, f64), zoom: Zoom) -> bool {
    FRAMES.with_borrow_mut(|f| {
        if f.exact_ms <= PREVIEW_ABOVE_MS {
            return false;
        }
        let Some(snap) = &f.snapshot else { return false };
        let drawn = snap.preview(size, zoom).is_some_and(|p| snap.draw(canvas, &p).is_ok());
        f.showing |= drawn;
        drawn
    })
}

/// Whether the canvas shows a moved image (the scene's hit areas do not match it).
pub fn showing() -> bool {
    FRAMES.with_borrow(|f| f.showing)
}

/// The exact redraw at the gesture's pause, replacing one set before.
pub fn settle_with(timer: Option<TimeoutHandle>) {
    FRAMES.with_borrow_mut(|f| {
        if let Some(old) = std::mem::replace(&mut f.settle, timer) {
            old.clear();
        }
    });
}

/// `scene` was drawn exactly on `canvas` in `cost_ms`: its image is kept for the next
/// gesture's frames when it was slow, dropped otherwise; the pause's redraw is not needed.
pub fn exact(canvas: &HtmlCanvasElement, scene: &Scene, cost_ms: f64) {
    settle_with(None);
    FRAMES.with_borrow_mut(|f| {
        f.exact_ms = cost_ms;
        f.showing = false;
        let kept = f.snapshot.take();
        if cost_ms > PREVIEW_ABOVE_MS {
            f.snapshot = Snapshot::take(canvas, scene, kept).ok();
        }
    });
}

/// The chart is gone: its timer cleared, its image dropped.
pub fn forget() {
    settle_with(None);
    FRAMES.with_borrow_mut(|f| *f = Frames::default());
}
