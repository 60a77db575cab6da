// Fails when the first visit (wasm + js + css, gzipped) exceeds the budget of issue 8.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname } from 'node:path';

const BUDGET_BYTES = 300 * 1024;
const dist = process.argv[2] || 'dist';
let total = 0;
for (const f of readdirSync(dist)) {
  if (!['.wasm', '.js', '.css'].includes(extname(f))) continue;
  const gz = gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  console.log(`${f}: ${gz} bytes gzipped`);
  total += gz;
}
console.log(`first visit: ${total} bytes gzipped (budget ${BUDGET_BYTES})`);
if (total > BUDGET_BYTES) {
  console.error(`first-visit size ${total} B exceeds the budget of ${BUDGET_BYTES} B`);
  process.exit(1);
}
