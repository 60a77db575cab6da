// What each long main-thread task of a load is made of (issue 17): a Chromium trace of the
// page from the pick until a second after the chart, with a CPU profile sampled every 0.2 ms
// beside it. For each task over 30 ms it prints its length, the browser's own parts (timer,
// message, frame callbacks, style, layout, paint, garbage collection) and where its samples
// were: the outermost three of the app's and engine's functions on each stack (wasm named from
// the build's symbol maps, scripts/symbols.mjs), else the stack's leaf.
//   node tests/bench/long-tasks.mjs FILE [DIST] [RUNS]
// Headless Chromium, 1200 × 900, a fresh page per run, after the parser's start
// (`roofline:parser-settled`) and its warm-up. Tracing slows the page a little: compare builds
// by `load-ab.mjs`, and use this to see where a task's time goes.
import puppeteer from 'puppeteer-core';
import { join } from 'node:path';
import { ROOT, LAUNCH_ARGS } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { profileFrameNamer } from '../../scripts/symbols.mjs';

const [file, dist = join(ROOT, 'dist'), runs = '1'] = process.argv.slice(2);
if (!file) { console.error('usage: node tests/bench/long-tasks.mjs FILE [DIST] [RUNS]'); process.exit(2); }
const LONG_US = 30_000;
const nameOf = profileFrameNamer(dist);
/// The browser's parts of a task worth naming (trace event names).
const PARTS = ['TimerFire', 'HandlePostMessage', 'FireAnimationFrame', 'EventDispatch', 'FunctionCall', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit', 'MinorGC', 'MajorGC'];
/// Frames that say whose work a sample is: the app's and engine's, and a few browser calls.
const OURS = /^(roofline_(?!app::executor)|format_inner|decode|getBoundingClientRect|scrollY|setAttribute|createElement)/;

/// Time per key of the samples in [fromUs, toUs): the outermost three of our frames, or the leaf.
function whereSamples(profile, fromUs, toUs) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const at = new Map();
  let t = profile.startTime;
  profile.samples.forEach((id, k) => {
    t += profile.timeDeltas[k] ?? 0;
    if (t < fromUs || t >= toUs) return;
    const chain = [];
    for (let n = id; n !== undefined; n = parent.get(n)) chain.push(nameOf(byId.get(n).callFrame));
    chain.reverse();
    if (chain.at(-1) === '(idle)') return;
    const ours = chain.filter((c) => OURS.test(c));
    const key = ours.length ? ours.slice(0, 3).join(' > ') : `(leaf) ${chain.at(-1)}`;
    at.set(key, (at.get(key) ?? 0) + (profile.timeDeltas[k + 1] ?? 0));
  });
  return [...at].sort((a, b) => b[1] - a[1]);
}

const { server, url } = await serve(dist, 0, '/roofline/');
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: LAUNCH_ARGS, headless: true });
try {
  for (let run = 1; run <= Number(runs); run++) {
    const page = await browser.newPage();
    await page.setViewport({ width: 1200, height: 900 });
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, { timeout: 30_000 });
    await new Promise((r) => setTimeout(r, 500));
    const client = await page.createCDPSession();
    await client.send('Profiler.enable');
    await client.send('Profiler.setSamplingInterval', { interval: 200 });
    await client.send('Profiler.start');
    await page.tracing.start({ categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await (await page.$('#file-input')).uploadFile(file);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, { timeout: 600_000 });
    const loadMs = await page.evaluate(() => performance.getEntriesByName('roofline:load')[0].duration);
    await new Promise((r) => setTimeout(r, 1000));
    const events = JSON.parse(Buffer.from(await page.tracing.stop()).toString('utf8')).traceEvents;
    const { profile } = await client.send('Profiler.stop');
    // The page's main thread: the renderer main thread with the most work in the trace.
    const busy = (m) => events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'RunTask').reduce((a, e) => a + (e.dur ?? 0), 0);
    const main = events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').sort((a, b) => busy(b) - busy(a))[0];
    const mine = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
    const tasks = mine.filter((e) => e.name === 'RunTask' && e.dur > LONG_US).sort((a, b) => a.ts - b.ts);
    console.log(`run ${run}: pick → chart ${loadMs.toFixed(0)} ms; ${tasks.length} tasks over ${LONG_US / 1000} ms`);
    for (const task of tasks) {
      const parts = new Map();
      for (const e of mine) {
        if (e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && PARTS.includes(e.name)) parts.set(e.name, (parts.get(e.name) ?? 0) + e.dur);
      }
      console.log(`  +${((task.ts - tasks[0].ts) / 1000).toFixed(0)} ms: ${(task.dur / 1000).toFixed(1)} ms (${[...parts].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`).join(', ')})`);
      for (const [key, us] of whereSamples(profile, task.ts, task.ts + task.dur).slice(0, 8)) {
        if (us >= 500) console.log(`    ${(us / 1000).toFixed(1).padStart(5)} ms  ${key.slice(0, 200)}`);
      }
    }
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}
