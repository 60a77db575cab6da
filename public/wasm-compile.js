// Fetches and compiles the app's wasm off the page's main thread, for public/first-paint.js,
// which gives the wasm's address as this worker's name (`new Worker(url, {name})`; not as the
// address's fragment, which is lost where the service worker serves this script). Posts
// `{module}` (wasm-bindgen's `init` takes a module as it takes a response), or `{failed}`: the
// page then fetches the wasm itself.
// Why (docs/PERFORMANCE.md, 2026-11-29, evening): compiled on the page, the module's last bytes
// and its finishing step held the page in the task that then instantiated it (21–39 ms here).
const href = self.name;

// Before posting the module, runs the app's start once in an instance of its own here
// (`warm_start`, app/src/warm.rs): V8 compiles a wasm function at its first call, and the code
// compiled for this instance is the page's too (one compiled module, shared), so those
// functions are not compiled in the page's start task (docs/PERFORMANCE.md, 2026-11-29,
// night). Its imports throw: `warm_start` calls none, and where one were called the run would
// just end there. Whatever happens here, the module is posted.
//
// After posting the module, it runs a load's answer the same way (`warm_load`): the code the
// page runs when a file's dataset arrives, compiled here while the page starts, not in the
// task that shows the user's first file. It then ends itself.
function instance(module) {
  const imports = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') return undefined;
    (imports[from] ||= {})[name] = () => { throw new Error(`the warm-up called the import ${name}`); };
  }
  try {
    return new WebAssembly.Instance(module, imports).exports;
  } catch (e) {
    return undefined;
  }
}

/// Runs the export `name` of `exports`, if there is one; whatever happens, nothing to do: the
/// page compiles what this run did not reach.
function run(exports, name) {
  try {
    if (exports && typeof exports[name] === 'function') exports[name]();
  } catch (e) {
    // The run ended at a call into JavaScript, or in a panic.
  }
}

(async () => {
  const response = await fetch(href);
  if (!response.ok) throw new Error(`${href}: HTTP ${response.status}`);
  // compileStreaming needs the wasm's MIME type; without it the bytes are compiled whole.
  const module = (response.headers.get('Content-Type') || '').startsWith('application/wasm')
    ? await WebAssembly.compileStreaming(response)
    : await WebAssembly.compile(await response.arrayBuffer());
  run(instance(module), 'warm_start');
  postMessage({ module });
  // An instance of its own: a run that ended in a throw may have left the first's state
  // half-changed.
  run(instance(module), 'warm_load');
  close();
})().catch((e) => postMessage({ failed: String((e && e.message) || e) }));
