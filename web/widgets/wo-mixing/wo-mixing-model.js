// The W_O mixing widget's mathematics, run by the core: the lesson data turned into models,
// and one state turned into everything the widget shows. No DOM here (runs in Node too).
//
// The layer computes  output = Concat(head_1, ..., head_h) W_O = sum_i head_i W_O^i,
// where W_O^i is the block of rows of W_O that head i's slice of the concatenation
// multiplies. With W_O = I every head keeps its private slice of coordinates; any other
// W_O can send a head anywhere. A later layer that reads direction u hears, from head i,
// the length of head_i W_O^i along u: engine.componentAlong.
import { identityMatrix } from '../shared/matrices.js';
import { formatNumber } from '../shared/format.js';
import lesson from '../../../lessons/multiple-heads/widgets/wo-mixing.json' with { type: 'json' };

export const WO_MIXING_LESSON = lesson;
export const HEAD_NAMES = ['A', 'B', 'C', 'D'];

/** The widget's configuration: lesson data, optionally overridden by an author. */
export function woMixingConfig(overrides = {}) {
  const config = { ...lesson, ...overrides };
  const d = config.dModel;
  const tokenIndex = config.tokens.indexOf(config.token);
  if (tokenIndex < 0) throw new Error(`token “${config.token}” is not one of the tokens`);
  if (!config.headOptions.includes(config.heads)) throw new Error(`heads: ${config.heads} is not one of ${config.headOptions.join(', ')}`);
  for (const preset of config.presets) {
    for (const h of config.headOptions) {
      const rows = preset.wo[String(h)];
      if (!Array.isArray(rows) || rows.length !== d || rows.some((row) => row.length !== d)) {
        throw new Error(`preset “${preset.id}”: W_O for ${h} heads must be ${d} rows of ${d} numbers`);
      }
    }
  }
  for (const direction of config.directions) {
    if (direction.u.length !== d) throw new Error(`direction “${direction.id}”: u must have ${d} numbers`);
  }
  return { ...config, tokenIndex };
}

/** Preset `id`'s W_O for `heads` heads, flattened row by row (d_model^2 numbers). */
export function presetMatrix(config, id, heads) {
  const preset = config.presets.find((p) => p.id === id);
  if (!preset) throw new Error(`no W_O preset “${id}”`);
  return preset.wo[String(heads)].flat();
}

/** The id of the preset whose W_O (for `heads` heads) is exactly `wo`, or null. */
export function matchingPreset(config, wo, heads) {
  const found = config.presets.find((p) => presetMatrix(config, p.id, heads).every((v, k) => v === wo[k]));
  return found ? found.id : null;
}

export function directionVector(config, id) {
  const direction = config.directions.find((dir) => dir.id === id);
  if (!direction) throw new Error(`no direction preset “${id}”`);
  return direction.u.slice();
}

/** The starting state: the starting preset's W_O, the starting direction u. */
export function startingState(config) {
  return {
    heads: config.heads,
    token: config.tokenIndex,
    wo: presetMatrix(config, config.startingPreset, config.heads),
    u: directionVector(config, config.startingDirection),
  };
}

/**
 * A clean state from untrusted JSON (URL hash, setState), or an Error saying what is wrong.
 * The core still has the last word (e.g. it refuses u = 0, which has no direction).
 */
export function sanitizeWoState(config, raw) {
  const d = config.dModel;
  const limit = config.woLimit;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('expected an object');
  if (!config.headOptions.includes(raw.heads)) throw new Error(`heads: expected one of ${config.headOptions.join(', ')}`);
  if (!Number.isInteger(raw.token) || raw.token < 0 || raw.token >= config.tokens.length) {
    throw new Error('token: not a token position');
  }
  const vector = (name, length) => {
    const value = raw[name];
    if (!Array.isArray(value) || value.length !== length) throw new Error(`${name}: expected ${length} numbers`);
    if (!value.every((v) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit)) {
      throw new Error(`${name}: every entry must be a finite number between ${-limit} and ${limit}`);
    }
    return value.map((v) => (Object.is(v, -0) ? 0 : v));
  };
  return { heads: raw.heads, token: raw.token, wo: vector('wo', d * d), u: vector('u', d) };
}

export class WoMixingModels {
  constructor(engine, config) {
    this.engine = engine;
    this.config = config;
    const L = config.tokens.length;
    const d = config.dModel;
    this.x = engine.seededMatrix(L, d, config.input.seed, config.input.scale).data;
    this.identity = identityMatrix(d);
    // One model per head count, with seeded W_Q, W_K, W_V (the same seed for both). The
    // heads' attention and outputs do not depend on W_O, so the "no mixing" pass (W_O = I)
    // is run once here and kept; compute() only reruns the layer with the learner's W_O.
    this.models = new Map();
    this.unmixed = new Map();
    for (const h of config.headOptions) {
      const model = engine.createModel({ seqLen: L, dModel: d, numHeads: h });
      this.models.set(h, model);
      model.randomize(config.projectionSeed);
      model.setOutputProjection(this.identity);
      this.unmixed.set(h, model.forward(this.x));
    }
  }

  dispose() {
    for (const model of this.models.values()) model.delete();
    this.models.clear();
  }

  /** d_k of the model with `heads` heads, as the core reports it. */
  headWidth(heads) {
    return this.models.get(heads).config.dK;
  }

  /** Everything the widget shows for `state`; throws AttentionError if the core refuses. */
  compute(state) {
    const { engine } = this;
    const model = this.models.get(state.heads);
    if (!model) throw new Error(`heads: no model with ${state.heads} heads`);
    const t = state.token;
    model.setOutputProjection(state.wo);
    const mixed = model.forward(this.x);
    const unmixed = this.unmixed.get(state.heads);
    const d = this.config.dModel;

    // What a later layer reading u hears: each head's contribution row at token t, and the
    // total output row, measured along u by the core ((row . u) / |u|).
    const along = (result) => {
      const rows = [...result.heads.map((head) => head.contribution.row(t)), result.output.row(t)];
      const data = new Float32Array(rows.length * d);
      rows.forEach((row, r) => data.set(row, r * d));
      const values = Array.from(engine.componentAlong({ rows: rows.length, cols: d, data }, state.u));
      return { heads: values.slice(0, -1), total: values[values.length - 1] };
    };
    const withMixing = along(mixed);
    const withoutMixing = along(unmixed);
    // The unit vector u / |u|: the identity's rows measured along u are its coordinates.
    const unitU = Array.from(engine.componentAlong({ rows: d, cols: d, data: this.identity }, state.u));

    return {
      headWidth: model.config.dK,
      headOutputs: mixed.heads.map((head) => Array.from(head.output.row(t))),
      concat: Array.from(mixed.concat.row(t)),
      contributions: mixed.heads.map((head) => Array.from(head.contribution.row(t))),
      output: Array.from(mixed.output.row(t)),
      unitU,
      withMixing,
      withoutMixing,
    };
  }
}

/** Which heads a reader of u can hear: |component| at least the lesson's threshold. */
export function audibleHeads(config, components) {
  return components.flatMap((value, i) => (Math.abs(value) >= config.audibleThreshold ? [HEAD_NAMES[i]] : []));
}

/** "heads A and B", "head A", "heads A, B and C". */
export function listHeads(names) {
  if (names.length === 1) return `head ${names[0]}`;
  return `heads ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The readout sentence: who contributes along u with this W_O, who is heard without mixing. */
export function describeAlong(config, view) {
  const parts = view.withMixing.heads.map((value, i) => `head ${HEAD_NAMES[i]}${i === 0 ? ' contributes' : ''} ${formatNumber(value)}`);
  const contributions = parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  const heard = audibleHeads(config, view.withoutMixing.heads);
  const all = view.withoutMixing.heads.length;
  const unmixed = heard.length === 0 ? 'no head can be heard'
    : heard.length === all ? `${all === 2 ? 'both' : `all ${NUMBER_WORDS[all] ?? all}`} heads can be heard`
      : `only ${listHeads(heard)} can be heard`;
  return `Along u, ${contributions} (with this W_O); with the identity W_O ${unmixed}.`;
}

const NUMBER_WORDS = { 3: 'three', 4: 'four' };
