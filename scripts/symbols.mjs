// Function names for a wasm stack. The shipped wasm has no name section, so a browser's stack
// of a panic says `wasm-function[N]`; scripts/postbuild.mjs writes each module's map of index
// to (mangled) name with wasm-opt's `--symbolmap` beside dist/, and `nameFrames` puts the
// names back in a stack (the browser tests print a panic's stack with it).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';

/// Where postbuild writes the maps for the build in `dist`: outside it, so they are not
/// deployed (the site's service worker precaches all of dist/).
export function symbolDir(dist) {
  return join(dirname(dist), 'target', 'wasm-symbols');
}

/// A Rust name as source spells it, without its hash: legacy-mangled (`_ZN…17h<hash>E`) or
/// already demangled (`a::b::h<hash>`, as the name sections of Trunk's builds hold them);
/// other names as they are.
export function demangle(name) {
  const m = /^_ZN(.*)E$/.exec(name);
  if (!m) return name.replace(/::h[0-9a-f]{16}(?=$|\s)/g, '');
  const parts = [];
  let rest = m[1];
  while (rest.length > 0) {
    const len = /^\d+/.exec(rest);
    if (!len) return name;
    const n = Number(len[0]);
    parts.push(rest.slice(len[0].length, len[0].length + n));
    rest = rest.slice(len[0].length + n);
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1) ?? '')) parts.pop();
  const decode = (p) => p.replace(/^_\$/, '$')
    .replace(/\$(LT|GT|RF|BP|SP|C)\$/g, (_, c) => ({ LT: '<', GT: '>', RF: '&', BP: '*', SP: '@', C: ',' })[c])
    .replace(/\$u([0-9a-f]{2,})\$/g, (_, h) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/\.\./g, '::');
  return parts.map(decode).join('::');
}

/// `stack` with each `wasm-function[N]` followed by its function's name, from the map of the
/// module the frame names (Chromium's and Firefox's frames carry the file) or, where a frame
/// does not say (WebKit's `N@<?>:wasm-function[N]`), of `fallback` (a file name prefix: the
/// page's panics are the app's). A stack without maps comes back as it was.
export function nameFrames(stack, dist, fallback = 'roofline-app-') {
  const dir = symbolDir(dist);
  if (!existsSync(dir)) return stack;
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      const path = join(dir, `${file}.symbols`);
      const names = new Map();
      if (existsSync(path)) {
        for (const line of readFileSync(path, 'utf8').split('\n')) {
          const at = line.indexOf(':');
          if (at > 0) names.set(Number(line.slice(0, at)), demangle(line.slice(at + 1)));
        }
      }
      maps.set(file, names);
    }
    return maps.get(file);
  };
  // The build's own module: maps of earlier builds may lie beside it (postbuild keeps none,
  // but a map is only right for the wasm it was written with).
  const app = existsSync(dist) ? readdirSync(dist).find((f) => f.startsWith(fallback) && f.endsWith('_bg.wasm')) : undefined;
  return stack.split('\n').map((line) => {
    const file = /([\w.-]+_bg\.wasm)/.exec(line)?.[1] ?? app;
    const names = file ? mapOf(file) : new Map();
    return line.replace(/wasm-function\[(\d+)\]/g, (all, n) => names.has(Number(n)) ? `${all} ${names.get(Number(n))}` : all);
  }).join('\n');
}

/// A name for each frame of a V8 CPU profile of the build in `dist` (`callFrame` →
/// string): a wasm frame by its module's map, any other frame by its own name.
export function profileFrameNamer(dist) {
  const names = new Map();
  for (const wasm of readdirSync(dist).filter((f) => f.endsWith('_bg.wasm'))) {
    const path = join(symbolDir(dist), `${wasm}.symbols`);
    if (!existsSync(path)) continue;
    names.set(wasm, new Map(readFileSync(path, 'utf8').split('\n').filter((l) => l.includes(':')).map((l) => {
      const at = l.indexOf(':');
      return [Number(l.slice(0, at)), demangle(l.slice(at + 1))];
    })));
  }
  return (frame) => {
    const m = /(?:wasm-function\[|\$func)(\d+)/.exec(frame.functionName);
    const wasm = /([\w.-]+_bg\.wasm)/.exec(frame.url)?.[1];
    const map = (wasm && names.get(wasm)) || [...names.values()].find((n) => m && n.has(Number(m[1])));
    return (m && map?.get(Number(m[1]))) || frame.functionName || '(anonymous)';
  };
}
