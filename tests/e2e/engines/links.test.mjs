// Links that survive mail and chat (issue 45, part 4; docs/SHARING.md, "Text layout"), in
// Chromium, Firefox ESR and WebKitGTK: a real link cut at three places opens the example with an
// alert that says it was cut and how many of its characters are missing; a link wrapped over
// lines and pasted in the paste box opens; Copy link on the five-file NERSC run (a link over
// 2,000 characters) says the link is long, with the two ways to a short one.
// Run: node --test tests/e2e/engines/links.test.mjs (against dist/, or ROOFLINE_DIST).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './each-engine.mjs';
import { NERSC_RUN, fixture } from './inputs.mjs';
import { waitFor } from './adapter.mjs';
import { tableHas, chartDrawn, alertText, openApp, inFreshProfile } from './page.mjs';

// The NERSC run's released link (49 kernels), in today's form: its 2,987-character payload
// after "v1.2987." (it ends on "A": no terminator), 2,995 characters.
const OLD = fixture('v1-deeplearning-ncu.txt');
const PAYLOAD = OLD.slice('v1.'.length);
const LINK = `v1.${PAYLOAD.length}.${PAYLOAD}`;
/// Where it is cut, and how many of its 2,995 characters are then missing (by hand: 2,995 − kept).
const CUTS = [
  { kept: 12, missing: '2,983' }, // a few characters after "v1.2987."
  { kept: 1_791, missing: '1,204' }, // in the middle
  { kept: 2_994, missing: '1' }, // one short
];

/// Thousands with commas, as the page writes counts.
const grouped = (n) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

eachEngine((engine, ctx) => {
  test(`${engine.name}: a link cut at three places says it was cut and how much is missing`, () => inFreshProfile(engine, async (s) => {
    assert.equal(LINK.length, 2_995);
    for (const [i, { kept, missing }] of CUTS.entries()) {
      // Another query each time: a new document, not a same-document fragment change.
      await s.goto(`${ctx.site.url}?cut=${i}#${LINK.slice(0, kept)}`);
      const alert = await waitFor(s, alertText, undefined, { what: `the alert of the link cut to ${kept}` });
      const are = missing === '1' ? 'is' : 'are';
      assert.match(alert, new RegExp(`cannot be opened: it was cut short; ${missing} of its 2,995 characters ${are} missing\\. Copy the whole link again`), alert);
      await waitFor(s, tableHas, 'ax_kernel', { what: 'the example instead' });
    }
  }));

  test(`${engine.name}: a wrapped link pasted opens; Copy link on the NERSC run flags its length`, () => inFreshProfile(engine, async (s) => {
    await openApp(s, ctx.site.url);
    // The link as a mail program wraps it: 76-character lines.
    const wrapped = `https://example.github.io/roofline/#${LINK}`.match(/.{1,76}/g).join('\r\n');
    await s.eval((text) => {
      const box = document.querySelector('.paste-box');
      box.open = true;
      const area = document.querySelector('#paste-text');
      area.value = text;
      area.dispatchEvent(new Event('input', { bubbles: true }));
      return true;
    }, wrapped);
    await s.eval(() => { [...document.querySelectorAll('.paste-box button')].find((b) => /Analyse pasted text/.test(b.textContent)).click(); return true; });
    // The fixture's view: the NERSC run in hierarchical mode, top 20.
    await waitFor(s, tableHas, 'volta_fp16_s884cudnn', { what: 'the pasted link\'s kernels' });
    assert.equal(await s.eval(alertText), '', 'no alert');
    await waitFor(s, () => document.querySelector('[role=tab][aria-selected=true]')?.textContent.trim() === 'Hierarchical', undefined, { what: 'the link\'s mode' });

    // The five files picked: the page's own link of them, over 2,000 characters.
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma', { what: 'the NERSC run in the table' });
    await waitFor(s, chartDrawn);
    // The address settled first (the load's last tasks may still change the view, and the
    // length the note gives is the address's when it was copied).
    await s.eval(() => new Promise((done) => {
      let last = location.href, since = performance.now();
      const look = () => {
        if (location.href !== last) { last = location.href; since = performance.now(); }
        if (performance.now() - since > 300 && (!window.rooflineIdle || window.rooflineIdle())) done(true); else setTimeout(look, 20);
      };
      look();
    }));
    await s.click('#copy-link');
    const said = await waitFor(s, () => document.querySelector('.feedback')?.textContent || '', undefined, { what: 'the copy-link feedback' });
    const chars = await s.eval(() => location.href.length);
    assert.ok(chars > 2_000, `${chars}`);
    // Copied (or refused to a headless page), and flagged either way.
    assert.match(said, /^(Link copied|Copy failed: copy the address bar instead)\. /, said);
    assert.ok(said.includes(`This link is long (${grouped(chars)} characters)`), said);
    assert.ok(said.includes('#url=') && said.includes('"Open from a URL"'), said);
    assert.ok(said.includes('Export → View file (.roofline.json)'), said);
    console.log(`# ${engine.name}: Copy link said "${said.slice(0, 60)}…"`);
  }));
});
