//! The page's async executor (Leptos's effects and `spawn_local`): tasks polled from a
//! microtask, as wasm-bindgen-futures polls them, except that a run which starts while another
//! is in progress returns at once and leaves the tasks to the run in progress.
//!
//! Why not wasm-bindgen-futures, Leptos's default: WebKit can run microtasks while wasm is on
//! the stack (during a wasm → JS call inside a task's poll). Its queue then polls a task inside
//! that same task's poll and panics with "RefCell already borrowed" (js-sys 0.3.107,
//! `futures/task/singlethread.rs:156`). This project's WebKit runs caught it on 2026-11-28,
//! with the panic's stack (docs/BROWSERS.md). Safari users have reported the same panic at
//! start-up (wasm-bindgen issue #2562), and Firefox had a like bug with `window.open`
//! (wasm-bindgen #3635). One effect run in the middle of another is also a likely way to read
//! a reactive value that the outer one is disposing: the other WebKit panic seen in CI.
//!
//! The tasks live in futures' `FuturesUnordered`, which wakes the one waker it is polled with
//! whenever any task is ready. This file adds the microtask that polls it, the guard against
//! nested runs, and, once the page has started ([`slice_runs`]), a limit on how long one run
//! holds the page: past [`SLICE_MS`] its tasks wait for a run in the page's next task.
//!
//! Why the limit: a large load sets 10,000 kernels at once, and every effect that reads them
//! (the table, the chart, the summary, guidance, the address) ran in one microtask run, one
//! task of 160–200 ms on the development machine, against issue 17's 50 ms. Leptos's effects
//! are tasks of this executor, so a run that stops between two of them and goes on in the next
//! task (a zero-delay timer) splits that work where the effects split it, with the page's input
//! and frames in between. The start is not sliced: its first chart must be drawn in the task
//! that mounts the app (main.rs), and splitting it made Lighthouse's blocking time worse
//! (docs/PERFORMANCE.md, 2026-11-28, evening).

use futures::stream::{FuturesUnordered, StreamExt};
use std::cell::{Cell, RefCell};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

type Task = Pin<Box<dyn Future<Output = ()>>>;

thread_local! {
    /// The tasks not yet finished.
    static TASKS: RefCell<FuturesUnordered<Task>> = RefCell::new(FuturesUnordered::new());
    /// Tasks spawned while `TASKS` is being polled (it is borrowed then): added by the run.
    static SPAWNED: RefCell<Vec<Task>> = const { RefCell::new(Vec::new()) };
    /// A run is queued as a microtask and has not started.
    static QUEUED: Cell<bool> = const { Cell::new(false) };
    /// A run is in progress (further up the stack, for a nested one).
    static RUNNING: Cell<bool> = const { Cell::new(false) };
    /// A nested run returned at once: the run in progress polls once more before it ends.
    static AGAIN: Cell<bool> = const { Cell::new(false) };
    /// `run` as a JavaScript function, made once.
    static RUN: JsValue = Closure::<dyn FnMut()>::new(run).into_js_value();
    /// `run_later` as a JavaScript function, made once.
    static RUN_LATER: JsValue = Closure::<dyn FnMut()>::new(run_later).into_js_value();
    /// How long one run may hold the page, in ms: `None` (no limit) until [`slice_runs`].
    static SLICE: Cell<Option<f64>> = const { Cell::new(None) };
    /// When the run in progress passes its slice (`Date.now()`, ms).
    static DEADLINE_MS: Cell<f64> = const { Cell::new(f64::INFINITY) };
    /// The run in progress has passed its slice: tasks wait for the next run.
    static OVER: Cell<bool> = const { Cell::new(false) };
    /// A run is queued as a zero-delay timer (the page's next task) and has not started:
    /// until it does, no microtask run is queued, and one that was returns at once.
    static LATER: Cell<bool> = const { Cell::new(false) };
    /// What that run calls first, before it polls the tasks ([`next_task_first`]).
    static FIRST: RefCell<Vec<Box<dyn FnOnce()>>> = const { RefCell::new(Vec::new()) };
}

/// How long a run may hold the page once the page has started: under half of the 50 ms that
/// makes a task long (Lighthouse, the Long Tasks API), because the check falls between tasks
/// of this executor and one task (an effect) can take 20–40 ms on its own.
pub const SLICE_MS: f64 = 20.0;

/// From now on, a run that has taken `slice_ms` leaves the tasks still ready to a run in the
/// page's next task. main.rs calls it with [`SLICE_MS`] once the start's first chart is drawn.
pub fn slice_runs(slice_ms: f64) {
    SLICE.with(|s| s.set(Some(slice_ms)));
}

/// Whether the run in progress has passed its slice: what its tasks would do now waits for the
/// page's next task. False outside a run, and before [`slice_runs`].
pub fn past_slice() -> bool {
    over()
}

/// Calls `f` in an animation frame once no run of the executor is waiting for a later task:
/// after the page has applied what every effect woken so far does. A sliced run leaves the
/// rest of its effects to later tasks, and a frame may come between them, so a measure of
/// the page's layout asked for by one effect could otherwise read the page before another
/// effect's change. At most 30 frames later, whatever is still waiting.
pub fn after_effects_frame(f: impl FnOnce() + 'static) {
    fn ask(f: Box<dyn FnOnce()>, frames_left: u32) {
        leptos::prelude::request_animation_frame(move || {
            let waiting = !idle();
            if waiting && frames_left > 0 {
                ask(f, frames_left - 1);
            } else {
                f();
            }
        });
    }
    ask(Box::new(f), 30);
}

/// Whether the run in progress has passed its slice (and so has ended it).
fn over() -> bool {
    if OVER.with(Cell::get) {
        return true;
    }
    let past = js_sys::Date::now() >= DEADLINE_MS.with(Cell::get);
    if past {
        OVER.with(|o| o.set(true));
    }
    past
}

/// The waker `TASKS` is polled with: any task woken queues a run. It holds no data, so it is
/// `Send + Sync` as `Waker` needs; what it touches is this thread's.
struct QueueRun;

impl Wake for QueueRun {
    fn wake(self: Arc<Self>) {
        queue_run();
    }
    fn wake_by_ref(self: &Arc<Self>) {
        queue_run();
    }
}

/// Makes this the executor of Leptos's tasks. Call before mounting (Leptos's own
/// `init_wasm_bindgen` then finds one set and leaves it). Also sets `window.rooflineIdle()`,
/// true when no run is queued: the page has applied what every effect woken so far does (for
/// test drivers, which would otherwise read the page between two tasks of one change).
pub fn install() {
    let _ = any_spawner::Executor::init_local_custom_executor(Microtasks);
    if let Some(w) = web_sys::window() {
        let idle = Closure::<dyn Fn() -> bool>::new(idle).into_js_value();
        let _ = js_sys::Reflect::set(&w, &"rooflineIdle".into(), &idle);
    }
}

/// No run queued, now or for a later task, and none in progress.
fn idle() -> bool {
    !LATER.with(Cell::get) && !QUEUED.with(Cell::get) && !RUNNING.with(Cell::get)
}

struct Microtasks;

impl any_spawner::CustomExecutor for Microtasks {
    fn spawn(&self, fut: any_spawner::PinnedFuture<()>) {
        spawn_local(fut);
    }
    fn spawn_local(&self, fut: any_spawner::PinnedLocalFuture<()>) {
        spawn_local(fut);
    }
    fn poll_local(&self) {}
}

/// Runs `fut` to completion, polled from microtasks. Once the run polling it has passed its
/// slice, the task is not polled but woken again, for the next run.
pub fn spawn_local(fut: impl Future<Output = ()> + 'static) {
    let mut fut: Task = Box::pin(fut);
    let task: Task = Box::pin(std::future::poll_fn(move |cx| {
        if over() {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        fut.as_mut().poll(cx)
    }));
    SPAWNED.with(|s| s.borrow_mut().push(task));
    queue_run();
}

/// Queues a run: a microtask, or, once the run in progress has passed its slice, a
/// zero-delay timer (one; the microtasks wait for it).
fn queue_run() {
    if LATER.with(Cell::get) {
        return;
    }
    if OVER.with(Cell::get) {
        return queue_later();
    }
    if QUEUED.with(|q| q.replace(true)) {
        return;
    }
    match web_sys::window() {
        Some(w) => RUN.with(|r| w.queue_microtask(r.unchecked_ref())),
        None => QUEUED.with(|q| q.set(false)),
    }
}

/// Queues a run in the page's next task.
fn queue_later() {
    if LATER.with(|l| l.replace(true)) {
        return;
    }
    let queued = web_sys::window().is_some_and(|w| RUN_LATER.with(|r| w.set_timeout_with_callback(r.unchecked_ref()).is_ok()));
    if !queued {
        // No timers (no window): no slices either.
        LATER.with(|l| l.set(false));
        OVER.with(|o| o.set(false));
        DEADLINE_MS.with(|d| d.set(f64::INFINITY));
        queue_run();
    }
}

/// Calls `f` in the page's next task, a task of its own before the executor's tasks run: what
/// an effect leaves for later when its run has passed its slice (a load's first paint,
/// chart_view.rs).
pub fn next_task_first(f: impl FnOnce() + 'static) {
    FIRST.with(|q| q.borrow_mut().push(Box::new(f)));
    queue_later();
}

/// The run queued by [`queue_later`]. What was left for it first ([`next_task_first`]) has the
/// task to itself: the tasks (those it wakes too) wait for a run in the task after.
fn run_later() {
    LATER.with(|l| l.set(false));
    OVER.with(|o| o.set(false));
    let first = FIRST.with(|q| std::mem::take(&mut *q.borrow_mut()));
    if first.is_empty() {
        return run();
    }
    queue_later();
    for f in first {
        f();
    }
}

/// Polls every ready task until none is. A run nested in another (a microtask run while wasm
/// is on the stack) returns at once: the outer run is still polling, and polls what the
/// nested one would have, then polls once more. (The set of tasks hands its waker to the
/// first task woken during a poll, and takes it again on its next poll: the microtask that
/// wake queued is the one the nested run used up, so the outer run makes that next poll.)
fn run() {
    QUEUED.with(|q| q.set(false));
    if LATER.with(Cell::get) {
        // A run is queued for the next task: this task has had its slice.
        return;
    }
    if RUNNING.with(|r| r.replace(true)) {
        AGAIN.with(|a| a.set(true));
        return;
    }
    OVER.with(|o| o.set(false));
    let deadline_ms = SLICE.with(Cell::get).map_or(f64::INFINITY, |slice_ms| js_sys::Date::now() + slice_ms);
    DEADLINE_MS.with(|d| d.set(deadline_ms));
    let waker = Waker::from(Arc::new(QueueRun));
    let mut cx = Context::from_waker(&waker);
    loop {
        let spawned = SPAWNED.with(|s| std::mem::take(&mut *s.borrow_mut()));
        let more = !spawned.is_empty();
        let polled = TASKS.with(|t| {
            let mut tasks = t.borrow_mut();
            tasks.extend(spawned);
            tasks.poll_next_unpin(&mut cx)
        });
        if OVER.with(Cell::get) {
            // Past the slice: what is ready (woken, or spawned) waits for the next task's run.
            queue_later();
            break;
        }
        match polled {
            // A task finished: poll on.
            Poll::Ready(Some(())) => continue,
            // None left, or none ready (the waker queues the next run): done, unless tasks
            // were spawned meanwhile.
            Poll::Ready(None) | Poll::Pending => {
                let again = AGAIN.with(|a| a.replace(false));
                if !more && !again && SPAWNED.with(|s| s.borrow().is_empty()) {
                    break;
                }
            }
        }
    }
    RUNNING.with(|r| r.set(false));
    DEADLINE_MS.with(|d| d.set(f64::INFINITY));
}

/// A promise resolved from a zero-delay timer: awaiting it ends the current task, so the
/// page's input and frames come before what follows.
pub fn next_task() -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _reject| {
        let queued = web_sys::window().is_some_and(|w| w.set_timeout_with_callback(&resolve).is_ok());
        if !queued {
            let _ = resolve.call0(&JsValue::NULL);
        }
    })
}
