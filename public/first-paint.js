// Before the first paint (index.html, render-blocking and tiny): a page opened from a shared
// link (`#v1.…`) shows another view than the built-in example, so the skeleton hides the
// example's image (app/first-paint.css), and the link chart (first/, a module of the engine's
// link codec and chart without the app's view layer: 177 KB gzipped against the app's 543 KB)
// draws the link's chart in its place before the app has arrived (docs/PERFORMANCE.md).
// Only a share link (`#v` + digits + `.`): another fragment (`#url=`, open_url.rs) gets the plain
// skeleton, since its view is not in the address.
const link = /^#v\d+\./.test(location.hash);
if (link) document.documentElement.classList.add('has-link');
// An embed (`?embed`, app/src/embed.rs: the chart alone, for an iframe): laid out as one from the
// first frame (app/style.css, app/first-paint.css: no toolbar, the chart filling the frame), by
// the app's rule for the parameter; the link chart sizes its chart by this class too.
if (new URLSearchParams(location.search).has('embed')) document.documentElement.classList.add('embed');

// Loads and runs the link chart. `downloaded`: its wasm has arrived and compiled (or failed), so the app's
// wasm, asked for then, does not share the network with it, and its request overlaps the link
// chart's compile and paint. `drawn`: it has drawn, or given the chart up to the app (an error
// in it is the app's to report: the app draws the same view from the same address).
function drawLinkChart() {
  // Compiled as it arrives (compileStreaming, where the server names the wasm's type), so the
  // compile does not wait for the last byte.
  const module = fetch('roofline-first_bg.wasm').then((r) => {
    if (!r.ok) throw new Error(`roofline-first_bg.wasm: HTTP ${r.status}`);
    return (r.headers.get('Content-Type') || '').startsWith('application/wasm')
      ? WebAssembly.compileStreaming(r)
      : r.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
  });
  const script = new Promise((loaded, failed) => {
    const s = document.createElement('script');
    s.src = 'roofline-first.js';
    s.onload = loaded;
    s.onerror = failed;
    document.head.appendChild(s);
  });
  // It draws into the skeleton, which follows this script in the page.
  const parsed = new Promise((done) => {
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', done);
    else done();
  });
  const downloaded = module.then(() => {}, () => {});
  // `wasm_bindgen` is the global of roofline-first.js; it instantiates the compiled module.
  const drawn = Promise.all([module, script, parsed]).then(([compiled]) => wasm_bindgen({ module_or_path: compiled }));
  return { downloaded, drawn };
}

// `rooflineFirstPaint`: resolved once the skeleton's chart has been shown (a shared link's:
// once the link chart has drawn it, or given it up), which the
// wasm's fetch (below) and the app's mount (app/src/main.rs) await. Mounted sooner, the app
// removes an image no frame has shown, and the page's largest paint becomes the app's own text
// after all its wasm has run (measured 2026-11-24: Lighthouse mobile LCP 3.5 s instead of
// 1.2 s; docs/PERFORMANCE.md). Where the browser reports largest paints, the image's own entry
// says it was shown; elsewhere, two frames after it is decoded. One second at most: a broken
// image never holds the app back.
let linkDownloaded;
window.rooflineFirstPaint = new Promise((resolve) => {
  if (link) {
    const { downloaded, drawn } = drawLinkChart();
    linkDownloaded = downloaded;
    drawn.then(() => resolve(), () => resolve());
    return;
  }
  setTimeout(resolve, 1000);
  const isImage = (e) => e.element && e.element.classList.contains('fp-chart');
  if (typeof PerformanceObserver !== 'undefined' && (PerformanceObserver.supportedEntryTypes || []).includes('largest-contentful-paint')) {
    new PerformanceObserver((list, observer) => {
      if (list.getEntries().some(isImage)) { observer.disconnect(); resolve(); }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  } else {
    document.addEventListener('DOMContentLoaded', () => {
      const image = document.querySelector('#first-paint .fp-chart');
      if (!image) { resolve(); return; }
      image.decode().then(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), resolve);
    });
  }
});

// `rooflineAppWanted`: resolved when the app's scripts may be fetched: at once, or on a shared
// link's page once the link chart's wasm has arrived, as the app's wasm below (12.6 KB gzipped
// of bindings would share the network with the link chart's). The loader (boot-*.js,
// scripts/postbuild.mjs) imports the bindings then, and they are preloaded from here, named in
// <meta name="roofline-bindings">, since the loader runs only once the page is parsed.
window.rooflineAppWanted = (linkDownloaded || Promise.resolve()).then(() => {
  const href = document.querySelector('meta[name="roofline-bindings"]')?.content;
  if (!href) return;
  const preload = document.createElement('link');
  preload.rel = 'modulepreload';
  preload.crossOrigin = 'anonymous';
  preload.href = href;
  document.head.appendChild(preload);
});
// `rooflineWasm`: the app's wasm, asked for once that image has been shown, or on a shared
// link's page once the link chart's wasm has arrived (docs/PERFORMANCE.md, "the link chart").
// The release build names it in <meta name="roofline-wasm">, where Trunk put its preload
// (scripts/postbuild.mjs says why); a promise of the response that the loader script hands to
// wasm-bindgen's `init`.
// Resolves to undefined where the page names no wasm (a development build keeps the preload).
// Where a worker can compile it (below), the promise is of the compiled module instead.
window.rooflineWasm = (linkDownloaded || window.rooflineFirstPaint).then(() => {
  const href = document.querySelector('meta[name="roofline-wasm"]')?.content;
  // When the wasm was asked for: the worker's requests are not in the page's Resource Timing.
  if (href) performance.mark('roofline:wasm-asked');
  return href ? compiledOffThread(href) : undefined;
});

// The app's wasm fetched and compiled by a worker (public/wasm-compile.js says why): a promise
// of the WebAssembly.Module. Where the worker gives none (no workers, a module the browser
// cannot post, a failed fetch or compile), of the response fetched here, as before: the app's
// loader then compiles it, or reports why it cannot.
function compiledOffThread(href) {
  return new Promise((resolve) => {
    let worker, done = false;
    // With the module, the worker goes on to warm a load's code and then ends itself
    // (wasm-compile.js); without it, it is ended here.
    const settle = (value, ended) => {
      if (done) return;
      done = true;
      if (worker && !ended) worker.terminate();
      resolve(value);
    };
    const here = () => settle(fetch(href));
    try {
      // The wasm's address goes as the worker's name: a fragment of the worker's address is
      // lost where the service worker serves the script (every visit after the first), and the
      // worker then fetched its own script, failed and left the compile to this page.
      worker = new Worker('wasm-compile.js', { name: href });
    } catch (e) {
      here();
      return;
    }
    worker.onmessage = (e) => {
      const module = e.data && e.data.module;
      if (module && module instanceof WebAssembly.Module) settle(module, true);
      else here();
    };
    worker.onerror = here;
    worker.onmessageerror = here;
  });
}
