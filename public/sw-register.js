// Registers the service worker (sw.js: the site works offline after one visit) and tells the user,
// in a small fixed notice with role=status, when this visit runs a newer build than the last one,
// or once per session when this browser cannot keep an offline copy (no service workers, or the
// registration refused). A file of its own, loaded by index.html, because the
// Content-Security-Policy forbids inline scripts; the app does not depend on it.

const BUILD_KEY = 'roofline-build';
const TOLD_KEY = 'roofline-offline-unavailable-told';
/// The longest the registration waits for the parser workers to start.
const PARSER_WAIT_MS = 10000;

// An embed (`?embed`, app/src/embed.rs: the chart alone in another site's iframe) registers no
// worker and shows no notice. There it would be partitioned by the embedding site (Chromium,
// Firefox and WebKit key a third-party frame's storage and workers by the top-level site): one
// more copy of every built file per site that embeds a chart, for a view that reads no file
// and is open while the page around it is; where third-party storage is blocked it is refused,
// and a notice would cover a small frame's chart.
const embedded = new URLSearchParams(location.search).has('embed');

if (embedded) {
  // Nothing to register.
} else if (!('serviceWorker' in navigator)) {
  offlineUnavailable('this browser has no service workers');
} else {
  // sw.js sits beside this file at the site's root, so its scope is the whole site.
  // `updateViaCache: 'none'`: the browser's update check never takes sw.js from the HTTP cache.
  // Registered once the app has mounted (it removes index.html's #first-paint): installing
  // precaches every built file, the parser worker's wasm too, and on a first visit that must
  // not compete with the first chart's own downloads (docs/PERFORMANCE.md).
  // And once the parser workers have started, as a new version's activation waits for: in
  // Firefox an activation and a worker starting a worker hang each other (docs/BROWSERS.md).
  // And holding the lock on worker starts until the worker is installed and active: the parser
  // starts its SQLite worker holding it too (below).
  whenAppRuns(() => whenParserSettled(() => holdingWorkerStarts(() => navigator.serviceWorker.register(new URL('sw.js', import.meta.url), { updateViaCache: 'none' })
    .then((registration) => settled(registration.installing, Boolean(registration.active)).then(() => registration)))
    .then(letNewVersionsActivate)
    .catch((e) => offlineUnavailable(`the browser refused the service worker: ${e.message || e}`))));
}

/// The Web Lock that keeps a service worker's installing and activating apart from the parser's
/// start of its SQLite worker (worker/src/rocpd.rs), which may come at any time (a database
/// dropped as a first visit's worker activates): in Firefox an activation and a worker being
/// built hang each other (docs/BROWSERS.md). Each side holds it for its part; where a browser
/// has no Web Locks, each goes on as before.
const WORKER_STARTS = 'roofline-worker-starts';
/// The longest the lock is held for one service worker.
const SETTLE_WAIT_MS = 10000;

/// Runs `f` (which returns a promise) holding the lock on worker starts.
function holdingWorkerStarts(f) {
  return navigator.locks ? navigator.locks.request(WORKER_STARTS, f) : f();
}

/// Resolves once `worker` has settled: activated or gone, or installed where it is to wait
/// beside an active one (`waits`: a new version waits to be told, below); or after
/// SETTLE_WAIT_MS.
function settled(worker, waits = false) {
  return new Promise((resolve) => {
    const done = () => worker.state === 'activated' || worker.state === 'redundant' || (waits && worker.state === 'installed');
    if (!worker || done()) { resolve(); return; }
    worker.addEventListener('statechange', () => { if (done()) resolve(); });
    setTimeout(resolve, SETTLE_WAIT_MS);
  });
}

/// Calls `f` once the parser workers have started (app/src/worker.rs), or after PARSER_WAIT_MS.
function whenParserSettled(f) {
  if (performance.getEntriesByName('roofline:parser-settled').length > 0) { f(); return; }
  let called = false;
  const once = () => { if (!called) { called = true; f(); } };
  addEventListener('roofline-parser-settled', once, { once: true });
  setTimeout(once, PARSER_WAIT_MS);
}

/// Lets a new version take over (sw.js): the one waiting, the one installing (the browser's
/// update check may have started it) and any found later.
function letNewVersionsActivate(registration) {
  const activate = (worker) => worker && holdingWorkerStarts(() => {
    worker.postMessage('activate');
    return settled(worker);
  });
  const whenInstalled = (worker) => worker?.addEventListener('statechange', () => { if (worker.state === 'installed') activate(worker); });
  activate(registration.waiting);
  whenInstalled(registration.installing);
  registration.addEventListener('updatefound', () => whenInstalled(registration.installing));
}

/// Calls `f` once the app has replaced the static first paint (at once if it already has).
function whenAppRuns(f) {
  if (!document.getElementById('first-paint')) { f(); return; }
  new MutationObserver((_, observer) => {
    if (!document.getElementById('first-paint')) { observer.disconnect(); f(); }
  }).observe(document.body, { childList: true });
}

// The build id postbuild stamped into the page (scripts/precache.mjs); absent in an unbuilt page.
const build = document.querySelector('meta[name="roofline-build"]')?.content;
if (build && !embedded) {
  let last = null;
  try {
    last = localStorage.getItem(BUILD_KEY);
    localStorage.setItem(BUILD_KEY, build);
  } catch {
    // Storage refused (a privacy setting): no notice, nothing else changes.
  }
  if (last && last !== build) notice('Roofline Explorer was updated to a new version.');
}

/// The site still works, online only: say so once per session (console and notice).
function offlineUnavailable(why) {
  console.warn(`Roofline Explorer: offline use unavailable: ${why}`);
  try {
    if (sessionStorage.getItem(TOLD_KEY)) return;
    sessionStorage.setItem(TOLD_KEY, '1');
  } catch {
    // Storage refused: tell every time rather than never.
  }
  notice(`This browser keeps no offline copy of Roofline Explorer (${why}); it works while online.`);
}

/// A dismissable notice in a corner (app/site-notice.css), outside the page layout.
function notice(message) {
  const box = document.createElement('div');
  box.className = 'site-notice';
  box.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = message;
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = '×';
  close.setAttribute('aria-label', 'Dismiss the notice');
  close.addEventListener('click', () => box.remove());
  box.append(text, close);
  document.body.append(box);
}
