// The benchmarks' 10,000-kernel file (tests/bench/browser.mjs, redraw-ab.mjs), the same rows as
// engine/examples/raster_10k.rs builds natively.

/// A tidy CSV of n kernels with L1/L2/DRAM bytes (three dots each in the hierarchical chart).
export function tidyKernels(n) {
  const rows = ['kernel,time_s,flops_fp32,bytes_l1,bytes_l2,bytes_dram'];
  for (let i = 0; i < n; i++) {
    const t = 1e-5 * (1 + (i % 97)), f = 1e9 * (1 + (i % 389)), b = 1e8 * (1 + (i % 211));
    rows.push(`kernel_${i},${t},${f},${b * 4},${b * 2},${b}`);
  }
  return rows.join('\n') + '\n';
}
