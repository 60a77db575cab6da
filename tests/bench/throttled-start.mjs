// What a phone on a slow network sees of the first visit (issue 17): the release build, served
// gzipped under /roofline/, opened in headless Chromium with the throttling Lighthouse's mobile
// run applies when it throttles for real (DevTools: 562.5 ms request latency, 1,474.56 kbit/s
// down, 675 kbit/s up, 4× CPU slowdown; 412 × 823 px at 1.75×), a fresh context per run (no
// cache, no service worker). Lighthouse only *simulates* its throttling from an unthrottled
// trace; this measures the page itself, to weigh what the order of downloads costs:
//   - LCP: the largest paint's time and element (the first-paint image is `fp-chart`),
//   - the wasm's request: when it started and ended (Resource Timing),
//   - the app's first chart: the end of the first `roofline:render` measure,
//   - a shared link's first chart, drawn by the link chart (first/) before the app: the end of
//     the `roofline:link-chart` measure (none without a link, or in a build without it).
//   node tests/bench/throttled-start.mjs [DIST …]   (several builds: interleaved runs, A/B)
// BENCH_HASH=#v1.… opens a shared link instead (the first paint then shows no image, and
// the link chart draws the link's chart).
// Prints medians of BENCH_RUNS runs (default 5) per build, ms from navigation start.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dists = process.argv.slice(2);
if (dists.length === 0) dists.push(join(root, 'dist'));
const RUNS = Number(process.env.BENCH_RUNS || 5);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };

const sites = [];
for (const d of dists) {
  const { server, url } = await serve(d, 0, '/roofline/', { gzip: true });
  sites.push({ dist: d, server, url, runs: [] });
}
const browser = await launch();

async function once(site) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true, serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 562.5, downloadThroughput: 1474.56 * 1024 / 8, uploadThroughput: 675 * 1024 / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    window.__lcp = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp.push({ t: e.startTime, what: e.element ? (e.element.className || e.element.tagName) : '(gone)' }); })
      .observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(site.url + (process.env.BENCH_HASH || ''));
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

for (let i = 0; i < RUNS; i++) {
  for (const site of sites) {
    const r = await once(site);
    site.runs.push(r);
    console.log(`${site.dist} run ${i + 1}: ${JSON.stringify(r)}`);
  }
}
await browser.close();
for (const s of sites) s.server.close();

const date = new Date().toISOString().slice(0, 10);
console.log(`\nMeasured ${date}, headless Chromium, throttled as above, median of ${RUNS} runs (ms from navigation start).\n`);
console.log('| build | LCP (element) | app\'s wasm request start → end | link chart drawn | app\'s first chart |');
console.log('| --- | --- | --- | --- | --- |');
for (const s of sites) {
  const m = (k) => median(s.runs.map((r) => r[k])).toFixed(0);
  const whats = [...new Set(s.runs.map((r) => r.lcpWhat))].join(', ');
  console.log(`| ${s.dist} | ${m('lcp')} (${whats}) | ${m('wasmStart')} → ${m('wasmEnd')} | ${m('linkChart')} | ${m('chart')} |`);
}
