// The kit's notation parser (web/ui/notation.js): sub/superscripts and the spoken form.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseNotation, spoken } from '../../web/ui/notation.js';

test('symbols with subscripts, superscripts and braces', () => {
  assert.deepEqual(parseNotation('W_O^A'), [{ base: 'W', sub: 'O', sup: 'A' }]);
  assert.deepEqual(parseNotation('d_{model} = 64'), [{ base: 'd', sub: 'model' }, ' = 64']);
  assert.deepEqual(parseNotation('h · L^2 · d_k'), ['h · ', { base: 'L', sup: '2' }, ' · ', { base: 'd', sub: 'k' }]);
  assert.deepEqual(parseNotation('W_{Q}^{i} and K^T'), [{ base: 'W', sub: 'Q', sup: 'i' }, ' and ', { base: 'K', sup: 'T' }]);
  assert.deepEqual(parseNotation('head_i'), [{ base: 'head', sub: 'i' }]);
});

test('plain text (even with letters and digits) stays one string', () => {
  assert.deepEqual(parseNotation('slice A1–A2 of head A'), ['slice A1–A2 of head A']);
  assert.deepEqual(parseNotation(''), []);
});

test('spoken form for accessible names', () => {
  assert.equal(spoken('W_O^A: head A’s rows'), 'W O A: head A’s rows');
  assert.equal(spoken('d_{model}'), 'd model');
  assert.equal(spoken('no maths here'), 'no maths here');
});
