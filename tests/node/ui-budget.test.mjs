// BudgetBar's arithmetic (web/ui/budget-math.js): rounding that adds up, grouping of thin
// segments, keyboard steps through the shared rebalance(), boundary drags.
import assert from 'node:assert/strict';
import { test } from 'node:test';

// budget-math.js has no DOM: Node imports it directly.
const { groupSegments, moveBoundary, moveSplit, rebalance, roundToSum, stepWeight } = await import('../../web/ui/budget-math.js');

const sum = (row) => row.reduce((s, w) => s + w, 0);
const close = (a, b, eps = 1e-9) => Math.abs(a - b) < eps;

test('roundToSum: rounded labels add up to the rounded total', () => {
  assert.deepEqual(roundToSum([1 / 3, 1 / 3, 1 / 3]), [0.34, 0.33, 0.33]);
  for (let seed = 1; seed < 200; seed++) {
    const raw = Array.from({ length: 2 + (seed % 9) }, (_, i) => ((seed * 7919 + i * 104729) % 1000) / 1000 + 1e-3);
    const row = raw.map((w) => w / sum(raw));
    const shown = roundToSum(row, 2);
    assert.ok(close(Math.round(sum(shown) * 100), 100), `seed ${seed}: ${shown}`);
    shown.forEach((s, i) => assert.ok(Math.abs(s - row[i]) < 0.01 + 1e-9, `seed ${seed} entry ${i}`));
  }
  assert.deepEqual(roundToSum([NaN, -1, 1]), [0, 0, 1]);
});

test('groupSegments: thin neighbours become one rest piece; pieces cover the bar in order', () => {
  const row = [0.05, 0.4, 0.08, 0.3, 0.12, 0.03, 0.02];
  const pieces = groupSegments(row, 400, 28); // 28 px of 400 is 0.07
  assert.deepEqual(pieces.map((p) => p.indices), [[0], [1], [2], [3], [4], [5, 6]]);
  assert.equal(pieces[5].rest, true);
  assert.ok(close(pieces[5].weight, 0.05));
  assert.ok(close(pieces[3].start, 0.53));
  // Wide enough: no grouping.
  assert.ok(groupSegments(row, 2000, 28).every((p) => !p.rest));
  // A single thin token stays itself (it is not a "rest" of one).
  assert.equal(groupSegments([0.5, 0.01, 0.49], 400, 28)[1].rest, false);
});

test('stepWeight: snaps to 0.01, stays within 0..1, the rest rescales and the sum stays 1', () => {
  const row = [0.2, 0.5, 0.3];
  const up = stepWeight(row, 0, 0.01);
  assert.ok(close(up[0], 0.21));
  assert.ok(close(sum(up), 1));
  assert.ok(close(up[1] / up[2], 0.5 / 0.3)); // proportions of the others kept
  const capped = stepWeight([0.95, 0.05], 0, 0.1);
  assert.deepEqual(capped, [1, 0]);
  const floor = stepWeight([0.005, 0.995], 0, -0.01);
  assert.equal(floor[0], 0);
  assert.ok(close(sum(floor), 1));
  assert.ok(close(stepWeight([0.333, 0.667], 0, 0.01)[0], 0.34));
});

test('moveBoundary: only the two neighbours change, clamped to their pair', () => {
  const row = [0.2, 0.3, 0.1, 0.4];
  const moved = moveBoundary(row, 1, 0.45); // boundary between tokens 1 and 2 to 45 %
  assert.ok(close(moved[1], 0.25));
  assert.ok(close(moved[2], 0.15));
  assert.equal(moved[0], 0.2);
  assert.equal(moved[3], 0.4);
  assert.ok(close(sum(moved), 1));
  assert.deepEqual(moveBoundary(row, 1, 0.9).slice(1, 3).map((w) => Math.round(w * 1e9) / 1e9), [0.4, 0]);
  assert.deepEqual(moveBoundary(row, 1, -5).slice(1, 3).map((w) => Math.round(w * 1e9) / 1e9), [0, 0.4]);
});

test('moveSplit: the left side gets the fraction, the right side the rest, each rescaled in proportion', () => {
  const row = [0.1, 0.4, 0.1, 0.4];
  const moved = moveSplit(row, 1, 0.75); // the boundary after token 1 to 75 %
  assert.ok(close(moved[0], 0.15) && close(moved[1], 0.6), 'left side scaled by 0.75 / 0.5');
  assert.ok(close(moved[2], 0.05) && close(moved[3], 0.2), 'right side scaled by 0.25 / 0.5');
  assert.ok(close(sum(moved), 1));
  assert.ok(close(moved[0] + moved[1], 0.75), 'the boundary lands where the pointer is');
  assert.deepEqual(moveSplit(row, 1, 7).map((w) => Math.round(w * 1e9) / 1e9), [0.2, 0.8, 0, 0], 'clamped to the end');
  // A side with no weight: what it receives goes to the token next to the boundary.
  assert.deepEqual(moveSplit([0, 0, 0.5, 0.5], 1, 0.2).map((w) => Math.round(w * 1e9) / 1e9), [0, 0.2, 0.4, 0.4]);
});

test('rebalance: one weight set, the others rescaled in proportion (shared evenly when they were all 0)', () => {
  const row = rebalance([0.2, 0.3, 0.5], 0, 0.6);
  assert.ok(close(row[0], 0.6) && close(row[1], 0.15) && close(row[2], 0.25));
  assert.deepEqual(rebalance([1, 0, 0], 0, 0.4).map((w) => Math.round(w * 1e9) / 1e9), [0.4, 0.3, 0.3]);
  assert.equal(rebalance([0.5, 0.5], 1, 7)[1], 1, 'clamped to [0, 1]');
});
