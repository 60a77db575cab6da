// A static server for a built site under /roofline/, gzip-compressed as GitHub Pages serves
// it (Lighthouse's simulation and the throttled start benchmark compute download times from
// the bytes transferred). Used by scripts/lighthouse.mjs and tests/bench/throttled-start.mjs.
//   const { server, url } = await serveGzip(dist);   // url ends with /roofline/
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join, normalize, extname } from 'node:path';

const PREFIX = '/roofline/';
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.csv': 'text/csv', '.webmanifest': 'application/manifest+json' };

export async function serveGzip(dist) {
  const gzipped = new Map();
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (!path.startsWith(PREFIX)) { res.writeHead(404); res.end(); return; }
    let rel = normalize(path.slice(PREFIX.length)).replace(/^(\.\.[/\\])+/, '');
    if (rel === '' || rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    try {
      let body = await readFile(join(dist, rel));
      const headers = { 'Content-Type': TYPES[extname(rel)] || 'application/octet-stream', 'Cache-Control': 'max-age=600' };
      if (/\bgzip\b/.test(req.headers['accept-encoding'] || '')) {
        if (!gzipped.has(rel)) gzipped.set(rel, gzipSync(body, { level: 9 }));
        body = gzipped.get(rel);
        headers['Content-Encoding'] = 'gzip';
      }
      res.writeHead(200, headers);
      res.end(body);
    } catch {
      res.writeHead(404); res.end();
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}${PREFIX}` };
}
