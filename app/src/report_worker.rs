//! Nsight Compute reports are read in a web worker loaded on first use (`report-worker/`):
//! the page's own wasm is built without the engine's `ncu-rep` feature, so its first visit
//! does not carry the protobuf messages and the zstd decoder (docs/PERFORMANCE.md). The
//! worker is started when a file begins like a report, fed the same slices the page reads,
//! and hands back what the engine's builder adds ([`BinaryRead`]); the protocol is in
//! `report-worker/src/main.rs`.

use roofline_engine::import::binary::BinaryRead;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The worker's loader, beside the page (Trunk names worker files after their binary,
/// without a content hash, so that they can be found at run time).
const LOADER: &str = "report-worker_loader.js";

/// A running report reader for one file.
pub struct ReportWorker {
    worker: web_sys::Worker,
    name: String,
    /// The worker's one answer: the result, or the first error.
    reply: js_sys::Promise,
}

/// A promise of the worker's next message (or of its failure to load).
fn next_message(worker: &web_sys::Worker) -> js_sys::Promise {
    let w = worker.clone();
    js_sys::Promise::new(&mut |resolve: js_sys::Function, reject: js_sys::Function| {
        let on_message = Closure::once_into_js(move |e: web_sys::MessageEvent| {
            let _ = resolve.call1(&JsValue::NULL, &e.data());
        });
        w.set_onmessage(Some(on_message.unchecked_ref()));
        let on_error = Closure::once_into_js(move |e: web_sys::ErrorEvent| {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str(&e.message()));
        });
        w.set_onerror(Some(on_error.unchecked_ref()));
    })
}

fn field(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

impl ReportWorker {
    /// Starts the worker and waits until it listens.
    pub async fn start(name: &str) -> Result<ReportWorker, String> {
        let cannot = |why: String| format!("{name}: the Nsight Compute report reader could not be started ({why})");
        let href = web_sys::window().and_then(|w| w.location().href().ok()).ok_or_else(|| cannot("no page address".into()))?;
        let url = web_sys::Url::new_with_base(LOADER, &href).map_err(|_| cannot("bad address".into()))?.href();
        let worker = web_sys::Worker::new(&url).map_err(|_| cannot("the browser refused the worker".into()))?;
        JsFuture::from(next_message(&worker)).await.map_err(|e| cannot(e.as_string().unwrap_or_default()))?;
        let reply = next_message(&worker);
        Ok(ReportWorker { worker, name: name.to_string(), reply })
    }

    /// Hands the next slice of the file to the worker.
    pub fn push(&self, bytes: &[u8]) -> Result<(), String> {
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str("name"), &JsValue::from_str(&self.name));
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str("chunk"), &js_sys::Uint8Array::from(bytes));
        self.worker.post_message(&message).map_err(|_| format!("{}: the report reader stopped", self.name))
    }

    /// Ends the file: what the worker read, or its error.
    pub async fn finish(self) -> Result<BinaryRead, String> {
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str("name"), &JsValue::from_str(&self.name));
        let _ = js_sys::Reflect::set(&message, &JsValue::from_str("end"), &JsValue::TRUE);
        self.worker.post_message(&message).map_err(|_| format!("{}: the report reader stopped", self.name))?;
        let answer = JsFuture::from(self.reply).await;
        self.worker.terminate();
        let answer = answer.map_err(|e| format!("{}: the report reader failed ({})", self.name, e.as_string().unwrap_or_default()))?;
        if let Some(error) = field(&answer, "error").as_string() {
            return Err(error);
        }
        serde_wasm_bindgen::from_value(field(&answer, "ok")).map_err(|e| format!("{}: the report reader's answer is unreadable ({e})", self.name))
    }
}

/// Whether the file starting with `head` is a report this page reads through the worker.
pub fn wants_worker(head: &[u8]) -> bool {
    roofline_engine::import::binary::starts_like_report(head) && roofline_engine::import::binary::detect(head).is_none()
}
