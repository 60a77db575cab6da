// The small interface the cross-engine scenarios (scenarios.mjs) are written against, and what
// the three adapters share. Each adapter (chromium.mjs: playwright-core; firefox.mjs:
// puppeteer-core over WebDriver BiDi; webkit.mjs: selenium-webdriver and WebKitWebDriver) is a
// thin translation of these calls; anything that can be done inside the page is done here, once,
// by `eval`, so the engines differ only where their drivers do.
//
// An engine: `{ name, launch(), version, newProfile() -> Session, close(), offlineNote }`.
// A session (one fresh profile: empty storage, no service worker, one page at 1200×900 CSS px):
//   goto(url), reload(), url()                  navigate and wait for the load event
//   eval(fn, arg)                               run `fn(arg)` in the page (may be async; JSON back)
//   setFiles(selector, paths)                   pick files on an <input type=file>
//   click(selector), clickRole(role, name)      a real pointer click on an element
//   fill(selector, text)                        replace an input's text by typing
//   press(key)                                  one key ('2', '/', 'Escape') to the focused element
//   hover(selector, x, y)                       the mouse to (x, y) CSS px from the element's corner
//                                               (scrolled into view first: see `pointInView`)
//   setOffline(on) -> scope                     the engine's own offline switch: 'page and worker',
//                                               'page' (the service worker stays online), or false
//                                               (no switch)
//   problems() -> { consoleErrors, pageErrors, requests } as far as the driver reports them (null:
//                  the driver cannot see them; the page's own records are checked in every engine)
//   close()
import { createServer } from 'node:net';

/// Whether `e` is a wait for the page that ran out: `waitFor`'s, or the driver's own (puppeteer,
/// Playwright and selenium-webdriver all name it `TimeoutError`: a navigation whose `load`
/// never came).
export function isTimeout(e) {
  return String(e?.message).startsWith('timed out after') || e?.name === 'TimeoutError';
}

/// Polls `fn(arg)` in the page until it returns something truthy and the page has settled;
/// returns that value. Settled: the app's executor has no run queued (`window.rooflineIdle`,
/// app/src/executor.rs), so what one change does is all applied, not only the part `fn` sees.
export async function waitFor(session, fn, arg, { timeout = 20000, what = fn.toString().slice(0, 120) } = {}) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await session.eval(fn, arg);
      if (last && await session.eval(() => !window.rooflineIdle || window.rooflineIdle())) return last;
    } catch (e) {
      // A navigation in progress destroys the page's context: try again.
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${last})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/// In the page: marks the element with `role` whose accessible name is `name` (a string, exact
/// after trimming, or `{ re: source }` for a case-insensitive pattern) with a unique attribute and
/// returns a CSS selector for it, or null. The name is `aria-label`, else `aria-labelledby`'s
/// text, else the text content: what the app sets, without an accessibility tree the drivers
/// do not all expose.
export function markByRole({ role, name }) {
  const nameOf = (el) => (el.getAttribute('aria-label')
    || (el.getAttribute('aria-labelledby') || '').split(/\s+/).map((id) => document.getElementById(id)?.textContent || '').join(' ').trim()
    || el.textContent || '').trim();
  const test = typeof name === 'string' ? (n) => n === name : (n) => new RegExp(name.re, 'i').test(n);
  const implicit = { button: 'button', link: 'a[href]', dialog: 'dialog', table: 'table' };
  const sel = `[role="${role}"]` + (implicit[role] ? `, ${implicit[role]}` : '');
  const el = [...document.querySelectorAll(sel)].find((e) => test(nameOf(e)));
  if (!el) return null;
  const id = `t${Math.random().toString(36).slice(2)}`;
  el.setAttribute('data-e2e-target', id);
  return `[data-e2e-target="${id}"]`;
}

/// In the page: scrolls so that the point (x, y) of the element (CSS px from its top-left corner)
/// is in the middle of the viewport, and returns it in viewport coordinates. The drivers' pointer
/// moves are in viewport coordinates (WebDriver's element origin is the centre of the element's
/// visible part, which moves when the element is partly scrolled out).
export function pointInView({ selector, x, y }) {
  const el = document.querySelector(selector);
  let r = el.getBoundingClientRect();
  window.scrollBy(0, r.top + y - innerHeight / 2);
  r = el.getBoundingClientRect();
  return { x: r.left + x, y: r.top + y };
}

/// In the page: what the page can tell about its own requests, the same in every engine: every
/// resource it fetched (Resource Timing) that is not of its own origin.
export function foreignResources() {
  return performance.getEntriesByType('resource').map((e) => e.name)
    .filter((u) => !u.startsWith(location.origin) && !u.startsWith('data:') && !u.startsWith('blob:'));
}

/// A free TCP port on 127.0.0.1 (for a driver that needs one given).
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

export const VIEWPORT = { width: 1200, height: 900 };

/// A page's console errors, page errors and requests as they happen: playwright-core's and
/// puppeteer-core's pages emit the same three events (WebDriver has none of them).
export function recordProblems(page) {
  const problems = { consoleErrors: [], pageErrors: [], requests: [] };
  page.on('console', (m) => { if (m.type() === 'error') problems.consoleErrors.push(m.text()); });
  page.on('pageerror', (e) => problems.pageErrors.push(String(e)));
  page.on('request', (r) => problems.requests.push(r.url()));
  return problems;
}

/// Whether a request URL leaves the site's origin (data: and blob: URLs stay in the page).
export function isForeign(url, origin) {
  return !url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:') && !url.startsWith('about:');
}

/// A real click on the element with `role` and accessible name `name` (see `markByRole`).
export async function clickRole(session, role, name) {
  const selector = await waitFor(session, markByRole, { role, name }, { what: `${role} "${JSON.stringify(name)}"` });
  await session.click(selector);
}
