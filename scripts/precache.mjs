// Stamps the service worker with what it must cache for offline use, from the build output itself
// (so a file added by any build step, such as a second wasm module or a worker, is cached without
// anyone editing a list): every file under dist/ except sw.js. Writes into dist/sw.js the list
// (`const PRECACHE = [...]`) and a build id (`const VERSION = '...'`, a hash of every listed
// file's name and bytes), and puts the same id into index.html as
// `<meta name="roofline-build">` for sw-register.js's "updated" notice.
//
// It must run last (scripts/postbuild.mjs ends with it): a later step that changes a file would
// leave the id stale. Idempotent: running it again on a stamped dist/ gives the same result, and
// after changing a file, a new id (the end-to-end update test relies on this).
// Usage: node precache.mjs DIST
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const META = /\s*<meta name="roofline-build" content="[^"]*" \/>/;

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
  const list = files(dist).filter((f) => f !== 'sw.js');
  if (!list.includes('index.html')) throw new Error(`no index.html in ${dist}`);
  const html = readFileSync(indexPath, 'utf8').replace(META, '');

  const hash = createHash('sha256');
  for (const f of list) {
    hash.update(f).update('\0').update(f === 'index.html' ? html : readFileSync(join(dist, f))).update('\0');
  }
  const version = hash.digest('hex').slice(0, 16);

  let sw = readFileSync(swPath, 'utf8');
  const stamped = sw
    .replace(/^const VERSION = .*;$/m, `const VERSION = '${version}';`)
    .replace(/^const PRECACHE = \[[\s\S]*?\];$/m, `const PRECACHE = ${JSON.stringify(list)};`);
  if (stamped === sw && !sw.includes(`'${version}'`)) throw new Error('sw.js has no VERSION/PRECACHE placeholders');
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
