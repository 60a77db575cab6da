// Browser benchmark (issue 8), in headless Chromium against the release build:
//   node tests/bench/browser.mjs BIG_NCU_RAW.csv [RESULTS.md]
// Measures, from the app's own performance.measure entries:
//   - time to first chart on localhost (page start → first `roofline:render`),
//   - loading the given Nsight Compute raw CSV by the file input (`roofline:load`: bytes
//     received → chart drawn) in MB/s, with the longest main-thread task meanwhile
//     (PerformanceObserver 'longtask'),
//   - redrawing a 10,000-kernel hierarchical chart (`roofline:render`, median of 9 redraws,
//     with its parts `roofline:scene`, `roofline:paint`, `roofline:raster`),
//   - hovering it (`roofline:hover`: the hit test, at 200 pointer positions),
//   - wasm memory after the load (WebAssembly memory buffer size).
// Writes a markdown table (budget | measured | result) that scripts/bench.sh includes.
import { writeFileSync, statSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startSite, launch, waitForChart } from '../e2e/helpers.mjs';

const [big, out = join(import.meta.dirname, 'results.md')] = process.argv.slice(2);
if (!big) { console.error('usage: node tests/bench/browser.mjs BIG_NCU_RAW.csv [RESULTS.md]'); process.exit(2); }
const sizeMB = statSync(big).size / 1e6;

/// A tidy CSV of n kernels with L1/L2/DRAM bytes (three dots each in the hierarchical chart).
function tidyKernels(n) {
  const rows = ['kernel,time_s,flops_fp32,bytes_l1,bytes_l2,bytes_dram'];
  for (let i = 0; i < n; i++) {
    const t = 1e-5 * (1 + (i % 97)), f = 1e9 * (1 + (i % 389)), b = 1e8 * (1 + (i % 211));
    rows.push(`kernel_${i},${t},${f},${b * 4},${b * 2},${b}`);
  }
  return rows.join('\n') + '\n';
}

const site = await startSite();
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
await page.addInitScript(() => {
  window.__longtasks = [];
  addEventListener('TrunkApplicationStarted', (e) => { window.__wasm = e.detail.wasm; });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longtasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
});
await page.goto(site.url);
await waitForChart(page);
const firstChartMs = await page.evaluate(() => {
  const r = performance.getEntriesByName('roofline:render')[0];
  return r ? r.startTime + r.duration : NaN;
});

await page.evaluate(() => { window.__longtasks = []; performance.clearMeasures('roofline:load'); });
await page.setInputFiles('#file-input', big);
await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, null, { timeout: 300_000 });
const load = await page.evaluate(() => ({
  ms: performance.getEntriesByName('roofline:load')[0].duration,
  longest: Math.max(0, ...window.__longtasks),
}));
const wasmMB = await page.evaluate(() => {
  const m = window.__wasm && window.__wasm.memory;
  return m ? m.buffer.byteLength / 1e6 : NaN;
});

const dir = mkdtempSync(join(tmpdir(), 'roofline-bench-'));
const tidy = join(dir, 'kernels-10000.csv');
writeFileSync(tidy, tidyKernels(10_000));
await page.setInputFiles('#file-input', tidy);
await page.waitForFunction(() => document.querySelector('.table-tools .count')?.textContent.includes('10000 kernels'), null, { timeout: 120_000 });
await page.getByRole('tab', { name: 'Hierarchical' }).click();
await waitForChart(page);
// Each redraw's total and its parts: building the scene, painting it with the plotters
// painter on plotters-canvas (of which the engine's rasteriser, the canvas backend's way to
// draw runs of dots and lines; the paint sums its runs' rasterisations).
const PARTS = ['roofline:render', 'roofline:scene', 'roofline:paint', 'roofline:raster'];
const redraws = [];
for (let i = 0; i < 9; i++) {
  await page.evaluate((parts) => parts.forEach((p) => performance.clearMeasures(p)), PARTS);
  await page.locator('body').press(i % 2 ? '+' : '0');
  await page.waitForFunction(() => performance.getEntriesByName('roofline:render').length > 0);
  redraws.push(await page.evaluate((parts) => parts.map((p) => performance.getEntriesByName(p).reduce((s, e) => s + e.duration, 0)), PARTS));
}
const median = (k) => redraws.map((r) => r[k]).sort((a, b) => a - b)[4];
const [renderMs, sceneMs, paintMs, rasterMs] = [0, 1, 2, 3].map(median);

// Hover: the hit test (`roofline:hover`, the scene's grid index) at 200 points across the plot.
const box = await page.locator('#roofline-canvas').boundingBox();
const hovers = [];
for (let i = 0; i < 200; i++) {
  await page.mouse.move(box.x + 70 + ((i * 37) % (box.width - 90)), box.y + 40 + ((i * 53) % (box.height - 90)));
  hovers.push(await page.evaluate(() => performance.getEntriesByName('roofline:hover')[0]?.duration ?? NaN));
}
const hoverOk = hovers.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b);
// Judged at the 95th percentile: a single pause of the whole page (garbage collection, the
// machine's other work) is not the hit test's cost; the maximum is reported beside it.
const pct = (q) => hoverOk[Math.min(hoverOk.length - 1, Math.floor(q * hoverOk.length))];
const [hoverMedian, hoverP95, hoverMax] = [pct(0.5), pct(0.95), hoverOk[hoverOk.length - 1]];

await browser.close();
site.server.close();

const mbps = sizeMB / (load.ms / 1000);
const rows = [
  ['browser: time to first chart (localhost)', '≤ 1000 ms', `${firstChartMs.toFixed(0)} ms`, firstChartMs <= 1000],
  [`browser: load ${sizeMB.toFixed(0)} MB ncu raw (roofline:load)`, '≥ 100 MB/s', `${mbps.toFixed(0)} MB/s (${load.ms.toFixed(0)} ms)`, mbps >= 100],
  ['browser: longest task during that load', '≤ 200 ms', `${load.longest.toFixed(0)} ms`, load.longest <= 200],
  ['browser: redraw 10,000 kernels, hierarchical (30,000 dots)', '≤ 16 ms', `${renderMs.toFixed(1)} ms (median of 9: scene ${sceneMs.toFixed(1)}, paint ${paintMs.toFixed(1)} of which raster ${rasterMs.toFixed(1)})`, renderMs <= 16],
  ['browser: hover hit test, 30,000 dots (roofline:hover)', '≤ 1 ms (p95)', `${hoverP95.toFixed(1)} ms p95 (median ${hoverMedian.toFixed(1)}, max ${hoverMax.toFixed(1)}, ${hoverOk.length} moves; timer step 0.1 ms)`, hoverP95 <= 1],
  ['browser: wasm memory after the load', '≤ 256 MB', Number.isNaN(wasmMB) ? 'not exposed' : `${wasmMB.toFixed(0)} MB`, Number.isNaN(wasmMB) ? null : wasmMB <= 256],
];
const table = ['| budget | target | measured | result |', '|---|---|---|---|',
  ...rows.map(([what, target, got, ok]) => `| ${what} | ${target} | ${got} | ${ok === null ? 'n/a' : ok ? 'pass' : 'FAIL'} |`)].join('\n');
writeFileSync(out, table + '\n');
console.log(table);
