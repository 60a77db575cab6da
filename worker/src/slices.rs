//! A file read in slices for the parser, the reading overlapping the parsing (issue 17).
//!
//! Why a second worker: a `Blob` read completes on the thread that asked for it, so a read
//! started by this worker before it parses a slice does not progress while it parses (measured:
//! 50 MB in 4 MiB slices, 12 ms of work per slice, waited 77 ms for reads either way). A small
//! reader worker (`public/slice-reader.js`, its protocol is there) reads while this one parses
//! and hands each slice over by transfer. Where a worker cannot start another (an old browser)
//! or the reader fails to load, the slices are read here, the next one asked for before the
//! current one is parsed. The reader is started with the parser and kept for every file.

use super::field;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The reader worker's script, beside this worker's (both at the site's root).
const READER: &str = "slice-reader.js";

/// Bytes per slice read here (the reader worker's first slice is 1 MiB, the others the same;
/// its script says why).
const SLICE_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// Slices the reader worker may have read ahead of the parser: one being parsed, one
/// waiting, one being read, so at most 12 MiB of a file is held outside wasm memory.
const AHEAD: u32 = 2;

/// Messages from the reader worker not yet taken, and how to wake the parser waiting for one.
#[derive(Default)]
struct Inbox {
    messages: VecDeque<JsValue>,
    wake: Option<js_sys::Function>,
    /// The reader worker failed (its script did not load, or it stopped): none of its
    /// messages can be trusted any more.
    failed: bool,
}

impl Inbox {
    fn push(inbox: &Rc<RefCell<Inbox>>, m: Option<JsValue>) {
        let mut i = inbox.borrow_mut();
        match m {
            Some(m) => i.messages.push_back(m),
            None => i.failed = true,
        }
        if let Some(wake) = i.wake.take() {
            let _ = wake.call0(&JsValue::NULL);
        }
    }
}

/// The reader worker, started with this worker ([`warm_up`]) and kept for every file: a
/// reader started per file made the parser wait for its start (10–30 ms) before the first slice.
struct Reader {
    worker: web_sys::Worker,
    inbox: Rc<RefCell<Inbox>>,
    /// The number of the last file asked for (the reader tags each message with its file's).
    seq: Cell<u32>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

thread_local! {
    static WARM: RefCell<Option<Rc<Reader>>> = const { RefCell::new(None) };
}

/// Starts the reader worker, if this browser lets a worker start one (where it does not, or its
/// script fails to load, files are read here).
pub fn warm_up() {
    let reader = start_reader().map(Rc::new);
    WARM.with(|r| *r.borrow_mut() = reader);
}

/// Reads done in this worker: the next slice's read is started before the current one is
/// returned.
struct Here {
    start: f64,
    next: Option<js_sys::Promise>,
}

/// One file's bytes, slice by slice, in order.
pub struct Slices {
    file: web_sys::File,
    name: String,
    /// The reader worker reading this file, and the file's number there.
    reader: Option<(Rc<Reader>, u32)>,
    here: Here,
    /// Slices returned so far (a reader that fails after the first cannot be replaced).
    taken: u64,
}

impl Slices {
    pub fn open(file: &web_sys::File) -> Self {
        // A file of one slice gains nothing from a reader: a hand-over costs more than its read.
        let warm = WARM.with(|r| r.borrow().clone()).filter(|r| !r.inbox.borrow().failed);
        let reader = warm.filter(|_| file.size() > SLICE_BYTES).and_then(|r| ask(&r, file).map(|seq| (r, seq)));
        Slices { file: file.clone(), name: file.name(), reader, here: Here { start: 0.0, next: None }, taken: 0 }
    }

    fn cannot(&self, why: &str) -> String {
        format!("{}: the browser could not read the file ({why})", self.name)
    }

    /// Who read the file: `"worker"` (the reader worker) or `"here"` (this worker).
    pub fn reader(&self) -> &'static str {
        if self.reader.is_some() { "worker" } else { "here" }
    }

    /// The next slice, or `None` after the last.
    pub async fn next(&mut self) -> Result<Option<js_sys::Uint8Array>, String> {
        if self.reader.is_some() {
            match self.next_from_reader().await {
                Ok(slice) => {
                    self.taken += 1;
                    return Ok(slice);
                }
                // The reader did not start (blocked, missing): read here from the start.
                Err(why) if self.taken == 0 && why.is_none() => self.reader = None,
                Err(why) => return Err(self.cannot(&why.unwrap_or_else(|| "its reader stopped".into()))),
            }
        }
        let slice = self.next_here().await?;
        self.taken += 1;
        Ok(slice)
    }

    /// `Err(None)`: the reader worker itself failed; `Err(Some(why))`: it could not read.
    async fn next_from_reader(&mut self) -> Result<Option<js_sys::Uint8Array>, Option<String>> {
        let Some((reader, seq)) = &self.reader else { return Err(None) };
        loop {
            let next = {
                let mut inbox = reader.inbox.borrow_mut();
                if inbox.failed {
                    return Err(None);
                }
                inbox.messages.pop_front()
            };
            if let Some(m) = next {
                // What is left of a file given up (a parse error) is dropped.
                if field(&m, "seq").as_f64() != Some(f64::from(*seq)) {
                    continue;
                }
                if let Some(why) = field(&m, "error").as_string() {
                    return Err(Some(why));
                }
                if field(&m, "end").is_truthy() {
                    return Ok(None);
                }
                let _ = reader.worker.post_message(&JsValue::from_str("next"));
                return Ok(Some(js_sys::Uint8Array::new(&field(&m, "bytes"))));
            }
            let inbox = reader.inbox.clone();
            let wait = js_sys::Promise::new(&mut |resolve, _| inbox.borrow_mut().wake = Some(resolve));
            JsFuture::from(wait).await.map_err(|_| None)?;
        }
    }

    async fn next_here(&mut self) -> Result<Option<js_sys::Uint8Array>, String> {
        let size = self.file.size();
        if self.here.next.is_none() && self.here.start < size {
            self.here.next = Some(self.read_here(self.here.start)?);
        }
        let Some(pending) = self.here.next.take() else { return Ok(None) };
        let bytes = JsFuture::from(pending).await.map_err(|e| self.cannot(&e.as_string().unwrap_or_default()))?;
        self.here.start += SLICE_BYTES;
        if self.here.start < size {
            self.here.next = Some(self.read_here(self.here.start)?);
        }
        Ok(Some(js_sys::Uint8Array::new(&bytes)))
    }

    fn read_here(&self, start: f64) -> Result<js_sys::Promise, String> {
        let end = (start + SLICE_BYTES).min(self.file.size());
        let slice = self.file.slice_with_f64_and_f64(start, end).map_err(|_| self.cannot("no slice"))?;
        Ok(slice.array_buffer())
    }
}

impl Drop for Slices {
    /// Slices of this file still waiting (a file given up) are let go now; any still in flight
    /// carry its number and are dropped when the next file's are taken.
    fn drop(&mut self) {
        if let Some((reader, _)) = &self.reader {
            reader.inbox.borrow_mut().messages.clear();
        }
    }
}

/// Asks the reader worker for `file` under a new number; `None` if it cannot be asked.
fn ask(reader: &Reader, file: &web_sys::File) -> Option<u32> {
    let seq = reader.seq.get().wrapping_add(1);
    reader.seq.set(seq);
    let start = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&start, &JsValue::from_str("file"), file);
    let _ = js_sys::Reflect::set(&start, &JsValue::from_str("ahead"), &JsValue::from(AHEAD));
    let _ = js_sys::Reflect::set(&start, &JsValue::from_str("seq"), &JsValue::from(seq));
    reader.worker.post_message(&start).ok()?;
    Some(seq)
}

/// Starts a reader worker, if this browser lets a worker start one.
fn start_reader() -> Option<Reader> {
    if !js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("Worker")).unwrap_or(false) {
        return None;
    }
    let worker = web_sys::Worker::new(READER).ok()?;
    let inbox: Rc<RefCell<Inbox>> = Rc::default();
    let mine = inbox.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| Inbox::push(&mine, Some(e.data())));
    let mine = inbox.clone();
    let on_error = Closure::<dyn FnMut(web_sys::ErrorEvent)>::new(move |e: web_sys::ErrorEvent| {
        e.prevent_default();
        Inbox::push(&mine, None);
    });
    worker.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref()).ok()?;
    worker.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref()).ok()?;
    Some(Reader { worker, inbox, seq: Cell::new(0), _on_message: on_message, _on_error: on_error })
}
