// The parser worker's loader (app/src/worker.rs starts it; worker/src/main.rs is the parser): the
// engine's bindings (Trunk's no-modules output for `worker/`), then its wasm. Our own, not
// Trunk's `data-loader-shim`, for one reason: where the wasm cannot be fetched or compiled,
// the shim's promise is rejected inside the worker and nobody hears of it (a rejection in a
// worker fires no `error` event on the page's Worker object), so a load would wait for ever.
// This loader tells the page instead, as `{failed: message}`; the page shows it in its alert
// and starts a fresh worker for the next load. A script that fails to load throws, which the
// page hears as the Worker's `error` event.
//
// The same script is the second parser (worker/src/parts.rs) and the parser that starts no
// worker of its own (app/src/worker.rs says when); the parser reads its role from the name it
// was started with (`self.name`: worker/src/main.rs says why not from its address).
importScripts('./roofline-worker.js');
wasm_bindgen({ module_or_path: './roofline-worker_bg.wasm' })
  .catch((e) => postMessage({ failed: String((e && e.message) || e) }));
