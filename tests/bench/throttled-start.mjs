// What a phone on a slow network sees of the first visit (issue 17), builds A/B: each build's
// visits (tests/bench/throttle.mjs: Lighthouse's mobile throttling, for real) interleaved:
//   - LCP: the largest paint's time and element (the first-paint image is `fp-chart`),
//   - the wasm's request: when it started and ended (Resource Timing),
//   - the app's first chart: the end of the first `roofline:render` measure,
//   - a shared link's first chart, drawn by the link chart (first/) before the app: the end of
//     the `roofline:link-chart` measure (none without a link, or in a build without it).
//   node tests/bench/throttled-start.mjs [DIST …]   (several builds: interleaved runs, A/B)
// BENCH_HASH=#v1.… opens a shared link instead (the first paint then shows no image, and
// the link chart draws the link's chart). phone-budgets.mjs holds one build to issue 45's budgets.
// Prints medians of BENCH_RUNS runs (default 5) per build, ms from navigation start.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { visit, median } from './throttle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dists = process.argv.slice(2);
if (dists.length === 0) dists.push(join(root, 'dist'));
const RUNS = Number(process.env.BENCH_RUNS || 5);

const sites = [];
for (const d of dists) {
  const { server, url } = await serve(d, 0, '/roofline/', { gzip: true });
  sites.push({ dist: d, server, url, runs: [] });
}
const browser = await launch();

const once = (site) => visit(browser, site.url + (process.env.BENCH_HASH || ''));

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
