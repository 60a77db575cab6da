// Regenerates public/first-paint.svg, the image of the default example chart that index.html
// shows before the wasm runs (issue 17): the release build in dist/ draws its default view,
// light theme, in a 1000 px window (one column: the chart 976 CSS px wide), and its own SVG export (the engine's
// plotters-svg painter) is saved. tests/e2e/first-paint.test.mjs fails when the committed image
// no longer matches what the app draws; run this (after `build_site /roofline/`) to update it:
//   node scripts/first-paint.mjs
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSite, launch, waitForChart, ROOT } from '../tests/e2e/helpers.mjs';
import { openMenu, MENUS } from '../tests/e2e/menus.mjs';

/// The app's SVG export of its default view in a 1000 px window (one column).
export async function defaultChartSvg(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1, colorScheme: 'light', acceptDownloads: true });
  const page = await context.newPage();
  await page.goto(url);
  await waitForChart(page);
  await openMenu(page, MENUS.export);
  // The chart alone, without the slide frame's footer (machine, files, link).
  await page.uncheck('#export-footer');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button[data-export="roofline.svg"]')]);
  const svg = readFileSync(await download.path(), 'utf8');
  await context.close();
  return svg;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const site = await startSite();
  const browser = await launch();
  const svg = await defaultChartSvg(browser, site.url);
  await browser.close();
  site.server.close();
  const out = join(ROOT, 'public', 'first-paint.svg');
  writeFileSync(out, svg);
  console.log(`wrote ${out} (${svg.length} bytes)`);
  // index.html's <img> keeps the image's size, so the page reserves its box before it loads.
  const [, w, h] = svg.match(/<svg[^>]* width="(\d+)" height="(\d+)"/);
  const html = join(ROOT, 'index.html');
  writeFileSync(html, readFileSync(html, 'utf8').replace(/(class="fp-chart" src="first-paint.svg" alt="") width="\d+" height="\d+"/, `$1 width="${w}" height="${h}"`));
  console.log(`index.html: the image is ${w} × ${h}`);
}
