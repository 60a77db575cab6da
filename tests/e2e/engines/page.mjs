// What the cross-engine scenarios read in the page and how they wait for it: plain functions
// that the adapters send to the page (`session.eval`), and a few steps built on them. Elements
// are found by id, role and accessible name (and the kernel table), never by layout.
import { join } from 'node:path';
import { waitFor, clickRole, isTimeout } from './adapter.mjs';
import { recordedTexts } from './labels.mjs';
import { ROOT } from '../helpers.mjs';
import { nameFrames } from '../../../scripts/symbols.mjs';

// In-page readers (plain functions: the adapters send them to the page).
export const tableText = () => document.querySelector('table.kernels tbody')?.innerText ?? '';
export const tableHas = (re) => new RegExp(re).test(document.querySelector('table.kernels tbody')?.innerText ?? '');
/// The chart's RGBA pixels as a SHA-256 (not toDataURL: Firefox's PNG encoder gives different
/// bytes for identical pixels from one profile to the next).
export const canvasPixels = async () => {
  const c = document.querySelector('#roofline-canvas');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const digest = await crypto.subtle.digest('SHA-256', data);
  return `${c.width}x${c.height} ${[...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, '0')).join('')}`;
};
export const chartDrawn = () => {
  const c = document.querySelector('#roofline-canvas');
  return !!(c && c.width > 0 && c.getAttribute('style'));
};
export const alertText = () => {
  const a = document.querySelector('[role=alert]');
  return a && !a.hidden && a.offsetParent !== null ? a.textContent.trim() : '';
};
/// Pixels of the canvas that are not its background colour (the corner's): a drawn chart has many.
export const inkedPixels = () => {
  const c = document.querySelector('#roofline-canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n += 1;
  return n;
};
/// Whether the site's service worker is installed and activated. The page of a first visit is
/// not taken over by it (public/sw.js claims no page); the next load is.
export const workerActive = async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated';
/// Dispatches a drop of in-memory files on an element inside the app (the drop handler is on
/// the app's root and events bubble): what a browser does for files dragged from the desktop.
export const dropFiles = ({ selector, files }) => {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(new File([f.text], f.name, { type: 'text/csv' }));
  document.querySelector(selector).dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  return true;
};

/// In the page: records uncaught errors from now on (for engines whose driver reports none;
/// errors before the page loaded show as the app's role=alert, which is checked too).
export const recordErrors = () => {
  if (!window.__e2eErrors) {
    window.__e2eErrors = [];
    addEventListener('error', (e) => window.__e2eErrors.push(String(e.message)));
    addEventListener('unhandledrejection', (e) => window.__e2eErrors.push(String(e.reason)));
  }
  return true;
};

/// Opens the app at `url` and waits until it has drawn its chart and filled its table.
export async function openApp(session, url) {
  await session.goto(url);
  await waitFor(session, chartDrawn, undefined, { what: 'the chart' });
  await waitFor(session, () => document.querySelectorAll('table.kernels tbody tr').length > 0, undefined, { what: 'the kernel table' });
  await session.eval(recordErrors);
}

/// Whether the selected tab is `name` (a string, or `{ re }` as in markByRole).
export const tabSelected = (name) => {
  const sel = document.querySelector('[role=tab][aria-selected=true]')?.textContent.trim() ?? '';
  return typeof name === 'string' ? sel === name : new RegExp(name.re, 'i').test(sel);
};

/// The chart's pixels (size and hash) once two reads 150 ms apart agree: a repaint follows a
/// change by a frame or two.
export async function chart(session) {
  let last = null;
  for (let i = 0; i < 40; i++) {
    const now = await session.eval(canvasPixels);
    if (now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('the chart kept changing');
}

/// Switches mode by its tab and waits until the tab says so.
export async function pickMode(session, name) {
  await clickRole(session, 'tab', name);
  await waitFor(session, tabSelected, name, { what: `tab ${JSON.stringify(name)} selected` });
  await waitFor(session, chartDrawn);
}

/// Waits until the recorded texts stop changing (a paint is synchronous, but it follows the
/// click by a frame or two).
export async function settledTexts(session) {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const n = (await session.eval(recordedTexts)).length;
    if (n > 0 && n === last) break;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return session.eval(recordedTexts);
}

/// What a page read answers, or `late` after 5 s (a failed page may not answer at all).
const answerIn5s = (read, late) => Promise.race([read, new Promise((r) => setTimeout(() => r(late), 5000))]);

/// A failed try's page that panicked: the app's panic with its stack, the wasm frames named
/// from the build's symbol maps (the app keeps it as `window.rooflinePanic`, an Error;
/// WebKit's driver has no console). Nothing if it did not panic or does not answer.
async function printPanic(engine, s) {
  const read = s.eval(() => (window.rooflinePanic ? `${window.rooflinePanic.message}\n${window.rooflinePanic.stack}` : null)).catch(() => null);
  const text = await answerIn5s(read, null);
  if (!text) return;
  const named = nameFrames(text, process.env.ROOFLINE_DIST || join(ROOT, 'dist'));
  console.log(`# ${engine.name}: the app panicked:\n${named.split('\n').map((l) => `#   ${l}`).join('\n')}`);
}

/// Runs `fn(session)` in a fresh profile of `engine`, closed after it whatever happens. A try
/// that times out waiting for the page (adapter.mjs's `waitFor`) runs once more in another
/// fresh profile, the first timeout printed with what the page showed then: on the 2-core CI
/// machine a full run now and then had one wait past 20 s for what takes 1–3 s alone
/// (docs/BROWSERS.md). A navigation the driver gave up on (its `TimeoutError`: a reload whose
/// `load` never came) counts as such a wait. Any other failure, or a second timeout, fails.
/// A page that panicked has its panic printed, named, whatever the failure.
export async function inFreshProfile(engine, fn) {
  for (let attempt = 1; ; attempt++) {
    const s = await engine.newProfile();
    try {
      return await fn(s);
    } catch (e) {
      await printPanic(engine, s);
      if (attempt > 1 || !isTimeout(e)) throw e;
      console.log(`# ${engine.name}: a try timed out, run again in a fresh profile: ${e.message}`);
      // What the page showed then, for the cause (the page's alert, the start of its text).
      const read = s.eval(() => ({
        alert: document.querySelector('[role=alert]')?.textContent?.trim() ?? '',
        skeleton: !!document.getElementById('first-paint'),
        rows: document.querySelectorAll('table.kernels tbody tr').length,
        text: document.body.innerText.slice(0, 400),
      })).catch((x) => ({ unreadable: String(x) }));
      const seen = await answerIn5s(read, { unreadable: 'no answer in 5 s' });
      console.log(`# ${engine.name}: the page then: ${JSON.stringify(seen)}`);
    } finally {
      await s.close();
    }
  }
}
