// model.similarityRank(head, relativeTolerance): the numerical rank of W_Q^i (W_K^i)^T,
// counted by the core (numerical_rank) so that no page counts non-zero singular values in
// JavaScript. Checked in both builds against the singular values themselves, on random
// heads (rank = d_k), on hand-built heads of lower rank, and on the lesson's world.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AttentionError } from '../../web/engine/engine.js';
import { BUILDS, loadTestEngine } from './load-engine.mjs';
import { THE_WORLD as w, createWorldModel, headsAt } from '../../web/widgets/shared/world.js';

/** How many values exceed tolerance * the largest, for comparison only. */
const above = (values, tolerance) => values.filter((v) => v > tolerance * values[0]).length;

for (const build of BUILDS) {
  describe(`similarityRank (${build})`, async () => {
    const engine = await loadTestEngine(build);

    test('a random head has rank d_k, and the count agrees with the singular values', () => {
      for (const h of [1, 2, 4, 8]) {
        const model = engine.createModel({ seqLen: 2, dModel: 16, numHeads: h });
        try {
          model.randomize(40 + h);
          for (let head = 0; head < h; head++) {
            const rank = model.similarityRank(head);
            assert.equal(rank, 16 / h, `h = ${h}, head ${head}`);
            assert.equal(rank, above(Array.from(model.similaritySingularValues(head)), 1e-6));
          }
        } finally {
          model.delete();
        }
      }
    });

    test('a head built to use fewer directions has lower rank; the tolerance decides near-zeros', () => {
      const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 1 });
      try {
        // W_Q = W_K = diag(3, 2, 1e-9, 0): singular values 9, 4, 1e-18, 0.
        const diagonal = (values) => values.flatMap((v, i) => values.map((_, j) => (i === j ? v : 0)));
        model.setProjection('query', diagonal([3, 2, 1e-9, 0]));
        model.setProjection('key', diagonal([3, 2, 1e-9, 0]));
        assert.equal(model.similarityRank(0), 2);
        assert.equal(model.similarityRank(0, 0.5), 1, '4 is below half of 9');
        assert.equal(model.similarityRank(0, 0), 3, 'tolerance 0 counts the tiny 1e-18 as non-zero');
        model.setProjection('query', new Float32Array(16));
        assert.equal(model.similarityRank(0), 0, 'an all-zero matrix has rank 0');
      } finally {
        model.delete();
      }
    });

    test('bad tolerances and heads are refused with an AttentionError', () => {
      const model = engine.createModel({ seqLen: 2, dModel: 4, numHeads: 2 });
      try {
        for (const bad of [-0.1, 1, 2, NaN, Infinity, '1e-6', null]) {
          assert.throws(() => model.similarityRank(0, bad), AttentionError, `tolerance ${String(bad)}`);
        }
        assert.throws(() => model.similarityRank(2), /head/);
      } finally {
        model.delete();
      }
    });

    test('the world’s heads: at most d_k, and the designed heads use fewer', () => {
      // What the head-splitting widget shows. Measured: with four heads of width 3 the subject
      // and complement finders use 3 directions, the previous-word head 2 (cos and sin of
      // the position), the gist 1; merged in pairs (width 6) each pair uses 3, since the two
      // finders share their keys; one head of width 12 uses 6.
      const expected = { 4: [3, 3, 2, 1], 2: [3, 3], 1: [6] };
      for (const h of w.headCounts) {
        const model = createWorldModel(engine, w, h);
        try {
          const ranks = headsAt(w, h).map((head) => model.similarityRank(head.index));
          assert.deepEqual(ranks, expected[h], `h = ${h}`);
          for (const [i, rank] of ranks.entries()) {
            assert.ok(rank <= w.dModel / h);
            assert.equal(rank, above(Array.from(model.similaritySingularValues(i)), 1e-6));
          }
        } finally {
          model.delete();
        }
      }
    });
  });
}
