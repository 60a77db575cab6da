// Comparing runs (issue 5) in Chromium: open the NERSC Nsight Compute run, add as a second run
// a copy made here with one kernel's time halved, see the Δ column (−50 % time, +100 % FLOP/s
// for that kernel, no change for the others), the tooltip's change, a chart that differs from
// the single run, "Clear runs"; a trajectory example shows its last step's change. No console
// errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, basename } from 'node:path';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { startSite, launch, openPage, waitForChart, canvasData, settled, NERSC_RUN } from './helpers.mjs';
import { MENUS, openMenu, pickExample } from './menus.mjs';

let site, browser, dir;
before(async () => { site = await startSite(); browser = await launch(); dir = mkdtempSync(join(tmpdir(), 'roofline-compare-')); });
after(async () => { await browser?.close(); site?.server.close(); if (dir) rmSync(dir, { recursive: true, force: true }); });

const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };
const HMMA = 'Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1_1x3x3x0x1';
const DELTA_HEADER = 'Δ time / Δ perf vs previous run';

/// The same run with HMMA's elapsed cycles halved: time is Σcycles / clock (NERSC recipe), so
/// its time halves and, its FLOPs unchanged, its FLOP/s doubles. Written to a temp dir.
function fasterRun() {
  return NERSC_RUN.map((path) => {
    let text = readFileSync(path, 'utf8');
    if (path.endsWith('.sm__cycles_elapsed.avg')) {
      let changed = 0;
      text = text.split('\n').map((line) => {
        const fields = line.split('","');
        if (fields.length < 12 || fields[4] !== HMMA) return line;
        const value = Number(fields[fields.length - 1].replace(/[",\r]/g, ''));
        assert.ok(value > 0, line);
        changed += 1;
        fields[fields.length - 1] = `${value / 2}"`;
        return fields.join('","');
      }).join('\n');
      assert.equal(changed, 8, 'eight HMMA launches');
    }
    const out = join(dir, basename(path));
    writeFileSync(out, text);
    return out;
  });
}

const headers = (page) => page.$$eval('table.kernels thead th', (ths) => ths.map((th) => th.textContent.trim()));
const deltaOf = (page, name) => page.locator('table.kernels tbody tr', { hasText: name }).first().locator('td.delta').innerText();

test('add a run: Δ column, tooltip change, arrows on the chart, clear runs', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction((n) => document.querySelector('table.kernels tbody').innerText.includes(n), HMMA);
  await settled(page);
  await waitForChart(page);
  assert.ok(!(await headers(page)).includes(DELTA_HEADER), 'no Δ column with one run');
  // "Add a run…" and "Clear runs" are in the Data menu.
  await openMenu(page, MENUS.data);
  assert.ok(await page.locator('#add-run-input').evaluate((el) => el.closest('label').checkVisibility()));
  assert.equal(await page.locator('.clear-runs').isVisible(), false);
  await page.keyboard.press('Escape');
  const single = await canvasData(page);

  await page.setInputFiles('#add-run-input', fasterRun());
  await page.waitForSelector('table.kernels thead th.delta');
  await waitForChart(page);
  assert.ok((await headers(page)).includes(DELTA_HEADER));
  assert.equal(await deltaOf(page, HMMA), '-50.0% / +100.0%');
  // Every other kernel is unchanged (FLOP/s "–" where a kernel has no FLOPs).
  const others = await page.$$eval('table.kernels tbody tr', (trs, n) => trs.filter((tr) => !tr.innerText.includes(n)).map((tr) => tr.querySelector('td.delta').textContent), HMMA);
  assert.ok(others.length >= 40, `${others.length} other rows`);
  for (const d of others) assert.match(d, /^\+0\.0% \/ (\+0\.0%|–)$/, d);
  assert.match(await page.locator('.runs-status').innerText(), /Comparing 2 runs/);
  await waitForChart(page);
  const compared = await canvasData(page);
  assert.notEqual(compared, single, 'the chart shows the earlier run and arrows');

  // Hover the HMMA dot: the tooltip gives its change.
  const dots = await page.$$eval('.chart-dots li', (lis) => lis.map((li) => ({ x: +li.dataset.x, y: +li.dataset.y, text: li.textContent })));
  const dot = dots.find((d) => d.text.includes(HMMA));
  assert.ok(dot, 'the HMMA kernel has a dot');
  const box = await page.locator('#roofline-canvas').boundingBox();
  await page.mouse.move(box.x + dot.x, box.y + dot.y);
  const tip = page.locator('.tooltip');
  await tip.waitFor({ state: 'visible' });
  assert.match(await tip.innerText(), /vs previous run: time -50\.0%, FLOP\/s \+100\.0%/);
  await page.mouse.move(box.x + 2, box.y + 2);

  // The link carries the runs: a v2 link (docs/SHARING.md); one run again is v1.
  assert.match(page.url(), /#v2\./);
  await openMenu(page, MENUS.data);
  assert.equal(await page.locator('.clear-runs').isVisible(), true);
  await page.locator('.clear-runs').click();
  await page.waitForFunction(() => !document.querySelector('table.kernels thead th.delta'));
  await waitForChart(page);
  assert.equal(await page.locator('.runs-status').isVisible(), false, 'the menu is open: the status is gone, not hidden');
  await page.keyboard.press('Escape');
  assert.notEqual(await canvasData(page), compared, 'one run again: no markers or arrows');
  assert.deepEqual(problems, clean);
  await context.close();
});

test('a trajectory example shows its path; opening files clears it', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await pickExample(page, 'berkeleygw-gpp');
  await page.waitForSelector('table.kernels thead th.delta');
  // v8.abs → v9.block: 0.57 s / 0.62 s − 1 = −8.1 %; (2.00/0.57) / (1.99/0.62) − 1 = +9.3 %.
  assert.equal(await page.locator('table.kernels tbody tr').count(), 1, 'v9, the last step');
  assert.equal(await deltaOf(page, 'GPP'), '-8.1% / +9.3%');
  assert.match(await page.locator('.runs-status').innerText(), /Comparing 9 runs: v1\.collapse3 → .* → v8\.abs → current/);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction((n) => document.querySelector('table.kernels tbody').innerText.includes(n), HMMA);
  await settled(page);
  await page.waitForFunction(() => !document.querySelector('table.kernels thead th.delta'));
  await openMenu(page, MENUS.data);
  assert.equal(await page.locator('.runs-status').isVisible(), false, 'no runs to compare');
  assert.deepEqual(problems, clean);
  await context.close();
});
