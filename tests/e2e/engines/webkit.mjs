// WebKit for the cross-engine scenarios: Debian's `webkit2gtk-driver` (WebKitWebDriver) running
// the MiniBrowser of the WebKitGTK library package, under `xvfb-run` (MiniBrowser needs a display
// even for automation), driven by selenium-webdriver over classic W3C WebDriver.
//
// What classic WebDriver cannot do, and how the scenarios make up for it:
// - no console, page-error or network events: problems() reports null for them, and the scenarios'
//   in-page checks (Resource Timing for foreign requests, the page's role=alert, window error
//   events) stand in;
// - no offline switch: setOffline() returns false and the scenario makes the site's server drop
//   every connection instead (a network that is gone).
// A fresh profile is a new WebDriver session: a new MiniBrowser whose automation session keeps
// its website data in memory only.
import { spawn, execFileSync } from 'node:child_process';
import { Builder, By, Key } from 'selenium-webdriver';
import { VIEWPORT, freePort, pointInView } from './adapter.mjs';

/// The MiniBrowser that WebKitGTK's library package installs (libwebkit2gtk-4.1-0 on Debian 12;
/// `dpkg -S` finds it whatever the package's name and the architecture's directory).
function miniBrowser() {
  if (process.env.MINIBROWSER) return process.env.MINIBROWSER;
  const owned = execFileSync('dpkg', ['-S', '*/MiniBrowser'], { encoding: 'utf8' });
  const found = owned.split('\n').map((l) => l.split(': ')[1]).find((f) => f?.endsWith('/MiniBrowser'));
  if (!found) throw new Error('no MiniBrowser: install webkit2gtk-driver (scripts/lib.sh ensure_webkit)');
  return found;
}

const KEYS = { Escape: Key.ESCAPE, Enter: Key.ENTER, ArrowDown: Key.ARROW_DOWN, ArrowUp: Key.ARROW_UP, Backspace: Key.BACK_SPACE };

/// Rejects when `promise` has not settled within `ms`.
function within(promise, ms, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms); })])
    .finally(() => clearTimeout(timer));
}

export function webkit() {
  let driverProcess;
  let port;
  let binary;
  const sessions = new Set();

  /// WebKitWebDriver under xvfb-run, in its own process group so that stopping it ends xvfb-run,
  /// Xvfb, the driver and its browsers together.
  async function startDriver() {
    port = await freePort();
    driverProcess = spawn('xvfb-run', ['-a', '-s', '-screen 0 1600x1200x24', 'WebKitWebDriver', `--port=${port}`], { detached: true, stdio: 'ignore' });
    const end = Date.now() + 20000;
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${port}/status`)).ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > end) throw new Error('WebKitWebDriver did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  function stopDriver() {
    if (!driverProcess) return;
    try {
      process.kill(-driverProcess.pid, 'SIGTERM');
      process.kill(-driverProcess.pid, 'SIGCONT'); // a stopped process acts on it only once running
    } catch {
      // already gone
    }
    driverProcess = null;
  }

  async function newSession() {
    const driver = await within(new Builder()
      .usingServer(`http://127.0.0.1:${port}`)
      .withCapabilities({ browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary, args: ['--automation'] } })
      .build(), 30000, 'a new WebKitWebDriver session');
    // The window's outer size is the viewport plus MiniBrowser's toolbar: its width is the
    // page's, as in the other engines.
    await driver.manage().window().setRect({ width: VIEWPORT.width, height: VIEWPORT.height });
    // Fail a stuck load or script within a test's time rather than WebDriver's 5 minutes.
    await driver.manage().setTimeouts({ pageLoad: 30000, script: 30000 });
    return driver;
  }

  return {
    name: 'webkit',
    version: '',
    offlineNote: 'none in WebKitWebDriver: the site\'s server drops every connection instead',
    async launch() {
      binary = miniBrowser();
      await startDriver();
      const probe = await this.newProfile();
      this.version = `WebKitGTK ${probe.browserVersion} (MiniBrowser)`;
      await probe.close();
    },
    async newProfile() {
      let driver;
      try {
        driver = await newSession();
      } catch (e) {
        // Seldom, on a loaded machine, MiniBrowser never connects and the new session waits for
        // ever: start the driver (and its display) again, once.
        console.log(`# webkit: ${e.message}; restarting WebKitWebDriver`);
        for (const s of [...sessions]) sessions.delete(s);
        stopDriver();
        await startDriver();
        driver = await newSession();
      }
      const s = session(driver, (await driver.getCapabilities()).get('browserVersion'));
      sessions.add(s);
      const close = s.close;
      s.close = async () => {
        sessions.delete(s);
        await within(close(), 20000, 'closing a WebKitWebDriver session').catch((e) => console.log(`# webkit: ${e.message}`));
      };
      return s;
    },
    async close() {
      for (const s of [...sessions]) await s.close();
      stopDriver();
    },
  };
}

function session(driver, browserVersion) {
  const find = (selector) => driver.findElement(By.css(selector));
  return {
    driver,
    browserVersion,
    async goto(url) { await driver.get(url); },
    async reload() { await driver.navigate().refresh(); },
    async url() { return driver.getCurrentUrl(); },
    // W3C Execute Script awaits a returned promise.
    eval: (fn, arg) => driver.executeScript(`return (${fn}).apply(null, arguments)`, arg),
    async setFiles(selector, paths) { await (await find(selector)).sendKeys(paths.join('\n')); },
    async click(selector) { await (await find(selector)).click(); },
    async fill(selector, text) {
      const el = await find(selector);
      await el.clear();
      await el.sendKeys(text);
    },
    async press(key) { await driver.actions().sendKeys(KEYS[key] ?? key).perform(); },
    async hover(selector, x, y) {
      const at = await driver.executeScript(`return (${pointInView}).apply(null, arguments)`, { selector, x, y });
      await driver.actions().move({ origin: 'viewport', x: Math.round(at.x), y: Math.round(at.y) }).perform();
    },
    async setOffline() { return false; },
    problems: () => ({ consoleErrors: null, pageErrors: null, requests: null }),
    async close() { await driver.quit(); },
  };
}
