//! The page's side of the parser worker (`worker/`, Trunk `data-type="worker"`): files are
//! read and parsed there by the engine, so the main thread only paints and stays responsive
//! during a load (issue 17), and the page's own wasm carries no importer. The protocol is in
//! `worker/src/main.rs`.
//!
//! One worker is kept for the page and started when the page is idle after its first chart
//! ([`prewarm`]), so its wasm is compiled before the first file arrives. [`cancel`] ends it
//! (`Worker.terminate()`: the only way to stop a synchronous parse at once, and it frees the
//! worker's memory); the next load starts a fresh one, as it does after a worker that could
//! not start (its wasm not fetched: the load's alert says why). A worker stuck starting its
//! own workers is replaced ([`HELPERS_MS`]).

use roofline_engine::dataset::wire::DatasetWire;
use roofline_engine::Dataset;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A parser to start: its loader, beside the page (`public/parser-loader.js`: it says why it
/// is ours), and the name it is started with, which is what tells the parser its role
/// (worker/src/main.rs, `role`). Not the address's fragment: where the site's service worker
/// serves the script (every visit after the first), the worker runs at the cached response's
/// address, which has none. A fragment still labels the `#solo` parser in DevTools.
#[derive(Clone, Copy, PartialEq)]
struct Loader {
    url: &'static str,
    name: &'static str,
}

/// The page's parser.
const LOADER: Loader = Loader { url: "parser-loader.js", name: "parser" };

/// A parser that starts no worker of its own (worker/src/main.rs, `SOLO_NAME`).
const SOLO: Loader = Loader { url: "parser-loader.js#solo", name: "solo" };

/// How long the parser may take from saying `"started"` to saying `"ready"`: all it does
/// between the two is start its slice reader and its second parser, a few ms even on a slow
/// phone. In Firefox 153 a worker's `new Worker()` never returned when a service worker
/// activated at the same moment (docs/BROWSERS.md; the activation is now ordered after the
/// parsers start, [`SETTLED_EVENT`]). This is the net for whatever else hangs a start: past
/// it, the page ends that worker and starts another, and after a second such hang a `#solo`
/// parser, which starts no worker and reads every file itself.
const HELPERS_MS: i32 = 3000;

/// The error of a load ended by [`cancel`]; the caller shows no alert for it.
pub const CANCELLED: &str = "loading cancelled";

/// How the ready promise of the running worker is settled: taken once.
type Settle = Rc<RefCell<Option<(js_sys::Function, js_sys::Function)>>>;

/// The running worker, a promise that it listens, and its listeners.
struct Running {
    worker: web_sys::Worker,
    ready: js_sys::Promise,
    /// Which worker this is (one replacing a stuck one is another).
    generation: u32,
    /// How its ready promise is settled (shared with a worker that replaces it).
    settle: Settle,
    /// It could not start: the next load starts a fresh worker.
    dead: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_fail: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

thread_local! {
    static RUNNING: RefCell<Option<Running>> = const { RefCell::new(None) };
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
    static NEXT_GENERATION: Cell<u32> = const { Cell::new(1) };
    /// The reject functions of the loads in flight, by id (what [`cancel`] calls).
    static IN_FLIGHT: RefCell<Vec<(u32, js_sys::Function)>> = const { RefCell::new(Vec::new()) };
    /// Cancels so far: an answer being read ([`read_dataset`]), or waiting its turn, ends as
    /// cancelled when this changes.
    static CANCELS: Cell<u32> = const { Cell::new(0) };
    /// An answer is being read a slice at a time: the next one waits its turn ([`Turn`]).
    static READING: Cell<bool> = const { Cell::new(false) };
}

fn field(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn cannot(why: &str) -> String {
    format!("the file reader could not be started ({why})")
}

/// The running worker's ready promise, the worker started if need be (again, if the last one
/// could not start).
fn running() -> Result<js_sys::Promise, String> {
    let alive = RUNNING.with(|r| r.borrow().as_ref().filter(|r| !r.dead.get()).map(|r| r.ready.clone()));
    if let Some(r) = alive {
        return Ok(r);
    }
    if let Some(old) = RUNNING.with(|r| r.borrow_mut().take()) {
        old.worker.terminate();
    }
    let settle: Settle = Rc::default();
    let ready = js_sys::Promise::new(&mut |resolve, reject| *settle.borrow_mut() = Some((resolve, reject)));
    let running = spawn(LOADER, 0, settle, ready.clone(), Rc::default())?;
    RUNNING.with(|r| *r.borrow_mut() = Some(running));
    Ok(ready)
}

/// Starts a worker at `loader` whose messages settle `settle` (the promise `ready`);
/// `stuck` workers were replaced before it ([`watch_helpers`]).
fn spawn(loader: Loader, stuck: u32, settle: Settle, ready: js_sys::Promise, dead: Rc<Cell<bool>>) -> Result<Running, String> {
    let href = web_sys::window().and_then(|w| w.location().href().ok()).ok_or_else(|| cannot("no page address"))?;
    let url = web_sys::Url::new_with_base(loader.url, &href).map_err(|_| cannot("bad address"))?.href();
    let options = web_sys::WorkerOptions::new();
    options.set_name(loader.name);
    let worker = web_sys::Worker::new_with_options(&url, &options).map_err(|_| cannot("the browser refused the worker"))?;
    let generation = NEXT_GENERATION.with(|n| {
        let g = n.get();
        n.set(g.wrapping_add(1));
        g
    });
    let solo = loader == SOLO;
    let keep = (settle.clone(), dead.clone());
    let (s, d) = (settle.clone(), dead.clone());
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let data = e.data();
        match data.as_string().as_deref() {
            Some("ready") => {
                if let Some((resolve, _)) = s.borrow_mut().take() {
                    let _ = resolve.call0(&JsValue::NULL);
                }
            }
            Some("settled") => announce_settled(),
            Some("started") if !solo => watch_helpers(generation, stuck),
            _ => {
                if let Some(why) = field(&data, "failed").as_string() {
                    could_not_start(&s, &d, &why);
                }
            }
        }
    });
    // A worker whose script fails to load (or that fails to start) rejects the ready promise.
    let on_fail = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| could_not_start(&settle, &dead, &e.message()));
    worker.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref()).map_err(|_| cannot("no listener"))?;
    worker.add_event_listener_with_callback("error", on_fail.as_ref().unchecked_ref()).map_err(|_| cannot("no listener"))?;
    let (settle, dead) = keep;
    Ok(Running { worker, ready, generation, settle, dead, _on_message: on_message, _on_fail: on_fail })
}

/// A worker that could not start: its ready promise is rejected with `why` (if not settled
/// yet), and the next load starts a fresh worker.
fn could_not_start(settle: &Settle, dead: &Cell<bool>, why: &str) {
    dead.set(true);
    if let Some((_, reject)) = settle.borrow_mut().take() {
        let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(why));
    }
}

/// The event the page's window gets (and the mark it records) when the parser and its second
/// parser have started their own workers (the parser's `"settled"`): `public/sw-register.js`
/// registers the service worker, and lets a new version take over, only then. In Firefox 153
/// a service worker's activation and a worker starting a worker at the same moment hang both
/// for good (seen in 1 of 60 fresh first visits under load, the registration left
/// "activating"; 0 of 80 with service workers off; docs/BROWSERS.md).
pub const SETTLED_EVENT: &str = "roofline-parser-settled";

fn announce_settled() {
    crate::perf::mark("roofline:parser-settled");
    if let (Some(w), Ok(e)) = (web_sys::window(), web_sys::Event::new(SETTLED_EVENT)) {
        let _ = w.dispatch_event(&e);
    }
}

/// After the worker `generation` said `"started"`: if it has not said `"ready"` within
/// [`HELPERS_MS`], it is taken as stuck starting its own workers and replaced, by the same
/// parser the first time (the hang is rare: most likely the next one starts), then by a
/// `#solo` parser. The replacement settles the same ready promise: the loads waiting for it
/// go on.
fn watch_helpers(generation: u32, stuck_before: u32) {
    let Some(w) = web_sys::window() else { return };
    let check = Closure::once_into_js(move || {
        RUNNING.with(|r| {
            let mut r = r.borrow_mut();
            let Some(stuck) = r.take_if(|r| r.generation == generation && r.settle.borrow().is_some()) else { return };
            stuck.worker.terminate();
            let loader = if stuck_before == 0 { LOADER } else { SOLO };
            match spawn(loader, stuck_before + 1, stuck.settle.clone(), stuck.ready.clone(), stuck.dead.clone()) {
                Ok(replacement) => *r = Some(replacement),
                Err(why) => {
                    could_not_start(&stuck.settle, &stuck.dead, &why);
                    *r = Some(stuck);
                }
            }
        });
    });
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(check.unchecked_ref(), HELPERS_MS);
}

/// Starts the worker when the page has nothing else to do, so that the first load does not
/// wait for its wasm to download and compile.
pub fn prewarm() {
    let Some(w) = web_sys::window() else { return };
    let start = Closure::once_into_js(|| {
        let _ = running();
    });
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(start.unchecked_ref(), 0);
}

/// Whether [`cancel`] has been called since this was: for work a load does after its answer
/// is read (the app's preparation of a large load, prepare.rs).
pub fn cancelled_since_now() -> impl Fn() -> bool + 'static {
    let cancels = CANCELS.with(Cell::get);
    move || CANCELS.with(Cell::get) != cancels
}

/// Ends the worker and every load in flight (they fail with [`CANCELLED`]).
pub fn cancel() {
    CANCELS.with(|c| c.set(c.get().wrapping_add(1)));
    if let Some(r) = RUNNING.with(|r| r.borrow_mut().take()) {
        r.worker.terminate();
    }
    for (_, reject) in IN_FLIGHT.with(|f| std::mem::take(&mut *f.borrow_mut())) {
        let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(CANCELLED));
    }
}

/// Records what the worker says of a load as the `roofline:worker` mark's `detail`
/// (`{memory_bytes, read_ms, parse_ms, part_wait_ms, take_ms, second_ms, wire_ms, parts, reader}`): its wasm memory after the load, where
/// the time went and who read the files, for DevTools, tests/bench/browser.mjs and the worker
/// tests (the page cannot see the worker's memory otherwise).
fn mark_stats(stats: &JsValue) {
    let Some(perf) = web_sys::window().and_then(|w| w.performance()) else { return };
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &JsValue::from_str("detail"), stats);
    if let Ok(mark) = js_sys::Reflect::get(&perf, &JsValue::from_str("mark")).and_then(|f| f.dyn_into::<js_sys::Function>()) {
        let _ = mark.call2(&perf, &JsValue::from_str("roofline:worker"), &options);
    }
}

/// What a load's listener has received and not yet handled, and how to wake the load.
#[derive(Default)]
struct Inbox {
    messages: std::collections::VecDeque<JsValue>,
    wake: Option<js_sys::Function>,
}

/// Posts `message` (to which the request's `id` is added) and waits for the dataset;
/// `progress(fraction)` is called for each progress message (from this function, so it may
/// borrow).
pub async fn request(message: js_sys::Object, what: &str, mut progress: impl FnMut(f64)) -> Result<Dataset, String> {
    let ready = running()?;
    let id = NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id.wrapping_add(1));
        id
    });
    // Waiting for the worker to listen (its wasm may still be compiling) can be cancelled too:
    // a terminated worker never says "ready".
    let cancelled = js_sys::Promise::new(&mut |_, reject| IN_FLIGHT.with(|f| f.borrow_mut().push((id, reject))));
    let started = JsFuture::from(js_sys::Promise::race(&js_sys::Array::of2(&ready, &cancelled))).await;
    IN_FLIGHT.with(|f| f.borrow_mut().retain(|(i, _)| *i != id));
    started.map_err(|e| {
        let why = e.as_string().unwrap_or_default();
        if why == CANCELLED { why } else { format!("{what}: the file reader could not be started ({why})") }
    })?;
    // The worker that said "ready" (one may have replaced the worker started).
    let worker = RUNNING.with(|r| r.borrow().as_ref().map(|r| r.worker.clone())).ok_or_else(|| CANCELLED.to_string())?;
    let _ = js_sys::Reflect::set(&message, &JsValue::from_str("id"), &JsValue::from(id));
    let inbox: Rc<RefCell<Inbox>> = Rc::default();
    let mine = inbox.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let data = e.data();
        if field(&data, "id").as_f64() == Some(f64::from(id)) {
            let mut inbox = mine.borrow_mut();
            inbox.messages.push_back(data);
            if let Some(wake) = inbox.wake.take() {
                let _ = wake.call0(&JsValue::NULL);
            }
        }
    });
    // The worker itself failing (a panic in its wasm) fails the load; the worker is replaced.
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
        e.prevent_default();
        let reject = IN_FLIGHT.with(|f| {
            let mut f = f.borrow_mut();
            f.iter().position(|(i, _)| *i == id).map(|k| f.remove(k).1)
        });
        if let Some(r) = RUNNING.with(|r| r.borrow_mut().take()) {
            r.worker.terminate();
        }
        if let Some(reject) = reject {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&format!("the file reader stopped unexpectedly ({})", e.message())));
        }
    });
    let listen = |kind: &str, f: &JsValue| worker.add_event_listener_with_callback(kind, f.unchecked_ref());
    let posted = listen("message", on_message.as_ref()).and_then(|()| listen("error", on_error.as_ref())).and_then(|()| worker.post_message(&message));
    let answer = match posted {
        Ok(()) => loop {
            let next = inbox.borrow_mut().messages.pop_front();
            match next {
                Some(m) => match (field(&m, "progress").as_f64(), field(&m, "stats")) {
                    (Some(p), _) => progress(p),
                    (None, stats) if stats.is_object() => mark_stats(&stats),
                    (None, _) => break Ok(m),
                },
                None => {
                    // Wait for the next message, or for a cancel or a failure of the worker.
                    let wait = js_sys::Promise::new(&mut |resolve, reject| {
                        inbox.borrow_mut().wake = Some(resolve);
                        IN_FLIGHT.with(|f| {
                            let mut f = f.borrow_mut();
                            f.retain(|(i, _)| *i != id);
                            f.push((id, reject));
                        });
                    });
                    if let Err(e) = JsFuture::from(wait).await {
                        break Err(e);
                    }
                }
            }
        },
        Err(_) => Err(JsValue::from_str("the file reader stopped")),
    };
    let _ = worker.remove_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    let _ = worker.remove_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    IN_FLIGHT.with(|f| f.borrow_mut().retain(|(i, _)| *i != id));
    let answer = answer.map_err(|e| {
        let why = e.as_string().unwrap_or_default();
        if why == CANCELLED { why } else { format!("{what}: {why}") }
    })?;
    if let Some(error) = field(&answer, "error").as_string() {
        return Err(error);
    }
    let wire = read_dataset(field(&answer, "ok")).await.map_err(|e| if e == CANCELLED { e } else { format!("{what}: {e}") })?;
    Ok(wire.into())
}

/// Kernels read from a worker's answer in one task.
const KERNELS_PER_TASK: u32 = 1000;

/// The worker's answer (`{..., kernels: [...]}`, a structured clone of serde-wasm-bindgen's
/// JSON-compatible form) read into the engine's types. Reading 10,000 kernels took 85 ms in
/// one task, the longest part of a large load's work on the page (docs/PERFORMANCE.md). So a
/// larger answer's kernels are read [`KERNELS_PER_TASK`] at a time, each in a task of its own
/// (a zero-delay timer between them), with the page's input and frames in between. The rest
/// of the answer is read first, in the task that received it.
///
/// Loads still end in the order their answers came: an answer that comes while another is
/// being read waits its turn ([`Turn`]). Cancel ends the answer being read and those waiting
/// ([`CANCELLED`]: no alert).
pub async fn read_dataset(ok: JsValue) -> Result<DatasetWire, String> {
    let unreadable = |e: serde_wasm_bindgen::Error| format!("the file reader's answer is unreadable ({e})");
    let cancelled = cancelled_since_now();
    let _turn = Turn::wait(&cancelled).await?;
    let kernels = field(&ok, "kernels").dyn_into::<js_sys::Array>().ok().filter(|k| k.length() > KERNELS_PER_TASK);
    let Some(kernels) = kernels else { return serde_wasm_bindgen::from_value(ok).map_err(unreadable) };
    let _ = js_sys::Reflect::set(&ok, &JsValue::from_str("kernels"), &js_sys::Array::new());
    let mut wire: DatasetWire = serde_wasm_bindgen::from_value(ok).map_err(unreadable)?;
    let n = kernels.length();
    wire.kernels.reserve(n as usize);
    let mut from = 0;
    while from < n {
        next_task_unless(&cancelled).await?;
        let to = from.saturating_add(KERNELS_PER_TASK).min(n);
        let part: Vec<roofline_engine::KernelProfile> = serde_wasm_bindgen::from_value(kernels.slice(from, to).into()).map_err(unreadable)?;
        wire.kernels.extend(part);
        from = to;
    }
    Ok(wire)
}

/// Lets the page's next task run, then [`CANCELLED`] if the loads were cancelled meanwhile.
pub async fn next_task_unless(cancelled: &impl Fn() -> bool) -> Result<(), String> {
    let _ = JsFuture::from(crate::executor::next_task()).await;
    if cancelled() { Err(CANCELLED.to_string()) } else { Ok(()) }
}

/// The turn of one answer to be read: answers are read one at a time, in the order they came
/// (each waiting answer checks again after the page's next task, so they resume in the order
/// they began to wait). Dropped, it gives the turn up, whatever ended the read.
struct Turn;

impl Turn {
    async fn wait(cancelled: &impl Fn() -> bool) -> Result<Turn, String> {
        while READING.with(Cell::get) {
            next_task_unless(cancelled).await?;
        }
        READING.with(|r| r.set(true));
        Ok(Turn)
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        READING.with(|r| r.set(false));
    }
}

