// The W_O mixing widget's mathematics and state contract. The layer is the lesson's one
// world (world.js): its sentence, features and named heads; the learner edits only W_O and
// the direction u a later layer reads. Every number comes from the core. No DOM here (Node
// tests run it against the same core).
//
//   output = Concat(head_1, ..., head_h) W_O = sum_i head_i W_O^i
//
// where W_O^i is the block of rows of W_O that head i's slice of the concatenation
// multiplies (rows start_i .. end_i - 1). With W_O = I each head keeps its private slice of
// output coordinates; any other W_O can send a head anywhere. A later layer reading
// direction u hears, from head i, the length of head_i W_O^i along u (engine.componentAlong).
//
// State contract (this file owns it): { heads, token, wo, u }
//   heads  one of the world's head counts (1, 2, 4): the same packed W_Q, W_K, W_V cut into
//          h heads of width d_model / h (merged heads at h < 4; see world.js)
//   token  the position (0 .. L - 1) of the token whose vectors are shown
//   wo     W_O, d_model x d_model numbers row by row, each |x| <= woLimit
//   u      the direction a later layer reads, d_model numbers, |x| <= uLimit, not all 0
//          (only its direction matters)
import { THE_WORLD, createWorldModel, headsAt } from '../shared/world.js';
import { messagesFor } from '../shared/i18n.js';
import lesson from '../../../lessons/multiple-heads/widgets/wo-mixing.json' with { type: 'json' };
import { choices, stateError, checkObject } from '../shared/state-error.js';
import { stateContract } from '../shared/state-contract.js';

export const WO_MIXING_LESSON = lesson;
export const STATE_KEYS = ['heads', 'token', 'wo', 'u'];

const isIndex = (k, n) => Number.isInteger(k) && k >= 0 && k < n;

/** What a world lacks for this widget (null if nothing): its heads one by one among the head counts. */
export function woMixingWorldNeeds(w, m = messagesFor('en')) {
  return w.headCounts.includes(w.numHeads) ? null : m.t('woMixing.worldNeeds.headCounts', { count: w.numHeads });
}

/**
 * The lesson data for another world (an author's `world`): the same three presets and
 * three directions, laid out on that world's heads rather than on the lesson's 12
 * coordinates: the identity; the second head's first coordinate written where the first
 * head's goes; the last head spread evenly over every head's slice; u = e_1, the second
 * head's first coordinate, and their sum. Labels in the widget's language (woMixing.world.*).
 */
export function worldWoMixingData(w, m = messagesFor('en')) {
  const dK = w.dK;
  const [first, second] = w.heads;
  const last = w.heads[w.numHeads - 1];
  const t = (key, values) => m.t(`woMixing.world.${key}`, values);
  const presets = [{ id: 'identity', label: t('identity'), about: t('identityAbout'), entries: [] }];
  if (second) {
    presets.push({ id: 'shared', label: t('shared', { a: first.name, b: second.name }), about: t('sharedAbout', { a: first.name, b: second.name, row: dK + 1 }), entries: [[dK, dK, 0], [dK, 0, 1]] });
    const share = 1 / w.numHeads;
    const spread = [];
    for (let k = 0; k < dK; k++) {
      const row = last.index * dK + k;
      for (let j = 0; j < w.numHeads; j++) spread.push([row, j * dK + k, share]);
    }
    presets.push({ id: 'spread', label: t('spread', { name: last.name }), about: t('spreadAbout', { name: last.name }), entries: spread });
  }
  const directions = [{ id: 'e1', label: 'u = e_1', about: t('e1About', { name: first.name }), entries: [[0, 1]] }];
  if (second) {
    directions.push({ id: 'e2', label: `u = e_${dK + 1}`, about: t('e2About', { name: second.name }), entries: [[dK, 1]] });
    directions.push({ id: 'e1e2', label: `u = e_1 + e_${dK + 1}`, about: t('sumAbout', { a: first.name, b: second.name }), entries: [[0, 1], [dK, 1]] });
  }
  return { ...lesson, heads: w.numHeads, presets, directions, startingPreset: 'identity', startingDirection: 'e1' };
}

/**
 * The widget's configuration: the lesson data checked against the world, with every preset
 * W_O and direction u expanded to plain arrays. Throws Error on malformed data.
 */
export function woMixingConfig(data = lesson, w = THE_WORLD) {
  const d = w.dModel;
  const fail = (message) => { throw new Error(`wo-mixing lesson data: ${message}`); };
  if (!w.headCounts.includes(data.heads)) fail(`heads must be one of ${w.headCounts.join(', ')}`);
  for (const key of ['woLimit', 'uLimit', 'colourMax', 'step', 'fineStep', 'bigStep', 'dragPerPixel', 'audibleThreshold']) {
    if (!(typeof data[key] === 'number' && Number.isFinite(data[key]) && data[key] > 0)) fail(`${key} must be a positive number`);
  }
  const ids = new Set();
  const expand = (list, what, size, entryLength, base) => list.map((item) => {
    if (typeof item.id !== 'string' || ids.has(item.id)) fail(`${what}: every id must be a new string`);
    ids.add(item.id);
    if (typeof item.label !== 'string' || typeof item.about !== 'string') fail(`${what} “${item.id}”: label and about must be text`);
    const values = base();
    const seen = new Set();
    for (const entry of item.entries ?? fail(`${what} “${item.id}”: entries missing`)) {
      if (!Array.isArray(entry) || entry.length !== entryLength) fail(`${what} “${item.id}”: every entry must have ${entryLength} numbers`);
      const value = entry[entryLength - 1];
      const at = entryLength === 3 ? entry[0] * d + entry[1] : entry[0];
      if (!entry.slice(0, -1).every((k) => isIndex(k, d))) fail(`${what} “${item.id}”: indices must be whole numbers from 0 to ${d - 1}`);
      if (!(Number.isFinite(value) && Math.abs(value) <= size)) fail(`${what} “${item.id}”: values must be between −${size} and ${size}`);
      if (seen.has(at)) fail(`${what} “${item.id}”: an entry is listed twice`);
      seen.add(at);
      values[at] = value;
    }
    return { id: item.id, label: item.label, about: item.about, values };
  });
  const identity = () => Array.from({ length: d * d }, (_, k) => (k % (d + 1) === 0 ? 1 : 0));
  const presets = expand(data.presets, 'preset', data.woLimit, 3, identity);
  const directions = expand(data.directions, 'direction', data.uLimit, 2, () => new Array(d).fill(0));
  if (!presets.some((p) => p.id === data.startingPreset)) fail('startingPreset is not a preset');
  if (!directions.some((u) => u.id === data.startingDirection)) fail('startingDirection is not a direction');
  if (directions.some((u) => u.values.every((v) => v === 0))) fail('a direction u must not be 0');
  return { ...data, w, presets, directions };
}

/**
 * Starting overrides from an author's attributes (strings, or null when absent). Messages
 * never repeat the attribute's text: "NaN" or "Infinity" typed there must not reach a notice.
 */
export function attributeOverrides(config, { heads = null, token = null } = {}, m = messagesFor('en')) {
  const { w } = config;
  const overrides = {};
  const problems = [];
  if (heads !== null) {
    // Plain digits only: "0x3", "3.0", "1e0", " 4" are refused rather than guessed at.
    const h = /^[0-9]{1,2}$/.test(heads) ? Number(heads) : NaN;
    if (w.headCounts.includes(h)) overrides.heads = h;
    else problems.push(m.t('woMixing.badHeads', { list: listWords(w.headCounts.map(String), m.t('common.or')) }));
  }
  if (token !== null) {
    const t = w.tokens.indexOf(token);
    if (t >= 0) overrides.token = t;
    else problems.push(m.t('woMixing.badToken', { example: w.tokens[w.queryIndex] ?? w.tokens[0] }));
  }
  return { overrides, problems };
}

/** The starting state: the starting preset's W_O, the starting direction, "said". */
export function startingState(config, overrides = {}) {
  return {
    heads: overrides.heads ?? config.heads,
    token: overrides.token ?? config.w.queryIndex,
    wo: presetValues(config, config.startingPreset),
    u: directionValues(config, config.startingDirection),
  };
}

export function presetValues(config, id) {
  const preset = config.presets.find((p) => p.id === id);
  if (!preset) throw new Error(`no W_O preset “${id}”`);
  return preset.values.slice();
}

export function directionValues(config, id) {
  const direction = config.directions.find((u) => u.id === id);
  if (!direction) throw new Error(`no direction “${id}”`);
  return direction.values.slice();
}

const same = (a, b) => a.length === b.length && a.every((v, k) => v === b[k]);

/** The preset whose W_O is exactly `wo`, or null (the learner's own W_O). */
export function matchingPreset(config, wo) {
  return config.presets.find((p) => same(p.values, wo)) ?? null;
}

/** The direction preset equal to `u`, or null. */
export function matchingDirection(config, u) {
  return config.directions.find((dir) => same(dir.values, u)) ?? null;
}

/** A clean state from untrusted JSON (URL hash, setState), or throws Error saying what is wrong. */
export function sanitizeWoState(config, raw) {
  const { w } = config;
  const d = w.dModel;
  checkObject(raw, STATE_KEYS);
  if (!w.headCounts.includes(raw.heads)) throw stateError('expected', { field: 'heads', choices: choices(w.headCounts, { or: true }) });
  if (!isIndex(raw.token, w.L)) throw stateError('position', { field: 'token', max: w.L - 1 });
  const vector = (name, length, limit) => {
    const value = raw[name];
    if (!Array.isArray(value) || value.length !== length) throw stateError('numbers', { field: name, count: length });
    if (!value.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit)) {
      throw stateError('entryRange', { field: name, min: `−${limit}`, max: limit });
    }
    return value.map((v) => (Object.is(v, -0) ? 0 : v));
  };
  const wo = vector('wo', d * d, config.woLimit);
  const u = vector('u', d, config.uLimit);
  if (u.every((v) => v === 0)) throw stateError('zeroVector', { field: 'u' });
  return { heads: raw.heads, token: raw.token, wo, u };
}

/** One core model per head count (made on first use); compute(state) runs the layer. */
export class WoMixingModel {
  constructor(engine, config) {
    this.engine = engine;
    this.config = config;
    this.models = new Map();
    this.unmixed = new Map();
    // All head counts up front (three small models), so the number of live models never
    // depends on which head counts the learner has tried.
    for (const h of config.w.headCounts) this.#model(h);
  }

  // The heads' outputs do not depend on W_O, so the "concatenation alone" pass (the world's
  // W_O = I) is run once per head count and kept.
  #model(h) {
    let model = this.models.get(h);
    if (!model) {
      const { w } = this.config;
      model = createWorldModel(this.engine, w, h);
      this.models.set(h, model);
      this.unmixed.set(h, model.forward(w.x));
    }
    return model;
  }

  dispose() {
    for (const model of this.models.values()) model.delete();
    this.models.clear();
    this.unmixed.clear();
  }

  /** Everything the widget shows for `state`; throws (AttentionError) if the core refuses. */
  compute(state) {
    const { engine, config } = this;
    const { w } = config;
    const d = w.dModel;
    const t = state.token;
    const model = this.#model(state.heads);
    model.setOutputProjection(state.wo);
    const mixed = model.forward(w.x, { include: ['heads', 'concat', 'output'] });
    const unmixed = this.unmixed.get(state.heads);

    // What a reader of u hears: each head's contribution row at token t, and the output row,
    // measured along u by the core ((row . u) / |u|). The core refuses u = 0.
    const along = (result) => {
      const rows = [...result.heads.map((head) => head.contribution.row(t)), result.output.row(t)];
      const data = new Float32Array(rows.length * d);
      rows.forEach((row, r) => data.set(row, r * d));
      const values = Array.from(engine.componentAlong({ rows: rows.length, cols: d, data }, state.u));
      return { heads: values.slice(0, -1), total: values[values.length - 1] };
    };
    return {
      heads: headsAt(w, state.heads),
      headWidth: model.config.dK,
      headOutputs: mixed.heads.map((head) => Array.from(head.output.row(t))),
      concat: Array.from(mixed.concat.row(t)),
      contributions: mixed.heads.map((head) => Array.from(head.contribution.row(t))),
      output: Array.from(mixed.output.row(t)),
      withMixing: along(mixed),
      withoutMixing: along(unmixed),
    };
  }
}

/** "a", "a and b", "a, b and c" (or "or"). */
export function listWords(words, conjunction = 'and') {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/** The heads a reader of u hears: |length along u| at least the lesson's threshold. */
export function heardHeads(config, heads, lengths) {
  return heads.filter((_, i) => Math.abs(lengths[i]) >= config.audibleThreshold);
}

/**
 * Who is heard along u, in words, with this W_O and with W_O = I (the concatenation alone):
 * "With this W_O a reader of u hears the Subject finder (0.92) and the Complement finder
 * (0.64). With W_O = I it hears only the Subject finder (0.92)."
 */
export function describeAlong(config, view, m = messagesFor('en')) {
  const part = (lengths) => {
    const heard = heardHeads(config, view.heads, lengths);
    if (heard.length === 0) return m.t('woMixing.along.noHead');
    const named = heard.map((head) => m.t('woMixing.along.heard', { name: m.headName(head), value: m.number(lengths[head.index]) }));
    const list = listWords(named, m.t('common.and'));
    return heard.length === 1 && view.heads.length > 1 ? m.t('woMixing.along.only', { list }) : list;
  };
  return m.t('woMixing.along.sentence', { mixed: part(view.withMixing.heads), identity: part(view.withoutMixing.heads) });
}

/** W_O mixing's state contract (shared/state-contract.js): the lesson's configuration. */
export const STATE_CONTRACT = stateContract({
  keys: STATE_KEYS,
  config: () => woMixingConfig(),
  start: (config) => startingState(config),
  sanitize: (raw, config) => sanitizeWoState(config, raw),
});
