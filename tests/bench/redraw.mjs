// The benchmarks' 10,000-kernel redraw (tests/bench/browser.mjs, redraw-ab.mjs): the kernels'
// file, the same rows as engine/examples/raster_10k.rs builds natively, and the redraws timed.

/// A tidy CSV of n kernels with L1/L2/DRAM bytes (three dots each in the hierarchical chart).
export function tidyKernels(n) {
  const rows = ['kernel,time_s,flops_fp32,bytes_l1,bytes_l2,bytes_dram'];
  for (let i = 0; i < n; i++) {
    const t = 1e-5 * (1 + (i % 97)), f = 1e9 * (1 + (i % 389)), b = 1e8 * (1 + (i % 211));
    rows.push(`kernel_${i},${t},${f},${b * 4},${b * 2},${b}`);
  }
  return rows.join('\n') + '\n';
}

/// A redraw's measures: the whole, then its parts (the scene, the paint, of which the raster).
export const PARTS = ['roofline:render', 'roofline:scene', 'roofline:paint', 'roofline:raster'];

/// Redraws the chart on `page` `count` times by the keyboard's zoom ('0', '+' in turn), each an
/// exact redraw; returns each redraw's [render, scene, paint, raster] ms.
export async function timeRedraws(page, count) {
  const redraws = [];
  for (let i = 0; i < count; i++) {
    await page.evaluate((parts) => parts.forEach((p) => performance.clearMeasures(p)), PARTS);
    await page.locator('body').press(i % 2 ? '+' : '0');
    await page.waitForFunction(() => performance.getEntriesByName('roofline:render').length > 0);
    redraws.push(await page.evaluate((parts) => parts.map((p) => performance.getEntriesByName(p).reduce((s, e) => s + e.duration, 0)), PARTS));
  }
  return redraws;
}
