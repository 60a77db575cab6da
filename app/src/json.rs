//! JSON in the page through the browser's own parser and writer: `JSON.parse` and
//! `JSON.stringify`, with serde-wasm-bindgen between them and the engine's serde types. The
//! wasm carries no JSON parser or float formatter of its own (the engine is built without
//! its `json` feature).
//!
//! Reading: [`BrowserJson`] is the engine's `JsonDocument` for a text, parsed on first read.
//! [`load_sources`] gives every in-memory file to `DatasetBuilder::add_json_file` with one,
//! so a `.roofline.json` view or an ERT `roofline.json` is read from it and any other format
//! from its text (detection stays by content, in the engine).
//!
//! Writing: [`to_pretty_json`], the JSON exports. `JSON.stringify(value, null, 2)` has
//! serde_json's pretty layout; numbers are JavaScript's shortest form (`8000000000` where
//! serde_json writes `8000000000.0`), the same values.

use roofline_engine::dataset::{Dataset, DatasetBuilder};
use roofline_engine::import::json::{JsonDocument, JsonError};
use roofline_engine::{ImportError, SourceFile};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::cell::OnceCell;
use wasm_bindgen::JsValue;

/// A JSON text, parsed with `JSON.parse` when first read; each read converts the parsed value
/// to the type asked for (serde-wasm-bindgen reads only the members the type names).
pub struct BrowserJson<'a> {
    text: &'a str,
    parsed: OnceCell<Result<JsValue, String>>,
}

impl<'a> BrowserJson<'a> {
    pub fn new(text: &'a str) -> Self {
        BrowserJson { text, parsed: OnceCell::new() }
    }
}

impl JsonDocument for BrowserJson<'_> {
    fn read<T: DeserializeOwned>(&self) -> Result<T, JsonError> {
        let parsed = self.parsed.get_or_init(|| js_sys::JSON::parse(self.text).map_err(|e| js_sys::Error::from(e).message().into()));
        let value = parsed.as_ref().map_err(|message| JsonError { syntax: true, line: None, message: message.clone() })?;
        serde_wasm_bindgen::from_value(value.clone()).map_err(|e| JsonError { syntax: false, line: None, message: e.to_string() })
    }
}

/// Adds a file held in memory to `builder`, reading JSON formats through the browser.
pub fn add_source(builder: &mut DatasetBuilder, file: &SourceFile) -> Result<(), ImportError> {
    // Only the text of a UTF-8 file can be JSON; the engine words every other case.
    match std::str::from_utf8(file.bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&file.bytes)) {
        Ok(text) => builder.add_json_file(file, &BrowserJson::new(text)),
        Err(_) => builder.add_file(file),
    }
}

/// `load_dataset` for the page: in-memory files (pasted text, fetched examples, a dropped
/// JSON file read whole) as one dataset.
pub fn load_sources(files: &[SourceFile]) -> Result<Dataset, ImportError> {
    let mut builder = DatasetBuilder::new();
    for file in files {
        add_source(&mut builder, file)?;
    }
    builder.finish()
}

/// `value` as pretty-printed JSON (two spaces, as serde_json's `to_string_pretty`): options
/// as `null`, maps as objects (serde-wasm-bindgen's JSON-compatible serializer).
pub fn to_pretty_json<T: Serialize + ?Sized>(value: &T) -> Result<String, JsValue> {
    let js = value.serialize(&serde_wasm_bindgen::Serializer::json_compatible())?;
    let text = js_sys::JSON::stringify_with_replacer_and_space(&js, &JsValue::NULL, &JsValue::from(2))?;
    text.as_string().ok_or_else(|| JsValue::from_str("JSON.stringify returned no text"))
}
