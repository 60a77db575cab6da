// Issue 5's acceptance in Chromium, on real files from ../shared/samples: load by input and by
// drop, switch every mode, hover shows a tooltip with the kernel's numbers, zoom changes the
// axes, keyboard shortcuts, a bad file keeps the old chart, no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startSite, launch, openPage, waitForChart, settled, settledAddress, canvasData, tableText, SAMPLES, NERSC_RUN } from './helpers.mjs';
import { MENUS, openMenu } from './menus.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const NCU = join(SAMPLES, 'ncu');
const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };

const axes = (page) => page.getAttribute('#roofline-canvas', 'data-axes');
const dots = (page) => page.$$eval('.chart-dots li', (lis) => lis.map((li) => ({ k: li.dataset.kernel, x: +li.dataset.x, y: +li.dataset.y, text: li.textContent })));

/// Drops files on the page the way a browser does: a drop event carrying a DataTransfer.
async function dropFiles(page, paths) {
  const files = paths.map((p) => ({ name: p.split('/').pop(), text: readFileSync(p, 'utf8') }));
  const dt = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([f.text], f.name, { type: 'text/csv' }));
    return dt;
  }, files);
  await page.dispatchEvent('.app', 'drop', { dataTransfer: dt });
}

test('load by drop, hover a dot for its numbers, click selects it in the table', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await dropFiles(page, NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma_implicit_gemm'));
  await settled(page);
  await waitForChart(page);
  const ds = await dots(page);
  assert.ok(ds.length >= 20, `dots drawn: ${ds.length}`);
  // The dots reach assistive technology: in Chromium's accessibility tree the list, named, has
  // one item per dot with its text (its markers are off, app/style.css; `content-visibility`,
  // tried there, took the items out of this tree).
  const cdp = await context.newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const list = nodes.find((n) => n.role?.value === 'list' && n.name?.value === 'Points on the chart');
  const items = (list?.childIds ?? []).map((id) => byId.get(id)).filter((n) => n?.role?.value === 'listitem' && !n.ignored);
  assert.equal(items.length, ds.length, 'one list item a dot');
  const textOf = (n) => (n.childIds ?? []).map((id) => byId.get(id)).map((c) => c?.name?.value ?? '').join('');
  assert.equal(textOf(items[0]), ds[0].text);
  const gemm = ds.find((d) => d.text.includes('Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1'));
  assert.ok(gemm, 'the hmma kernel has a dot');
  const box = await page.locator('#roofline-canvas').boundingBox();
  await page.mouse.move(box.x + gemm.x, box.y + gemm.y);
  const tip = page.locator('.tooltip');
  await tip.waitFor({ state: 'visible' });
  const tipText = await tip.innerText();
  assert.match(tipText, /Volta_hmma_implicit_gemm/);
  assert.match(tipText, /time: 65\.9 ms/, tipText);          // Σ over its 8 launches of cycles / clock = 0.0659286 s (engine/tests/import_samples.rs)
  assert.match(tipText, /bound by/);
  await page.mouse.down();
  await page.mouse.up();
  await page.waitForSelector('table.kernels tr.selected');
  assert.match(await page.locator('table.kernels tr.selected').innerText(), /Volta_hmma_implicit_gemm/);
  assert.match(await page.locator('.summary-panel').innerText(), /Volta_hmma_implicit_gemm/);
  assert.deepEqual(problems, clean);
  await context.close();
});

test('every mode draws, by click and by keys 1–5', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  const seen = new Set();
  for (const [i, name] of ['Classic', 'Hierarchical', 'Instruction', 'Memory walls', 'Transfers'].entries()) {
    await page.getByRole('tab', { name }).click();
    await waitForChart(page);
    assert.equal(await page.getAttribute(`[role=tab]:nth-child(${i + 1})`, 'aria-selected'), 'true');
    seen.add(await canvasData(page));
    await page.locator('body').press(String(((i + 1) % 5) + 1));
    await page.waitForTimeout(50);
  }
  assert.equal(seen.size, 5, 'five different charts');
  assert.match(page.url(), /#v1\./);
  assert.deepEqual(problems, clean);
  await context.close();
});

test('zoom changes the axes: wheel, keys and reset', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  const before = await axes(page);
  const box = await page.locator('#roofline-canvas').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -300);
  await page.waitForFunction((b) => document.querySelector('#roofline-canvas').dataset.axes !== b, before);
  const zoomed = await axes(page);
  const span = (a) => { const [, x0, x1] = a.match(/x (\S+)\.\.(\S+) y/); return Math.log10(+x1 / +x0); };
  assert.ok(span(zoomed) < span(before), `${zoomed} is narrower than ${before}`);
  await page.locator('body').press('0');
  await page.waitForFunction((b) => document.querySelector('#roofline-canvas').dataset.axes === b, before);
  await page.locator('body').press('+');
  await page.waitForFunction((b) => document.querySelector('#roofline-canvas').dataset.axes !== b, before);
  // `+` narrows each axis 1.25× in log space about its middle (the plot's centre).
  const logs = (a) => a.match(/x (\S+)\.\.(\S+) y (\S+)\.\.(\S+)/).slice(1).map((v) => Math.log10(+v));
  const [b, k] = [logs(before), logs(await axes(page))];
  for (const i of [0, 2]) {
    assert.ok(Math.abs((k[i + 1] - k[i]) - (b[i + 1] - b[i]) / 1.25) < 1e-5, `span ${k} against ${b}`);
    assert.ok(Math.abs((k[i] + k[i + 1]) - (b[i] + b[i + 1])) < 1e-5, `middle ${k} against ${b}`);
  }
  // Reset zoom is in the Chart menu.
  await openMenu(page, MENUS.chart);
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  assert.equal(await axes(page), before);
  assert.deepEqual(problems, clean);
  await context.close();
});

test('filter, top-N, sorting and arrow keys', async () => {
  const { context, page } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  await page.locator('body').press('/');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'kernel-filter');
  await page.keyboard.type('hmma|s884');
  await page.waitForFunction(() => document.querySelectorAll('table.kernels tbody tr').length < 20);
  const rows = await page.$$eval('table.kernels tbody tr', (trs) => trs.map((t) => t.cells[0].title));
  assert.ok(rows.length > 0 && rows.every((n) => /hmma|s884/i.test(n)), rows.join('\n'));
  await page.fill('#top-n', '2');
  await page.waitForFunction(() => document.querySelectorAll('table.kernels tbody tr').length === 2);
  await page.locator('#roofline-canvas').focus();
  await page.keyboard.press('ArrowDown');
  await page.waitForSelector('table.kernels tr.selected');
  // Default sort is by time, longest first: the first row is the longest kernel.
  const first = await page.$eval('table.kernels tbody tr', (t) => t.cells[0].title);
  assert.equal(await page.$eval('table.kernels tr.selected', (t) => t.cells[0].title), first);
  await page.locator('body').press('?');
  await page.getByRole('dialog').waitFor({ state: 'visible' });
  await page.locator('body').press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
  await context.close();
});

test('a bad dropped file shows role=alert and the old chart stays', async () => {
  const { context, page } = await openPage(browser, site.url);
  const before = await canvasData(page);
  await dropFiles(page, [join(NCU, 'Roofline-Analysis__decodebench_results_ncu_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64.ncu.csv')]);
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  assert.match(await alert.innerText(), /flashinfer.*line 35/s);
  assert.equal(await canvasData(page), before);
  assert.match(await tableText(page), /ax_kernel/);
  await context.close();
});

test('dark theme follows the switch and the address', async () => {
  const { context, page } = await openPage(browser, site.url);
  const light = await canvasData(page);
  await page.getByRole('button', { name: /Theme:/ }).click(); // system → light
  await page.getByRole('button', { name: /Theme:/ }).click(); // light → dark
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await waitForChart(page);
  assert.notEqual(await canvasData(page), light);
  const fresh = await openPage(browser, await settledAddress(page));
  assert.equal(await fresh.page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  await fresh.context.close();
  await context.close();
});

test('pasted CSV text is analysed like a file', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await openMenu(page, MENUS.data);
  await page.locator('.paste-box summary').click();
  // A tidy CSV (docs/FORMATS.md): AX on a V100 as in the course slides.
  await page.fill('#paste-text', 'kernel,time_s,flops_fp64,bytes_dram\npasted_ax,0.010582,500000000,8000000000\n');
  await page.getByRole('button', { name: 'Analyse pasted text' }).click();
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('pasted_ax'));
  await settled(page);
  const row = await page.locator('table.kernels tbody tr').first().innerText();
  assert.match(row, /47\.3 GFLOP\/s/, row);   // 5e8 FLOP / 0.010582 s = 47.25 GFLOP/s
  assert.match(row, /0\.062/, row);           // 1/16 FLOP/byte
  assert.equal(await page.locator('.source').innerText(), 'pasted text');
  assert.deepEqual(problems, clean);
  await context.close();
});

test('a downloaded .roofline.json view file restores the whole view by drop', async () => {
  const { context, page } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  await page.getByRole('tab', { name: 'Hierarchical' }).click();
  await page.fill('#kernel-filter', 'volta');
  await page.waitForFunction(() => document.querySelectorAll('table.kernels tbody tr').length < 20);
  await waitForChart(page);
  const chart = await canvasData(page);
  const table = await tableText(page);
  await openMenu(page, MENUS.export);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /View file/ }).click()]);
  const path = await download.path();

  const fresh = await openPage(browser, site.url);
  await dropFiles(fresh.page, [path]);
  await fresh.page.waitForFunction(() => document.querySelector('[role=tab][aria-selected=true]').textContent === 'Hierarchical');
  await waitForChart(fresh.page);
  assert.equal(await fresh.page.inputValue('#kernel-filter'), 'volta');
  assert.equal(await tableText(fresh.page), table);
  assert.equal(await canvasData(fresh.page), chart, 'identical canvas pixels');
  assert.deepEqual(fresh.problems, clean);
  await fresh.context.close();
  await context.close();
});

test('a file lacking counters loads with a warning naming the missing metrics', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  // One metric of the NERSC run: DRAM bytes only, no time or FLOPs.
  await page.setInputFiles('#file-input', NERSC_RUN.find((f) => f.endsWith('dram__bytes.sum')));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Eigen'));
  await settled(page);
  const warnings = page.locator('.warnings');
  await warnings.waitFor({ state: 'visible' });
  // A short sentence; the metrics and the command behind "Details".
  assert.match(await warnings.innerText(), /^This file has byte counts but no time or FLOP counters/);
  await warnings.locator('details summary').first().click();
  const text = await warnings.innerText();
  assert.match(text, /Missing:[\s\S]*sm__cycles_elapsed\.avg\.per_second/, text);
  assert.match(text, /ncu .*--metrics/, text);
  assert.equal(await page.locator('[role=alert]').isVisible(), false, 'a warning, not an error');
  assert.deepEqual(problems, clean);
  await context.close();
});

/// Loads 10,000 kernels of a tidy CSV: kernel i runs 1 + i µs, with DRAM bytes, and L2 and
/// L1 bytes too where `levels` (a hierarchical chart of 30,000 dots).
async function loadTenThousand(page, { levels = false } = {}) {
  const rows = [`kernel,time_s,flops_fp32,bytes_dram${levels ? ',bytes_l2,bytes_l1' : ''}`];
  for (let i = 0; i < 10_000; i++) {
    const more = levels ? `,${2e8 * (1 + (i % 97))},${4e8 * (1 + (i % 53))}` : '';
    rows.push(`kernel_${i},${(1 + i) * 1e-6},${1e9 * (1 + (i % 389))},${1e8 * (1 + (i % 211))}${more}`);
  }
  await page.setInputFiles('#file-input', { name: 'kernels-10000.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
  await page.waitForFunction(() => document.querySelector('.table-tools .count')?.textContent.includes('10000 kernels'), null, { timeout: 120_000 });
  await settled(page);
}

test('a table of 10,000 kernels renders the rows in view, and every row is reached by scrolling', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  // Sorted by time (the default, longest first), row r is kernel 9999 − r.
  await loadTenThousand(page);
  const shown = () => page.$$eval('table.kernels tbody tr', (trs) => trs.map((tr) => ({ index: +tr.getAttribute('aria-rowindex'), name: tr.cells[0].textContent })));
  assert.equal(await page.getAttribute('table.kernels', 'aria-rowcount'), '10001');
  assert.ok(await page.$eval('table.kernels', (t) => t.classList.contains('windowed')));
  let rendered = await shown();
  // The window: 25 to 49 rows above the first in view, to the last row the box can show (its
  // greatest height is 75 % of the window's; app/src/kernel_table.rs). 77 rows at 1200 × 900,
  // 52 while the first row in view is one of the first 25.
  const { scrollHeight, rowPx, innerHeight } = await page.$eval('.table-scroll', (el) => ({ scrollHeight: el.scrollHeight, rowPx: el.querySelector('tbody tr').getBoundingClientRect().height, innerHeight }));
  const most = 49 + Math.ceil((0.75 * innerHeight) / rowPx) + 1;
  // The load's first show: the first step's window, 24 rows past the rows in view (52).
  const firstStep = 24 + Math.ceil((0.75 * innerHeight) / rowPx) + 1;
  assert.ok(rendered.length <= firstStep && firstStep < most, `${rendered.length} rows rendered first, at most ${firstStep}`);
  assert.deepEqual(rendered[0], { index: 2, name: 'kernel_9999' });
  // Its worst place: the first row in view 24 rows into it. Its rows still reach the box's
  // foot, and nothing rendered again.
  await page.$eval('.table-scroll', (el, px) => { el.scrollTop = px; }, Math.round(24.9 * rowPx));
  await page.waitForTimeout(200);
  await settled(page);
  const step = await page.$eval('.table-scroll', (el) => {
    const rows = el.querySelectorAll('tbody tr');
    return { bottom: el.getBoundingClientRect().top + el.clientHeight, last: rows[rows.length - 1].getBoundingClientRect().bottom, rendered: rows.length };
  });
  assert.ok(step.last >= step.bottom - 1 && step.rendered === rendered.length, JSON.stringify(step));
  // The scroll box is as tall as every row: the rows not rendered stand in as spacers.
  assert.ok(Math.abs(scrollHeight - 10_001 * rowPx) < 3 * rowPx, `${scrollHeight} px for rows of ${rowPx} px`);
  // The window's worst place: the first row in view 49 rows into it (row 74, most of it
  // scrolled past). The rendered rows still reach the box's foot, and the scroll stays where
  // it was put (the browser's scroll anchoring, off for the box, ran it on window after window:
  // to row 400 from row 75).
  const worstPx = Math.round(74.9 * rowPx);
  await page.$eval('.table-scroll', (el, px) => { el.scrollTop = px; }, worstPx);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody tr')?.getAttribute('aria-rowindex') === '27');
  await page.waitForTimeout(200);
  await settled(page);
  const worst = await page.$eval('.table-scroll', (el) => {
    const rows = el.querySelectorAll('tbody tr');
    return { bottom: el.getBoundingClientRect().top + el.clientHeight, last: rows[rows.length - 1].getBoundingClientRect().bottom, rendered: rows.length, first: rows[0].getAttribute('aria-rowindex'), scrollTop: el.scrollTop };
  });
  assert.ok(Math.abs(worst.scrollTop - worstPx) <= 1 && worst.first === '27', JSON.stringify(worst));
  assert.ok(worst.last >= worst.bottom - 1 && worst.rendered <= most, JSON.stringify(worst));
  // Half-way down and at the end: the rows in view are rendered, in order, with their places.
  for (const [to, row] of [[0.5, 5_000], [1, 9_999]]) {
    await page.$eval('.table-scroll', (el, to) => { el.scrollTop = to * (el.scrollHeight - el.clientHeight); }, to);
    await page.waitForFunction((want) => [...document.querySelectorAll('table.kernels tbody tr')].some((tr) => tr.getAttribute('aria-rowindex') === String(want)), row + 2 - (to === 1 ? 0 : 10));
    rendered = await shown();
    assert.ok(rendered.length <= most, `${rendered.length} rows rendered`);
    rendered.forEach((r, k) => assert.deepEqual(r, { index: rendered[0].index + k, name: `kernel_${9999 - (rendered[0].index - 2 + k)}` }));
    const inView = await page.$eval('.table-scroll', (el) => {
      const box = el.getBoundingClientRect();
      return [...el.querySelectorAll('tbody tr')].filter((tr) => { const r = tr.getBoundingClientRect(); return r.bottom > box.top + 40 && r.top < box.bottom; }).map((tr) => +tr.getAttribute('aria-rowindex'));
    });
    assert.ok(inView.length > 5, `rows in view: ${inView}`);
    if (to === 1) assert.equal(inView.at(-1), 10_001);
    // No gap: the rendered rows reach from under the sticky header to the box's foot.
    const cover = await page.$eval('.table-scroll', (el) => {
      const box = el.getBoundingClientRect();
      const head = el.querySelector('thead th').getBoundingClientRect().bottom;
      const rows = el.querySelectorAll('tbody tr');
      return { head, bottom: box.top + el.clientHeight, first: rows[0].getBoundingClientRect().top, last: rows[rows.length - 1].getBoundingClientRect().bottom };
    });
    assert.ok(cover.first <= cover.head + 1 && cover.last >= cover.bottom - 1, JSON.stringify(cover));
  }
  // A click on a rendered row selects its kernel, as in a short table.
  await page.locator('table.kernels tbody tr').last().click();
  assert.equal(await page.$eval('table.kernels tr.selected', (t) => t.cells[0].textContent), 'kernel_0');
  // Scrolled back to the top, ↑ selects the row before the last: the box scrolls to it.
  await page.$eval('.table-scroll', (el) => { el.scrollTop = 0; });
  await page.waitForFunction(() => !document.querySelector('table.kernels tr.selected'));
  await page.locator('body').press('ArrowUp');
  await page.waitForFunction(() => document.querySelector('table.kernels tr.selected')?.cells[0].textContent === 'kernel_1');
  const selectedInView = await page.$eval('.table-scroll', (el) => {
    const box = el.getBoundingClientRect(), r = el.querySelector('tr.selected').getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom + 1;
  });
  assert.ok(selectedInView, 'the selected row is in the box');
  assert.deepEqual(problems, clean);
  await context.close();
});

test('zoom and pan of a chart slow to redraw: frames moved from the last exact image, then the exact chart', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await loadTenThousand(page, { levels: true });
  await page.getByRole('tab', { name: 'Hierarchical' }).click();
  await waitForChart(page);
  await page.waitForTimeout(300);
  // 30,000 dots: on this project's machines the exact redraw (its scene and paint) takes over
  // 10 ms (gesture_frames.rs's PREVIEW_ABOVE_MS), so a gesture's frames move the last exact
  // image. Where a machine redraws faster, every frame is exact and the frames are not checked.
  const exactMs = await page.evaluate(() => ['roofline:scene', 'roofline:paint'].reduce((sum, n) => sum + performance.getEntriesByName(n).at(-1).duration, 0));
  const parse = (a) => a.match(/x (\S+)\.\.(\S+) y (\S+)\.\.(\S+)/).slice(1).map(Number);
  const before = parse(await axes(page));
  const box = await page.locator('#roofline-canvas').boundingBox();
  const count = (name) => page.evaluate((n) => performance.getEntriesByName(n).length, name);
  const [renders0, previews0] = [await count('roofline:render'), await count('roofline:preview')];
  const pixels0 = await canvasData(page);
  // A drag of 100 px right in 5 steps, one per frame: every step pans from what is on screen.
  await page.evaluate(async ({ cx, cy }) => {
    const c = document.querySelector('#roofline-canvas');
    const at = (x, y, extra = {}) => ({ bubbles: true, cancelable: true, clientX: x, clientY: y, ...extra });
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    c.dispatchEvent(new MouseEvent('mousedown', at(cx, cy, { button: 0 })));
    for (let i = 1; i <= 5; i++) {
      await frame();
      c.dispatchEvent(new MouseEvent('mousemove', at(cx + 20 * i, cy, { buttons: 1 })));
    }
    await frame();
    c.dispatchEvent(new MouseEvent('mouseup', at(cx + 100, cy, { button: 0 })));
  }, { cx: box.x + box.width / 2, cy: box.y + box.height / 2 });
  if (exactMs > 10) {
    const moved = await count('roofline:preview') - previews0;
    assert.ok(moved >= 4, `the drag is drawn as moved frames: ${moved} of 5 after an exact redraw of ${exactMs} ms`);
    assert.equal(await count('roofline:render'), renders0, 'no exact redraw during the drag');
    assert.notDeepEqual(await canvasData(page), pixels0, 'the frames moved the image');
    // The exact chart follows the pause (120 ms).
  }
  await page.waitForFunction((n) => performance.getEntriesByName('roofline:render').length > n, renders0);
  const after = parse(await axes(page));
  // 100 px of a plot (the canvas less its 64 px and 20 px margins) moved the x range down by
  // that share of its decades; y is unchanged.
  const plotPx = box.width - 64 - 20;
  const decades = Math.log10(before[1]) - Math.log10(before[0]);
  const shift = Math.log10(before[0]) - Math.log10(after[0]);
  assert.ok(Math.abs(shift - (100 / plotPx) * decades) < 1e-6, `shifted ${shift} decades, expected ${(100 / plotPx) * decades}`);
  assert.ok(Math.abs(Math.log10(after[1]) - Math.log10(after[0]) - decades) < 1e-6, 'the same span');
  assert.deepEqual(after.slice(2), before.slice(2));
  // The exact chart's dots answer the pointer again.
  const d = (await dots(page)).find((d) => !d.text.includes('no FLOPs'));
  await page.mouse.move(box.x + d.x, box.y + d.y);
  await page.locator('.tooltip').waitFor({ state: 'visible' });
  // A wheel notch in, at the centre: a frame at once, the exact chart 1.25× narrower after.
  const [renders1, previews1] = [await count('roofline:render'), await count('roofline:preview')];
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -100);
  await page.waitForFunction((n) => performance.getEntriesByName('roofline:render').length > n, renders1);
  if (exactMs > 10) assert.equal(await count('roofline:preview'), previews1 + 1, 'one frame for the notch');
  const zoomed = parse(await axes(page));
  const span = (a, b) => Math.log10(b) - Math.log10(a);
  assert.ok(Math.abs(span(zoomed[0], zoomed[1]) * 1.25 - span(after[0], after[1])) < 1e-6, `x ${zoomed}`);
  assert.deepEqual(problems, clean);
  await context.close();
});
