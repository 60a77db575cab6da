// Issue 14 in Chromium: Nsight Compute's own reports (binary `.ncu-rep`, and the 2019
// `.nsight-cuprof-report`) open by the file picker, by drop and by "Add a run…", read from
// 4 MiB slices by the parser worker; ncu's console output
// works in the paste box.
// Real files from ../shared/samples, read in place. Expected values: NVIDIA's reader
// (`ncu_report`) on the same files (engine/tests/import_ncu_rep.rs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { startSite, launch, openPage, waitForChart, tableText, SAMPLES, ROOT, settled } from './helpers.mjs';
import { openMenu, MENUS } from './menus.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const REP = join(SAMPLES, 'ncu-rep');
const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };
const dots = (page) => page.$$eval('.chart-dots li', (lis) => lis.map((li) => li.textContent));

// Each report: a kernel the table must list, and the tool version the file names.
const REPORTS = [
  ['CudaProgramming__profiling_profiles_smemTranspose.ncu-rep', 'transposeSmemUnrollPad', 'Nsight Compute 2023.1.0.0 (build 32376155)'],
  ['Twisty__profile.nsight-cuprof-report', 'GeometryRandomKernel', null],
  ['cs599k__profile.ncu-rep', 'vectorized_elementwise_kernel', 'Nsight Compute 2025.1.0.0 (build 35237751)'],
  ['cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep', 'silu_kernel_non_strided', 'Nsight Compute 2025.1.0.0 (build 35237751)'],
  ['cuda-mlp-inference__report.ncu-rep', 'matrix_addition2D', 'Nsight Compute 2024.2.1.0 (build 34372528)'],
  ['self-join-MiSTIC__profile.out.ncu-rep', 'nodeCalculationsKernel', 'Nsight Compute 2021.2.2.0 (build 30282580)'],
];

/// Drops a binary file on the page as a browser does: a drop event carrying a DataTransfer.
async function dropBinary(page, path) {
  const file = { name: path.split('/').pop(), b64: readFileSync(path).toString('base64') };
  const dt = await page.evaluateHandle((f) => {
    const bin = atob(f.b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], f.name, { type: 'application/octet-stream' }));
    return dt;
  }, file);
  await page.dispatchEvent('.app', 'drop', { dataTransfer: dt });
}

test('every sample report (and a .ncu-repz) opens by the file picker, with its kernels and tool version', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  for (const [file, kernel, tool] of REPORTS) {
    await page.setInputFiles('#file-input', join(REP, file));
    await page.waitForFunction((k) => document.querySelector('table.kernels tbody').innerText.includes(k), kernel);
    await settled(page);
    const source = await page.locator('.source').innerText();
    assert.equal(source, tool ? `${file} (${tool})` : file);
    assert.equal(await page.locator('[role=alert]').isVisible(), false, `${file}: no error`);
  }
  // A zstd-compressed report (`.ncu-repz`, two frames: engine/tests/fixtures/ncu-rep/).
  await page.setInputFiles('#file-input', join(ROOT, 'engine', 'tests', 'fixtures', 'ncu-rep', 'two-frames.ncu-repz'));
  await page.waitForFunction(() => document.querySelector('.source').innerText.startsWith('two-frames.ncu-repz'));
  assert.equal(await page.locator('.source').innerText(), 'two-frames.ncu-repz (Nsight Compute 2099.1.0.0 (build 1))');
  const rows = await page.locator('table.kernels tbody tr').allInnerTexts();
  assert.equal(rows.length, 2, rows.join('\n'));
  // The fixture's values (make_fixtures.py): 2500 ns and 8192 + 8192 bytes, 1500 ns and 4096 + 2048.
  assert.ok(rows.some((r) => /^copy<…>\t1\t2\.50 µs/.test(r) && r.includes('16.4 kB')), rows.join('\n'));
  assert.ok(rows.some((r) => /^scale\t1\t1\.50 µs/.test(r) && r.includes('6.14 kB')), rows.join('\n'));
  assert.deepEqual(problems, clean);
  await context.close();
});

test('a dropped GH200 full-set report draws its kernels in the hierarchical and instruction charts', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  // Reports are read by the parser worker (worker/, issue 17), which is not part of the first
  // visit's module: the page's own wasm has no report reader.
  await dropBinary(page, join(REP, 'cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('silu_kernel_non_strided'));
  await settled(page);
  assert.ok(page.workers().some((w) => w.url().endsWith('/roofline/parser-loader.js')), 'read by the parser worker');
  const rows = await page.locator('table.kernels tbody tr').allInnerTexts();
  assert.equal(rows.length, 2, rows.join('\n'));
  // 2 launches; 153184 + 152000 ns = 305 µs (NVIDIA's reader).
  const silu = rows.find((r) => r.includes('silu_kernel_non_strided'));
  assert.match(silu, /\b2\b/, silu);
  assert.match(silu, /305 µs/, silu);
  // Its own Hopper machine, at the SM clock the report measured (1474285089 Hz, time-weighted
  // over the launches), with the peaks Nsight Compute recorded in it; each kernel judged at
  // its own measured clock (1458 and 1509 MHz), as Nsight Compute judges each launch.
  const sentence = await page.locator('.machine-sentence').innerText();
  assert.equal(sentence, 'Profiled on NVIDIA GH200 480GB (sm_90, 132 SMs) at 1474 MHz measured: roofs of NVIDIA GH200 480GB as Nsight Compute measured it at 1474 MHz (measured); each kernel judged at its own clock, 1458–1509 MHz');
  for (const mode of ['Hierarchical', 'Instruction']) {
    await page.getByRole('tab', { name: mode }).click();
    await waitForChart(page);
    const drawn = await dots(page);
    assert.ok(drawn.some((k) => k.includes('silu_kernel_non_strided')), `${mode}: ${drawn.join(', ')}`);
  }
  assert.deepEqual(problems, clean);
  await context.close();
});

test('"Add a run…" takes a report as the newer run', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', join(REP, 'cs599k__profile.ncu-rep'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('vectorized_elementwise_kernel'));
  await settled(page);
  await page.setInputFiles('#add-run-input', join(REP, 'cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep'));
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('silu_kernel_non_strided'));
  await settled(page);
  await openMenu(page, MENUS.data);
  assert.match(await page.locator('.runs-status').innerText(), /Comparing 2 runs/, 'one earlier run');
  assert.deepEqual(problems, clean);
  await context.close();
});

test("ncu's console output pasted into the paste box lists its 10 launches", async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await openMenu(page, MENUS.data);
  await page.locator('.paste-box summary').click();
  await page.fill('#paste-text', readFileSync(join(SAMPLES, 'ncu', 'cs599k__silu_triton_silu-pytorch-ncu-report.txt'), 'utf8'));
  await page.getByRole('button', { name: 'Analyse pasted text' }).click();
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('silu_kernel'));
  await settled(page);
  const rows = await page.locator('table.kernels tbody tr').allInnerTexts();
  assert.equal(rows.length, 2, rows.join('\n'));
  // 1 launch of 777.95 µs; 9 launches, 582.37 + … + 581.47 = 5235.45 µs (the Duration rows).
  const dist = rows.find((r) => r.includes('distribution_elementwise_grid_stride_kernel'));
  const silu = rows.find((r) => r.includes('silu_kernel'));
  assert.match(dist, /778 µs/, dist);
  assert.match(silu, /\b9\b/, silu);
  assert.match(silu, /5\.24 ms/, silu);
  assert.equal(await page.locator('.source').innerText(), 'pasted text');
  assert.deepEqual(problems, clean);
  await context.close();
});

test('a damaged report shows role=alert naming the file and what was read; the old chart stays', async () => {
  const { context, page } = await openPage(browser, site.url);
  const before = await tableText(page);
  // The first 2000 bytes of a report: the session's first block, no result.
  const cut = readFileSync(join(REP, 'cs599k__profile.ncu-rep')).subarray(0, 2000);
  const dt = await page.evaluateHandle((b64) => {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], 'cut.ncu-rep'));
    return dt;
  }, Buffer.from(cut).toString('base64'));
  await page.dispatchEvent('.app', 'drop', { dataTransfer: dt });
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  const text = await alert.innerText();
  assert.match(text, /cut\.ncu-rep/, text);
  assert.match(text, /before any kernel result/, text);
  assert.match(text, /file format 7/, text);
  assert.equal(await tableText(page), before);
  await context.close();
});
