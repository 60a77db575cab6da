// Chromium for the cross-engine scenarios: Debian's `chromium` driven by playwright-core (the same
// launch as the detailed Chromium tests in ../helpers.mjs). A fresh profile is a new browser
// context; offline is the context's own switch, which covers its service worker too.
import { launch } from '../helpers.mjs';
import { VIEWPORT, pointInView, recordProblems } from './adapter.mjs';

export function chromium() {
  let browser;
  return {
    name: 'chromium',
    version: '',
    offlineNote: 'context offline (playwright setOffline: the page and its service worker)',
    async launch() {
      browser = await launch();
      this.version = `Chromium ${browser.version()}`;
    },
    async newProfile() {
      const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
      const page = await context.newPage();
      return session(context, page);
    },
    async close() {
      await browser?.close();
    },
  };
}

function session(context, page) {
  const problems = recordProblems(page);
  return {
    page,
    async goto(url) { await page.goto(url); },
    async reload() { await page.reload(); },
    async url() { return page.url(); },
    eval: (fn, arg) => page.evaluate(fn, arg),
    async setFiles(selector, paths) { await page.setInputFiles(selector, paths); },
    async click(selector) { await page.click(selector); },
    async fill(selector, text) { await page.fill(selector, ''); await page.type(selector, text); },
    async press(key) { await page.keyboard.press(key); },
    async hover(selector, x, y) {
      const at = await page.evaluate(pointInView, { selector, x, y });
      await page.mouse.move(at.x, at.y);
    },
    async setOffline(on) { await context.setOffline(on); return 'page and worker'; },
    problems: () => problems,
    async close() { await context.close(); },
  };
}
