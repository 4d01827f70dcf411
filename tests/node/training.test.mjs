// The Trainer API of web/engine/training.js over the built training modules: training reaches the lesson's
// accuracy, a seed names a run, ablation and importance find each head's job, attention
// patterns have the right shape, every bad argument is an AttentionError naming it, and
// trainers do not leak.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttentionError } from '../../web/engine/engine.js';
import { BUILDS, loadTestTrainingEngine } from './load-engine.mjs';

const engines = Object.fromEntries(await Promise.all(BUILDS.map(async (b) => [b, await loadTestTrainingEngine(b)])));
const engine = engines.simd;

function throwsAttentionError(fn, pattern) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof AttentionError, `expected AttentionError, got ${error}`);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('training', () => {
  test('defaults come from the core and fill in what the caller leaves out', () => {
    const defaults = engine.defaultTrainingConfig('back-and-first');
    assert.deepEqual(
      { task: defaults.task, dModel: defaults.dModel, vocabSize: defaults.vocabSize, numHeads: defaults.numHeads, steps: defaults.steps },
      { task: 'back-and-first', dModel: 16, vocabSize: 16, numHeads: 2, steps: 1500 });
    assert.equal(engine.defaultTrainingConfig('previous-token').numHeads, 4);
    const trainer = engine.createTrainer({ numHeads: 4 }, 3);
    try {
      assert.equal(trainer.config.numHeads, 4);
      assert.equal(trainer.config.dModel, 16);
      assert.equal(trainer.seed, 3);
      assert.equal(trainer.stepsDone, 0);
      assert.deepEqual(trainer.headMask, [false, false, false, false]);
    } finally {
      trainer.delete();
    }
  });

  test('a seed names a run; another seed is another run; both builds learn', () => {
    const losses = (build, seed) => {
      const trainer = engines[build].createTrainer({ task: 'previous-token' }, seed);
      try {
        return [trainer.step(20).loss, trainer.step(20).loss, trainer.evaluate().loss];
      } finally {
        trainer.delete();
      }
    };
    const a = losses('simd', 11);
    assert.deepEqual(losses('simd', 11), a);
    assert.notDeepEqual(losses('simd', 12), a);
    for (const build of BUILDS) {
      const [first, , evaluation] = losses(build, 11);
      assert.ok(evaluation < first, `${build}: evaluation loss ${evaluation} after 40 steps, first batches ${first}`);
    }
    // The scalar build rounds differently but computes the same thing.
    const s = losses('scalar', 11);
    assert.ok(Math.abs(s[0] - a[0]) < 1e-3 * a[0], `first-step loss simd ${a[0]} scalar ${s[0]}`);
  });

  test('two heads learn both relationships; switching one off loses exactly its job', () => {
    const trainer = engine.createTrainer({ task: 'back-and-first' }, 1);
    try {
      const result = trainer.step(trainer.config.steps);
      assert.equal(result.steps, 1500);
      const all = trainer.evaluate();
      console.log(`back-and-first, 2 heads, seed 1, 1500 steps: accuracy ${all.accuracy.toFixed(3)} (outputs ${all.outputAccuracy.map((a) => a.toFixed(3))})`);
      assert.ok(all.accuracy > 0.95);
      const jobs = [];
      for (const head of [0, 1]) {
        trainer.ablate([head === 0, head === 1]);
        const { outputAccuracy } = trainer.evaluate();
        console.log(`  head ${head} off: token k back ${outputAccuracy[0].toFixed(3)}, first token ${outputAccuracy[1].toFixed(3)}`);
        jobs.push(outputAccuracy.findIndex((a) => a < 0.3));
        assert.ok(Math.max(...outputAccuracy) > 0.9, 'the other job survives');
      }
      assert.deepEqual(jobs.slice().sort(), [0, 1], 'each head carries a different relationship');
      trainer.ablate([[false, false]]);
      assert.equal(trainer.evaluate().loss, all.loss);

      const ranking = trainer.importance();
      assert.equal(ranking.length, 2);
      for (const h of ranking) {
        assert.equal(h.layer, 0);
        assert.ok(h.lossChange > 1, `head ${h.head}: loss change ${h.lossChange}`);
        assert.ok(h.gradientScore > 0);
        assert.ok(h.accuracyWithout < 0.3);
      }
      // With head 0 off, only head 1 is ranked.
      trainer.ablate([true, false]);
      assert.deepEqual(trainer.importance().map((h) => h.head), [1]);
      assert.deepEqual(trainer.headMask, [true, false]);

      const { tokens, labels, predictions, layers } = trainer.attention(5);
      const L = trainer.config.seqLen;
      assert.equal(tokens.length, L);
      assert.equal(labels[0], -1);
      assert.equal(labels[L - 1], tokens[L - 3] * 16 + tokens[0]);
      assert.equal(predictions.length, L);
      assert.equal(layers.length, 1);
      assert.equal(layers[0].length, 2);
      for (const m of layers[0]) {
        assert.equal(m.rows, L);
        for (let t = 0; t < L; t++) {
          let sum = 0;
          for (let s = 0; s < L; s++) sum += m.get(t, s);
          assert.ok(Math.abs(sum - 1) < 1e-5);
          for (let s = t + 1; s < L; s++) assert.equal(m.get(t, s), 0, 'causal');
        }
      }
    } finally {
      trainer.delete();
    }
  });

  test('bad settings and arguments are AttentionErrors naming them; a failed call changes nothing', () => {
    throwsAttentionError(() => engine.createTrainer({ task: 'copy' }), /task: expected "previous-token" or "back-and-first", got "copy"/);
    throwsAttentionError(() => engine.createTrainer({ numHeads: 3 }), /num_heads \(h\): must divide d_model = 16/);
    throwsAttentionError(() => engine.createTrainer({ dModel: 2.5 }), /dModel: expected a whole number, got 2.5/);
    throwsAttentionError(() => engine.createTrainer({ learningRate: 'fast' }), /learningRate: expected a finite number/);
    throwsAttentionError(() => engine.createTrainer({ learningRate: 2 }), /learning_rate: must be in \(0, 1\], got 2/);
    throwsAttentionError(() => engine.createTrainer({ offset: 9 }), /offset \(k\): must be between 1 and 8, got 9/);
    throwsAttentionError(() => engine.createTrainer({ vocabSize: 17 }), /vocab: must be between 2 and 16, got 17/);
    throwsAttentionError(() => engine.createTrainer({ heads: 2 }), /config: unknown setting "heads"/);
    throwsAttentionError(() => engine.createTrainer(null), /config: expected an object of training settings, got null/);
    throwsAttentionError(() => engine.createTrainer({}, -1), /seed: expected a whole number/);
    throwsAttentionError(() => engine.createTrainer({ steps: -1 }), /steps: must be between 1 and 100000, got -1/);
    throwsAttentionError(() => engine.createTrainer({ task: 'previous-token', dModel: 256, numHeads: 4, numLayers: 4, seqLen: 64, batchSize: 1024 }), /kMaxTrainingMultiplyAdds/);
    assert.equal(engine.liveTrainers, 0, 'no half-made trainer is left behind');

    const trainer = engine.createTrainer({ task: 'previous-token', evalSize: 8 }, 2);
    try {
      trainer.step(2);
      const before = trainer.evaluate();
      throwsAttentionError(() => trainer.step(0), /steps: must be between 1 and 100000, got 0/);
      // 100,000 steps plan 1.8e11 multiply-adds: refused before any work (once it ran on for minutes).
      throwsAttentionError(() => trainer.step(100000), /kMaxTrainingMultiplyAdds/);
      assert.equal(trainer.stepsDone, 2);
      throwsAttentionError(() => trainer.step(1.5), /steps: expected a whole number, got 1.5/);
      throwsAttentionError(() => trainer.ablate([true]), /head mask: expected 1 x 4 = 4 entries \(layer-major\), got 1/);
      throwsAttentionError(() => trainer.ablate([1, 0, 0, 0]), /head mask: entry 0 is 1; expected true or false/);
      throwsAttentionError(() => trainer.ablate(null), /head mask: expected an array of booleans/);
      throwsAttentionError(() => trainer.attention(8), /example: must be between 0 and 7, got 8/);
      assert.deepEqual(trainer.evaluate(), before);
      assert.equal(trainer.stepsDone, 2);
    } finally {
      trainer.delete();
    }
    trainer.delete();
    assert.equal(trainer.deleted, true);
    throwsAttentionError(() => trainer.step(1), /this Trainer has been deleted/);
    assert.equal(engine.liveTrainers, 0);
  });

  test('hostile settings and masks are refused before any wasm call: stack and heap unchanged', () => {
    const thrower = () => { throw new Error('hostile getter'); };
    const trainer = engine.createTrainer({ task: 'previous-token', evalSize: 4, batchSize: 2 }, 1);
    try {
      const hostile = [
        () => engine.createTrainer(new Proxy({}, { ownKeys: thrower })),
        () => engine.createTrainer(Object.defineProperty({}, 'dModel', { get: thrower, enumerable: true })),
        () => engine.createTrainer({ dModel: 2 ** 32 + 16 }),
        () => engine.createTrainer({ causal: 'false' }),
        () => engine.createTrainer({ task: { toString: () => 'previous-token' } }),
        () => engine.createTrainer({}, 2 ** 32),
        () => trainer.ablate(new Proxy([false, false, false, false], { get: (t, k) => (k === 'length' ? 4 : thrower()) })),
        () => trainer.ablate(Object.defineProperty([false, false, false, false], 2, { get: thrower })),
        () => trainer.step(2 ** 32 + 1),
        () => trainer.attention(-(2 ** 32)),
      ];
      hostile.forEach((call) => assert.throws(call, AttentionError));
      const stack = engine.wasmStackPointer(), heap = engine.heapBytesInUse();
      for (let i = 0; i < 2000; i++) {
        for (const call of hostile) {
          try { call(); } catch { /* AttentionError, checked above */ }
        }
      }
      assert.equal(engine.wasmStackPointer(), stack);
      assert.equal(engine.heapBytesInUse(), heap);
      assert.equal(engine.liveTrainers, 1);
      assert.equal(trainer.stepsDone, 0, 'step(2^32 + 1) was refused, not run as step(1)');
      assert.ok(Number.isFinite(trainer.step(1).loss));
    } finally {
      trainer.delete();
    }
  });

  test('200 create/step/importance/delete cycles do not leak', () => {
    const cycle = (i) => {
      const trainer = engine.createTrainer({ task: 'previous-token', evalSize: 4, batchSize: 2 }, i);
      trainer.step(1);
      trainer.ablate([false, true, false, false]);
      trainer.importance();
      trainer.attention(1);
      trainer.delete();
    };
    for (let i = 0; i < 20; i++) cycle(i);
    const before = engine.heapBytesInUse();
    for (let i = 0; i < 200; i++) cycle(i);
    assert.equal(engine.heapBytesInUse(), before);
  });
});
