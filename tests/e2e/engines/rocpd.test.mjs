// rocprofv3 SQLite databases dropped in the app, in Chromium, Firefox ESR and WebKitGTK: the
// parser worker hands the database to the SQLite worker (rocpd-worker/, fetched only then), which
// reads its pages from the File (no copy in wasm memory), and the kernels join the other files of
// the same drop as one dataset. The fixture is the engine's (engine/tests/fixtures/rocpd/make.sh:
// rocprofiler-sdk's schema and rows written by hand; engine/tests/rocpd.rs has its values).
// Run: node --test tests/e2e/engines/rocpd.test.mjs (against dist/ built by scripts/lib.sh's
// build_site).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './each-engine.mjs';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT } from '../helpers.mjs';
import { COPY_BLOCKED } from './inputs.mjs';
import { waitFor } from './adapter.mjs';
import { tableText, tableHas, chartDrawn, alertText, openApp, inFreshProfile, workerActive } from './page.mjs';

/// dgemm's row (its short name): two launches of 250,000 + 260,000 ns = 510 µs, and
/// 2 × (576,000 vector + 2,048,000 matrix) FP64 FLOPs = 5.25 MFLOP (engine/tests/rocpd.rs).
const DGEMM_ROW = /^dgemm_fp64\t2\t510 µs \([\d.]+%\)\t5\.25 MFLOP\t/m;
const DB = readFileSync(join(ROOT, 'engine', 'tests', 'fixtures', 'rocpd', 'mi300x.db'));

/// In the page: drops files given as base64 bytes on `selector`.
const dropBytes = ({ selector, files }) => {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name));
  document.querySelector(selector).dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  return true;
};

eachEngine((engine, ctx) => {
  test(`${engine.name}: a rocpd database dropped with a CSV is read by the SQLite worker into one dataset`, () => inFreshProfile(engine, async (s) => {
    await openApp(s, ctx.site.url);
    // The first visit and its first chart fetch no SQLite.
    assert.deepEqual(ctx.site.requests.filter((u) => /rocpd/.test(u)), [], 'the SQLite worker is not fetched before a database is dropped');
    await s.eval(dropBytes, {
      selector: '#roofline-canvas',
      files: [
        { name: 'mi300x_results.db', base64: DB.toString('base64') },
        { name: 'copy_blocked.csv', base64: readFileSync(COPY_BLOCKED).toString('base64') },
      ],
    });
    await waitFor(s, tableHas, 'dgemm_fp64', { what: "the database's kernels in the table", timeout: 60000 });
    const text = await s.eval(tableText);
    // The database's kernels (as text), the CSV's beside them: one dataset.
    assert.match(text, DGEMM_ROW, "dgemm's launches, time and FLOPs from the database");
    assert.match(text, /^vaddf64\t1\t40\.0 µs/m);
    assert.match(text, /^copy_blocked/m, 'the CSV dropped with it is in the same dataset');
    await waitFor(s, chartDrawn);
    assert.equal(await s.eval(alertText), '', 'no alert');
    assert.ok(ctx.site.requests.some((u) => /roofline-rocpd_bg\.wasm/.test(u)), 'the SQLite worker fetched on the drop');
    // A damaged database (the header, then zeros) beside a CSV: left out, named, the CSV
    // read (the SQLite worker kept from the drop before).
    const bad = Buffer.alloc(1024);
    DB.copy(bad, 0, 0, 16);
    await s.eval(dropBytes, {
      selector: '#roofline-canvas',
      files: [
        { name: 'bad_results.db', base64: bad.toString('base64') },
        { name: 'copy_blocked.csv', base64: readFileSync(COPY_BLOCKED).toString('base64') },
      ],
    });
    await waitFor(s, () => !/dgemm_fp64/.test(document.querySelector('table.kernels tbody')?.innerText ?? ''), null, { what: 'the second drop read', timeout: 60000 });
    assert.match(await s.eval(tableText), /^copy_blocked/m);
    await waitFor(s, () => document.body.innerText.includes('bad_results.db'), null, { what: 'the damaged database named' });
  }));

  test(`${engine.name}: after a database was read on a visit the service worker serves, one reads offline`, (t) => inFreshProfile(engine, async (s) => {
    await openApp(s, ctx.site.url);
    if (!(await s.eval(() => 'serviceWorker' in navigator))) return t.skip('no service workers');
    await waitFor(s, workerActive, undefined, { what: 'the service worker active', timeout: 30000 });
    // A page the service worker controls (the first visit's is not: no clients.claim()).
    await s.goto(ctx.site.url);
    await waitFor(s, chartDrawn);
    const drop = () => s.eval(dropBytes, { selector: '#roofline-canvas', files: [{ name: 'mi300x_results.db', base64: DB.toString('base64') }] });
    await drop();
    await waitFor(s, tableHas, 'dgemm_fp64', { what: 'the database online', timeout: 60000 });
    // The SQLite worker is not precached: kept by the service worker when first fetched.
    // Where the engine's offline switch does not cover the service worker, the ctx.site's server
    // drops every connection too (as offline-scenarios.mjs does).
    const scope = await s.setOffline(true);
    if (scope !== 'page and worker') ctx.site.reachable = false;
    try {
      await s.goto(ctx.site.url);
      await waitFor(s, tableHas, 'ax_kernel', { what: 'the example, offline' });
      await drop();
      await waitFor(s, tableHas, 'dgemm_fp64', { what: 'the database offline', timeout: 60000 });
      assert.equal(await s.eval(alertText), '', 'no alert');
    } finally {
      ctx.site.reachable = true;
      await s.setOffline(false);
    }
  }));
});
