// A/B of the 10,000-kernel hierarchical redraw between builds (issue 17), as
// tests/bench/browser.mjs measures it: runs alternate between the builds (A B, then B A, …), a
// fresh page each; each run loads the same 10,000 kernels, shows the hierarchical chart and
// redraws it REDRAWS times by the keyboard's zoom ('0', '+' in turn). So that a busy minute on a
// shared machine falls on both, compare builds only within one run of this script.
//   node tests/bench/redraw-ab.mjs PAIRS DIST_A DIST_B [DIST_C …]
// Prints, per build, the median over all its redraws of `roofline:render` and its parts
// (`roofline:scene`, `roofline:paint`, of which `roofline:raster`), and each run's median render.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launch, waitForChart } from '../e2e/helpers.mjs';
import { alternate, quantile } from './alternate.mjs';
import { tidyKernels, timeRedraws } from './redraw.mjs';

const [pairs, ...dists] = process.argv.slice(2);
if (!(Number(pairs) > 0) || dists.length < 2) {
  console.error('usage: node tests/bench/redraw-ab.mjs PAIRS DIST_A DIST_B [DIST_C …]');
  process.exit(2);
}
const REDRAWS = 15;
const median = (xs) => quantile(xs, 0.5);
const dir = mkdtempSync(join(tmpdir(), 'roofline-redraw-'));
const tidy = join(dir, 'kernels-10000.csv');
writeFileSync(tidy, tidyKernels(10_000));
const browser = await launch();
const builds = await alternate(dists, Number(pairs), async (url) => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  await page.goto(url);
  await waitForChart(page);
  await page.setInputFiles('#file-input', tidy);
  await page.waitForFunction(() => document.querySelector('.table-tools .count')?.textContent.includes('10000 kernels'), null, { timeout: 120_000 });
  await page.getByRole('tab', { name: 'Hierarchical' }).click();
  await waitForChart(page);
  await page.waitForTimeout(500);
  const redraws = await timeRedraws(page, REDRAWS);
  await context.close();
  return redraws;
}).finally(() => { browser.close(); rmSync(dir, { recursive: true, force: true }); });
for (const b of builds) {
  const all = b.runs.flat();
  const m = (k) => median(all.map((r) => r[k])).toFixed(1);
  console.log(`${b.dist}: redraw ${m(0)} ms (scene ${m(1)}, paint ${m(2)} of which raster ${m(3)}); each run's median: ${b.runs.map((rs) => median(rs.map((r) => r[0])).toFixed(1)).join(', ')}`);
}
