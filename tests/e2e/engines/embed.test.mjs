// Issue 45's embed view, in Chromium, Firefox ESR and WebKitGTK: a page of another site (a host
// page served from `localhost`, the site from `127.0.0.1`: another origin and another site, so
// the frame is a third-party one, its storage partitioned) holds
// `<iframe src="<site>/roofline/?embed#v1.…">`. In the frame: the chart alone, drawn, filling the
// frame under its one-line bar and following the frame's size, first by the link chart in the
// static first paint (no toolbar in it) and then by the app at the same place; hover shows a
// dot's numbers; the keys zoom; "Open in Roofline Explorer" links to the same address without
// `embed`, kept current; no toolbar, file picker, panels or table; no service worker and no
// parser worker fetched. The page without `?embed` keeps its toolbar.
// Run: ROOFLINE_DIST=<build> node --test --test-concurrency=1 tests/e2e/engines/embed.test.mjs
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './each-engine.mjs';
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers.mjs';
import { fixture, COPY_BLOCKED } from './inputs.mjs';
import { waitFor } from './adapter.mjs';
import { chartDrawn, inkedPixels, alertText, openApp, inFreshProfile, recordErrors } from './page.mjs';

/// The NERSC deep-learning run as a released link (the cross-engine hover scenario's kernels).
const FRAGMENT = fixture('v1-deeplearning-ncu.txt');
/// The frame's size on the host page, then after the host resizes it, CSS px.
const FRAME = { width: 720, height: 480 };
const RESIZED = { width: 560, height: 400 };
/// The embed's layout (app/style.css's embed block): 6 px either side of the chart, the bar
/// 28 px high above it. So the chart is 720 − 12 = 708 px wide and 480 − 28 = 452 px high at
/// (6, 28); 548 × 372 once resized.
const chartRect = ({ width, height }) => [6, 28, width - 12, height - 28];
/// How long the site holds the app's wasm back: the first paint is looked at meanwhile.
const APP_WASM_DELAY_MS = 6000;
const APP_WASM = readdirSync(process.env.ROOFLINE_DIST || join(ROOT, 'dist')).find((f) => /^roofline-app-[0-9a-f]+_bg\.wasm$/.test(f));

/// A host page that embeds `src(origin)` (`origin`: the host's own), served on every interface
/// (so `localhost` reaches it however the browser resolves the name), and the course's profile
/// at `/lab/copy_blocked.csv`, shared with any origin as GitHub's raw files are. The frame sits
/// at the page's top-left corner, borderless, so a point of the frame is the same point of the
/// host page's viewport.
async function startHost(src) {
  const server = createServer((req, res) => {
    if (req.url === '/lab/copy_blocked.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv', 'Access-Control-Allow-Origin': '*' });
      res.end(readFileSync(COPY_BLOCKED));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A course page</title>
<style>body { margin: 0 } iframe { display: block; border: 0 }</style></head>
<body><iframe src="${src(host.origin)}" width="${FRAME.width}" height="${FRAME.height}" loading="lazy" title="Roofline chart"></iframe></body></html>`);
  });
  await new Promise((resolve) => server.listen(0, resolve));
  const host = { server, origin: `http://localhost:${server.address().port}` };
  return { ...host, url: (page) => `${host.origin}/${page}` };
}

/// The session's calls, run in the frame instead of the host page: `eval` (so `waitFor` and
/// the page.mjs readers work in it), `mouse(x, y, click)`, a move (and a click) at a point of
/// the frame, which is the same point of the viewport (see `startHost`), and `host(fn, arg)`,
/// `eval` in the host page. Each driver has its own way into a frame: Playwright's and
/// puppeteer's frames, WebDriver's switch of browsing context.
function inFrame(engine, s) {
  if (engine.name === 'webkit') {
    const { driver } = s;
    const into = async (frame) => {
      await driver.switchTo().defaultContent();
      if (frame) await driver.switchTo().frame(0);
    };
    return {
      eval: async (fn, arg) => { await into(true); return s.eval(fn, arg); },
      host: async (fn, arg) => { await into(false); return s.eval(fn, arg); },
      async mouse(x, y, click) {
        await into(false);
        const move = driver.actions().move({ origin: 'viewport', x: Math.round(x), y: Math.round(y) });
        await (click ? move.click() : move).perform();
      },
      async press(key) { await into(true); await s.press(key); },
    };
  }
  const frame = () => s.page.frames().find((f) => f.url().includes('?embed'));
  return {
    eval: async (fn, arg) => {
      const f = frame();
      if (!f) throw new Error('no embed frame yet');
      return f.evaluate(fn, arg);
    },
    host: (fn, arg) => s.page.evaluate(fn, arg),
    async mouse(x, y, click) {
      await s.page.mouse.move(x, y);
      if (click) await s.page.mouse.click(x, y);
    },
    press: (key) => s.press(key),
  };
}

// In-frame readers.
const rectOf = (selector) => {
  const el = document.querySelector(selector);
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height].map(Math.round);
};
const shown = (selector) => [...document.querySelectorAll(selector)].filter((el) => el.getClientRects().length > 0).length;
const openLink = () => {
  const a = [...document.querySelectorAll('a')].find((el) => el.textContent.includes('Open in Roofline Explorer'));
  return a && { href: a.href, target: a.target, rel: a.rel, text: a.textContent.trim(), address: location.href };
};

eachEngine((engine, ctx) => {
  test(`${engine.name}: embed view in an iframe of another origin`, () => inFreshProfile(engine, async (s) => {
    const frame = inFrame(engine, s);
    const from = ctx.site.requests.length;
    ctx.site.delays.set(APP_WASM, APP_WASM_DELAY_MS);
    try {
      await s.goto(ctx.host.url('course.html'));
      assert.equal(await frame.host(() => location.origin), ctx.host.origin);
      assert.notEqual(ctx.host.origin, new URL(ctx.site.url).origin, 'the frame is of another origin');

      // The static first paint, the app's wasm held back: the link chart has drawn the link's
      // chart where the app's will be, and no toolbar is shown.
      await waitFor(frame, () => performance.getEntriesByName('roofline:link-chart').length === 1 && !!document.getElementById('first-paint'), undefined, { what: 'the link chart in the first paint' });
      assert.equal(await frame.eval(() => document.documentElement.classList.contains('embed')), true);
      assert.equal(await frame.eval(shown, '#first-paint .toolbar, #first-paint .mode-tab, #first-paint .file-button, #first-paint .side, #first-paint .machine-note'), 0, 'nothing but the chart in the first paint');
      assert.deepEqual(await frame.eval(rectOf, '#first-paint .fp-link-chart'), chartRect(FRAME), "the link chart fills the frame under the bar");
    } finally {
      ctx.site.delays.delete(APP_WASM);
    }

    // The app, once its wasm has arrived: the same place and size, drawn.
    await waitFor(frame, () => !document.getElementById('first-paint') && !!document.querySelector('#roofline-canvas')?.getAttribute('style'), undefined, { what: "the app's chart", timeout: 30000 });
    await waitFor(frame, chartDrawn, undefined, { what: "the app's chart drawn" });
    await frame.eval(recordErrors);
    assert.deepEqual(await frame.eval(rectOf, '#roofline-canvas'), chartRect(FRAME), "the app's chart where the link chart was");
    assert.ok((await frame.eval(inkedPixels)) > 2000, 'the canvas has a drawn chart');
    assert.deepEqual(await frame.eval(() => [document.documentElement.scrollHeight, innerHeight]), [FRAME.height, FRAME.height], 'nothing below the frame');
    // The chart alone: no toolbar, file picker, mode tabs, panels, table or footer.
    assert.deepEqual(await frame.eval(() => ['.toolbar', '#file-input', '[role=tab]', '.side', 'table.kernels', 'footer'].filter((q) => document.querySelector(q))), [], 'none of the page around the chart');
    // The machine, in one line.
    assert.match(await frame.eval(() => document.querySelector('.embed-machine').textContent), /^NVIDIA V100/);

    // Hover over a dot shows its numbers (as the cross-engine hover scenario, from the link).
    const dot = await waitFor(frame, () => [...document.querySelectorAll('[aria-label="Points on the chart"] li')]
      .map((li) => ({ x: +li.dataset.x, y: +li.dataset.y, text: li.textContent }))
      .find((d) => d.text.includes('Volta_hmma_implicit_gemm_fprop_fp32_nhwc_128x128x64x1')), undefined, { what: 'the hmma dot' });
    const [cx, cy] = await frame.eval(rectOf, '#roofline-canvas');
    await frame.mouse(cx + dot.x, cy + dot.y);
    const tip = await waitFor(frame, () => {
      const t = document.querySelector('.tooltip');
      return t && t.offsetParent !== null ? t.innerText : '';
    }, undefined, { what: 'the tooltip' });
    assert.match(tip, /Volta_hmma_implicit_gemm/);
    // The link's counters for it (engine/tests/share_fixtures.rs reads the same fixture): 8
    // launches, 86,165,504 cycles at a mean 1,300,168,704 Hz = 66.27 ms (the fixture predates
    // the per-launch time, 65.9 ms from the files); 10,829,168,640 tensor instructions × 512
    // FLOP each (the V100's) ÷ 66.27 ms = 83.7 TFLOP/s.
    assert.match(tip, /time: 66\.3 ms/, tip);
    assert.match(tip, /performance: 83\.7 TFLOP\/s/, tip);

    // "Open in Roofline Explorer": a new tab, the frame's address without `embed`.
    const link = await waitFor(frame, openLink, undefined, { what: 'the link to the full view' });
    assert.equal(link.target, '_blank');
    assert.equal(link.rel, 'noopener');
    assert.ok(link.address.startsWith(`${ctx.site.url}?embed#v1.`), link.address);
    assert.equal(link.href, link.address.replace('?embed#', '#'), 'the same address without embed');
    // The keys zoom (a click in an empty corner of the plot focuses the chart, selecting
    // nothing): the address changes, and the link with it.
    await frame.mouse(cx + dot.x < 300 ? cx + 600 : cx + 100, cy + 40, true);
    await frame.press('+');
    const zoomed = await waitFor(frame, (before) => {
      const l = [...document.querySelectorAll('a')].find((el) => el.textContent.includes('Open in Roofline Explorer'));
      return location.href !== before && l?.href === location.href.replace('?embed#', '#') && location.href;
    }, link.address, { what: 'the zoomed view in the address and the link' });
    assert.notEqual(zoomed, link.address);

    // The host makes the frame smaller: the chart follows.
    await frame.host(({ width, height }) => { const f = document.querySelector('iframe'); f.width = width; f.height = height; return true; }, RESIZED);
    const resized = await waitFor(frame, (want) => {
      const r = document.querySelector('#roofline-canvas').getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map(Math.round).join(',') === want.join(',') && want;
    }, chartRect(RESIZED), { what: 'the chart at the new frame size' });
    assert.deepEqual(resized, chartRect(RESIZED));

    // No error, no alert, no panic; neither the service worker nor the parser worker fetched.
    assert.deepEqual(await frame.eval(() => window.__e2eErrors), [], 'uncaught errors in the frame');
    assert.equal(await frame.eval(() => window.rooflinePanic ? String(window.rooflinePanic) : ''), '');
    assert.equal(await frame.eval(alertText), '', 'no alert');
    assert.deepEqual(ctx.site.requests.slice(from).filter((u) => /sw\.js|roofline-worker/.test(u)), [], 'no service worker or parser fetched by the embed');

    // A file dropped on the frame: refused with where files open, the frame still the chart.
    const before = await frame.eval(() => location.href);
    const dropped = await frame.eval(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['kernel,time_s\nk,1\n'], 'run.csv', { type: 'text/csv' }));
      const target = document.querySelector('#roofline-canvas');
      const over = new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: dt });
      const drop = new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt });
      target.dispatchEvent(over);
      target.dispatchEvent(drop);
      return [over.defaultPrevented, drop.defaultPrevented];
    });
    assert.deepEqual(dropped, [true, true], 'the drop is the embed\'s, not the browser\'s');
    assert.match(await waitFor(frame, alertText, undefined, { what: 'the drop refused' }), /opens no files: open it in Roofline Explorer/);
    assert.equal(await frame.eval(() => location.href), before, 'the frame stays on the chart');
  }));

  test(`${engine.name}: an embed of a #url= link asks, then loads the course's profile`, () => inFreshProfile(engine, async (s) => {
    const frame = inFrame(engine, s);
    await s.goto(ctx.lab.url('lab.html'));
    const title = await waitFor(frame, () => {
      const d = document.querySelector('dialog.open-url');
      return d?.open && d.querySelector('h2')?.textContent;
    }, undefined, { what: 'the consent dialog in the frame' });
    assert.equal(title, `Load a profile from ${new URL(ctx.lab.origin).host}?`);
    await frame.eval(recordErrors);
    // Clicked in the frame's page (the button's handler; a driver's click would be the same).
    await frame.eval(() => { [...document.querySelectorAll('dialog.open-url button')].find((b) => b.textContent.trim() === 'Load').click(); return true; });
    await waitFor(frame, () => [...document.querySelectorAll('[aria-label="Points on the chart"] li')].some((li) => li.textContent.includes('copy_blocked')), undefined, { what: "the profile's kernel on the chart", timeout: 30000 });
    await waitFor(frame, chartDrawn);
    assert.equal(await frame.eval(() => document.querySelector('dialog.open-url')?.open ?? false), false, 'the dialog closed');
    assert.equal(await frame.eval(alertText), '', 'no alert');
    assert.deepEqual(await frame.eval(() => window.__e2eErrors), [], 'uncaught errors in the frame');
    assert.deepEqual(await frame.eval(() => ['.toolbar', '#file-input', 'table.kernels'].filter((q) => document.querySelector(q))), [], 'still the chart alone');
  }));

  test(`${engine.name}: the page without ?embed keeps its toolbar`, () => inFreshProfile(engine, async (s) => {
    await openApp(s, `${ctx.site.url}#${FRAGMENT}`);
    assert.equal(await s.eval(() => document.documentElement.classList.contains('embed')), false);
    assert.deepEqual(await s.eval(() => ['.toolbar', '#file-input', '[role=tab]', 'table.kernels', 'footer'].map((q) => !!document.querySelector(q))), [true, true, true, true, true]);
    assert.equal(await s.eval(() => [...document.querySelectorAll('a')].some((a) => a.textContent.includes('Open in Roofline Explorer'))), false);
  }));
}, async (ctx) => {
  // `/course.html` frames the link; `/lab.html` frames a `#url=` link to the course's profile.
  ctx.host = await startHost((origin) => `${ctx.site.url}?embed#${FRAGMENT}`);
  ctx.lab = await startHost((origin) => `${ctx.site.url}?embed#url=${origin}/lab/copy_blocked.csv`);
});
