// The friendly JavaScript API over the raw Embind module (bindings/). See engine.d.ts for
// the documented types. This layer:
//  * picks the SIMD or the scalar wasm build at load time (feature detection);
//  * turns the raw layer's error strings into thrown AttentionError objects;
//  * copies results out of the wasm heap (memory growth detaches views), or, when the caller
//    asks for views (forward's `views` option), hands out views with a documented lifetime;
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
    const { choice, cosines, tied } = unwrap(this.module.nearestByCosine(r.data, r.rows, r.cols, c.data, c.rows));
    return { choice, cosines: new Matrix(r.rows, c.rows, cosines), tied };
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

// The results forward() can return, for its `include` option, as bits of a mask.
const FORWARD_RESULTS = ['queries', 'keys', 'values', 'heads', 'concat', 'output'];
const RESULT_BIT = new Map(FORWARD_RESULTS.map((name, i) => [name, 1 << i]));
const ALL_RESULTS = (1 << FORWARD_RESULTS.length) - 1;
const [QUERIES, KEYS, VALUES, HEADS, CONCAT, OUTPUT] = FORWARD_RESULTS.map((name) => RESULT_BIT.get(name));

/** The mask of forward's `include` (absent: everything); names matched exactly. */
function includedResults(include) {
  if (include === undefined) return ALL_RESULTS;
  if (!Array.isArray(include)) {
    throw new AttentionError(`include: expected an array of result names (${FORWARD_RESULTS.join(', ')}), got ${describe(include)}`);
  }
  const length = readField(include, 'length', 'include');
  if (length > 4 * FORWARD_RESULTS.length) throw new AttentionError(`include: at most ${4 * FORWARD_RESULTS.length} names, got ${length}`);
  let mask = 0;
  for (let i = 0; i < length; i++) {
    const name = readField(include, i, 'include');
    const bit = typeof name === 'string' ? RESULT_BIT.get(name) : undefined;
    if (bit === undefined) {
      throw new AttentionError(`include: entry ${i} is ${describe(name)}; expected one of ${FORWARD_RESULTS.join(', ')}`);
    }
    mask |= bit;
  }
  return mask;
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
  #inputAddress = null;

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
    let perHeadContributions = true, keepAttention = true, views = false, include = ALL_RESULTS;
    if (options !== undefined && options !== null) {
      if (typeof options !== 'object') throw new AttentionError(`forward options: expected an object, got ${describe(options)}`);
      perHeadContributions = flag(readField(options, 'perHeadContributions', 'forward options'), 'perHeadContributions', true);
      keepAttention = flag(readField(options, 'keepAttention', 'forward options'), 'keepAttention', true);
      views = flag(readField(options, 'views', 'forward options'), 'views', false);
      include = includedResults(readField(options, 'include', 'forward options'));
    }
    const { seqLen: L, dModel: d, numHeads: h, dK } = this.config;
    const module = this.engine.module;

    // X goes straight into the model's input buffer in the wasm heap: a typed array of the
    // right length by set() (which reads its storage, never a getter), anything else
    // through the checked copy. A wrong length is passed on as a count for the core to name.
    const n = L * d;
    let count = typedArrayLengthOf(x);
    let written = false;
    if (count === n) {
      try {
        module.HEAPF32.set(x, this.#inputIndex());
        written = true;
      } catch {
        // a BigInt array: the checked copy below names it
      }
    }
    if (!written) {
      const copy = this.engine.numbers(x, 'X');
      count = copy.length;
      if (count === n) module.HEAPF32.set(copy, this.#inputIndex());
    }
    const withHeads = (include & HEADS) !== 0;
    const flags = (perHeadContributions ? 1 : 0) | (keepAttention ? 2 : 0) | (withHeads ? 4 : 0);
    const directory = raw.forwardInPlace(flags, count);
    if (directory === 0) throw new AttentionError(raw.lastError());

    // Read after the call: the heap views are replaced when the wasm memory grows.
    const heap = module.HEAPF32;
    const u32 = module.HEAPU32;
    const at = directory >>> 2;
    // A view into the wasm heap (valid until the next call into this engine; see
    // engine.d.ts) or a copy the caller owns.
    const matrix = (address, rows, cols) => {
      if (address === 0) return null;
      const start = address >>> 2;
      const end = start + rows * cols;
      return new Matrix(rows, cols, views ? heap.subarray(start, end) : heap.slice(start, end));
    };
    const c = u32[at + 5] >>> 3;
    const f64 = module.HEAPF64;
    const counts = {
      projections: f64[c], scores: f64[c + 1], weightedSum: f64[c + 2], output: f64[c + 3],
      exponentials: f64[c + 4], attention: f64[c + 1] + f64[c + 2],
    };
    let heads = null;
    if (withHeads) {
      heads = [];
      for (let i = 0, e = at + 6; i < h; i++, e += 5) {
        heads.push({
          scores: matrix(u32[e], L, L),
          weights: matrix(u32[e + 1], L, L),
          output: matrix(u32[e + 2], L, dK),
          contribution: matrix(u32[e + 3], L, d),
          weightsOverridden: u32[e + 4] === 1,
        });
      }
    }
    return {
      queries: include & QUERIES ? matrix(u32[at], L, d) : null,
      keys: include & KEYS ? matrix(u32[at + 1], L, d) : null,
      values: include & VALUES ? matrix(u32[at + 2], L, d) : null,
      heads,
      concat: include & CONCAT ? matrix(u32[at + 3], L, d) : null,
      output: include & OUTPUT ? matrix(u32[at + 4], L, d) : null,
      counts,
    };
  }

  /** Index (in floats) of the model's input buffer in the wasm heap; fixed per model. */
  #inputIndex() {
    this.#inputAddress ??= this.raw.inputAddress();
    return this.#inputAddress >>> 2;
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
