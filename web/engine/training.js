// The training API: a tiny attention-only transformer trained by the C++ core
// (core/include/mha/training.hpp), from the separate training module
// (web/generated/multiple_heads_train_*, built from bindings/training_bindings.cpp). The
// page's own module (engine.js) leaves training out, so a page that never trains does not
// download the backward pass, Adam and the tasks; this module is loaded when a trainer is
// first wanted. Arguments are read and checked before any wasm call, by engine.js's readers,
// and every Trainer owns C++ memory until delete(), as an AttentionModel does.
import {
  AttentionError, Matrix, supportsSimd,
  describe, reasonOf, readField, int32, uint32, flag, check, CoreObject, ALIVE,
} from './engine.js';
import { instantiateModule } from './wasm-loader.js';
import { trainingWasmUrls } from './training-urls.js';

// Training tasks by name, and the settings createTrainer accepts (own keys only: a plain
// object would also answer 'toString').
const TASK_INDEX = new Map([['previous-token', 0], ['back-and-first', 1]]);
const TRAINER_INTEGER_FIELDS = ['vocabSize', 'seqLen', 'offset', 'dModel', 'numHeads', 'numLayers', 'batchSize', 'evalSize', 'steps'];
const TRAINER_FIELDS = new Set([...TRAINER_INTEGER_FIELDS, 'task', 'causal', 'learningRate']);

/** One loaded training module: makes trainers, which share its wasm memory. */
export class TrainingEngine {
  constructor(module) {
    this.module = module;
    this.target = module.kernelTarget();
    this.liveTrainerSet = new Set();
  }

  /** The defaults of a training task (see engine.d.ts). */
  defaultTrainingConfig(task = 'back-and-first') {
    const index = typeof task === 'string' ? TASK_INDEX.get(task) : undefined;
    if (index === undefined) {
      throw new AttentionError(`task: expected "previous-token" or "back-and-first", got ${describe(task)}`);
    }
    return { ...this.module.defaultTrainingConfig(index) };
  }

  createTrainer(config = {}, seed = 1) {
    if (config === null || typeof config !== 'object') {
      throw new AttentionError(`config: expected an object of training settings, got ${describe(config)}`);
    }
    const checkedSeed = uint32(seed, 'seed');
    let keys;
    try {
      keys = Object.keys(config);
    } catch (error) {
      throw new AttentionError(`config: listing its settings threw (${reasonOf(error)})`);
    }
    const unknown = keys.find((key) => !TRAINER_FIELDS.has(key));
    if (unknown !== undefined) throw new AttentionError(`config: unknown setting ${describe(unknown)}`);
    // Every setting is read once, here, before any wasm call.
    const given = {};
    for (const name of TRAINER_FIELDS) given[name] = readField(config, name, 'config');
    const defaults = this.defaultTrainingConfig(given.task ?? 'back-and-first');
    const full = { task: defaults.task };
    for (const name of TRAINER_INTEGER_FIELDS) full[name] = int32(given[name] ?? defaults[name], name);
    full.causal = flag(given.causal, 'causal', defaults.causal);
    full.learningRate = given.learningRate ?? defaults.learningRate;
    if (typeof full.learningRate !== 'number' || !Number.isFinite(full.learningRate)) {
      throw new AttentionError(`learningRate: expected a finite number, got ${describe(full.learningRate)}`);
    }
    const raw = new this.module.RawTrainer();
    const error = raw.configure(TASK_INDEX.get(full.task), full.vocabSize, full.seqLen, full.offset, full.dModel,
      full.numHeads, full.numLayers, full.causal, full.batchSize, full.learningRate, full.evalSize,
      full.steps, checkedSeed);
    if (error) {
      raw.delete();
      throw new AttentionError(error);
    }
    return new Trainer(this, raw, checkedSeed); // counted in liveTrainerSet until deleted
  }

  get liveTrainers() {
    return this.liveTrainerSet.size;
  }

  heapBytesInUse() {
    return this.module.heapBytesInUse();
  }

  wasmStackPointer() {
    return this.module.wasmStackPointer();
  }
}

/**
 * A tiny attention-only transformer trained in the wasm core (core/include/mha/training.hpp),
 * with its task, optimiser and evaluation set. Owns C++ memory: call delete().
 */
export class Trainer extends CoreObject {
  constructor(engine, raw, seed) {
    super(raw, engine.liveTrainerSet, 'Trainer');
    this.engine = engine;
    this.seed = seed;
    this.config = Object.freeze({ ...raw.config() });
  }

  get stepsDone() {
    return this[ALIVE]().stepsDone();
  }

  step(n = 1) {
    const raw = this[ALIVE]();
    check(raw.step(int32(n, 'steps')));
    return { steps: raw.stepsDone(), loss: raw.loss(), accuracy: raw.accuracy() };
  }

  evaluate() {
    const raw = this[ALIVE]();
    check(raw.evaluate());
    return { loss: raw.loss(), accuracy: raw.accuracy(), outputAccuracy: Array.from(raw.outputAccuracy()) };
  }

  // The mask as fresh numbers (1 = off), read and checked before any wasm call. Accepts one
  // flat layer-major array or one array per layer.
  #maskArray(mask) {
    const { numLayers, numHeads } = this.config;
    const values = [];
    const read = (array, what) => {
      if (!Array.isArray(array)) throw new AttentionError(`${what}: expected an array of booleans (true = head switched off), got ${describe(array)}`);
      const length = readField(array, 'length', what);
      if (length > numLayers * numHeads) throw new AttentionError(`head mask: expected ${numLayers} x ${numHeads} = ${numLayers * numHeads} entries (layer-major), got ${length}`);
      const out = [];
      for (let i = 0; i < length; i++) out.push(readField(array, i, what));
      return out;
    };
    const top = read(mask, 'head mask');
    const flat = top.length > 0 && top.every(Array.isArray) ? top.flatMap((layer, l) => read(layer, `head mask of layer ${l}`)) : top;
    flat.forEach((v, i) => {
      if (typeof v !== 'boolean') throw new AttentionError(`head mask: entry ${i} is ${describe(v)}; expected true or false`);
      values.push(v ? 1 : 0);
    });
    if (values.length !== numLayers * numHeads) {
      throw new AttentionError(`head mask: expected ${numLayers} x ${numHeads} = ${numLayers * numHeads} entries (layer-major), got ${values.length}`);
    }
    return values;
  }

  ablate(mask) {
    const raw = this[ALIVE]();
    check(raw.setHeadMask(this.#maskArray(mask)));
  }

  get headMask() {
    return Array.from(this[ALIVE]().headMask(), (v) => v === 1);
  }

  importance() {
    const raw = this[ALIVE]();
    check(raw.computeImportance());
    const packed = new Float64Array(raw.importance());
    const heads = [];
    for (let i = 0; i < packed.length; i += 6) {
      heads.push({
        layer: packed[i], head: packed[i + 1], lossWithout: packed[i + 2], accuracyWithout: packed[i + 3],
        lossChange: packed[i + 4], gradientScore: packed[i + 5],
      });
    }
    return heads;
  }

  attention(example = 0) {
    const raw = this[ALIVE]();
    check(raw.computeExample(int32(example, 'example')));
    const { seqLen: L, numLayers, numHeads } = this.config;
    const tokens = new Int32Array(raw.exampleTokens());
    const labels = new Int32Array(raw.exampleLabels());
    const predictions = new Int32Array(raw.examplePredictions());
    const weights = new Float32Array(raw.exampleWeights());
    const layers = [];
    for (let l = 0; l < numLayers; l++) {
      const heads = [];
      for (let i = 0; i < numHeads; i++) {
        const start = (l * numHeads + i) * L * L;
        heads.push(new Matrix(L, L, weights.subarray(start, start + L * L)));
      }
      layers.push(heads);
    }
    return { tokens, labels, predictions, layers };
  }
}

// The training module's two wasm files, as the calling page resolves them (training-urls.js).
export { trainingWasmUrls };

/**
 * Loads a training module (a fresh wasm instance with its own memory). Options: `simd`
 * ('auto' by default); `wasm`, the { simd, scalar } URLs from trainingWasmUrls() on the
 * page (defaults to resolving them here); `wasmBinary`, the .wasm bytes (for Node, where
 * Emscripten 3.1.6's web build cannot fetch files).
 */
export async function loadTrainingEngine(options = {}) {
  const { simd = 'auto', wasmBinary, wasm } = options;
  const useSimd = simd === 'auto' ? supportsSimd() : Boolean(simd);
  const factoryModule = useSimd
    ? await import('../generated/multiple_heads_train_simd.mjs')
    : await import('../generated/multiple_heads_train_scalar.mjs');
  // wasm-loader.js fetches and compiles, so a failure names its cause (CSP, CORS, a missing
  // file) as an EngineLoadError, as the page's core does.
  const source = wasmBinary ?? String((wasm ?? trainingWasmUrls())[useSimd ? 'simd' : 'scalar']);
  return new TrainingEngine(await instantiateModule(factoryModule.default, source));
}

let shared = null;
/** One training engine per page (or worker), loaded on first use. */
export function sharedTrainingEngine(options) {
  shared ??= loadTrainingEngine(options).catch((error) => {
    shared = null;
    throw error;
  });
  return shared;
}
