// Issue 6's acceptance in Chromium: a changed view (mode, zoom, selection, filter) reopens
// identically from its address in a fresh context; released link versions keep opening (the
// fixtures in engine/tests/fixtures/links/); a damaged link shows role=alert.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startSite, launch, openPage, waitForChart, settledAddress, canvasData, tableText, ROOT, settled, NERSC_RUN } from './helpers.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const fixture = (name) => readFileSync(join(ROOT, 'engine', 'tests', 'fixtures', 'links', name), 'utf8').trim();
const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };

test('mode, zoom, selection and filter survive the address into a fresh context', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  await page.getByRole('tab', { name: 'Hierarchical' }).click();
  await page.fill('#kernel-filter', 'volta|eigen');
  await page.locator('table.kernels tbody tr').nth(2).click();
  const box = await page.locator('#roofline-canvas').boundingBox();
  await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.4);
  await page.mouse.wheel(0, -200);
  await page.waitForTimeout(100);
  await waitForChart(page);
  const chart = await canvasData(page);
  const table = await tableText(page);
  const selected = await page.locator('table.kernels tr.selected').innerText();
  const axes = await page.getAttribute('#roofline-canvas', 'data-axes');
  assert.deepEqual(problems, clean);

  const fresh = await openPage(browser, await settledAddress(page));
  await fresh.page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]').textContent === 'Hierarchical');
  await waitForChart(fresh.page);
  assert.equal(await fresh.page.getAttribute('#roofline-canvas', 'data-axes'), axes, 'same zoom');
  assert.equal(await fresh.page.inputValue('#kernel-filter'), 'volta|eigen');
  assert.equal(await fresh.page.locator('table.kernels tr.selected').innerText(), selected);
  assert.equal(await tableText(fresh.page), table);
  assert.equal(await canvasData(fresh.page), chart, 'identical canvas pixels');
  assert.deepEqual(fresh.problems, clean);
  await fresh.context.close();
  await context.close();
});

test('released v1 links keep opening', async () => {
  const course = await openPage(browser, `${site.url}#${fixture('v1-course.txt')}`);
  const names = await course.page.$$eval('table.kernels td.name', (tds) => tds.map((td) => td.title));
  assert.ok(names.includes('ax_kernel (x ← αx, n = 5e8)'), names.join(' | '));
  assert.match(await course.page.locator('table.kernels tr.selected').innerText(), /ax_kernel/);
  assert.equal(await course.page.locator('[role=alert]').isVisible(), false);
  assert.deepEqual(course.problems, clean);
  await course.context.close();

  const ncu = await openPage(browser, `${site.url}#${fixture('v1-deeplearning-ncu.txt')}`);
  await ncu.page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]').textContent === 'Hierarchical');
  assert.match(await tableText(ncu.page), /Volta_hmma_implicit_gemm/);
  assert.equal(await ncu.page.locator('table.kernels tbody tr').count(), 20, 'top 20');
  assert.deepEqual(ncu.problems, clean);
  await ncu.context.close();
});

test('a damaged link (one character changed) shows role=alert', async () => {
  const link = fixture('v1-course.txt');
  const i = Math.floor(link.length / 2);
  const damaged = link.slice(0, i) + (link[i] === 'A' ? 'B' : 'A') + link.slice(i + 1);
  const { context, page } = await openPage(browser, `${site.url}#${damaged}`);
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.innerText(), /cannot be opened/);
  await context.close();
});
