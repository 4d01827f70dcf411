// The kit's colour scales: the numbers behind --t, and the palette's contrast and balance
// in both themes (computed the way CSS color-mix(in oklab) mixes).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PALETTE, SHADE_STEPS, VALUES_MODE_STRENGTH, contrast, cssNumber, divergingColour, mixOklab, oklab,
  paletteCss, scaleMax, sequentialShare, shadeClass, shadeOf, shadeStep, shadeStepsCss, signedFraction, unitFraction,
} from '../../web/ui/colour-scale.js';
import { kitStyles } from '../../web/ui/kit-styles.js';

const kitCss = () => kitStyles;

test('signedFraction: value / max clamped to [-1, 1], non-finite and bad max give 0', () => {
  assert.equal(signedFraction(0.5, 2), 0.25);
  assert.equal(signedFraction(-3, 2), -1);
  assert.equal(signedFraction(3, 2), 1);
  assert.equal(signedFraction(NaN, 2), 0);
  assert.equal(signedFraction(Infinity, 2), 0);
  assert.equal(signedFraction(1, 0), 0);
  assert.equal(signedFraction(1, NaN), 0);
  assert.ok(Object.is(signedFraction(-0, 1), 0));
});

test('unitFraction and scaleMax', () => {
  assert.equal(unitFraction(-0.1), 0);
  assert.equal(unitFraction(1.2), 1);
  assert.equal(unitFraction(NaN), 0);
  assert.equal(unitFraction(0.3), 0.3);
  assert.equal(scaleMax([0.5, -2, NaN, Infinity, 1]), 2);
  assert.equal(scaleMax([]), 1);
  assert.equal(scaleMax(new Float32Array(4)), 1);
});

test('cssNumber: short, no -0, no exponent for small values', () => {
  assert.equal(cssNumber(-0.00001), '0');
  assert.equal(cssNumber(1 / 3), '0.3333');
  assert.equal(cssNumber(-1), '-1');
  assert.equal(cssNumber(1e-7), '0');
});

test('shade steps: t to the nearest 0.01, clamped, never -0; one class and one --t rule per step', () => {
  assert.equal(SHADE_STEPS, 100);
  assert.equal(shadeStep(0.374), 37);
  assert.equal(shadeStep(0.375), 38);
  assert.equal(shadeStep(-0.374), -37);
  assert.equal(shadeStep(1.7), 100);
  assert.equal(shadeStep(-3), -100);
  assert.ok(Object.is(shadeStep(-0.001), 0));
  assert.equal(shadeStep(NaN), 0);
  assert.equal(shadeOf(0.123), 0.12);
  assert.equal(shadeClass(37), 'ui-t37');
  assert.equal(shadeClass(-37), 'ui-t-37');
  const rules = shadeStepsCss().trim().split('\n');
  assert.equal(rules.length, 201);
  assert.ok(rules.includes('.ui-t-100{--t:-1}') && rules.includes('.ui-t0{--t:0}') && rules.includes('.ui-t37{--t:0.37}') && rules.includes('.ui-t100{--t:1}'));
  // The kit's sheet carries them, with the cell rule that mixes colours from --t.
  assert.ok(kitCss().includes('.ui-t-37{--t:-0.37}'));
  // Every step's class is a valid CSS identifier (as a selector it must parse alone).
  for (let step = -SHADE_STEPS; step <= SHADE_STEPS; step++) assert.match(shadeClass(step), /^-?[_a-zA-Z][_a-zA-Z0-9-]*$/);
});

test('OKLab round trip and mixing ends', () => {
  for (const hex of ['#000000', '#ffffff', '#2f64b3', '#b83a3a', '#16181d']) {
    assert.equal(mixOklab(hex, hex, 0.5), hex);
  }
  assert.equal(mixOklab('#2f64b3', '#b83a3a', 0), '#2f64b3');
  assert.equal(mixOklab('#2f64b3', '#b83a3a', 1), '#b83a3a');
  assert.ok(Math.abs(oklab('#ffffff')[0] - 1) < 1e-3);
});

for (const theme of ['light', 'dark']) {
  const p = PALETTE[theme];
  const diverging = { zero: p['diverging-zero'], negative: p['diverging-negative'], positive: p['diverging-positive'] };

  test(`${theme}: text colours reach 4.5:1 on the surface, graphics 3:1`, () => {
    for (const key of ['ink', 'muted', 'error', 'accent']) {
      assert.ok(contrast(p[key], p.surface) >= 4.5, `${key} ${contrast(p[key], p.surface).toFixed(2)}`);
    }
    for (const key of ['line', 'diverging-negative', 'diverging-positive', 'head-a', 'head-b', 'head-c', 'head-d']) {
      assert.ok(contrast(p[key], p.surface) >= 3, `${key} ${contrast(p[key], p.surface).toFixed(2)}`);
    }
  });

  test(`${theme}: the diverging ends are balanced (same OKLab lightness within 0.03) and distinct from zero`, () => {
    assert.ok(Math.abs(oklab(diverging.negative)[0] - oklab(diverging.positive)[0]) < 0.03);
    assert.ok(contrast(diverging.negative, diverging.zero) >= 3);
    assert.ok(contrast(diverging.positive, diverging.zero) >= 3);
    // Lightness moves monotonically away from the zero towards each end.
    const L = (t) => oklab(divergingColour(diverging, t))[0];
    for (const sign of [-1, 1]) {
      for (let i = 1; i <= 10; i++) {
        const step = L(sign * i / 10) - L(sign * (i - 1) / 10);
        assert.ok(theme === 'light' ? step < 0.002 : step > -0.002, `${theme} ${sign} ${i}`);
      }
    }
  });

  test(`${theme}: numbers shown in cells (values mode) stay 4.5:1 on every cell colour`, () => {
    for (let i = -100; i <= 100; i++) {
      const t = (i / 100) * VALUES_MODE_STRENGTH;
      assert.ok(contrast(p.ink, divergingColour(diverging, t)) >= 4.5, `t=${t}`);
      for (const head of ['head-a', 'head-b', 'head-c', 'head-d']) {
        const cell = mixOklab(p['sequential-zero'], p[head], Math.abs(t));
        assert.ok(contrast(p.ink, cell) >= 4.5, `${head} t=${t}`);
      }
    }
  });
}

test('a weak attention weight stays visible on both surfaces (issue 22: dark mode lost them)', () => {
  const distance = (a, b) => Math.hypot(...oklab(a).map((v, i) => v - oklab(b)[i]));
  for (const theme of ['light', 'dark']) {
    const p = PALETTE[theme];
    for (const head of ['head-a', 'head-b', 'head-c', 'head-d']) {
      const cell = (t) => mixOklab(p['sequential-zero'], p[head], sequentialShare(t, theme));
      // Order kept: a larger weight is always further from zero.
      for (let i = 1; i <= 20; i++) assert.ok(distance(cell(i / 20), p['sequential-zero']) > distance(cell((i - 1) / 20), p['sequential-zero']));
      if (theme === 'dark') assert.ok(distance(cell(0.05), p['sequential-zero']) >= 0.08, `${head}: 0.05 is ${distance(cell(0.05), p['sequential-zero']).toFixed(3)} from zero`);
    }
  }
  assert.match(kitCss(), /prefers-color-scheme: dark[^]*\.ui-sequential \.ui-cell[^}]*sqrt\(var\(--t, 0\)\)/);
});

test('the light palette and the dark one differ (dark is designed, not the same)', () => {
  for (const key of Object.keys(PALETTE.light)) assert.ok(key in PALETTE.dark, key);
  assert.ok(contrast(PALETTE.dark.surface, '#000000') < 1.5);
  const css = paletteCss();
  assert.match(css, /--ui-diverging-negative: var\(--mha-diverging-negative, #2f64b3\)/);
  assert.match(css, /@media \(prefers-color-scheme: dark\)[^]*--ui-diverging-negative: var\(--mha-dark-diverging-negative, #5c9ded\)/);
});
