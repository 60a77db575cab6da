// The inputs of the cross-engine scenarios: real profiler files read in place from
// ../shared/samples/, the released link fixtures, crafted names, and the chart modes by name.
import { join } from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { SAMPLES, ROOT } from '../helpers.mjs';

const NCU = join(SAMPLES, 'ncu');
export { NERSC_RUN } from '../helpers.mjs';
export const COPY_BLOCKED = join(NCU, 'nsightful__tests_copy_blocked.csv');
export const FAILED_RUN = join(NCU, 'Roofline-Analysis__decodebench_results_ncu_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64.ncu.csv');
const RAW = join(NCU, 'Roofline-Analysis__decodebench_results_ncu_torch_sdpa_flash__gqa_bf16_b8_ctx32k_p64.ncu.csv');

/// A Nsight Compute raw page of at least `bytes`: the real sample's preamble, header and units
/// row, then its launches repeated (as engine/examples/make_big_ncu.rs does, without renumbering).
export function bigRawPage(bytes) {
  const lines = readFileSync(RAW, 'utf8').split('\n').filter((l) => l.length > 0);
  const units = lines.findIndex((l) => l.startsWith('""') || l.startsWith('"",'));
  const head = lines.slice(0, units + 1).join('\n') + '\n';
  const rows = lines.slice(units + 1).join('\n') + '\n';
  return head + rows.repeat(Math.ceil((bytes - head.length) / rows.length));
}
export const fixture = (name) => readFileSync(join(ROOT, 'engine', 'tests', 'fixtures', 'links', name), 'utf8').trim();
/// The tabs by accessible name ('Memory walls' today; a shorter 'Walls' label passes too).
export const MODES = ['Classic', 'Hierarchical', 'Instruction', { re: '^(memory )?walls$' }, 'Transfers'];

export const IMG = '<img src=x onerror=window.__pwned=1>';
export const SCRIPT = '<script>window.__pwned=2</script>';
export const CRAFTED_CSV = `kernel,time_s,flops_fp64,bytes_dram\n"${IMG}",0.001,2e9,1e8\n"${SCRIPT}",0.002,4e9,4e8\n`;
// The same kernels as a v1 link (security.test.mjs made it with `roofline link`).
export const CRAFTED_FRAGMENT = 'v1.XZk7CoAwEEQ3KsTC1l7BwkIULTXJCfwcIoWkkMhGiVfxtiaQyvpV0wzDPEi8P6BBQACkUcXUsRcGJX_8-Y6okVtXlNq2btNZl5v3omRGojov8SMD6wIgJIYsp3Sc1m1e3rtuPoMD7m6-vhISa2u8vA';
