// Issue 17's first visit: a page opened from a shared link draws the link's chart with the link
// chart (first/, the engine's link codec and chart without the app's view layer), whose wasm
// arrives before the app's is asked for; the app then takes its place with the same pixels at the same
// place, the same sentence above it and no layout shift. A link the link chart cannot draw is
// left to the app, which says why; so is a filter that needs a regex engine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSite, launch, openPage, waitForChart, settledAddress, ROOT, settled, NERSC_RUN } from './helpers.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const fixture = (name) => readFileSync(join(ROOT, 'engine', 'tests', 'fixtures', 'links', name), 'utf8').trim();
const APP_WASM = /roofline-app-[0-9a-f]+_bg\.wasm$/;
const APP_BINDINGS = /roofline-app-[0-9a-f]+\.js$/;
/// In the page: whether the link chart's wasm has arrived.
const linkChartWasmArrived = () => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/roofline-first_bg.wasm') && e.responseEnd > 0);

/// Opens `url` with the app's wasm held back; returns what the link chart drew before the app
/// was asked for, then what the app drew once released.
async function linkThenApp(url, viewport = { width: 1200, height: 900 }) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  let release;
  const released = new Promise((r) => { release = r; });
  let linkChartArrived, bindingsAfterLinkChart;
  await page.route(APP_WASM, async (route) => {
    linkChartArrived = await page.evaluate(linkChartWasmArrived);
    await released;
    await route.continue();
  });
  await page.route(APP_BINDINGS, async (route) => {
    bindingsAfterLinkChart = await page.evaluate(linkChartWasmArrived);
    await route.continue();
  });
  await page.addInitScript(() => {
    window.__shifts = 0;
    new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value; }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:link-chart').length === 1);
  const chart = (selector, note, label) => page.evaluate(([selector, note, label]) => {
    const c = document.querySelector(selector);
    const r = c.getBoundingClientRect();
    return {
      pixels: c.toDataURL('image/png'),
      rect: [r.x, r.y, r.width, r.height].map(Math.round),
      note: document.querySelector(note)?.innerText ?? null,
      machine: document.querySelector(label).textContent,
      theme: document.documentElement.dataset.theme,
    };
  }, [selector, note, label]);
  const first = await chart('#first-paint .fp-link-chart', '#first-paint .machine-note', '#first-paint .machine-menu .menu-label');
  const tab = await page.locator('#first-paint .mode-tab.fp-on').innerText();
  release();
  await waitForChart(page);
  await page.waitForFunction(() => !document.querySelector('#first-paint'));
  const app = await chart('#roofline-canvas', '.machine-note:not([hidden])', '#menu-machine-button .menu-label');
  const appTab = await page.locator('[role=tab][aria-selected=true]').innerText();
  const shifts = await page.evaluate(() => window.__shifts);
  await context.close();
  return { first: { ...first, tab }, app: { ...app, tab: appTab }, linkChartArrived, bindingsAfterLinkChart, shifts, errors };
}

function assertSame({ first, app, linkChartArrived, bindingsAfterLinkChart, shifts, errors }, what) {
  assert.equal(linkChartArrived, true, `${what}: the app's wasm is asked for once the link chart's has arrived`);
  assert.equal(bindingsAfterLinkChart, true, `${what}: and its bindings too (first-paint.js, rooflineAppWanted)`);
  assert.deepEqual(errors, [], what);
  assert.deepEqual(first.rect, app.rect, `${what}: the chart at the same place and size`);
  assert.ok(first.pixels === app.pixels, `${what}: the same pixels`);
  assert.deepEqual({ note: first.note, machine: first.machine, tab: first.tab, theme: first.theme }, { note: app.note, machine: app.machine, tab: app.tab, theme: app.theme }, `${what}: the same sentence, machine, mode and theme`);
  assert.equal(shifts, 0, `${what}: no layout shift`);
}

test('released links: the link chart draws what the app then draws, its wasm before the app’s', async () => {
  for (const name of ['v1-course.txt', 'v1-deeplearning-ncu.txt', 'v1-settings-ert-machine.txt']) {
    const seen = await linkThenApp(`${site.url}#${fixture(name)}`);
    assertSame(seen, name);
  }
  // The deep-learning link is hierarchical: the skeleton's tabs say so before the app does.
  const hier = await linkThenApp(`${site.url}#${fixture('v1-deeplearning-ncu.txt')}`);
  assert.equal(hier.first.tab, 'Hierarchical');
});

test('a profile’s machine sentence, a filter, a selection and the dark theme, on a wide screen and on a phone', async () => {
  // A link made by the app from a real Nsight Compute profile: the machine is chosen from the
  // profile's device, so the sentence above the chart says which GPU and clock.
  const { context, page } = await openPage(browser, site.url);
  const ncu = NERSC_RUN;
  await page.setInputFiles('#file-input', ncu);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  await page.fill('#kernel-filter', 'volta|eigen');
  await page.locator('table.kernels tbody tr').nth(1).click();
  await page.locator('.theme-button').click();
  await page.locator('.theme-button').click();
  await waitForChart(page);
  const link = await settledAddress(page);
  await context.close();
  assert.match(link, /#v1\./);

  const wide = await linkThenApp(link);
  assertSame(wide, 'wide');
  assert.ok(wide.first.note && wide.first.note.length > 10, `the sentence above the chart: ${wide.first.note}`);
  assert.equal(wide.first.theme, 'dark');
  const phone = await linkThenApp(link, { width: 412, height: 823 });
  assertSame(phone, 'phone');
  assert.ok(phone.first.rect[2] < 412, `the phone's chart fits its screen (${phone.first.rect[2]} px)`);
});

test('a filter with regex syntax beyond | is left to the app, which applies it', async () => {
  // The link chart filters by words and `|` only (selection::visible_words: it has no regex
  // engine); `^volta_h` needs one, so the app draws this link's chart, filtered as it was.
  const { context, page } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  await page.fill('#kernel-filter', '^volta_h');
  await waitForChart(page);
  const link = await settledAddress(page);
  const rows = await page.locator('table.kernels tbody tr').allInnerTexts();
  await context.close();
  assert.ok(rows.length > 0 && rows.every((r) => /volta_h/i.test(r)), `the filter keeps the volta_h kernels: ${rows.length} rows`);

  const opened = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const linked = await opened.newPage();
  await linked.goto(link);
  await waitForChart(linked);
  assert.equal(await linked.evaluate(() => performance.getEntriesByName('roofline:link-chart').length), 0, 'nothing drawn by the link chart');
  assert.equal(await linked.locator('#kernel-filter').inputValue(), '^volta_h');
  assert.deepEqual(await linked.locator('table.kernels tbody tr').allInnerTexts(), rows, 'the app shows the same kernels');
  await opened.close();
});

test('a link the link chart cannot draw is left to the app, which says why', async () => {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.url}#v1.AAAA`);
  await waitForChart(page);
  assert.equal(await page.evaluate(() => performance.getEntriesByName('roofline:link-chart').length), 0, 'nothing drawn by the link chart');
  assert.match(await page.locator('[role=alert]').innerText(), /link/i);
  await context.close();
});
