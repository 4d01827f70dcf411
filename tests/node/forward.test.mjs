// The forward pass of both wasm builds against a JavaScript reference written from the
// formula in double precision.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { BUILDS, loadTestEngine, randomArray } from './load-engine.mjs';

function referenceAttention(x, wq, wk, wv, wo, L, d, h, causal) {
  const dk = d / h;
  const matmul = (a, b, m, k, n) => {
    const c = new Float64Array(m * n);
    for (let i = 0; i < m; i++)
      for (let p = 0; p < k; p++)
        for (let j = 0; j < n; j++) c[i * n + j] += a[i * k + p] * b[p * n + j];
    return c;
  };
  const Q = matmul(x, wq, L, d, d), K = matmul(x, wk, L, d, d), V = matmul(x, wv, L, d, d);
  const concat = new Float64Array(L * d);
  for (let i = 0; i < h; i++) {
    for (let t = 0; t < L; t++) {
      const scores = [];
      for (let s = 0; s < L; s++) {
        let dot = 0;
        for (let j = 0; j < dk; j++) dot += Q[t * d + i * dk + j] * K[s * d + i * dk + j];
        scores.push(causal && s > t ? -Infinity : dot / Math.sqrt(dk));
      }
      const top = Math.max(...scores);
      const e = scores.map((v) => Math.exp(v - top));
      const total = e.reduce((a, b) => a + b, 0);
      for (let j = 0; j < dk; j++) {
        let acc = 0;
        for (let s = 0; s < L; s++) acc += (e[s] / total) * V[s * d + i * dk + j];
        concat[t * d + i * dk + j] = acc;
      }
    }
  }
  return matmul(concat, wo, L, d, d);
}

function maxRelativeError(got, want) {
  let scale = 1e-30, err = 0;
  for (let i = 0; i < want.length; i++) {
    scale = Math.max(scale, Math.abs(want[i]));
    err = Math.max(err, Math.abs(got[i] - want[i]));
  }
  return err / scale;
}

for (const build of BUILDS) {
  describe(`forward pass (${build} build)`, async () => {
    const engine = await loadTestEngine(build);

    test('reports its kernels', () => {
      assert.equal(engine.target, build === 'simd' ? 'wasmsimd' : 'scalar');
    });

    for (const [L, d, h, causal] of [[10, 8, 2, false], [7, 12, 3, true], [16, 64, 8, false]]) {
      test(`matches the reference at L=${L}, d_model=${d}, h=${h}${causal ? ', causal' : ''}`, () => {
        const model = engine.createModel({ seqLen: L, dModel: d, numHeads: h, causal });
        try {
          model.randomize(L * 31 + d);
          const x = randomArray(L * d, 5);
          const result = model.forward(x);
          const w = (k) => model.getWeights(k).data;
          const want = referenceAttention(x, w('query'), w('key'), w('value'), w('output'), L, d, h, causal);
          assert.ok(maxRelativeError(result.output.data, want) < 1e-5);
          assert.equal(result.heads.length, h);
          for (const head of result.heads) {
            for (let t = 0; t < L; t++) {
              const row = head.weights.row(t);
              assert.ok(row.every((v) => v >= 0));
              assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5);
            }
          }
          // Per-head contributions add up to the output.
          const sum = new Float64Array(L * d);
          for (const head of result.heads) head.contribution.data.forEach((v, i) => { sum[i] += v; });
          assert.ok(maxRelativeError(result.output.data, sum) < 1e-5);
        } finally {
          model.delete();
        }
      });
    }

    test('attention costs L^2 d_model per part, whatever h', () => {
      const counts = [1, 8, 32].map((h) => {
        const model = engine.createModel({ seqLen: 12, dModel: 512, numHeads: h });
        try {
          model.randomize(2);
          return model.forward(randomArray(12 * 512, 3), { perHeadContributions: false }).counts;
        } finally {
          model.delete();
        }
      });
      for (const c of counts) {
        assert.equal(c.scores, 12 * 12 * 512);
        assert.equal(c.weightedSum, 12 * 12 * 512);
        assert.equal(c.attention, 2 * 12 * 12 * 512);
      }
    });

    test('supplied attention weights replace softmax for that head', () => {
      const model = engine.createModel({ seqLen: 3, dModel: 4, numHeads: 2 });
      try {
        model.randomize(9);
        const weights = [0.45, 0.4, 0.15, 1, 0, 0, 0, 0.5, 0.5];
        model.setAttentionOverride(1, weights);
        const result = model.forward(randomArray(12, 4));
        assert.equal(result.heads[1].weightsOverridden, true);
        assert.equal(result.heads[0].weightsOverridden, false);
        assert.deepEqual(Array.from(result.heads[1].weights.data), Array.from(Float32Array.from(weights)));
        model.setAttentionOverride(1, null);
        assert.equal(model.forward(randomArray(12, 4)).heads[1].weightsOverridden, false);
        assert.deepEqual(Array.from(model.renormalizeRows([2, 2, 0, 1, 3, 0, 0, 0, 5])),
          [0.5, 0.5, 0, 0.25, 0.75, 0, 0, 0, 1]);
      } finally {
        model.delete();
      }
    });

    test('singular values of W_Q^i (W_K^i)^T: exactly d_k non-zero', () => {
      for (const h of [1, 2, 4]) {
        const model = engine.createModel({ seqLen: 2, dModel: 8, numHeads: h });
        try {
          model.randomize(h);
          const values = model.similaritySingularValues(0);
          assert.equal(values.length, 8);
          const nonZero = values.filter((v) => v > 1e-6 * values[0]).length;
          assert.equal(nonZero, 8 / h);
        } finally {
          model.delete();
        }
      }
    });
  });
}

describe('lesson computations', async () => {
  const engine = await loadTestEngine('simd');

  test('cosine similarity, softmax, components along a direction', () => {
    assert.equal(engine.cosineSimilarity([1, 0], [0, 3]), 0);
    assert.ok(Math.abs(engine.cosineSimilarity([1, 1], [2, 2]) - 1) < 1e-12);
    const w = engine.softmax([0, Math.log(3), -Infinity]);
    assert.ok(Math.abs(w[0] - 0.25) < 1e-6 && Math.abs(w[1] - 0.75) < 1e-6 && w[2] === 0);
    const along = engine.componentAlong({ rows: 2, cols: 2, data: [3, 4, 1, 0] }, [0, 2]);
    assert.ok(Math.abs(along[0] - 4) < 1e-6 && Math.abs(along[1]) < 1e-6);
    assert.throws(() => engine.softmax([NaN]), /scores: entry 0 is NaN/);
    assert.throws(() => engine.componentAlong({ rows: 1, cols: 2, data: [1, 2] }, [0, 0]), /zero vector/);
    assert.throws(() => engine.cosineSimilarity([1], [1, 2]), /different lengths/);
  });

  test('the blend can be produced by other weights', () => {
    const values = engine.seededMatrix(11, 4, 5, 0.3);
    const v = Float32Array.from(values.data);
    v.set([1, 0, 0, 0], 4);
    v.set([0, 1, 0, 0], 28);
    const weights = new Float32Array(11).fill(0.15 / 9);
    weights[1] = 0.45;
    weights[7] = 0.4;
    const alt = engine.findAlternativeWeights({ rows: 11, cols: 4, data: v }, weights);
    assert.equal(alt.found, true);
    assert.ok(alt.maxOutputDifference < 1e-5);
    assert.ok(alt.totalWeightMoved > 0.05);
    assert.throws(() => engine.findAlternativeWeights({ rows: 2, cols: 2, data: [1, 0, 0, 1] }, [0.5, 0.6]), /weights: they sum to 1.1/);
  });
});
