//! The page's executor (app/src/executor.rs) in a real browser: once its runs are sliced, a run
//! that has held the page past its slice leaves the tasks still ready to the page's next task;
//! without a limit they all run in the task that woke them.

use roofline_app::executor;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Keeps the thread busy for `ms` (an effect that computes for that long).
fn busy(ms: f64) {
    let until = js_sys::Date::now() + ms;
    while js_sys::Date::now() < until {}
}

/// The page's tasks so far, counted by a chain of zero-delay timers outside the executor
/// (started by the first call).
fn page_tasks() -> f64 {
    let window = web_sys::window().unwrap();
    let ticks = js_sys::Reflect::get(&window, &"__ticks".into()).unwrap();
    if ticks.is_undefined() {
        js_sys::eval("window.__ticks = 0; (function tick() { window.__ticks += 1; setTimeout(tick, 0); })()").unwrap();
        return page_tasks();
    }
    ticks.as_f64().unwrap()
}

/// Spawns `n` tasks of 30 ms each on the executor; returns, for each task in the order it ran,
/// the page's task count when it started.
async fn starts(n: usize) -> Vec<f64> {
    page_tasks();
    let seen = Rc::new(RefCell::new(Vec::new()));
    for _ in 0..n {
        let seen = seen.clone();
        executor::spawn_local(async move {
            seen.borrow_mut().push(page_tasks());
            busy(30.0);
        });
    }
    // Wait (task by task, at most 2 s) until every task has run.
    for _ in 0..200 {
        if seen.borrow().len() == n {
            break;
        }
        let _ = JsFuture::from(executor::next_task()).await;
    }
    let seen = seen.borrow().clone();
    seen
}

#[wasm_bindgen_test]
async fn a_sliced_run_leaves_what_is_ready_to_the_next_task() {
    // No limit (the start): three tasks of 30 ms all run in the task that spawned them.
    executor::slice_runs(f64::INFINITY);
    let s = starts(3).await;
    assert_eq!(s.len(), 3);
    assert!(s[0] == s[1] && s[1] == s[2], "one task: {s:?}");

    // A slice of 20 ms: the first task takes 30 ms, past the slice, and the other two wait for
    // a later task of the page; there the second takes the slice again, and the third waits
    // again. Each starts in a task of its own, with the page's other tasks (its timers, input
    // and frames) between them.
    executor::slice_runs(20.0);
    let s = starts(3).await;
    assert_eq!(s.len(), 3);
    assert!(s[0] < s[1] && s[1] < s[2], "three tasks: {s:?}");

    // A slice longer than the three: one task again.
    executor::slice_runs(200.0);
    let s = starts(3).await;
    assert_eq!(s.len(), 3);
    assert!(s[0] == s[1] && s[1] == s[2], "one task: {s:?}");
}
