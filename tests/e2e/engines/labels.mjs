// Text on the chart canvas as each engine really draws it. The engine places labels from an
// estimate of their width (engine::chart::labels), but every browser measures glyphs with its own
// fonts; what must hold everywhere is that no two drawn texts overlap. So the page's fillText is
// wrapped (in the page, through the driver, which the CSP does not govern) and every text drawn
// on #roofline-canvas is recorded with the box the browser gives it: measureText's advance width
// (shrunk to maxWidth when the app passes one, as fillText does), its ink ascent and descent, and
// the canvas transform in force. Boxes are compared as rotated rectangles (roof labels slant).

/// In the page: starts recording (idempotent) and clears what was recorded. With `wider`, every
/// text is drawn in the bold face of its font instead: a font wider than the one the labels were
/// measured for (as a user's system-ui may be), to show that texts stay in their boxes.
export function recordTexts(options) {
  // (Not destructured in the signature: WebDriver sends a missing argument as null.)
  const wider = !!options?.wider;
  const proto = CanvasRenderingContext2D.prototype;
  if (!proto.__e2eFillText) {
    const original = proto.fillText;
    proto.__e2eFillText = original;
    proto.fillText = function fillText(text, x, y, maxWidth) {
      if (this.canvas.id !== 'roofline-canvas') return original.apply(this, arguments);
      const font = this.font;
      if (window.__e2eWider) this.font = `bold ${font}`;
      const m = this.measureText(text);
      const t = this.getTransform();
      const align = { left: 0, start: 0, center: 0.5, right: 1, end: 1 }[this.textAlign] ?? 0;
      const box = (advance) => {
        const left = x - advance * align;
        const top = y - m.actualBoundingBoxAscent;
        const bottom = y + m.actualBoundingBoxDescent;
        return [[left, top], [left + advance, top], [left + advance, bottom], [left, bottom]]
          .map(([px, py]) => [t.a * px + t.c * py + t.e, t.b * px + t.d * py + t.f]);
      };
      window.__e2eTexts.push({
        text,
        font: this.font,
        width: m.width,
        maxWidth: maxWidth ?? null,
        at: [t.e, t.f],
        // As drawn: fillText shrinks a text wider than maxWidth to it.
        corners: box(maxWidth === undefined ? m.width : Math.min(m.width, maxWidth)),
        // As it would be drawn without maxWidth.
        natural: box(m.width),
      });
      const result = original.apply(this, arguments);
      this.font = font;
      return result;
    };
  }
  window.__e2eWider = wider;
  window.__e2eTexts = [];
  return true;
}

/// In the page: what was recorded since `recordTexts`.
export function recordedTexts() {
  return window.__e2eTexts || [];
}

/// Whether two convex quadrilaterals (corner lists) share area more than `tolerance` px deep
/// (separating axis test on their edge normals).
function intersects(p, q, tolerance) {
  for (const poly of [p, q]) {
    for (let i = 0; i < poly.length; i++) {
      const [x1, y1] = poly[i];
      const [x2, y2] = poly[(i + 1) % poly.length];
      const n = [y1 - y2, x2 - x1];
      const len = Math.hypot(n[0], n[1]);
      if (len === 0) continue;
      const proj = (pts) => pts.map(([x, y]) => (x * n[0] + y * n[1]) / len);
      const a = proj(p);
      const b = proj(q);
      const overlap = Math.min(Math.max(...a), Math.max(...b)) - Math.max(Math.min(...a), Math.min(...b));
      if (overlap <= tolerance) return false;
    }
  }
  return true;
}

/// Every pair of texts that overlap as drawn (`natural`: as they would be without maxWidth), as
/// readable lines.
export function overlappingTexts(texts, { tolerance = 0.5, natural = false } = {}) {
  const found = [];
  const shape = (t) => (natural ? t.natural : t.corners);
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      if (texts[i].text.trim() === '' || texts[j].text.trim() === '') continue;
      if (intersects(shape(texts[i]), shape(texts[j]), tolerance)) {
        const at = (t) => `"${t.text}" at ${t.at.map((v) => v.toFixed(1)).join(',')} (${t.width.toFixed(1)} px${t.maxWidth != null ? `, max ${t.maxWidth.toFixed(1)}` : ''})`;
        found.push(`${at(texts[i])} overlaps ${at(texts[j])}`);
      }
    }
  }
  return found;
}
