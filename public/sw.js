// The service worker: after one visit the site works offline (on a plane, on a cluster login node
// with no internet), and a new deploy is picked up on the next visit.
//
// - The page itself (index.html) comes from the network first, as Perfetto's UI does, so the next
//   visit after a deploy runs the new version (sw-register.js then says "updated"); offline, or
//   when the network does not answer within INDEX_TIMEOUT_MS, it comes from the cache.
// - Everything else of this build (hashed wasm/js/css, the built-in examples, the manifest and
//   icons) comes from the cache, filled on install from PRECACHE. The list is written by
//   scripts/precache.mjs from the build output (never by hand): the two constants below are
//   placeholders in the source and replaced in dist/sw.js. Because the list names hashed files,
//   every deploy changes this script, which is how the browser notices a new version.
// - Requests to another origin, and anything but GET, are never touched: the worker fetches
//   nothing from another origin, and the page's Content-Security-Policy still decides what the
//   page may load. So a profile a `#url=` link fetches (app/src/open_url.rs) is neither
//   intercepted nor cached: it goes to its server, and its CORS answer is the server's own.
const VERSION = 'unbuilt';
const PRECACHE = [];

const INDEX_TIMEOUT_MS = 3000;
// One origin can hold several sites (GitHub Pages serves every project of a user from
// <user>.github.io), so caches are named after this worker's scope and only ours are touched.
const SCOPE = new URL(self.registration.scope);
const PREFIX = `roofline ${SCOPE.pathname} `;
const CACHE = PREFIX + VERSION;
const INDEX = new URL('index.html', SCOPE).href;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // `no-cache` revalidates with the server, so an HTTP-cached file of the previous deploy
    // (index.html, examples: their names carry no hash) never lands in this version's cache.
    await cache.addAll(PRECACHE.map((path) => new Request(new URL(path, SCOPE), { cache: 'no-cache' })));
  })());
});

// A new version takes over as soon as a page says so (sw-register.js, once the page's parser
// workers have started: in Firefox 153 an activation and a worker starting a worker at the
// same moment hang each other). It need not wait for the old version's pages to close: the
// page of this visit came from the network (or from the previous version's cache, which is
// kept below), so nothing it still loads goes missing. A first version has nothing to wait
// for and activates once installed.
self.addEventListener('message', (event) => {
  if (event.data === 'activate') self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // Keep the newest previous version too: a page opened before this deploy may still load one
    // of its hashed files (a lazily loaded module) after this worker took over.
    const ours = (await caches.keys()).filter((k) => k.startsWith(PREFIX) && k !== CACHE);
    await Promise.all(ours.slice(0, -1).map((k) => caches.delete(k)));
  })());
  // No `clients.claim()`: the page of a first visit (online by definition) keeps loading from
  // the network, and the next load is this worker's. In Firefox 153 claim() now and then took
  // the page but never settled, which left this worker "activating" for good, and every fetch,
  // the next navigation's too, waited for it; not awaited, it still broke the page's workers
  // starting workers (docs/BROWSERS.md).
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  const isPage = request.mode === 'navigate' && (url.pathname === SCOPE.pathname || url.href.split(/[?#]/)[0] === INDEX);
  event.respondWith(isPage ? page(request) : cached(request));
});

/// The page: from the network unless offline, slow or failing, else this version's copy.
async function page(request) {
  let response;
  if (self.navigator.onLine !== false) {
    try {
      response = await withTimeout(fetch(request), INDEX_TIMEOUT_MS);
      if (response.ok) return response;
    } catch {
      // Offline, refused or too slow: the cached page below.
    }
  }
  return (await match(INDEX)) || response || Response.error();
}

/// Files fetched on first use, not precached: the SQLite worker (rocpd-worker/), which only a
/// dropped database needs (scripts/precache.mjs, `ON_DEMAND`). Kept in this version's cache
/// once fetched, so a database reads offline after the first; looked for in this version's
/// cache only (their names carry no hash: another version's bindings and wasm may not match).
const ON_DEMAND = /\/(rocpd-loader\.js|roofline-rocpd(_bg\.wasm|\.js))$/;

/// A file of this build from the cache; a file that is not in it (a new deploy's file, before
/// its worker installed; an on-demand file's first use) from the network.
async function cached(request) {
  const onDemand = ON_DEMAND.test(new URL(request.url).pathname);
  const hit = await match(request, onDemand);
  if (hit) return hit;
  const response = await fetch(request);
  if (onDemand && response.ok) {
    const copy = response.clone();
    caches.open(CACHE).then((c) => c.put(request, copy)).catch(() => {});
  }
  return response;
}

/// Looks in this version's cache first, then (unless `current`) in the previous one that
/// activate kept.
async function match(request, current = false) {
  const names = (await caches.keys()).filter((k) => current ? k === CACHE : k.startsWith(PREFIX));
  names.sort((a, b) => (a === CACHE ? -1 : b === CACHE ? 1 : 0));
  for (const name of names) {
    const hit = await (await caches.open(name)).match(request);
    if (hit) return hit;
  }
  return undefined;
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then((v) => { clearTimeout(timer); resolve(v); }, (e) => { clearTimeout(timer); reject(e); });
  });
}
