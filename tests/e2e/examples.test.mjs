// Built-in examples and exports, end to end: click each example (file examples are fetched from
// the site's own origin under /roofline/examples/), see its kernels in the table with no console
// errors or foreign requests, then download each export and check the file's first bytes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startSite, launch, openPage, waitForChart, tableText, settled } from './helpers.mjs';
import { MENUS, openMenu } from './menus.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };

// id → text the table must show, and the number of rows.
const EXAMPLES = [
  ['course-v100', /ax_kernel/, 2],
  // Optimisation paths show their last step; earlier steps are runs (compare.test.mjs).
  ['berkeleygw-gpp', /GPP/, 1],
  ['nsight-gpp', /GPP mini-app kernel/, 1],
  ['ncu-nsightful', /copy_blocked/, 1],
  ['nvprof-magus', /mysgemmNT/, 1],
  ['omniperf-mi200', /vecCopy/, 1],
];

async function pickExample(page, id) {
  await openMenu(page, MENUS.data);
  const button = page.locator(`button[data-example="${id}"]`);
  // Its accessible description is the example's source line.
  const described = await button.getAttribute('aria-describedby');
  assert.ok(described && (await page.locator(`#${described}`).innerText()).length > 20, id);
  await button.click();
}

test('each built-in example loads its kernels, with its source shown', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  const fetched = [];
  page.on('response', (r) => { if (r.url().includes('/examples/')) fetched.push([r.url(), r.status()]); });
  for (const [id, name, rows] of EXAMPLES) {
    await pickExample(page, id);
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('table.kernels tbody').innerText), name.source);
    await waitForChart(page);
    const table = await tableText(page);
    assert.match(table, name, id);
    assert.equal(await page.locator('table.kernels tbody tr').count(), rows, id);
    assert.match(await page.locator('.source').innerText(), /^(Example|Real profile)/, id);
    assert.equal(await page.locator('[role=alert]').isVisible(), false, id);
  }
  // File examples come from the site itself, under its path prefix.
  assert.ok(fetched.length >= 5, JSON.stringify(fetched));
  for (const [url, status] of fetched) {
    assert.ok(url.startsWith(`${site.url}examples/`), url);
    assert.equal(status, 200, url);
  }
  // The AMD example brings its measured roofline as the machine.
  assert.match(await page.locator('footer').innerText(), /AMD GPU 0/);
  assert.deepEqual(problems, clean);
  await context.close();
});

test('the machine editor switches clock and peaks and edits a bandwidth', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await openMenu(page, MENUS.machine);
  await page.locator('select[aria-label="Machine"]').selectOption('v100');
  await page.locator('select[aria-label="Clock"]').selectOption('base');
  await page.waitForFunction(() => document.querySelector('footer').innerText.includes('1312 MHz'));
  await page.locator('select[aria-label="Peaks: data sheet or measured"]').selectOption('theoretical');
  await page.locator('.ceiling-editor summary').click();
  const hbm = page.locator('input[aria-label="HBM bandwidth, GB/s"]');
  assert.equal(await hbm.inputValue(), '900');
  const before = await page.evaluate(() => document.querySelector('#roofline-canvas').toDataURL());
  await hbm.fill('450');
  await hbm.press('Enter');
  await page.waitForFunction(() => document.querySelector('footer').innerText.includes('(edited)'));
  const after = await page.evaluate(() => document.querySelector('#roofline-canvas').toDataURL());
  assert.notEqual(after, before, 'the chart moved');
  // The link carries the edited machine.
  assert.match(page.url(), /#v1\./);
  assert.deepEqual(problems, clean);
  await context.close();
});

const EXPORTS = [
  ['roofline.png', (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))],
  ['roofline.svg', (b) => b.toString('utf8').startsWith('<svg xmlns="http://www.w3.org/2000/svg"') && b.toString('utf8').includes('HBM 828 GB/s')],
  ['kernels.csv', (b) => b.toString('utf8').startsWith('kernel,launches,time [s],FLOPs [FLOP]') && b.toString('utf8').trim().split('\r\n').length === 3],
  ['kernels.json', (b) => JSON.parse(b.toString('utf8')).kernels.length === 2],
  ['view.roofline.json', (b) => b.toString('utf8').trimStart().startsWith('{') && b.toString('utf8').includes('roofline_view')],
];

test('every export downloads a file of its kind', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await pickExample(page, 'course-v100');
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('gemm'));
  await settled(page);
  for (const [name, check] of EXPORTS) {
    await openMenu(page, MENUS.export);
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`button[data-export="${name}"]`).click()]);
    assert.equal(download.suggestedFilename(), name);
    const bytes = await readFile(await download.path());
    assert.ok(check(bytes), `${name}: ${bytes.subarray(0, 60).toString('latin1')}`);
    if (name === 'roofline.png') {
      // 2×: IHDR width and height are twice the on-screen canvas' CSS size, plus the slide
      // frame's footer (engine chart::caption: machine and source, then the link; 12 + 2 × 17
      // + 6 = 52 px) under the chart.
      const css = await page.evaluate(() => { const c = document.querySelector('#roofline-canvas'); return [c.clientWidth, c.clientHeight]; });
      assert.deepEqual([bytes.readUInt32BE(16), bytes.readUInt32BE(20)], [css[0] * 2, (css[1] + 52) * 2]);
    }
  }
  assert.deepEqual(problems, clean);
  await context.close();
});
