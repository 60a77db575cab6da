// One visit of a phone on a slow network, for real (issues 17 and 45): the release build, served
// gzipped under /roofline/, opened in headless Chromium with the throttling Lighthouse's mobile
// run applies when it throttles for real (DevTools: 562.5 ms request latency, 1,474.56 kbit/s
// down, 675 kbit/s up, 4× CPU slowdown; 412 × 823 px at 1.75×), a fresh context per visit (no
// cache, no service worker). Lighthouse only *simulates* its throttling from an unthrottled
// trace; this measures the page itself. Used by throttled-start.mjs (builds A/B) and
// phone-budgets.mjs (issue 45's budgets).

import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { NERSC_RUN } from '../e2e/helpers.mjs';

/// Lighthouse's mobile throttling, as DevTools applies it.
export const THROTTLING = { latency: 562.5, downloadThroughput: 1474.56 * 1024 / 8, uploadThroughput: 675 * 1024 / 8, cpuRate: 4 };

export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

/// Opens `url` throttled and waits for the app's first chart. Returns, in ms from navigation start:
///   - `lcp`, `lcpWhat`: the largest paint's time and element (the first-paint image is `fp-chart`),
///   - `wasmStart`, `wasmEnd`: the app's wasm request, where the page made it (Resource Timing;
///     NaN where the compile worker fetched it, whose requests the page's timing does not list),
///   - `linkChart`: a shared link's first chart, drawn by the link chart (first/) before the app:
///     the end of the `roofline:link-chart` measure (NaN without a link),
///   - `chart`: the app's first chart, the end of the first `roofline:render` measure: from then
///     on the app works (its controls are mounted with the chart).
export async function visit(browser, url) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const { latency, downloadThroughput, uploadThroughput, cpuRate } = THROTTLING;
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency, downloadThroughput, uploadThroughput });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
  await page.addInitScript(() => {
    window.__lcp = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp.push({ t: e.startTime, what: e.element ? (e.element.className || e.element.tagName) : '(gone)' }); })
      .observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:render').length > 0, null, { timeout: 120_000 });
  // LCP entries stop at the first input; none is given, so the last one so far is the LCP.
  const r = await page.evaluate(() => {
    const render = performance.getEntriesByName('roofline:render')[0];
    const wasm = performance.getEntriesByType('resource').find((e) => /roofline-app-[0-9a-f]+_bg\.wasm$/.test(e.name));
    const link = performance.getEntriesByName('roofline:link-chart')[0];
    const lcp = window.__lcp.at(-1) || { t: NaN, what: '' };
    return { lcp: lcp.t, lcpWhat: lcp.what, wasmStart: wasm ? wasm.startTime : NaN, wasmEnd: wasm ? wasm.responseEnd : NaN, chart: render.startTime + render.duration, linkChart: link ? link.startTime + link.duration : NaN };
  });
  await context.close();
  return r;
}

/// The NERSC five-file run's link fragment (`#v…`), as `roofline link` writes it (its machine:
/// the CLI's default), made by the release CLI of the checkout at `root`; or BENCH_HASH. The long
/// links courses share (3,2xx characters).
export function nerscLink(root) {
  if (process.env.BENCH_HASH) return process.env.BENCH_HASH;
  const files = NERSC_RUN;
  if (files.length !== 5) throw new Error(`expected the NERSC run's 5 files in ../shared/samples/ncu, found ${files.length}`);
  const cli = join(root, 'target', 'release', 'roofline');
  if (!existsSync(cli)) execFileSync('cargo', ['build', '--quiet', '--release', '-p', 'roofline-cli'], { cwd: root, stdio: 'inherit' });
  const url = execFileSync(cli, ['link', ...files], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim().split('\n').at(-1);
  return url.slice(url.indexOf('#'));
}
