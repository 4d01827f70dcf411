// The heads-questions widget's mathematics, run by the core: the lesson data (token
// features X and each head's W_Q^i, W_K^i) turned into one multi-head model, and one state
// turned into every head's attention weights. No DOM here, so Node tests can use it too.
//
// Why hand-made features: with X = [content features | position features], a head's
// projections can be read. W_K^i writes 5 x one feature into each of the d_k columns of
// K_i; a 1 in row f, column j of W_Q^i then means "tokens with feature f look for keys with
// the feature of column j", and the score Q_i K_i^T / sqrt(d_k) adds 5 / sqrt(3) ≈ 2.9 for
// it. So each head asks its own question of the same sentence.
import { formatNumber } from '../shared/format.js';
import lesson from '../../../lessons/multiple-heads/widgets/heads-questions.json' with { type: 'json' };

export const HEADS_QUESTIONS_LESSON = lesson;

/**
 * The widget's configuration from the lesson data (optionally overridden by an author):
 * X as a row-major L x d_model array, and per head dense W_Q^i, W_K^i (d_model x d_k).
 * Throws an Error naming the problem if the lesson data is inconsistent.
 */
export function headsQuestionsConfig(overrides = {}) {
  const config = { ...lesson, ...overrides };
  const { tokens, features, heads } = config;
  const L = tokens.length;
  const dModel = features.length;
  const numHeads = heads.length;
  if (dModel % numHeads !== 0) throw new Error(`${numHeads} heads do not divide d_model = ${dModel}`);
  const dK = dModel / numHeads;
  const featureNames = features.map((f) => f.name);

  const x = new Float32Array(L * dModel);
  features.forEach((feature, j) => {
    if (feature.values.length !== L) throw new Error(`feature “${feature.name}”: expected ${L} values, one per token`);
    feature.values.forEach((v, t) => { x[t * dModel + j] = v; });
  });

  // A d_model x d_k matrix from rows given by feature name (missing rows are zero).
  const dense = (rows, what) => {
    const m = new Float32Array(dModel * dK);
    for (const [name, row] of Object.entries(rows)) {
      const f = featureNames.indexOf(name);
      if (f < 0) throw new Error(`${what}: “${name}” is not one of the features`);
      if (row.length !== dK || !row.every(Number.isFinite)) throw new Error(`${what}, row “${name}”: expected ${dK} numbers`);
      m.set(row, f * dK);
    }
    return m;
  };
  const queryIndex = tokens.indexOf(config.query);
  if (queryIndex < 0) throw new Error(`query “${config.query}” is not one of the tokens`);
  return {
    ...config,
    L, dModel, numHeads, dK, featureNames, x, queryIndex,
    heads: heads.map((head, i) => ({
      ...head,
      wq: dense(head.query, `W_Q of head ${i + 1}`),
      wk: dense(head.key, `W_K of head ${i + 1}`),
    })),
  };
}

export class HeadsQuestionsModel {
  constructor(engine, config) {
    this.engine = engine;
    this.config = config;
    const { L, dModel, numHeads, dK } = config;
    // Unmasked (bidirectional) attention, as everywhere in the lesson: every token can look
    // at every other, before or after it.
    this.model = engine.createModel({ seqLen: L, dModel, numHeads, causal: false });
    // W_V^i does not change the weights; it is seeded so that the forward pass is complete,
    // and tying copies it too (tied heads then also return the same outputs).
    const packed = engine.seededMatrix(dModel, dModel, config.values.seed, config.values.scale);
    this.valueBlocks = Array.from({ length: numHeads }, (_, i) => headBlock(packed, i, dK));
  }

  dispose() {
    this.model.delete();
  }

  /**
   * Every head's attention for `state` ({ tied, query, wq }); throws AttentionError if the
   * core refuses. Tied: every head gets head 1's W_Q, W_K and W_V, so every head computes
   * the same softmax(Q K^T / sqrt(d_k)), and the heatmaps must come out identical.
   */
  compute(state) {
    const { config, model } = this;
    for (let i = 0; i < config.numHeads; i++) {
      const source = state.tied ? 0 : i;
      model.setHeadProjection('query', i, state.wq[source]);
      model.setHeadProjection('key', i, config.heads[source].wk);
      model.setHeadProjection('value', i, this.valueBlocks[source]);
    }
    const result = model.forward(this.config.x, { perHeadContributions: false });
    const weights = result.heads.map((head) => head.weights);
    return {
      weights,
      // The selected query token's row of each head: the numbers the widget prints.
      rows: weights.map((w) => Array.from(w.row(state.query))),
      // The core's own copy of the packed W_Q (d_model x d_model), which the editor shows.
      wq: model.getWeights('query'),
    };
  }
}

/** Head i's d_model x d_k block of a packed d_model x d_model matrix (column block i). */
export function headBlock(packed, head, dK) {
  const d = packed.rows;
  const block = new Float32Array(d * dK);
  for (let r = 0; r < d; r++) block.set(packed.data.subarray(r * d + head * dK, r * d + (head + 1) * dK), r * dK);
  return block;
}

/** Head i's starting W_Q^i as a plain array (the state keeps these, row-major). */
export function startingQueries(config) {
  return config.heads.map((head) => Array.from(head.wq));
}

/**
 * Which keys get the most weight in one row of weights (from the core). Keys within 0.005
 * of the largest count as tied: a uniform row is "spread evenly", not "looks at The".
 * @returns {{ keys: number[], weight: number, even: boolean }}
 */
export function strongestKeys(row) {
  const max = Math.max(...row);
  const keys = [];
  row.forEach((w, s) => { if (max - w < 0.005) keys.push(s); });
  return { keys, weight: max, even: keys.length === row.length };
}

/** "“said” → “researcher” (0.91)" in words, for summaries and announcements. */
export function describeRow(tokens, query, row) {
  const { keys, weight, even } = strongestKeys(row);
  if (even) return `“${tokens[query]}” spreads its attention evenly over all ${tokens.length} words (${formatNumber(weight)} each)`;
  const names = keys.map((s) => `“${tokens[s]}”`);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `“${tokens[query]}” looks most at ${list} (${formatNumber(weight)}${keys.length > 1 ? ' each' : ''})`;
}
