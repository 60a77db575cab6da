//! `performance.mark`/`measure` entries (`roofline:parse`, `roofline:render` = `roofline:scene`
//! (building the scene) + `roofline:paint` (of which `roofline:raster`: the engine's
//! rasteriser) + the rest, `roofline:hover` (the latest hover's hit test), `roofline:load`,
//! `roofline:link-chart` (a shared link's chart drawn before the app, `first/`)) so anyone can
//! read the page's costs in DevTools or in a browser benchmark.

fn performance() -> Option<web_sys::Performance> {
    web_sys::window()?.performance()
}

/// Marks the start of a phase.
pub fn mark(name: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(name);
    }
}

/// Records a measure from the mark `start` to now, replacing earlier ones of the same name:
/// for events as frequent as mouse moves, whose entries would otherwise pile up.
pub fn measure_latest(name: &str, start: &str) {
    if let Some(p) = performance() {
        p.clear_measures_with_measure_name(name);
        let _ = p.measure_with_start_mark(name, start);
        p.clear_marks_with_mark_name(start);
    }
}

/// Records a measure from the mark `start` to now.
pub fn measure(name: &str, start: &str) {
    if let Some(p) = performance() {
        let _ = p.measure_with_start_mark(name, start);
    }
}

/// `performance.now()`, ms (0 where the page has no performance clock).
pub fn now() -> f64 {
    performance().map_or(0.0, |p| p.now())
}
