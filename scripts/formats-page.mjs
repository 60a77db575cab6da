// Writes dist/formats.html: docs/FORMATS.md as a page of the site, so that the app's errors can
// link to the supported formats and the commands that produce them (issue 43: a web user cannot
// open a repository path). The Markdown is shown as preformatted text, escaped: no Markdown
// renderer is shipped for one page, and the text reads as written.
//
// Usage: node scripts/formats-page.mjs DIST (run by scripts/postbuild.mjs).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** `text` with the characters HTML gives a meaning escaped. */
export function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page for the Markdown `markdown`. */
export function formatsPage(markdown) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Roofline Explorer: supported formats</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; margin: 0 auto; padding: 16px; max-width: 60rem; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; font: 14px/1.45 ui-monospace, monospace; }
@media (prefers-color-scheme: dark) { body { background: #111; color: #ddd; } a { color: #8ab4f8; } }
</style>
</head>
<body>
<p><a href="./">Back to Roofline Explorer</a></p>
<main><pre>${escapeHtml(markdown)}</pre></main>
</body>
</html>
`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dist = process.argv[2];
  if (!dist) throw new Error('usage: node scripts/formats-page.mjs DIST');
  const markdown = readFileSync(join(root, 'docs', 'FORMATS.md'), 'utf8');
  writeFileSync(join(dist, 'formats.html'), formatsPage(markdown));
}
