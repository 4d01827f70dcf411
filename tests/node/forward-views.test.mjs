// forward()'s `include` and `views` options (issue 16): a caller that runs the layer many
// times a second asks only for what it needs, as views into the model's buffers with the
// lifetime engine.d.ts documents, and the model keeps its buffers between calls. These are
// behaviours, not timings (speed is measured by `npm run bench`, never asserted here).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttentionError } from '../../web/engine/engine.js';
import { BUILDS, loadTestEngine, randomArray } from './load-engine.mjs';

for (const build of BUILDS) {
  const engine = await loadTestEngine(build);

  function withModel(config, fn) {
    const model = engine.createModel(config);
    try {
      model.randomize(11);
      return fn(model);
    } finally {
      model.delete();
    }
  }

  describe(`forward include and views (${build} build)`, () => {
    test('include returns the named results, equal to the full pass, and null for the others', () => {
      withModel({ seqLen: 10, dModel: 8, numHeads: 2 }, (model) => {
        const x = randomArray(80, 3);
        const full = model.forward(x);
        const only = model.forward(x, { include: ['output'] });
        assert.deepEqual(only.output.data, full.output.data);
        for (const name of ['queries', 'keys', 'values', 'heads', 'concat']) assert.equal(only[name], null, name);
        assert.deepEqual(only.counts, full.counts);
        const some = model.forward(x, { include: ['heads', 'concat'], keepAttention: false });
        assert.deepEqual(some.concat.data, full.concat.data);
        assert.equal(some.heads.length, 2);
        assert.deepEqual(some.heads[1].output.data, full.heads[1].output.data);
        assert.equal(some.heads[1].weights, null);
        assert.equal(some.output, null);
        assert.deepEqual(model.forward(x, { include: [] }).counts, full.counts);
      });
    });

    test('bad include and views values are refused with AttentionError, before any work', () => {
      withModel({ seqLen: 2, dModel: 4, numHeads: 2 }, (model) => {
        const x = randomArray(8, 1);
        for (const include of ['output', { 0: 'output', length: 1 }, null, 5]) {
          assert.throws(() => model.forward(x, { include }), (e) => e instanceof AttentionError && /include: expected an array/.test(e.message));
        }
        for (const include of [['toString'], ['Output'], [1], ['output', undefined]]) {
          assert.throws(() => model.forward(x, { include }), (e) => e instanceof AttentionError && /include: entry \d is/.test(e.message));
        }
        assert.throws(() => model.forward(x, { include: Object.defineProperty(['output'], 0, { get() { throw 1; } }) }),
          (e) => e instanceof AttentionError && /include: reading 0 threw/.test(e.message));
        for (const views of ['yes', 1, null]) {
          assert.throws(() => model.forward(x, { views }), (e) => e instanceof AttentionError && /views: expected true or false/.test(e.message));
        }
      });
    });

    test('views read the model buffers: same numbers, overwritten by the next forward, detached by memory growth', () => {
      withModel({ seqLen: 10, dModel: 8, numHeads: 2 }, (model) => {
        const x1 = randomArray(80, 5), x2 = randomArray(80, 6);
        const copy1 = model.forward(x1, { include: ['output'] }).output.data;
        const copy2 = model.forward(x2, { include: ['output'] }).output.data;
        const view = model.forward(x1, { include: ['output'], views: true }).output;
        assert.deepEqual(view.data, copy1);
        assert.equal(view.data.buffer, engine.module.HEAPF32.buffer, 'a view into the wasm memory');
        assert.equal(view.get(3, 4), copy1[3 * 8 + 4]);
        model.forward(x2, { include: ['output'], views: true });
        assert.deepEqual(view.data, copy2, 'the next forward overwrites the view');
        // Grow the wasm memory: every view is detached (length 0), as documented.
        const big = engine.createModel({ seqLen: 1024, dModel: 1024, numHeads: 1 });
        try {
          assert.equal(view.data.length, 0, 'detached after growth');
        } finally {
          big.delete();
        }
        // A fresh call gives a fresh, valid view.
        assert.deepEqual(model.forward(x1, { include: ['output'], views: true }).output.data, copy1);
      });
    });

    test('a view of this model can be the next input (the input buffer is separate)', () => {
      withModel({ seqLen: 4, dModel: 4, numHeads: 2 }, (model) => {
        const x = randomArray(16, 9);
        const once = model.forward(x, { include: ['output'], views: true }).output.data;
        const twiceCopy = model.forward(once.slice(), { include: ['output'] }).output.data;
        const onceAgain = model.forward(x, { include: ['output'], views: true }).output.data;
        assert.deepEqual(model.forward(onceAgain, { include: ['output'] }).output.data, twiceCopy);
      });
    });

    test('repeated calls keep the heap where it was (buffers kept, nothing allocated per call)', () => {
      withModel({ seqLen: 16, dModel: 64, numHeads: 4 }, (model) => {
        const x = randomArray(16 * 64, 2);
        const lean = { include: ['output'], views: true, keepAttention: false, perHeadContributions: false };
        for (const options of [lean, {}, { keepAttention: false }]) {
          model.forward(x, options); // the first call with these options sizes the buffers
          const heap = engine.heapBytesInUse();
          const stack = engine.wasmStackPointer();
          for (let i = 0; i < 200; i++) model.forward(x, options);
          assert.equal(engine.heapBytesInUse(), heap);
          assert.equal(engine.wasmStackPointer(), stack);
        }
      });
    });

    test('X of a wrong length or type gets the core\'s message; typed arrays of any number type work', () => {
      withModel({ seqLen: 2, dModel: 4, numHeads: 2 }, (model) => {
        const x = randomArray(8, 4);
        const expected = model.forward(x).output.data;
        assert.deepEqual(model.forward(Float64Array.from(x)).output.data, expected);
        assert.deepEqual(model.forward(Array.from(x)).output.data, expected);
        assert.throws(() => model.forward(new Float32Array(9)), /X: expected 2 x 4 = 8 values, got 9/);
        assert.throws(() => model.forward(new BigInt64Array(8)), /X: expected numbers, got a typed array of BigInts/);
        const withNaN = Float32Array.from(x);
        withNaN[5] = NaN;
        assert.throws(() => model.forward(withNaN, { views: true }), /X: entry \(1, 1\) is NaN/);
        assert.deepEqual(model.forward(x, { views: true }).output.data, expected, 'the model still works');
      });
    });
  });
}
