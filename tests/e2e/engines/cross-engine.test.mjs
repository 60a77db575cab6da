// One shared link in Chromium, Firefox and WebKit, one engine after the other: the same layout
// (canvas size, axes, dots, every text at the same place, the same table) and, as each engine
// measures its own glyphs, no two texts overlapping. Pixels are not compared across engines:
// each rasterises text and antialiases lines its own way (the difference is printed).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSite } from '../helpers.mjs';
import { chromium } from './chromium.mjs';
import { firefox } from './firefox.mjs';
import { webkit } from './webkit.mjs';
import { waitFor, clickRole } from './adapter.mjs';
import { openApp, tabSelected, inFreshProfile } from './page.mjs';
import { fixture } from './inputs.mjs';
import { recordTexts, recordedTexts, overlappingTexts } from './labels.mjs';

let site;
before(async () => { site = await startSite(); });
after(() => { site?.server.closeAllConnections(); site?.server.close(); });

/// Everything that makes up the layout of the chart and table, as one engine shows it.
async function layoutIn(engine, url) {
  await engine.launch();
  try {
    return await inFreshProfile(engine, (s) => layoutOf(s, url, engine));
  } finally {
    await engine.close();
  }
}

/// `layoutIn`'s reading, in one profile.
async function layoutOf(s, url, engine) {
  await openApp(s, url);
  // The chart takes the width its column has, and the column loses the page's scrollbar:
  // none in headless Chromium (Playwright hides them), 12 px in Firefox, 15 in WebKitGTK. The
  // same room in every engine: no page scrollbar (CSSOM, which the CSP allows), measured again.
  await s.eval(() => { document.documentElement.style.overflow = 'hidden'; dispatchEvent(new Event('resize')); });
  // Paint again with fillText recorded: another mode, then the link's own.
  await s.eval(recordTexts);
  await clickRole(s, 'tab', 'Classic');
  await s.eval(recordTexts);
  await clickRole(s, 'tab', 'Hierarchical');
  await waitFor(s, tabSelected, 'Hierarchical');
  let texts = [];
  for (let i = 0, last = -1; i < 40; i++, last = texts.length) {
    texts = await s.eval(recordedTexts);
    if (texts.length > 0 && texts.length === last) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const layout = await s.eval(() => {
    const c = document.querySelector('#roofline-canvas');
    // The pixels as base64 (a JSON array of 1.7 million numbers is slow through a driver).
    const px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let bin = '';
    for (let i = 0; i < px.length; i += 0x8000) bin += String.fromCharCode(...px.subarray(i, i + 0x8000));
    return {
      viewport: [innerWidth, devicePixelRatio],
      canvas: [c.clientWidth, c.clientHeight, c.width, c.height],
      axes: c.dataset.axes,
      dots: [...document.querySelectorAll('.chart-dots li')].map((li) => `${li.dataset.kernel}@${li.dataset.x},${li.dataset.y}`),
      // innerText's last line break differs between engines.
      table: document.querySelector('table.kernels tbody').innerText.trimEnd(),
      pixels: btoa(bin),
    };
  });
  return { ...layout, pixels: Buffer.from(layout.pixels, 'base64'), texts, version: engine.version };
}

test('a shared link shows the same layout in Chromium, Firefox and WebKit, with no overlapping text', async () => {
  const url = `${site.url}#${fixture('v1-deeplearning-ncu.txt')}`;
  const seen = {};
  for (const engine of [chromium(), firefox(), webkit()]) seen[engine.name] = await layoutIn(engine, url);
  const [first, ...others] = Object.keys(seen);
  const ref = seen[first];
  assert.ok(ref.texts.length >= 8, `texts recorded: ${ref.texts.length}`);
  assert.ok(ref.dots.length >= 10, `dots listed: ${ref.dots.length}`);
  for (const name of Object.keys(seen)) {
    assert.deepEqual(overlappingTexts(seen[name].texts), [], `${seen[name].version}: overlapping texts`);
  }
  for (const name of others) {
    const got = seen[name];
    const what = `${got.version} against ${ref.version}`;
    assert.deepEqual(got.viewport, ref.viewport, `${what}: viewport width and pixel ratio`);
    assert.deepEqual(got.canvas, ref.canvas, `${what}: canvas size`);
    assert.equal(got.axes, ref.axes, `${what}: axes`);
    assert.deepEqual(got.dots, ref.dots, `${what}: dots`);
    assert.deepEqual(got.texts.map((t) => `${t.text}@${t.at.map((v) => v.toFixed(2))}`), ref.texts.map((t) => `${t.text}@${t.at.map((v) => v.toFixed(2))}`), `${what}: texts and where they are drawn`);
    assert.equal(got.table, ref.table, `${what}: table`);
    // How differently the engines measure and rasterise (printed, not asserted).
    const widths = got.texts.map((t, i) => Math.abs(t.width - ref.texts[i].width) / Math.max(1, ref.texts[i].width));
    let differ = 0;
    for (let i = 0; i < got.pixels.length; i += 4) {
      if (Math.abs(got.pixels[i] - ref.pixels[i]) + Math.abs(got.pixels[i + 1] - ref.pixels[i + 1]) + Math.abs(got.pixels[i + 2] - ref.pixels[i + 2]) > 48) differ += 1;
    }
    console.log(`# ${what}: text widths differ by up to ${(100 * Math.max(...widths)).toFixed(1)}%, ${(100 * differ / (got.pixels.length / 4)).toFixed(2)}% of pixels differ visibly`);
  }
});
