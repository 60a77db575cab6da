// Fetches and compiles the app's wasm off the page's main thread, for public/first-paint.js,
// which names the wasm in this worker's fragment. Posts `{module}` (wasm-bindgen's `init` takes
// a module as it takes a response), or `{failed}`: the page then fetches the wasm itself.
// Why (docs/PERFORMANCE.md, 2026-11-29, evening): compiled on the page, the module's last bytes
// and its finishing step held the page in the task that then instantiated it (21–39 ms here).
const href = decodeURIComponent(self.location.hash.slice(1));
(async () => {
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  // compileStreaming needs the wasm's MIME type; without it the bytes are compiled whole.
  const module = (response.headers.get('Content-Type') || '').startsWith('application/wasm')
    ? await WebAssembly.compileStreaming(response)
    : await WebAssembly.compile(await response.arrayBuffer());
  postMessage({ module });
})().catch((e) => postMessage({ failed: String((e && e.message) || e) }));
