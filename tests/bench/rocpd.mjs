// The SQLite worker on a large rocprofv3 database (docs/PERFORMANCE.md, "rocpd databases in the
// browser"), in headless Chromium against the release build (dist/, scripts/lib.sh build_site):
//   sh tests/bench/rocpd-big.sh            # ≈ 500 MB, /tmp/rocpd-big_results.db (not committed)
//   node tests/bench/rocpd.mjs [DB] [RUNS]
// Each run picks DB in a fresh page by the file input and reads the app's `roofline:load`
// (picked → chart drawn) and the parser's `roofline:worker` mark, whose `database_*` fields are
// the SQLite worker's own account: its wasm memory after the read (`database_memory_bytes`: a
// wasm memory only grows, so this is its peak), the bytes it read of the file through its VFS
// and their time. The first run starts the SQLite worker (its wasm fetched and compiled); the
// later ones in a fresh page too (each page has its own workers).
import { statSync } from 'node:fs';
import { launch, startSite } from '../e2e/helpers.mjs';

const db = process.argv[2] || '/tmp/rocpd-big_results.db';
const runs = Number(process.argv[3] || 3);
const site = await startSite();
const browser = await launch();
const size = statSync(db).size;
console.log(`${db}: ${size} bytes`);
for (let r = 0; r < runs; r++) {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(site.url);
  await page.waitForFunction(() => document.querySelectorAll('table.kernels tbody tr').length > 0);
  await page.evaluate(() => { performance.clearMeasures('roofline:load'); performance.clearMarks('roofline:worker'); });
  await page.setInputFiles('#file-input', db);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0 || document.querySelector('[role=alert]')?.textContent, null, { timeout: 600_000 });
  const out = await page.evaluate(() => ({
    load_ms: performance.getEntriesByName('roofline:load')[0]?.duration,
    alert: document.querySelector('[role=alert]')?.textContent ?? '',
    worker: performance.getEntriesByName('roofline:worker')[0]?.detail ?? {},
    rows: document.querySelectorAll('table.kernels tbody tr').length,
  }));
  const w = out.worker;
  console.log(JSON.stringify({ run: r + 1, load_ms: Math.round(out.load_ms), sqlite_ms: Math.round(w.database_ms), sqlite_memory_MB: +(w.database_memory_bytes / 1e6).toFixed(1), read_MB: +(w.database_read_bytes / 1e6).toFixed(1), parser_memory_MB: +(w.memory_bytes / 1e6).toFixed(1), rows: out.rows, alert: out.alert }));
  await context.close();
}
await browser.close();
site.server.closeAllConnections();
site.server.close();
