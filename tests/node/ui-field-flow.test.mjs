// The number-field flow of the kit (web/ui/field-flow.js): parse -> propose -> message,
// typed text kept while invalid, last good value back on blur / Escape, setValue without
// clobbering text being typed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FieldFlow, fieldText, reallyChanged } from '../../web/ui/field-flow.js';

function flow(options = {}) {
  const proposals = [];
  const f = new FieldFlow({
    value: 0.5, min: -2, max: 2, what: 'Weight',
    propose: (v) => { proposals.push(v); return v > 1 ? 'The core refused values above 1.' : null; },
    ...options,
  });
  return { f, proposals };
}

test('fieldText: fixed decimals with an ASCII minus; reallyChanged ignores float32 noise', () => {
  assert.equal(fieldText(-0.456), '-0.46');
  assert.equal(fieldText(3, 0), '3');
  assert.equal(reallyChanged(0.3, Math.fround(0.3)), false);
  assert.equal(reallyChanged(0.3, 0.31), true);
  assert.equal(reallyChanged(1, NaN), true);
});

test('valid text is proposed and becomes the last good value; the text is kept as typed', () => {
  const { f, proposals } = flow();
  f.focus();
  assert.deepEqual(f.input('0.7'), { text: '0.7', invalid: false, message: '', value: 0.7 });
  assert.deepEqual(proposals, [0.7]);
  assert.equal(f.setValue(Math.fround(0.7)).text, '0.7'); // the commit echoes back: text untouched
});

test('unparsable text: message, nothing proposed, text kept; blur restores the last good value', () => {
  const { f, proposals } = flow();
  f.focus();
  const state = f.input('0.7x');
  assert.equal(state.invalid, true);
  assert.match(state.message, /Weight must be a plain decimal number/);
  assert.equal(state.text, '0.7x');
  assert.deepEqual(proposals, []);
  assert.equal(f.setValue(0.5).text, '0.7x'); // same value from outside: keep what is typed
  assert.deepEqual(f.blur(), { text: '0.50', invalid: false, message: '', value: 0.5 });
});

test('a refused proposal shows the core’s message and keeps the text; Escape restores', () => {
  const { f, proposals } = flow();
  f.focus();
  const state = f.input('1.5');
  assert.deepEqual(proposals, [1.5]);
  assert.equal(state.message, 'The core refused values above 1.');
  assert.equal(state.text, '1.5');
  assert.equal(f.escape().text, '0.50');
  assert.equal(f.editing, true);
});

test('out of the field’s limits: the parser’s message, no proposal', () => {
  const { f, proposals } = flow();
  assert.match(f.input('5').message, /between −2 and 2/); // a minus sign, as every display writes it
  assert.deepEqual(proposals, []);
});

test('setValue: replaces the text when not editing, or when the value really changed', () => {
  const { f } = flow();
  assert.equal(f.setValue(0.25).text, '0.25');
  f.focus();
  assert.equal(f.input('0.').value, 0); // "0." is a number: 0 is proposed and accepted
  assert.equal(f.setValue(0).text, '0.', 'a half-typed number survives the repaint of its own commit');
  const state = f.setValue(0.9); // undo / reset from elsewhere
  assert.deepEqual(state, { text: '0.90', invalid: false, message: '', value: 0.9 });
});

test('the widget’s repaint inside propose (the echo of the proposed value) keeps the typed text', () => {
  const f = new FieldFlow({ value: 0.96, propose: (v) => { f.setValue(Math.fround(v)); return null; } });
  f.focus();
  assert.equal(f.input('1').text, '1');
  assert.equal(f.input('1.').text, '1.');
  assert.equal(f.state.value, 1);
});
