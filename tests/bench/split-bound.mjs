// How small the app's wasm could be made by splitting it (issue 45's phone budgets): the
// functions of the app's wasm that run before its first chart, on the bare page and on a shared
// link's page (the NERSC run's link, as phone-budgets.mjs), read from a Chromium trace. V8
// compiles a wasm function at its first call (`wasm.CompileLazy`), so the functions it compiled
// are the ones that ran. A perfect split, one that moved every function not run yet and nothing
// else out of the first module, would still send their bodies and the data section: their
// gzipped bytes are a lower bound for the first module (the bindings' JavaScript comes on top).
// It prints that bound beside the whole module and what the bytes cost on Lighthouse's mobile
// throughput (tests/bench/throttle.mjs).
//   node tests/bench/split-bound.mjs [DIST]
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launch } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { bodyRanges } from '../../scripts/wasm-bodies.mjs';
import { THROTTLING, nerscLink } from './throttle.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = process.argv[2] || join(root, 'dist');
const appWasm = readdirSync(dist).find((f) => /^roofline-app-[0-9a-f]+_bg\.wasm$/.test(f));
if (!appWasm) throw new Error(`split-bound: no roofline-app-*_bg.wasm in ${dist}`);
const bytes = readFileSync(join(dist, appWasm));
const { bodies, data } = bodyRanges(bytes);
const gz = (buffer) => gzipSync(buffer, { level: 9 }).length;
/// Milliseconds that `n` bytes take on Lighthouse's mobile download throughput.
const ms = (n) => (1000 * n) / THROTTLING.downloadThroughput;
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

/// The indices of the app's functions compiled before its first chart on `url`.
async function ran(browser, url) {
  const path = join(tmpdir(), `roofline-split-bound-${process.pid}.json`);
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  try {
    await browser.startTracing(page, { path, categories: ['v8.wasm', 'disabled-by-default-v8.wasm'] });
    await page.goto(url);
    // Traced until the app's first chart is drawn (the end of its first `roofline:render`
    // measure, as phone-budgets.mjs times it): what compiled by then ran before it.
    await page.waitForFunction(() => performance.getEntriesByName('roofline:render').length > 0, null, { timeout: 120_000 });
    await browser.stopTracing();
    const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents;
    const lazy = events.filter((e) => e.name === 'wasm.CompileLazy');
    return new Set(lazy.map((e) => e.args?.func_index ?? e.args?.data?.func_index).filter((i) => bodies.has(i)));
  } finally {
    rmSync(path, { force: true });
    await context.close();
  }
}

const hash = nerscLink(root);
const site = await serve(dist, 0, '/roofline/', { gzip: true });
const browser = await launch();
const whole = gz(bytes);
const allCode = [...bodies.values()].reduce((a, [s, e]) => a + e - s, 0);
console.log(`${appWasm}: ${bodies.size} functions, ${kb(allCode)} of code, ${kb(data.length)} of data; ${kb(whole)} gzipped (${ms(whole).toFixed(0)} ms on ${THROTTLING.downloadThroughput * 8 / 1024} kbit/s)\n`);
console.log('| page | functions run before the first chart | their code | gzipped with the data: a perfect split\'s first module | on the phone\'s network | the whole module |');
console.log('| --- | --- | --- | --- | --- | --- |');
try {
  for (const [what, url] of [['bare page', site.url], ["a shared link's page", site.url + hash]]) {
    const run = await ran(browser, url);
    const parts = [...run].sort((a, b) => a - b).map((i) => bytes.subarray(...bodies.get(i)));
    const code = parts.reduce((a, p) => a + p.length, 0);
    const bound = gz(Buffer.concat([...parts, data]));
    console.log(`| ${what} | ${run.size} of ${bodies.size} | ${kb(code)} of ${kb(allCode)} | ${kb(bound)} | ${ms(bound).toFixed(0)} ms | ${kb(whole)}, ${ms(whole).toFixed(0)} ms |`);
  }
} finally {
  await browser.close();
  site.server.close();
}
