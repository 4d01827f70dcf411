// The layer at a glance: the one world's whole forward pass, every intermediate straight
// from the core, at h = 1, 2 or 4 heads of width d_model / h. No DOM here (Node tests use it).
//
//   X (L x d_model)  --W_Q, W_K, W_V-->  Q, K, V (L x d_model; head i owns column block i)
//   head i:  weights_i = softmax(Q_i K_i^T / sqrt(d_k))  (L x L),  head_i = weights_i V_i
//   Concat = [head_1 | ... | head_h]  (L x d_model)  --W_O-->  output (L x d_model)
//
// Changing h changes none of the packed matrices: the same W_Q, W_K, W_V, W_O are cut into
// fewer, wider heads (see world.js), so the comparison across h is fair. Only the weights,
// the head outputs (hence Concat) and the output change.
//
// State contract (this file owns it): { h, token, head }
//   h      one of the world's head counts (1, 2, 4)
//   token  the picked token's position (0 .. L - 1): whose path lights up
//   head   the picked head at this h (0 .. h - 1)
import { roundToSum } from '../../ui/budget-math.js';
import { messagesFor } from '../shared/i18n.js';
import { THE_WORLD, createWorldModel, headsAt } from '../shared/world.js';
import { choices, stateError, checkObject } from '../shared/state-error.js';
import { stateContract } from '../shared/state-contract.js';

export const STATE_KEYS = ['h', 'token', 'head'];

/**
 * The head to select after switching from h to h2, keeping the selected head's identity: the
 * head at h2 that holds the first of its designed heads. With what became of it: 'same' (the
 * same designed heads), 'merged' (now part of a wider head) or 'split' (a wider head cut
 * into narrower ones; the one holding its first designed head is selected).
 */
export function headAcrossSwitch(w, h, head, h2) {
  const from = headsAt(w, h)[head];
  const heads = headsAt(w, h2);
  const index = heads.findIndex((candidate) => candidate.members.some((m) => m.id === from.members[0].id));
  const to = heads[index];
  const kind = to.members.length > from.members.length ? 'merged' : to.members.length < from.members.length ? 'split' : 'same';
  return { head: index, kind, from, to };
}

/** The starting state: all designed heads, the lesson's query word, the first head. */
export function defaultLayerState(w = THE_WORLD, { h, token, head } = {}) {
  return { h: h ?? w.numHeads, token: token ?? w.queryIndex, head: head ?? 0 };
}

/**
 * Starting overrides from an author's attributes (strings or null): heads="2", token="said",
 * head="complement" (a designed head's id, or its number from 1). An attribute that does not
 * fit is left out, with a message in `problems` (the widget shows them in a notice).
 */
export function layerOverrides(w, { heads = null, token = null, head = null } = {}, m = messagesFor('en')) {
  const overrides = {};
  const problems = [];
  const clip = (text) => String(text).slice(0, 24);
  if (heads !== null) {
    const h = Number(heads);
    if (w.headCounts.includes(h)) overrides.h = h;
    else problems.push(m.t('layer.badHeads', { value: clip(heads), list: w.headCounts.join(', ') }));
  }
  const h = overrides.h ?? w.numHeads;
  if (token !== null) {
    const t = w.tokens.indexOf(token);
    if (t >= 0) overrides.token = t;
    else problems.push(m.t('layer.badToken', { value: clip(token) }));
  }
  if (head !== null) {
    let index = headsAt(w, h).findIndex((merged) => merged.members.some((m) => m.id === head));
    if (index < 0 && /^\d+$/.test(head) && Number(head) >= 1 && Number(head) <= h) index = Number(head) - 1;
    if (index >= 0) overrides.head = index;
    else problems.push(m.t('layer.badHead', { value: clip(head), ids: w.heads.map((member) => member.id).join(', '), count: h }));
  }
  return { overrides, problems };
}

/** A clean state from untrusted JSON (URL hash, setState), or throws Error with a message. */
export function sanitizeLayerState(raw, w = THE_WORLD) {
  checkObject(raw, STATE_KEYS);
  if (!w.headCounts.includes(raw.h)) throw stateError('expectedOneOf', { field: 'h', choices: choices(w.headCounts) });
  if (!Number.isInteger(raw.token) || raw.token < 0 || raw.token >= w.L) throw stateError('position', { field: 'token', max: w.L - 1 });
  if (!Number.isInteger(raw.head) || raw.head < 0 || raw.head >= raw.h) throw stateError('head', { field: 'head', max: raw.h - 1 });
  return { h: raw.h, token: raw.token, head: raw.head };
}

const plain = (matrix) => ({ rows: matrix.rows, cols: matrix.cols, data: Float32Array.from(matrix.data) });

/** One core model per head count (created on first use), and the forward pass of each. */
export class LayerModel {
  constructor(engine, w = THE_WORLD) {
    this.engine = engine;
    this.w = w;
    this.models = new Map();
    this.results = new Map();
  }

  #model(h) {
    let model = this.models.get(h);
    if (!model) {
      model = createWorldModel(this.engine, this.w, h);
      this.models.set(h, model);
    }
    return model;
  }

  /**
   * Every intermediate of the forward pass at h heads, as plain row-major matrices
   * ({ rows, cols, data }). Cached per h: the world's input and weights never change here.
   */
  forward(h) {
    let view = this.results.get(h);
    if (view) return view;
    const model = this.#model(h);
    const result = model.forward(this.w.x, { perHeadContributions: false });
    const { L, dModel } = this.w;
    view = {
      h,
      dK: model.config.dK,
      heads: headsAt(this.w, h),
      x: { rows: L, cols: dModel, data: Float32Array.from(this.w.x) },
      queries: plain(result.queries),
      keys: plain(result.keys),
      values: plain(result.values),
      scores: result.heads.map((head) => plain(head.scores)),
      weights: result.heads.map((head) => plain(head.weights)),
      headOutputs: result.heads.map((head) => plain(head.output)),
      concat: plain(result.concat),
      wo: plain(model.getWeights('output')),
      output: plain(result.output),
    };
    this.results.set(h, view);
    return view;
  }

  /** The view for a state: the forward pass at its h plus the picked path. Throws on bad state. */
  compute(state) {
    const view = this.forward(state.h);
    if (state.head >= state.h) throw new Error(`head: expected a head from 0 to ${state.h - 1}`);
    return { ...view, path: describePath(this.w, view, state) };
  }

  dispose() {
    for (const model of this.models.values()) model.delete();
    this.models.clear();
    this.results.clear();
  }
}

/** Words for the keys that hold at least this share of a budget (the rest is "spread"). */
export const NOTABLE_WEIGHT = 0.1;

/**
 * The picked token's path through the picked head, as the widget shows it: which columns
 * the head owns, where its budget goes (the core's weights, largest first) and its output.
 */
export function describePath(w, view, { token, head }) {
  const picked = view.heads[head];
  const weights = view.weights[head];
  const row = Array.from(weights.data.subarray(token * weights.cols, (token + 1) * weights.cols));
  const order = row.map((weight, key) => ({ key, word: w.tokens[key], weight }))
    .sort((a, b) => b.weight - a.weight);
  const notable = order.filter((entry) => entry.weight >= NOTABLE_WEIGHT).slice(0, 4);
  const output = view.headOutputs[head];
  return {
    token,
    word: w.tokens[token],
    head,
    name: picked.name,
    merged: picked.merged,
    columns: { start: picked.start, end: picked.end },
    weights: row,
    notable: notable.length ? notable : order.slice(0, 1),
    output: Array.from(output.data.subarray(token * output.cols, (token + 1) * output.cols)),
  };
}

/** The picked path in words: where the head spends the word's budget (the core's weights). */
export function pathSentence(view, state, m = messagesFor('en')) {
  const columns = (head) => `${head.start + 1}–${head.end}`;
  const quoted = (word) => m.t('common.quoted', { text: word });
  const { path } = view;
  const head = view.heads[state.head];
  const word = quoted(path.word);
  const shown = new Set(path.notable.map((n) => n.key));
  const rest = path.weights.reduce((sum, v, key) => (shown.has(key) ? sum : sum + v), 0);
  // The named weights are rounded as they are everywhere on the page; "elsewhere" takes up
  // the rounding, so that the numbers in the sentence add up to the budget of 1.
  let rounded = path.notable.map((n) => Math.round(n.weight * 100) / 100);
  let restShown = Math.round((1 - rounded.reduce((a, b) => a + b, 0)) * 100) / 100;
  if (restShown < 0) {
    rounded = roundToSum([...path.notable.map((n) => n.weight), rest]);
    restShown = rounded.pop();
  }
  const restText = restShown > 0 ? m.t('layer.path.elsewhere', { value: m.number(restShown) }) : '';
  const spend = path.notable.length === 1
    ? m.t('layer.path.puts', { value: m.number(rounded[0]), word: quoted(path.notable[0].word) })
    : m.t('layer.path.splits', { parts: path.notable.map((n, i) => `${quoted(n.word)} ${m.number(rounded[i])}`).join(', ') });
  return m.t('layer.path.sentence', { word, number: head.index + 1, name: m.headName(head), spend, rest: restText, columns: columns(head) });
}

/** The layer's state contract (shared/state-contract.js): the lesson's world. */
export const STATE_CONTRACT = stateContract({
  keys: STATE_KEYS,
  start: () => defaultLayerState(),
  sanitize: (raw) => sanitizeLayerState(raw),
});
