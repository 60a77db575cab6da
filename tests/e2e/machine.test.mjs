// Issue 12's acceptance in Chromium: an Ampere profile picks its own machine at the clock it
// measured and says so above the chart; picking another machine warns; the link reopens with
// the same machine, clock and sentence.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startSite, launch, openPage, waitForChart, settledAddress, canvasData, ROOT, settled } from './helpers.mjs';
import { MENUS, openMenu } from './menus.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

// CC 8.0, 108 SMs, 765 MHz measured: an A100 PCIe 40GB locked to its base clock
// (engine/tests/fixtures/README.md).
const A100 = join(ROOT, 'engine', 'tests', 'fixtures', 'ncu-a100-pcie-765mhz.csv');
const clean = { consoleErrors: [], foreignRequests: [], pageErrors: [] };
const sentence = (page) => page.locator('.machine-sentence').innerText();
const warnings = (page) => page.$$eval('.machine-warning', (ps) => ps.map((p) => p.textContent));

test('an Ampere profile is drawn against its own GPU at its measured clock', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  assert.equal(await page.locator('.machine-note').isVisible(), false, 'no sentence for the built-in example');
  await page.setInputFiles('#file-input', A100);
  await page.waitForFunction(() => document.querySelector('table.kernels tbody').innerText.includes('stencil_fp64'));
  await settled(page);
  await waitForChart(page);
  assert.equal(await sentence(page), 'Profiled on an sm_80 GPU (108 SMs) at 765 MHz measured: roofs of NVIDIA A100 PCIe 40GB at 765 MHz (measured)');
  // The Machine menu's panel is built when it first opens, not at the app's start.
  assert.equal(await page.locator('#machine-pick').count(), 0, 'no machine picker before the menu opens');
  const panel = await openMenu(page, MENUS.machine);
  assert.equal(await page.inputValue('#machine-pick'), 'a100-pcie-40gb');
  assert.equal(await page.inputValue('#clock-pick'), 'measured');
  assert.deepEqual(await warnings(page), []);
  // Placed under its button, inside the window, with its contents built before it was placed.
  const [button, box] = [await page.locator('#menu-machine-button').boundingBox(), await panel.boundingBox()];
  assert.ok(box.y >= button.y + button.height && box.x + box.width <= page.viewportSize().width, `panel ${JSON.stringify(box)} under ${JSON.stringify(button)}`);

  // Another machine (in the Machine menu): the roofs change, and the page says they are not
  // the profile's GPU's.
  await openMenu(page, MENUS.machine);
  await page.selectOption('#machine-pick', 'v100');
  await page.waitForSelector('.machine-warning');
  assert.match((await warnings(page))[0], /^The profile ran on an sm_80 GPU \(108 SMs\) but the roofs are those of NVIDIA V100 SXM2/);
  assert.match(await sentence(page), /roofs of the chosen NVIDIA V100 SXM2 at 765 MHz \(measured\)$/);
  await waitForChart(page);
  const chart = await canvasData(page);
  assert.deepEqual(problems, clean);

  // The link keeps the machine, the clock and what the page says about them.
  const fresh = await openPage(browser, await settledAddress(page));
  await fresh.page.waitForSelector('.machine-warning');
  await openMenu(fresh.page, MENUS.machine);
  assert.equal(await fresh.page.inputValue('#machine-pick'), 'v100');
  assert.equal(await fresh.page.inputValue('#clock-pick'), 'measured');
  assert.equal(await sentence(fresh.page), await sentence(page));
  assert.deepEqual(await warnings(fresh.page), await warnings(page));
  await waitForChart(fresh.page);
  assert.equal(await canvasData(fresh.page), chart, 'identical canvas pixels');
  assert.deepEqual(fresh.problems, clean);
  await fresh.context.close();

  // Back to the profile's own GPU, at its boost clock: no warning, the boost in the sentence.
  await openMenu(page, MENUS.machine);
  await page.selectOption('#machine-pick', 'a100-pcie-40gb');
  await page.selectOption('#clock-pick', 'boost');
  await page.waitForFunction(() => document.querySelectorAll('.machine-warning').length === 0);
  assert.match(await sentence(page), /roofs of NVIDIA A100 PCIe 40GB at 1410 MHz \(boost clock\)$/);
  await context.close();
});
