//! rocprofv3's SQLite databases (`*_results.db`) in a dropped list: read by the SQLite worker
//! (`rocpd-worker/`, loaded by `public/rocpd-loader.js`), not here. SQLite is 0.3 MB gzipped:
//! in this worker's wasm every visitor would fetch it after the first chart, so it has a
//! worker of its own, started on the first database and kept (a page that never sees a
//! database never fetches it). This parser starts it, not the page: the page's module stays
//! as it was (its size is held to a ratchet, scripts/size-budget.mjs), and it is started
//! long after this parser's own workers, and never while the service worker is being installed
//! or activated (the Firefox hang of ARCHITECTURE.md, `worker/`; [`WorkerStarts`]).
//!
//! A database is told by its first 16 bytes (`binary::is_database`), read only for files
//! whose size a database can have (a multiple of 512 bytes, its smallest page size), so a list
//! of text files costs no extra reads. Its reading comes back in the form the second parser
//! hands over (`file_read::FileRead`, launches encoded in a transferred buffer: no decoder of
//! the engine's `Imported` here, and no JavaScript object per launch) and is added after the
//! other files (`DatasetBuilder::add_read`); one drop of a database and other files is one
//! dataset. The SQLite worker reads while this parser parses the other files.

use super::field;
use super::nested::Nested;
use roofline_engine::import::binary;
use roofline_engine::dataset::file_read::FileRead;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The SQLite worker's loader, beside this worker's.
const LOADER: &str = "rocpd-loader.js";

/// How long the SQLite worker may take to say it listens: its wasm (≈ 0.3 MB gzipped) is
/// downloaded and compiled first, on a slow connection for seconds.
const START_MS: i32 = 60_000;

thread_local! {
    /// The SQLite worker, once started (kept for every later database).
    static WORKER: RefCell<Option<Rc<Nested>>> = const { RefCell::new(None) };
}

/// Splits `files` into the databases and the others, each in the list's order.
pub async fn split(files: Vec<web_sys::File>) -> (Vec<web_sys::File>, Vec<web_sys::File>) {
    let (mut databases, mut others) = (Vec::new(), Vec::new());
    for f in files {
        if is_database(&f).await {
            databases.push(f);
        } else {
            others.push(f);
        }
    }
    (databases, others)
}

/// Whether `file` starts with SQLite's header. An SQLite file's size is a multiple of its
/// page size (512 bytes at least), so other sizes are not read.
async fn is_database(file: &web_sys::File) -> bool {
    let size = file.size();
    if size < 512.0 || size % 512.0 != 0.0 {
        return false;
    }
    let Ok(head) = file.slice_with_f64_and_f64(0.0, binary::SQLITE_MAGIC.len() as f64) else { return false };
    match JsFuture::from(head.array_buffer()).await {
        Ok(buffer) => binary::is_database(&js_sys::Uint8Array::new(&buffer).to_vec()),
        Err(_) => false,
    }
}

/// The SQLite worker, started if need be and once it listens.
async fn worker() -> Result<Rc<Nested>, String> {
    if let Some(w) = WORKER.with(|w| w.borrow().clone()).filter(|w| !w.inbox.borrow().failed) {
        return Ok(w);
    }
    // Started holding the page's lock on worker starts, until it listens or fails: the page's
    // service worker installs and activates holding it too ([`WorkerStarts`]).
    let _held = WorkerStarts::hold().await;
    let w = Rc::new(Nested::start(LOADER, Some("rocpd")).ok_or("this browser does not let a worker start one")?);
    w.settled(START_MS).await;
    let (ready, failed) = {
        let i = w.inbox.borrow();
        (i.ready, i.failed)
    };
    if !ready {
        w.worker.terminate();
        return Err(if failed { "its code could not be loaded" } else { "it did not start" }.to_string());
    }
    WORKER.with(|s| *s.borrow_mut() = Some(w.clone()));
    Ok(w)
}

/// The Web Lock `roofline-worker-starts`, held (released when dropped). A database may be
/// dropped while a first visit's service worker is being activated, and in Firefox an
/// activation and a worker being built hang each other (docs/BROWSERS.md): the load then
/// waited for ever. `public/sw-register.js` installs and activates the service worker holding
/// this lock, so the SQLite worker is started before or after, never during. Where the browser
/// has no Web Locks (`navigator.locks`), nothing is held, as before.
struct WorkerStarts {
    release: Option<js_sys::Function>,
}

impl WorkerStarts {
    const NAME: &'static str = "roofline-worker-starts";

    /// Waits for the lock and holds it.
    async fn hold() -> WorkerStarts {
        let Some((locks, request)) = Self::request() else { return WorkerStarts { release: None } };
        // `request` holds the lock until the promise its callback returns settles: `held`,
        // resolved by `release`.
        let mut release = None;
        let held = js_sys::Promise::new(&mut |resolve, _| release = Some(resolve));
        let granted = js_sys::Promise::new(&mut |granted, _| {
            let held = held.clone();
            let on_grant = Closure::once_into_js(move || {
                let _ = granted.call0(&JsValue::NULL);
                held
            });
            let _ = request.call2(&locks, &JsValue::from_str(Self::NAME), &on_grant);
        });
        let _ = JsFuture::from(granted).await;
        WorkerStarts { release }
    }

    /// `navigator.locks` and its `request` method, where the browser has them.
    fn request() -> Option<(JsValue, js_sys::Function)> {
        let locks = field(&field(&js_sys::global(), "navigator"), "locks");
        let request = field(&locks, "request").dyn_into().ok()?;
        Some((locks, request))
    }
}

impl Drop for WorkerStarts {
    fn drop(&mut self) {
        if let Some(release) = self.release.take() {
            let _ = release.call0(&JsValue::NULL);
        }
    }
}

/// The databases of a list, asked of the SQLite worker at once (it reads them in turn).
pub struct Reads {
    worker: Rc<Nested>,
    /// Each database's size and job number, in the list's order.
    jobs: Vec<(f64, u32)>,
    /// How many databases, and how many of their bytes, have been answered.
    answered: Cell<(usize, f64)>,
    /// What the SQLite worker said of its reads: its wasm memory after the last (bytes), the
    /// bytes it read of the files, its time (ms), for the `roofline:worker` mark's detail.
    pub stats: Cell<Stats>,
}

/// The SQLite worker's account of its reads ([`Reads::stats`]).
#[derive(Default, Clone, Copy)]
pub struct Stats {
    pub memory_bytes: f64,
    pub read_bytes: f64,
    pub ms: f64,
}

impl Reads {
    /// Asks the SQLite worker for every database of `files` (none: `Ok(None)`); the error says
    /// why the worker could not be started or asked.
    pub async fn ask(files: &[web_sys::File]) -> Result<Option<Reads>, String> {
        if files.is_empty() {
            return Ok(None);
        }
        let worker = worker().await.map_err(|why| format!("the SQLite database reader could not be started ({why})"))?;
        worker.inbox.borrow_mut().progress = 0.0;
        let mut jobs = Vec::with_capacity(files.len());
        for f in files {
            let seq = worker.ask(&[("file", f.into())]).ok_or_else(|| "the SQLite database reader could not be asked".to_string())?;
            jobs.push((f.size(), seq));
        }
        Ok(Some(Reads { worker, jobs, answered: Cell::new((0, 0.0)), stats: Cell::default() }))
    }

    /// Bytes of the databases read so far (the one being read counted up to its size).
    pub fn progress(&self) -> f64 {
        let (count, bytes) = self.answered.get();
        let current = self.jobs.get(count).map_or(0.0, |(size, _)| *size);
        bytes + self.worker.inbox.borrow().progress.min(current)
    }

    /// The reading of database `index` (of those asked), as another parser's read of a whole
    /// file (`FileRead`: its launches encoded, moved as a buffer); `on_word` is
    /// called whenever the worker says something (its progress), for this parser's progress.
    /// Answers are taken in the order asked.
    pub async fn answer(&self, index: usize, name: &str, mut on_word: impl FnMut()) -> Result<FileRead, String> {
        let &(size, seq) = self.jobs.get(index).ok_or_else(|| format!("{name}: no such database asked"))?;
        let stopped = || format!("{name}: the SQLite database reader stopped unexpectedly");
        let m = loop {
            let next = {
                let mut inbox = self.worker.inbox.borrow_mut();
                if inbox.failed {
                    return Err(stopped());
                }
                inbox.messages.pop_front()
            };
            match next {
                Some(m) if field(&m, "seq").as_f64() == Some(f64::from(seq)) => break m,
                Some(_) => continue,
                None => {
                    if !self.worker.word(None).await {
                        return Err(stopped());
                    }
                    on_word();
                }
            }
        };
        let (count, bytes) = self.answered.get();
        self.answered.set((count + 1, bytes + size));
        self.worker.inbox.borrow_mut().progress = 0.0;
        let stats = field(&m, "stats");
        let number = |k: &str| field(&stats, k).as_f64().unwrap_or(0.0);
        let before = self.stats.get();
        self.stats.set(Stats { memory_bytes: number("memory_bytes"), read_bytes: before.read_bytes + number("read_bytes"), ms: before.ms + number("ms") });
        if let Some(error) = field(&m, "error").as_string() {
            return Err(error);
        }
        let mut read: FileRead = serde_wasm_bindgen::from_value(field(&m, "read")).map_err(|e| format!("{name}: the SQLite database reader's answer is unreadable ({e})"))?;
        read.launches = js_sys::Uint8Array::new(&field(&m, "launches")).to_vec();
        Ok(read)
    }
}
