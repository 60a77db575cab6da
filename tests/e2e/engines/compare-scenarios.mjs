// The run-comparison scenario every engine runs (registered by scenarios.mjs; issue 44): the
// two cs599k Nsight Compute reports loaded as two runs (PyTorch's SiLU before, Triton's after),
// the renamed SiLU kernel paired by hand, the comparison panel's numbers (hand-computed in
// cli/tests/compare.rs: SiLU 5 269 952 ns ÷ 305 184 ns = 17.268×, the run 6 047 424 ÷
// 447 744 = 13.506×), then the v2 link opened in a fresh profile showing the same pairs,
// panel and chart pixels. Kernel names are read as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SAMPLES } from '../helpers.mjs';
import { waitFor } from './adapter.mjs';
import { tableHas, chartDrawn, openApp, chart } from './page.mjs';

const REP = join(SAMPLES, 'ncu-rep');
const BEFORE = join(REP, 'cs599k__profile.ncu-rep');
const AFTER = join(REP, 'cs599k__silu_triton_silu-2025-04-18-v8.ncu-rep');

// In-page readers.
/// The comparison panel's texts, or null while it is hidden.
const panel = () => {
  const p = document.querySelector('.compare-panel');
  if (!p || p.hidden) return null;
  const t = (sel) => [...p.querySelectorAll(sel)].map((e) => e.textContent.trim());
  return { ratio: t('.run-ratio').join(''), amdahl: t('.amdahl li'), gone: t('.runs-gone').join(''), fresh: t('.runs-new').join(''), users: t('.user-pairs li') };
};
/// Chooses, in the select `id`, the option whose text includes `name`; false if none.
const choose = ({ id, name }) => {
  const sel = document.getElementById(id);
  const opt = [...(sel?.options ?? [])].find((o) => o.textContent.includes(name));
  if (!opt) return false;
  sel.value = opt.value;
  sel.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
};

/// `ctx`: the scenarios' site (a getter), `withProfile` and `clean`.
export function compareScenarios(engine, ctx) {
  const { withProfile, clean } = ctx;

  test(`${engine.name}: two runs compared, a pair made by hand, and the v2 link reopens the same pairs and arrows`, async () => {
    const shared = await withProfile(async (s) => {
      await openApp(s, ctx.site().url);
      await s.setFiles('#file-input', [BEFORE]);
      await waitFor(s, tableHas, 'vectorized_elementwise_kernel', { what: 'the before run', timeout: 60_000 });
      await s.setFiles('#add-run-input', [AFTER]);
      await waitFor(s, tableHas, 'silu_kernel_non_strided', { what: 'the after run', timeout: 60_000 });
      const auto = await waitFor(s, panel, undefined, { what: 'the comparison panel' });
      // Automatically the renamed SiLU kernel pairs with nothing: gone and new, never dropped.
      assert.match(auto.gone, /vectorized_elementwise_kernel/, JSON.stringify(auto));
      assert.match(auto.fresh, /silu_kernel_non_strided/, JSON.stringify(auto));
      assert.match(auto.ratio, /^Whole run: 13\.5× /, auto.ratio);
      await waitFor(s, chartDrawn);
      const unpaired = await chart(s);
      // Pair by hand: the PyTorch SiLU kernel before with the Triton one after.
      assert.equal(await s.eval(choose, { id: 'pair-before', name: 'vectorized_elementwise_kernel' }), true);
      assert.equal(await s.eval(choose, { id: 'pair-after', name: 'silu_kernel_non_strided' }), true);
      await s.click('.pair-with');
      await waitFor(s, () => document.querySelectorAll('.compare-panel .user-pairs li').length === 1, undefined, { what: 'the pair made' });
      const paired = await s.eval(panel);
      assert.match(paired.users[0], /vectorized_elementwise_kernel.* = silu_kernel_non_strided/, paired.users[0]);
      assert.equal(paired.fresh, '', 'nothing new once paired');
      // Largest saving first: SiLU, 17.268× (17.3×), 82.1% of the before run's time.
      assert.match(paired.amdahl[0], /silu_kernel_non_strided: 17\.3×, 82\.1% of the before run's time saved/, paired.amdahl[0]);
      assert.match(paired.ratio, /^Whole run: 13\.5× /);
      await waitFor(s, chartDrawn);
      await new Promise((r) => setTimeout(r, 300));
      const view = { chart: await chart(s), panel: await s.eval(panel), url: await s.url() };
      assert.notEqual(view.chart, unpaired, 'the pair draws its arrow');
      await clean(s, 'compared runs');
      return view;
    });
    assert.match(shared.url, /#v2\./);
    await withProfile(async (s) => {
      await openApp(s, shared.url);
      await waitFor(s, panel, undefined, { what: 'the comparison panel of the link' });
      await waitFor(s, chartDrawn);
      assert.deepEqual(await s.eval(panel), shared.panel, 'same pairs and numbers');
      assert.equal(await chart(s), shared.chart, 'identical canvas pixels: the same arrows');
      await clean(s, 'reopened comparison link');
    });
  });
}
