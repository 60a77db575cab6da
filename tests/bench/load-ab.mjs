// A/B of a file's load between builds (issue 17): runs alternate between the builds (A B, then
// B A, …), a fresh page each, after the parser's start (`roofline:parser-settled`) and its
// warm-up, so that a busy minute on a shared machine falls on both. This machine's noise is
// ±20 ms between batches of the same build (docs/PERFORMANCE.md): compare builds only within
// one run of this script.
//   node tests/bench/load-ab.mjs FILE PAIRS DIST_A DIST_B [DIST_C …]
// FILE may be a folder: its files, in name order, are picked together (several files at once).
// Prints, per build, the median pick → chart (`roofline:load`) and the worker's parts of it
// (`roofline:worker`: read wait, parse, the second parser, the wait for it), the longest
// main-thread task from the pick until a second after the chart (0: none over 50 ms), the
// time those tasks blocked input (each one's time over 50 ms, summed, as Lighthouse's TBT)
// and how many there were, and the worker's memory.
import { launch, waitForChart } from '../e2e/helpers.mjs';
import { alternate, quantile } from './alternate.mjs';
import { pickedFiles } from './picked.mjs';

const [path, pairs, ...dists] = process.argv.slice(2);
if (!path || !(Number(pairs) > 0) || dists.length < 2) {
  console.error('usage: node tests/bench/load-ab.mjs FILE|FOLDER PAIRS DIST_A DIST_B [DIST_C …]');
  process.exit(2);
}
const file = pickedFiles(path);
const median = (xs) => quantile(xs, 0.5);
const browser = await launch();
const builds = await alternate(dists, Number(pairs), async (url) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__longtasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(url);
  await waitForChart(page);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, null, { timeout: 30_000 });
  await page.waitForTimeout(400);
  await page.evaluate(() => { window.__longtasks = []; });
  await page.setInputFiles('#file-input', file);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, null, { timeout: 600_000 });
  // The longest main-thread task from the pick until a second after the chart (the
  // table's first layout included), as tests/bench/browser.mjs's 10,000-kernel row.
  await page.waitForTimeout(1000);
  const run = await page.evaluate(() => ({ ms: performance.getEntriesByName('roofline:load')[0].duration, longest: Math.max(0, ...window.__longtasks), blocking: window.__longtasks.reduce((a, d) => a + Math.max(0, d - 50), 0), long: window.__longtasks.length, ...performance.getEntriesByName('roofline:worker')[0]?.detail }));
  await context.close();
  return run;
}).finally(() => browser.close());
for (const b of builds) {
  const m = (k) => median(b.runs.map((r) => r[k] ?? NaN)).toFixed(0);
  console.log(`${b.dist}: ${m('ms')} ms (${b.runs.map((r) => r.ms.toFixed(0)).join(', ')}); worker: read wait ${m('read_ms')}, parse ${m('parse_ms')}, second parser ${m('second_ms')}, waited for it ${m('part_wait_ms')} ms, read in ${m('parts')} part(s), ${m('elsewhere')} file(s) by the second; longest main-thread task ${m('longest')} ms (each run's: ${b.runs.map((r) => r.longest.toFixed(0)).join(', ')}), blocking ${m('blocking')} ms in ${m('long')} tasks over 50 ms; memory ${(median(b.runs.map((r) => r.memory_bytes)) / 1e6).toFixed(0)} MB`);
}
