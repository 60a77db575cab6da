// The offline scenarios every engine runs (registered by scenarios.mjs): after one visit the
// site opens, reads a sample file and a built-in example with the network gone, and the next
// deploy is picked up on the next visit with an "updated" notice, then works offline too.
//
// "The network gone" is the engine's own offline switch where the adapter has one. Chromium's
// covers the page and its service worker: nothing at all may reach the server then. Firefox's
// (BiDi) covers the page only, and WebKitWebDriver has none: there the site's server drops every
// connection as well, and the only requests allowed to reach it are the two a worker that still
// believes it is online makes (both fail): the worker asking for a newer page (network first,
// as Perfetto does) and the browser's update check of sw.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cpSync, appendFileSync } from 'node:fs';
import { stampPrecache } from '../../../scripts/precache.mjs';
import { waitFor, clickRole, markByRole } from './adapter.mjs';
import { tableHas, chartDrawn, inkedPixels, openApp, workerActive } from './page.mjs';
import { COPY_BLOCKED } from './inputs.mjs';

/// `ctx`: the scenarios' site and temporary folder (as getters: they exist once `before` ran),
/// `withProfile` and `clean`.
export function offlineScenarios(engine, ctx) {
  const { withProfile, clean } = ctx;
  /// Takes the network away (see above). Returns whether nothing at all may reach the server.
  const goOffline = async (s) => {
    const scope = await s.setOffline(true);
    if (scope !== 'page and worker') ctx.site().reachable = false;
    return scope === 'page and worker';
  };
  const goOnline = async (s) => {
    ctx.site().reachable = true;
    await s.setOffline(false);
  };
  /// The requests that reached the server since `from`, less the two allowed when the worker
  /// stays online (see above).
  const unexpectedRequests = (from, strict) => ctx.site().requests.slice(from)
    .filter((u) => strict || (!/^\/roofline\/(index\.html)?(\?.*)?$/.test(u) && !/^\/roofline\/sw\.js(\?.*)?$/.test(u)));

  test(`${engine.name}: offline after one visit: reload, a sample file, a built-in example`, async (t) => {
    await withProfile(async (s) => {
      await openApp(s, ctx.site().url);
      if (!(await s.eval(() => 'serviceWorker' in navigator))) {
        t.skip(`${engine.version} has no service workers: the site works online only`);
        return;
      }
      await waitFor(s, workerActive, undefined, { what: 'the service worker active', timeout: 30000 });
      const from = ctx.site().requests.length;
      const strict = await goOffline(s);
      t.diagnostic(`offline: ${engine.offlineNote}`);
      try {
        await s.reload();
        await waitFor(s, chartDrawn, undefined, { what: 'the chart, offline' });
        await waitFor(s, tableHas, 'ax_kernel');
        // A worker whose script the service worker serves runs at an address without its
        // fragment: the compile worker is given the wasm's address as its name, which it keeps.
        assert.equal(await s.eval(async () => (await window.rooflineWasm) instanceof WebAssembly.Module), true, "the app's wasm compiled by the worker, its script from the cache");
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
    const next = join(ctx.tmp(), 'next');
    cpSync(ctx.site().root, next, { recursive: true });
    appendFileSync(join(next, 'examples', 'README.md'), '\nA later deploy.\n');
    const { version } = stampPrecache(next);
    const first = ctx.site().root;
    try {
      await withProfile(async (s) => {
        await openApp(s, ctx.site().url);
        if (!(await s.eval(() => 'serviceWorker' in navigator))) {
          t.skip(`${engine.version} has no service workers`);
          return;
        }
        await waitFor(s, workerActive, undefined, { what: 'the service worker active', timeout: 30000 });
        const build = () => document.querySelector('meta[name="roofline-build"]')?.content;
        const old = await s.eval(build);
        assert.notEqual(old, version);
        assert.equal(await s.eval(() => document.querySelector('.site-notice')), null, 'no notice on a first visit');
        ctx.site().root = next;
        await s.reload();
        await waitFor(s, chartDrawn);
        assert.equal(await s.eval(build), version, 'the next visit runs the new build');
        const notice = await waitFor(s, () => document.querySelector('.site-notice[role=status]')?.textContent, undefined, { what: 'the updated notice' });
        assert.match(notice, /updated/i);
        await clickRole(s, 'button', 'Dismiss the notice');
        await waitFor(s, () => document.querySelector('.site-notice') === null, undefined, { what: 'the notice dismissed' });
        // The new worker installs and caches the new build; offline, the new build is what opens.
        // (Its cache exists from the start of its install: wait until the install is over and
        // the cache holds the page.)
        await waitFor(s, async (v) => {
          const reg = await navigator.serviceWorker.getRegistration();
          const name = (await caches.keys()).find((k) => k.endsWith(` ${v}`));
          return !reg.installing && !reg.waiting && reg.active?.state === 'activated' && !!name
            && !!(await (await caches.open(name)).match('index.html'));
        }, version, { what: 'the new build installed and active', timeout: 30000 });
        const from = ctx.site().requests.length;
        const strict = await goOffline(s);
        try {
          await s.reload();
          await waitFor(s, chartDrawn, undefined, { what: 'the chart, offline' });
          assert.equal(await s.eval(build), version, 'offline, the cached page is the new build');
          assert.equal(await s.eval(() => document.querySelector('.site-notice')), null, 'no notice: same build as last time');
          assert.deepEqual(unexpectedRequests(from, strict), [], 'requests that reached the network while offline');
        } finally {
          await goOnline(s);
        }
      });
    } finally {
      ctx.site().root = first;
    }
  });
}
