// The head-splitting widget's mathematics, run by the core: operation counts of real forward
// passes, the singular values and rank of one world head's similarity matrix, and timing of
// forward passes (used by the measuring worker). The widget's state contract (defaults,
// sanitize) lives here too. No DOM here, so Node tests and the worker import it too.
//
// Why the counts do not depend on h: head i's scores Q_i K_i^T are an L x L matrix of dot
// products of length d_k, so L^2 d_k multiply-adds, and h heads cost h L^2 d_k = L^2 d_model
// because d_k = d_model / h. The weighted sum weights_i V_i costs the same. The core adds up
// the multiply-adds as it does the work, and the widget shows those tallies.
import lesson from '../../../lessons/multiple-heads/widgets/head-splitting.json' with { type: 'json' };
import { THE_WORLD, createWorldModel, headsAt } from '../shared/world.js';
import { choices, stateError, checkObject } from '../shared/state-error.js';
import { stateContract } from '../shared/state-contract.js';

export const SPLIT_LESSON = lesson;

/** Only the counts and the shapes are needed: skip each head's L x d_model contribution. */
// The lean forward pass: no L x L matrices are kept or copied out (counts are the same).
const FORWARD = { perHeadContributions: false, keepAttention: false };
// For the counts alone: the same pass in the core, but nothing copied out of the wasm heap
// (the heads' outputs as views, for their widths; Q, K, V, the concatenation and the
// output, L x d_model each, not at all). Side by side, 24 L steps each, throttled 4x:
// main-thread ms per step p50 137 -> 123, p95 339 -> 265 (bench/README.md). The timed
// passes keep FORWARD: their figures stay comparable with earlier measurements.
const COUNT_FORWARD = { ...FORWARD, include: ['heads'], views: true };
const CACHE_LIMIT = 64;
const STATE_KEYS = ['dModel', 'heads', 'seqLen', 'spectrumHeads', 'spectrumHead'];

const CONFIG_KEYS = ['start', 'spectrumStart', 'configurations'];
const MAX_CONFIGURATIONS = 4;

/**
 * The widget's configuration: lesson data, optionally overridden by an author (the `config`
 * attribute): `start` { dModel, heads, seqLen }, `spectrumStart` { heads, head } (h one of
 * the world's head counts, head an index from 0 to h - 1) and
 * `configurations` [{ label, dModel, heads }] for the comparison table. Strict: throws an
 * Error naming what is wrong.
 */
export function splitConfig(overrides = {}, world = THE_WORLD) {
  for (const key of Object.keys(overrides)) {
    if (!CONFIG_KEYS.includes(key)) throw new Error(`unknown config field “${String(key).slice(0, 20)}”`);
  }
  const object = (value, what) => {
    if (value === undefined) return {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what}: expected an object`);
    return value;
  };
  const only = (value, keys, what) => {
    const extra = Object.keys(object(value, what)).find((key) => !keys.includes(key));
    if (extra !== undefined) throw new Error(`${what}: unknown field “${extra.slice(0, 20)}” (expected ${keys.join(', ')})`);
  };
  only(overrides.start, ['dModel', 'heads', 'seqLen'], 'start');
  only(overrides.spectrumStart, ['heads', 'head'], 'spectrumStart');
  // The price panel starts at the lesson's h if the world offers it, else at the world's most heads.
  const spectrumStart = world.headCounts.includes(lesson.spectrum.start.heads)
    ? lesson.spectrum.start : { heads: Math.max(...world.headCounts), head: 0 };
  const config = {
    ...lesson,
    world,
    start: { ...lesson.start, ...object(overrides.start, 'start') },
    spectrum: { ...lesson.spectrum, start: { ...spectrumStart, ...object(overrides.spectrumStart, 'spectrumStart') } },
    configurations: overrides.configurations ?? lesson.configurations,
  };
  const { configurations } = config;
  if (!Array.isArray(configurations) || configurations.length < 1 || configurations.length > MAX_CONFIGURATIONS) {
    throw new Error(`configurations: expected 1 to ${MAX_CONFIGURATIONS} entries`);
  }
  configurations.forEach((c, i) => {
    const what = `configurations[${i}]`;
    object(c, what);
    if (Object.keys(c).some((key) => !['label', 'dModel', 'heads'].includes(key))) throw new Error(`${what}: expected only label, dModel, heads`);
    if (typeof c.label !== 'string' || c.label.length < 1 || c.label.length > 60) throw new Error(`${what}.label: expected text of 1 to 60 characters`);
    // The same rules as the learner's own choice of d_model and h.
    sanitizeSplitState({ ...startingState(config), dModel: c.dModel, heads: c.heads }, config);
  });
  sanitizeSplitState(startingState(config), config);
  return config;
}

/** The head counts offered for width n: its divisors up to `max` (d_k = n / h is whole). */
export function divisors(n, max = n) {
  const out = [];
  for (let h = 1; h <= Math.min(n, max); h++) if (n % h === 0) out.push(h);
  return out;
}

/** The divisor of n (up to max) closest to `wanted`; on a tie, the smaller one. */
export function nearestDivisor(n, wanted, max = n) {
  let best = 1;
  for (const h of divisors(n, max)) if (Math.abs(h - wanted) < Math.abs(best - wanted)) best = h;
  return best;
}

/** The widget's starting state. */
export function startingState(config) {
  const { start, spectrum } = config;
  return {
    dModel: start.dModel,
    heads: start.heads,
    seqLen: start.seqLen,
    spectrumHeads: spectrum.start.heads,
    spectrumHead: spectrum.start.head,
  };
}

/** A clean state from untrusted JSON (URL hash, setState), or an Error saying what is wrong. */
export function sanitizeSplitState(raw, config) {
  checkObject(raw, STATE_KEYS);
  const whole = (name) => {
    const value = raw[name];
    if (typeof value !== 'number' || !Number.isInteger(value)) throw stateError('whole', { field: name });
    return value;
  };
  const width = (name, allowed) => {
    const value = whole(name);
    if (!allowed.includes(value)) throw stateError('mustBeOneOf', { field: name, choices: choices(allowed) });
    return value;
  };
  const headCount = (name, dModel, max) => {
    const value = whole(name);
    if (value < 1 || value > max) throw stateError('between', { field: name, min: 1, max });
    if (dModel % value !== 0) throw stateError('divides', { field: name, value, dModel });
    return value;
  };
  const dModel = width('dModel', config.dModelChoices);
  const heads = headCount('heads', dModel, config.maxHeads);
  const seqLen = whole('seqLen');
  if (seqLen < config.seqLen.min || seqLen > config.seqLen.max) {
    throw stateError('between', { field: 'seqLen', min: config.seqLen.min, max: config.seqLen.max });
  }
  // The price panel is about the world's heads: h is one of its head counts.
  const spectrumHeads = width('spectrumHeads', (config.world ?? THE_WORLD).headCounts);
  const spectrumHead = whole('spectrumHead');
  if (spectrumHead < 0 || spectrumHead >= spectrumHeads) {
    throw stateError('headFrom', { field: 'spectrumHead', max: spectrumHeads - 1 });
  }
  return { dModel, heads, seqLen, spectrumHeads, spectrumHead };
}

/**
 * A model of this shape and its seeded input X; the weights reproducibly random, or left as
 * the core makes them (zero) where only the counts are read (`randomWeights: false`).
 */
function seededModel(engine, config, { dModel, heads, seqLen }, { randomWeights = true } = {}) {
  const model = engine.createModel({ seqLen, dModel, numHeads: heads });
  try {
    if (randomWeights) model.randomize(config.weightSeed);
    const x = engine.seededMatrix(seqLen, dModel, config.inputSeed, config.inputScale).data;
    return { model, x };
  } catch (error) {
    model.delete();
    throw error;
  }
}

// The small shape and the number of passes that make every function of the forward path hot
// (projections, scores, softmax, weighted sum, output: the same kernels as any shape).
const PRIME_SHAPE = { seqLen: 16, dModel: 64, numHeads: 4 };
const PRIME_PASSES = 400;
const primed = new WeakSet();

/** A burst of small forward passes, once per engine, so that V8 optimises the kernels. */
function primeKernels(engine) {
  if (primed.has(engine)) return;
  primed.add(engine);
  const model = engine.createModel(PRIME_SHAPE);
  try {
    model.randomize(1);
    const x = new Float32Array(PRIME_SHAPE.seqLen * PRIME_SHAPE.dModel).fill(0.5);
    for (let i = 0; i < PRIME_PASSES; i++) model.forward(x, FORWARD);
  } finally {
    model.delete();
  }
}

export function median(values) {
  const sorted = Float64Array.from(values).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times real forward passes of one shape. Each sample times a batch of passes lasting at
 * least `minSampleMs` (timers are coarse, ~0.1 ms, and one pass at small L is shorter), and
 * the result is the median over samples, within a time budget. Everything a forward pass
 * costs is included: calls into the core and copying the input in and the results out.
 * (The lean pass keeps no L x L matrices, as a model used for inference would not.)
 *
 * A generator: it yields the fraction done after each sample (so a caller without a worker
 * can yield to the page between samples) and returns the result. Calling return() on it
 * frees the model.
 */
export function* measureSteps(engine, config, shape, now = () => performance.now()) {
  const { budgetMsPerConfiguration: budget, minSampleMs, minSamples, maxSamples, warmupPasses } = config.measure;
  const { model, x } = seededModel(engine, config, shape);
  try {
    // Warm-up. A browser's V8 (and Node's, without --no-liftoff) first runs wasm code from
    // its quick baseline compiler (Liftoff) and replaces it with optimised code function by
    // function, compiled on a background thread once the function has run enough; a call
    // already running keeps the code it started with. Measured in Node 20 at L = 256,
    // d_model = 512, h = 1 with this loop's old warm-up of 2 passes: median 171 ms with
    // baseline tiering, 26.5 ms with optimised code from the start; on a busy machine the
    // optimised code can take seconds to arrive. So: every kernel is first made hot with a
    // burst of small passes (milliseconds), then this shape runs until its passes stop
    // getting faster (the last one within 10% of the fastest, after at least warmupPasses
    // and at least 4 passes since the fastest improved by more than 10%), for at most
    // twice the sampling budget.
    primeKernels(engine);
    let result;
    let fastest = Infinity;
    let sinceImproved = 0;
    let last = Infinity;
    const warmStart = now();
    for (let pass = 0; ; pass++) {
      const t0 = now();
      result = model.forward(x, FORWARD);
      last = now() - t0;
      if (last < 0.9 * fastest) sinceImproved = 0;
      else sinceImproved++;
      fastest = Math.min(fastest, last);
      const settled = pass + 1 >= warmupPasses && sinceImproved >= 4 && last <= 1.1 * fastest;
      if (settled || now() - warmStart > 2 * budget) break;
      yield 0; // a caller on the page's main thread lets the page breathe between passes
    }
    const warm = fastest;
    const passesPerSample = Math.max(1, Math.ceil(minSampleMs / Math.max(warm, 0.01)));
    const samples = [];
    const begin = now();
    while (samples.length < maxSamples && (samples.length < minSamples || now() - begin < budget)) {
      const t0 = now();
      for (let k = 0; k < passesPerSample; k++) model.forward(x, FORWARD);
      samples.push((now() - t0) / passesPerSample);
      yield Math.min(1, Math.max(samples.length / maxSamples, (now() - begin) / budget));
    }
    return {
      medianMs: median(samples),
      samples: samples.length,
      passesPerSample,
      config: { ...model.config },
      counts: result.counts,
    };
  } finally {
    model.delete();
  }
}

/** measureSteps run to the end at once (in the worker, or in Node). */
export function measureConfiguration(engine, config, shape, { now, onProgress } = {}) {
  const steps = measureSteps(engine, config, shape, now);
  for (;;) {
    const { value, done } = steps.next();
    if (done) return value;
    onProgress?.(value);
  }
}

export class SplitModels {
  constructor(engine, config) {
    this.engine = engine;
    this.config = config;
    this.counts = new Map();
    this.spectra = new Map();
  }

  /** Nothing stays allocated in the core between calls; this only drops the caches. */
  dispose() {
    this.counts.clear();
    this.spectra.clear();
  }

  /**
   * The core's counts for one shape, from a real forward pass (cached: the counts depend
   * only on the shape, and a pass at d_model 512, L 256 takes tens of milliseconds).
   * headWidths are the widths of the heads' outputs as the core returned them.
   */
  countsFor(shape) {
    return remember(this.counts, countsKey(shape), () => countsOfShape(this.engine, this.config, shape));
  }

  /** Keeps counts of `shape` computed elsewhere (the counts worker), unless they are here. */
  keepCounts(shape, value) {
    const key = countsKey(shape);
    if (this.counts.has(key)) return;
    if (this.counts.size >= CACHE_LIMIT) this.counts.delete(this.counts.keys().next().value);
    this.counts.set(key, value);
  }

  /**
   * The shapes compute() needs at sequence lengths L - 1 and L + 1 (within the lesson's
   * bounds) whose counts are not here yet: what a learner stepping L needs next.
   */
  neighbourShapes({ dModel, heads, seqLen }) {
    const shapes = new Map();
    for (const L of [seqLen + 1, seqLen - 1]) {
      if (L < this.config.seqLen.min || L > this.config.seqLen.max) continue;
      // The shapes compute() asks for: the state's, one wide head, the table's rows.
      for (const [d, h] of [[dModel, heads], [dModel, 1], ...this.config.configurations.map((c) => [c.dModel, c.heads])]) {
        const shape = { dModel: d, heads: h, seqLen: L };
        if (!this.counts.has(countsKey(shape))) shapes.set(countsKey(shape), shape);
      }
    }
    return [...shapes.values()];
  }

  /**
   * Head `head` of the world cut into `heads` heads (headsAt: its name, colour, members):
   * the d_model singular values of its W_Q^i (W_K^i)^T, largest first, and how many of them
   * are non-zero (above relativeTolerance times the largest), both from the core. The rank
   * is at most d_k; a designed head may use fewer directions than its width offers.
   */
  spectrumFor({ heads, head }) {
    const key = `${heads}/${head}`;
    return remember(this.spectra, key, () => {
      const { world } = this.config;
      const named = headsAt(world, heads)[head];
      if (!named) throw new Error(`spectrumHead: must be a head from 0 to ${heads - 1}`);
      const model = createWorldModel(this.engine, world, heads);
      try {
        const values = Array.from(model.similaritySingularValues(head));
        return {
          config: { ...model.config },
          head: named,
          values,
          nonZero: model.similarityRank(head, this.config.spectrum.relativeTolerance),
        };
      } finally {
        model.delete();
      }
    });
  }

  /**
   * The rank panel's view: the h heads of the world (names, colours), the chosen head's
   * spectrum, and for a merged head its designed members' spectra (their ranks alone).
   */
  spectrumView(heads, head) {
    const spectrum = this.spectrumFor({ heads, head });
    const designed = this.config.world.numHeads;
    const spectrumMembers = spectrum.head.merged
      ? spectrum.head.members.map((member) => this.spectrumFor({ heads: designed, head: member.index }))
      : [];
    return { spectrumHeads: headsAt(this.config.world, heads), spectrum, spectrumMembers };
  }

  /** Everything the widget shows for `state`; throws AttentionError if the core refuses. */
  compute(state) {
    const { dModel, heads, seqLen } = state;
    return {
      main: this.countsFor({ dModel, heads, seqLen }),
      // The right-hand side of h L^2 d_k = L^2 d_model: one head as wide as the model.
      oneHead: this.countsFor({ dModel, heads: 1, seqLen }),
      table: this.config.configurations.map((c) => ({
        label: c.label,
        ...this.countsFor({ dModel: c.dModel, heads: c.heads, seqLen }),
      })),
      ...this.spectrumView(state.spectrumHeads, state.spectrumHead),
    };
  }
}

const countsKey = ({ dModel, heads, seqLen }) => `${dModel}/${heads}/${seqLen}`;

/**
 * The core's counts for one shape from a real forward pass: { config, counts, headWidths }.
 * Plain data (the counts worker posts it to the page).
 */
export function countsOfShape(engine, config, shape) {
  // The counts are the core's tallies of the operations the pass does, and the operations do
  // not depend on the values: the weights stay as the core makes them (zero) instead of drawn
  // from the seed, which at d_model 512 was a quarter of each count's time (4 d_model^2
  // draws: about 2.5 of 10 ms in Node), spent on the page's main thread whenever a step of L
  // comes before the worker's counts (issue 25). The input is still the seeded one.
  const { model, x } = seededModel(engine, config, shape, { randomWeights: false });
  try {
    const result = model.forward(x, COUNT_FORWARD);
    return {
      config: { ...model.config },
      counts: result.counts,
      headWidths: result.heads.map((head) => head.output.cols),
    };
  } finally {
    model.delete();
  }
}

function remember(cache, key, make) {
  let value = cache.get(key);
  if (value) {
    cache.delete(key); // most recently used goes last
  } else {
    value = make();
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value);
  }
  cache.set(key, value);
  return value;
}

/** Head splitting's state contract (shared/state-contract.js): the lesson's configuration. */
export const STATE_CONTRACT = stateContract({
  keys: STATE_KEYS,
  config: () => splitConfig(),
  start: (config) => startingState(config),
  sanitize: (raw, config) => sanitizeSplitState(raw, config),
});
