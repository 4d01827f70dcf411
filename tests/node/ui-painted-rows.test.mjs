// Painted rows (web/ui/painted-rows.js): the colour expressions are the kit cell rule's
// (styles.js) with t written in, under the painted rows' short names for the palette; the
// bands tile the image by column; a ringed cell has ring edges; the column under a point.
// Whether Chromium paints them as the cells is checked in tests/browser/ui-kit.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RING, columnAt, paintedColour, paintedRingImage, paintedRowImage } from '../../web/ui/painted-rows.js';
import { kitStyles } from '../../web/ui/kit-styles.js';

test('paintedColour: the diverging mix toward one end by |t|, the sequential share t (light) or sqrt(t) (dark)', () => {
  assert.equal(paintedColour(-0.25), 'color-mix(in oklab,var(--pz),var(--pn) 25%)');
  assert.equal(paintedColour(0.5), 'color-mix(in oklab,var(--pz),var(--pp) 50%)');
  assert.equal(paintedColour(0), 'var(--pz)');
  // 0.25: 25% on a light surface, + 1 x (50 - 25)% on a dark one.
  assert.equal(paintedColour(0.25, { sequential: true }), 'color-mix(in oklab,var(--pq),var(--ph) calc(25% + var(--pk) * 25%))');
  assert.equal(paintedColour(0.1, { dim: true }), 'color-mix(in srgb,color-mix(in oklab,var(--pz),var(--pp) 10%),var(--ps) var(--pd))');
  // In the cells' steps of 0.01 (colour-scale.js, shadeStep), so a painted row shows what a
  // row of cells shows: 0.1234 is drawn as 0.12, and a weight of 0.004 as none.
  assert.equal(paintedColour(0.1234), 'color-mix(in oklab,var(--pz),var(--pp) 12%)');
  assert.equal(paintedColour(-0.004), 'var(--pz)');
  assert.equal(paintedColour(0.0625, { sequential: true }), 'color-mix(in oklab,var(--pq),var(--ph) calc(6% + var(--pk) * 18.4949%))');
  // The short names are the kit's palette, set where the rows are painted.
  for (const [name, value] of [['--pz', 'var(--ui-diverging-zero)'], ['--pn', 'var(--ui-diverging-negative)'], ['--pp', 'var(--ui-diverging-positive)'],
    ['--pq', 'var(--ui-sequential-zero)'], ['--ph', 'var(--ui-hue, var(--ui-accent))'], ['--ps', 'var(--ui-surface)'], ['--pd', 'var(--ui-paint-dim, 72%)'], ['--pk', 'var(--ui-paint-dark, 0)']]) {
    assert.ok(kitStyles.includes(`${name}: ${value};`), name);
  }
  assert.match(kitStyles, /prefers-color-scheme: dark\) \{ \.ui-matrix \{ --ui-paint-dark: 1; \}/);
});

test('paintedRowImage: one band per value, c / cols of the image each, dimmed and ringed where asked', () => {
  assert.equal(paintedRowImage([0, 1, -1], { dimmed: (c) => c === 2 }),
    'linear-gradient(to right,var(--pz) 0% 33.3333%,color-mix(in oklab,var(--pz),var(--pp) 100%) 33.3333% 66.6667%,' +
    'color-mix(in srgb,color-mix(in oklab,var(--pz),var(--pn) 100%),var(--ps) var(--pd)) 66.6667% 100%)');
  const ringed = paintedRowImage([0.5, 0.5], { ringed: (c) => c === 1 });
  assert.equal(ringed.split(RING).length - 1, 2, 'left and right edges of the ringed cell');
  assert.ok(ringed.includes(`${RING} 50% calc(50% + 1px),`));
  assert.ok(ringed.endsWith(`${RING} calc(100% - 2px) 100%)`));
  assert.equal(paintedRingImage(3, (c) => c === 0), `linear-gradient(to right,${RING} 0% 33.3333%,transparent 33.3333% 66.6667%,transparent 66.6667% 100%)`);
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
