// Object lifetimes: delete() frees the C++ object, deleted models refuse work, and 10,000
// create/forward/delete cycles leave the wasm heap where it was.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttentionError } from '../../web/engine/engine.js';
import { loadTestEngine, randomArray } from './load-engine.mjs';

const engine = await loadTestEngine('simd');

describe('lifetimes', () => {
  test('delete() is idempotent and a deleted model refuses every call', () => {
    const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
    assert.equal(engine.liveModels, 1);
    model.delete();
    model.delete();
    assert.equal(model.deleted, true);
    assert.equal(engine.liveModels, 0);
    assert.throws(() => model.forward(new Float32Array(8)), AttentionError);
    assert.throws(() => model.randomize(1), /has been deleted/);
  });

  test('10,000 create/forward/delete cycles do not leak', () => {
    const x = randomArray(10 * 8, 1);
    const cycle = (i) => {
      const model = engine.createModel({ seqLen: 10, dModel: 8, numHeads: 2 });
      model.randomize(i);
      model.setAttentionOverride(0, new Float32Array(100).fill(0.1));
      model.forward(x);
      model.similaritySingularValues(1);
      model.delete();
    };
    for (let i = 0; i < 100; i++) cycle(i); // warm-up: allocator pools settle
    const before = engine.heapBytesInUse();
    for (let i = 0; i < 10000; i++) cycle(i);
    const after = engine.heapBytesInUse();
    console.log(`wasm heap in use: ${before} B before, ${after} B after 10,000 cycles`);
    assert.equal(after, before);
  });

  test('results stay valid when the wasm memory grows', () => {
    const small = engine.createModel({ seqLen: 4, dModel: 8, numHeads: 2 });
    const big = engine.createModel({ seqLen: 512, dModel: 512, numHeads: 8 });
    try {
      small.randomize(3);
      const first = small.forward(randomArray(32, 2));
      const copy = Float32Array.from(first.output.data);
      big.randomize(4);
      big.forward(randomArray(512 * 512, 5), { perHeadContributions: true }); // grows memory
      assert.deepEqual(first.output.data, copy, 'copied results survive growth');
      assert.deepEqual(small.forward(randomArray(32, 2)).output.data, copy);
    } finally {
      small.delete();
      big.delete();
    }
  });
});
