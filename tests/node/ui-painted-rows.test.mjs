// Painted rows (web/ui/painted-rows.js): the colour expressions are the kit cell rule's
// (styles.js) with t written in, the bands tile the row at the pitch, a ringed cell has ring
// edges, and the column under a point. Whether Chromium paints them as the cells is
// checked in tests/browser/ui-kit.test.mjs (paintRows).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RING, columnAt, paintedColour, paintedRingImage, paintedRowImage } from '../../web/ui/painted-rows.js';

test('paintedColour: the diverging mix toward one end by |t|, the sequential share t (light) or sqrt(t) (dark)', () => {
  assert.equal(paintedColour(-0.25),
    'color-mix(in oklab, color-mix(in oklab, var(--ui-diverging-zero), var(--ui-diverging-negative) 25%), var(--ui-diverging-positive) 0%)');
  assert.equal(paintedColour(0.5),
    'color-mix(in oklab, color-mix(in oklab, var(--ui-diverging-zero), var(--ui-diverging-negative) 0%), var(--ui-diverging-positive) 50%)');
  // 0.25: 25% on a light surface, + 1 x (50 - 25)% on a dark one.
  assert.equal(paintedColour(0.25, { sequential: true }),
    'color-mix(in oklab, var(--ui-sequential-zero), var(--ui-hue, var(--ui-accent)) calc(25% + var(--ui-paint-dark, 0) * 25%))');
  assert.match(paintedColour(0.1, { dim: true }), /^color-mix\(in srgb, color-mix\(.*\), var\(--ui-surface\) var\(--ui-paint-dim, 72%\)\)$/);
});

test('paintedRowImage: one band per value at the pitch, dimmed and ringed where asked', () => {
  const image = paintedRowImage([0, 1, -1], { dimmed: (c) => c === 2 });
  assert.match(image, /^linear-gradient\(to right, /);
  const stops = image.slice('linear-gradient(to right, '.length, -1);
  assert.ok(stops.includes(' 0px calc(var(--ui-pitch) * 1)'));
  assert.ok(stops.includes(' calc(var(--ui-pitch) * 1) calc(var(--ui-pitch) * 2)'));
  assert.ok(stops.endsWith(' calc(var(--ui-pitch) * 2) calc(var(--ui-pitch) * 3)'));
  assert.equal((image.match(/var\(--ui-surface\)/g) ?? []).length, 1, 'only the third band dimmed');
  const ringed = paintedRowImage([0.5, 0.5], { ringed: (c) => c === 1 });
  assert.equal(ringed.split(RING).length - 1, 2, 'left and right edges of the ringed cell');
  assert.ok(ringed.includes(`${RING} calc(var(--ui-pitch) * 1) calc(var(--ui-pitch) * 1 + 1px)`));
  assert.ok(ringed.includes(`${RING} calc(var(--ui-pitch) * 1 + var(--cell) - 1px) calc(var(--ui-pitch) * 2)`));
  const ring = paintedRingImage(3, (c) => c === 0);
  assert.equal(ring, `linear-gradient(to right, ${RING} 0px calc(var(--ui-pitch) * 1), transparent calc(var(--ui-pitch) * 1) calc(var(--ui-pitch) * 2), transparent calc(var(--ui-pitch) * 2) calc(var(--ui-pitch) * 3))`);
});

test('columnAt: the band under a point, clamped; no column for a bad box', () => {
  // 4 bands of a 13 px cell and a 1 px gap: 55 px wide, pitch 14.
  assert.equal(columnAt(0, 55, 4), 0);
  assert.equal(columnAt(13.5, 55, 4), 0); // the gap after the first cell
  assert.equal(columnAt(14, 55, 4), 1);
  assert.equal(columnAt(54.9, 55, 4), 3);
  assert.equal(columnAt(-3, 55, 4), 0);
  assert.equal(columnAt(80, 55, 4), 3);
  assert.equal(columnAt(10, 0, 4), null);
  assert.equal(columnAt(NaN, 55, 4), null);
  assert.equal(columnAt(10, 55, 0), null);
});
