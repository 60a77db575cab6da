// A static file server for dist/, mounted at a path prefix (default /) on 127.0.0.1, as GitHub
// Pages serves a project site under /<repo>/. Used by dev.sh and the end-to-end tests;
// gzipped (`{ gzip: true }`) by the Lighthouse and throttled-start benchmarks.
// Usage: node serve.mjs DIST PORT [PREFIX]. PORT 0 picks a free port; the URL is printed.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join, normalize, extname } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json',
  '.csv': 'text/csv; charset=utf-8', '.png': 'image/png', '.ico': 'image/x-icon',
  '.webmanifest': 'application/manifest+json', '.md': 'text/markdown; charset=utf-8',
};

/// Returns `{ server, url, root, requests, reachable, refused, delays, replaced, split }`. For
/// the offline tests: `requests` lists every request's path as it arrives, `reachable = false`
/// makes the server drop connections unanswered (a network that is gone), and `root` can be
/// changed to serve another build (a new deploy). `refused`, `delays`, `replaced` and `split`
/// make a file missing, slow, different or sent in two parts for a test (below).
///
/// With `gzip`, files are served as GitHub Pages serves them: gzip-compressed (level 9) to a
/// client that accepts it, cacheable for 10 minutes. Lighthouse's simulation and the throttled
/// start benchmark compute download times from the bytes transferred.
export function serve(dist, port = 0, prefix = '/', { gzip = false } = {}) {
  if (!prefix.endsWith('/')) prefix += '/';
  const site = { server: null, url: '', root: dist, requests: [], reachable: true, refused: new Set(), delays: new Map(), replaced: new Map(), split: new Map() };
  const gzipped = new Map();
  site.server = createServer(async (req, res) => {
    site.requests.push(req.url);
    if (!site.reachable) { req.socket.destroy(); return; }
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (path + '/' === prefix) { res.writeHead(301, { Location: prefix }); res.end(); return; }
    if (!path.startsWith(prefix)) { res.writeHead(404); res.end('not found'); return; }
    let rel = normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, '');
    if (rel === '' || rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    // A file a test makes unavailable (`site.refused.add('name')`).
    if (site.refused.has(rel)) { res.writeHead(404); res.end('not found'); return; }
    // A file a test makes slow (`site.delays.set('name', ms)`).
    if (site.delays.has(rel)) await new Promise((r) => setTimeout(r, site.delays.get(rel)));
    try {
      // A file a test serves other bytes for (`site.replaced.set('name', () => text)`; a
      // function that returns undefined serves the file).
      let body = site.replaced.get(rel)?.() ?? await readFile(join(site.root, rel));
      const headers = { 'Content-Type': TYPES[extname(rel)] || 'application/octet-stream', 'Cache-Control': gzip ? 'max-age=600' : 'no-store' };
      if (gzip && /\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        if (!gzipped.has(rel)) gzipped.set(rel, gzipSync(body, { level: 9 }));
        body = gzipped.get(rel);
        headers['Content-Encoding'] = 'gzip';
      }
      res.writeHead(200, headers);
      // A file a test sends in two parts, the second `ms` later (`site.split.set('name',
      // { before: 'text', ms })`: the first part ends before the text's first occurrence).
      const split = site.split.get(rel);
      if (split) body = Buffer.from(body);
      const at = split && !headers['Content-Encoding'] ? body.indexOf(split.before) : -1;
      if (at > 0) {
        res.write(body.subarray(0, at));
        await new Promise((r) => setTimeout(r, split.ms));
      }
      res.end(at > 0 ? body.subarray(at) : body);
    } catch {
      res.writeHead(404); res.end('not found');
    }
  });
  return new Promise((resolve) => site.server.listen(port, '127.0.0.1', () => {
    site.url = `http://127.0.0.1:${site.server.address().port}${prefix}`;
    resolve(site);
  }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dist, port = '8080', prefix = '/'] = process.argv.slice(2);
  const { url } = await serve(dist, Number(port), prefix);
  console.log(`Roofline Explorer: ${url}`);
}
