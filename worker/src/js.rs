//! The few JavaScript-boundary helpers every worker of the site needs: its global scope, a
//! message's field, a message built from fields. One file for the parser worker (`worker/`)
//! and the SQLite worker (`rocpd-worker/`, which includes it by path): two binaries, one copy.

use wasm_bindgen::{JsCast, JsValue};

/// The worker's global scope.
pub fn scope() -> web_sys::DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

/// A message's field `key` (`undefined` where it has none).
pub fn field(data: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(data, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// An object of these fields (a message).
pub fn object(fields: &[(&str, JsValue)]) -> js_sys::Object {
    let o = js_sys::Object::new();
    for (k, v) in fields {
        let _ = js_sys::Reflect::set(&o, &JsValue::from_str(k), v);
    }
    o
}
