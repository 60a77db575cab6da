// First-visit size (wasm + js + css, gzipped) against issue 17's budget of 300 KB.
//
// The first visit is what the first chart needs: what `index.html` loads before its first
// chart is drawn. Two pages, two first charts:
// - no link: the built-in example, an image (public/first-paint.svg) in the static first paint;
// - a shared link (`#v1.…`): the link chart (`roofline-first*`, named by first-paint.js), the
//   engine's link codec and chart without the app's view layer, drawn into the first paint.
// Both pages also load the stylesheets, first-paint.js (inline), the boot script and the app's bindings
// as soon as the page is parsed; the larger (the link's) is held to the budget. The app's wasm
// (named by <meta name="roofline-wasm">) is asked for by first-paint.js once that first chart
// is shown, and takes its place (tests/e2e/link-chart.test.mjs, first-paint.test.mjs): it is
// listed apart, and what a page without a link loads up to the working app (everything but the
// link chart) is held to a ratchet, so the app cannot grow unnoticed. The parser worker
// (`roofline-worker*`, started after the first chart), the SQLite worker (`roofline-rocpd*`, which
// the parser starts when a database is dropped; nothing on the page names it), the service worker
// and what it precaches (registered once the app runs) are listed apart and not counted.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname, basename } from 'node:path';

const BUDGET_BYTES = 300 * 1024;
// The app visit (a page without a link, up to the working app): measured 2026-11-24 at
// 448,462 B (+2%); raised 2026-11-27 for the Hopper fixes (457,890 B measured) and twice
// for the rasteriser (459,478 B measured); raised 2026-11-28 for the page's own task executor
// (app/src/executor.rs, the fix of a WebKit start-up panic: 461,507 B measured by CI); and
// again that day for the short names worked out in linear time (engine/src/domain/short_names.rs:
// 10,000 kernels of one short name took 14 s, now 0.06 s; 462,986 B measured) and for the
// kernel table's window of rows (a table of 10,000 rows held the page 6.5 s) and its scroll to
// the selected row (466,117 B measured); and for a gesture's frames drawn from the last exact
// image (app/src/gesture_frames.rs: zoom and pan of 10,000 kernels at the screen's rate;
// 466,121 B before, 468,615 B after) and the link's CRC-32 by a table built on first use
// (468,955 B), and the Machine, Chart and Export menus' panels mounted on first open
// (470,008 B: the start's long task shorter), and the help dialog's and "How to collect"
// panel's contents built when they first open (471,965 B: 59 of the start's 235 elements),
// and a large answer of the parser read a slice per task, answers read in turn (472,882 B);
// raised 2026-11-29 for the executor's runs sliced after the start, a large load's report and
// names prepared a part per task (app/src/prepare.rs) and its first chart painted in a task
// of its own (the longest task of a 10,000-kernel load 146 -> 0-69 ms: none over 50 ms in
// most loads; 475,688 B measured), then for `window.rooflineIdle` (test drivers wait for a
// change's last task) and the first paint queued first in the executor's next task (476,584
// B); then for the start view's link known at build time (app/src/start_link.rs) and the app's
// wasm compiled by a worker (public/wasm-compile.js): Lighthouse's blocking time 211 -> 139 ms
// on the development machine (478,218 B). Lowered on 2026-11-29, late night, when the
// stylesheets were minified (scripts/postbuild.mjs: 476,953 B measured, −1,523 B). Raised on
// 2026-12-01, late, for the workers' roles as names (every visit after the first had lost its
// second parser and its compile worker: 476,777 -> 478,661 B, the inliner's choices in the
// app's code moved by the change) and the compile worker's warm-up of a load's answer
// (app/src/warm.rs `warm_load`: 480,621 B). Raised on 2026-12-06 for the roofs of the silicon
// that ran (issues 41 and 42): the H100 NVL, H20, L40, MI300X CPX and MI350X entries, MIG
// slices and partitions derived from their entry, older NVIDIA product names' architectures,
// each kernel judged at its own clock (487,327 B measured, +6,635 B; 487,715 B at the end of that change).
// Raised on 2026-12-06 again for issues 43, 44 and 46 (537,325 B measured, +49,610 B): runs
// compared in the page (pairing through the engine, the comparison panel and pairing form,
// arrows and both runs' roofs, the v2 link with runs and pairs: +33.6 KB), the binding roof of
// the selected kernel always drawn with labels that never vanish (+3.4 KB), the provenance and
// advice of the selected kernel computed in the page, and the moved state module. The SQLite
// reader adds nothing here (a worker of its own, on demand). docs/PERFORMANCE.md lists the steps.
// Raised on 2026-12-07 for issue 45 (568,145 B measured, +30,746 B): pictures for slides (the
// slide frame of the PNG and SVG exports, the link's QR code by qrcodegen, +6.6 KB of it, and
// "Copy for a course page": +11.1 KB), the embed view (+2.9 KB), links that survive (the
// length, the cut and altered messages, the paste box's links, the long-link note: +2.0 KB) and
// `#url=` links (the consent dialog, the fetch, the parameters with percent-encoding, the
// address kept as `#url=`: the rest). docs/PERFORMANCE.md lists what the phone's start lost.
// Lowered on 2026-12-07, later, for the phone budgets of issue 45 (550,362 B measured,
// −17,874 B): the scripts minified by esbuild, Unicode's case tables out (ASCII case where the
// text is ASCII), one compiled stable sort for the engine's lists (engine/src/order.rs).
// Lower it whenever the app shrinks.
const APP_RATCHET_BYTES = 551_000;
const dist = process.argv[2] || 'dist';
const COUNTED = ['.wasm', '.js', '.css'];
const files = readdirSync(dist).filter((f) => COUNTED.includes(extname(f)));

// Files named by a text (an attribute or a string literal ending in the file's name).
const named = (text) => files.filter((f) => new RegExp(`["'(/]${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["')]`).test(text));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const appWasmName = html.match(/<meta name="roofline-wasm" content="([^"]+)"/)?.[1];
if (!appWasmName) throw new Error('size-budget: index.html names no app wasm in <meta name="roofline-wasm"> (scripts/postbuild.mjs)');
const appWasm = basename(appWasmName);
// first-paint.js is in the page itself (scripts/postbuild.mjs says why), counted as a file of
// every page. The link chart's files are the `roofline-first*` it names; the other file it
// names, the worker that compiles the app's wasm (public/wasm-compile.js), every page loads.
const firstPaint = html.match(/<script id="first-paint-script">([\s\S]*?)<\/script>/)?.[1];
if (!firstPaint) throw new Error('size-budget: index.html has no inline first-paint script (scripts/postbuild.mjs)');
const linkChart = new Set(named(firstPaint).filter((f) => f.startsWith('roofline-first')));
if (![...linkChart].some((f) => f.endsWith('.wasm'))) throw new Error('size-budget: first-paint.js names no link chart wasm');
const loaded = new Set(named(html));
for (let grew = true; grew;) {
  grew = false;
  for (const f of [...loaded].filter((f) => extname(f) === '.js')) {
    for (const g of named(readFileSync(join(dist, f), 'utf8'))) {
      // The service worker is registered once the app runs (public/sw-register.js); what it
      // precaches is fetched after the first chart, so neither it nor its list is counted.
      if (g === 'sw.js') continue;
      if (!loaded.has(g)) { loaded.add(g); grew = true; }
    }
  }
}
if (!loaded.has(appWasm)) throw new Error(`size-budget: the app's wasm ${appWasm} is not in dist/`);

const gz = (f) => gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
const inlineBytes = gzipSync(firstPaint, { level: 9 }).length;
console.log(`first-paint.js, inline in index.html: ${inlineBytes} bytes gzipped (every page, at once)`);
let firstChart = inlineBytes, appVisit = inlineBytes, later = 0;
for (const f of files) {
  const n = gz(f);
  if (!loaded.has(f)) {
    later += n;
    console.log(`${f}: ${n} bytes gzipped (loaded on first use, not counted)`);
    continue;
  }
  const where = f === appWasm ? 'the app, asked for once the first chart is shown' : linkChart.has(f) ? 'the link chart: a shared link\'s first chart' : 'every page, at once';
  console.log(`${f}: ${n} bytes gzipped (${where})`);
  if (f !== appWasm) firstChart += n;
  if (!linkChart.has(f)) appVisit += n;
}
const status = firstChart <= BUDGET_BYTES ? 'within the budget' : `over the ${BUDGET_BYTES} B budget by ${firstChart - BUDGET_BYTES} B`;
console.log(`loaded on first use: ${later} bytes gzipped`);
console.log(`first visit (a shared link's first chart): ${firstChart} bytes gzipped (${status})`);
console.log(`the app (a page without a link, up to the working app): ${appVisit} bytes gzipped (CI limit ${APP_RATCHET_BYTES} B)`);
let failed = false;
if (firstChart > BUDGET_BYTES) { console.error(`first-visit size ${firstChart} B exceeds the budget of ${BUDGET_BYTES} B`); failed = true; }
if (appVisit > APP_RATCHET_BYTES) { console.error(`the app's visit ${appVisit} B exceeds the CI limit of ${APP_RATCHET_BYTES} B`); failed = true; }
if (failed) process.exit(1);
