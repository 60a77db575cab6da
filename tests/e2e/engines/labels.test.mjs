// The overlap check of labels.mjs on boxes whose answer is known, so that the engines' "no
// overlapping texts" results mean something (no browser needed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { overlappingTexts } from './labels.mjs';

/// A text's record as labels.mjs makes it: a w×h box at (x, y), turned by `deg` about its corner.
function text(name, x, y, w, h, deg = 0) {
  const r = (deg * Math.PI) / 180;
  const turn = ([px, py]) => [x + px * Math.cos(r) - py * Math.sin(r), y + px * Math.sin(r) + py * Math.cos(r)];
  const corners = [[0, 0], [w, 0], [w, h], [0, h]].map(turn);
  return { text: name, width: w, maxWidth: w, at: [x, y], corners, natural: corners };
}

test('side by side, touching or apart: no overlap', () => {
  assert.deepEqual(overlappingTexts([text('a', 0, 0, 20, 10), text('b', 20, 0, 20, 10), text('c', 0, 10, 20, 10)]), []);
});

test('two pixels into each other: an overlap, named', () => {
  const found = overlappingTexts([text('HBM', 0, 0, 25, 10), text('L2', 23, 5, 15, 10)]);
  assert.equal(found.length, 1);
  assert.match(found[0], /"HBM" at 0\.0,0\.0 .* overlaps "L2"/);
});

test('slanted texts whose bounding boxes overlap but whose shapes do not: no overlap', () => {
  // Two 45° strips, one above the other: their axis-aligned bounds share a large area.
  const a = text('roof 1', 0, 0, 100, 8, -45);
  const b = text('roof 2', 20, 0, 100, 8, -45);
  assert.deepEqual(overlappingTexts([a, b]), []);
  const c = text('roof 3', 5, 0, 100, 8, -45);
  assert.equal(overlappingTexts([a, c]).length, 1);
});

test('blank texts are ignored; natural boxes are checked when asked', () => {
  assert.deepEqual(overlappingTexts([text(' ', 0, 0, 20, 10), text('x', 5, 5, 20, 10)]), []);
  const wide = { ...text('wide', 0, 0, 20, 10), natural: text('wide', 0, 0, 40, 10).corners };
  const next = text('next', 25, 0, 20, 10);
  assert.deepEqual(overlappingTexts([wide, next]), []);
  assert.equal(overlappingTexts([wide, next], { natural: true }).length, 1);
});
