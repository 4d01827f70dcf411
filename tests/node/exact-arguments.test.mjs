// Numbers, flags and names are taken exactly (issue 11, items 8 and 9): Embind converts any
// JS number to a C++ int modulo 2^32 and any value to a bool by truthiness, and a plain
// object lookup answers 'toString'. engine.js refuses all of these with an AttentionError
// before the core sees them. And no call may run for minutes: the core refuses work over
// its named budgets.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttentionError } from '../../web/engine/engine.js';
import { loadTestEngine, randomArray } from './load-engine.mjs';

const engine = await loadTestEngine('simd');

function throwsAttentionError(fn, pattern, label) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof AttentionError, `${label ?? ''}: expected AttentionError, got ${error}`);
    if (pattern) assert.match(error.message, pattern);
    return true;
  }, label);
}

const NOT_A_HEAD_INDEX = [2 ** 32, 2 ** 32 + 1, 1.7, '1', null, undefined, true, -0.5, NaN, Infinity, 2 ** 31];

describe('exact arguments', () => {
  test('whole numbers beyond the C++ int range are refused, not wrapped', () => {
    throwsAttentionError(() => engine.createModel({ seqLen: 2 ** 32 + 3, dModel: 4, numHeads: 2 }), /seqLen: 4294967299 is outside/);
    throwsAttentionError(() => engine.createModel({ seqLen: 3, dModel: 2 ** 32 + 4, numHeads: 2 }), /dModel/);
    throwsAttentionError(() => engine.createModel({ seqLen: 3, dModel: 4, numHeads: 2 ** 32 + 2 }), /numHeads/);
    throwsAttentionError(() => engine.seededMatrix(2 ** 32 + 2, 2, 1), /seededMatrix: rows: 4294967298 is outside/);
    throwsAttentionError(() => engine.seededMatrix(2, 2 ** 32 + 2, 1), /seededMatrix: cols/);
    throwsAttentionError(() => engine.seededMatrix(2, 2, 2 ** 32), /seededMatrix: seed/);
    throwsAttentionError(() => engine.seededMatrix(2, 2, 1, '2'), /seededMatrix: scale/);
    throwsAttentionError(() => engine.componentAlong({ rows: 2 ** 32 + 1, cols: 1, data: [1] }, [1]), /matrix: rows/);
    throwsAttentionError(() => engine.findAlternativeWeights({ rows: 1, cols: 2 ** 32 + 1, data: [1] }, [1]), /values: cols/);
    assert.equal(engine.liveModels, 0);
  });

  test('a head index must be a whole number: 2^32, 1.7, "1" and null do not mean head 0 or 1', () => {
    const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
    try {
      model.randomize(1);
      const x = randomArray(8, 2);
      const before = model.forward(x).output.data;
      const weightsBefore = model.getWeights('query').data;
      for (const head of NOT_A_HEAD_INDEX) {
        const label = `head ${String(head)}`;
        throwsAttentionError(() => model.setHeadProjection('query', head, new Float32Array(8).fill(9)), /head/, label);
        throwsAttentionError(() => model.setAttentionOverride(head, [1, 0, 0, 1]), /head/, label);
        throwsAttentionError(() => model.setAttentionOverride(head, null), /head/, label);
        throwsAttentionError(() => model.similaritySingularValues(head), /head/, label);
        throwsAttentionError(() => model.similarityRank(head), /head/, label);
      }
      assert.deepEqual(model.getWeights('query').data, weightsBefore);
      assert.deepEqual(model.forward(x).output.data, before);
      assert.equal(model.forward(x).heads.some((h) => h.weightsOverridden), false);
    } finally {
      model.delete();
    }
  });

  test('causal and the forward options are true or false; no options (undefined or null) means the defaults', () => {
    for (const causal of ['false', 0, 1, null, 'yes', {}]) {
      throwsAttentionError(() => engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2, causal }), /causal: expected true or false/, String(causal));
    }
    assert.equal(engine.liveModels, 0);
    const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
    try {
      assert.equal(model.config.causal, false);
      model.randomize(2);
      const x = randomArray(8, 3);
      const defaults = model.forward(x);
      for (const none of [undefined, null, {}]) {
        const result = model.forward(x, none);
        assert.deepEqual(result.output.data, defaults.output.data);
        assert.ok(result.heads[0].contribution !== null && result.heads[0].weights !== null);
      }
      for (const options of [5, 'lean', true]) throwsAttentionError(() => model.forward(x, options), /forward options/);
      throwsAttentionError(() => model.forward(x, { keepAttention: 'no' }), /keepAttention: expected true or false/);
      throwsAttentionError(() => model.forward(x, { perHeadContributions: 0 }), /perHeadContributions/);
      throwsAttentionError(() => model.forward(x, { get keepAttention() { throw 1; } }), /forward options/);
    } finally {
      model.delete();
    }
  });

  test('projection and weight names are own keys: toString, constructor and __proto__ are refused', () => {
    const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
    try {
      const before = model.getWeights('query').data;
      for (const kind of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf', Symbol('query')]) {
        throwsAttentionError(() => model.setHeadProjection(kind, 0, new Float32Array(8).fill(1)), /projection: expected/, String(kind));
        throwsAttentionError(() => model.setProjection(kind, new Float32Array(16).fill(1)), /projection: expected/, String(kind));
        throwsAttentionError(() => model.getWeights(kind), /weights: expected/, String(kind));
      }
      assert.deepEqual(model.getWeights('query').data, before, 'W_Q untouched');
    } finally {
      model.delete();
    }
  });

  test('the work budget: a call over it is refused at once, naming the limit', () => {
    assert.deepEqual(engine.limits, {
      maxSeqLen: 4096, maxModelWidth: 4096, maxSeededRows: 4096,
      maxForwardMultiplyAdds: 4e9, maxSpectrumMultiplyAdds: 1e9,
    });
    const wide = engine.createModel({ seqLen: 4096, dModel: 1024, numHeads: 1 });
    try {
      const started = performance.now();
      throwsAttentionError(() => wide.forward(new Float32Array(4096 * 1024)), /over the work budget kMaxForwardMultiplyAdds = 4000000000/);
      throwsAttentionError(() => wide.similaritySingularValues(0), /over the work budget kMaxSpectrumMultiplyAdds = 1000000000/);
      assert.ok(performance.now() - started < 1000, 'refused before doing the work');
    } finally {
      wide.delete();
    }
  });

  test('randomize works for d_model above 1024 (its stream once hit seeded_matrix\'s row limit)', () => {
    for (const dModel of [1025, 2048]) {
      const model = engine.createModel({ seqLen: 1, dModel, numHeads: 1 });
      try {
        model.randomize(7);
        assert.ok(model.getWeights('output').data.some((v) => v !== 0), `d_model ${dModel}`);
      } finally {
        model.delete();
      }
    }
  });
});
