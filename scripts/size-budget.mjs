// First-visit size (wasm + js + css, gzipped) against issue 8's budget of 300 KB.
//
// The budget is not met yet (docs/PERFORMANCE.md names the gap and the plan), so CI enforces a
// ratchet instead: it fails when the first visit grows past RATCHET_BYTES, the size measured
// when the ratchet was last lowered plus 2%. Lower the ratchet whenever the bundle shrinks; when
// it reaches the budget, the budget itself is enforced.
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, extname } from 'node:path';

const BUDGET_BYTES = 300 * 1024;
const RATCHET_BYTES = 356_000; // measured 2026-11-21: 348,945 B (+2%); docs/PERFORMANCE.md lists the steps
const limit = Math.max(BUDGET_BYTES, RATCHET_BYTES);
const dist = process.argv[2] || 'dist';
let total = 0;
for (const f of readdirSync(dist)) {
  if (!['.wasm', '.js', '.css'].includes(extname(f))) continue;
  // The Nsight Compute report reader is a worker loaded on first use, not on the first visit.
  if (f.startsWith('report-worker')) {
    console.log(`${f}: ${gzipSync(readFileSync(join(dist, f)), { level: 9 }).length} bytes gzipped (loaded on first use, not counted)`);
    continue;
  }
  const gz = gzipSync(readFileSync(join(dist, f)), { level: 9 }).length;
  console.log(`${f}: ${gz} bytes gzipped`);
  total += gz;
}
const status = total <= BUDGET_BYTES ? 'within the budget' : `over the ${BUDGET_BYTES} B budget by ${total - BUDGET_BYTES} B`;
console.log(`first visit: ${total} bytes gzipped (${status}; CI limit ${limit} B)`);
if (total > limit) {
  console.error(`first-visit size ${total} B exceeds the CI limit of ${limit} B`);
  process.exit(1);
}
