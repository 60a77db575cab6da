// Issue 45's phone budgets, on one release build (tests/bench/throttle.mjs: Lighthouse's mobile
// throttling, for real; medians of BENCH_RUNS visits, default 5, the two pages interleaved):
//   - a shared link's chart on screen (the link chart, first/) ≤ 2,500 ms,
//   - the working app on that link's page (the app's first chart: its controls mount with it)
//     ≤ 5,000 ms,
//   - the working app on the bare page (no link: the built-in example) ≤ 4,000 ms.
// The link is the NERSC five-file run's (`roofline link` of ../shared/samples/ncu/DeepLearning*,
// 3,2xx characters: the long links courses share), made by the release CLI, or BENCH_HASH.
//   node tests/bench/phone-budgets.mjs [DIST]     (exit status 1 if a budget fails)
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { visit, median, nerscLink } from './throttle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.argv[2] || join(root, 'dist');
const RUNS = Number(process.env.BENCH_RUNS || 5);

const hash = nerscLink(root);
const { server, url } = await serve(dist, 0, '/roofline/', { gzip: true });
const browser = await launch();
const link = [], bare = [];
for (let i = 0; i < RUNS; i++) {
  link.push(await visit(browser, url + hash));
  bare.push(await visit(browser, url));
  console.log(`run ${i + 1}: link chart ${link.at(-1).linkChart.toFixed(0)} ms, app on the link ${link.at(-1).chart.toFixed(0)} ms, bare app ${bare.at(-1).chart.toFixed(0)} ms`);
}
await browser.close();
server.close();

const rows = [
  ["a shared link's chart on screen", median(link.map((r) => r.linkChart)), 2500],
  ['the working app, shared link', median(link.map((r) => r.chart)), 5000],
  ['the working app, bare page', median(bare.map((r) => r.chart)), 4000],
];
console.log(`\nMeasured ${new Date().toISOString().slice(0, 10)}, headless Chromium, Lighthouse's mobile throttling for real, a ${hash.length - 1}-character link, median of ${RUNS} visits.\n`);
console.log('| budget (issue 45) | target | median | |');
console.log('| --- | --- | --- | --- |');
let failed = false;
for (const [what, ms, limit] of rows) {
  const pass = ms <= limit;
  failed ||= !pass;
  console.log(`| ${what} | ≤ ${limit} ms | ${ms.toFixed(0)} ms | ${pass ? 'pass' : 'FAIL'} |`);
}
if (failed) process.exit(1);
