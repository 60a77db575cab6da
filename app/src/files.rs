//! Loading files into the engine: picked, dropped, pasted and example files are parsed by the
//! parser worker (`worker.rs`, `worker/`), which reads picked and dropped files in slices (its
//! slice reader, `public/slice-reader.js`) into the engine's `DatasetBuilder` (memory does not
//! grow with the file for the formats the engine streams), a large file by two parsers at
//! once (`worker/src/parts.rs`). The page only receives progress and
//! the dataset, so its main thread stays free to paint while a file of any size loads.

use crate::worker;
use roofline_engine::dataset::Dataset;
use roofline_engine::SourceFile;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

pub use worker::{cancel, cancelled_since_now, prewarm, CANCELLED};

/// The names of a file list, for messages.
fn names(list: &web_sys::FileList) -> String {
    (0..list.length()).filter_map(|i| list.item(i)).map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

/// Reads and parses every file of a `FileList` as one dataset, in the worker.
/// `progress(done, total)` is called as chunks are parsed, with the fraction done and 1.
pub async fn load_file_list(list: web_sys::FileList, mut progress: impl FnMut(f64, f64)) -> Result<Dataset, String> {
    let files = js_sys::Array::new();
    for i in 0..list.length() {
        if let Some(f) = list.item(i) {
            files.push(&f);
        }
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &JsValue::from_str("files"), &files);
    worker::request(message, &names(&list), move |p| progress(p, 1.0)).await
}

/// Parses files already in memory (pasted text, fetched examples) as one dataset, in the worker.
pub async fn load_sources(sources: Vec<SourceFile>) -> Result<Dataset, String> {
    let what = sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ");
    let array = js_sys::Array::new();
    for s in &sources {
        let o = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str("name"), &JsValue::from_str(&s.name));
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str("bytes"), &js_sys::Uint8Array::from(s.bytes.as_slice()));
        array.push(&o);
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &JsValue::from_str("sources"), &array);
    worker::request(message, &what, |_| {}).await
}

/// The whole text of the first file of `list` (a `.roofline.json` view file is small).
pub async fn first_file_text(list: &web_sys::FileList) -> Result<String, String> {
    let file = list.item(0).ok_or_else(|| "no file".to_string())?;
    let name = file.name();
    let buffer = JsFuture::from(file.array_buffer()).await.map_err(|_| format!("{name}: the browser could not read the file"))?;
    String::from_utf8(js_sys::Uint8Array::new(&buffer).to_vec()).map_err(|_| format!("{name}: not UTF-8 text"))
}
