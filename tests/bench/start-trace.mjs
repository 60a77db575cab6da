// Where the page's start goes (issue 17's TBT): a Chromium trace of a fresh page at a phone's
// viewport (412 × 823, as Lighthouse's mobile run) until the first chart and 1.5 s after. For
// each of the main thread's three longest tasks it prints the trace events inside it, summed by
// name, among them V8's lazy compilation of wasm functions (`wasm.CompileLazy`, with its
// `wasm.CompileBaseline`: a function compiled on the main thread at its first call).
//   node tests/bench/start-trace.mjs [DIST] [RUNS]
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launch, waitForChart, ROOT } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';

const [dist = join(ROOT, 'dist'), runs = '2'] = process.argv.slice(2);
const site = await serve(dist, 0, '/roofline/', { gzip: true });
const browser = await launch();
const path = join(tmpdir(), `roofline-start-trace-${process.pid}.json`);
try {
  for (let run = 0; run < Number(runs); run++) {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await browser.startTracing(page, { path, categories: ['devtools.timeline', 'v8', 'v8.wasm', 'disabled-by-default-devtools.timeline'] });
    await page.goto(site.url);
    await waitForChart(page);
    await page.waitForTimeout(1500);
    await browser.stopTracing();
    const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents;
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const tasks = onMain.filter((e) => e.name === 'RunTask').sort((a, b) => b.dur - a.dur).slice(0, 3);
    for (const t of tasks) {
      const sums = {};
      for (const e of onMain) if (e !== t && e.ts >= t.ts && e.ts < t.ts + t.dur) sums[e.name] = (sums[e.name] ?? 0) + e.dur / 1000;
      const top = Object.entries(sums).sort((a, b) => b[1] - a[1]).slice(0, 10).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
      console.log(`run ${run + 1}: task ${(t.dur / 1000).toFixed(1)} ms: ${top}`);
    }
    await context.close();
  }
} finally {
  rmSync(path, { force: true });
  await browser.close();
  site.server.close();
}
