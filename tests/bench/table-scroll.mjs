// The cost of moving a long table's window of rows (issue 17), builds alternated: a page per
// build and round loads FILE (10,000 kernels: target/bench-data/kernels-10000.csv), then jumps
// the table's scroll box 30 times by 50 rows. Each jump's time runs from the scroll to the end of
// the app's work (`window.rooflineIdle()`) and a layout of the rows: the rows built again and
// laid out, the work of a frame in which the window moves (app/src/kernel_table.rs).
//   node tests/bench/table-scroll.mjs FILE ROUNDS DIST_A DIST_B [DIST_C …]
// Prints, per build, the median and 90th percentile of all its jumps, ms.
import { launch, openPage, settled } from '../e2e/helpers.mjs';
import { alternate, quantile } from './alternate.mjs';

const [file, rounds, ...dists] = process.argv.slice(2);
if (!file || !(Number(rounds) > 0) || dists.length < 2) {
  console.error('usage: node tests/bench/table-scroll.mjs FILE ROUNDS DIST_A DIST_B [DIST_C …]');
  process.exit(2);
}
const browser = await launch();
const builds = await alternate(dists, Number(rounds), async (url) => {
  const { context, page } = await openPage(browser, url);
  await page.setInputFiles('#file-input', file);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, null, { timeout: 120_000 });
  await page.waitForTimeout(1000);
  await settled(page);
  const jumps = await page.evaluate(async () => {
    const el = document.querySelector('.table-scroll');
    const row = el.querySelector('tbody tr').getBoundingClientRect().height;
    const out = [];
    for (let i = 1; i <= 30; i++) {
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const t0 = performance.now();
      el.scrollTop = (i * 50 + 2000) * row;
      await new Promise((r) => el.addEventListener('scroll', r, { once: true }));
      while (!window.rooflineIdle()) await new Promise((r) => setTimeout(r, 0));
      void el.querySelector('tbody').getBoundingClientRect();
      out.push(performance.now() - t0);
    }
    return out;
  });
  await context.close();
  return jumps;
}).finally(() => browser.close());
for (const b of builds) {
  const jumps = b.runs.flat();
  console.log(`${b.dist}: a window move ${quantile(jumps, 0.5).toFixed(1)} ms median, ${quantile(jumps, 0.9).toFixed(1)} ms p90 (${jumps.length} jumps)`);
}
