// Every widget's model exports its state contract in the one shape (shared/state-contract.js),
// and the learner's copy checks states through the contracts of exactly the registry's
// widgets. For each: the start state has the contract's keys, passes its own sanitiser
// unchanged (as a copy, not the same object), and a stranger field or a non-object is
// refused with a StateError naming it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WIDGETS } from '../../web/widgets/registry.js';
import { STATE_CONTRACTS, WIDGET_SANITIZERS, WIDGET_STARTS } from '../../web/widgets/practice/widget-states.js';
import { StateError } from '../../web/widgets/shared/state-error.js';

test('one contract per registry widget, in the one shape', () => {
  assert.deepEqual(Object.keys(STATE_CONTRACTS).sort(), Object.keys(WIDGETS).sort());
  for (const [name, contract] of Object.entries(STATE_CONTRACTS)) {
    assert.deepEqual(Object.keys(contract).sort(), ['config', 'keys', 'sanitize', 'start'], name);
    assert.ok(Object.isFrozen(contract), `${name}: frozen`);
  }
  assert.deepEqual(Object.keys(WIDGET_SANITIZERS).sort(), Object.values(WIDGETS).map((w) => w.tag).sort());
  assert.deepEqual(Object.keys(WIDGET_STARTS).sort(), Object.keys(WIDGET_SANITIZERS).sort());
});

for (const [name, contract] of Object.entries(STATE_CONTRACTS)) {
  test(`${name}: the start has the contract's keys and passes its own sanitiser; strangers are refused`, () => {
    const config = contract.config();
    const start = contract.start(config);
    assert.deepEqual(Object.keys(start), [...contract.keys]);
    const clean = contract.sanitize(structuredClone(start), config);
    assert.deepEqual(clean, start);
    assert.deepEqual(WIDGET_SANITIZERS[WIDGETS[name].tag](structuredClone(start)), start, 'the copy checks through the contract');
    assert.throws(() => contract.sanitize({ ...start, colour: 'red' }, config), (error) => error instanceof StateError && /colour/.test(error.message));
    for (const bad of [null, 7, 'text', []]) assert.throws(() => contract.sanitize(bad, config), StateError, JSON.stringify(bad));
  });
}
