// The file-list scenarios every engine runs (registered by scenarios.mjs; issue 41): an Intel
// Advisor HTML report dropped, a rocprof-compute workload folder dropped as several files at
// once, and a bad file never taking the others down: dropped with good ones, the good ones are
// shown and each bad one is named with its reason in the page's role=status warnings, as text;
// where nothing can be read, the alert says that nothing was loaded and the view stays.
// Samples are read in place from ../shared/samples.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { SAMPLES } from '../helpers.mjs';
import { waitFor } from './adapter.mjs';
import { tableText, tableHas, chartDrawn, alertText, inkedPixels, dropFiles, openApp, chart } from './page.mjs';
import { COPY_BLOCKED, FAILED_RUN } from './inputs.mjs';

const ADVISOR_HTML = join(SAMPLES, 'advisor-html', 'oneAPI-samples__roofline_gpu_mm_dpcpp_localmem_DG1_5120.html');
const MI350 = ['pmc_perf', 'sysinfo'].map((f) => join(SAMPLES, 'rocprof', `rocm-systems__rocprofiler-compute_tests_workloads_vcopy_MI350_${f}.csv`));
/// Not a profiler format.
const NOTES = { name: 'notes.txt', text: 'Things to try next week:\n- a larger batch\n- the fp8 path\n' };

const asDropped = (path) => ({ name: path.split('/').at(-1), text: readFileSync(path, 'utf8') });

// In-page readers.
/// The load's warnings (role=status) as the page shows them, or null while they are hidden.
const warningTexts = () => {
  const box = document.querySelector('.warnings[role=status]');
  if (!box || box.hidden || box.offsetParent === null) return null;
  return [...box.querySelectorAll('li')].map((li) => li.textContent.trim());
};
const machineSentence = () => document.querySelector('.machine-sentence')?.textContent.trim() ?? '';
const sourceText = () => document.querySelector('.source')?.textContent.trim() ?? '';
/// The kernel table's rows, each as its cells' texts.
const tableRows = () => [...document.querySelectorAll('table.kernels tbody tr')].map((tr) => [...tr.cells].map((td) => td.textContent.trim()));
/// Whether the element the warnings are in holds any element node made from file text (it
/// must be text only: the list items and their fixed structure).
const warningMarkup = () => [...document.querySelectorAll('.warnings[role=status] .warning-sentence')].map((p) => p.children.length);

/// `ctx`: the scenarios' site (a getter), `withProfile` and `clean`.
export function fileListScenarios(engine, ctx) {
  const { withProfile, clean } = ctx;

  test(`${engine.name}: an Intel Advisor HTML report dropped shows its loop and its roofs`, () => withProfile(async (s) => {
    await openApp(s, ctx.site().url);
    const before = await chart(s);
    await s.eval(dropFiles, { selector: '#roofline-canvas', files: [asDropped(ADVISOR_HTML)] });
    await waitFor(s, tableHas, 'mm_kernel', { what: 'the report\'s kernel in the table', timeout: 60_000 });
    await waitFor(s, chartDrawn);
    assert.match(await s.eval(sourceText), /oneAPI-samples__roofline_gpu_mm_dpcpp_localmem_DG1_5120\.html/);
    const rows = await s.eval(tableRows);
    assert.equal(rows.length, 1, JSON.stringify(rows));
    // "selfElapsedTime": 8.9017 s, 2 × 5120³ FLOPs = 268 GFLOP, 33.8 GB of DRAM traffic, so
    // 30.2 GFLOP/s (engine/tests/advisor.rs).
    const row = rows[0];
    assert.equal(row[0], 'mm_kernel', JSON.stringify(row));
    assert.match(row[2], /^8\.90 s\b/, JSON.stringify(row));
    for (const value of ['268 GFLOP', '33.8 GB', '30.2 GFLOP/s']) assert.ok(row.includes(value), `${value} in ${JSON.stringify(row)}`);
    // The report's GPU and its measured roofs.
    assert.match(await s.eval(machineSentence), /^Profiled on DG1 \[Iris Xe MAX Graphics\]: roofs from the machine file/);
    assert.notEqual(await chart(s), before, 'the chart changed');
    assert.ok((await s.eval(inkedPixels)) > 2000);
    await clean(s, 'Advisor HTML');
  }));

  test(`${engine.name}: a rocprof-compute workload dropped as several files is one run on one GPU`, () => withProfile(async (s) => {
    await openApp(s, ctx.site().url);
    await s.eval(dropFiles, { selector: '#roofline-canvas', files: MI350.map(asDropped) });
    await waitFor(s, tableHas, 'vecCopy', { what: 'the vcopy kernel in the table' });
    await waitFor(s, chartDrawn);
    assert.match(await s.eval(sourceText), /^2 files: .*MI350_pmc_perf\.csv, .*MI350_sysinfo\.csv$/);
    const rows = await s.eval(tableRows);
    assert.equal(rows.length, 1, JSON.stringify(rows));
    assert.match(rows[0].join(' '), /vecCopy/);
    // One device, the MI350X (sysinfo: gfx950, 128 CUs), judged against the catalogue's MI350X.
    const sentence = await s.eval(machineSentence);
    assert.match(sentence, /^Profiled on MI350X \(gfx950, 128 CUs\)/, sentence);
    assert.doesNotMatch(sentence, /several|devices/i, sentence);
    await clean(s, 'rocprof-compute folder');
  }));

  test(`${engine.name}: a bad file dropped with good ones: the good ones are shown, each bad one named with why`, () => withProfile(async (s) => {
    await openApp(s, ctx.site().url);
    const before = await chart(s);
    // A details page, a page that fails at its line 35 (a failed run's log), and notes.
    await s.eval(dropFiles, { selector: '#roofline-canvas', files: [asDropped(FAILED_RUN), asDropped(COPY_BLOCKED), NOTES] });
    await waitFor(s, tableHas, 'copy_blocked', { what: 'the good file in the table' });
    await waitFor(s, chartDrawn);
    assert.doesNotMatch(await s.eval(tableText), /ax_kernel/, 'the example is gone');
    assert.notEqual(await chart(s), before, 'the chart is the good file\'s');
    assert.equal(await s.eval(sourceText), 'nsightful__tests_copy_blocked.csv');
    const warnings = await waitFor(s, warningTexts, undefined, { what: 'the warnings' });
    const flash = warnings.find((w) => w.includes('flashinfer'));
    assert.match(flash ?? '', /^Left out Roofline-Analysis__decodebench_results_ncu_flashinfer_paged_decode__gqa_fp8_b64_ctx4k_p64\.ncu\.csv, which could not be read: .*line 35/s, JSON.stringify(warnings));
    const notes = warnings.find((w) => w.includes('notes.txt'));
    assert.match(notes ?? '', /^Left out notes\.txt, which could not be read: .+/, JSON.stringify(warnings));
    assert.deepEqual(await s.eval(warningMarkup), (await s.eval(warningMarkup)).map(() => 0), 'the sentences are text');
    await clean(s, 'bad with good');
    // Nothing readable: the alert says nothing was loaded, naming both files; the view stays
    // (the table and its source; the chart is redrawn smaller beside the alert).
    const table = await s.eval(tableText);
    await s.eval(dropFiles, { selector: '#roofline-canvas', files: [NOTES, asDropped(FAILED_RUN)] });
    const alert = await waitFor(s, alertText, undefined, { what: 'the alert' });
    assert.match(alert, /^Nothing was loaded; the view is unchanged\. /, alert);
    assert.match(alert, /notes\.txt.*flashinfer.*line 35/s, alert);
    assert.equal(await s.eval(tableText), table);
    assert.equal(await s.eval(sourceText), 'nsightful__tests_copy_blocked.csv');
  }));
}
