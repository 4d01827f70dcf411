// Bad input reaches JavaScript as an AttentionError carrying the core's message, and a
// failed call leaves the model as it was. The module never aborts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttentionError } from '../../web/engine/engine.js';
import { loadTestEngine } from './load-engine.mjs';

const engine = await loadTestEngine('simd');

function throwsAttentionError(fn, pattern) {
  assert.throws(fn, (error) => {
    assert.ok(error instanceof AttentionError, `expected AttentionError, got ${error}`);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('errors', () => {
  test('bad shapes when creating a model', () => {
    throwsAttentionError(() => engine.createModel({ seqLen: 4, dModel: 8, numHeads: 3 }), /num_heads \(h\): must divide d_model = 8/);
    throwsAttentionError(() => engine.createModel({ seqLen: 0, dModel: 8, numHeads: 2 }), /seq_len \(L\): must be between 1 and 4096, got 0/);
    throwsAttentionError(() => engine.createModel({ seqLen: 2.5, dModel: 8, numHeads: 2 }), /seqLen: expected a whole number, got 2.5/);
    throwsAttentionError(() => engine.createModel({ seqLen: 2, dModel: '8', numHeads: 2 }), /dModel: expected a whole number/);
    throwsAttentionError(() => engine.createModel(undefined), /seqLen: expected a whole number, got undefined/);
    assert.equal(engine.liveModels, 0, 'no half-made model is left behind');
  });

  test('bad values and shapes on every entry point', () => {
    const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
    try {
      model.randomize(1);
      const x = [1, 2, 3, 4, 5, 6, 7, 8];
      const before = model.forward(x).output.data;
      throwsAttentionError(() => model.forward([1, 2, 3]), /X: expected 2 x 4 = 8 values, got 3/);
      throwsAttentionError(() => model.forward([1, 2, 3, 4, 5, NaN, 7, 8]), /X: entry \(1, 1\) is NaN/);
      throwsAttentionError(() => model.forward([1, 2, 3, 4, 5, 6, Infinity, 8]), /X: entry \(1, 2\) is infinity/);
      throwsAttentionError(() => model.forward(['a', 2, 3, 4, 5, 6, 7, 8]), /X: entry \(0, 0\) is NaN/);
      throwsAttentionError(() => model.forward(null), /X: expected an array of numbers/);
      throwsAttentionError(() => model.forward(42), /X: expected an array of numbers/);
      throwsAttentionError(() => model.forward([1e39, 1, 1, 1, 1, 1, 1, 1]),
        /X: entry \(0, 0\) is infinity/); // 1e39 is beyond float32
      throwsAttentionError(() => model.setHeadProjection('query', 2, new Float32Array(8)), /W_Q: head: must be between 0 and 1, got 2/);
      throwsAttentionError(() => model.setHeadProjection('key', 0, new Float32Array(7)), /W_K of head 0: expected 4 x 2 = 8 values, got 7/);
      throwsAttentionError(() => model.setHeadProjection('bogus', 0, new Float32Array(8)), /projection: expected "query", "key" or "value"/);
      throwsAttentionError(() => model.setOutputProjection(new Float32Array(15)), /W_O: expected 4 x 4 = 16 values, got 15/);
      throwsAttentionError(() => model.setAttentionOverride(0, [0.5, 0.4, 0, 1]), /attention weights of head 0: row 0 sums to 0.9/);
      throwsAttentionError(() => model.setAttentionOverride(0, [1.5, -0.5, 0, 1]), /entry \(0, 1\) is -0.5; attention weights must be non-negative/);
      throwsAttentionError(() => model.renormalizeRows([0, 0, 1, 1]), /row 0 sums to 0/);
      throwsAttentionError(() => model.similaritySingularValues(7), /head: must be between 0 and 1, got 7/);
      throwsAttentionError(() => model.randomize(-1), /seed: expected a whole number/);
      // Nothing above changed the model.
      assert.deepEqual(model.forward(x).output.data, before);
    } finally {
      model.delete();
    }
  });

  test('products that overflow float32 are named, never returned as Infinity or NaN', () => {
    const model = engine.createModel({ seqLen: 2, dModel: 2, numHeads: 1 });
    try {
      model.setProjection('query', [1, 0, 0, 1]);
      model.setProjection('key', [1, 0, 0, 1]);
      throwsAttentionError(() => model.forward([1e30, 1e30, 1e30, 1e30]), /the scores Q K\^T \/ sqrt\(d_k\) of head 0 overflowed/);
      // Logits of 1e30 are fine: finite weights.
      const result = model.forward([1e15, -1e15, -1e15, 1e15]);
      assert.ok(result.heads[0].weights.data.every(Number.isFinite));
    } finally {
      model.delete();
    }
  });

  test('the module keeps working after many errors', () => {
    const model = engine.createModel({ seqLen: 2, dModel: 2, numHeads: 1 });
    try {
      const heap = engine.heapBytesInUse();
      for (let i = 0; i < 1000; i++) assert.throws(() => model.forward([NaN, 0, 0, 0]));
      assert.equal(engine.heapBytesInUse(), heap, 'errors leak no heap');
      assert.ok(model.forward([1, 2, 3, 4]).output.data.every(Number.isFinite));
    } finally {
      model.delete();
    }
  });
});
