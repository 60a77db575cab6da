//! A worker this worker starts and keeps (its slice reader, [`super::slices`]; its second
//! parser, [`super::parts`]), and what it has said that has not been taken yet.

use super::{field, object};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Messages from the worker not yet taken, and how to wake the task waiting for one.
#[derive(Default)]
pub struct Inbox {
    pub messages: VecDeque<JsValue>,
    wake: Option<js_sys::Function>,
    /// The worker failed (its script did not load, or it stopped): none of its messages can
    /// be trusted any more.
    pub failed: bool,
    /// It said `"ready"` (it listens: a message posted before would be lost).
    pub ready: bool,
    /// The last `{progress: number}` it posted (kept, not queued).
    pub progress: f64,
}

impl Inbox {
    /// Takes `m` (`None`: the worker failed) and wakes the task waiting, if any (a progress
    /// message too: it is a sign of life, [`Nested::next`]).
    fn push(inbox: &Rc<RefCell<Inbox>>, m: Option<JsValue>) {
        let mut i = inbox.borrow_mut();
        match m {
            Some(m) if m.as_string().as_deref() == Some("ready") => i.ready = true,
            // Its wasm could not be fetched or compiled (`public/parser-loader.js`).
            Some(m) if field(&m, "failed").is_string() => i.failed = true,
            Some(m) => match field(&m, "progress").as_f64() {
                Some(p) => i.progress = p,
                None => i.messages.push_back(m),
            },
            None => i.failed = true,
        }
        if let Some(wake) = i.wake.take() {
            let _ = wake.call1(&JsValue::NULL, &JsValue::TRUE);
        }
    }
}

/// The worker, its inbox and the number of the last job asked of it (it tags each message
/// with its job's, so that what is left of a job given up is dropped).
pub struct Nested {
    pub worker: web_sys::Worker,
    pub inbox: Rc<RefCell<Inbox>>,
    seq: Cell<u32>,
    _on_message: Closure<dyn FnMut(web_sys::MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::ErrorEvent)>,
}

impl Nested {
    /// Starts the worker at `url` (beside this one), with `name` as its `self.name`, if this
    /// browser lets a worker start one.
    pub fn start(url: &str, name: Option<&str>) -> Option<Nested> {
        if !js_sys::Reflect::has(&js_sys::global(), &JsValue::from_str("Worker")).unwrap_or(false) {
            return None;
        }
        let options = web_sys::WorkerOptions::new();
        if let Some(name) = name {
            options.set_name(name);
        }
        let worker = web_sys::Worker::new_with_options(url, &options).ok()?;
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
        Some(Nested { worker, inbox, seq: Cell::new(0), _on_message: on_message, _on_error: on_error })
    }

    /// Posts `fields` plus a new job number as one message; the number, or `None` if it
    /// cannot be posted.
    pub fn ask(&self, fields: &[(&str, JsValue)]) -> Option<u32> {
        let seq = self.seq.get().wrapping_add(1);
        self.seq.set(seq);
        let m = object(fields);
        let _ = js_sys::Reflect::set(&m, &JsValue::from_str("seq"), &JsValue::from(seq));
        self.worker.post_message(&m).ok()?;
        Some(seq)
    }

    /// Waits until the worker has said `"ready"` or failed, or has said nothing for
    /// `limit_ms` (before it is ready, its only words are those two).
    pub async fn settled(&self, limit_ms: i32) {
        loop {
            {
                let i = self.inbox.borrow();
                if i.ready || i.failed {
                    return;
                }
            }
            if !self.word(Some(limit_ms)).await {
                return;
            }
        }
    }

    /// Waits for the worker's next word (a message, progress, "ready" or a failure); `false`
    /// if `within_ms` passed first.
    pub async fn word(&self, within_ms: Option<i32>) -> bool {
        let inbox = self.inbox.clone();
        let wait = js_sys::Promise::new(&mut |resolve, _| {
            if let Some(ms) = within_ms {
                // Resolves with `undefined`; a word resolves with `true` first.
                let global: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
                let _ = global.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
            }
            inbox.borrow_mut().wake = Some(resolve);
        });
        let came = JsFuture::from(wait).await.is_ok_and(|v| v.is_truthy());
        if !came {
            self.inbox.borrow_mut().wake = None;
        }
        came
    }

    /// The next message of job `seq` (those of earlier jobs are dropped); `None` once the
    /// worker has failed, or, with `stall_ms`, once it has said nothing (no message, no
    /// progress) for that long: a worker that stalls is then taken as failed, so that a task
    /// waiting for it never waits for ever (seen once in WebKit under load: a second parser
    /// that never answered).
    pub async fn next(&self, seq: u32, stall_ms: Option<i32>) -> Option<JsValue> {
        loop {
            let next = {
                let mut inbox = self.inbox.borrow_mut();
                if inbox.failed {
                    return None;
                }
                inbox.messages.pop_front()
            };
            match next {
                Some(m) if field(&m, "seq").as_f64() == Some(f64::from(seq)) => return Some(m),
                Some(_) => continue,
                None => {
                    if !self.word(stall_ms).await {
                        self.inbox.borrow_mut().failed = true;
                        return None;
                    }
                }
            }
        }
    }
}
