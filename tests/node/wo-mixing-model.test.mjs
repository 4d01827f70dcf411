// The W_O mixing widget's model in Node against the core: the lesson data expands to the
// presets the lesson promises (checked by what the core computes with them, not by their
// numbers), the state contract refuses what it must, attributes never echo their text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTestEngine } from './load-engine.mjs';
import { THE_WORLD as w } from '../../web/widgets/shared/world.js';
import {
  WO_MIXING_LESSON, WoMixingModel, attributeOverrides, describeAlong, directionValues, presetValues,
  sanitizeWoState, startingState, woMixingConfig,
} from '../../web/widgets/wo-mixing/wo-mixing-model.js';

const engine = await loadTestEngine();
const config = woMixingConfig();
const model = new WoMixingModel(engine, config);
const d = w.dModel;
const [SUBJECT, COMPLEMENT, , GIST] = [0, 1, 2, 3];
const state = (patch) => ({ ...startingState(config), ...patch });

test('the starting state: four heads, “said”, W_O = I, u = e_1; with I, mixing changes nothing', () => {
  const start = startingState(config);
  assert.equal(start.heads, 4);
  assert.equal(w.tokens[start.token], 'said');
  assert.equal(start.wo.length, d * d);
  const view = model.compute(start);
  assert.deepEqual(view.withMixing, view.withoutMixing);
  // Concat is the heads' outputs side by side (the core's concat against its head outputs).
  assert.deepEqual(view.concat, view.headOutputs.flat());
  // Each head writes only its own slice: its contribution is zero outside its columns.
  view.contributions.forEach((row, i) => row.forEach((v, j) => {
    if (j < view.heads[i].start || j >= view.heads[i].end) assert.equal(v, 0);
  }));
});

test('“Subject and complement finders write into the same direction”: along e_1 both are heard, with I only the subject finder', () => {
  const view = model.compute(state({ wo: presetValues(config, 'shared'), u: directionValues(config, 'e1') }));
  const heard = (lengths) => lengths.map((v) => Math.abs(v) >= config.audibleThreshold);
  assert.deepEqual(heard(view.withMixing.heads), [true, true, false, false]);
  assert.deepEqual(heard(view.withoutMixing.heads), [true, false, false, false]);
  // Output 1 is the sum of the two heads' contributions (the core's output against its parts).
  assert.ok(Math.abs(view.output[0] - view.contributions[SUBJECT][0] - view.contributions[COMPLEMENT][0]) < 1e-6);
  assert.match(describeAlong(config, view),
    /^With this W_O a reader of u hears the Subject finder \(\d\.\d\d\) and the Complement finder \(\d\.\d\d\)\. With W_O = I \(the concatenation alone\) it hears only the Subject finder \(\d\.\d\d\)\.$/);
});

test('“Gist spread across all coordinates”: the Gist reaches every output coordinate', () => {
  const view = model.compute(state({ wo: presetValues(config, 'spread') }));
  assert.equal(view.contributions[GIST].filter((v) => v !== 0).length, d, 'the Gist writes into every coordinate');
  const unspread = model.compute(startingState(config));
  assert.equal(unspread.contributions[GIST].filter((v) => v !== 0).length, 3);
});

test('h = 2 and 1: the same W_O regrouped; merged heads; contributions add up to the output', () => {
  for (const heads of [2, 1]) {
    const view = model.compute(state({ heads, wo: presetValues(config, 'spread') }));
    assert.equal(view.heads.length, heads);
    assert.equal(view.headWidth, d / heads);
    assert.ok(view.heads.every((head) => head.merged));
    for (let j = 0; j < d; j++) {
      const sum = view.contributions.reduce((s, row) => s + row[j], 0);
      assert.ok(Math.abs(sum - view.output[j]) < 1e-5);
    }
  }
});

test('the core refuses u = 0; sanitizeWoState refuses malformed states with a message', () => {
  const good = startingState(config);
  assert.deepEqual(sanitizeWoState(config, good), good);
  assert.throws(() => model.compute({ ...good, u: new Array(d).fill(0) }), /zero/);
  const cases = [
    [null, /expected an object/], [[], /expected an object/], [{ ...good, extra: 1 }, /unknown field/],
    [{ ...good, heads: 3 }, /heads: expected 1, 2 or 4/], [{ ...good, heads: '4' }, /heads/],
    [{ ...good, token: 11 }, /token/], [{ ...good, token: 1.5 }, /token/],
    [{ ...good, wo: good.wo.slice(1) }, /wo: expected 144/], [{ ...good, u: [1, 0] }, /u: expected 12/],
    [{ ...good, wo: good.wo.map((v, k) => (k ? v : '1')) }, /wo: every entry/],
    [{ ...good, wo: good.wo.map((v, k) => (k ? v : 11)) }, /wo: every entry must be a number from −10 to 10/],
    [{ ...good, u: good.u.map((v, k) => (k ? v : Infinity)) }, /u: every entry/],
    [{ ...good, u: good.u.map(() => 0) }, /zero vector/],
  ];
  for (const [raw, message] of cases) assert.throws(() => sanitizeWoState(config, raw), message);
  assert.equal(Object.is(sanitizeWoState(config, { ...good, u: good.u.map((v, k) => (k === 1 ? -0 : v)) }).u[1], 0), true);
});

test('attributes: only 1, 2, 4 and the sentence’s words; messages never repeat the text', () => {
  assert.deepEqual(attributeOverrides(config, { heads: '2', token: 'it' }).overrides, { heads: 2, token: 7 });
  for (const heads of ['NaN', 'Infinity', '-Infinity', '1e999', '0x3', '3', '4.0', ' 4', '', '04x']) {
    const { overrides, problems } = attributeOverrides(config, { heads });
    assert.equal(overrides.heads, undefined, heads);
    assert.equal(problems.length, 1);
    assert.doesNotMatch(problems[0], /NaN|Infinity/);
  }
  const { problems } = attributeOverrides(config, { token: 'NaN' });
  assert.equal(problems.length, 1);
  assert.doesNotMatch(problems[0], /NaN/);
});

test('lesson data is checked strictly: bad presets, directions and limits are refused', () => {
  const broken = (patch) => () => woMixingConfig({ ...WO_MIXING_LESSON, ...patch });
  const preset = WO_MIXING_LESSON.presets[1];
  assert.throws(broken({ presets: [{ ...preset, entries: [[12, 0, 1]] }] }), /indices/);
  assert.throws(broken({ presets: [{ ...preset, entries: [[0, 0, 1], [0, 0, 2]] }] }), /twice/);
  assert.throws(broken({ presets: [{ ...preset, entries: [[0, 0, 1e9]] }] }), /values/);
  assert.throws(broken({ presets: [{ ...preset, entries: [[0, 0]] }] }), /3 numbers/);
  assert.throws(broken({ heads: 3 }), /heads/);
  assert.throws(broken({ woLimit: -1 }), /woLimit/);
  assert.throws(broken({ directions: [{ id: 'zero', label: 'u = 0', about: 'nothing', entries: [] }], startingDirection: 'zero' }), /must not be 0/);
  assert.throws(broken({ startingPreset: 'nope' }), /startingPreset/);
});
