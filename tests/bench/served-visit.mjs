// A file's load on the visits the service worker serves (every visit after the first), against
// the first visit's: one browser context, the file loaded on the first visit, then on RELOADS
// reloads once the service worker is active (public/sw.js claims no page, so a reload is the
// first served visit). Prints each visit's pick → chart (`roofline:load`), whether the service
// worker served it, in how many parts the worker read the file and how long it waited for its
// second parser. Every other benchmark opens a fresh profile, a first visit; this one found
// served visits losing their second parser (docs/PERFORMANCE.md, "2026-12-01, late").
//   node tests/bench/served-visit.mjs FILE [DIST] [RELOADS]
import { join } from 'node:path';
import { launch, waitForChart, workerReady, ROOT } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';

const [file, dist = join(ROOT, 'dist'), reloads = '2'] = process.argv.slice(2);
if (!file) { console.error('usage: node tests/bench/served-visit.mjs FILE [DIST] [RELOADS]'); process.exit(2); }
const browser = await launch();
const site = await serve(dist, 0, '/roofline/');
try {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  for (let visit = 0; visit <= Number(reloads); visit++) {
    if (visit === 0) await page.goto(site.url);
    else {
      await workerReady(page);
      await page.reload();
    }
    await waitForChart(page);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, null, { timeout: 30_000 });
    await page.waitForTimeout(400);
    const served = await page.evaluate(() => navigator.serviceWorker?.controller != null);
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, null, { timeout: 600_000 });
    const r = await page.evaluate(() => ({ ms: performance.getEntriesByName('roofline:load')[0].duration, ...performance.getEntriesByName('roofline:worker')[0]?.detail }));
    console.log(`visit ${visit + 1} (${served ? 'served by the service worker' : 'from the network'}): ${r.ms.toFixed(0)} ms; read in ${r.parts} part(s), waited ${(r.part_wait_ms ?? NaN).toFixed(0)} ms for the second parser`);
  }
  await context.close();
} finally {
  await browser.close();
  site.server.close();
}
