// Where the page's start goes (issue 17's TBT): a Chromium trace of a fresh page at a phone's
// viewport (412 × 823, as Lighthouse's mobile run) until the first chart and 1.5 s after. For
// each of the main thread's three longest tasks it prints the trace events inside it, summed by
// name, among them V8's lazy compilation of wasm functions (`wasm.CompileLazy`, with its
// `wasm.CompileBaseline`: a function compiled on the main thread at its first call).
//   node tests/bench/start-trace.mjs [DIST] [RUNS]
//   START_TRACE_COMPILED=N node tests/bench/start-trace.mjs ...  # also the functions compiled
//   lazily in the task that compiled the most (the mount's): their bytes and compile time by
//   crate and by size, and the N largest
// Function names come from the build's symbol maps (scripts/symbols.mjs), sizes from the wasm
// itself (scripts/wasm-bodies.mjs).
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { launch, waitForChart, ROOT } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { profileFrameNamer } from '../../scripts/symbols.mjs';
import { bodySizes } from '../../scripts/wasm-bodies.mjs';

const [dist = join(ROOT, 'dist'), runs = '2'] = process.argv.slice(2);
const COMPILED = Number(process.env.START_TRACE_COMPILED || 0);
const appWasm = readdirSync(dist).find((f) => f.startsWith('roofline-app-') && f.endsWith('_bg.wasm'));
const sizes = appWasm ? bodySizes(readFileSync(join(dist, appWasm))) : new Map();
const nameOf = profileFrameNamer(dist);
/// A compiled function's crate (the first path segment of its demangled name, inside `<…>`
/// for a trait impl), or its whole name where it has none.
const crateOf = (name) => /^<?([A-Za-z_][\w]*)::/.exec(name)?.[1] ?? name;

/// The lazily compiled functions of the app's wasm inside `task`: bytes and time by crate.
function compiled(onMain, task) {
  const lazy = onMain.filter((e) => e.name === 'wasm.CompileLazy' && e.ts >= task.ts && e.ts < task.ts + task.dur);
  const byCrate = new Map();
  const rows = lazy.map((e) => {
    const index = e.args?.func_index ?? e.args?.data?.func_index;
    const name = nameOf({ functionName: `wasm-function[${index}]`, url: appWasm });
    return { index, name, bytes: sizes.get(index) ?? 0, ms: e.dur / 1000 };
  });
  for (const r of rows) {
    const c = byCrate.get(crateOf(r.name)) ?? { n: 0, bytes: 0, ms: 0 };
    c.n++; c.bytes += r.bytes; c.ms += r.ms;
    byCrate.set(crateOf(r.name), c);
  }
  const total = rows.reduce((a, r) => ({ bytes: a.bytes + r.bytes, ms: a.ms + r.ms }), { bytes: 0, ms: 0 });
  console.log(`  ${rows.length} functions compiled lazily, ${total.bytes} B, ${total.ms.toFixed(1)} ms; by crate:`);
  for (const [c, v] of [...byCrate].sort((a, b) => b[1].ms - a[1].ms).slice(0, 15)) {
    console.log(`    ${v.ms.toFixed(1).padStart(6)} ms ${String(v.bytes).padStart(8)} B ${String(v.n).padStart(5)}  ${c}`);
  }
  const buckets = [[0, 100], [100, 300], [300, 1000], [1000, 3000], [3000, 1e9]].map(([lo, hi]) => {
    const b = rows.filter((r) => r.bytes >= lo && r.bytes < hi);
    const ms = b.reduce((a, r) => a + r.ms, 0), bytes = b.reduce((a, r) => a + r.bytes, 0);
    return `${lo}-${hi < 1e9 ? hi : ''} B: ${b.length} fns ${ms.toFixed(1)} ms (${(1000 * ms / Math.max(b.length, 1)).toFixed(0)} us each, ${(bytes / Math.max(ms, 1e-9) / 1000).toFixed(1)} MB/s)`;
  });
  console.log(`  by size: ${buckets.join('; ')}`);
  console.log('  the largest:');
  for (const r of rows.sort((a, b) => b.bytes - a.bytes).slice(0, COMPILED)) {
    console.log(`    ${r.ms.toFixed(2).padStart(6)} ms ${String(r.bytes).padStart(7)} B  ${r.name.slice(0, 150)}`);
  }
}
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
    if (COMPILED > 0) {
      // The task that compiled the most: the mount's.
      const lazyIn = (t) => onMain.filter((e) => e.name === 'wasm.CompileLazy' && e.ts >= t.ts && e.ts < t.ts + t.dur).reduce((a, e) => a + e.dur, 0);
      const mount = onMain.filter((e) => e.name === 'RunTask').reduce((a, t) => (lazyIn(t) > lazyIn(a) ? t : a));
      console.log(`run ${run + 1}: the task that compiled the most, ${(mount.dur / 1000).toFixed(1)} ms:`);
      compiled(onMain, mount);
    }
    await context.close();
  }
} finally {
  rmSync(path, { force: true });
  await browser.close();
  site.server.close();
}
