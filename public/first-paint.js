// Before the first paint (index.html, render-blocking and tiny): a page opened from a shared
// link (`#v1.…`) shows another view than the built-in example, so the skeleton hides the
// example's image (app/first-paint.css) until the app draws the link's chart.
const link = location.hash.length > 1;
if (link) document.documentElement.classList.add('has-link');

// `rooflineFirstPaint`: resolved once the skeleton's chart image has been shown, which the
// wasm's fetch (below) and the app's mount (app/src/main.rs) await. Mounted sooner, the app
// removes an image no frame has shown, and the page's largest paint becomes the app's own text
// after all its wasm has run (measured 2026-11-24: Lighthouse mobile LCP 3.5 s instead of
// 1.2 s; docs/PERFORMANCE.md). Where the browser reports largest paints, the image's own entry
// says it was shown; elsewhere, two frames after it is decoded. One second at most: a broken
// image never holds the app back.
window.rooflineFirstPaint = new Promise((resolve) => {
  if (link) { resolve(); return; }
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

// `rooflineWasm`: the app's wasm, asked for once that image has been shown (the release build
// names it in <meta name="roofline-wasm">, where Trunk put its preload: scripts/postbuild.mjs
// says why), a promise of the response that the loader script hands to wasm-bindgen's `init`.
// Resolves to undefined where the page names no wasm (a development build keeps the preload).
window.rooflineWasm = window.rooflineFirstPaint.then(() => {
  const href = document.querySelector('meta[name="roofline-wasm"]')?.content;
  return href ? fetch(href) : undefined;
});
