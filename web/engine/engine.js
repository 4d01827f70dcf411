// The friendly JavaScript API over the raw Embind module (bindings/). See engine.d.ts for
// the documented types. This layer:
//  * picks the SIMD or the scalar wasm build at load time (feature detection);
//  * turns the raw layer's error strings into thrown AttentionError objects;
//  * copies every result out of the wasm heap at once (memory growth detaches views);
//  * owns object lifetimes: each AttentionModel wraps one C++ object, freed by delete();
//  * reads and checks every argument before any wasm call (see "Arguments" below).

/** Thrown for every invalid argument; `message` is the core's own message. */
export class AttentionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'AttentionError';
  }
}

// A minimal module with one function returning v128: `i32.const 0; i8x16.splat;
// i8x16.popcnt`. Engines without SIMD128 fail to validate it.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253,
  15, 253, 98, 11,
]);

/** True when this JavaScript engine can run the SIMD128 build. */
export function supportsSimd() {
  try {
    return WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

// Own-key lookups: a plain object would also answer 'toString' or 'constructor' (with a
// function, which the bindings would read as 0, i.e. W_Q).
const PROJECTION_INDEX = new Map([['query', 0], ['key', 1], ['value', 2]]);
const WEIGHT_INDEX = new Map([['query', 0], ['key', 1], ['value', 2], ['output', 3]]);

// The C++ types behind the bindings' number parameters. Embind converts any JS number
// into them modulo 2^32 (2^32 + 3 would become 3), so values outside are refused here.
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const UINT32_MAX = 2 ** 32 - 1;

function check(errorMessage) {
  if (errorMessage) throw new AttentionError(errorMessage);
}

function unwrap(result) {
  if (result.error) throw new AttentionError(result.error);
  return result;
}

// ---- Arguments ----------------------------------------------------------------------
// Everything a caller passes is read and checked here, in JavaScript, before any wasm call,
// and arrays are copied into fresh Float32Arrays. The bindings read their arguments from
// inside wasm frames: an exception thrown there (a `length` getter that throws, a Proxy)
// unwinds those frames without restoring the wasm stack pointer, about 32 bytes a call,
// until the module traps and every widget on the page stops (issue 11). A fresh
// Float32Array cannot throw when read. Invalid arguments throw AttentionError.

/** A short description of any value for a message; never throws (no toString calls). */
function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null || ['undefined', 'number', 'boolean', 'bigint'].includes(typeof value)) return String(value);
  if (typeof value === 'symbol') return 'a symbol';
  if (typedArrayLengthOf(value) !== null) return 'a typed array';
  return Array.isArray(value) ? 'an array' : `an ${typeof value}`;
}

/** The message of a caught exception, for our own message; never throws. */
function reasonOf(error) {
  try {
    return String(error instanceof Error ? error.message : error).slice(0, 200);
  } catch {
    return 'an exception';
  }
}

// The typed-array `length` getter from %TypedArray%.prototype: it reads the internal length
// (ignoring any own `length` property a caller defined) and throws for anything that is
// not a genuine typed array, Proxies included.
const internalTypedArrayLength =
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'length').get;

function typedArrayLengthOf(value) {
  try {
    return internalTypedArrayLength.call(value);
  } catch {
    return null;
  }
}

/** Reads object[key] for a message naming `what`; a throwing getter becomes AttentionError. */
function readField(object, key, what) {
  try {
    return object[key];
  } catch (error) {
    throw new AttentionError(`${what}: reading ${key} threw (${reasonOf(error)})`);
  }
}

/** A whole number that fits the binding's C++ int (range checks stay with the core). */
function int32(value, what) {
  if (!Number.isInteger(value)) throw new AttentionError(`${what}: expected a whole number, got ${describe(value)}`);
  if (value < INT32_MIN || value > INT32_MAX) {
    throw new AttentionError(`${what}: ${value} is outside the core's range (${INT32_MIN} to ${INT32_MAX})`);
  }
  return value;
}

function uint32(value, what) {
  if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX) {
    throw new AttentionError(`${what}: expected a whole number from 0 to ${UINT32_MAX}, got ${describe(value)}`);
  }
  return value;
}

/** true or false; `undefined` means `fallback`. Strings like 'false' are refused, not truthy. */
function flag(value, what, fallback) {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new AttentionError(`${what}: expected true or false, got ${describe(value)}`);
  return value;
}

/**
 * A fresh Float32Array with the values of a typed array or an array-like of numbers
 * (entries that are not numbers become NaN, which the core then names). At most
 * maxLength values: the length is read once and must be a whole number in range.
 */
function copyNumbers(values, what, maxLength) {
  const typedLength = typedArrayLengthOf(values);
  if (typedLength !== null) {
    if (typedLength > maxLength) throw new AttentionError(`${what}: at most ${maxLength} values, got ${typedLength}`);
    const copy = new Float32Array(typedLength);
    try {
      copy.set(values); // reads the typed array's own storage: no getters run
    } catch {
      throw new AttentionError(`${what}: expected numbers, got a typed array of BigInts`);
    }
    return copy;
  }
  if (values === null || typeof values !== 'object') {
    throw new AttentionError(`${what}: expected an array of numbers, got ${describe(values)}`);
  }
  const length = readField(values, 'length', what);
  if (!Number.isSafeInteger(length) || length < 0 || length > maxLength) {
    throw new AttentionError(`${what}: expected an array of numbers with a length from 0 to ${maxLength}, got length ${describe(length)}`);
  }
  const copy = new Float32Array(length);
  try {
    for (let i = 0; i < length; i++) {
      const value = values[i];
      copy[i] = typeof value === 'number' ? value : NaN;
    }
  } catch (error) {
    throw new AttentionError(`${what}: reading its entries threw (${reasonOf(error)})`);
  }
  return copy;
}

/** { rows, cols, data } from a Matrix-like, with data copied. */
function copyMatrix(matrix, what, maxLength) {
  if (matrix === null || typeof matrix !== 'object') {
    throw new AttentionError(`${what}: expected a Matrix ({ rows, cols, data }), got ${describe(matrix)}`);
  }
  const rows = int32(readField(matrix, 'rows', what), `${what}: rows`);
  const cols = int32(readField(matrix, 'cols', what), `${what}: cols`);
  return { rows, cols, data: copyNumbers(readField(matrix, 'data', what), what, maxLength) };
}

/** A row-major matrix copied out of the core. */
export class Matrix {
  constructor(rows, cols, data) {
    this.rows = rows;
    this.cols = cols;
    this.data = data;
  }
  get(row, col) {
    return this.data[row * this.cols + col];
  }
  row(row) {
    return this.data.slice(row * this.cols, (row + 1) * this.cols);
  }
}

class Engine {
  constructor(module, target) {
    this.module = module;
    this.target = target;
    this.live = new Set();
    this.limits = Object.freeze({ ...module.coreLimits() });
    // The longest array any argument can need: an L x L, L x d_model or d_model x d_model
    // matrix at the core's largest shape. Longer claimed lengths are refused unread.
    const side = Math.max(this.limits.maxSeqLen, this.limits.maxModelWidth);
    this.maxArrayLength = side * side;
  }

  numbers(values, what) {
    return copyNumbers(values, what, this.maxArrayLength);
  }

  createModel(config) {
    const source = config ?? {};
    if (typeof source !== 'object') throw new AttentionError(`config: expected { seqLen, dModel, numHeads }, got ${describe(config)}`);
    const seqLen = int32(readField(source, 'seqLen', 'config'), 'seqLen');
    const dModel = int32(readField(source, 'dModel', 'config'), 'dModel');
    const numHeads = int32(readField(source, 'numHeads', 'config'), 'numHeads');
    const causal = flag(readField(source, 'causal', 'config'), 'causal', false);
    const raw = new this.module.RawModel();
    const error = raw.configure(seqLen, dModel, numHeads, causal);
    if (error) {
      raw.delete();
      throw new AttentionError(error);
    }
    return new AttentionModel(this, raw); // counted in this.live until deleted
  }

  get liveModels() {
    return this.live.size;
  }

  heapBytesInUse() {
    return this.module.heapBytesInUse();
  }

  wasmStackPointer() {
    return this.module.wasmStackPointer();
  }

  get eigenSimdInstructionSets() {
    return this.module.eigenSimdInstructionSets();
  }

  cosineSimilarity(a, b) {
    const first = this.numbers(a, 'first vector');
    const second = this.numbers(b, 'second vector');
    return unwrap(this.module.cosineSimilarity(first, second)).value;
  }

  softmax(scores) {
    return unwrap(this.module.softmax(this.numbers(scores, 'scores'))).values;
  }

  componentAlong(matrix, direction) {
    const { rows, cols, data } = copyMatrix(matrix, 'matrix', this.maxArrayLength);
    const u = this.numbers(direction, 'direction u');
    return unwrap(this.module.componentAlong(data, rows, cols, u)).values;
  }

  findAlternativeWeights(values, weights) {
    const { rows, cols, data } = copyMatrix(values, 'values', this.maxArrayLength);
    const w = this.numbers(weights, 'weights');
    const { error, ...result } = unwrap(this.module.findAlternativeWeights(data, rows, cols, w));
    return result;
  }

  nearestByCosine(readings, candidates) {
    const r = copyMatrix(readings, 'readings', this.maxArrayLength);
    const c = copyMatrix(candidates, 'candidates', this.maxArrayLength);
    const { choice, cosines } = unwrap(this.module.nearestByCosine(r.data, r.rows, r.cols, c.data, c.rows));
    return { choice, cosines: new Matrix(r.rows, c.rows, cosines) };
  }

  principalPlane(points, extra) {
    const p = copyMatrix(points, 'points', this.maxArrayLength);
    // No extra points: an empty matrix of the points' width.
    const e = extra === undefined ? { rows: 0, cols: p.cols, data: new Float32Array(0) }
      : copyMatrix(extra, 'extra points', this.maxArrayLength);
    const plane = unwrap(this.module.principalPlane(p.data, p.rows, p.cols, e.data, e.rows));
    return {
      centre: plane.centre,
      axes: new Matrix(2, p.cols, plane.axes),
      coordinates: new Matrix(p.rows, 2, plane.coordinates),
      extraCoordinates: new Matrix(e.rows, 2, plane.extraCoordinates),
      explained: plane.explained,
    };
  }

  seededMatrix(rows, cols, seed, scale = 1) {
    int32(rows, 'seededMatrix: rows');
    int32(cols, 'seededMatrix: cols');
    uint32(seed, 'seededMatrix: seed');
    if (typeof scale !== 'number') throw new AttentionError(`seededMatrix: scale: expected a number, got ${describe(scale)}`);
    return new Matrix(rows, cols, unwrap(this.module.seededMatrix(rows, cols, seed, scale)).values);
  }
}

function projectionIndex(kind) {
  const index = PROJECTION_INDEX.get(kind);
  if (index === undefined) throw new AttentionError(`projection: expected "query", "key" or "value", got ${describe(kind)}`);
  return index;
}

// What AttentionModel and training.js's Trainer share: each wraps one C++ object, counted in
// one of the engines' live sets until delete() frees it; every other method goes through
// [ALIVE]() (a symbol key, so it is not part of the public API).
const ALIVE = Symbol('alive');

class CoreObject {
  #live;
  #what;

  constructor(raw, live, what) {
    this.raw = raw;
    this.#live = live;
    this.#what = what;
    live.add(this);
  }

  get deleted() {
    return this.raw === null;
  }

  delete() {
    if (this.raw === null) return;
    this.raw.delete();
    this.raw = null;
    this.#live.delete(this);
  }

  [ALIVE]() {
    if (this.raw === null) throw new AttentionError(`this ${this.#what} has been deleted`);
    return this.raw;
  }
}

export class AttentionModel extends CoreObject {
  constructor(engine, raw) {
    super(raw, engine.live, 'AttentionModel');
    this.engine = engine;
    this.config = Object.freeze({
      seqLen: raw.seqLen(),
      dModel: raw.dModel(),
      numHeads: raw.numHeads(),
      causal: raw.causal(),
      dK: raw.dModel() / raw.numHeads(),
    });
  }

  randomize(seed) {
    uint32(seed, 'seed');
    check(this[ALIVE]().randomize(seed));
  }

  setHeadProjection(kind, head, values) {
    const raw = this[ALIVE]();
    const index = projectionIndex(kind);
    int32(head, 'head');
    check(raw.setHeadProjection(index, head, this.engine.numbers(values, `W_${kind[0].toUpperCase()} of head ${head}`)));
  }

  setProjection(kind, values) {
    const raw = this[ALIVE]();
    const index = projectionIndex(kind);
    check(raw.setProjection(index, this.engine.numbers(values, `W_${kind[0].toUpperCase()}`)));
  }

  setOutputProjection(values) {
    const raw = this[ALIVE]();
    check(raw.setOutputProjection(this.engine.numbers(values, 'W_O')));
  }

  getWeights(kind) {
    const raw = this[ALIVE]();
    const index = WEIGHT_INDEX.get(kind);
    if (index === undefined) throw new AttentionError(`weights: expected "query", "key", "value" or "output", got ${describe(kind)}`);
    const d = this.config.dModel;
    return new Matrix(d, d, new Float32Array(raw.weights(index)));
  }

  setAttentionOverride(head, weights) {
    const raw = this[ALIVE]();
    int32(head, 'head');
    if (weights === null) check(raw.clearAttentionOverride(head));
    else check(raw.setAttentionOverride(head, this.engine.numbers(weights, `attention weights of head ${head}`)));
  }

  renormalizeRows(weights) {
    const raw = this[ALIVE]();
    check(raw.renormalizeRows(this.engine.numbers(weights, 'weights to renormalize')));
    return new Float32Array(raw.renormalized());
  }

  forward(x, options) {
    const raw = this[ALIVE]();
    // No options (undefined or null) means the defaults.
    if (options !== undefined && options !== null && typeof options !== 'object') {
      throw new AttentionError(`forward options: expected an object, got ${describe(options)}`);
    }
    const perHeadContributions = flag(options == null ? undefined : readField(options, 'perHeadContributions', 'forward options'), 'perHeadContributions', true);
    const keepAttention = flag(options == null ? undefined : readField(options, 'keepAttention', 'forward options'), 'keepAttention', true);
    check(raw.forward(this.engine.numbers(x, 'X'), perHeadContributions, keepAttention));
    const { seqLen: L, dModel: d, numHeads: h, dK } = this.config;
    // One copy of the packed trace (layout in bindings/multiple_heads_bindings.cpp), made
    // at once: a later call may grow the wasm memory and detach the view. The matrices
    // below are views into this JS-owned copy.
    const packed = new Float32Array(raw.packedTrace());
    let offset = 0;
    const take = (rows, cols) => {
      const m = new Matrix(rows, cols, packed.subarray(offset, offset + rows * cols));
      offset += rows * cols;
      return m;
    };
    const [queries, keys, values, concat, output] = [0, 1, 2, 3, 4].map(() => take(L, d));
    const heads = [];
    for (let i = 0; i < h; i++) {
      heads.push({
        scores: keepAttention ? take(L, L) : null,
        weights: keepAttention ? take(L, L) : null,
        output: take(L, dK),
        contribution: perHeadContributions ? take(L, d) : null,
        weightsOverridden: take(1, 1).data[0] === 1,
      });
    }
    const counts = raw.counts();
    return {
      queries, keys, values, heads, concat, output,
      counts: { ...counts, attention: counts.scores + counts.weightedSum },
    };
  }

  similaritySingularValues(head) {
    const raw = this[ALIVE]();
    int32(head, 'head');
    check(raw.computeSimilaritySpectrum(head));
    return new Float64Array(raw.spectrum());
  }

  /**
   * The numerical rank of head's W_Q^i (W_K^i)^T: how many of its singular values exceed
   * relativeTolerance times the largest, counted by the core (numerical_rank). The exact
   * zeros of a rank-deficient product come out of double-precision arithmetic near 1e-16
   * times the largest, hence a tolerance rather than a test for 0.
   */
  similarityRank(head, relativeTolerance = 1e-6) {
    if (typeof relativeTolerance !== 'number' || !(relativeTolerance >= 0 && relativeTolerance < 1)) {
      throw new AttentionError(`relativeTolerance: expected a number from 0 up to (not including) 1, got ${describe(relativeTolerance)}`);
    }
    const raw = this[ALIVE]();
    int32(head, 'head');
    check(raw.computeSimilaritySpectrum(head));
    return raw.spectrumRank(relativeTolerance);
  }
}

// Where the wasm modules are. The URLs are resolved here, in a module the page itself
// runs, with `new URL('<literal>', import.meta.url)`: a bundler (Vite, or Rollup with an
// import-meta-url plugin) rewrites each to the asset it emits, and without a bundler they
// are the files next to this one. A worker does NOT resolve them itself (a worker
// re-bundled by an author's Vite would ask for a name that no longer exists): it gets
// wasmSources() from the page in a message and passes it to loadEngine({ wasm }).
// See wasm-loader.js. (Imports are hoisted: this one sits with the loader it serves.)
import { EngineLoadError, instantiateModule } from './wasm-loader.js';

export { EngineLoadError };

/** The two wasm modules' URLs, as this page resolves them. */
export function wasmUrls() {
  return {
    simd: new URL('../generated/multiple_heads_simd.wasm', import.meta.url).href,
    scalar: new URL('../generated/multiple_heads_scalar.wasm', import.meta.url).href,
  };
}

let providedWasm = null;
/**
 * For builds that carry the wasm inline (the single-file embed): the bytes of both modules,
 * used from now on instead of fetching.
 */
export function provideWasm({ simd, scalar }) {
  providedWasm = { simd, scalar };
}

/** What loadEngine({ wasm }) needs to load this page's core elsewhere (a worker): URLs or bytes. */
export function wasmSources() {
  return providedWasm ?? wasmUrls();
}

/**
 * Loads the wasm core. In a browser call it with no options; in a worker pass
 * `wasm: wasmSources()` from the page; in Node pass `wasmBinary` (Emscripten 3.1.6's web
 * build cannot fetch files in Node). A failure is an EngineLoadError whose message says
 * what the author can fix (CSP, CORS, a missing file).
 */
export async function loadEngine(options = {}) {
  const { simd = 'auto', wasmBinary, wasm } = options;
  const useSimd = simd === 'auto' ? supportsSimd() : Boolean(simd);
  const factoryModule = useSimd
    ? await import('../generated/multiple_heads_simd.mjs')
    : await import('../generated/multiple_heads_scalar.mjs');
  const source = wasmBinary ?? (wasm ?? wasmSources())[useSimd ? 'simd' : 'scalar'];
  const module = await instantiateModule(factoryModule.default, source);
  return new Engine(module, module.kernelTarget());
}

let shared = null;
/** The one engine shared by every widget on a page, loaded on first use. */
export function sharedEngine() {
  shared ??= loadEngine().catch((error) => {
    shared = null;
    throw error;
  });
  return shared;
}

// For web/engine/training.js, the API of the separate training module (loaded only when a
// trainer is made): it reads its arguments and owns its objects by the same rules. Not part
// of the documented API (engine.d.ts).
export { describe, reasonOf, readField, int32, uint32, flag, check, CoreObject, ALIVE };
