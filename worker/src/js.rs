//! The few JavaScript-boundary helpers every worker of the site needs: its global scope, a
//! message's field, a message built from fields, the clock. One file for the parser worker (`worker/`)
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

/// `performance.now()` in the worker, ms (0 where the scope has no `performance`).
pub fn now() -> f64 {
    let perf = field(&js_sys::global(), "performance");
    js_sys::Reflect::get(&perf, &JsValue::from_str("now"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&perf).ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0)
}
