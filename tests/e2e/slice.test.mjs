// Issue 2's end-to-end slice: open the site (under /roofline/), pick real Nsight Compute files
// with the page's file input, see the kernels, and reopen the page address in a fresh browser
// context to get the identical chart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startSite, launch, openPage, waitForChart, settledAddress, canvasData, tableText, SAMPLES, settled, NERSC_RUN } from './helpers.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const NCU = join(SAMPLES, 'ncu');

test('opens with the built-in example drawn, no console errors, no foreign requests', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  assert.equal(await page.title(), 'Roofline Explorer');
  assert.match(await tableText(page), /ax_kernel/);
  assert.match(await tableText(page), /gemm/);
  // The example draws two dots: the scene's hit areas are exposed through the canvas' aria-label.
  assert.match(await page.getAttribute('#roofline-canvas', 'aria-label'), /2 kernels on NVIDIA V100/);
  assert.match(page.url(), /#v1\./, 'the address holds the view');
  const icon = await page.evaluate(() => document.querySelector('link[rel=icon]').href);
  assert.ok(icon.startsWith(site.url), icon);
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('picking Nsight Compute files lists kernels and the address reopens the same chart', async () => {
  assert.equal(NERSC_RUN.length, 5, 'the five one-metric files of the NERSC run');
  const { context, page, problems } = await openPage(browser, site.url);
  const before = await canvasData(page);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma_implicit_gemm'));
  await settled(page);
  await waitForChart(page);
  const table = await tableText(page);
  assert.match(table, /Eigen::internal::EigenMetaKernel/);
  const chart = await canvasData(page);
  assert.notEqual(chart, before, 'the chart changed');
  const url = await settledAddress(page);
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/roofline\/#v1\./);
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });

  // A fresh context: no shared storage, only the address.
  const fresh = await openPage(browser, url);
  await fresh.page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma_implicit_gemm'));
  await settled(fresh.page);
  await waitForChart(fresh.page);
  assert.equal(await tableText(fresh.page), table);
  assert.equal(await canvasData(fresh.page), chart, 'identical canvas pixels');
  assert.deepEqual(fresh.problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await fresh.context.close();
  await context.close();
});

test('a single details-page file shows its kernel name in the table', async () => {
  const { context, page } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', join(NCU, 'nsightful__tests_copy_blocked.csv'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('copy_blocked'));
  await settled(page);
  await context.close();
});

test('a bad file shows role=alert naming the file, and the previous chart stays', async () => {
  const { context, page } = await openPage(browser, site.url);
  const before = await canvasData(page);
  const beforeTable = await tableText(page);
  await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, world\nthis is not a profile\n') });
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.innerText(), /notes\.txt/);
  assert.equal(await canvasData(page), before);
  assert.equal(await tableText(page), beforeTable);
  await context.close();
});

test('a corrupted link shows role=alert and still draws the example', async () => {
  const { context, page } = await openPage(browser, `${site.url}#v1.AAAA!!!`);
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.innerText(), /cannot be opened/);
  assert.match(await tableText(page), /ax_kernel/);
  await context.close();
});
