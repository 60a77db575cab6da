// Issue 43 in Chromium: the selected kernel's panel opens with the verdict (short name, the
// sentence, the advice), the full name on demand, and "Where these numbers come from" lists
// each quantity with its metrics; a FLOP set collected in part is named in a warning; an error
// links to the site's formats page, which opens.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite, launch, openPage, settled, NERSC_RUN } from './helpers.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };

test('the NERSC run: a warning names the FLOPs not collected; the panel gives the verdict first and each number with its metric', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', NERSC_RUN);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('Volta_hmma'));
  await settled(page);
  // The set collected FFMA and the tensor pipe only: 27 of its 49 kernels show no FLOPs.
  const warnings = await page.locator('.warnings').innerText();
  assert.match(warnings, /FLOPs were collected in part, without DADD, DMUL, DFMA, FADD, FMUL, HADD, HMUL, HFMA: kernels that run them show fewer FLOPs than they did; 27 of 49 kernels show no FLOPs, 34% of the run's time/);
  await page.locator('table.kernels tbody tr', { hasText: 'Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1_1x3x3x0x1' }).first().click();
  await settled(page);
  const panel = page.locator('.summary-panel');
  assert.equal(await panel.locator('.kernel-name').innerText(), 'Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1_1x3x3x0x1');
  assert.match(await panel.locator('.summary').innerText(), /^bound by .+ at \d+% of its roof/);
  assert.ok(await panel.locator('.advice').isVisible(), 'advice follows the verdict');
  // The numbers' sources wait to be asked for.
  const sources = panel.locator('details.provenance');
  assert.equal(await sources.evaluate((d) => d.open), false);
  await sources.locator('summary').click();
  const table = await sources.locator('table').innerText();
  // Σ dram__bytes.sum over its 8 launches = 5,920,456,608 B; Σ tensor instructions
  // 10,829,168,640; the page holds them as a link does (24-bit values: 5,920,522,240 and
  // 10,829,168,640, share::quantise), shown to 5 digits.
  assert.match(table, /DRAM bytes\s+5\.92 GB\s+dram__bytes\.sum = 5\.9205e9 B/);
  assert.match(table, /sm__inst_executed_pipe_tensor\.sum = 1\.0829e10 inst/);
  assert.match(table, /tensor FLOPs\s+[\s\S]+?sm__inst_executed_pipe_tensor\.sum × 512 FLOPs per instruction/);
  assert.match(table, /FP32 FLOPs\s.+not collected: sm__sass_thread_inst_executed_op_fadd_pred_on\.sum, sm__sass_thread_inst_executed_op_fmul_pred_on\.sum/s);
  assert.deepEqual(problems, clean);
  await context.close();
});

test('an error links to the formats page of the site, which opens', async () => {
  const { context, page } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a profile\n') });
  const alert = page.locator('[role=alert]');
  await alert.waitFor({ state: 'visible' });
  const link = alert.locator('a[href="formats.html"]');
  assert.equal(await link.innerText(), 'Supported formats and how to produce them');
  const response = await page.request.get(new URL('formats.html', site.url).href);
  assert.equal(response.status(), 200);
  const html = await response.text();
  assert.match(html, /<title>Roofline Explorer: supported formats<\/title>/);
  assert.match(html, /Nsight Compute/);
  await context.close();
});
