// The heads-questions widget's mathematics, run by the core, and its state contract. No DOM
// here, so Node tests use it too.
//
// The lesson's one world (world.js) at h = 4: four designed heads of width d_k = 3 read the
// same sentence. Head i has its own W_Q^i, W_K^i (column block i of the packed matrices), so
// its own scores Q_i K_i^T / sqrt(d_k) and its own softmax weights: its own question.
// W_K^i writes 5 x one feature into each of the head's three key columns (keyColumns); an
// entry in row f, column j of W_Q^i makes words with feature f look for keys with column
// j's feature (positive attracts, negative repels). The learner edits W_Q^i.
//
// Tied: every head gets one head's W_Q, W_K and W_V (the selected head's), so every head
// computes the same softmax(Q K^T / sqrt(d_k)) and the four maps are identical copies.
//
// State contract (this file owns it): { tied, query, head, wq }
//   tied   true when every head uses the selected head's projections
//   query  the query word's position (0 .. L - 1): the row outlined in every map
//   head   the selected head (0 .. 3): the one whose W_Q the grid edits, and, tied, the one
//          every head copies
//   wq     every head's W_Q^i: numHeads arrays of d_model x d_k numbers (row-major, rows are
//          the world's features in order), each within ±WQ_EDIT.limit
import { messagesFor } from '../shared/i18n.js';
import { THE_WORLD, columnBlock, createWorldModel } from '../shared/world.js';
import { stateError, checkObject } from '../shared/state-error.js';
import { stateContract } from '../shared/state-contract.js';

export const STATE_KEYS = ['tied', 'query', 'head', 'wq'];

/**
 * How the W_Q grid edits: the range of an entry, the steps of + / − (step), Shift (fine) and
 * PageUp / PageDown (big), the change per pixel of a vertical drag, and the entry at which
 * the diverging colour is at full strength (the world's entries are 1 for a plain "look
 * for", up to 8 for the previous-word head's rotation, so 2 shows a 1 clearly).
 */
export const WQ_EDIT = { limit: 10, step: 0.1, fineStep: 0.01, bigStep: 1, dragPerPixel: 0.02, colourMax: 2 };

/** Head i's W_Q^i as the world designs it (column block i of the packed W_Q), as a plain array. */
export function worldQuery(w, head) {
  return Array.from(columnBlock(w.wq, w.dModel, head * w.dK, (head + 1) * w.dK));
}

/** What a world lacks for this widget (null if nothing): two heads to compare, W_Q within the editor's range. */
export function headsQuestionsWorldNeeds(w, m = messagesFor('en')) {
  if (w.numHeads < 2) return m.t('headsQuestions.worldNeeds.twoHeads');
  const { limit } = WQ_EDIT;
  const outside = w.heads.find((head) => worldQuery(w, head.index).some((v) => Math.abs(v) > limit));
  if (outside) return m.t('headsQuestions.worldNeeds.range', { name: outside.name, limit });
  return null;
}

/** The starting state: the world's W_Q for every head, untied, the lesson's query word. */
export function defaultHeadsQuestionsState(w = THE_WORLD, { query = w.queryIndex } = {}) {
  return { tied: false, query, head: 0, wq: w.heads.map((_, i) => worldQuery(w, i)) };
}

/** The starting query from an author's `query` attribute (a word of the sentence); throws Error. */
export function queryFromAttribute(w, text) {
  const t = w.tokens.indexOf(text);
  if (t < 0) throw new Error(`query="${String(text).slice(0, 24)}" is not a word of the sentence (${w.tokens.join(' ')})`);
  return t;
}

/** A clean state from untrusted JSON (URL hash, setState), or throws Error with a message. */
export function sanitizeHeadsQuestionsState(raw, w = THE_WORLD) {
  const { L, numHeads, dModel, dK } = w;
  const { limit } = WQ_EDIT;
  checkObject(raw, STATE_KEYS);
  if (typeof raw.tied !== 'boolean') throw stateError('trueFalse', { field: 'tied' });
  if (!Number.isInteger(raw.query) || raw.query < 0 || raw.query >= L) throw stateError('wordPosition', { field: 'query', max: L - 1 });
  if (!Number.isInteger(raw.head) || raw.head < 0 || raw.head >= numHeads) throw stateError('head', { field: 'head', max: numHeads - 1 });
  if (!Array.isArray(raw.wq) || raw.wq.length !== numHeads) throw stateError('matrices', { field: 'wq', count: numHeads });
  const wq = raw.wq.map((m, i) => {
    if (!Array.isArray(m) || m.length !== dModel * dK) throw stateError('numbers', { field: `wq[${i}]`, count: dModel * dK });
    if (!m.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit)) {
      throw stateError('entryRange', { field: `wq[${i}]`, min: -limit, max: limit });
    }
    return m.slice();
  });
  return { tied: raw.tied, query: raw.query, head: raw.head, wq };
}

/** Whose projections head i uses in `state`: its own, or (tied) the selected head's. */
export function sourceHead(state, i) {
  return state.tied ? state.head : i;
}

export class HeadsQuestionsModel {
  constructor(engine, w = THE_WORLD) {
    this.w = w;
    // The world's layer at h = 4 (unmasked attention: every word sees every other, before
    // or after it). W_K^i and W_V^i stay the world's; W_Q^i is the learner's.
    this.model = createWorldModel(engine, w, w.numHeads);
    const block = (packed, i) => columnBlock(packed, w.dModel, i * w.dK, (i + 1) * w.dK);
    this.keyBlocks = w.heads.map((_, i) => block(w.wk, i));
    this.valueBlocks = w.heads.map((_, i) => block(w.wv, i));
  }

  dispose() {
    this.model.delete();
  }

  /**
   * Every head's attention for `state`; throws AttentionError if the core refuses (the model
   * is then left as it was by the core, and the widget keeps its last good state).
   * @returns {{ weights: Float32Array[], rows: Float32Array[], wq: Float32Array[] }}
   *   weights: each head's L x L weights (row-major, from the core's forward pass);
   *   rows: the query word's row of each head; wq: each head's W_Q^i as the core holds it.
   */
  compute(state) {
    const { w, model } = this;
    for (let i = 0; i < w.numHeads; i++) {
      const source = sourceHead(state, i);
      model.setHeadProjection('query', i, state.wq[source]);
      model.setHeadProjection('key', i, this.keyBlocks[source]);
      model.setHeadProjection('value', i, this.valueBlocks[source]);
    }
    const result = model.forward(w.x, { perHeadContributions: false, include: ['heads'] });
    const packedWq = model.getWeights('query').data;
    return {
      weights: result.heads.map((head) => Float32Array.from(head.weights.data)),
      rows: result.heads.map((head) => head.weights.row(state.query)),
      wq: w.heads.map((_, i) => columnBlock(packedWq, w.dModel, i * w.dK, (i + 1) * w.dK)),
    };
  }
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

/**
 * "“said” looks most at “researcher” (0.91)", in words, from a row of the core's weights.
 * With maxNames, a longer list of equal keys is counted instead of named ("looks equally at
 * 6 words (0.16 each)"): the map beside the words shows which.
 */
export function describeRow(tokens, query, row, { maxNames = Infinity, messages: m = messagesFor('en') } = {}) {
  const { keys, weight, even } = strongestKeys(row);
  const word = tokens[query];
  const value = m.number(weight);
  if (even) return m.t('headsQuestions.row.even', { word, count: tokens.length, value });
  if (keys.length > maxNames) return m.t('headsQuestions.row.equally', { word, count: keys.length, value });
  const names = keys.map((s) => m.t('common.quoted', { text: tokens[s] }));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} ${m.t('common.and')} ${names.at(-1)}`;
  return m.t('headsQuestions.row.most', { word, list, value, count: keys.length });
}

/** The heads' questions' state contract (shared/state-contract.js): the lesson's world. */
export const STATE_CONTRACT = stateContract({
  keys: STATE_KEYS,
  start: () => defaultHeadsQuestionsState(),
  sanitize: (raw) => sanitizeHeadsQuestionsState(raw),
});
