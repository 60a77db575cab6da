// After `trunk build`: (1) moves Trunk's inline loader script into a file, so the page's
// Content-Security-Policy can forbid inline scripts; (2) runs npm binaryen's wasm-opt on the
// wasm (Debian's wasm-opt 108 breaks it; Trunk's own wasm-opt step is disabled in index.html),
// with the passes that gave the smallest gzipped size (below); (3) last, stamps the service worker
// with the build's file list and id (scripts/precache.mjs).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stampPrecache } from './precache.mjs';

const dist = process.argv[2];
if (!dist) throw new Error('usage: node postbuild.mjs DIST');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const indexPath = join(dist, 'index.html');
let html = readFileSync(indexPath, 'utf8');
const inline = /<script type="module"(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;
let moved = 0;
html = html.replace(inline, (_, body) => {
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
writeFileSync(indexPath, html);

const wasmOpt = join(root, 'node_modules', '.bin', 'wasm-opt');
const features = ['--enable-bulk-memory', '--enable-nontrapping-float-to-int', '--enable-sign-ext',
  '--enable-mutable-globals', '--enable-reference-types', '--enable-multivalue', '--enable-simd'];
// Passes, in order (gzipped sizes measured 2026-11-21 against plain `-Oz`):
// - `--flatten --rereloop -Os -Os`: restructured control flow compresses better than `-Oz`
//   alone. −1.8 KB (−1.4 KB with `-Os --converge`, −0.3 KB with `-Oz --converge`).
// - strip the producers section (toolchain names). −0.1 KB.
const passes = ['--flatten', '--rereloop', '-Os', '-Os', '--strip-producers'];
// The parser worker is fetched after the first chart and parses every file: optimised for
// speed, as its Cargo profile (`wasm-worker`, opt-level 3) is (docs/PERFORMANCE.md).
const workerPasses = ['-O3', '--strip-producers'];
for (const f of readdirSync(dist)) {
  if (!f.endsWith('_bg.wasm')) continue;
  const p = join(dist, f);
  const before = statSync(p).size;
  const chosen = f === 'roofline-worker_bg.wasm' ? workerPasses : passes;
  execFileSync(wasmOpt, [...chosen, ...features, p, '-o', p], { stdio: 'inherit' });
  console.log(`wasm-opt ${f}: ${before} -> ${statSync(p).size} bytes`);
}

// Last: the precache list and build id describe the files as they are now.
const { version, files } = stampPrecache(dist);
console.log(`service worker: build ${version}, ${files.length} files precached`);
