// Where a load's CPU goes, by Chromium process (issue 17): each run picks FILE on a fresh page of
// the build DIST (after the parser's start, as load-ab.mjs), and the CPU time every Chromium
// process used from the pick until the chart (`roofline:load`) is read from /proc (user +
// system, Linux only) and summed by process type: the renderer (the page, its parser workers
// and their slice readers), the browser process (which serves the File's bytes to the
// readers), the GPU process and the utilities.
//   node tests/bench/load-cpu.mjs FILE|FOLDER [DIST] [RUNS]
// FOLDER: its files, in name order, picked together. Prints the mean wall time of the load, the
// mean CPU time of each process type, and their sum against what the host's cores could give
// in that wall time: near 100 % means the load is bound by the CPU, not by waiting.
import { cpus } from 'node:os';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, launch, waitForChart } from '../e2e/helpers.mjs';
import { serve } from '../../scripts/serve.mjs';
import { pickedFiles } from './picked.mjs';

const [path, dist = join(ROOT, 'dist'), runs = '5'] = process.argv.slice(2);
if (!path || !(Number(runs) > 0)) {
  console.error('usage: node tests/bench/load-cpu.mjs FILE|FOLDER [DIST] [RUNS]');
  process.exit(2);
}
const file = pickedFiles(path);
const TICKS_PER_S = 100; // USER_HZ, the unit of /proc/PID/stat's times on Linux

/// CPU ms so far of every Chromium process this script started (its descendants: not another
/// browser running on the machine), by pid, with its type (`--type=`, and a utility's service).
function chromiumCpu() {
  // Each process's parent and CPU time, from one read of its stat: after the command's closing
  // parenthesis, field 4 (the parent) and fields 14 and 15 (utime, stime).
  const stat = new Map();
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      stat.set(pid, { parent: fields[1], ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_S });
    } catch {
      // The process ended meanwhile.
    }
  }
  const ours = (pid) => {
    for (let p = pid, hops = 0; p && p !== '0' && hops < 64; p = stat.get(p)?.parent, hops++) if (p === String(process.pid)) return true;
    return false;
  };
  const out = new Map();
  for (const [pid, { ms }] of stat) {
    if (!ours(pid)) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const type = cmd.match(/--type=([a-z-]+)/)?.[1] ?? 'browser';
      const service = cmd.match(/--utility-sub-type=([\w.]+)/)?.[1];
      out.set(pid, { type: service ? `${type} (${service})` : type, ms });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

const site = await serve(dist, 0, '/roofline/');
const browser = await launch();
const byType = new Map();
let wallMs = 0;
try {
  for (let r = 0; r < Number(runs); r++) {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(site.url);
    await waitForChart(page);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:parser-settled').length > 0, null, { timeout: 30_000 });
    await page.waitForTimeout(500);
    const before = chromiumCpu();
    await page.setInputFiles('#file-input', file);
    await page.waitForFunction(() => performance.getEntriesByName('roofline:load').length > 0, null, { timeout: 600_000 });
    const after = chromiumCpu();
    wallMs += await page.evaluate(() => performance.getEntriesByName('roofline:load')[0].duration);
    for (const [pid, { type, ms }] of after) byType.set(type, (byType.get(type) ?? 0) + ms - (before.get(pid)?.ms ?? 0));
    await context.close();
  }
} finally {
  await browser.close();
  site.server.close();
}
const n = Number(runs), wall = wallMs / n, cores = cpus().length;
const total = [...byType.values()].reduce((a, b) => a + b, 0) / n;
console.log(`pick → chart ${wall.toFixed(0)} ms a run (mean of ${n}); CPU ${total.toFixed(0)} ms a run, ${((100 * total) / (wall * cores)).toFixed(0)} % of ${cores} cores over that time (/proc counts in 10 ms ticks):`);
for (const [type, ms] of [...byType].sort((a, b) => b[1] - a[1])) if (ms / n >= 1) console.log(`  ${type}: ${(ms / n).toFixed(0)} ms`);
