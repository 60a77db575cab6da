// The SQLite worker's loader (worker/src/rocpd.rs starts it when a dropped list holds a
// rocprofv3 database; rocpd-worker/ is the worker): its bindings (Trunk's no-modules output),
// then its wasm. Ours, not Trunk's shim, for the reason public/parser-loader.js gives: where the
// wasm cannot be fetched or compiled, the parser hears `{failed: message}` instead of nothing.
importScripts('./roofline-rocpd.js');
wasm_bindgen({ module_or_path: './roofline-rocpd_bg.wasm' })
  .catch((e) => postMessage({ failed: String((e && e.message) || e) }));
