// Screenshots of the selected-kernel panel for the docs (issue 43): the GH200 full-set report
// and the NERSC five-file run, each at 1366×768 and on a 390×844 phone, with the kernel that
// takes most of the run's time selected (panel-NAME-SIZE.png, the screen as the user sees it),
// and at 1366 px wide the whole panel with "Where these numbers come from" open
// (panel-NAME-sources.png).
//
// Usage: node scripts/screenshots.mjs [DIST] [OUT]   (default dist/ and docs/screenshots/;
// build the site first: `source scripts/lib.sh; build_site /roofline/`).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launch, openPage, ROOT, SAMPLES, settled, waitForChart } from '../tests/e2e/helpers.mjs';
import { serve } from './serve.mjs';

const dist = process.argv[2] || join(ROOT, 'dist');
const out = process.argv[3] || join(ROOT, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });

const nersc = ['dram__bytes.sum', 'sm__cycles_elapsed.avg', 'sm__cycles_elapsed.avg.per_second', 'sm__inst_executed_pipe_tensor.sum', 'sm__sass_thread_inst_executed_op_ffma_pred_on.sum']
  .map((m) => join(SAMPLES, 'ncu', `DeepLearningProfiling__climate-seg-benchmark_TF-fp16-batch2-fw-amp-732365_out.fp16.lag1.train.${m}`));
const profiles = [
  ['gh200', [join(SAMPLES, 'ncu-rep', 'cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep')]],
  ['nersc', nersc],
];
const sizes = [['laptop', { width: 1366, height: 768 }], ['phone', { width: 390, height: 844 }]];

const site = await serve(dist, 0, '/roofline/');
const browser = await launch();
try {
  for (const [name, files] of profiles) {
    for (const [size, viewport] of sizes) {
      const { context, page } = await openPage(browser, `${site.url}`);
      await page.setViewportSize(viewport);
      await page.setInputFiles('#file-input', files);
      await page.waitForFunction((n) => document.querySelectorAll('table.kernels tbody tr').length > 0 && !document.querySelector('.source')?.textContent.startsWith('Example'), null);
      await settled(page);
      await waitForChart(page);
      // The table is sorted by time: its first row is the kernel worth looking at first.
      await page.locator('table.kernels tbody tr').first().click();
      await settled(page);
      const panel = page.locator('.summary-panel');
      // The screen as the user sees it, the panel's verdict in view.
      await panel.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: join(out, `panel-${name}-${size}.png`) });
      if (size === 'laptop') {
        // The numbers' sources, opened, the whole panel in one tall screen.
        await panel.locator('details.provenance summary').click();
        await page.setViewportSize({ width: viewport.width, height: 2600 });
        await settled(page);
        await panel.screenshot({ path: join(out, `panel-${name}-sources.png`) });
      }
      console.log(`panel-${name}-${size}.png`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  site.server.close();
}
