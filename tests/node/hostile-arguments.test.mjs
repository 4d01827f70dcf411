// Hostile arguments cannot hurt the shared module (issue 11, item 1). An exception thrown
// while the bindings read an argument used to unwind wasm frames and leak wasm stack on
// every call, until the module trapped and every widget on the page stopped. engine.js now
// reads and copies every argument before entering wasm, so 100,000 hostile calls per class
// end with the stack pointer and the heap where they were and a forward pass that works.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AttentionError } from '../../web/engine/engine.js';
import { loadTestEngine, randomArray } from './load-engine.mjs';

const engine = await loadTestEngine('simd');
const CALLS_PER_CLASS = 100_000;

function thrower() {
  throw new Error('hostile getter');
}

// Each class of hostile array, in several shapes (typed arrays with an own `length`
// property, plain array-likes, arrays with accessor entries, Proxies).
const HOSTILE_CLASSES = {
  'throwing length getter': [
    () => Object.defineProperty(new Float32Array(8), 'length', { get: thrower }),
    () => ({ get length() { throw 1; } }),
    () => new Proxy([1, 2, 3, 4, 5, 6, 7, 8], { get: (target, key) => (key === 'length' ? thrower() : target[key]) }),
  ],
  'length 2^32': [
    () => Object.defineProperty(new Float32Array(8), 'length', { value: 2 ** 32 }),
    () => ({ length: 2 ** 32 }),
    () => ({ length: 2 ** 32 + 8, 0: 1 }),
    () => new Proxy(new Float32Array(8), { get: (target, key) => (key === 'length' ? 2 ** 32 : target[key]) }),
  ],
  'throwing element getters': [
    () => Object.defineProperty([1, 2, 3, 4, 5, 6, 7, 8], 5, { get: thrower }),
    () => ({ length: 8, get 0() { throw 1; } }),
    () => new Proxy([1, 2, 3, 4, 5, 6, 7, 8], { get: (target, key) => (key === 'length' ? 8 : thrower()) }),
  ],
};

describe('hostile arguments', () => {
  test(`${CALLS_PER_CLASS.toLocaleString('en')} hostile calls per class leave the stack, the heap and the model as they were`, () => {
    const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
    try {
      model.randomize(3);
      const x = randomArray(8, 5);
      const before = model.forward(x).output.data;
      const ok = new Float32Array(8).fill(0.25);
      // The entry points that take arrays, each called with one hostile argument.
      const targets = [
        (bad) => model.forward(bad),
        (bad) => engine.softmax(bad),
        (bad) => model.setProjection('query', bad),
        (bad) => model.setHeadProjection('key', 1, bad),
        (bad) => model.setOutputProjection(bad),
        (bad) => model.setAttentionOverride(0, bad),
        (bad, i) => (i % 2 ? engine.componentAlong({ rows: 2, cols: 4, data: bad }, [1, 0, 0, 0])
          : engine.componentAlong({ rows: 2, cols: 4, data: ok }, bad)),
        (bad, i) => (i % 2 ? engine.findAlternativeWeights({ rows: 8, cols: 1, data: bad }, ok.map(() => 0.125))
          : engine.findAlternativeWeights({ rows: 8, cols: 1, data: ok }, bad)),
        (bad, i) => (i % 2 ? engine.cosineSimilarity(bad, ok) : engine.cosineSimilarity(ok, bad)),
        (bad, i) => (i % 2 ? engine.nearestByCosine({ rows: 2, cols: 4, data: bad }, { rows: 2, cols: 4, data: ok })
          : engine.nearestByCosine({ rows: 2, cols: 4, data: ok }, { rows: 2, cols: 4, data: bad })),
        (bad, i) => (i % 2 ? engine.principalPlane({ rows: 2, cols: 4, data: bad })
          : engine.principalPlane({ rows: 2, cols: 4, data: ok }, { rows: 2, cols: 4, data: bad })),
      ];
      engine.softmax([1, 2]); // warm-up: lazily set-up glue allocates once
      const stackBefore = engine.wasmStackPointer();
      const heapBefore = engine.heapBytesInUse();
      const tally = {};
      for (const [name, makers] of Object.entries(HOSTILE_CLASSES)) {
        const counts = { calls: 0, refused: 0, accepted: 0, other: [] };
        for (let i = 0; i < CALLS_PER_CLASS; i++) {
          const bad = makers[i % makers.length]();
          counts.calls++;
          try {
            targets[i % targets.length](bad, Math.floor(i / targets.length));
            // A genuine typed array is read by its real length, whatever its own `length`
            // property claims: a right-sized one is a valid argument.
            counts.accepted++;
          } catch (error) {
            if (error instanceof AttentionError) counts.refused++;
            else if (counts.other.length < 5) counts.other.push(`${typeof error}: ${String(error?.message ?? error)}`);
          }
        }
        tally[name] = counts;
        console.log(`${name}: ${counts.calls} calls, ${counts.refused} refused with AttentionError, ${counts.accepted} accepted, ${counts.other.length} other exceptions`);
      }
      for (const [name, counts] of Object.entries(tally)) {
        assert.deepEqual(counts.other, [], `${name}: every failure is an AttentionError`);
        assert.equal(counts.refused + counts.accepted, CALLS_PER_CLASS);
      }
      assert.ok(tally['throwing element getters'].refused === CALLS_PER_CLASS, 'an entry that cannot be read is always refused');
      assert.equal(engine.wasmStackPointer(), stackBefore, 'the wasm stack pointer is where it was');
      assert.equal(engine.heapBytesInUse(), heapBefore, 'the wasm heap is where it was');
      // The model still works. (Accepted calls above may have set weights; restore them.)
      model.randomize(3);
      model.setAttentionOverride(0, null);
      assert.deepEqual(model.forward(x).output.data, before);
    } finally {
      model.delete();
    }
  });

  test('a typed array is read by its real length, and an array-like by a length read once', () => {
    // An own `length` property on a typed array is ignored (the copy reads its storage).
    const lying = Object.defineProperty(new Float32Array([1, 2]), 'length', { value: 5 });
    assert.deepEqual([...engine.softmax(lying)], [...engine.softmax([1, 2])]);
    // A getter that answers differently each time is read once.
    let reads = 0;
    const shifty = { get length() { reads++; return reads === 1 ? 2 : 2 ** 40; }, 0: 1, 1: 2 };
    assert.deepEqual([...engine.softmax(shifty)], [...engine.softmax([1, 2])]);
    assert.equal(reads, 1);
    for (const bad of [2 ** 32, -1, 1.5, NaN, '2', null, 2 ** 53, engine.maxArrayLength + 1]) {
      assert.throws(() => engine.softmax({ length: bad }), AttentionError, `length ${String(bad)}`);
    }
    for (const bad of [null, undefined, 'abc', 42, Symbol('s'), () => 1, new BigInt64Array(2), new DataView(new ArrayBuffer(8))]) {
      assert.throws(() => engine.softmax(bad), AttentionError, `softmax(${typeof bad})`);
    }
    assert.throws(() => engine.componentAlong({ get rows() { throw 1; }, cols: 1, data: [1] }, [1]), AttentionError);
    assert.throws(() => engine.componentAlong(Symbol('m'), [1]), AttentionError);
  });
});
