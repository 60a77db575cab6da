// Issue 17: files are parsed in a web worker, so the page's main thread stays free while a
// large file loads. Behaviour, not timings (the timings are tests/bench/browser.mjs's): a
// requestAnimationFrame counter keeps ticking during a 50 MB load, the worker did the parsing,
// Cancel ends a load and the page keeps its previous view, and a parse error in the worker
// still shows role="alert" naming the file and the line.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startSite, launch, openPage, tableText, waitForChart, workerReady, SAMPLES, settled, ROOT } from './helpers.mjs';
import { openMenu, MENUS } from './menus.mjs';
import { bigRawPage } from './engines/inputs.mjs';

let site, browser, dir, big;
before(async () => {
  site = await startSite();
  browser = await launch();
  // A 50 MB Nsight Compute raw page: the real sample's preamble, header and units row, then
  // its launches repeated.
  dir = mkdtempSync(join(tmpdir(), 'roofline-worker-'));
  big = join(dir, 'ncu_raw_50MB.csv');
  writeFileSync(big, bigRawPage(50e6));
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
  await settled(page);
  const samples = await page.evaluate(() => { clearInterval(window.__sampler); return window.__samples; });
  const ticks = samples[samples.length - 1] - samples[0];
  assert.ok(samples.length >= 2, 'the load took more than one sample');
  assert.ok(ticks >= 2, `animation frames went on during the load (${ticks} frames over ${samples.length} samples)`);
  assert.ok(page.workers().some((w) => w.url().endsWith('/roofline/parser-loader.js')), 'the parser worker runs');
  assert.match(await page.locator('.source').innerText(), /ncu_raw_50MB\.csv/);
  // The file was read by the slice reader (public/slice-reader.js) while the parser parsed.
  const stats = await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail);
  assert.equal(stats.reader, 'worker');
  // Its 16 MiB slices reach wasm memory a 1 MiB piece at a time (worker/src/slices.rs): the
  // parser's memory stays below one slice (25 MB when each slice was copied whole).
  assert.ok(stats.memory_bytes < 16 * 1024 * 1024, `the parser's wasm memory after the load: ${stats.memory_bytes} bytes`);
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('without its slice reader the worker reads the file itself', async () => {
  // Without the service worker, whose precache would serve the reader's script.
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  const page = await context.newPage();
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  // The reader's script cannot load (as where a browser refuses it): loads still complete. The
  // parser starts its reader when it starts (after the first chart), so it is refused from the start.
  site.refused.add('slice-reader.js');
  try {
    await page.goto(site.url);
    await waitForChart(page);
    await page.setInputFiles('#file-input', big);
    await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('flash'), null, { polling: 20, timeout: 120_000 });
    await settled(page);
  } finally {
    site.refused.delete('slice-reader.js');
  }
  assert.equal(await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail.reader), 'here');
  assert.ok(site.requests.some((u) => u.endsWith('/slice-reader.js')), 'the reader was asked for');
  assert.deepEqual(pageErrors, []);
  await context.close();
});

test('the reader is kept from file to file, and a file given up leaves nothing behind', async () => {
  // A 10 MB raw page whose bytes turn invalid after 6 MB: the parser gives up while the reader
  // has slices of it in flight. The next file, read by the same reader, must not get them.
  const page10 = Buffer.from(bigRawPage(10e6));
  const cut = page10.indexOf(0x22, page10.indexOf(0x0a, 6e6) + 1) + 1; // inside the next row's first cell
  const broken = Buffer.concat([page10.subarray(0, cut), Buffer.from([0xff, 0xfe]), page10.subarray(cut)]);
  const { context, page, problems } = await openPage(browser, site.url);
  // The service worker's precache asks for the reader's script too: let it be done before
  // the reader's requests are counted below (it is registered once the parsers have started).
  await workerReady(page);
  await page.setInputFiles('#file-input', { name: 'broken_raw.csv', mimeType: 'text/csv', buffer: broken });
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible', timeout: 60_000 });
  assert.match(await alert.innerText(), /broken_raw\.csv.*line \d+/s);
  const worker = () => page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail);
  const before = site.requests.filter((u) => u.endsWith('/slice-reader.js')).length;
  await page.setInputFiles('#file-input', { name: 'whole_raw.csv', mimeType: 'text/csv', buffer: page10 });
  await page.waitForFunction(() => document.querySelector('.source')?.innerText.includes('whole_raw.csv'), null, { timeout: 60_000 });
  assert.match(await page.locator('table.kernels tbody').innerText(), /flash/);
  assert.equal((await worker()).reader, 'worker');
  assert.equal(site.requests.filter((u) => u.endsWith('/slice-reader.js')).length, before, 'the same reader read the second file');
  // The same totals as the file's own parse in a fresh page (no slice of the broken file mixed in).
  const table = await tableText(page);
  const fresh = await openPage(browser, site.url);
  await fresh.page.setInputFiles('#file-input', { name: 'whole_raw.csv', mimeType: 'text/csv', buffer: page10 });
  await fresh.page.waitForFunction(() => document.querySelector('.source')?.innerText.includes('whole_raw.csv'), null, { timeout: 60_000 });
  assert.equal(await tableText(fresh.page), table);
  await fresh.context.close();
  // A file of one slice is read by the parser itself.
  await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('copy_blocked'));
  await settled(page);
  assert.equal((await worker()).reader, 'here');
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test('a large file is read by two parsers at once, and shows what one parser shows', async () => {
  // 20 MB: over the size from which the worker asks its second parser for the second half
  // (worker/src/parts.rs). The same text pasted is read by one parser (text in memory is never
  // split): the two tables must be the same (the exact equality is engine/tests/parts.rs's).
  const text = bigRawPage(20e6);
  const { context, page, problems } = await openPage(browser, site.url);
  const worker = () => page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail);
  await openMenu(page, MENUS.data);
  await page.locator('.paste-box summary').click();
  await page.evaluate((t) => { const area = document.querySelector('#paste-text'); area.value = t; area.dispatchEvent(new Event('input', { bubbles: true })); }, text);
  await page.getByRole('button', { name: 'Analyse pasted text' }).click();
  await page.waitForFunction(() => document.querySelector('.source')?.innerText === 'pasted text', null, { timeout: 60_000 });
  assert.equal((await worker()).parts, 1);
  const whole = await tableText(page);
  assert.match(whole, /flash/);
  await page.setInputFiles('#file-input', { name: 'raw_20MB.csv', mimeType: 'text/csv', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelector('.source')?.innerText.includes('raw_20MB.csv'), null, { timeout: 60_000 });
  assert.equal((await worker()).parts, 2, 'the second parser read the second half');
  assert.equal(await tableText(page), whole);
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('on a visit the service worker serves, the workers know their roles: two parsers, no more workers, the wasm compiled off the page', async () => {
  // Every visit after the first is served by the service worker (public/sw.js), and a worker
  // whose script it serves runs at the cached response's address, which has no fragment. When
  // the workers' roles were their fragments (`#part`), each second parser took itself for the
  // page's parser and started one of its own, without end, and a large file waited 4 s for a
  // part that never came; the app's wasm, named in its compile worker's fragment, was fetched
  // and compiled by the page instead. Now the roles are the workers' names.
  const { context, page, problems } = await openPage(browser, site.url);
  await workerReady(page);
  // The workers started from the reload on (Playwright's list of a page's workers may keep
  // the previous visit's).
  const started = [];
  page.on('worker', (w) => started.push(w.url().replace(/^.*\//, '')));
  await page.reload();
  await waitForChart(page);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true, 'the service worker serves this visit');
  assert.equal(await page.evaluate(async () => (await window.rooflineWasm) instanceof WebAssembly.Module), true, "the app's wasm compiled by its worker");
  await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, null, { timeout: 30_000 });
  // A second parser that took itself for the page's parser would start two more workers
  // within 100 ms, and so on.
  await page.waitForTimeout(1000);
  const parsers = () => started.filter((w) => w !== 'wasm-compile.js').sort();
  assert.deepEqual(parsers(), ['parser-loader.js', 'parser-loader.js#part', 'slice-reader.js', 'slice-reader.js'], 'the parser, its second parser and their slice readers');
  await page.setInputFiles('#file-input', { name: 'raw_20MB.csv', mimeType: 'text/csv', buffer: Buffer.from(bigRawPage(20e6)) });
  await page.waitForFunction(() => document.querySelector('.source')?.innerText.includes('raw_20MB.csv'), null, { timeout: 60_000 });
  const stats = await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail);
  assert.equal(stats.parts, 2, 'the second parser read the second half');
  assert.ok(stats.part_wait_ms < 2000, `waited ${stats.part_wait_ms} ms for the second parser`);
  assert.equal(parsers().length, 4, `no worker started since: ${started}`);
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('several files are parsed at once, show what one parser shows, and a broken one is left out, named with its line', async () => {
  // Two 3 MB raw pages picked together (6 MB: over the size from which the worker shares a
  // list with its second parser, worker/src/share.rs): the second parser reads the second
  // file. The same rows pasted as one text are read by one parser: the two tables must be the
  // same (the exact equality, to the bit, is engine/tests/file_read.rs's).
  const a = bigRawPage(3e6);
  const head = a.slice(0, a.indexOf('\n"0","') + 1);
  const { context, page, problems } = await openPage(browser, site.url);
  const worker = () => page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail);
  await openMenu(page, MENUS.data);
  await page.locator('.paste-box summary').click();
  await page.evaluate((t) => { const area = document.querySelector('#paste-text'); area.value = t; area.dispatchEvent(new Event('input', { bubbles: true })); }, a + a.slice(head.length));
  await page.getByRole('button', { name: 'Analyse pasted text' }).click();
  await page.waitForFunction(() => document.querySelector('.source')?.innerText === 'pasted text', null, { timeout: 60_000 });
  assert.equal((await worker()).elsewhere, 0);
  const one = await tableText(page);
  assert.match(one, /flash/);
  const files = [{ name: 'raw_a.csv', mimeType: 'text/csv', buffer: Buffer.from(a) }, { name: 'raw_b.csv', mimeType: 'text/csv', buffer: Buffer.from(a) }];
  await page.setInputFiles('#file-input', files);
  await page.waitForFunction(() => document.querySelector('.source')?.innerText.includes('raw_b.csv'), null, { timeout: 60_000 });
  assert.equal((await worker()).elsewhere, 1, 'the second parser read the second file');
  assert.equal(await tableText(page), one);
  // Invalid UTF-8 in the second file's 40th row (a line counted by hand), read by the second
  // parser: that file is left out, whatever of it was read taken back, and the warning names it
  // and the line, as one parser would; the first file is shown (issue 41).
  const at = [...a.matchAll(/\n/g)][head.split('\n').length - 1 + 39].index + 2; // inside its first cell
  const line = a.slice(0, at).split('\n').length;
  const broken = Buffer.concat([Buffer.from(a.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(a.slice(at))]);
  await page.setInputFiles('#file-input', [files[0], { name: 'raw_broken.csv', mimeType: 'text/csv', buffer: broken }]);
  await page.waitForFunction(() => document.querySelector('.source')?.innerText === 'raw_a.csv', null, { timeout: 60_000 });
  assert.equal((await worker()).elsewhere, 1, 'the second parser read the broken file');
  const warning = page.locator('.warnings[role=status] li', { hasText: 'raw_broken.csv' });
  assert.match(await warning.innerText(), new RegExp(`^Left out raw_broken\\.csv, which could not be read: .*line ${line}\\b`, 's'));
  assert.equal(await page.locator('[role=alert]').isVisible(), false, 'a warning, not an error');
  // raw_a.csv alone: its rows, each launch once (one parser's table of it, pasted).
  const alone = await tableText(page);
  assert.notEqual(alone, one);
  await openMenu(page, MENUS.data);
  if (!(await page.locator('.paste-box').evaluate((d) => d.open))) await page.locator('.paste-box summary').click();
  await page.evaluate((t) => { const area = document.querySelector('#paste-text'); area.value = t; area.dispatchEvent(new Event('input', { bubbles: true })); }, a);
  await page.getByRole('button', { name: 'Analyse pasted text' }).click();
  await page.waitForFunction(() => document.querySelector('.source')?.innerText === 'pasted text', null, { timeout: 60_000 });
  assert.equal(await tableText(page), alone, 'what the broken file read before its break was taken back');
  assert.deepEqual(problems.pageErrors, []);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});

test('Cancel ends a load: no alert, the previous view stays, the next load works', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  const before = await tableText(page);
  // Cancel is clicked as soon as it is shown (a DOM observer in the page): a 50 MB load can end
  // before a poll from here would see the button (seen once on a loaded CI machine).
  await page.evaluate(() => {
    window.__cancelled = new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        const cancel = document.querySelector('.load-cancel');
        // Clicked in a task of its own, as a person's click is, not inside the app's update.
        if (cancel && !cancel.hidden) { observer.disconnect(); setTimeout(() => { cancel.click(); resolve(true); }, 0); }
      });
      observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['hidden'] });
    });
  });
  await page.setInputFiles('#file-input', big);
  assert.equal(await page.evaluate(() => window.__cancelled), true);
  await page.waitForSelector('.load-progress[hidden]', { state: 'attached' });
  await page.waitForTimeout(300);
  assert.equal(await tableText(page), before, 'the example is still shown');
  assert.equal(await page.locator('[role=alert]').isHidden(), true, 'a cancel is not an error');
  // A fresh worker reads the next file.
  await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('copy_blocked'));
  await settled(page);
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

test('a parser stuck starting its own workers is replaced, twice stuck by one that reads alone', async () => {
  // What Firefox 153 does now and then (docs/BROWSERS.md): the parser says "started", then its
  // `new Worker()` never returns. Here the first two parser loaders served say "started" and
  // spin; the page must take each as stuck, start another parser, then a `#solo` one (the same
  // loader, served as it is).
  // Without the service worker, whose precache would serve the loader.
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  const page = await context.newPage();
  const problems = { consoleErrors: [], pageErrors: [] };
  page.on('console', (m) => { if (m.type() === 'error') problems.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  let served = 0;
  site.replaced.set('parser-loader.js', () => (served++ < 2 ? 'postMessage("started"); for (;;) {}' : undefined));
  try {
    await page.goto(site.url);
    await waitForChart(page);
    const picked = Date.now();
    await page.setInputFiles('#file-input', big);
    await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('flash'), null, { polling: 20, timeout: 120_000 });
    await settled(page);
    const waited = Date.now() - picked;
    assert.equal(served, 3, 'two stuck parsers, then the one that reads alone');
    assert.ok(waited < 60_000, `loaded after ${waited} ms`);
  } finally {
    site.replaced.delete('parser-loader.js');
  }
  const detail = await page.evaluate(() => performance.getEntriesByName('roofline:worker').at(-1).detail);
  // The solo parser read the 50 MB itself: no slice reader, no second parser.
  assert.equal(detail.reader, 'here');
  assert.equal(detail.parts, 1);
  assert.ok(page.workers().some((w) => w.url().endsWith('/roofline/parser-loader.js#solo')), 'a #solo parser runs');
  assert.equal(await page.locator('[role=alert]').isHidden(), true, 'no alert');
  assert.deepEqual(problems, { consoleErrors: [], pageErrors: [] });
  await context.close();
});

test('a parser whose wasm cannot be fetched: role=alert says so, and the next load starts a new one', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1, serviceWorkers: 'block' });
  const page = await context.newPage();
  site.refused.add('roofline-worker_bg.wasm');
  try {
    await page.goto(site.url);
    await waitForChart(page);
    const before = await tableText(page);
    await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
    const alert = page.locator('[role=alert]');
    await alert.waitFor({ state: 'visible', timeout: 20_000 });
    assert.match(await alert.innerText(), /nsightful__tests_copy_blocked\.csv: the file reader could not be started \(.+\)/s);
    assert.equal(await tableText(page), before, 'the previous view stays');
  } finally {
    site.refused.delete('roofline-worker_bg.wasm');
  }
  // The same file picked again (the picker was emptied after the failed load, so the browser
  // fires a change for it): a new parser starts and reads it.
  const asked = site.requests.filter((u) => u.endsWith('/parser-loader.js')).length;
  await page.setInputFiles('#file-input', join(SAMPLES, 'ncu', 'nsightful__tests_copy_blocked.csv'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('copy_blocked'), null, { timeout: 20_000 });
  await settled(page);
  // (The new parser, and its second parser: the same loader.)
  assert.ok(site.requests.filter((u) => u.endsWith('/parser-loader.js')).length > asked, 'a new parser was started');
  // (Within a few tasks of the table: after the start, the page's effects may run in tasks of
  // their own, app/src/executor.rs.)
  await page.locator('[role=alert]').waitFor({ state: 'hidden', timeout: 5_000 });
  await context.close();
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
  await settled(page);
  await context.close();
});

test('the SQLite worker is started holding the page’s lock on worker starts, as the service worker is activated', async () => {
  // public/sw-register.js installs and activates the service worker holding the Web Lock
  // `roofline-worker-starts`, and the parser starts its SQLite worker holding it
  // (worker/src/rocpd.rs): in Firefox an activation and a worker being built hang each other.
  // Here the page holds the lock itself: a dropped database waits, without fetching the SQLite
  // worker, until it is released, then reads.
  const { context, page } = await openPage(browser, site.url);
  // What the server is asked from now on (workers' requests included).
  const from = site.requests.length;
  const requests = () => site.requests.slice(from);
  await page.evaluate(() => new Promise((held) => {
    navigator.locks.request('roofline-worker-starts', () => new Promise((release) => { window.__releaseWorkerStarts = release; held(); }));
  }));
  await page.setInputFiles('#file-input', join(ROOT, 'engine', 'tests', 'fixtures', 'rocpd', 'mi300x.db'));
  await page.waitForTimeout(1500);
  assert.deepEqual(requests().filter((u) => /rocpd/.test(u)), [], 'no SQLite worker while the lock is held');
  assert.doesNotMatch(await tableText(page), /dgemm_fp64/);
  await page.evaluate(() => window.__releaseWorkerStarts());
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('dgemm_fp64'), null, { timeout: 60_000 });
  assert.ok(requests().some((u) => /roofline-rocpd_bg\.wasm$/.test(u)), 'the SQLite worker fetched once the lock was released');
  await context.close();
});
