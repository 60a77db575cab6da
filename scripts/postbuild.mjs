// After `trunk build`: (1) moves Trunk's inline loader script into a file, so the page's
// Content-Security-Policy can forbid inline scripts, minifies the scripts (esbuild) and marks
// the app's bindings for eager compilation (below); (2) runs npm binaryen's wasm-opt on the
// wasm (Debian's wasm-opt 108 breaks it; Trunk's own wasm-opt step is disabled in index.html),
// with the passes that gave the smallest gzipped size (below); (3) minifies the stylesheets and
// writes their `integrity` hashes again (below); (4) last, stamps the service worker with the
// build's file list and id (scripts/precache.mjs).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync, statSync, mkdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { transform } from 'lightningcss';
import * as esbuild from 'esbuild';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stampPrecache } from './precache.mjs';
import { formatsPage } from './formats-page.mjs';
import { symbolDir } from './symbols.mjs';

const dist = process.argv[2];
if (!dist) throw new Error('usage: node postbuild.mjs DIST');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const indexPath = join(dist, 'index.html');
let html = readFileSync(indexPath, 'utf8');
const inline = /<script type="module"(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;
let moved = 0;
let bindingsHref;
html = html.replace(inline, (_, loader) => {
  let body = loader;
  // The app's wasm is fetched once the first paint's chart image has been shown, by
  // public/first-paint.js (`rooflineWasm`, a promise of the response; see the wasm preload
  // below); the loader falls back to its own fetch where that script did not run.
  const start = 'const wasm = await init({ module_or_path: ';
  if (!body.includes(start)) throw new Error(`postbuild: the loader script no longer calls init as "${start}"`);
  body = body.replace(start, `const fetched = await window.rooflineWasm;\nconst wasm = await init({ module_or_path: fetched ?? `);
  // The bindings are imported once first-paint.js says the app's scripts may come
  // (`rooflineAppWanted`: at once, or on a shared link's page once the link chart's wasm has
  // arrived), not by a static import, which the browser fetches as it parses the page: on a
  // link's page their 12.6 KB gzipped shared the network with the link chart's wasm
  // (docs/PERFORMANCE.md, "2026-12-07, later").
  const staticImport = /^import init, \* as bindings from '([^']+)';$/m;
  const imported = staticImport.exec(body);
  if (!imported) throw new Error('postbuild: the loader script no longer imports its bindings as "import init, * as bindings from \'…\';"');
  bindingsHref = imported[1];
  body = body.replace(staticImport, `await window.rooflineAppWanted;\nconst bindings = await import('${imported[1]}');\nconst init = bindings.default;`);
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const name = `boot-${hash}.js`;
  writeFileSync(join(dist, name), body.trim() + '\n');
  // The loader imports the bindings by an absolute or relative URL; keep the same directory.
  const m = body.match(/from\s+'([^']*\/)?[^'/]+\.js'/);
  const prefix = m && m[1] ? m[1] : './';
  moved += 1;
  return `<script type="module" src="${prefix}${name}"></script>`;
});
if (moved !== 1) throw new Error(`expected one inline loader script in index.html, found ${moved}`);
// The scripts, minified by esbuild (format and names kept: a module stays a module, and the
// top-level names of the classic scripts, such as the workers' `wasm_bindgen`, stay global):
// wasm-bindgen's bindings and our loaders carry comments and whitespace that were 13 KB
// gzipped in all, on a phone's first visit 2.6 KB of a shared link's first chart (the link
// chart's bindings) and 5.5 KB of the bare page's app (docs/PERFORMANCE.md, "2026-12-07, later"). Not
// sw.js, whose lines scripts/precache.mjs stamps. A script the page names with an `integrity`
// hash gets it again below. first-paint.js is minified where it is put in the page.
const minified = (source, module) => esbuild.transformSync(source, { minify: true, format: module ? 'esm' : undefined, target: 'es2022', legalComments: 'none' }).code;
const scripts = /^(roofline-(app-[0-9a-f]+|first|worker|rocpd)|boot-[0-9a-f]+|sw-register-[0-9a-f]+|wasm-compile|parser-loader|rocpd-loader|slice-reader)\.js$/;
for (const f of readdirSync(dist).filter((f) => scripts.test(f))) {
  const path = join(dist, f);
  const source = readFileSync(path, 'utf8');
  const code = minified(source, /^(roofline-app-|boot-|sw-register-)/.test(f));
  writeFileSync(path, code);
  const named = new RegExp(`<script src="(?:[^"]*/)?${f.replace(/[.]/g, '\\.')}" integrity="(sha384-[A-Za-z0-9+/=]+)"`).exec(html);
  if (named) html = html.replace(named[1], `sha384-${createHash('sha384').update(code).digest('base64')}`);
  console.log(`esbuild ${f}: ${source.length} -> ${code.length} bytes`);
}
// Trunk preloads the app's wasm from <head>; that link becomes a <meta> naming it, for
// public/first-paint.js to fetch once the first paint's image has been shown. Lighthouse's
// simulated mobile load counts every request that ended before the largest paint in its
// unthrottled trace, where the 430 KB wasm raced the image and won one run in three (LCP 3.46 s,
// performance 91, against 1.21 s and 100). Under real throttling the page asked for the wasm at
// 1.27 s and showed the image at 1.30 s: asked for after the paint, the wasm starts 0.05 s later
// and the app is not measurably later (4,462 -> 4,443 ms; docs/PERFORMANCE.md, "2026-11-25").
const wasmPreload = /<link rel="preload" href="([^"]*_bg\.wasm)"[^>]*>/g;
const preloads = [...html.matchAll(wasmPreload)];
if (preloads.length !== 1) throw new Error(`expected one wasm preload in index.html, found ${preloads.length}`);
html = html.replace(wasmPreload, '');
// first-paint.js goes into the page itself, first in <head> after the CSP that allows it by its
// hash (no other inline script runs), with the <meta> naming the app's wasm above it. As a file
// after the stylesheets it ran only once they had arrived (a script waits for the stylesheets
// above it), and a shared link's chart module was asked for then: at 1.33 s of a throttled
// phone's visit instead of 0.91 s, its chart drawn at 3.73 s instead of 3.18 s
// (docs/PERFORMANCE.md, "2026-12-07": Lighthouse's throttling, tests/bench/throttled-start.mjs).
// Trunk's <link rel="modulepreload"> of the bindings goes too: first-paint.js asks for them when
// they are wanted, by the <meta name="roofline-bindings"> beside the wasm's.
const bindingsPreload = /<link rel="modulepreload" href="([^"]*)"[^>]*>/g;
const modulePreloads = [...html.matchAll(bindingsPreload)];
if (modulePreloads.length !== 1 || modulePreloads[0][1] !== bindingsHref) throw new Error(`postbuild: expected one modulepreload, of ${bindingsHref}, in index.html, found ${modulePreloads.map((m) => m[1]).join(', ') || 'none'}`);
html = html.replace(bindingsPreload, '');
const firstPaintScript = '<script src="first-paint.js"></script>';
if (!html.includes(firstPaintScript)) throw new Error(`postbuild: index.html has no ${firstPaintScript}`);
const firstPaint = minified(readFileSync(join(dist, 'first-paint.js'), 'utf8'), false);
if (/<\/script|<!--/i.test(firstPaint)) throw new Error('postbuild: first-paint.js holds "</script" or "<!--", which an inline script cannot');
const scriptSrc = "script-src 'self' 'wasm-unsafe-eval'";
const csp = /<meta http-equiv="Content-Security-Policy" content="[^"]*" \/>/.exec(html);
if (!csp || !csp[0].includes(`${scriptSrc};`)) throw new Error(`postbuild: index.html has no CSP meta with "${scriptSrc};"`);
const firstPaintHash = `'sha256-${createHash('sha256').update(firstPaint).digest('base64')}'`;
html = html.replace(firstPaintScript, '');
html = html.replace(csp[0], `${csp[0].replace(`${scriptSrc};`, `${scriptSrc} ${firstPaintHash};`)}
    <meta name="roofline-wasm" content="${preloads[0][1]}" />
    <meta name="roofline-bindings" content="${bindingsHref}" />
    <script id="first-paint-script">${firstPaint}</script>`);
// Not deployed as a file: no page asks for it (a development build, without this step, does).
rmSync(join(dist, 'first-paint.js'));
// index.html is written once its stylesheets' hashes are in (below).

// The app's bindings (wasm-bindgen's JavaScript: the imports' 262 functions and the loader) are
// marked for V8's explicit compile hints (Chrome 136+): with `//# allFunctionsCalledOnLoad` first
// in the file, V8 compiles all its functions as it loads the script, off the main thread,
// instead of each on its first call, which was 10-26 ms of JavaScript compiled in the task that
// instantiates the wasm (its imports object, the loader) and in the mount's. Lighthouse charged
// that task 4x; its median TBT went 153 -> 94 ms in one A/B round of 8 runs
// (docs/PERFORMANCE.md, 2026-11-29, night). Other browsers read a comment.
const hint = '//# allFunctionsCalledOnLoad\n';
const bindings = readdirSync(dist).filter((f) => /^roofline-app-[0-9a-f]+\.js$/.test(f));
if (bindings.length !== 1) throw new Error(`expected one roofline-app-*.js in ${dist}, found ${bindings.length}`);
const bindingsPath = join(dist, bindings[0]);
const bindingsText = readFileSync(bindingsPath, 'utf8');
if (!bindingsText.startsWith(hint)) writeFileSync(bindingsPath, hint + bindingsText);

const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
const features = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue', '--enable-simd'];
// Passes, in order (gzipped sizes measured 2026-11-21 against plain `-Oz`):
// - `--flatten --rereloop -Os -Os`: restructured control flow compresses better than `-Oz`
//   alone. −1.8 KB (−1.4 KB with `-Os --converge`, −0.3 KB with `-Oz --converge`).
// - strip the producers section (toolchain names). −0.1 KB.
const passes = ['--flatten', '--rereloop', '-Os', '-Os', '--strip-producers'];
// The app and the link chart: `-ocimfs=3000`, a function called from one place is inlined there
// only when under 3,000 bytes (binaryen's default inlines it whatever its size). V8 compiles each
// wasm function on the main thread at its first call, whole: inlined into the app's start, large
// functions the start never calls (a shared link's decoder, 22 KB) were compiled with it. The
// start compiles 445 → 423 KB of functions, and the app is 0.6 KB smaller gzipped
// (docs/PERFORMANCE.md, "2026-11-29, afternoon"). The link chart's `main` was one 95 KB
// function, compiled before its first line ran: in pieces (first/src/main.rs keeps LLVM from
// inlining them), a throttled phone compiles its chart's functions in 64–68 ms instead of
// 117–126 ms, for 0.2 KB more gzipped ("2026-12-07, later").
const appPasses = [...passes, '-ocimfs=3000'];
// The parser worker is fetched after the first chart and parses every file: optimised for
// speed, as its Cargo profile (`wasm-worker`, opt-level 3) is (docs/PERFORMANCE.md).
const workerPasses = ['-O3', '--strip-producers'];
// The SQLite worker (rocpd-worker/), fetched when a database is dropped: size first, as the
// app's: `-Os` gave 371,079 B gzipped of 414,991 (`-Oz` 371,084, the shared `passes` 371,073 in
// half again the time: its SQLite is C, already optimised by clang; measured 2026-12-06).
const rocpdPasses = ['-Os', '--strip-producers'];
// Each module's function names, by index in the optimised wasm (`--symbolmap`, a printing
// pass: the output is the same bytes), beside dist/ and not deployed: the shipped wasm has no
// names, so a panic's stack in a browser says `wasm-function[N]`, and the browser tests name
// the functions from these maps (scripts/symbols.mjs). The last build's maps only.
const symbols = symbolDir(dist);
rmSync(symbols, { recursive: true, force: true });
mkdirSync(symbols, { recursive: true });
for (const f of readdirSync(dist)) {
  if (!f.endsWith('_bg.wasm')) continue;
  const p = join(dist, f);
  const before = statSync(p).size;
  const chosen = f === 'roofline-worker_bg.wasm' ? workerPasses : f === 'roofline-rocpd_bg.wasm' ? rocpdPasses : f.startsWith('roofline-app-') || f === 'roofline-first_bg.wasm' ? appPasses : passes;
  execFileSync(wasmOpt, [...chosen, ...features, `--symbolmap=${join(symbols, `${f}.symbols`)}`, p, '-o', p], { stdio: 'inherit' });
  console.log(`wasm-opt ${f}: ${before} -> ${statSync(p).size} bytes`);
}

// The stylesheets, minified by lightningcss, the library Trunk's own minifier calls (Trunk's
// `minify` also rewrites index.html, whose lines the steps above edit). Their comments, which say
// why in the source, were 1.4 KB gzipped of every visit, the first included (docs/PERFORMANCE.md,
// "2026-11-29, late night"). Each keeps its name (Trunk's hash of the source still changes with
// it) and gets its `integrity` hash again, or the browser would refuse it.
const stylesheet = /<link rel="stylesheet" href="(?:[^"]*\/)?([^"/]+\.css)" integrity="(sha384-[A-Za-z0-9+/=]+)"\/?>/g;
const sheets = [...html.matchAll(stylesheet)];
if (sheets.length !== 3) throw new Error(`postbuild: expected 3 stylesheets with integrity hashes in index.html, found ${sheets.length}`);
for (const [, name, integrity] of sheets) {
  const path = join(dist, name);
  const source = readFileSync(path);
  const { code } = transform({ filename: name, code: source, minify: true });
  writeFileSync(path, code);
  html = html.replace(integrity, `sha384-${createHash('sha384').update(code).digest('base64')}`);
  console.log(`lightningcss ${name}: ${source.length} -> ${code.length} bytes`);
}
writeFileSync(indexPath, html);

// docs/FORMATS.md as the site's formats.html: the app's errors link to it (a web user cannot
// open a repository path). Precached with the rest, so it opens offline too.
writeFileSync(join(dist, 'formats.html'), formatsPage(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'FORMATS.md'), 'utf8')));

// Last: the precache list and build id describe the files as they are now.
const { version, files } = stampPrecache(dist);
console.log(`service worker: build ${version}, ${files.length} files precached`);
