// Where the parser workers' time goes while a file loads (issue 17): a CPU profile of each
// worker the page starts (the parser, its second parser, their slice readers), sampled every
// 0.2 ms from the pick until the chart is drawn, with wasm functions named from the build's
// symbol maps (scripts/symbols.mjs; the shipped wasm has no names).
//   node tests/bench/parser-profile.mjs FILE|FOLDER [DIST]   # FOLDER: its files, in name
//   order, picked together
//   PROFILE_PAGE=1 node tests/bench/parser-profile.mjs FILE [DIST]   # the page's main thread too,
//   and its longest busy stretch with the time in each function, callers included
//   PROFILE_CALLERS=REGEX node tests/bench/parser-profile.mjs FILE   # and, for the functions
//   matching REGEX, the chains of their three nearest callers
// Prints, per worker, its busy samples and the functions with the most self time, as shares of
// its busy time. Puppeteer (not Playwright): it hands over the CDP session of every worker,
// nested ones included. Headless Chromium, 1200 × 900, a fresh page, after the parser's start
// (`roofline:parser-settled`, app/src/worker.rs) and its warm-up.
import puppeteer from 'puppeteer-core';
import { join } from 'node:path';
import { ROOT, LAUNCH_ARGS } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { profileFrameNamer } from '../../scripts/symbols.mjs';
import { pickedFiles } from './picked.mjs';

/// For the samples whose own function matches `pattern`: the chains of their three nearest
/// callers, with the time in each, the largest first (`PROFILE_CALLERS=REGEX`: what calls a
/// glue function or a browser API the profile shows high).
function callers(profile, byId, pattern, busy) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const chains = new Map();
  profile.samples.forEach((id, k) => {
    const name = nameOf(byId.get(id).callFrame);
    if (!pattern.test(name)) return;
    const chain = [name];
    for (let p = parent.get(id); p !== undefined && chain.length < 4; p = parent.get(p)) chain.push(nameOf(byId.get(p).callFrame));
    const key = chain.map((c) => c.slice(0, 70)).join(' ← ');
    chains.set(key, (chains.get(key) ?? 0) + (profile.timeDeltas[k + 1] ?? 0));
  });
  for (const [key, us] of [...chains].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`   ${(100 * us / Math.max(busy, 1)).toFixed(1).padStart(5)} %  ${key}`);
  }
}

const [file, dist = join(ROOT, 'dist')] = process.argv.slice(2);
if (!file) { console.error('usage: node tests/bench/parser-profile.mjs FILE|FOLDER [DIST]'); process.exit(2); }
const files = pickedFiles(file);
const TOP = Number(process.env.PROFILE_TOP || 15);

const nameOf = profileFrameNamer(dist);

/// The page's longest stretch of samples without idle ones (a long task, or tasks back to back)
/// and the functions it spent that time in, callers included (each counted once per sample).
function longestStretch(profile, byId) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let best = { us: 0, from: 0, to: 0 }, from = 0, us = 0;
  profile.samples.forEach((id, k) => {
    if (byId.get(id).callFrame.functionName === '(idle)') {
      if (us > best.us) best = { us, from, to: k };
      us = 0; from = k + 1;
    } else us += profile.timeDeltas[k + 1] ?? 0;
  });
  if (us > best.us) best = { us, from, to: profile.samples.length };
  const inclusive = new Map();
  for (let k = best.from; k < best.to; k++) {
    const seen = new Set();
    for (let id = profile.samples[k]; id !== undefined; id = parent.get(id)) seen.add(nameOf(byId.get(id).callFrame));
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + (profile.timeDeltas[k + 1] ?? 0));
  }
  console.log(`\nthe page's longest busy stretch: ${(best.us / 1000).toFixed(0)} ms; time in each function, callers included:`);
  for (const [name, t] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Math.max(TOP, 30))) {
    console.log(`${(t / 1000).toFixed(1).padStart(7)} ms  ${name.slice(0, 120)}`);
  }
}

const { server, url } = await serve(dist, 0, '/roofline/');
const browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: LAUNCH_ARGS, headless: true });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1200, height: 900 });
  const workers = [];
  page.on('workercreated', (w) => workers.push({ url: w.url(), client: w.client }));
  // A worker that ends (the app's compile worker) has no profile to stop.
  page.on('workerdestroyed', (w) => {
    const i = workers.findIndex((x) => x.client === w.client);
    if (i >= 0) workers.splice(i, 1);
  });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, { timeout: 30_000 });
  await new Promise((r) => setTimeout(r, 500));
  // The page itself, as one more "worker" (its main thread: reading the answer, the view).
  if (process.env.PROFILE_PAGE) workers.push({ url: `${url}(page)`, client: await page.createCDPSession(), page: true });
  for (const w of workers) {
    await w.client.send('Profiler.enable');
    await w.client.send('Profiler.setSamplingInterval', { interval: 200 });
    await w.client.send('Profiler.start');
  }
  const input = await page.$('#file-input');
  await input.uploadFile(...files);
  await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, { timeout: 600_000 });
  const load = await page.evaluate(() => performance.getEntriesByName('roofline:load')[0].duration);
  console.log(`${file}: pick → chart ${load.toFixed(0)} ms`);
  // The page's work after the chart (the table's first layout) within the profile too.
  if (process.env.PROFILE_PAGE) await new Promise((r) => setTimeout(r, 1000));
  for (const w of workers) {
    const { profile } = await w.client.send('Profiler.stop');
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    let busy = 0;
    profile.samples.forEach((id, k) => {
      const name = nameOf(byId.get(id).callFrame);
      if (name === '(idle)') return;
      const dt = profile.timeDeltas[k + 1] ?? 0;
      busy += dt;
      self.set(name, (self.get(name) ?? 0) + dt);
    });
    console.log(`\n${w.url.replace(url, '')}: busy ${(busy / 1000).toFixed(0)} ms`);
    for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
      console.log(`${(100 * us / Math.max(busy, 1)).toFixed(1).padStart(6)} %  ${name.slice(0, 120)}`);
    }
    if (w.page) longestStretch(profile, byId);
    if (process.env.PROFILE_CALLERS) callers(profile, byId, new RegExp(process.env.PROFILE_CALLERS), busy);
  }
} finally {
  await browser.close();
  server.close();
}
