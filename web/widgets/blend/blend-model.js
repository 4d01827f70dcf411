// The blend widget's mathematics, run by the core: the lesson data turned into models,
// and one state turned into everything the widget shows. No DOM here.
import lesson from '../../../lessons/multiple-heads/widgets/blend.json' with { type: 'json' };
import { identityMatrix } from '../shared/matrices.js';

export const BLEND_LESSON = lesson;

/** Splits a sentence into word and punctuation tokens: "it was wrong." -> it, was, wrong, . */
export function tokenize(sentence) {
  return sentence.match(/[\p{L}\p{N}'’-]+|[^\s\p{L}\p{N}]/gu) ?? [];
}

/**
 * The widget's configuration: lesson data, optionally overridden by an author (sentence,
 * query, subject, complement). A new sentence keeps the lesson's value vectors for the
 * subject and the complement (whatever their words) and seeds the others.
 */
export function blendConfig(overrides = {}) {
  const config = { ...lesson, ...overrides };
  if (typeof config.sentence !== 'string' || config.sentence.length > 400) {
    throw new Error('sentence: expected text of at most 400 characters');
  }
  if (overrides.sentence !== undefined) config.tokens = tokenize(config.sentence);
  const tokens = config.tokens;
  if (tokens.length < 3 || tokens.length > 40) throw new Error(`sentence: expected 3 to 40 tokens, got ${tokens.length}`);
  if (overrides.sentence !== undefined || overrides.subject !== undefined || overrides.complement !== undefined) {
    const [subjectVector, complementVector] = [lesson.values[lesson.subject], lesson.values[lesson.complement]];
    config.values = { [config.subject]: subjectVector, [config.complement]: complementVector };
  }
  if (config.subject === config.complement) throw new Error('subject and complement must be different tokens');
  const index = (token, what) => {
    const i = tokens.indexOf(token);
    if (i < 0) throw new Error(`${what} “${token}” is not one of the tokens`);
    return i;
  };
  return {
    ...config,
    queryIndex: index(config.query, 'query'),
    subjectIndex: index(config.subject, 'subject'),
    complementIndex: index(config.complement, 'complement'),
  };
}

/** A weight row from a preset: named weights, and `rest` shared evenly by the others. */
export function presetRow(config, preset) {
  // Presets name the lesson's subject and complement; with an author's sentence they mean
  // the configured subject and complement tokens.
  const rename = { [lesson.subject]: config.subject, [lesson.complement]: config.complement };
  const named = Object.entries(preset.weights).map(([token, w]) => [config.tokens.indexOf(rename[token] ?? token), w]);
  const others = config.tokens.length - named.length;
  const row = config.tokens.map(() => (others > 0 ? preset.rest / others : 0));
  for (const [i, w] of named) row[i] = w;
  return row;
}

export function uniformRow(config) {
  return config.tokens.map(() => 1 / config.tokens.length);
}

export class BlendModels {
  constructor(engine, config) {
    this.engine = engine;
    this.config = config;
    const L = config.tokens.length;
    const d = config.valueWidth;
    // Value vectors: the two that matter are set by the lesson; the others are seeded.
    const others = engine.seededMatrix(L, d, config.otherValues.seed, config.otherValues.scale);
    this.values = Float32Array.from(others.data);
    for (const [token, vector] of Object.entries(config.values)) {
      this.values.set(vector, config.tokens.indexOf(token) * d);
    }
    this.valueRow = (s) => this.values.slice(s * d, (s + 1) * d);

    // One head: d_model = d, W_V = I (values = X), W_O = I (output = the head's output).
    this.oneHead = engine.createModel({ seqLen: L, dModel: d, numHeads: 1 });
    this.oneHead.setProjection('value', identityMatrix(d));
    this.oneHead.setOutputProjection(identityMatrix(d));
    // Two heads: d_model = 2d, X = [values | values], W_V = I: each head sees the same
    // values in its own d-wide slice, and the concatenation keeps the two slices apart.
    this.twoHeads = engine.createModel({ seqLen: L, dModel: 2 * d, numHeads: 2 });
    this.twoHeads.setProjection('value', identityMatrix(2 * d));
    this.twoHeads.setOutputProjection(identityMatrix(2 * d));
    this.doubled = new Float32Array(L * 2 * d);
    for (let s = 0; s < L; s++) {
      this.doubled.set(this.valueRow(s), s * 2 * d);
      this.doubled.set(this.valueRow(s), s * 2 * d + d);
    }
  }

  dispose() {
    this.oneHead.delete();
    this.twoHeads.delete();
  }

  // Every row attends uniformly except the query's, which gets `row`.
  #attention(query, row) {
    const L = this.config.tokens.length;
    const weights = new Float32Array(L * L).fill(1 / L);
    weights.set(row, query * L);
    return weights;
  }

  /** Everything the widget shows for `state`; throws AttentionError if the core refuses. */
  compute(state) {
    const { engine, config } = this;
    const q = state.query;
    const subject = this.valueRow(config.subjectIndex);
    const complement = this.valueRow(config.complementIndex);
    const readout = (v) => ({
      subject: engine.cosineSimilarity(v, subject),
      complement: engine.cosineSimilarity(v, complement),
    });

    const weights = state.mode === 'scores' ? Array.from(engine.softmax(state.scores)) : state.weights;
    this.oneHead.setAttentionOverride(0, this.#attention(q, weights));
    const one = this.oneHead.forward(this.values, { perHeadContributions: false });
    const output = Array.from(one.heads[0].output.row(q));

    this.twoHeads.setAttentionOverride(0, this.#attention(q, state.headA));
    this.twoHeads.setAttentionOverride(1, this.#attention(q, state.headB));
    const two = this.twoHeads.forward(this.doubled, { perHeadContributions: false });
    const headA = Array.from(two.heads[0].output.row(q));
    const headB = Array.from(two.heads[1].output.row(q));

    const alternative = engine.findAlternativeWeights(
      { rows: config.tokens.length, cols: config.valueWidth, data: this.values }, weights);
    return {
      weights,
      output,
      readout: readout(output),
      headA,
      headB,
      concat: Array.from(two.concat.row(q)),
      readoutA: readout(headA),
      readoutB: readout(headB),
      alternative,
    };
  }
}
