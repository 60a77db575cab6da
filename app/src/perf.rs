//! `performance.mark`/`measure` entries (`roofline:parse`, `roofline:render`, `roofline:load`)
//! so anyone can read the app's costs in DevTools or in a browser benchmark.

fn performance() -> Option<web_sys::Performance> {
    web_sys::window()?.performance()
}

/// Marks the start of a phase.
pub fn mark(name: &str) {
    if let Some(p) = performance() {
        let _ = p.mark(name);
    }
}

/// Records a measure from the mark `start` to now.
pub fn measure(name: &str, start: &str) {
    if let Some(p) = performance() {
        let _ = p.measure_with_start_mark(name, start);
    }
}
