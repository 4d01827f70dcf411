// The head-splitting widget's model (web/widgets/head-splitting/head-splitting-model.js) on
// the core in Node: the strict config and state contract, the divisor helpers, the counts
// of real forward passes against the algebra (h L² d_k = L² d_model), the rank of each world
// head against its width, the caches, and the timing generator on a fake clock (it frees
// its model whether it finishes or is stopped).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  SPLIT_LESSON, SplitModels, countsOfShape, divisors, measureConfiguration, measureSteps, median, nearestDivisor,
  sanitizeSplitState, splitConfig, startingState,
} from '../../web/widgets/head-splitting/head-splitting-model.js';
import { THE_WORLD as w, headsAt } from '../../web/widgets/shared/world.js';
import { loadTestEngine } from './load-engine.mjs';

let engine, models;
const config = splitConfig();
before(async () => {
  engine = await loadTestEngine('simd');
  models = new SplitModels(engine, config);
});
after(() => models?.dispose());

test('config: the lesson data by default; an author’s overrides merged; anything else refused with its field', () => {
  assert.deepEqual(startingState(config), { dModel: 512, heads: 8, seqLen: 64, spectrumHeads: 4, spectrumHead: 0 });
  assert.deepEqual(config.configurations, SPLIT_LESSON.configurations);
  const authored = splitConfig({ start: { dModel: 96, heads: 12 }, spectrumStart: { heads: 2, head: 1 }, configurations: [{ label: 'two', dModel: 96, heads: 2 }] });
  assert.deepEqual(startingState(authored), { dModel: 96, heads: 12, seqLen: 64, spectrumHeads: 2, spectrumHead: 1 });
  for (const [overrides, message] of [
    [{ colour: 'red' }, /unknown config field “colour”/],
    [{ start: [] }, /start: expected an object/],
    [{ start: { width: 8 } }, /start: unknown field “width”/],
    [{ start: { dModel: 512, heads: 7 } }, /7 does not divide/],
    [{ spectrumStart: { heads: 4, head: 4 } }, /head from 0 to 3/],
    [{ spectrumStart: { heads: 3 } }, /one of 1, 2, 4/],
    [{ configurations: [] }, /configurations: expected 1 to 4 entries/],
    [{ configurations: Array.from({ length: 5 }, () => ({ label: 'x', dModel: 8, heads: 1 })) }, /expected 1 to 4 entries/],
    [{ configurations: [{ label: 'x'.repeat(61), dModel: 8, heads: 1 }] }, /label: expected text of 1 to 60 characters/],
    [{ configurations: [{ label: 'x', dModel: 8, heads: 1, extra: 1 }] }, /expected only label, dModel, heads/],
    [{ configurations: [{ label: 'x', dModel: 10, heads: 1 }] }, /dModel/],
  ]) assert.throws(() => splitConfig(overrides), message, JSON.stringify(overrides));
});

test('divisors and the nearest divisor (the smaller on a tie), within the widget’s largest h', () => {
  assert.deepEqual(divisors(12), [1, 2, 3, 4, 6, 12]);
  assert.deepEqual(divisors(512, 64), [1, 2, 4, 8, 16, 32, 64]);
  assert.equal(nearestDivisor(96, 7), 6, '6 and 8 are equally near: the smaller');
  assert.equal(nearestDivisor(96, 9), 8);
  assert.equal(nearestDivisor(512, 100, 64), 64);
  assert.equal(nearestDivisor(8, 3), 2, '2 and 4 are equally near: the smaller');
});

test('state: the start round-trips; every bad field is refused with a reason that names it', () => {
  const good = startingState(config);
  assert.deepEqual(sanitizeSplitState(good, config), good);
  assert.deepEqual(sanitizeSplitState({ ...good, dModel: 96, heads: 12, seqLen: 1, spectrumHeads: 1, spectrumHead: 0 }, config), { dModel: 96, heads: 12, seqLen: 1, spectrumHeads: 1, spectrumHead: 0 });
  for (const [raw, message] of [
    [null, /object/], [[], /object/], ['state', /object/],
    [{ ...good, extra: 1 }, /unknown field/],
    [{ ...good, dModel: 100 }, /dModel/], [{ ...good, dModel: '512' }, /whole/],
    [{ ...good, heads: 0 }, /heads/], [{ ...good, heads: 128, dModel: 512 }, /heads/], [{ ...good, heads: 3 }, /3 does not divide/],
    [{ ...good, heads: 2.5 }, /whole/], [{ ...good, seqLen: 0 }, /seqLen/], [{ ...good, seqLen: 257 }, /seqLen/],
    [{ ...good, seqLen: Number.NaN }, /whole/], [{ ...good, spectrumHeads: 8 }, /one of 1, 2, 4/],
    [{ ...good, spectrumHead: 4 }, /head from 0 to 3/], [{ ...good, spectrumHead: -1 }, /head from 0 to 3/],
  ]) assert.throws(() => sanitizeSplitState(raw, config), message, JSON.stringify(raw));
});

test('counts of real forward passes: h L² d_k = L² d_model multiply-adds whatever h; h L² exp() calls; heads d_k wide', () => {
  for (const [dModel, heads, seqLen] of [[512, 1, 64], [512, 8, 64], [512, 32, 64], [96, 12, 10], [8, 8, 1], [64, 4, 256]]) {
    const { config: shape, counts, headWidths } = models.countsFor({ dModel, heads, seqLen });
    const dK = dModel / heads;
    assert.equal(shape.dK, dK);
    assert.equal(counts.scores, heads * seqLen * seqLen * dK, `${dModel}/${heads}/${seqLen}: scores`);
    assert.equal(counts.scores, seqLen * seqLen * dModel, 'the head count cancels');
    assert.equal(counts.exponentials, heads * seqLen * seqLen, 'one exp() per entry of the h weight matrices');
    assert.deepEqual(headWidths, new Array(heads).fill(dK));
  }
  // The widget's view: its row, the one wide head beside it, and the lesson's three rows.
  const view = models.compute(startingState(config));
  assert.equal(view.main.counts.scores, view.oneHead.counts.scores);
  assert.deepEqual(view.table.map((row) => [row.label, row.config.numHeads]), config.configurations.map((c) => [c.label, c.heads]));
});

test('the rank price: every world head at h = 1, 2, 4 has at most d_k non-zero singular values of d_model, largest first', () => {
  const ranks = {};
  for (const h of w.headCounts) {
    const named = headsAt(w, h);
    ranks[h] = named.map((_, head) => {
      const { values, nonZero, config: shape, head: got } = models.spectrumFor({ heads: h, head });
      assert.equal(values.length, w.dModel);
      values.slice(1).forEach((v, k) => assert.ok(v <= values[k] + 1e-6, `h ${h} head ${head}: sorted`));
      assert.ok(nonZero <= shape.dK, `h ${h} head ${head}: rank ${nonZero} ≤ d_k ${shape.dK}`);
      assert.equal(got.name, named[head].name);
      return nonZero;
    });
  }
  // The README's figures: 3, 3, 2, 1 at h = 4; 3 and 3 at h = 2; 6 at h = 1.
  assert.deepEqual(ranks, { 1: [6], 2: [3, 3], 4: [3, 3, 2, 1] });
  // A merged head's view names its designed members' own ranks.
  const merged = models.spectrumView(2, 0);
  assert.ok(merged.spectrum.head.merged);
  assert.deepEqual(merged.spectrumMembers.map((m) => m.nonZero), merged.spectrum.head.members.map((m) => ranks[4][m.index]));
  assert.throws(() => models.spectrumFor({ heads: 4, head: 4 }), /head from 0 to 3/);
});

test('caches: the same shape is computed once; at most 64 kept, the least recently used dropped first', () => {
  const fresh = new SplitModels(engine, config);
  const first = fresh.countsFor({ dModel: 8, heads: 1, seqLen: 1 });
  assert.equal(fresh.countsFor({ dModel: 8, heads: 1, seqLen: 1 }), first);
  for (let L = 2; L <= 65; L++) fresh.countsFor({ dModel: 8, heads: 2, seqLen: L });
  assert.equal(fresh.counts.size, 64);
  assert.notEqual(fresh.countsFor({ dModel: 8, heads: 1, seqLen: 1 }), first, 'the oldest was dropped');
  fresh.dispose();
  assert.equal(fresh.counts.size, 0);
  assert.equal(engine.liveModels, 0, 'no model stays allocated between calls');
});

// countsOfShape leaves the weights as the core makes them (zero): the counts are tallies of
// the operations, which must not depend on the values. Here each shape also counted with
// weights drawn from the seed, as the timed passes are: the same counts, shape by shape.
test('counts: a pass with the core’s zero weights counts what a pass with seeded weights does', () => {
  for (const [dModel, heads, seqLen] of [[16, 4, 3], [64, 8, 17], [96, 12, 5], [512, 8, 65], [512, 1, 1], [512, 32, 2]]) {
    const lean = countsOfShape(engine, config, { dModel, heads, seqLen });
    const model = engine.createModel({ seqLen, dModel, numHeads: heads });
    try {
      model.randomize(config.weightSeed);
      const x = engine.seededMatrix(seqLen, dModel, config.inputSeed, config.inputScale).data;
      const seeded = model.forward(x, { perHeadContributions: false, keepAttention: false, include: ['heads'], views: true });
      assert.deepEqual(lean.counts, seeded.counts, `${dModel}/${heads}/${seqLen}`);
      assert.deepEqual(lean.headWidths, seeded.heads.map((head) => head.output.cols));
      assert.ok(lean.counts.attention > 0 && lean.counts.exponentials === heads * seqLen * seqLen);
    } finally {
      model.delete();
    }
  }
  assert.equal(engine.liveModels, 0);
});

test('counts computed ahead (the worker’s): the shapes of L - 1 and L + 1 not yet here; kept only where missing; the same as the page’s', () => {
  const small = splitConfig({ start: { dModel: 16, heads: 4, seqLen: 3 }, configurations: [{ label: 'one', dModel: 16, heads: 1 }, { label: 'four', dModel: 16, heads: 4 }] });
  const fresh = new SplitModels(engine, small);
  const state = { dModel: 16, heads: 4, seqLen: 3 };
  fresh.compute({ ...startingState(small), ...state });
  // compute() needs (16, 4, L), one wide head (16, 1, L) and the table's rows: two distinct shapes per L.
  const keys = (shapes) => shapes.map((s) => `${s.dModel}/${s.heads}/${s.seqLen}`).sort();
  assert.deepEqual(keys(fresh.neighbourShapes(state)), ['16/1/2', '16/1/4', '16/4/2', '16/4/4']);
  // What the worker posts is plain data (structured clone), equal to what the page computes.
  const ahead = structuredClone(countsOfShape(engine, small, { dModel: 16, heads: 4, seqLen: 4 }));
  fresh.keepCounts({ dModel: 16, heads: 4, seqLen: 4 }, ahead);
  assert.equal(fresh.countsFor({ dModel: 16, heads: 4, seqLen: 4 }), ahead, 'a kept shape needs no pass here');
  assert.deepEqual(ahead, new SplitModels(engine, small).countsFor({ dModel: 16, heads: 4, seqLen: 4 }));
  const here = fresh.countsFor({ dModel: 16, heads: 1, seqLen: 3 });
  fresh.keepCounts({ dModel: 16, heads: 1, seqLen: 3 }, { other: true });
  assert.equal(fresh.countsFor({ dModel: 16, heads: 1, seqLen: 3 }), here, 'counts already here are not replaced');
  assert.deepEqual(keys(fresh.neighbourShapes(state)), ['16/1/2', '16/1/4', '16/4/2']);
  // At the lesson's bounds only the side within them.
  assert.deepEqual(keys(fresh.neighbourShapes({ dModel: 16, heads: 4, seqLen: small.seqLen.min })).map((k) => k.split('/')[2]), ['2', '2']);
  assert.deepEqual(keys(fresh.neighbourShapes({ dModel: 16, heads: 4, seqLen: small.seqLen.max })).map((k) => k.split('/')[2]), [String(small.seqLen.max - 1), String(small.seqLen.max - 1)]);
  fresh.dispose();
  assert.equal(engine.liveModels, 0);
});

test('timing on a fake clock: the median of samples within the budget; the model freed when finished or stopped', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  let clock = 0;
  const now = () => (clock += 0.5); // every reading half a millisecond later
  const progress = [];
  const result = measureConfiguration(engine, config, { dModel: 16, heads: 2, seqLen: 4 }, { now, onProgress: (p) => progress.push(p) });
  const { minSamples, maxSamples } = config.measure;
  assert.ok(result.samples >= minSamples && result.samples <= maxSamples, `${result.samples} samples`);
  assert.ok(Number.isFinite(result.medianMs) && result.medianMs > 0);
  assert.equal(result.counts.scores, 4 * 4 * 16);
  assert.ok(progress.every((p) => p >= 0 && p <= 1) && progress.at(-1) > 0);
  assert.equal(engine.liveModels, 0, 'freed after a finished measurement');
  const steps = measureSteps(engine, config, { dModel: 16, heads: 2, seqLen: 4 }, now);
  steps.next();
  assert.equal(engine.liveModels, 1, 'one model while measuring');
  steps.return();
  assert.equal(engine.liveModels, 0, 'freed when stopped (Cancel)');
});
