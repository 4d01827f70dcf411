// The layer-at-a-glance model (web/widgets/layer/layer-model.js) run by the core in Node:
// every intermediate it hands the widget has the shape the lesson claims, fits together the
// way the construction says (Concat is the heads' outputs side by side, the output is
// Concat W_O), the heads' slices narrow as h grows at the same d_model, the picked path is
// described from the core's own weights, and untrusted state is refused with a message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTestEngine } from './load-engine.mjs';
import { THE_WORLD as w, createWorldModel } from '../../web/widgets/shared/world.js';
import { formatNumber } from '../../web/text/format.js';
import {
  LayerModel, defaultLayerState, describePath, layerOverrides, pathSentence, sanitizeLayerState,
  headAcrossSwitch,
} from '../../web/widgets/layer/layer-model.js';

const engine = await loadTestEngine();
const layer = new LayerModel(engine, w);
const shape = (m) => [m.rows, m.cols];

test('every intermediate has its real shape, at the same d_model for h = 1, 2, 4', () => {
  for (const h of w.headCounts) {
    const view = layer.forward(h);
    assert.equal(view.dK * h, w.dModel, `h = ${h}: h heads of width d_model / h`);
    for (const name of ['x', 'queries', 'keys', 'values', 'concat', 'output']) {
      assert.deepEqual(shape(view[name]), [w.L, w.dModel], `${name} at h = ${h}`);
    }
    assert.deepEqual(shape(view.wo), [w.dModel, w.dModel]);
    assert.equal(view.weights.length, h);
    assert.equal(view.headOutputs.length, h);
    view.weights.forEach((m) => assert.deepEqual(shape(m), [w.L, w.L]));
    view.headOutputs.forEach((m) => assert.deepEqual(shape(m), [w.L, view.dK]));
    assert.deepEqual(view.heads.map((head) => [head.start, head.end]),
      Array.from({ length: h }, (_, i) => [i * view.dK, (i + 1) * view.dK]));
  }
});

test('the pieces fit as the construction says: Concat = [head_1 | ... | head_h], output = Concat W_O', () => {
  for (const h of w.headCounts) {
    const view = layer.forward(h);
    for (let t = 0; t < w.L; t++) {
      view.headOutputs.forEach((out, i) => {
        for (let c = 0; c < view.dK; c++) {
          assert.equal(view.concat.data[t * w.dModel + i * view.dK + c], out.data[t * view.dK + c], `h = ${h}, head ${i}, row ${t}`);
        }
      });
      // Weights are a budget: non-negative, summing to 1.
      view.weights.forEach((m) => {
        const row = m.data.subarray(t * w.L, (t + 1) * w.L);
        assert.ok(row.every((v) => v >= 0));
        assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
      });
    }
    // The world's W_O is the identity, so the output is the Concat itself.
    assert.deepEqual(Array.from(view.output.data), Array.from(view.concat.data));
  }
});

test('switching h re-cuts the same projections: Q, K, V and W_O do not change, the weights do', () => {
  const [one, two, four] = [1, 2, 4].map((h) => layer.forward(h));
  for (const name of ['queries', 'keys', 'values', 'wo']) {
    assert.deepEqual(Array.from(one[name].data), Array.from(four[name].data), name);
    assert.deepEqual(Array.from(two[name].data), Array.from(four[name].data), name);
  }
  assert.notDeepEqual(Array.from(one.concat.data), Array.from(four.concat.data));
});

test('the view is the core’s forward pass, unchanged', () => {
  const model = createWorldModel(engine, w, 2);
  const result = model.forward(w.x);
  model.delete();
  const view = layer.forward(2);
  assert.deepEqual(Array.from(view.queries.data), Array.from(result.queries.data));
  assert.deepEqual(Array.from(view.weights[1].data), Array.from(result.heads[1].weights.data));
  assert.deepEqual(Array.from(view.output.data), Array.from(result.output.data));
});

test('the path of “said”: one job per head at h = 4, a split budget when heads merge', () => {
  const said = w.queryIndex;
  const at4 = layer.compute({ h: 4, token: said, head: 0 });
  assert.deepEqual(at4.path.notable.map((n) => n.word), ['researcher']);
  assert.ok(at4.path.notable[0].weight > 0.9);
  assert.match(pathSentence(at4, { h: 4, token: said, head: 0 }),
    /^“said”, head 1 \(Subject finder\): budget 0\.9\d on “researcher”, 0\.0\d elsewhere\. Its output fills Concat columns 1–3\.$/);
  const complement = layer.compute({ h: 4, token: said, head: 1 });
  assert.equal(complement.path.notable[0].word, 'it');

  const at2 = layer.compute({ h: 2, token: said, head: 0 });
  assert.deepEqual(at2.path.notable.map((n) => n.word).sort(), ['it', 'researcher']);
  assert.ok(at2.path.notable.every((n) => n.weight > 0.4 && n.weight < 0.55));
  assert.match(pathSentence(at2, { h: 2, token: said, head: 0 }), /^“said”, head 1 \(Subject finder \+ Complement finder\): budget “(researcher|it)” 0\.4\d, “(it|researcher)” 0\.4\d, 0\.0\d elsewhere\. /);
  assert.match(pathSentence(at2, { h: 2, token: said, head: 0 }), /columns 1–6\.$/);
  // The numbers in every sentence add up to the budget of 1, as the weights do.
  for (const h of w.headCounts) {
    for (let head = 0; head < h; head++) {
      for (let token = 0; token < w.L; token++) {
        const view = layer.compute({ h, token, head });
        const text = pathSentence(view, { h, token, head });
        // Each named weight is the core's, to 2 decimals.
        for (const n of view.path.notable) assert.ok(text.includes(formatNumber(n.weight)), `${text} names ${n.word} ${n.weight}`);
        const numbers = text.split('. Its output')[0].match(/\d\.\d\d/g).map(Number);
        assert.equal(numbers.reduce((a, b) => a + b, 0).toFixed(2), '1.00', text);
      }
    }
  }

  // The path's numbers are rows of the view (the core's), not recomputed.
  const path = describePath(w, at4, { token: 7, head: 2 });
  assert.deepEqual(path.weights, Array.from(at4.weights[2].data.subarray(7 * w.L, 8 * w.L)));
  assert.deepEqual(path.output, Array.from(at4.headOutputs[2].data.subarray(7 * 3, 8 * 3)));
  assert.equal(path.notable[0].word, 'said', 'the previous word of “it”');
});

test('state: defaults, author overrides and untrusted JSON', () => {
  assert.deepEqual(defaultLayerState(w), { h: 4, token: w.queryIndex, head: 0 });
  const ok = (overrides) => ({ overrides, problems: [] });
  assert.deepEqual(layerOverrides(w, {}), ok({}));
  assert.deepEqual(layerOverrides(w, { heads: '2', token: 'it', head: 'complement' }), ok({ h: 2, token: 7, head: 0 }));
  assert.deepEqual(layerOverrides(w, { head: 'gist' }), ok({ head: 3 }));
  assert.deepEqual(layerOverrides(w, { head: '2' }), ok({ head: 1 }));
  const ignored = (attributes) => layerOverrides(w, attributes);
  assert.deepEqual(ignored({ heads: '3', token: 'said' }), { overrides: { token: 6 }, problems: ['heads="3" (expected one of 1, 2, 4)'] });
  assert.deepEqual(ignored({ token: 'banana' }).problems, ['token="banana" (not a word of the sentence)']);
  assert.match(ignored({ heads: '1', head: '2' }).problems[0], /^head="2" \(expected subject, complement, previous, gist or 1 to 1\)$/);
  assert.match(ignored({ heads: 'NaN', token: '<b>x</b>'.repeat(20) }).problems.join(' '), /heads="NaN".*token="<b>x<\/b><b>x<\/b><b>x<\/b>" /);

  assert.deepEqual(sanitizeLayerState({ h: 2, token: 3, head: 1 }, w), { h: 2, token: 3, head: 1 });
  const refused = [
    [null, /expected an object/], [[1, 2], /expected an object/], ['x', /expected an object/],
    [{ h: 3, token: 0, head: 0 }, /h: expected one of 1, 2, 4/],
    [{ h: '4', token: 0, head: 0 }, /h: expected/],
    [{ h: 4, token: 11, head: 0 }, /token: expected a position from 0 to 10/],
    [{ h: 4, token: 1.5, head: 0 }, /token/],
    [{ h: 4, token: NaN, head: 0 }, /token/],
    [{ h: 2, token: 0, head: 2 }, /head: expected a head from 0 to 1/],
    [{ h: 4, token: 0, head: -1 }, /head/],
    [{ h: 4, token: 0, head: 0, extra: 1 }, /unknown field “extra”/],
    [{ h: 4, token: 0, head: 0, ['x'.repeat(500)]: 1 }, /unknown field “x{24}”/],
  ];
  for (const [raw, message] of refused) assert.throws(() => sanitizeLayerState(raw, w), message, JSON.stringify(raw)?.slice(0, 60));
  assert.throws(() => layer.compute({ h: 1, token: 0, head: 1 }), /head: expected a head from 0 to 0/);
});

test('dispose frees the core’s models', () => {
  const before = engine.liveModels;
  const scratch = new LayerModel(engine, w);
  scratch.forward(1);
  scratch.forward(4);
  assert.equal(engine.liveModels, before + 2);
  scratch.dispose();
  assert.equal(engine.liveModels, before);
});

test('switching h keeps the selected head where it still exists, and says what it became (issue 22)', () => {
  const name = (head) => head.members.map((m) => m.name).join(' + ');
  // h = 4, the Previous word (head 3) -> h = 2: it is now part of head 2.
  const merged = headAcrossSwitch(w, 4, 2, 2);
  assert.deepEqual([merged.head, merged.kind, name(merged.from), name(merged.to)], [1, 'merged', 'Previous word', 'Previous word + Gist']);
  // and back: head 2 of two -> its first part, the Previous word, head 3 of four.
  const split = headAcrossSwitch(w, 2, 1, 4);
  assert.deepEqual([split.head, split.kind, name(split.to)], [2, 'split', 'Previous word']);
  // The Gist at h = 4 -> h = 1: the one head holds everything.
  assert.deepEqual([headAcrossSwitch(w, 4, 3, 1).head, headAcrossSwitch(w, 4, 3, 1).kind], [0, 'merged']);
  assert.equal(headAcrossSwitch(w, 4, 3, 4).kind, 'same');
});

test('the walk through one head: the core’s scores, and softmax of them is the core’s weights', async () => {
  const engine = await loadTestEngine('simd');
  const model = new LayerModel(engine, w);
  try {
    for (const h of w.headCounts) {
      const view = model.forward(h);
      assert.equal(view.scores.length, h);
      view.scores.forEach((scores, i) => {
        for (let t = 0; t < w.L; t++) {
          const row = scores.data.subarray(t * w.L, (t + 1) * w.L);
          const softmax = engine.softmax(row);
          softmax.forEach((p, s) => assert.ok(Math.abs(p - view.weights[i].data[t * w.L + s]) < 1e-6, `h ${h} head ${i} token ${t}`));
        }
      });
    }
  } finally {
    model.dispose();
  }
});
