// Firefox for the cross-engine scenarios: Debian's `firefox-esr` driven by puppeteer-core over
// WebDriver BiDi (no geckodriver). A fresh profile is a new BiDi user context (its own cookies,
// storage and service workers). Offline is puppeteer's setOfflineMode, which covers the page but
// not its service worker (offline-scenarios.mjs).
import puppeteer from 'puppeteer-core';
import { VIEWPORT, pointInView, recordProblems } from './adapter.mjs';

// On top of puppeteer's own test preferences (which already point updates, Normandy, the
// blocklist and remote settings at a dummy host): the services that would still try to reach
// Mozilla from a closed network, so that what the tests see is the page's traffic, not the
// browser's, and nothing waits on a connection that cannot succeed.
const PREFS = {
  'app.update.auto': false,
  'browser.region.network.url': '', // region lookup
  'browser.region.update.enabled': false,
  'browser.topsites.contile.enabled': false, // sponsored tiles
  'datareporting.healthreport.uploadEnabled': false,
  'dom.push.connection.enabled': false, // the push service's websocket
  'extensions.blocklist.enabled': false,
  'geo.provider.network.url': '',
  'identity.fxaccounts.enabled': false,
  'messaging-system.rsexperimentloader.enabled': false,
  'network.captive-portal-service.enabled': false, // detectportal.firefox.com
  'network.connectivity-service.enabled': false,
  'network.dns.disablePrefetch': true,
  'network.prefetch-next': false,
  'network.trr.mode': 5, // no DNS over HTTPS
  'toolkit.telemetry.enabled': false,
  'toolkit.telemetry.server': '',
  'toolkit.telemetry.unified': false,
  // The offline test needs them (they are on by default; off in private browsing windows only).
  'dom.serviceWorkers.enabled': true,
};

export function firefox() {
  let browser;
  return {
    name: 'firefox',
    version: '',
    offlineNote: 'puppeteer setOfflineMode (WebDriver BiDi) for the page, the server dropping connections for the worker',
    async launch() {
      browser = await puppeteer.launch({
        browser: 'firefox',
        executablePath: process.env.FIREFOX || '/usr/bin/firefox-esr',
        headless: true,
        extraPrefsFirefox: PREFS,
      });
      this.version = `Firefox ${(await browser.version()).replace(/^firefox\//, '')}`;
    },
    async newProfile() {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(VIEWPORT);
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
    async goto(url) { await page.goto(url, { waitUntil: 'load' }); },
    async reload() { await page.reload({ waitUntil: 'load' }); },
    async url() { return page.url(); },
    eval: (fn, arg) => page.evaluate(fn, arg),
    async setFiles(selector, paths) { await (await page.$(selector)).uploadFile(...paths); },
    async click(selector) { await page.click(selector); },
    async fill(selector, text) {
      await page.$eval(selector, (el) => { el.focus(); el.select(); });
      await page.keyboard.press('Backspace');
      await page.keyboard.type(text);
    },
    async press(key) { await page.keyboard.press(key); },
    async hover(selector, x, y) {
      const at = await page.evaluate(pointInView, { selector, x, y });
      await page.mouse.move(at.x, at.y);
    },
    async setOffline(on) {
      try {
        await page.setOfflineMode(on);
        // The page only: the service worker and the browser's update check still reach the
        // network (seen with Firefox 153 ESR), so the scenario takes the server away as well.
        return 'page';
      } catch {
        return false;
      }
    },
    problems: () => problems,
    async close() { await context.close(); },
  };
}
