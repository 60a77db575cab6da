// Issue 17: files are parsed in a web worker, so the page's main thread stays free while a
// large file loads. Behaviour, not timings (the timings are tests/bench/browser.mjs's): a
// requestAnimationFrame counter keeps ticking during a 50 MB load, the worker did the parsing,
// Cancel ends a load and the page keeps its previous view, and a parse error in the worker
// still shows role="alert" naming the file and the line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startSite, launch, openPage, tableText, waitForChart, SAMPLES } from './helpers.mjs';
import { openMenu, MENUS } from './menus.mjs';

const RAW = join(SAMPLES, 'ncu', 'Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv');

let site, browser, dir, big;
before(async () => {
  site = await startSite();
  browser = await launch();
  // A 50 MB Nsight Compute raw page: the real sample's preamble, header and units row, then
  // its launches repeated (as engine/examples/make_big_ncu.rs does, without renumbering).
  const lines = readFileSync(RAW, 'utf8').split('\n').filter((l) => l.length > 0);
  const units = lines.findIndex((l) => l.startsWith('""') || l.startsWith('"",'));
  const head = lines.slice(0, units + 1).join('\n') + '\n';
  const rows = lines.slice(units + 1).join('\n') + '\n';
  const copies = Math.ceil((50e6 - head.length) / rows.length);
  dir = mkdtempSync(join(tmpdir(), 'roofline-worker-'));
  big = join(dir, 'ncu_raw_50MB.csv');
  writeFileSync(big, head + rows.repeat(copies));
});
after(async () => {
  await browser?.close();
  site?.server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/// Counts animation frames from now on (window.__frames).
function countFrames(page) {
  return page.evaluate(() => {
    window.__frames = 0;
    const tick = () => { window.__frames += 1; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
}

test('a 50 MB file is parsed in the worker while the page keeps painting frames', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await countFrames(page);
  // Sampled in the page every 20 ms from before the pick until the chart is drawn: the frame
  // counter moves on between samples (the page's own timer, so the samples do not depend on
  // how soon the test's first poll comes).
  assert.ok(!(await tableText(page)).includes('flash'), 'the example shown first has no flash kernel');
  await page.evaluate(() => {
    window.__samples = [window.__frames];
    window.__sampler = setInterval(() => window.__samples.push(window.__frames), 20);
  });
  await page.setInputFiles('#file-input', big);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('flash'), null, { polling: 20, timeout: 120_000 });
  const samples = await page.evaluate(() => { clearInterval(window.__sampler); return window.__samples; });
  const ticks = samples[samples.length - 1] - samples[0];
  assert.ok(samples.length >= 2, 'the load took more than one sample');
  assert.ok(ticks >= 2, `animation frames went on during the load (${ticks} frames over ${samples.length} samples)`);
  assert.ok(page.workers().some((w) => w.url().endsWith('/roofline/roofline-worker_loader.js')), 'the parser worker runs');
  assert.match(await page.locator('.source').innerText(), /ncu_raw_50MB\.csv/);
  // The file was read by the slice reader (public/slice-reader.js) while the parser parsed.
  assert.equal(await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail.reader), 'worker');
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('without its slice reader the worker reads the file itself', async () => {
  // Without the service worker, whose precache would serve the reader's script.
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  await page.goto(site.url);
  await waitForChart(page);
  // The reader's script cannot load (as where a browser refuses it): the load still completes.
  site.refused.add('slice-reader.js');
  try {
    await page.setInputFiles('#file-input', big);
    await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('flash'), null, { polling: 20, timeout: 120_000 });
  } finally {
    site.refused.delete('slice-reader.js');
  }
  assert.equal(await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail.reader), 'here');
  assert.ok(site.requests.some((u) => u.endsWith('/slice-reader.js')), 'the reader was asked for');
  // A file of one slice is read by the parser itself: no reader is started for it.
  const asked = site.requests.filter((u) => u.endsWith('/slice-reader.js')).length;
  await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('copy_blocked'));
  assert.equal(await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail.reader), 'here');
  assert.equal(site.requests.filter((u) => u.endsWith('/slice-reader.js')).length, asked);
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('Cancel ends a load: no alert, the previous view stays, the next load works', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  const before = await tableText(page);
  await page.setInputFiles('#file-input', big);
  await page.waitForSelector('.load-cancel:not([hidden])');
  await page.evaluate(() => document.querySelector('.load-cancel').click());
  await page.waitForSelector('.load-progress[hidden]', { state: 'attached' });
  await page.waitForTimeout(300);
  assert.equal(await tableText(page), before, 'the example is still shown');
  assert.equal(await page.locator('[role=alert]').isHidden(), true, 'a cancel is not an error');
  // A fresh worker reads the next file.
  await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('copy_blocked'));
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('Cancel while the file reader is still starting ends the load', async () => {
  // The worker's wasm arrives late (as on a slow network, or while it compiles): the load waits
  // for the worker to listen, and Cancel must end that wait too.
  site.delays.set('roofline-worker_bg.wasm', 4000);
  try {
    const { context, page, problems } = await openPage(browser, site.url);
    const before = await tableText(page);
    await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
    await page.waitForSelector('.load-cancel:not([hidden])');
    await page.evaluate(() => document.querySelector('.load-cancel').click());
    await page.waitForSelector('.load-progress[hidden]', { state: 'attached', timeout: 2000 });
    assert.equal(await tableText(page), before, 'the example is still shown');
    assert.equal(await page.locator('[role=alert]').isHidden(), true, 'a cancel is not an error');
    assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
    await context.close();
  } finally {
    site.delays.delete('roofline-worker_bg.wasm');
  }
});

test('a parse error in the worker shows role=alert with the file and the line', async () => {
  const { context, page } = await openPage(browser, site.url);
  const before = await tableText(page);
  const bad = 'kernel,time_s,flops_fp32\nk1,0.1,1e9\nk2,not-a-number,2e9\n';
  await page.setInputFiles('#file-input', { name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.innerText(), /broken\.csv, line 3/);
  assert.equal(await tableText(page), before, 'the previous view stays');
  await context.close();
});

test('pasted text is parsed in the worker too', async () => {
  const { context, page } = await openPage(browser, site.url);
  await openMenu(page, MENUS.data);
  await page.locator('.paste-box summary').click();
  await page.fill('#paste-text', 'kernel,time_s,flops_fp32,bytes_dram\npasted_kernel,0.001,2e9,1e8\n');
  await page.getByRole('button', { name: 'Analyse pasted text' }).click();
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('pasted_kernel'));
  await context.close();
});
