// Stamps the service worker with what it must cache for offline use, from the build output itself
// (so a file added by any build step, such as a second wasm module or a worker, is cached without
// anyone editing a list): every file under dist/ except sw.js. Writes into dist/sw.js the list
// (`const PRECACHE = [...]`) and a build id (`const VERSION = '...'`, a hash of every listed
// file's name and bytes and of the worker's own code), and puts the same id into index.html as
// `<meta name="roofline-build">` for sw-register.js's "updated" notice.
//
// It must run last (scripts/postbuild.mjs ends with it): a later step that changes a file would
// leave the id stale. Idempotent: running it again on a stamped dist/ gives the same result, and
// after changing a file, a new id (the end-to-end update test relies on this).
// Usage: node precache.mjs DIST
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

// What stampPrecache adds to index.html, and the lines it writes in sw.js.
const META = /[ \t]*<meta name="roofline-build" content="[^"]*" \/>\n/;
const VERSION_LINE = /^const VERSION = .*;$/m;
const PRECACHE_LINE = /^const PRECACHE = \[[\s\S]*?\];$/m;

/// Files not precached: the SQLite worker (rocpd-worker/, its loader, bindings and wasm,
/// ≈ 0.37 MB gzipped) is fetched only when a database is dropped, and the service worker keeps
/// it once fetched (public/sw.js, `ON_DEMAND` there too). Still hashed into the build id.
export const ON_DEMAND = /^(rocpd-loader\.js|roofline-rocpd(_bg\.wasm|\.js))$/;

/// Every file under `dir`, as paths relative to it with `/`, sorted.
function files(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(dir, p).split(sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

export function stampPrecache(dist) {
  const swPath = join(dist, 'sw.js');
  const indexPath = join(dist, 'index.html');
  const list = files(dist).filter((f) => f !== 'sw.js' && !ON_DEMAND.test(f));
  if (!list.includes('index.html')) throw new Error(`no index.html in ${dist}`);
  const html = readFileSync(indexPath, 'utf8').replace(META, '');

  const sw = readFileSync(swPath, 'utf8');
  if (!VERSION_LINE.test(sw) || !PRECACHE_LINE.test(sw)) throw new Error('sw.js has no VERSION/PRECACHE lines to stamp');
  // The id covers every listed file (index.html as built, without the id) and the worker's own
  // code (without what is stamped), so a change to either is a new build.
  const hash = createHash('sha256');
  for (const f of files(dist).filter((f) => f !== 'sw.js')) {
    hash.update(f).update('\0').update(f === 'index.html' ? html : readFileSync(join(dist, f))).update('\0');
  }
  hash.update('sw.js\0').update(sw.replace(VERSION_LINE, '').replace(PRECACHE_LINE, ''));
  const version = hash.digest('hex').slice(0, 16);

  const stamped = sw
    .replace(VERSION_LINE, `const VERSION = '${version}';`)
    .replace(PRECACHE_LINE, `const PRECACHE = ${JSON.stringify(list)};`);
  writeFileSync(swPath, stamped);
  writeFileSync(indexPath, html.replace('</head>', `    <meta name="roofline-build" content="${version}" />\n</head>`));
  return { version, files: list };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2];
  if (!dist) throw new Error('usage: node precache.mjs DIST');
  const { version, files: list } = stampPrecache(dist);
  console.log(`service worker: build ${version}, ${list.length} files precached`);
}
