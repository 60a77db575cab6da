// Screenshots of the built site for reviews and issue notes: node scripts/screenshot.mjs OUT.png [FRAGMENT_OR_FILES...]
// Serves dist/ under /roofline/, opens it in Debian's Chromium, optionally picks files, saves a PNG.
import { startSite, launch, openPage, waitForChart } from '../tests/e2e/helpers.mjs';

const [out = 'screenshot.png', ...rest] = process.argv.slice(2);
const fragment = rest.find((a) => a.startsWith('#')) || '';
const files = rest.filter((a) => !a.startsWith('#'));
const site = await startSite();
const browser = await launch();
const { page } = await openPage(browser, site.url + fragment);
if (files.length) {
  await page.setInputFiles('#file-input', files);
  await page.waitForTimeout(1500);
  await waitForChart(page);
}
await page.screenshot({ path: out, fullPage: true });
console.log(`wrote ${out}`);
await browser.close();
site.server.close();
