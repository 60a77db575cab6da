// Issue 18 in Chromium, in detail: the service worker's precache list is the build output (not a
// hand-written list), the worker caches exactly that, and the site is installable (manifest,
// icon, worker) by Chromium's own check. Offline use and the next deploy's pickup are scenarios
// every engine runs (engines/scenarios.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdtempSync, rmSync, cpSync, appendFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { startSite, launch, openPage, waitForChart, workerReady, ROOT, LAUNCH_ARGS } from './helpers.mjs';
import { stampPrecache, ON_DEMAND } from '../../scripts/precache.mjs';

let site, browser;
before(async () => { site = await startSite(); browser = await launch(); });
after(async () => { await browser?.close(); site?.server.close(); });

const DIST = process.env.ROOFLINE_DIST || join(ROOT, 'dist');

/// Every file of the build, as paths relative to dist/.
function built(dir = DIST) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? built(join(dir, e.name))
    : [relative(DIST, join(dir, e.name)).split(sep).join('/')]));
}

function stamped() {
  const sw = readFileSync(join(DIST, 'sw.js'), 'utf8');
  const list = JSON.parse(sw.match(/^const PRECACHE = (\[.*\]);$/m)[1]);
  const version = sw.match(/^const VERSION = '([0-9a-f]{16})';$/m)[1];
  return { list, version };
}

test('the precache list is the build output, and the page carries the same build id', () => {
  const { list, version } = stamped();
  // Less the SQLite worker, fetched when a database is dropped (precache.mjs, ON_DEMAND).
  assert.deepEqual([...list].sort(), built().filter((f) => f !== 'sw.js' && !ON_DEMAND.test(f)).sort());
  for (const kind of [/_bg\.wasm$/, /^roofline-app-.*\.js$/, /^style-.*\.css$/, /^examples\/.*\.csv$/, /^manifest\.webmanifest$/, /^index\.html$/]) {
    assert.ok(list.some((f) => kind.test(f)), `${kind} is precached`);
  }
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  assert.match(html, new RegExp(`<meta name="roofline-build" content="${version}" />`));
});

test('stamping is idempotent, and any changed file or worker code is a new build id', () => {
  const copy = mkdtempSync(join(tmpdir(), 'roofline-stamp-'));
  try {
    cpSync(DIST, copy, { recursive: true });
    const files = () => ['index.html', 'sw.js'].map((f) => readFileSync(join(copy, f), 'utf8'));
    const before = files();
    assert.equal(stampPrecache(copy).version, stamped().version, 'the build as postbuild stamped it');
    assert.deepEqual(files(), before, 'stamping again changes nothing');
    appendFileSync(join(copy, 'examples', 'README.md'), '\nchanged\n');
    const changed = stampPrecache(copy).version;
    assert.notEqual(changed, stamped().version, 'a changed file');
    writeFileSync(join(copy, 'sw.js'), readFileSync(join(copy, 'sw.js'), 'utf8').replace('INDEX_TIMEOUT_MS = 3000', 'INDEX_TIMEOUT_MS = 2000'));
    assert.notEqual(stampPrecache(copy).version, changed, 'changed worker code');
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});

test('the worker caches every file of the build under this site\'s scope, and nothing else', async () => {
  const { list, version } = stamped();
  const { context, page, problems } = await openPage(browser, site.url);
  await workerReady(page);
  const cached = await page.evaluate(async () => {
    const out = {};
    for (const name of await caches.keys()) out[name] = (await (await caches.open(name)).keys()).map((r) => r.url);
    return out;
  });
  const scope = new URL(site.url).pathname;
  assert.deepEqual(Object.keys(cached), [`roofline ${scope} ${version}`]);
  assert.deepEqual(Object.values(cached)[0].sort(), list.map((f) => new URL(f, site.url).href).sort());
  assert.deepEqual(problems, { consoleErrors: [], foreignRequests: [], pageErrors: [] });
  await context.close();
});

test('installable: Chromium finds no installability error, and the manifest names the site', async () => {
  // A persistent profile: Chromium refuses to install from an off-the-record context, which is
  // what a test context is.
  const profile = mkdtempSync(join(tmpdir(), 'roofline-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: LAUNCH_ARGS,
    viewport: { width: 1200, height: 900 },
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(site.url);
    await workerReady(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    assert.deepEqual(installabilityErrors, []);
    const { url, errors } = await cdp.send('Page.getAppManifest');
    assert.equal(url, `${site.url}manifest.webmanifest`);
    assert.deepEqual(errors, []);
    const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.webmanifest'), 'utf8'));
    assert.equal(manifest.name, 'Roofline Explorer');
    assert.equal(new URL(manifest.start_url, url).href, site.url, 'it starts at the site, under its path');
    for (const icon of manifest.icons) {
      const res = await page.request.get(new URL(icon.src, url).href);
      assert.equal(res.status(), 200, icon.src);
    }
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

// A browser without service workers, and one that refuses the registration (a policy, a
// privacy mode), simulated before the page's scripts run (Playwright's own `serviceWorkers:
// 'block'` makes register() succeed without registering, which the page cannot tell).
const WITHOUT = {
  'no service workers': () => { delete Navigator.prototype.serviceWorker; },
  'registration refused': () => {
    ServiceWorkerContainer.prototype.register = () => Promise.reject(new DOMException('The operation is insecure.', 'SecurityError'));
  },
};

for (const [what, init] of Object.entries(WITHOUT)) {
  test(`${what}: the app works and says once per session that it keeps no offline copy`, async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
    await context.addInitScript(init);
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(site.url);
    await waitForChart(page);
    await page.waitForFunction(() => document.querySelector('table.kernels tbody')?.innerText.includes('ax_kernel'));
    const notice = page.locator('.site-notice[role=status]');
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.innerText(), /no offline copy .* works while online/s);
    await page.getByRole('button', { name: 'Dismiss the notice' }).click();
    await notice.waitFor({ state: 'detached' });
    // Once per session: not again on the next page of the same session.
    await page.reload();
    await waitForChart(page);
    await page.waitForTimeout(300);
    assert.equal(await notice.count(), 0);
    assert.equal(await page.evaluate(() => navigator.serviceWorker?.controller ?? null), null);
    assert.deepEqual(errors, []);
    await context.close();
  });
}
