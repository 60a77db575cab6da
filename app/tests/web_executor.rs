//! The page's executor (app/src/executor.rs) in a real browser: once its runs are sliced, a run
//! that has held the page past its slice leaves the tasks still ready to the page's next task;
//! without a limit they all run in the task that woke them.

use roofline_app::executor;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

mod common;

use common::page_tasks;

wasm_bindgen_test_configure!(run_in_browser);

/// Keeps the thread busy for `ms` (an effect that computes for that long).
fn busy(ms: f64) {
    let until = js_sys::Date::now() + ms;
    while js_sys::Date::now() < until {}
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

/// A measure asked for by one effect of a sliced run (`after_effects_frame`) waits for the
/// effects the run left to later tasks: it sees what the last of them did, though frames came
/// between the tasks.
#[wasm_bindgen_test]
async fn a_measure_after_effects_sees_what_the_later_slices_did() {
    use std::cell::Cell;
    executor::slice_runs(20.0);
    let done = Rc::new(Cell::new(false));
    let seen: Rc<Cell<Option<bool>>> = Rc::new(Cell::new(None));
    let frames = Rc::new(Cell::new(0u32));
    {
        let (done, seen) = (done.clone(), seen.clone());
        executor::spawn_local(async move {
            busy(30.0);
            executor::after_effects_frame(move || seen.set(Some(done.get())));
        });
    }
    // Two more tasks of 30 ms, each in a task of its own; the last one's change is what the
    // measure must see. Frames are counted meanwhile (a plain animation frame would have come
    // before it).
    for last in [false, true] {
        let done = done.clone();
        executor::spawn_local(async move {
            busy(30.0);
            if last {
                done.set(true);
            }
        });
    }
    fn count(frames: Rc<Cell<u32>>) {
        leptos::prelude::request_animation_frame(move || {
            frames.set(frames.get() + 1);
            if frames.get() < 600 {
                count(frames);
            }
        });
    }
    count(frames.clone());
    for _ in 0..200 {
        if seen.get().is_some() {
            break;
        }
        let _ = JsFuture::from(executor::next_task()).await;
    }
    assert_eq!(seen.get(), Some(true), "after {} frames", frames.get());
}

/// What an effect leaves for later when its run has passed its slice (`next_task_first`: a
/// load's first paint) runs in the next task of the page, a task of its own, before the tasks
/// the run left.
#[wasm_bindgen_test]
async fn what_is_left_first_has_the_next_task_to_itself() {
    executor::slice_runs(20.0);
    page_tasks();
    let log: Rc<RefCell<Vec<(&str, f64)>>> = Rc::new(RefCell::new(Vec::new()));
    {
        let log = log.clone();
        executor::spawn_local(async move {
            busy(30.0);
            assert!(executor::past_slice());
            executor::next_task_first(move || log.borrow_mut().push(("first", page_tasks())));
        });
    }
    {
        let log = log.clone();
        executor::spawn_local(async move { log.borrow_mut().push(("task", page_tasks())) });
    }
    for _ in 0..200 {
        if log.borrow().len() == 2 {
            break;
        }
        let _ = JsFuture::from(executor::next_task()).await;
    }
    let log = log.borrow().clone();
    assert_eq!(log.iter().map(|(what, _)| *what).collect::<Vec<_>>(), ["first", "task"]);
    assert!(log[0].1 < log[1].1, "two tasks of the page: {log:?}");
}
