// One `describe` per browser engine (Chromium, Firefox, WebKit) with the site served and the
// engine launched for its tests, for the test files that run their scenarios in each engine.
//   eachEngine((engine, ctx) => { test(…, () => inFreshProfile(engine, async (s) => … ctx.site.url …)); });
// `ctx.site` is `startSite()`'s; `setup(ctx)` may add servers of its own to `ctx` (closed after
// the engine's tests: each `ctx` value with a `server`).
import { describe, before, after } from 'node:test';
import { startSite } from '../helpers.mjs';
import { chromium } from './chromium.mjs';
import { firefox } from './firefox.mjs';
import { webkit } from './webkit.mjs';

export function eachEngine(body, setup = async () => {}) {
  for (const make of [chromium, firefox, webkit]) {
    const engine = make();
    describe(engine.name, () => {
      const ctx = {};
      before(async () => {
        ctx.site = await startSite();
        await setup(ctx);
        await engine.launch();
        console.log(`# ${engine.name}: ${engine.version}`);
      });
      after(async () => {
        await engine.close();
        for (const served of Object.values(ctx)) {
          served?.server?.closeAllConnections();
          served?.server?.close();
        }
      });
      body(engine, ctx);
    });
  }
}
