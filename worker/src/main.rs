//! The page's parser, as a web worker (Trunk `data-type="worker"`, started by
//! `app/src/worker.rs`): picked, dropped, pasted and example files are read and parsed here by
//! the engine's `DatasetBuilder`, so the page's main thread only paints, and the page's own
//! wasm carries no importer (docs/PERFORMANCE.md).
//!
//! Protocol (`app/src/worker.rs` is the other side):
//! * the worker posts `"ready"` once it listens;
//! * the page posts `{id, files: [File, …]}` (read in slices by a reader worker, started with
//!   this one, while the engine parses the slice before, [`slices`]; memory does not grow
//!   with the file for the formats the engine streams) or
//!   `{id, sources: [{name, bytes: Uint8Array}, …]}` (text already in memory);
//! * the worker answers `{id, progress: fraction}` every 4 MiB of a file list, then once
//!   `{id, stats: {memory_bytes, read_ms, parse_ms, wire_ms, reader}}` (its wasm memory,
//!   where the time went and who read the files, for DevTools, the benchmark and the tests)
//!   and `{id, ok: DatasetWire}`
//!   (serde, JSON-compatible) or `{id, error: "message naming the file and line"}`.
//!
//! Cancelling is the page's `Worker.terminate()`: it stops a parse at once, wherever it is,
//! and frees the worker's memory; the page starts a fresh worker for the next load.

use roofline_engine::dataset::wire::DatasetWire;
use roofline_engine::dataset::{Dataset, DatasetBuilder};
use roofline_engine::limits;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

mod slices;

/// Bytes parsed between two progress messages.
const PROGRESS_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

fn scope() -> web_sys::DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn field(data: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Posts `{id, key: value}` to the page.
fn reply(id: &JsValue, key: &str, value: &JsValue) {
    let o = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str("id"), id);
    let _ = js_sys::Reflect::set(&o, &JsValue::from_str(key), value);
    let _ = scope().post_message(&o);
}

/// Reads and parses every file of the list as one dataset, posting progress every
/// [`PROGRESS_BYTES`]. Each file is read in slices by a reader worker while the engine
/// parses the slice before ([`slices`] says why).
async fn load_files(id: &JsValue, files: &js_sys::Array, times: &mut Times) -> Result<Dataset, String> {
    let files: Vec<web_sys::File> = files.iter().filter_map(|f| f.dyn_into().ok()).collect();
    for f in &files {
        limits::check_size(&f.name(), f.size() as u64).map_err(|e| e.to_string())?;
    }
    let total: f64 = files.iter().map(|f| f.size()).sum();
    let mut builder = DatasetBuilder::new();
    let mut buf: Vec<u8> = Vec::new();
    let (mut done, mut reported) = (0.0, 0.0);
    for file in &files {
        let name = file.name();
        if file.size() <= 0.0 {
            builder.push_chunk(&name, &[]).map_err(|e| e.to_string())?;
        }
        let mut slices = slices::Slices::open(file);
        loop {
            let t0 = now();
            let Some(bytes) = slices.next().await? else { break };
            // One reused buffer: the slice is copied once into wasm memory and parsed in place.
            buf.resize(bytes.length() as usize, 0);
            bytes.copy_to(&mut buf);
            let t2 = now();
            builder.push_chunk(&name, &buf).map_err(|e| e.to_string())?;
            times.read_ms += t2 - t0;
            times.parse_ms += now() - t2;
            done += buf.len() as f64;
            if done - reported >= PROGRESS_BYTES {
                reported = done;
                reply(id, "progress", &JsValue::from_f64(if total > 0.0 { done / total } else { 1.0 }));
            }
        }
        times.reader = slices.reader();
        let t = now();
        builder.end_file().map_err(|e| e.to_string())?;
        times.parse_ms += now() - t;
    }
    let t = now();
    let ds = builder.finish().map_err(|e| e.to_string());
    times.parse_ms += now() - t;
    ds
}

/// Where a load's time went in the worker, ms: waiting for the file's next chunk and copying
/// it into wasm memory (what reading costs beyond what overlaps parsing), parsing (the
/// engine), and writing the dataset as a JavaScript value.
#[derive(Default)]
struct Times {
    read_ms: f64,
    parse_ms: f64,
    wire_ms: f64,
    /// Who read the last file ([`slices::Slices::reader`]); empty for text already in memory.
    reader: &'static str,
}

/// `performance.now()` in the worker, ms.
fn now() -> f64 {
    let perf = field(&js_sys::global(), "performance");
    js_sys::Reflect::get(&perf, &JsValue::from_str("now"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&perf).ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}

/// Parses files already in memory (pasted text, fetched examples) as one dataset.
fn load_sources(sources: &JsValue) -> Result<Dataset, String> {
    let sources: &js_sys::Array = sources.dyn_ref().ok_or_else(|| "nothing to read".to_string())?;
    let mut builder = DatasetBuilder::new();
    for s in sources.iter() {
        let name = field(&s, "name").as_string().unwrap_or_else(|| "pasted text".into());
        let bytes = js_sys::Uint8Array::new(&field(&s, "bytes")).to_vec();
        builder.add_file(&roofline_engine::SourceFile { name, bytes }).map_err(|e| e.to_string())?;
    }
    builder.finish().map_err(|e| e.to_string())
}

fn on_message(e: web_sys::MessageEvent) {
    wasm_bindgen_futures::spawn_local(answer(e.data()));
}

/// Reads what one message asks for and posts the answer.
async fn answer(data: JsValue) {
    let id = field(&data, "id");
    let files = field(&data, "files");
    let mut times = Times::default();
    let result = if files.is_array() { load_files(&id, files.unchecked_ref(), &mut times).await } else { load_sources(&field(&data, "sources")) };
    let t = now();
    let wire = result.and_then(|ds| DatasetWire::from(ds).serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| e.to_string()));
    times.wire_ms = now() - t;
    // The worker's wasm memory after the load (it only grows), for the benchmark's memory
    // budget, and where the time went.
    let stats = js_sys::Object::new();
    for (k, v) in [("memory_bytes", memory_bytes()), ("read_ms", times.read_ms), ("parse_ms", times.parse_ms), ("wire_ms", times.wire_ms)] {
        let _ = js_sys::Reflect::set(&stats, &JsValue::from_str(k), &JsValue::from_f64(v));
    }
    let _ = js_sys::Reflect::set(&stats, &JsValue::from_str("reader"), &JsValue::from_str(times.reader));
    reply(&id, "stats", &stats);
    match wire {
        Ok(v) => reply(&id, "ok", &v),
        Err(message) => reply(&id, "error", &JsValue::from_str(&message)),
    }
}

/// The size of this module's wasm memory, bytes.
fn memory_bytes() -> f64 {
    let buffer = field(&wasm_bindgen::memory(), "buffer");
    field(&buffer, "byteLength").as_f64().unwrap_or(f64::NAN)
}

fn main() {
    let on = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(on_message);
    scope().set_onmessage(Some(on.as_ref().unchecked_ref()));
    on.forget();
    slices::warm_up();
    let _ = scope().post_message(&JsValue::from_str("ready"));
}
