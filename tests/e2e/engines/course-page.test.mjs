// Pictures for slides and course pages (issue 45, part 1; docs/SHARING.md), in Chromium,
// Firefox ESR and WebKitGTK: with a title typed in the Export menu, "Chart PNG (2×)" and
// "Chart SVG" export the chart in its slide frame (the SVG's title escaped, its link an
// <a href> with the page's address); "Copy for a course page" gives an HTML snippet that,
// put in a page with the exported PNG in place of roofline.png, shows the image (at 2×: its
// pixels twice the snippet's width and height) as a link to the app's view. With "QR code of
// the link" checked, the example's short link gets its code; the NERSC run's long one does not,
// and the menu says why.
// The download is taken in the page, where every engine's driver can see it: the export's
// Blob from URL.createObjectURL, its <a download> click kept from navigating.
// Run: node --test tests/e2e/engines/course-page.test.mjs (against dist/, or ROOFLINE_DIST).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eachEngine } from './each-engine.mjs';
import { waitFor } from './adapter.mjs';
import { openApp, inFreshProfile, tableHas } from './page.mjs';
import { NERSC_RUN } from './inputs.mjs';

/// A title with markup characters: it must reach the SVG and the alt text as text.
const TITLE = 'Course <demo> & "x"';

// In-page helpers.
/// Records every Blob given an object URL (the exports' downloads) and keeps `<a download>`
/// clicks from starting a download.
const captureDownloads = () => {
  window.__downloads = [];
  const make = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (blob) => {
    window.__downloads.push(blob);
    return make(blob);
  };
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (!this.hasAttribute('download')) click.call(this);
  };
  return true;
};
/// The type of the `i`th download, once there is one.
const downloaded = (i) => window.__downloads?.[i]?.type ?? '';
/// Whether the Export menu's panel is open with its contents built.
const exportMenuOpen = () => !!document.querySelector('#menu-export:popover-open #export-title');
/// Puts the HTML snippet in the page with the `i`th download (the PNG) as its image, waits for
/// the image, and reports what a course page would show.
const showSnippet = async (i) => {
  const html = document.getElementById('course-snippet-html').value;
  const markdown = document.getElementById('course-snippet-md').value;
  const png = await new Promise((resolve) => {
    const r = new FileReader();
    r.onload = () => resolve(r.result);
    r.readAsDataURL(window.__downloads[i]);
  });
  const box = document.createElement('div');
  box.innerHTML = html.replace('src="roofline.png"', `src="${png}"`);
  document.body.appendChild(box);
  const img = box.querySelector('a > img');
  await img.decode();
  const a = box.querySelector('a');
  const out = { html, markdown, href: a.getAttribute('href'), appHref: location.href, alt: img.alt, width: +img.getAttribute('width'), height: +img.getAttribute('height'), naturalWidth: img.naturalWidth, naturalHeight: img.naturalHeight, links: box.querySelectorAll('a').length };
  box.remove();
  return out;
};

eachEngine((engine, ctx) => {
  test(`${engine.name}: the exported PNG and SVG carry the frame; the course page's HTML snippet shows the PNG as a link to the view`, () => inFreshProfile(engine, async (s) => {
    await openApp(s, ctx.site.url);
    await s.eval(captureDownloads);
    await s.click('#menu-export-button');
    await waitFor(s, exportMenuOpen, undefined, { what: 'the Export menu' });
    await s.fill('#export-title', TITLE);

    // The SVG: the title escaped, the link a real hyperlink with the page's address.
    await s.click('button[data-export="roofline.svg"]');
    await waitFor(s, downloaded, 0, { what: 'the SVG export' });
    const svg = await s.eval(async () => ({ text: await window.__downloads[0].text(), href: location.href }));
    assert.match(svg.text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.ok(svg.text.includes('>Course &lt;demo&gt; &amp; &quot;x&quot;</text>'), 'the title, escaped');
    assert.match(svg.href, /#v1\./);
    assert.ok(svg.text.includes(`<a href="${svg.href.replaceAll('&', '&amp;')}"><text `), 'the link, whole, as <a href>');

    // The PNG (the export closed the menu: open it again; the title stays).
    await s.click('#menu-export-button');
    await waitFor(s, exportMenuOpen, undefined, { what: 'the Export menu again' });
    assert.equal(await s.eval(() => document.querySelector('#export-title').value), TITLE);
    await s.click('button[data-export="roofline.png"]');
    assert.equal(await waitFor(s, downloaded, 1, { what: 'the PNG export' }), 'image/png');

    await s.click('#menu-export-button');
    await waitFor(s, exportMenuOpen, undefined, { what: 'the Export menu for the snippet' });
    await s.click('[data-course-snippet]');
    await waitFor(s, () => document.getElementById('course-snippet-html')?.value.startsWith('<a href='), undefined, { what: 'the snippets' });
    assert.equal(await s.eval(() => document.querySelector('[data-course-snippet]').getAttribute('aria-expanded')), 'true');
    const shown = await s.eval(showSnippet, 1);
    assert.equal(shown.links, 1, shown.html);
    assert.equal(shown.href, shown.appHref, "the link is the app's view");
    assert.match(shown.href, /#v1\./);
    // The alt text arrives as the title's text (the snippet escaped it as an attribute).
    assert.match(shown.alt, /^Roofline of Course <demo> & "x" on \S.+$/);
    assert.ok(shown.html.includes('alt="Roofline of Course &lt;demo&gt; &amp; &quot;x&quot; on '), shown.html);
    // The image loads, and it is the 2× PNG of the framed chart the snippet sizes.
    assert.ok(shown.naturalWidth > 0 && shown.width > 0, JSON.stringify(shown));
    assert.equal(shown.naturalWidth, 2 * shown.width);
    assert.equal(shown.naturalHeight, 2 * shown.height);
    // Markdown: the same image and link, `[![alt](roofline.png)](link)`.
    assert.ok(shown.markdown.startsWith('[![Roofline of Course \\<demo\\> & "x" on ') && shown.markdown.endsWith(`](roofline.png)](${shown.appHref})`), shown.markdown);
  }));

  test(`${engine.name}: the QR code of a short link is drawn; a link too long for one is explained`, () => inFreshProfile(engine, async (s) => {
    await openApp(s, ctx.site.url);
    await s.eval(captureDownloads);
    await s.click('#menu-export-button');
    await waitFor(s, exportMenuOpen, undefined, { what: 'the Export menu' });
    await s.click('#export-qr');
    assert.equal(await s.eval(() => document.querySelector('#export-qr').checked), true);
    await s.click('button[data-export="roofline.svg"]');
    await waitFor(s, downloaded, 0, { what: 'the SVG export with a QR code' });
    const modules = await s.eval(async () => (await window.__downloads[0].text()).split('fill="#000000" stroke="none"/>').length - 1);
    // A version-1 code alone has 21 × 21 modules, about half of them dark, in runs.
    assert.ok(modules > 100, `${modules} dark runs`);

    // The NERSC run's five files: a link of over 3,000 characters, past version 25's 1,273 bytes.
    await s.setFiles('#file-input', NERSC_RUN);
    await waitFor(s, tableHas, 'Volta_hmma', { what: 'the NERSC run' });
    await s.click('#menu-export-button');
    await waitFor(s, exportMenuOpen, undefined, { what: 'the Export menu again' });
    await s.click('button[data-export="roofline.png"]');
    const note = await waitFor(s, () => document.querySelector('.export-note')?.textContent ?? '', undefined, { what: 'the QR note' });
    const chars = await s.eval(() => [...location.href].length);
    assert.ok(chars > 1273, `${chars}`);
    assert.equal(note, `link too long for a QR code (${chars} characters); share a shorter link: #url=… or a .roofline.json file`);
    // The PNG was still made, and the menu stays open to show the note.
    assert.equal(await waitFor(s, downloaded, 1, { what: 'the PNG without a code' }), 'image/png');
    assert.equal(await s.eval(exportMenuOpen), true);
  }));
});
