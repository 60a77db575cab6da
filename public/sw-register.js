// Registers the service worker (sw.js: the site works offline after one visit) and says so when
// this visit runs a newer build than the last one: a small fixed notice with role=status.
// A file of its own, loaded by index.html, because the Content-Security-Policy forbids inline
// scripts; it is independent of the app (a browser without service workers still gets the notice
// and the app, only not offline).

const BUILD_KEY = 'roofline-build';

if ('serviceWorker' in navigator) {
  // sw.js sits beside this file at the site's root, so its scope is the whole site.
  // `updateViaCache: 'none'`: the browser's update check never takes sw.js from the HTTP cache.
  navigator.serviceWorker.register(new URL('sw.js', import.meta.url), { updateViaCache: 'none' })
    .catch((e) => console.warn(`offline use unavailable: ${e}`));
}

// The build id postbuild stamped into the page (scripts/precache.mjs); absent in an unbuilt page.
const build = document.querySelector('meta[name="roofline-build"]')?.content;
if (build) {
  let last = null;
  try {
    last = localStorage.getItem(BUILD_KEY);
    localStorage.setItem(BUILD_KEY, build);
  } catch {
    // Storage refused (a privacy setting): no notice, nothing else changes.
  }
  if (last && last !== build) showUpdated();
}

/// "Updated": a new deploy was picked up on this visit.
function showUpdated() {
  const box = document.createElement('div');
  box.className = 'update-notice';
  box.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = 'Roofline Explorer was updated to a new version.';
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = '×';
  close.setAttribute('aria-label', 'Dismiss the update notice');
  close.addEventListener('click', () => box.remove());
  box.append(text, close);
  document.body.append(box);
}
