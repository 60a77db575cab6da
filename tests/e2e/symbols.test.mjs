// The names a failed browser test prints for a panic's wasm frames (scripts/symbols.mjs): Rust's
// mangled names read back, frames in each engine's stack format named from the right module's
// map, and the maps that scripts/postbuild.mjs writes for the build under test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { demangle, nameFrames, symbolDir } from '../../scripts/symbols.mjs';
import { ROOT } from './helpers.mjs';

test('a mangled Rust name reads as the source spells it, without its hash', () => {
  assert.equal(demangle('_ZN15roofline_engine7dataset11missing_for17h8cf984c9aaca8321E'), 'roofline_engine::dataset::missing_for');
  assert.equal(
    demangle('_ZN118_$LT$roofline_engine..import..rocprof..agent_info..RocprofV3AgentInfo$u20$as$u20$roofline_engine..import..Importer$GT$6import28_$u7b$$u7b$closure$u7d$$u7d$17hab10cc457cd959cbE'),
    '<roofline_engine::import::rocprof::agent_info::RocprofV3AgentInfo as roofline_engine::import::Importer>::import::{{closure}}',
  );
  assert.equal(demangle('roofline_app::panic::install::h4404e7d513fcb87f'), 'roofline_app::panic::install', 'demangled already, as in Trunk builds');
  assert.equal(demangle('js_sys::Error::new::__wbg_new_787b::ha7bb8e18c9f6fa2c externref shim'), 'js_sys::Error::new::__wbg_new_787b externref shim');
  assert.equal(demangle('memcpy'), 'memcpy');
  assert.equal(demangle('_ZN3foo'), '_ZN3foo', 'not a whole mangled name: as it was');
});

test("each engine's wasm frames are named from their module's map; WebKit's, which name no file, from the app's", () => {
  const dist = join(mkdtempSync(join(tmpdir(), 'roofline-symbols-')), 'dist');
  const dir = symbolDir(dist);
  mkdirSync(dir, { recursive: true });
  mkdirSync(dist);
  writeFileSync(join(dist, 'roofline-app-0a1b_bg.wasm'), '');
  // An earlier build's map, beside: WebKit's frames are named from the build's own.
  writeFileSync(join(dir, 'roofline-app-0000_bg.wasm.symbols'), '7:wrong\n');
  writeFileSync(join(dir, 'roofline-app-0a1b_bg.wasm.symbols'), '0:memcpy\n7:_ZN12roofline_app5panic7install17h0123456789abcdefE\n');
  writeFileSync(join(dir, 'roofline-first_bg.wasm.symbols'), '7:roofline_first::draw::h0123456789abcdef\n');
  // Each engine's frame as it printed a panic of a test build (2026-11-28); Firefox's, with
  // the link chart's module for a second map.
  const chromium = '    at http://127.0.0.1:1/roofline/roofline-app-0a1b_bg.wasm:wasm-function[7]:0x1f2e';
  const firefox = '@http://127.0.0.1:1/roofline/roofline-first_bg.wasm:wasm-function[7]:0x10';
  const webkit = '7@<?>:wasm-function[7]';
  assert.equal(nameFrames(`boom\n${chromium}\n${firefox}\n${webkit}\nat js (x.js:1:2)`, dist), [
    'boom',
    '    at http://127.0.0.1:1/roofline/roofline-app-0a1b_bg.wasm:wasm-function[7] roofline_app::panic::install:0x1f2e',
    '@http://127.0.0.1:1/roofline/roofline-first_bg.wasm:wasm-function[7] roofline_first::draw:0x10',
    '7@<?>:wasm-function[7] roofline_app::panic::install',
    'at js (x.js:1:2)',
  ].join('\n'));
  assert.equal(nameFrames('99@<?>:wasm-function[99]', dist), '99@<?>:wasm-function[99]', 'an index not in the map stays as it was');
  assert.equal(nameFrames(webkit, join(tmpdir(), 'no-such-build', 'dist')), webkit, 'no maps: the stack as it was');
});

test("the build under test has a map for each of its wasm modules, naming the app's own functions", () => {
  const dist = process.env.ROOFLINE_DIST || join(ROOT, 'dist');
  const dir = symbolDir(dist);
  const modules = readdirSync(dist).filter((f) => f.endsWith('_bg.wasm'));
  assert.equal(modules.length, 4, `the app, the parser worker, the link chart and the SQLite worker: ${modules}`);
  for (const m of modules) assert.ok(existsSync(join(dir, `${m}.symbols`)), `${m}'s map in ${dir}`);
  const app = modules.find((m) => m.startsWith('roofline-app-'));
  const names = readFileSync(join(dir, `${app}.symbols`), 'utf8').split('\n').map((l) => demangle(l.slice(l.indexOf(':') + 1)));
  assert.ok(names.length > 1000, `${names.length} functions`);
  assert.ok(names.some((n) => n.startsWith('roofline_app::chart_view::')), "the chart view's functions are named");
  assert.ok(!names.some((n) => /::h[0-9a-f]{16}$/.test(n)), 'no hash left');
});
