// Shared set-up for the browser tests: Debian's Chromium driven by playwright-core, the release
// build served under /roofline/ as on GitHub Pages, and a recorder of console errors and of any
// request that leaves the page's origin.
import { chromium } from 'playwright-core';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '../../scripts/serve.mjs';
import { readdirSync } from 'node:fs';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SAMPLES = join(ROOT, '..', 'shared', 'samples');
/// The NERSC deep-learning run's five Nsight Compute files (one run, 49 kernels), which many
/// tests load together.
export const NERSC_RUN = readdirSync(join(SAMPLES, 'ncu')).filter((f) => f.startsWith('DeepLearningProfiling__')).map((f) => join(SAMPLES, 'ncu', f));

/// Serves `dist/` (or the build in $ROOFLINE_DIST, for a second build beside the main one).
export async function startSite() {
  return serve(process.env.ROOFLINE_DIST || join(ROOT, 'dist'), 0, '/roofline/');
}

/// Chromium's switches: no sandbox and no GPU in containers, and none of the browser's own
/// background requests (this machine's closed network refuses them; the tests watch the page's).
export const LAUNCH_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'];

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: LAUNCH_ARGS,
  });
}

/// A page at a fixed size and pixel ratio (so canvases compare), recording problems.
export async function openPage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const problems = { consoleErrors: [], foreignRequests: [], pageErrors: [] };
  const origin = new URL(url).origin;
  page.on('console', (m) => { if (m.type() === 'error') problems.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) problems.foreignRequests.push(u);
  });
  await page.goto(url);
  await waitForChart(page);
  return { context, page, problems };
}

/// Waits until the app has painted its canvas.
export async function waitForChart(page) {
  await page.waitForSelector('#roofline-canvas');
  await page.waitForFunction(() => {
    const c = document.querySelector('#roofline-canvas');
    return c && c.width > 0 && c.getAttribute('style');
  });
  await settled(page);
}

/// Waits until the page has applied what every change so far does: after the start, a change's
/// effects may run in several tasks of the page (app/src/executor.rs), and a test that reads
/// the page on one sign of a change (the table's count) could find another part not yet
/// updated. `window.rooflineIdle` is the executor's; pages without it (the static first paint,
/// the link chart) are settled.
export async function settled(page) {
  await page.waitForFunction(() => !window.rooflineIdle || window.rooflineIdle(), null, { timeout: 10_000 });
}

/// Waits until the site's service worker is active (its precache filled), 30 s at most: a
/// worker that never gets there fails the test instead of holding the run. A first visit's
/// page stays uncontrolled (public/sw.js claims no page).
export function workerReady(page) {
  return page.evaluate(() => Promise.race([
    navigator.serviceWorker.ready.then(() => true),
    new Promise((_, reject) => setTimeout(() => reject(new Error('the service worker was not active after 30 s')), 30000)),
  ]));
}

/// The page's address once the app has written the current view to it. The app defers the
/// write of a change that follows another within `QUIET_MS` (app/src/address.rs, 80 ms) when
/// writes are slow, so the address is final once it has stayed the same for longer than that
/// (300 ms here).
export function settledAddress(page) {
  return page.evaluate(() => new Promise((done) => {
    let last = location.href, since = performance.now();
    const look = () => {
      if (location.href !== last) { last = location.href; since = performance.now(); }
      if (performance.now() - since > 300) done(last); else setTimeout(look, 20);
    };
    look();
  }));
}

export function canvasData(page) {
  return page.evaluate(() => document.querySelector('#roofline-canvas').toDataURL('image/png'));
}

export function tableText(page) {
  return page.evaluate(() => document.querySelector('table.kernels tbody').innerText);
}
