//! Helpers shared by the wasm tests (each test file is its own binary and includes this).

/// The page's tasks so far, counted by a chain of zero-delay timers outside the page's
/// executor (started by the first call): two readings that differ were taken in different
/// tasks of the page.
pub fn page_tasks() -> f64 {
    let window = web_sys::window().unwrap();
    let ticks = js_sys::Reflect::get(&window, &"__ticks".into()).unwrap();
    if ticks.is_undefined() {
        js_sys::eval("window.__ticks = 0; (function tick() { window.__ticks += 1; setTimeout(tick, 0); })()").unwrap();
        return page_tasks();
    }
    ticks.as_f64().unwrap()
}
