// Lighthouse's total blocking time, A/B between builds (issue 17): runs alternate between the
// builds (A B, then B A, …), with scripts/lighthouse.mjs's settings (mobile defaults, simulated
// throttling, the site gzipped under /roofline/). TBT has been at its 100 ms budget, and one
// build's runs spread over 80–130 ms: compare builds only within one run of this script.
//   node tests/bench/lighthouse-ab.mjs RUNS DIST_A DIST_B [DIST_C …]
// Prints, per build, the median TBT, each run's TBT and performance score, the LCP, and each run's
// long tasks as Lighthouse simulated them (ms; `+` between tasks of one run).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ROOT } from '../e2e/helpers.mjs';
import { alternate, quantile } from './alternate.mjs';

const [runs, ...dists] = process.argv.slice(2);
if (!(Number(runs) > 0) || dists.length < 2) {
  console.error('usage: node tests/bench/lighthouse-ab.mjs RUNS DIST_A DIST_B [DIST_C …]');
  process.exit(2);
}
const median = (xs) => quantile(xs, 0.5);
const bin = join(ROOT, 'node_modules', '.bin', 'lighthouse');
const env = { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' };
const work = await mkdtemp(join(tmpdir(), 'roofline-lh-ab-'));
const builds = await alternate(dists, Number(runs), async (url) => {
  const file = join(work, 'run.json');
  await promisify(execFile)(bin, [url, '--quiet', '--output=json', `--output-path=${file}`, '--chrome-flags=--headless=new --no-sandbox --disable-gpu'], { env, maxBuffer: 64 << 20 });
  const r = JSON.parse(await readFile(file, 'utf8'));
  return {
    tbt: r.audits['total-blocking-time'].numericValue,
    score: Math.round(r.categories.performance.score * 100),
    lcp: r.audits['largest-contentful-paint'].numericValue,
    benchmarkIndex: Math.round(r.environment.benchmarkIndex),
    tasks: r.audits['long-tasks'].details.items.map((t) => t.duration.toFixed(0)).join('+'),
  };
}, { gzip: true }).finally(() => rm(work, { recursive: true, force: true }));
for (const b of builds) {
  console.log(`${b.dist}: TBT ${median(b.runs.map((r) => r.tbt)).toFixed(0)} ms (${b.runs.map((r) => r.tbt.toFixed(0)).join(', ')}); performance ${b.runs.map((r) => r.score).join(', ')}; LCP ${(median(b.runs.map((r) => r.lcp)) / 1000).toFixed(2)} s (${b.runs.map((r) => (r.lcp / 1000).toFixed(2)).join(', ')}); host benchmarkIndex ${b.runs.map((r) => r.benchmarkIndex).join(', ')}; long tasks ${b.runs.map((r) => r.tasks).join('; ')}`);
}
