// The worker that compiles the app's wasm runs the start's browser-free work once
// (`warm_start`, app/src/warm.rs; public/wasm-compile.js) before it hands the module over, so
// the page's start task does not compile those functions (docs/PERFORMANCE.md, 2026-11-29,
// night). These tests check that `warm_start` calls no import (the worker's imports throw, and
// one called would end the run there) and, in a trace of Chromium's start, that the functions
// it ran are not compiled on the page's main thread while the page's own view code still is;
// the same for `warm_load`, which it runs after handing the module over (a loaded dataset
// shown: the page's first load must not compile the machine choice); and that the app's
// bindings carry V8's compile hint (scripts/postbuild.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startSite, launch, waitForChart, ROOT, SAMPLES } from './helpers.mjs';
import { profileFrameNamer } from '../../scripts/symbols.mjs';

const dist = process.env.ROOFLINE_DIST || join(ROOT, 'dist');
const appWasm = readdirSync(dist).find((f) => /^roofline-app-[0-9a-f]+_bg\.wasm$/.test(f));

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

/// The app's wasm instantiated as the compile worker instantiates it (public/wasm-compile.js):
/// every import throws, and `called` lists the ones a run called.
function throwingInstance() {
  const module = new WebAssembly.Module(readFileSync(join(dist, appWasm)));
  const called = [];
  const imports = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    assert.equal(kind, 'function', `${name}: the worker stubs only function imports`);
    (imports[from] ||= {})[name] = () => { called.push(name); throw new Error(`import ${name}`); };
  }
  return { exports: new WebAssembly.Instance(module, imports).exports, called };
}

test('warm_start runs the example to its end with imports that all throw: it calls none', () => {
  const { exports, called } = throwingInstance();
  assert.equal(typeof exports.warm_start, 'function', 'the app exports warm_start');
  // A second call runs it again in the same instance: it leaves nothing behind that breaks it.
  exports.warm_start();
  exports.warm_start();
  assert.deepEqual(called, []);
  assert.ok(exports.memory.buffer.byteLength < 16 << 20, `the run's memory stays small (${exports.memory.buffer.byteLength} B)`);
});

test('warm_load shows a loaded dataset to its end with imports that all throw: it calls none', () => {
  const { exports, called } = throwingInstance();
  assert.equal(typeof exports.warm_load, 'function', 'the app exports warm_load');
  exports.warm_load();
  assert.deepEqual(called, []);
  assert.ok(exports.memory.buffer.byteLength < 16 << 20, `the run's memory stays small (${exports.memory.buffer.byteLength} B)`);
});

test("the app's bindings open with V8's compile hint, so they are compiled as they load (scripts/postbuild.mjs)", () => {
  const bindings = readdirSync(dist).filter((f) => /^roofline-app-[0-9a-f]+\.js$/.test(f));
  assert.equal(bindings.length, 1);
  assert.ok(readFileSync(join(dist, bindings[0]), 'utf8').startsWith('//# allFunctionsCalledOnLoad\n'), `${bindings[0]} opens with the hint`);
});

/// The app's wasm functions V8 compiled lazily on the page's main thread while `during(page)`
/// ran, by name (a Chromium trace of `v8.wasm`), `before(page)` having run untraced first.
async function compiledOnPageDuring(before, during) {
  const nameOf = profileFrameNamer(dist);
  const path = join(tmpdir(), `roofline-warm-trace-${process.pid}.json`);
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  try {
    await before(page);
    await browser.startTracing(page, { path, categories: ['v8.wasm'] });
    await during(page);
    await browser.stopTracing();
    const events = JSON.parse(readFileSync(path, 'utf8')).traceEvents;
    const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
    return new Set(events
      .filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'wasm.CompileLazy')
      .map((e) => nameOf({ functionName: `wasm-function[${e.args?.func_index ?? e.args?.data?.func_index}]`, url: appWasm })));
  } finally {
    rmSync(path, { force: true });
    await context.close();
  }
}

test("the page's start does not compile what the worker's warm-up ran; it compiles its views", async () => {
  const compiledOnPage = await compiledOnPageDuring(async () => {}, async (page) => {
    await page.goto(site.url);
    await waitForChart(page);
  });
  // The trace sees the page's lazy compiles: the app's view, which the warm-up cannot run.
  assert.ok(compiledOnPage.has('roofline_app::app::__component_app'), `the page compiles its view (${compiledOnPage.size} functions compiled on the page)`);
  for (const warmed of [
    'roofline_engine::chart::build',
    'roofline_engine::chart::classic::build',
    'roofline_engine::report::KernelsReport::step',
    'roofline_engine::domain::short_names::distinct_display_names',
    'roofline_app::chart_view::current_scene',
  ]) {
    assert.ok(!compiledOnPage.has(warmed), `${warmed} was compiled by the worker's warm-up, not on the page`);
  }
});

test("a first load's answer does not compile what the worker's warm_load ran", async () => {
  // An Nsight Compute raw page naming its GPU (an NVIDIA B200): the page chooses the machine
  // for it (the catalogue's name and memory rules) when the parser's answer arrives.
  const file = join(SAMPLES, 'ncu', 'Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv');
  const compiledOnPage = await compiledOnPageDuring(async (page) => {
    await page.goto(site.url);
    await waitForChart(page);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, null, { timeout: 30_000 });
  }, async (page) => {
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => document.querySelector('.source')?.innerText.includes('decodebench'), null, { timeout: 30_000 });
    await waitForChart(page);
  });
  // The answer is still read on the page (serde-wasm-bindgen calls JavaScript).
  assert.ok([...compiledOnPage].some((n) => n.includes('DatasetWire')), `the page compiles the answer's reading (${compiledOnPage.size} functions compiled on the page)`);
  for (const warmed of [
    'roofline_app::app::AppState::decide_machine',
    'roofline_engine::choice::profile_machines',
    'roofline_engine::model::identify::identify',
    'roofline_engine::choice::choose',
  ]) {
    assert.ok(!compiledOnPage.has(warmed), `${warmed} was compiled by the worker's warm_load, not on the page`);
  }
});
