//! The report reader as a web worker (Trunk `data-type="worker"`): the page's first-visit
//! module is built without the engine's `ncu-rep` feature (no protobuf messages, no zstd
//! decoder) and starts this worker when a file begins like an Nsight Compute report.
//!
//! Protocol (`app/src/report_worker.rs` is the other side): the worker posts `"ready"` once
//! it listens; the page posts `{name, chunk: Uint8Array}` for each slice of the file, in
//! order, then `{name, end: true}`; the worker answers once, `{ok: BinaryRead}` (serde,
//! JSON-compatible) or `{error: "message naming the file"}`, at the end or at the first error.

use roofline_engine::import::binary::BinaryReader;
use serde::Serialize;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The file being read, and whether it failed (later chunks are then ignored).
#[derive(Default)]
struct State {
    reader: Option<BinaryReader>,
    failed: bool,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
}

fn scope() -> web_sys::DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn field(data: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Posts `{key: value}` to the page.
fn reply(key: &str, value: &JsValue) {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str(key), value);
    let _ = scope().post_message(&o);
}

fn fail(message: String) {
    STATE.with(|s| *s.borrow_mut() = State { reader: None, failed: true });
    reply("error", &JsValue::from_str(&message));
}

fn on_message(e: web_sys::MessageEvent) {
    let data = e.data();
    let name = field(&data, "name").as_string().unwrap_or_else(|| "report".into());
    let chunk = field(&data, "chunk");
    if !chunk.is_undefined() {
        let bytes = js_sys::Uint8Array::new(&chunk).to_vec();
        let result = STATE.with(|s| {
            let mut s = s.borrow_mut();
            if s.failed {
                return Ok(());
            }
            if s.reader.is_none() {
                s.reader = BinaryReader::for_head(&name, &bytes);
            }
            match s.reader.as_mut() {
                Some(r) => r.push(&bytes).map_err(|e| e.to_string()),
                None => Err(format!("{name}: not an Nsight Compute report")),
            }
        });
        if let Err(m) = result {
            fail(m);
        }
        return;
    }
    if field(&data, "end").is_truthy() {
        let (reader, failed) = STATE.with(|s| {
            let mut s = s.borrow_mut();
            (s.reader.take(), std::mem::take(&mut s.failed))
        });
        if failed {
            return; // the error was posted
        }
        let Some(reader) = reader else { return fail(format!("{name}: the file is empty")) };
        match reader.finish() {
            Ok(read) => match read.serialize(&serde_wasm_bindgen::Serializer::json_compatible()) {
                Ok(v) => reply("ok", &v),
                Err(e) => fail(format!("{name}: {e}")),
            },
            Err(e) => fail(e.to_string()),
        }
    }
}

fn main() {
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(on_message);
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    let _ = scope().post_message(&JsValue::from_str("ready"));
}
