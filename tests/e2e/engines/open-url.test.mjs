// `#url=` (issue 45, app/src/open_url.rs) in Chromium, Firefox ESR and WebKitGTK: a profile on
// another origin is fetched only after the user says so, then loads as if dropped, with the
// link's mode applied; a server that does not share the file (no CORS header), a missing file and
// a cancelled question are each explained. The other origin is a second server on 127.0.0.1 (a
// port of its own: another origin) serving a real sample, which logs every request it gets.
// Run: ROOFLINE_DIST=<dist> node --test --test-concurrency=1 tests/e2e/engines/open-url.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './each-engine.mjs';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { COPY_BLOCKED } from './inputs.mjs';
import { waitFor, clickRole } from './adapter.mjs';
import { tableText, tableHas, chartDrawn, alertText, tabSelected, inFreshProfile } from './page.mjs';

/// The other origin: `/runs/copy_blocked.csv` with `Access-Control-Allow-Origin: *` (as GitHub's
/// raw files), `/private/copy_blocked.csv` without it, anything else 404 (with the header, so the
/// page may read the status). `requests`: every request's method and path, as it arrives.
function startProfileServer() {
  const body = readFileSync(COPY_BLOCKED);
  const host = { requests: [], server: null, port: 0 };
  host.server = createServer((req, res) => {
    host.requests.push(`${req.method} ${req.url}`);
    if (req.url === '/runs/copy_blocked.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Access-Control-Allow-Origin': '*', 'Content-Length': body.length });
      res.end(body);
    } else if (req.url === '/private/copy_blocked.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.end(body);
    } else {
      res.writeHead(404, { 'Access-Control-Allow-Origin': '*' });
      res.end('not here');
    }
  });
  return new Promise((resolve) => host.server.listen(0, '127.0.0.1', () => { host.port = host.server.address().port; resolve(host); }));
}

/// In the page: the consent dialog's heading and address, whether it is open and holds the focus.
const consent = () => {
  const d = document.querySelector('dialog.open-url');
  return d && d.open ? { title: d.querySelector('h2').textContent, address: d.querySelector('.open-url-address').textContent, focused: d.contains(document.activeElement) } : null;
};

eachEngine((engine, ctx) => {
  test(`${engine.name}: #url= asks first (nothing fetched), then loads the file as a drop, in the link's mode`, () => inFreshProfile(engine, async (s) => {
    ctx.host.requests.length = 0;
    const file = `http://127.0.0.1:${ctx.host.port}/runs/copy_blocked.csv`;
    await s.goto(`${ctx.site.url}#url=${file}&mode=hierarchical`);
    const asked = await waitFor(s, consent, undefined, { what: 'the consent dialog' });
    assert.equal(asked.title, `Load a profile from 127.0.0.1:${ctx.host.port}?`);
    assert.equal(asked.address, file);
    assert.ok(asked.focused, 'focus moved into the dialog');
    // The page behind it is the built-in example; the other origin has heard nothing.
    await waitFor(s, tableHas, 'ax_kernel', { what: 'the example behind the dialog' });
    assert.deepEqual(ctx.host.requests, [], 'nothing fetched before the user says so');
    assert.match(await s.eval(() => location.hash), /^#url=http:\/\/127\.0\.0\.1:\d+\/runs\/copy_blocked\.csv&mode=hierarchical$/, 'the address waits too');

    await clickRole(s, 'button', 'Load');
    await waitFor(s, tableHas, '^copy_blocked', { what: 'the fetched kernels in the table', timeout: 30000 });
    // The sample has one kernel (one launch): the drop's row, the example's gone.
    const rows = (await s.eval(tableText)).split('\n').filter((l) => l.trim());
    assert.equal(rows.length, 1, rows.join('\n'));
    assert.match(rows[0], /^copy_blocked\S*\t1\t/);
    await waitFor(s, tabSelected, 'Hierarchical', { what: 'mode=hierarchical applied' });
    await waitFor(s, chartDrawn);
    assert.equal(await s.eval(alertText), '', 'no alert');
    assert.deepEqual(ctx.host.requests, ['GET /runs/copy_blocked.csv'], 'one GET, no preflight');
    assert.equal(await s.eval(() => document.querySelector('dialog.open-url')?.open ?? false), false, 'the dialog closed');
    // The address stays the short link while the view is the fetched file's.
    assert.equal(await waitFor(s, () => location.hash.startsWith('#url=') && location.hash), `#url=${file}&mode=hierarchical`);
    await clickRole(s, 'tab', 'Instruction');
    await waitFor(s, (f) => location.hash === `#url=${f}&mode=instruction`, file, { what: 'the mode change in the #url= address' });
  }));

  test(`${engine.name}: #url= cancelled, refused by the server (no CORS header) and missing are each explained`, () => inFreshProfile(engine, async (s) => {
    ctx.host.requests.length = 0;
    const refused = `http://127.0.0.1:${ctx.host.port}/private/copy_blocked.csv`;
    // Cancelled with Escape: nothing fetched, the example with a note.
    await s.goto(`${ctx.site.url}#url=${encodeURIComponent(refused)}`);
    await waitFor(s, consent, undefined, { what: 'the consent dialog' });
    await s.press('Escape');
    await waitFor(s, () => document.body.innerText.includes('Nothing was loaded from 127.0.0.1:'), undefined, { what: 'the note after Cancel' });
    assert.equal(await s.eval(() => document.querySelector('dialog.open-url').open), false);
    assert.deepEqual(ctx.host.requests, [], 'nothing fetched after Cancel');
    assert.match(await s.eval(tableText), /ax_kernel/, 'the example stays');

    // Load, but the server does not share the file with another origin.
    await s.goto('about:blank');
    await s.goto(`${ctx.site.url}#url=${refused}`);
    await waitFor(s, consent, undefined, { what: 'the consent dialog again' });
    await clickRole(s, 'button', 'Load');
    const alert = await waitFor(s, alertText, undefined, { what: 'the explained failure', timeout: 30000 });
    assert.match(alert, new RegExp(`^${refused.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} could not be fetched: the server 127\\.0\\.0\\.1:${ctx.host.port} refused to share it with this page \\(CORS\\) or could not be reached\\. Ways out: download the file and drop it here`));
    assert.ok(ctx.host.requests.includes('GET /private/copy_blocked.csv'), `the request was sent, its answer not shared: ${ctx.host.requests}`);
    assert.match(await s.eval(tableText), /ax_kernel/, 'the previous view stays');

    // A file the server does not have: its status named.
    await s.goto('about:blank');
    await s.goto(`${ctx.site.url}#url=http://127.0.0.1:${ctx.host.port}/runs/gone.csv`);
    await waitFor(s, consent, undefined, { what: 'the consent dialog a third time' });
    await clickRole(s, 'button', 'Load');
    const missing = await waitFor(s, alertText, undefined, { what: 'the HTTP status', timeout: 30000 });
    assert.match(missing, new RegExp(`^http://127\\.0\\.0\\.1:${ctx.host.port}/runs/gone\\.csv could not be loaded: the server answered HTTP 404 Not Found\\.`));
  }));
}, async (ctx) => {
  ctx.host = await startProfileServer();
});
